"""Which options look-ahead replays (engine/driver.py _viable, core/fallibility.py, engine/fallible.py).

On the made-up tests/specs/sightline.yaml: `rest` cannot be refused, so a step menu never replays it even
though `drop` there can be; `slide`'s second parameter is guarded by the first's `where`, so its first menu
needs no look-ahead; the turn's end keeps `keep` tokens with a `while` that guards its choice; `cast` can
fail only through `use c.play`, so a Spark (whose play cannot fail) is not replayed, a Flare is.  `drop`'s
`require` can refuse, so its cells are still replayed and a full row's cells are not offered; a Flare is
refused while its player has fewer than 2 points.  Proving
instead of replaying changes no menu: a game whose every menu is replayed plays the same.
"""

from __future__ import annotations

import pytest

from conftest import SPECS, evaluate
from test_differential import play_lockstep
from test_fallibility import judging_nothing, same_menus
from orrery.interpreter.bots.factory import RandomBot
from orrery.interpreter.core.values import PieceRef
from orrery.interpreter.reference.evaluator import Interp
from orrery.rulespec.parser import parse_expr
from orrery.interpreter.engine import driver
from orrery.interpreter.engine.fallible import fallible_of
from orrery.interpreter.engine.game import Game

SPEC = SPECS / "sightline.yaml"


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    return {m: Game.load(SPEC, mode=m) for m in ("compiled", "interpreted")}


def test_what_the_analysis_proves(games):
    rules = games["compiled"].rules
    assert not rules.fallibility.tail  # (the turn's end: `while size(current.hand) > keep { choose ... }`)
    assert not rules.may_fail("rest") and rules.may_fail("slide") and rules.may_fail("drop")
    fallible = fallible_of(rules)
    assert fallible.needs_lookahead(("slide", 0), "slide") is False  # to_cell is guarded by from_cell's where
    assert fallible.needs_lookahead(("slide", 1), "slide") is False
    # cast: only `use c.play` can fail after its menu, so each card's own plays decide (a Flare's can fail)
    assert fallible.needs_lookahead(("cast", 0), "cast") is True and fallible.plays_only == {("cast", 0): "c"}


def _replays(monkeypatch, game: Game, seeds: range) -> list[tuple[str, object]]:
    """Play random games, recording every option a look-ahead replays: (the menu's kind, the option)."""
    seen: list[tuple[str, object]] = []
    viable, dead_end = driver.GameState._viable, driver.GameState._dead_end
    menu: list[str] = [""]

    def spy_viable(self, d):
        menu[0] = d.kind if d.kind == "action" else f"{d.kind}:{d.action}:{d.site}"
        return viable(self, d)

    def spy_dead_end(self, pos, value, scope):
        seen.append((menu[0], pos.s.attrs[value.id]["name"] if value.__class__ is PieceRef else value))
        return dead_end(self, pos, value, scope)

    monkeypatch.setattr(driver.GameState, "_viable", spy_viable)
    monkeypatch.setattr(driver.GameState, "_dead_end", spy_dead_end)
    for seed in seeds:
        gs = game.new_initial_state(seed=seed)
        bot = RandomBot(seed)
        while not gs.is_terminal():
            gs.apply(bot.choose(gs))
    return seen


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_an_option_that_cannot_fail_is_not_replayed(games, mode, monkeypatch):
    seen = _replays(monkeypatch, games[mode], range(3))
    step = [v for kind, v in seen if kind == "action"]
    assert "drop" in step  # it can be refused: replayed at every step menu offering it
    assert "rest" not in step and "done" not in step  # nothing can refuse them
    assert not [k for k, _ in seen if k.startswith("choose:slide")]  # slide's menus: proved, never replayed
    cast = {v for k, v in seen if k.startswith("choose:cast")}
    assert cast == {"Flare"}  # a Spark's play cannot fail: never replayed; a Flare's can


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_a_card_whose_play_can_fail_is_still_checked(games, mode, monkeypatch):
    """cast's cards: every Spark is offered; a Flare is replayed, and refused by its own `require` while its
    player has fewer than 2 points (a menu left with one card is answered at once, a step menu whose every
    card is refused leaves `cast` out)."""
    tried: list[tuple[str, bool]] = []  # (a replayed card's outcome: refused?, its player had 2 points?)
    dead_end = driver.GameState._dead_end

    def spy(self, pos, value, scope):
        why = dead_end(self, pos, value, scope)
        if value.__class__ is PieceRef and pos.s.attrs[value.id]["name"] == "Flare":
            rich = Interp(pos.s, self.game.limits).ev(parse_expr("current.score >= 2"), {})
            tried.append((why, rich))
        return why

    monkeypatch.setattr(driver.GameState, "_dead_end", spy)
    for seed in range(12):
        gs = games[mode].new_initial_state(seed=seed)
        bot = RandomBot(seed)
        while not gs.is_terminal():
            gs.apply(bot.choose(gs))
    assert all((why is None) == rich for why, rich in tried)
    assert None in {why for why, _ in tried} and any(why and "a flare needs 2 points" in why for why, _ in tried)


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_an_option_that_can_fail_is_still_checked(games, mode):
    """drop's cells: exactly the empty cells of a row with fewer than row_limit stones (the others are refused
    by its `require`, found by replaying them)."""
    checked = 0
    for seed in range(6):
        gs = games[mode].new_initial_state(seed=seed)
        bot = RandomBot(seed)
        while not gs.is_terminal():
            d = gs.pos.decision
            if d is not None and d.kind == "choose" and d.action == "drop":
                offered = {o.label for o in gs.legal_options()}
                expected = set(evaluate(gs, "[c.label for c in cells(board) where empty(c) and count(d for d in "
                                            "cells(board) where d.y == c.y and not empty(d)) < row_limit]"))
                assert offered == expected, seed
                if len(expected) < len(evaluate(gs, "[c for c in cells(board) where empty(c)]")):
                    assert any("that row is full" in why for _, why in d.rejected)
                checked += 1
            gs.apply(bot.choose(gs))
    assert checked > 10


def test_proving_changes_no_menu(games, monkeypatch):
    """The same random games with every menu replayed (nothing proved) offer the same menus."""
    proved = games["compiled"]
    replayed = Game.load(SPEC, mode="compiled")
    rules = replayed.rules
    rules._may_fail = {n: True for n in rules.actions}
    rules.some_may_fail = True
    fallible = judging_nothing(monkeypatch, replayed)
    fallible.after = {k: (a, True) for k, (a, _) in fallible.after.items()}
    for seed in range(4):
        same_menus(proved, replayed, seed)


@pytest.mark.parametrize("seed", range(4))
def test_both_engines_play_the_same_games(games, seed):
    assert play_lockstep(games["compiled"], games["interpreted"], 2, seed) > 0
