"""Limits counted for each value of a parameter (`limit: {times, per, each: PARAM}`, docs/dsl.md 2.10.1) on both
engines, with the made-up game tests/specs/tool-rack.yaml, and their static checks.

Ann and Bo each have a rack of three tools (Hammer 2, Saw 1, Drill 3).  `swing` scores a tool's power, once
per round for each tool; `visit` scores 1 at a stall (its second parameter), twice per game for each stall;
`rest` needs every tool swung this round (a condition reading `uses(swing, current, t)`); `frenzy` performs
a swing, which neither checks nor counts the limit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS, evaluate
from test_differential import play_lockstep
from test_limits_check import problems
from orrery.interpreter.engine.game import Game
from orrery.rulespec.loader import load_spec

RACK = SPECS / "tool-rack.yaml"
MODES = ["compiled", "interpreted"]


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    spec = load_spec(RACK)
    return {mode: Game(spec, mode=mode) for mode in MODES}


def labels(gs) -> list[str]:
    return [o.label for o in gs.legal_options()]


def play(gs, *answers: str) -> None:
    for a in answers:
        gs.apply_label(a)


def swung(gs, tool: str, seat: int = 0) -> int:
    """`uses(swing, players[seat], t)` for the seat's tool of that name, read by the game's evaluator."""
    return evaluate(gs, f'uses(swing, players[{seat}], first([t for t in players[{seat}].rack where t.name == "{tool}"]))')


@pytest.mark.parametrize("mode", MODES)
def test_each_tool_once_per_round_and_the_reason_names_the_tool(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    play(gs, "swing")
    assert labels(gs) == ["Hammer", "Saw", "Drill"]
    play(gs, "Hammer", "swing")
    assert labels(gs) == ["Saw", "Drill"]  # the Hammer's count is spent, the others' are not
    assert gs.why_not_label("Hammer") == ("'Hammer' is not allowed: 'swing' with Hammer can be done at most "
                                          "1 time per round")
    play(gs, "Saw")
    assert swung(gs, "Hammer") == 1 and swung(gs, "Saw") == 1 and swung(gs, "Drill") == 0
    assert gs.state.pvars[0]["score"] == 3


@pytest.mark.parametrize("mode", MODES)
def test_a_player_counts_their_own_and_a_new_round_has_no_count(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    play(gs, "swing", "Hammer", "swing", "Saw", "swing")  # only the Drill is left: taken without asking
    assert gs.state.pvars[0]["score"] == 6 and gs.current_player() == 1
    play(gs, "swing")
    assert labels(gs) == ["Hammer", "Saw", "Drill"]  # Bo's tools have counts of their own
    play(gs, "Drill", "visit", "left", "baker", "visit", "left", "baker")
    assert gs.state.cursor.round == 2 and gs.current_player() == 0
    play(gs, "swing")
    assert labels(gs) == ["Hammer", "Saw", "Drill"]  # a new round: nothing spent, nothing was reset


@pytest.mark.parametrize("mode", MODES)
def test_a_perform_neither_checks_nor_counts_the_values_limit(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    play(gs, "swing", "Hammer", "frenzy")
    assert labels(gs) == ["Hammer", "Saw", "Drill"]  # the performed swing offers the spent Hammer too
    play(gs, "Saw")
    assert swung(gs, "Saw") == 0 and swung(gs, "Hammer") == 1 and gs.state.pvars[0]["score"] == 3
    play(gs, "swing")
    assert labels(gs) == ["Saw", "Drill"]


@pytest.mark.parametrize("mode", MODES)
def test_a_later_parameter_is_counted_apart_and_the_action_goes_when_every_value_is_spent(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    play(gs, "visit", "left", "baker", "visit", "right")
    assert labels(gs) == ["baker", "smith"]
    play(gs, "baker", "visit", "left")  # the baker is spent: the smith, the one stall left, is taken at once
    assert evaluate(gs, 'uses(visit, players[0], "baker")') == 2
    assert evaluate(gs, 'uses(visit, players[0], "smith")') == 1 and gs.current_player() == 1
    play(gs, "swing", "Hammer", "swing", "Saw", "swing")  # Bo
    play(gs, "visit", "left")  # round 2, Ann: per game, so the baker is still spent: the smith
    assert evaluate(gs, 'uses(visit, players[0], "smith")') == 2 and gs.state.cursor.round == 2
    assert "visit" not in labels(gs)  # both stalls spent: a look-ahead finds no stall for either hand
    assert "'visit' can be done at most 2 times per game for each stall: every stall it could be done with was " \
           "used" in gs.why_not_label("visit")
    assert evaluate(gs, 'uses(visit, players[1], "baker")') == 0


@pytest.mark.parametrize("mode", MODES)
def test_a_condition_reads_one_values_count(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    assert "rest" not in labels(gs) and "swing every tool first" in gs.why_not_label("rest")
    play(gs, "swing", "Hammer", "swing", "Saw")
    assert "rest" not in labels(gs)
    play(gs, "frenzy", "Drill")  # performed: not counted, so the Drill is still unswung
    assert gs.current_player() == 1
    play(gs, "swing", "Hammer", "swing", "Saw")
    assert "rest" not in labels(gs)
    play(gs, "swing")  # the Drill, Bo's third action: the turn is over
    play(gs, "swing", "Hammer", "swing", "Saw")  # round 2, Ann
    assert "rest" not in labels(gs)
    play(gs, "swing")
    assert gs.current_player() == 1


@pytest.mark.parametrize("seed", range(4))
def test_both_engines_play_the_same_games(games, seed):
    assert play_lockstep(games["compiled"], games["interpreted"], 2, seed) > 0
    gs = games["compiled"].new_initial_state(seed=seed)
    while not gs.is_terminal():
        gs.apply(gs.legal_actions()[0])
    assert any("@" in key for _, key in gs.state.uses)  # per-value counters were kept (and the digests cover them)


@pytest.mark.parametrize("text, fragment", [
    ('uses(swing)', "the counter 'swing' is counted for each value of 't': name the value"),
    ('uses(frenzy, current, 3)', "the counter 'frenzy' is one count, not one per value"),
])
def test_a_read_that_does_not_fit_the_counter_is_a_located_error_on_both_engines(text, fragment):
    from conftest import on_both_engines
    outcome = on_both_engines(load_spec(RACK), text)[0]
    assert outcome[0] == "RuleError" and fragment in outcome[1], outcome


CASES = [
    pytest.param("""\
        actions:
          rest: {limit: {times: 1, per: round, each: tool}, params: {t: {from: "[1, 2]"}}}
          work: {}
        """, ("error", "10:46", "`each: tool` names no parameter of action 'rest' (its parameters: t)"),
        id="each-names-no-parameter"),
    pytest.param("""\
        actions:
          rest: {}
          work: {}
        triggers:
          t: {on: turn_start, max_fires: {times: 1, per: round, each: x}, effect: "say 1"}
        """, ("error", "13:63", "`each` counts an action's parameter, and trigger 't' has none"), id="each-on-a-trigger"),
    pytest.param("""\
        actions:
          rest: {limit: {times: 1, per: round, each: t}, params: {t: {from: "[1, 2]"}}, condition: "uses(rest) == 0"}
          work: {}
        """, ("error", "10:93", "the counter 'rest' is counted for each value of 't': name the value"),
        id="uses-without-the-value"),
    pytest.param("""\
        actions:
          rest: {limit: 1}
          work: {condition: "uses(rest, current, 2) == 0"}
        """, ("error", "11:22", "the counter 'rest' is one count, not one per value"), id="uses-with-a-value"),
    pytest.param("""\
        actions:
          rest: {limit: {times: 1, per: round, key: k, each: t}, params: {t: {from: "[1, 2]"}}}
          work: {limit: {times: 1, per: round, key: k}}
        """, ("error", "11:45", "the counter 'k' is counted for each value of a parameter by one of its actions"),
        id="one-key-each-and-not"),
]


@pytest.mark.parametrize("body, expected", CASES)
def test_misuse_is_a_located_finding(tmp_path: Path, body, expected):
    found = problems(tmp_path, body)
    assert any(f[:2] == expected[:2] and expected[2] in f[2] for f in found), found


def test_the_valid_form_passes_and_explain_says_for_each(tmp_path: Path):
    assert problems(tmp_path, """\
        actions:
          rest: {limit: {times: 1, per: round, each: t}, params: {t: {from: "[1, 2]", prompt: "Which tool?"}}}
          work: {condition: "uses(rest, current, 1) == 0"}
        """) == []
    from orrery.interpreter.cli.explain import explain_text

    text = explain_text(load_spec(RACK))
    assert "At most 1 time per round for each t" in text

