"""Use limits per scope (docs/dsl.md 2.10.1) on both engines, with the made-up game tests/specs/cooldown.yaml.

Ann and Bo play three rounds of two phases: `day` (up to three actions) and `night` (one).  `recharge` is
once per round, `surge` once per game (and only in a round with a recharge: `uses(recharge) == 1`), `work`
and `shift` share the counter `labour` (twice per phase), the trigger `first_work` fires once per turn, and
the night's `turn_end` gives energy to whoever did not labour in it.  `overtime` performs `work` twice: a
`perform` neither checks nor counts a limit.
"""

from __future__ import annotations

import pytest

from conftest import SPECS, evaluate
from test_differential import play_lockstep
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.engine.driver import IllegalMove
from orrery.interpreter.engine.game import Game
from orrery.rulespec.loader import load_spec

COOLDOWN = SPECS / "cooldown.yaml"


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    spec = load_spec(COOLDOWN)  # (checked: the game is valid as written)
    return {mode: Game(spec, mode=mode) for mode in ("compiled", "interpreted")}


def labels(gs) -> list[str]:
    return [o.label for o in gs.legal_options()]


def play(gs, *answers: str) -> None:
    for a in answers:
        gs.apply_label(a)


def uses(gs, key: str, seat: int | None = None) -> int:
    """`uses(key)` read by the game's own evaluator (for the acting player, or a seat)."""
    return evaluate(gs, f'uses("{key}")' if seat is None else f'uses("{key}", players[{seat}])')


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_once_per_round_comes_back_in_a_new_round_and_not_before(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    assert gs.current_player() == 0 and "recharge" in labels(gs)
    play(gs, "recharge")
    assert "recharge" not in labels(gs)
    assert gs.why_not_label("recharge").startswith("'recharge' is not allowed: 'recharge' can be done at most "
                                                    "1 time per round")
    play(gs, "wait", "wait")  # Ann's day is over (three actions); Bo has his own count
    assert gs.current_player() == 1 and "recharge" in labels(gs)
    play(gs, "wait", "wait", "wait", "wait", "wait")  # Bo's day, both nights
    assert gs.state.cursor.round == 2 and gs.current_player() == 0
    assert "recharge" in labels(gs)  # a new round is a new scope instance: no count, nothing reset


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_once_per_game_and_a_count_read_by_a_condition(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    assert "surge" not in labels(gs)
    assert "recharge first this round" in gs.why_not_label("surge")  # uses(recharge) == 0 so far
    play(gs, "recharge", "surge", "4")
    assert gs.state.pvars[0]["score"] == 4 and gs.state.pvars[0]["energy"] == 0
    play(gs, "wait")
    for _ in range(6):  # to Ann's next day
        play(gs, "wait")
    assert gs.state.cursor.round == 2 and gs.current_player() == 0
    play(gs, "recharge")
    assert "surge" not in labels(gs) and "per game" in gs.why_not_label("surge")


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_two_actions_share_one_counter_per_phase(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    play(gs, "work")
    assert uses(gs, "labour") == 1 and "shift" in labels(gs)
    play(gs, "shift")
    assert uses(gs, "labour") == 2
    assert "work" not in labels(gs) and "shift" not in labels(gs)
    assert "(counted as 'labour')" in gs.why_not_label("work")
    play(gs, "wait")
    play(gs, "wait", "wait", "wait")  # Bo's day
    assert gs.pos.decision.prompt == "Work or wait?" and gs.current_player() == 0
    assert "work" in labels(gs) and uses(gs, "labour") == 0  # the night is a new phase instance
    assert uses(gs, "labour", 0) == 0 and uses(gs, "labour", 1) == 0


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_a_trigger_fires_once_per_turn_and_a_firing_is_not_a_use(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    play(gs, "work")
    assert gs.state.pvars[0]["score"] == 2  # 1, and the first work of the turn scores one more
    assert uses(gs, "first_work") == 1 and uses(gs, "labour") == 1
    play(gs, "work")
    assert gs.state.pvars[0]["score"] == 3  # the bonus is spent for this turn
    play(gs, "wait", "work")  # Bo's turn: a new turn instance
    assert gs.state.pvars[1]["score"] == 2


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_perform_neither_checks_nor_counts_a_limit(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    play(gs, "wait", "wait", "wait", "wait", "wait", "wait")  # both days
    energy = gs.state.pvars[0]["energy"]
    play(gs, "overtime")  # two performed works: scored, and the bonus fired once
    s = gs.state
    assert s.pvars[0]["score"] == 3
    assert (0, "labour") not in s.uses  # no use was counted...
    assert s.pvars[0]["energy"] == energy + 1  # ...so the night's turn_end (uses("labour") == 0) gave energy


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_a_refused_move_takes_its_count_back(mode):
    game = Game(load_spec(COOLDOWN), Limits(lookahead=0), mode=mode)  # options offered unchecked
    gs = game.new_initial_state(seed=1)
    play(gs, "shift", "recharge", "surge")  # energy 2 - 1 + 2 = 3
    assert gs.pos.decision.prompt == "How much do you bet?" and "4" in labels(gs)
    with pytest.raises(IllegalMove, match="you do not have that much energy"):
        gs.apply_label("4")  # counted, then refused by the `require`: the count goes with the rest
    assert (0, "surge") not in gs.state.uses and gs.pos.decision.prompt == "How much do you bet?"
    play(gs, "3")
    assert uses(gs, "surge", 0) == 1 and gs.state.pvars[0]["score"] == 5


@pytest.mark.parametrize("seed", range(4))
def test_both_engines_play_the_same_games(games, seed):
    assert play_lockstep(games["compiled"], games["interpreted"], 2, seed) > 0
    gs = games["compiled"].new_initial_state(seed=seed)
    while not gs.is_terminal():
        gs.apply(gs.legal_actions()[0])
    assert gs.state.uses  # (counts were kept, and the digests play_lockstep compared cover them)


@pytest.mark.parametrize("text, fragment", [
    ('uses("naps")', "uses(): no limit is counted under the text 'naps' (keys: first_work, labour, recharge, surge)"),
    ('uses("labour", "Bo")', "uses(): the player must be a player, got the text 'Bo'"),
])
def test_a_bad_read_is_a_located_error_on_both_engines(text, fragment):
    from conftest import on_both_engines
    outcome = on_both_engines(load_spec(COOLDOWN), text)[0]
    assert outcome[0] == "RuleError" and fragment in outcome[1], outcome
