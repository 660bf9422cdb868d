"""Step menus that judge a priced action by its menu instead of replaying it (engine/fallible.py `price_gated`,
`step_verdict`).

On the made-up tests/specs/curio-shop.yaml, `pick`'s one parameter is the curio it pays for and nothing else
can refuse it: a step menu works out its menu, offers it when some curio can be paid for and refuses it
otherwise with the reason a replay gives (the last curio's price, or the
menu's `why:` when no curio may be picked), never replaying it.  The opening step offers `pick` alone (a lone
option: skipped when it cannot be done, as before); `haggle` has a `require` after its payment and is still
replayed.  Judged or replayed, the games offer the same menus and refuse the same options with the same reasons.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS
from test_differential import play_lockstep
from orrery.interpreter.bots.factory import RandomBot
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.engine import driver, fallible as fallible_mod
from orrery.interpreter.engine.fallible import fallible_of
from orrery.interpreter.engine.game import Game, IllegalMove

SPEC = SPECS / "curio-shop.yaml"
MODES = ("compiled", "interpreted")


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    return {m: Game.load(SPEC, mode=m) for m in MODES}


def _variant(tmp_path: Path, *edits: tuple[str, str]) -> Game:
    """curio-shop with pieces of its text changed."""
    text = SPEC.read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "shop.yaml"
    path.write_text(text)
    return Game.load(path)


COST = "    cost: {coins: c.price}\n"
WHERE = "        where: not any(d.name == c.name for d in current.cart)\n"
PROMPT = '        prompt: "Pick which curio?"\n'
NOT_JUDGED = {  # what keeps a step menu from judging `pick` by its menu
    "a cost paid before the menu": [("    coins: {start: 3, min: 0}\n", "    coins: {start: 3, min: 0}\n    tokens: {start: 9}\n"),
                                    (COST, "    cost: {coins: c.price, tokens: 1}\n")],
    "a limit counted per value": [(COST, COST + "    limit: {times: 1, per: round, each: c}\n")],
    "a menu that draws": [(WHERE, WHERE.rstrip() + " and random_int(0, 1) == 0\n")],
    "an optional parameter": [(PROMPT, PROMPT + "        optional: true\n")],
    "a require after the payment": [("    effect: move c to current.cart\n",
                                     "    effect: |\n      require size(current.cart) < 4\n      move c to current.cart\n")],
}


def test_what_the_analysis_proves(games):
    assert fallible_of(games["compiled"].rules).price_gated == {"pick"}  # (haggle: a require after its payment)
    assert fallible_of(Game.load(SPECS / "price-list.yaml").rules).price_gated == {"buy"}


@pytest.mark.parametrize("why", NOT_JUDGED)
def test_what_keeps_an_action_replayed(why, tmp_path):
    game = _variant(tmp_path, *NOT_JUDGED[why])
    assert "pick" not in fallible_of(game.rules).price_gated


def _random_games(game: Game, seeds, each=lambda gs: None) -> None:
    for seed in seeds:
        gs = game.new_initial_state(seed=seed, players=2 + seed % 2)
        bot = RandomBot(seed)
        while not gs.is_terminal():
            gs.legal_options()
            each(gs)
            gs.apply(bot.choose(gs))


@pytest.mark.parametrize("mode", MODES)
def test_the_step_menu_replays_no_priced_action(games, mode, monkeypatch):
    """Counted: no step menu replays `pick` (haggle's are replayed: the spy sees replays), and its verdicts
    cover both steps, the lone option included, both ways, refused by a price and by the menu's `why:`."""
    replayed: list[str] = []
    verdicts: list[tuple[str, bool]] = []
    whys: set[str] = set()
    dead_end, verdict = driver.GameState._dead_end, fallible_mod.step_verdict

    def spy_dead_end(self, pos, value, scope):
        if pos.decision is not None and pos.decision.kind == "action":
            replayed.append(value)
        return dead_end(self, pos, value, scope)

    def spy_verdict(pos, action):
        got = verdict(pos, action)
        verdicts.append((pos.decision.prompt, got is True))
        if got is not True:
            whys.add(got.message.split(";")[0])
        return got

    monkeypatch.setattr(driver.GameState, "_dead_end", spy_dead_end)
    monkeypatch.setattr(fallible_mod, "step_verdict", spy_verdict)
    _random_games(games[mode], range(6))
    assert "haggle" in replayed and "pick" not in replayed
    for step in ("Pick a curio", "What do you do?"):
        assert (step, True) in verdicts and (step, False) in verdicts
    assert "you already hold a curio of that name" in whys and "'pick' costs 6 coins" in whys


def _refusal(gs, choice) -> str | None:
    """Play `choice`; the refusal's text when the move is refused."""
    try:
        gs.apply(choice)
    except IllegalMove as refused:
        return str(refused)
    return None


@pytest.mark.parametrize("lookahead", [None, 0])
def test_judging_changes_no_menu_reason_or_game(lookahead):
    """The same random games with `pick` replayed at step menus instead (as before price_gated): the same
    menus, the same refusals with their reasons (the price's, the menu's `why:`) in the same order, the same
    positions (digests), history and end; with the `lookahead` budget spent at once too (a judged option
    counts as the run it saves)."""
    limits = Limits() if lookahead is None else Limits(lookahead=lookahead)
    judged, replayed = Game.load(SPEC, limits=limits), Game.load(SPEC, limits=limits)
    fallible_of(replayed.rules).price_gated = set()
    whys: set[str] = set()
    for seed in range(12):
        a, b = (g.new_initial_state(seed=seed, players=2 + seed % 2) for g in (judged, replayed))
        bot = RandomBot(seed)
        while not b.is_terminal():
            assert [o.label for o in a.legal_options()] == [o.label for o in b.legal_options()]
            assert a.pos.decision.rejected == b.pos.decision.rejected
            whys.update(why.split(" (")[0] for label, why in a.pos.decision.rejected if label == "pick")
            choice = bot.choose(b)
            refused = [_refusal(gs, choice) for gs in (a, b)]
            assert refused[0] == refused[1]
            if refused[0] is not None:  # (past the budget an option is offered and refused once played)
                break
            assert a.digest() == b.digest()
        assert a.is_terminal() == b.is_terminal() and a.history() == b.history()
        assert not a.is_terminal() or a.returns() == b.returns()
    if lookahead is None:
        assert any(w.startswith("'pick' costs") for w in whys)


@pytest.mark.parametrize("seed", range(4))
def test_both_engines_play_the_same_games(games, seed):
    assert play_lockstep(games["compiled"], games["interpreted"], 2 + seed % 2, seed) > 0
