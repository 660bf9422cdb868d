"""Paths (issue 39.4 and 39.5): an output never replaces an input of the same command (after resolving links,
hard links too), refused before anything is written; paths written inside files resolve against that file,
so a file validates the same from every folder."""

from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path

import pytest

from orrery.interpreter.cli.main import main
from orrery.interpreter.cli.scaffold import scaffold
from orrery.rulespec.paths import real_path, same_file


def digest(folder: Path) -> dict[str, str]:
    """Every file under `folder` with a hash of its bytes (links as their target's name)."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_symlink():
            out[str(p)] = "-> " + os.readlink(p)
        elif p.is_file():
            out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture
def table(tmp_path, monkeypatch):
    """A game folder and a save of a game in progress (two decisions) in tmp_path, the current folder."""
    scaffold("mini", tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("run\nwalk\nq\n"))
    assert main(["play", "mini", "--seats", "human,human", "--seed", "3", "--save", "game.json"]) == 0
    os.symlink("game.json", tmp_path / "alias.jsonl")
    os.link(tmp_path / "mini" / "rules.yaml", tmp_path / "hard.yaml")
    return tmp_path


CLASHES = [
    (["play", "--resume", "game.json", "--log", "game.json"], "--log game.json is the same file as the save being resumed"),
    (["play", "--resume", "game.json", "--log", "alias.jsonl"], "--log alias.jsonl is the same file as the save being resumed"),
    (["play", "--resume", "game.json", "--log", "./mini/../game.json"], "the same file as the save being resumed"),
    (["play", "mini", "--seats", "random,random", "--log", "mini/rules.yaml"], "--log mini/rules.yaml is the same file as the rules"),
    (["play", "mini", "--seats", "random,random", "--log", "hard.yaml"], "--log hard.yaml is the same file as the rules"),
    (["play", "mini", "--seats", "human,random", "--save", "mini/rules.yaml"], "--save mini/rules.yaml is the same file as the rules"),
    (["play", "mini", "--variant", "sprint", "--seats", "human,random", "--save", "mini/variants/sprint.yaml"],
     "is the same file as the variant"),
    (["play", "mini", "--seats", "human,random", "--save", "new.json", "--log", "new.json"], "--log new.json is the same file as --save new.json"),
]


@pytest.mark.parametrize("argv, message", CLASHES, ids=[" ".join(c[0][1:]) for c in CLASHES])
def test_an_output_over_an_input_is_refused_before_anything_is_written(table, capsys, argv, message):
    capsys.readouterr()
    before = digest(table)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "choose another file" in err, err
    assert digest(table) == before  # nothing written, nothing replaced (no lock file left either)


def test_a_resumed_save_is_still_written_again(table, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("walk\nq\n"))
    from orrery.interpreter.files.save import read_save

    assert len(read_save(table / "game.json").decisions) == 2
    assert main(["play", "--resume", "game.json", "--save", "game.json", "--log", "game.jsonl"]) == 0, capsys.readouterr()
    assert len(read_save(table / "game.json").decisions) == 3  # the same file, written again on purpose
    assert (table / "game.jsonl").is_file()


def test_same_file_sees_links_and_never_raises(tmp_path):
    (tmp_path / "a").write_text("x")
    os.symlink("a", tmp_path / "b")
    os.link(tmp_path / "a", tmp_path / "c")
    os.symlink("loop", tmp_path / "loop")
    assert same_file(tmp_path / "a", tmp_path / "b") and same_file(tmp_path / "c", tmp_path / "b")
    assert not same_file(tmp_path / "a", tmp_path / "missing")
    assert not same_file(tmp_path / "loop", tmp_path / "a")
    assert real_path(tmp_path / "loop").name == "loop"  # (Path.resolve raised RuntimeError on a loop)


SCENARIO = """\
game: ../mini/rules.yaml
scenarios:
  - name: the sprint by its path, relative to this file
    variants: [../mini/variants/sprint.yaml]
    steps: [run, walk, run, walk, walk]
    expect_end: arrived
  - name: the sprint by its name
    variants: [sprint]
    steps: [run, walk, run, walk, walk]
    expect_end: arrived
"""


@pytest.mark.parametrize("where", [".", "tests", "mini", "/"])
def test_paths_inside_a_scenario_file_are_relative_to_it(tmp_path, capsys, monkeypatch, where):
    scaffold("mini", tmp_path)
    (tmp_path / "tests").mkdir()
    sc = tmp_path / "tests" / "sprint.yaml"
    sc.write_text(SCENARIO, encoding="utf-8")
    monkeypatch.chdir(tmp_path / where if where != "/" else "/")
    assert main(["validate", str(sc)]) == 0, capsys.readouterr()
    assert main(["test", str(tmp_path / "mini"), str(sc)]) == 0, capsys.readouterr()
    assert "2 passed, 0 failed" in capsys.readouterr().out


def test_a_variant_path_in_a_scenario_is_not_read_from_the_current_folder(tmp_path, capsys, monkeypatch):
    scaffold("mini", tmp_path)
    (tmp_path / "tests").mkdir()
    sc = tmp_path / "tests" / "s.yaml"
    sc.write_text("game: ../mini/rules.yaml\nscenarios:\n  - name: v\n    variants: [mini/variants/sprint.yaml]\n"
                  "    steps: [run]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # from here mini/variants/sprint.yaml exists, but not next to the file
    assert main(["validate", str(sc)]) == 2
    err = capsys.readouterr().err
    assert f"{sc}:4:16: error:" in err and "no such variant file" in err, err
