"""`orrery docs` (interpreter/cli/docs.py): the docs ship in the package and are read from the command line;
`orrery new` points to them, not to a path of the checkout."""

from __future__ import annotations

import io
import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from orrery.interpreter.cli.docs import docs_dir, headings, section
from orrery.interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


def run(capsys, monkeypatch, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_topics_are_listed_with_their_titles(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "docs")
    assert code == 0
    assert "dsl          The Orrery rule-spec language: reference" in out and "security" in out
    assert "orrery docs dsl 2.10.2" in out


@pytest.mark.parametrize("which", [["2.10.2"], ["§2.10.2"], ["costs"], ["Costs"]])
def test_one_section_by_number_or_words(capsys, monkeypatch, which):
    code, out, _ = run(capsys, monkeypatch, "docs", "dsl", *which)
    assert code == 0 and out.startswith("#### 2.10.2 Costs\n")
    assert "2.10.3" not in out.splitlines()[-1] and "#### 2.10.3" not in out


def test_a_section_holds_its_subsections_and_stops_at_the_next_of_its_level():
    text = "# T\n## 1. A\ntext\n```yaml\n# not a heading\n```\n### 1.1 B\nb\n## 2. C\nc\n"
    assert [t for _, _, t in headings(text)] == ["T", "1. A", "1.1 B", "2. C"]
    assert section(text, "1", "t") == "## 1. A\ntext\n```yaml\n# not a heading\n```\n### 1.1 B\nb\n"
    assert section(text, "1.1", "t") == "### 1.1 B\nb\n"


def test_the_whole_reference_off_a_terminal_is_its_markdown(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "docs", "dsl")
    assert code == 0 and out == (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("argv, message", [
    (["docs", "dls"], "docs: no topic 'dls' (did you mean 'dsl'?) (topics: adapters, api,"),
    (["docs", "dsl", "99.1"], "docs dsl: no section '99.1' (its chapters: 1. Overview; 2. YAML sections;"),
])
def test_an_unknown_topic_or_section_is_refused(capsys, monkeypatch, argv, message):
    code, _, err = run(capsys, monkeypatch, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_path_names_the_file(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "docs", "dsl", "--path")
    assert code == 0 and Path(out.strip()).read_text(encoding="utf-8").startswith("# The Orrery rule-spec language")
    assert Path(out.strip()).parent == docs_dir()


def test_the_docs_are_package_data():
    """pyproject.toml installs docs/ as orrery.docs with every Markdown file (checked on a built wheel too: see
    the report of issue 35 item 9; building one here would need the network for setuptools)."""
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "orrery.docs" in cfg["packages"] and cfg["package-dir"]["orrery.docs"] == "docs"
    patterns = cfg["package-data"]["orrery.docs"]
    for path in (ROOT / "docs").glob("*.md"):
        assert any(fnmatch(path.name, p) for p in patterns), path


def test_a_new_game_points_to_orrery_docs(tmp_path, capsys, monkeypatch):
    code, _, _ = run(capsys, monkeypatch, "new", "quest", "--dir", str(tmp_path))
    assert code == 0
    for name in ("rules.yaml", "NOTES.md"):
        text = (tmp_path / "quest" / name).read_text(encoding="utf-8")
        assert "`orrery docs dsl`" in text and "docs/dsl.md" not in text, name
