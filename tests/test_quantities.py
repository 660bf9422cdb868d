"""Declared quantities changed by modifiers in a fixed order (docs/dsl.md 2.10.3, reference/quantities.py) on
both engines: the made-up game tests/games/tollgate (tolls that passes halve, locks that cost nothing, a
rebate), the layers' order and rounding on a tiny spec, and the located errors of their misuse."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from conftest import make_game, on_both_engines, scenarios_on_both_engines
from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

TOLLGATE = Path(__file__).resolve().parent / "games" / "tollgate" / "rules.yaml"


def test_the_tollgate_scenarios_pass_on_both_engines_alike():
    scenarios_on_both_engines(TOLLGATE)


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_the_menu_shows_the_toll_it_checks_and_pays(mode):
    gs = Game(load_spec(TOLLGATE), mode=mode).new_initial_state(seed=1)
    for label in ("buy half", "buy half", "buy half", "work", "buy rebate", "work", "pass gate"):
        gs.apply_label(label)
    d = gs.decision
    assert {o.label: d.note(o.index) for o in d.options} == {
        "North": "costs 1 coins", "Sluice": "costs 0 coins", "South": "costs 0 coins", "East": "costs 1 coins"}
    gs.apply_label("East")  # (6 - 1) x 1/4 = 1.25: 1
    assert gs.state.pvars[0]["coins"] == 0


QUANTITY = """\
orrery: 1
game: {name: q, players: {min: 2, max: 2}}
variables:
  half: {start: "true"}
  minus: {start: "true"}
  fixed: {start: "false"}
quantities:
  fee:
    params: [n]
    base: n
    LAYERS
modifiers:
  halved: {modify: fee, when: half, scale: 1/2}
  less: {modify: fee, when: minus, add: -1}
  pinned: {modify: fee, when: fixed, set: 10}
  pinned_more: {modify: fee, when: "fixed and n > 4", set: 20}
flow:
  phases: [{name: play, on_start: "say 1"}]
end:
  done: {when: "round > 1"}
"""


def _fee(tmp_path: Path, layers: str, text: str, moves: tuple = ()) -> str:
    spec = make_game(tmp_path, QUANTITY.replace("LAYERS", layers)).spec
    outcome = on_both_engines(spec, text, moves)[0]
    assert outcome[0] == "ok", outcome
    return outcome[1]


@pytest.mark.parametrize("layers, text, value", [
    ("round: down", "fee(7)", "3"),              # (7 - 1) x 1/2 = 3, whichever modifier is declared first
    ("round: down", "fee(8)", "3"),              # 7/2 = 3.5: down
    ("round: up", "fee(8)", "4"),
    ("round: nearest", "fee(8)", "4"),           # halves go up
    ("round: nearest", "fee(6)", "3"),           # 2.5 -> 3
    ("round: nearest", "fee(2)", "1"),           # 0.5 -> 1
    ("layers: [set, scale, add]", "fee(7)", "2"),  # 7 x 1/2 - 1 = 2.5, rounded once: 2
    ("min: 1", "fee(1)", "1"),                   # (1 - 1) x 1/2 = 0, then min
    ("max: 2", "fee(9)", "2"),
    ("min: 0", "fee(-5)", "0"),
])
def test_layers_and_one_rounding(tmp_path, layers, text, value):
    assert _fee(tmp_path, layers, text) == value


def test_the_last_set_collected_wins_and_later_layers_still_apply(tmp_path):
    spec = make_game(tmp_path, QUANTITY.replace("LAYERS", "round: down")
                     .replace('fixed: {start: "false"}', 'fixed: {start: "true"}')).spec
    assert on_both_engines(spec, "fee(3)")[0][1] == "4"   # set 10, then (10 - 1) x 1/2
    assert on_both_engines(spec, "fee(7)")[0][1] == "9"   # set 20 (declared later) wins


def test_a_base_that_is_not_a_number_is_a_located_error(tmp_path):
    spec = make_game(tmp_path, QUANTITY.replace("LAYERS", "round: down")).spec
    outcome = on_both_engines(spec, 'fee("x")')[0]
    assert outcome[0] == "RuleError" and "quantity 'fee': its base must be a number, got the text 'x'" in outcome[1]


BAD = """\
orrery: 1
game: {name: q, players: {min: 2, max: 2}}
functions:
  twice: {params: [x], expr: "2 * x"}
quantities:
  fee: {params: [n], base: n}
flow:
  phases: [{name: play, on_start: "say fee(1)"}]
end:
  done: {when: "round > 1"}
"""


def _problems(tmp_path: Path, extra: str, replace: tuple[str, str] = ("", "")) -> list[tuple[str, str, str | None]]:
    path = tmp_path / "rules.yaml"
    path.write_text(BAD.replace(*replace) + dedent(extra))
    try:
        found = load_spec(path).warnings
    except SpecError as err:
        found = err.findings
    return [(f"{f.span.line}:{f.span.col}", f.message, f.hint) for f in found]


@pytest.mark.parametrize("extra, replace, where, fragment", [
    ("modifiers:\n  m: {modify: fea, add: 1}\n", ("", ""), "12:15", "unknown quantity 'fea' (did you mean 'fee'?)"),
    ("modifiers:\n  m: {modify: fee, add: 1, scale: 2}\n", ("", ""), "12:6",
     "a modifier needs exactly one of set, add, scale (got add, scale)"),
    ("modifiers:\n  m: {modify: fee}\n", ("", ""), "12:6", "a modifier needs exactly one of set, add, scale (got none)"),
    ("modifiers:\n  m: {modify: fee, scale: 0.5}\n", ("", ""), "12:27", "scale must be an exact fraction N/D (1/2, 3/2)"),
    ("modifiers:\n  m: {modify: fee, scale: 1/0}\n", ("", ""), "12:27", "scale '1/0' divides by zero"),
    ("modifiers:\n  m: {modify: fee, scale: half}\n", ("", ""), "12:27", "scale must be a fraction N/D"),
    ("modifiers:\n  m: {modify: fee, when: k > 2, add: 1}\n", ("", ""), "12:26", "unknown name 'k'"),
    ("modifiers:\n  m: {modify: fee, when: fee(n) > 2, add: 1}\n", ("", ""), "6:3",
     "quantity 'fee' is read in its own computation (fee -> fee): it would never end"),
    ("modifiers:\n  m: {modify: fee, add: twice(n)}\n", ('expr: "2 * x"', 'expr: "2 * fee(x)"'), "6:3",
     "quantity 'fee' is read in its own computation (fee -> twice -> fee)"),
    ("", ("fee: {params: [n], base: n}", "fee: {params: [n], base: n, layers: [set, add]}"), "6:39",
     "layers must list set, add and scale once each"),
    ("", ("fee: {params: [n], base: n}", "twice: {params: [n], base: n}"), "6:3",
     "quantity 'twice' has the name of the function 'twice'"),
    ("", ('say fee(1)', 'say fee(1, 2)'), "8:40", "quantity 'fee' takes 1 argument, got 2"),
    ("", ('base: n}', 'base: "[n]"}'), "6:29", "a quantity's base must be a number, but this is a list"),
])
def test_misuse_is_a_located_error(tmp_path, extra, replace, where, fragment):
    found = _problems(tmp_path, extra, replace)
    assert any(w == where and fragment in msg for w, msg, _ in found), found


def test_explain_says_how_a_quantity_is_changed():
    from orrery.interpreter.cli.explain import explain_text
    text = explain_text(load_spec(TOLLGATE))
    assert ("- `toll(p, g)`: What a player pays to pass a gate: g's toll; it is replaced, then added to, then "
            "multiplied by the modifiers in force (Locks cost nothing; A half-price pass halves the toll; A second "
            "pass halves it again; A rebate takes one off), rounded down once, at least 0.") in text
