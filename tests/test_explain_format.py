"""`orrery explain --format text|markdown|html`, and `--diff` shown complete."""

from __future__ import annotations

import re
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
    assert md.startswith("# Tic-tac-toe\n") and "\n## Actions\n" in md and "`owns_line(current)`" in md
    assert "| board | 3×3 grid, king adjacency |  |" in md  # components are a table


def test_text_has_underlined_titles_and_no_markup(capsys):
    text = explain(capsys, str(TTT))
    lines = text.splitlines()
    assert lines[:2] == ["Tic-tac-toe", "==========="]
    assert lines[lines.index("Actions") + 1] == "-------"
    assert "#" not in "".join(line[:1] for line in lines) and "`" not in text and "|" not in text
    assert "- Put a new mark (owner: you) in square." in lines  # effects in words
    table = lines.index("Places")  # a table as aligned columns under a rule of dashes
    assert lines[table + 1].split() == ["place", "kind", "details"]
    assert set(lines[table + 2]) == {"-", " "} and lines[table + 3].startswith("board  3×3 grid, king adjacency")


def test_text_tables_align_and_keep_escaped_pipes():
    md = "| a | long header |\n|---|---|\n| `x \\| y` | 1 |\n\nafter\n"
    assert as_text(md).splitlines() == ["a      long header", "-----  -----------", "x | y  1", "", "after"]
    assert as_text("- **Bold** name and `code`\n").splitlines() == ["- Bold name and code"]


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
    assert {"h1", "h2", "ul", "li", "code", "table", "th", "td", "blockquote"} <= set(parser.tags)
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


class _Structure(HTMLParser):
    """Headings in order, and per table the number of cells of each row."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[tuple[str, str]] = []
        self.rows: list[int] = []
        self._tag: str | None = None
        self.tables = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in ("h1", "h2", "h3"):
            self._tag = tag
            self.headings.append((tag, ""))
        elif tag == "table":
            self.tables += 1
        elif tag == "tr":
            self.rows.append(0)
        elif tag in ("td", "th"):
            self.rows[-1] += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == self._tag:
            self._tag = None

    def handle_data(self, data: str) -> None:
        if self._tag:
            tag, text = self.headings[-1]
            self.headings[-1] = (tag, text + data)


@pytest.mark.parametrize("game", sorted(p.parent.name for p in (REPO / "games").glob("*/rules.yaml")))
def test_every_game_as_html_has_its_sections_in_order_and_whole_tables(capsys, game):
    from orrery.interpreter.cli.explain import SECTIONS

    page = explain(capsys, game, "--format", "html")
    s = _Structure()
    s.feed(page)
    h2 = [text for tag, text in s.headings if tag == "h2"]
    assert [tag for tag, _ in s.headings][:1] == ["h1"] and h2 == [t for t in SECTIONS if t in h2]
    assert s.tables >= 2 and all(n == s.rows[0] or n > 0 for n in s.rows)
    md = explain(capsys, game, "--format", "markdown")
    for block in re.split(r"\n(?!\|)", md):  # every Markdown table: header, rule, rows all of one width
        rows = [r for r in block.split("\n") if r.startswith("|")]
        if rows:
            widths = {len(re.split(r"(?<!\\)\|", r)) for r in rows}
            assert len(widths) == 1, rows


@pytest.mark.parametrize("variant", sorted(str(p.relative_to(REPO)) for p in (REPO / "games").glob("*/variants/*.yaml")))
def test_diff_of_every_bundled_variant_lists_every_change(capsys, variant):
    """`--diff` is complete: one entry per change the variant file lists, each with its old and new value."""
    import yaml

    path = REPO / variant
    data = yaml.safe_load(path.read_text())
    name, game = data["variant"]["name"], path.parent.parent.name
    out = explain(capsys, game, "--variant", str(path), "--diff")
    ops = ("set", "replace", "remove", "add", "append", "prepend", "patch")
    entries = [line for line in out.splitlines() if re.match(rf"variant {name}: ({'|'.join(ops)}) ", line)]
    assert len(entries) == len(data.get("changes") or []), entries
    for change, entry in zip(data.get("changes") or [], entries):
        op = next(k for k in ops if k in change)
        assert entry.startswith(f"variant {name}: {op} ")
    assert out.count("\n  old:") + out.count("\n  old: ") >= len(entries) and out.count("\n  new:") >= len(entries)
