"""`orrery explain --format text|markdown|html`, and `--diff` shown complete."""

from __future__ import annotations

import textwrap
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import REPO
from orrery.interpreter.cli.main import main
from orrery.interpreter.cli.explain_format import as_html, as_text

TTT = REPO / "games" / "tic-tac-toe" / "rules.yaml"


def explain(capsys, *args: str) -> str:
    assert main(["explain", *args]) == 0
    return capsys.readouterr().out


def test_markdown_is_the_summary_as_written(capsys):
    md = explain(capsys, str(TTT), "--format", "markdown")
    assert md.startswith("# Tic-tac-toe\n") and "\n## Actions\n" in md and "`cells(board)`" in md


def test_text_has_underlined_titles_and_no_markup(capsys):
    text = explain(capsys, str(TTT))
    lines = text.splitlines()
    assert lines[:2] == ["Tic-tac-toe", "==========="]
    assert lines[lines.index("Actions") + 1] == "-------"
    assert "#" not in "".join(line[:1] for line in lines) and "`" not in text
    assert "        create mark {owner: current} in square" in lines  # effects stay quoted as written


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)


def test_html_is_a_page_with_the_sections(capsys):
    page = explain(capsys, str(TTT), "--format", "html")
    parser = _Tags()
    parser.feed(page)
    assert page.startswith("<!DOCTYPE html>") and "<title>Tic-tac-toe</title>" in page
    assert {"h1", "h2", "ul", "li", "code"} <= set(parser.tags)
    assert "<h2>Actions</h2>" in page


def test_html_escapes_markup_from_the_spec():
    page = as_html("# A <b>bold</b> title\n\n- `x < 1` and <script>alert(1)</script>\n", "<t>")
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<title>&lt;t&gt;</title>" in page and "<b>" not in page


def test_text_keeps_fenced_code_and_hash_lines_inside_it():
    md = "# T\n\n```\n# not a title\n`kept`\n```\n- `x`\n"
    assert as_text(md).splitlines() == ["T", "=", "", "# not a title", "`kept`", "- x"]


def test_diff_is_complete(tmp_path: Path, capsys):
    long_effect = "\n".join(f"say \"line {i}\"" for i in range(40))
    variant = tmp_path / "long.yaml"
    rule = "a very long rule sentence " * 12
    variant.write_text(f"variant: {{name: long, base: {TTT}}}\nchanges:\n"
                       "  - set: actions.place.effect\n    value: |\n" + textwrap.indent(long_effect, "      ") + "\n"
                       f"  - set: actions.place.rule\n    value: \"{rule}\"\n")
    out = explain(capsys, str(TTT), "--variant", str(variant), "--diff", "--format", "markdown")
    for i in range(40):
        assert f'say "line {i}"' in out
    assert ("a very long rule sentence " * 12).strip() in out
    assert "more lines" not in out and "..." not in out


def test_a_bad_format_is_refused(capsys):
    assert main(["explain", str(TTT), "--format", "pdf"]) == 2  # (main returns argparse's exit code)
    assert "invalid choice: 'pdf'" in capsys.readouterr().err
