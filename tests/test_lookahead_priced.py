"""Menus judged by their prices instead of replayed (engine/fallible.py `priced`, reference/costs.price_check).

On the made-up tests/specs/price-list.yaml: `buy`'s price reads the good chosen, so it is paid once the good
is chosen, and nothing after it can refuse the move: each good of its menu is judged by its price on the
menu's state (a modifier included: a good costs 1 more once the buyer's stall holds 2) and never replayed; a
good the buyer cannot pay for is refused with the cost's own reason.  `haggle` has a `require` after its
payment, so its goods are still replayed.  Judging instead of replaying changes no menu and no reason.
"""

from __future__ import annotations

import pytest

from conftest import SPECS, evaluate
from test_differential import play_lockstep
from test_fallibility import judging_nothing, same_menus
from orrery.interpreter.bots.factory import RandomBot
from orrery.interpreter.engine import driver
from orrery.interpreter.engine.fallible import fallible_of
from orrery.interpreter.engine.game import Game

SPEC = SPECS / "price-list.yaml"
TOLL = SPECS / "toll-road.yaml"  # (late costs whose payment goes somewhere: pay_to)


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    return {m: Game.load(SPEC, mode=m) for m in ("compiled", "interpreted")}


def test_what_the_analysis_proves(games):
    rules = games["compiled"].rules
    fallible = fallible_of(rules)
    assert rules.may_fail("buy") and rules.may_fail("haggle")  # (their prices can refuse them)
    assert fallible.needs_lookahead(("buy", 0), "buy") is True  # (the price can still refuse it...)
    assert set(fallible.priced) == {("buy", 0)}  # (...and is all that can: judged by it; haggle's require is not)
    toll = fallible_of(Game.load(TOLL).rules)
    assert set(toll.priced) == {("tip", 0), ("donate", 0)}  # (ride pays before its parameter: nothing late)


def _random_games(game: Game, seeds: range, each) -> None:
    for seed in seeds:
        gs = game.new_initial_state(seed=seed)
        bot = RandomBot(seed)
        while not gs.is_terminal():
            each(gs)
            gs.apply(bot.choose(gs))


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_a_priced_menu_is_not_replayed(games, mode, monkeypatch):
    seen: list[str] = []  # the menu of every option replayed
    menu = [""]
    viable, dead_end = driver.GameState._viable, driver.GameState._dead_end

    def spy_viable(self, d):
        menu[0] = d.kind if d.kind == "action" else f"{d.kind}:{d.action}"
        return viable(self, d)

    def spy_dead_end(self, pos, value, scope):
        seen.append(menu[0])
        return dead_end(self, pos, value, scope)

    monkeypatch.setattr(driver.GameState, "_viable", spy_viable)
    monkeypatch.setattr(driver.GameState, "_dead_end", spy_dead_end)
    _random_games(games[mode], range(6), lambda gs: None)
    assert "choose:haggle" in seen and "action" in seen  # haggle's goods, and the step menu's priced actions
    assert "choose:buy" not in seen  # every good of buy's menu judged by its price


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_a_good_its_buyer_cannot_pay_for_is_refused_with_its_reason(games, mode):
    """buy's menu: exactly the goods whose price, the modifier included, the buyer can pay; every other one
    refused with the cost's reason ("'buy' costs 4 coins; you have 3"), one that only the modifier makes too
    dear among them."""
    menus, raised = 0, 0

    def check(gs) -> None:
        nonlocal menus, raised
        d = gs.pos.decision
        if d is None or d.kind != "choose" or d.action != "buy":
            return
        offered = {o.label for o in gs.legal_options()}
        assert offered == set(evaluate(gs, "[g.name for g in market where price(current, g) <= current.coins]"))
        coins = evaluate(gs, "current.coins")
        for label, why in d.rejected:
            price = evaluate(gs, f"price(current, first([g for g in market where g.name == '{label}']))")
            assert price > coins and f"'buy' costs {price} coins; you have {coins}" in why, (label, why)
            raised += evaluate(gs, f"first([g for g in market where g.name == '{label}']).price") <= coins
        menus += 1

    _random_games(games[mode], range(12), check)
    assert menus > 10 and raised > 0


@pytest.mark.parametrize("spec", [SPEC, TOLL], ids=lambda p: p.stem)
def test_judging_changes_no_menu(spec, monkeypatch):
    """The same random games with every priced menu replayed instead offer the same options and refuse the
    others with the same reasons."""
    judged, replayed = Game.load(spec, mode="compiled"), Game.load(spec, mode="compiled")
    judging_nothing(monkeypatch, replayed)
    for seed in range(5):
        same_menus(judged, replayed, seed)


@pytest.mark.parametrize("seed", range(4))
def test_both_engines_play_the_same_games(games, seed):
    assert play_lockstep(games["compiled"], games["interpreted"], 2, seed) > 0
