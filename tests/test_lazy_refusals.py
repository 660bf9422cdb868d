"""Refusals written out only when read (core/decisions.py Refusal, Decision.reasons; engine/flow.py).

The made-up game tests/specs/charms.yaml: every step menu checks two `activate:` abilities of charms (one
only at dusk, both limited) and the `rest` action's limit, for players who may hold no charm.  A menu
records why each refused option is refused without raising or writing anything; the text (reason, place,
rule) is made the first time somebody reads the menu's reasons, the same text as before, on both engines.
"""

from __future__ import annotations

import pytest

from conftest import SPECS, game_on_each_engine, menu
from orrery.interpreter.core import decisions
from orrery.interpreter.core.decisions import Decision, Option, Refusal, RequireFailed
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.engine import flow
from orrery.interpreter.engine.game import IllegalMove

game = game_on_each_engine(SPECS / "charms.yaml")
WHERE = str(SPECS / "charms.yaml")

RUB_AT_DAWN = (f"'rub a charm' can be done only during dusk ({WHERE}:17:11)\n"
               "  rule: Once per round, at dusk, rub a charm in your pouch for its power.")
POLISH_DIM = f"only a bright charm can be polished ({WHERE}:21:11)"
REST_AGAIN = f"'rest' can be done at most 1 time per round ({WHERE}:56:5)\n  rule: Rest once per round for a coin."
NO_CHARM = (f"no charm of yours can 'rub a charm' now ({WHERE}:17:11)\n"
            "  rule: Once per round, at dusk, rub a charm in your pouch for its power.")


@pytest.fixture
def written(monkeypatch):
    """Counts the refusal texts written out (every explain() goes through decisions.told)."""
    count = [0]
    real = decisions.told

    def counting(message, span, rule):
        count[0] += 1
        return real(message, span, rule)

    monkeypatch.setattr(decisions, "told", counting)
    return count


def test_random_games_write_no_refusal_until_one_is_read(game, written):
    refused = 0
    for seed in range(4):
        gs = game.new_initial_state(players=2 + seed % 2, seed=seed)
        rng = Rng(seed)
        while not gs.is_terminal():
            refused += len(gs.decision._reasons)  # (recorded, not read)
            options = gs.legal_actions()
            gs.apply(options[rng.below(len(options))])
    assert refused > 100 and written[0] == 0  # hundreds of refusals recorded, none written out
    gs = game.new_initial_state(players=2, seed=1)
    assert written[0] == 0
    assert gs.decision.reasons == {2: RUB_AT_DAWN, 3: POLISH_DIM}  # read: written now, the texts as ever
    assert 0 < written[0] <= 2
    assert gs.decision.rejected == [("rub a charm", RUB_AT_DAWN), ("polish a charm", POLISH_DIM)]


def test_a_refusal_reads_the_same_wherever_it_is_read(game):
    gs = game.new_initial_state(players=2, seed=1)
    gs.apply_label("rest")
    gs.apply_label("rest")  # dusk: seat 0 rested this round already, holds no charm
    assert menu(gs) == ["wait", "dream"]
    assert gs.decision.reasons == {0: REST_AGAIN, 3: NO_CHARM, 4: POLISH_DIM}
    with pytest.raises(IllegalMove) as refused:
        gs.apply_label("rest")
    assert str(refused.value) == f"'rest' is not allowed: {REST_AGAIN}"
    with pytest.raises(IllegalMove) as refused:
        gs.apply(0)
    assert str(refused.value) == REST_AGAIN


def test_an_ability_nobody_holds_is_refused_before_its_menu_is_worked_out(game, monkeypatch):
    asked = []
    real = flow.param_menu

    def counting(it, action):
        asked.append(action.label)
        return real(it, action)

    monkeypatch.setattr(flow, "param_menu", counting)
    gs = game.new_initial_state(players=2, seed=1)  # dawn: no charm in any pouch
    assert asked == ["buy"]  # polish a charm (allowed at dawn): no carrier, so no menu of pieces
    assert gs.decision.reasons[3] == POLISH_DIM
    for label in ("rest", "rest", "wait", "wait", "buy", "Star"):  # round 2: seat 0 holds a bright charm
        gs.apply_label(label)
    asked.clear()
    gs.apply_label("rest")  # seat 1 rests; dusk: seat 0 first
    assert gs.current_player() == 0 and menu(gs) == ["rest", "wait", "rub a charm", "polish a charm"]  # (no coin: no dream)
    assert asked == ["rub a charm", "polish a charm"]  # held: their menus are worked out


def test_decision_writes_out_given_refusals_once_and_in_order():
    first = Refusal("no way", None, "the rule")
    failed = RequireFailed("not now")
    d = Decision(0, "Go?", [Option("a", "a", 0)], "action", reasons={1: first, 2: failed},
                 rejected=[("b", first), ("c", failed)])
    d.refuse(Option("a", "a", 0), "a dead end")
    assert d.reasons == {1: "no way\n  rule: the rule", 2: "not now", 0: "a dead end"}
    assert d.rejected == [("b", "no way\n  rule: the rule"), ("c", "not now"), ("a", "a dead end")]
    assert first.explain() is first.explain()  # a shared refusal is written once
