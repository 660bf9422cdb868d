"""Names that are not names and values of the wrong type (issue 39.2 and 39.6): every kind of name is matched
in full (no trailing newline, control character or space passes), scenario steps are typed, and the public
API answers bad input with an OrreryError that names the argument."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml

import orrery
from orrery.interpreter.cli.main import main
from orrery.interpreter.cli.scaffold import scaffold
from orrery.interpreter.engine.driver import IllegalMove
from orrery.rulespec.errors import OrreryError
from orrery.rulespec.loader import load_spec

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
TAILS = ["\n", "\r", "\t", "\x00", "\x1b", "\x7f", "\x85", "\u202e", "\u2066", " "]


def _rename(data: dict, path: list, tail: str) -> dict:
    """A copy of `data` with the last key of `path` renamed with `tail` added (references left as they were)."""
    d = copy.deepcopy(data)
    cur = d
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1] + tail] = cur.pop(path[-1])
    return d


def _with(data: dict, path: list, value) -> dict:
    d = copy.deepcopy(data)
    cur = d
    for k in path[:-1]:
        cur = cur.setdefault(k, {})
    cur[path[-1]] = value
    return d


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> dict:
    folder = scaffold("mini", tmp_path_factory.mktemp("names"))
    data = yaml.safe_load((folder / "rules.yaml").read_text())
    data["components"]["pieces"] = {"pawn": {"attributes": {"hp": {"type": "int", "default": 0}},
                                              "state": {"tired": {"type": "bool", "default": False}}}}
    data["components"]["zones"] = {"board": {"type": "grid", "width": 2, "height": 2,
                                             "cell_attributes": {"hot": {"type": "bool", "default": False}}}}
    data["triggers"] = {"cheer": {"on": "action", "effect": "pass"}}
    data["tables"] = {"pts": {"values": {"a": 1}}}
    data["functions"] = {"twice": {"params": ["k"], "expr": "k * 2"}}
    data["procedures"] = {"rest": {"effect": "pass"}}
    data["actions"]["walk"]["params"] = {"steps": {"from": "[1]"}}
    return data


# every kind of spec name: (what, the key's path)
NAMES = [
    ("variable", ["variables", "goal"]), ("action", ["actions", "run"]), ("end condition", ["end", "arrived"]),
    ("track", ["components", "tracks", "position"]), ("piece kind", ["components", "pieces", "pawn"]),
    ("zone", ["components", "zones", "board"]), ("table", ["tables", "pts"]), ("function", ["functions", "twice"]),
    ("procedure", ["procedures", "rest"]), ("trigger", ["triggers", "cheer"]),
    ("invariant", ["invariants", "nobody_goes_back"]),
    ("attribute", ["components", "pieces", "pawn", "attributes", "hp"]),
    ("state field", ["components", "pieces", "pawn", "state", "tired"]),
    ("cell attribute", ["components", "zones", "board", "cell_attributes", "hot"]),
    ("parameter", ["actions", "walk", "params", "steps"]),
]


@pytest.mark.parametrize("what, path", NAMES, ids=[n[0] for n in NAMES])
def test_no_control_character_or_trailing_newline_passes_a_spec_name(base, tmp_path, what, path):
    load_spec(_write(tmp_path / "ok.yaml", base))  # the spec itself is fine
    for tail in TAILS:
        spec = _write(tmp_path / "bad.yaml", _rename(base, path, tail))
        with pytest.raises(OrreryError) as info:
            load_spec(spec, check=True)
        rendered = info.value.render()
        assert all(f.span is not None and f.span.line > 1 for f in info.value.findings), rendered
        assert "is not a valid name" in rendered or "should match pattern" in rendered, (repr(tail), rendered)
        assert not CONTROL.search(rendered.replace("\ufffd", "")), repr(rendered)


def _write(path: Path, data: dict) -> Path:
    path.write_text(yaml.safe_dump(data, allow_unicode=False), encoding="utf-8")  # (controls written as escapes)
    return path


@pytest.mark.parametrize("where", ["game name", "phase name", "variant name", "scenario name"])
def test_no_control_character_passes_the_other_names(base, tmp_path, capsys, where):
    rules = _write(tmp_path / "rules.yaml", base)
    for tail in TAILS if where != "scenario name" else TAILS[:-1]:  # (a scenario's name is a sentence: spaces)
        if where == "game name":
            target = _write(tmp_path / "g.yaml", _with(base, ["game", "name"], "mini" + tail))
        elif where == "phase name":
            phases = copy.deepcopy(base["flow"]["phases"])
            phases[0]["name"] += tail
            target = _write(tmp_path / "g.yaml", _with(base, ["flow", "phases"], phases))
        elif where == "variant name":
            target = _write(tmp_path / "v.yaml", {"variant": {"name": "fast" + tail, "base": str(rules)},
                                                  "changes": []})
        else:
            target = _write(tmp_path / "s.yaml", {"game": str(rules), "scenarios": [
                {"name": "walks" + tail, "steps": ["walk"]}]})
        assert main(["validate", str(target)]) == 2, repr(tail)
        out, err = capsys.readouterr()
        assert f"{target}:" in err and not CONTROL.search(out + err), repr(err)


@pytest.mark.parametrize("tail", TAILS)
def test_orrery_new_refuses_a_name_with_a_control_character(tmp_path, capsys, tail):
    assert main(["new", "abc" + tail, "--dir", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert "a game's name is lower-case letters" in err and not CONTROL.search(out + err), repr(err)
    assert list(tmp_path.iterdir()) == []  # no folder made


@pytest.mark.parametrize("step, shown", [("true", "got true"), ("false", "got false"), ("1.0", "got 1.0"),
                                         ("[1]", "got [1]"), ("null", "got null")])
def test_a_scenario_step_of_the_wrong_type_is_a_located_error(base, tmp_path, capsys, step, shown):
    rules = _write(tmp_path / "rules.yaml", base)
    sc = tmp_path / "s.yaml"
    sc.write_text(f"game: {rules}\nscenarios:\n  - name: typed\n    steps: [walk, {step}]\n", encoding="utf-8")
    for argv in (["validate", str(sc)], ["test", str(rules), str(sc)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert f"{sc}:4:19: error: scenarios.0.steps.1: a step is an option's label" in err and shown in err, err


def _bad_api_inputs():
    g = orrery.load_game("tic-tac-toe")
    s = g.new_initial_state(seed=1)
    state = {"format": "orrery-state/1", "spec_digest": g.spec.digest, "players": 9, "seed": 0, "history": []}
    return {
        "apply(True)": lambda: s.apply(True), "apply('3')": lambda: s.apply("3"), "apply(1.5)": lambda: s.apply(1.5),
        "apply(None)": lambda: s.apply(None), "apply_label(3)": lambda: s.apply_label(3),
        "apply_label(None)": lambda: s.apply_label(None), "seed='x'": lambda: g.new_initial_state(seed="x"),
        "seed=True": lambda: g.new_initial_state(seed=True), "seed=2**80": lambda: g.new_initial_state(seed=2 ** 80),
        "players=99": lambda: g.new_initial_state(players=99), "players=2.0": lambda: g.new_initial_state(players=2.0),
        "setup=5": lambda: g.new_initial_state(setup=5), "view(99)": lambda: s.view(99), "view('x')": lambda: s.view("x"),
        "state_from_json(players 9)": lambda: g.state_from_json(state),
        "load_game(players=9)": lambda: orrery.load_game("tic-tac-toe", players=9),
        "load_game(3)": lambda: orrery.load_game(3),
        "load_game(variants='misere')": lambda: orrery.load_game("tic-tac-toe", variants="misere"),
        "load_game(mode='x')": lambda: orrery.load_game("tic-tac-toe", mode="x"),
    }


def test_the_public_api_answers_bad_input_with_an_orrery_error():
    for call, fn in _bad_api_inputs().items():
        with pytest.raises(OrreryError) as info:
            fn()
        assert info.value.findings and info.value.render(), call
    s = orrery.load_game("tic-tac-toe").new_initial_state(seed=1)
    with pytest.raises(IllegalMove) as refused:  # the right type, not allowed: an illegal move, as documented
        s.apply(99)
    assert not isinstance(refused.value, OrreryError)
    with pytest.raises(IllegalMove):  # a player count out of range is both (callers that caught IllegalMove)
        orrery.load_game("tic-tac-toe").new_initial_state(players=5)
    assert s.history() == [] and s.view(1) and s.view(None)
