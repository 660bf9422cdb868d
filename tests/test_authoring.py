"""Authoring edges: `orrery validate DIR`, 'did you mean' for unknown keys, a dangling operator blamed
on itself, --limit only where it means something, and `orrery new NAME`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import REPO
from orrery.interpreter.cli.main import main
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec
from orrery.rulespec.models import Spec
from orrery.rulespec.parser import parse_block, parse_expr
from orrery.rulespec.suggest import allowed_keys, did_you_mean

TYPOS = """\
orrery: 1
game:
  name: typos
  players: {min: 2, max: 2}
  titel: Typos
components:
  zones:
    board: {type: grid, width: 3, height: 3, adjacancy: king}
flow:
  phases:
    - name: play
      step: [{actions: [go]}]
actions:
  go: {effct: "pass"}
end:
  never: {when: "false", winners: "[]"}
"""


def test_unknown_keys_suggest_the_closest_allowed_key(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text(TYPOS)
    with pytest.raises(SpecError) as info:
        load_spec(path)
    found = {(f.span.line, f.span.col): f.message for f in info.value.findings}
    assert found[(5, 3)] == "unknown key 'titel' (did you mean 'title'?)"
    assert found[(8, 46)] == "unknown key 'adjacancy' (did you mean 'adjacency'?)"
    assert found[(12, 7)] == "unknown key 'step' (did you mean 'steps'?)"
    assert found[(14, 8)] == "unknown key 'effct' (did you mean 'effect'?)"


def test_nothing_is_suggested_when_nothing_is_close():
    assert did_you_mean("zzzzzz", allowed_keys(Spec, ("game",))) == ""
    assert "players" in allowed_keys(Spec, ("game",))
    assert "from" in allowed_keys(Spec, ("actions", "go", "params", "square"))  # the YAML spelling of from_


def test_variant_keys_are_suggested_too(tmp_path, capsys):
    path = tmp_path / "v.yaml"
    path.write_text(f"variant:\n  name: v\n  base: {REPO / 'games/tic-tac-toe/rules.yaml'}\n  titel: V\nchanges: []\n")
    assert main(["validate", str(path)]) == 2
    assert "unknown key 'titel' (did you mean 'title'?)" in capsys.readouterr().err


def test_validate_takes_a_game_folder(capsys):
    assert main(["validate", str(REPO / "games" / "tic-tac-toe")]) == 0
    out = capsys.readouterr().out
    for f in ("rules.yaml (spec)", "variants/misere.yaml (variant)", "scenarios/basics.yaml (scenario)"):
        assert f in out


def test_validate_takes_a_folder_of_games_and_reports_each_file(tmp_path, capsys):
    games = tmp_path / "games"
    shutil.copytree(REPO / "games" / "tic-tac-toe", games / "tic-tac-toe")
    (games / "tic-tac-toe" / "variants" / "broken.yaml").write_text("variant: {name: broken}\nchangez: []\n")
    assert main(["validate", str(games)]) == 2
    captured = capsys.readouterr()
    assert "ok: " in captured.out and "rules.yaml (spec)" in captured.out
    assert "broken.yaml:2:1: error: unknown key 'changez' (did you mean 'changes'?)" in captured.err


def test_validate_refuses_a_folder_without_orrery_files(tmp_path, capsys):
    assert main(["validate", str(tmp_path)]) == 2
    assert f"{tmp_path}:1:1: error: is a directory with no rules.yaml" in capsys.readouterr().err


def blame(text: str, expr: bool = False):
    with pytest.raises(SpecError) as info:
        (parse_expr if expr else parse_block)(text)
    f = info.value.findings[0]
    return (f.span.line, f.span.col), f.message


def test_a_trailing_operator_is_blamed_not_the_next_line():
    where, msg = blame('n = n + 1 +\nsay "hi"\n')
    assert where == (1, 11)
    assert "the line ends with '+'" in msg and "'say' cannot follow it" in msg and "reserved word" not in msg


@pytest.mark.parametrize("text, where, op", [("1 +", (1, 3), "+"), ("1 +\n  ", (1, 3), "+"),
                                             ("x and # why\n", (1, 3), "and")])
def test_an_expression_ending_in_an_operator_is_blamed_on_it(text, where, op):
    got, msg = blame(text, expr=True)
    assert got == where and f"unexpected end of text after '{op}'" in msg


def test_an_error_inside_a_continued_line_is_still_where_it_is():
    assert blame("n = 1 +\n  2 3\n")[0] == (2, 5)


@pytest.mark.parametrize("command", ["list", "schema"])
def test_limit_is_not_offered_where_it_means_nothing(command, capsys):
    assert main([command, "--help"]) == 0  # (main returns argparse's exit code)
    assert "--limit" not in capsys.readouterr().out


@pytest.mark.parametrize("command", ["validate", "play", "simulate", "test"])
def test_limit_is_offered_where_it_applies(command, capsys):
    assert main([command, "--help"]) == 0
    assert "--limit" in capsys.readouterr().out


def modeline_target(rules: Path) -> Path:
    first = rules.read_text().splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    return rules.parent / first.partition("$schema=")[2]


def test_new_makes_a_game_that_validates_and_passes_its_scenarios(tmp_path, capsys):
    from orrery.interpreter.cli.scaffold import CHECKOUT

    assert main(["new", "my-race", "--dir", str(tmp_path)]) == 0
    folder = tmp_path / "my-race"
    # an editable install finds the checkout's schema; an installed package (the README's commands) has no
    # checkout beside it, and writes a copy of the schema into the folder
    in_checkout = (CHECKOUT / "docs" / "spec.schema.json").is_file()
    from orrery.interpreter.cli import scaffold

    if Path(scaffold.__file__).resolve().is_relative_to((REPO / "interpreter").resolve()):  # an editable install
        assert in_checkout and CHECKOUT == REPO.resolve(), CHECKOUT
    assert {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} == {
        "rules.yaml", "variants/sprint.yaml", "scenarios/basics.yaml", "NOTES.md"} | (
        set() if in_checkout else {"spec.schema.json"})
    target = modeline_target(folder / "rules.yaml")
    # (an installed package ships docs/ too since `orrery docs`: its modeline points at that copy)
    expected = CHECKOUT / "docs" / "spec.schema.json" if in_checkout else folder / "spec.schema.json"
    assert target.resolve() == expected.resolve()
    capsys.readouterr()
    assert main(["validate", str(folder)]) == 0
    assert capsys.readouterr().out.count("ok: ") == 3
    assert main(["test", str(folder / "rules.yaml")]) == 0
    assert "3 passed, 0 failed" in capsys.readouterr().out
    assert main(["simulate", str(folder / "rules.yaml"), "--games", "5", "--check", "--variant", "sprint"]) == 0


def test_new_without_a_checkout_writes_the_schema_beside_the_rules(tmp_path, monkeypatch):
    from orrery.interpreter.cli import scaffold
    from orrery.rulespec.schema import schema_for

    monkeypatch.setattr(scaffold, "CHECKOUT", tmp_path / "no-checkout")
    folder = scaffold.scaffold("solo", tmp_path)
    target = modeline_target(folder / "rules.yaml")
    assert target == folder / "spec.schema.json"
    assert json.loads(target.read_text()) == schema_for("spec")


@pytest.mark.parametrize("name, message", [("My_Game", "lower-case letters, digits and dashes"),
                                           ("taken", "already exists; not writing over it")])
def test_new_refuses_a_bad_name_or_an_existing_folder(tmp_path, capsys, name, message):
    (tmp_path / "taken").mkdir()
    assert main(["new", name, "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
