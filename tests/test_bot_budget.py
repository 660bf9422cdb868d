"""A thinking bot keeps to its time budget: the budget is passed from `orrery play --think` to the bot, and
the search stops at its deadline, mid-playout if need be, on every bundled game and inside effects.

Time here is a fake clock that moves 1 ms at every step of the game (`GameState.apply`), so a search's
"time" is the work it did: these tests do not depend on the machine's speed or load.
"""

from __future__ import annotations

import io
import sys

import pytest

from conftest import REPO, load_game
from movecount import count_moves
from orrery.interpreter.bots.factory import FirstBot
from orrery.interpreter.cli.main import main
from orrery.interpreter.engine.game import GameState
from orrery.interpreter.bots.mcts import RESERVE, MctsBot

TICK = 0.001  # fake seconds per step of the game
SLACK = 10 * TICK  # after the deadline: the step being played and the way back up


class StepClock:
    """Fake time: TICK per move on any state, general or flat (tests/movecount.py), or general sample_step (the
    steps of the search and of its playouts)."""

    def __init__(self, monkeypatch):
        self.now = 0.0
        count_moves(monkeypatch, self.tick)
        sample = GameState.sample_step

        def sample_step(gs, rng):
            self.now += TICK
            return sample(gs, rng)

        monkeypatch.setattr(GameState, "sample_step", sample_step)
        monkeypatch.setattr(MctsBot, "clock", staticmethod(lambda: self.now))

    def tick(self) -> None:
        self.now += TICK


def timed_choose(clock: StepClock, bot: MctsBot, gs: GameState) -> float:
    """The fake time one decision of the bot took."""
    start = clock.now
    bot.choose(gs)
    return clock.now - start


def mid_effect(name: str) -> GameState:
    """A position of a bundled game at a choice inside an action (a parameter or a `choose`), with options."""
    game = load_game(REPO / "games" / name / "rules.yaml")
    gs = game.new_initial_state(players=game.rules.default_players, seed=3)
    bot = FirstBot()
    for _ in range(400):
        d = gs.decision
        if d.kind == "choose" and d.action is not None and len(d.options) > 1 and gs.state.cursor.round >= 1:
            return gs
        gs.apply(bot.choose(gs))
    raise AssertionError(f"{name}: no choice inside an action within 400 decisions")


BUNDLED = ["tic-tac-toe", "connect-four", "reversi", "breakthrough", "burbuja", "bubblee-pop", "bubble-singularity"]


@pytest.mark.parametrize("name", BUNDLED)
def test_the_search_stops_at_its_deadline_on_every_bundled_game(monkeypatch, name):
    gs = mid_effect(name)
    clock = StepClock(monkeypatch)
    bot = MctsBot(7, "0.3s")
    took = timed_choose(clock, bot, gs)
    assert bot.stats.get("timeout", 0) + bot.stats.get("proven", 0) + bot.stats.get("decisive", 0) >= 1
    assert took <= 0.3 * (1 - RESERVE) + SLACK, f"{name}: {took:.3f} fake s for a budget of 0.3"
    if bot.stats.get("timeout"):
        assert took >= 0.3 * (1 - RESERVE) / 3  # it did use its time (it stops before a mean iteration ends late)


def test_a_long_playout_is_cut_at_the_deadline(monkeypatch):
    gs = mid_effect("bubble-singularity")
    clock = StepClock(monkeypatch)
    bot = MctsBot(7, "0.01s:playout=100000")  # ten steps of budget; one playout alone is a whole game
    took = timed_choose(clock, bot, gs)
    assert took <= 0.01 + SLACK
    assert bot.stats.get("timeout", 0) >= 1  # the playout under way was stopped (and its iteration dropped)


def test_an_iteration_budget_reads_no_clock(monkeypatch):
    gs = mid_effect("connect-four")
    monkeypatch.setattr(MctsBot, "clock", staticmethod(lambda: pytest.fail("an iteration budget read the clock")))
    bot = MctsBot(7, "20")
    bot.choose(gs)
    assert bot.stats["iterations"] <= 20


def test_orrery_play_gives_the_default_bot_the_think_time_and_it_keeps_to_it(capsys, monkeypatch):
    clock = StepClock(monkeypatch)
    seen: list[tuple[float | None, float]] = []
    choose = MctsBot.choose

    def recorded(bot, gs):
        start = clock.now
        try:
            return choose(bot, gs)
        finally:
            seen.append((bot.seconds, clock.now - start))

    monkeypatch.setattr(MctsBot, "choose", recorded)
    monkeypatch.setattr(sys, "stdin", io.StringIO("b2\na1\nquit\n"))
    code = main(["play", "tic-tac-toe", "--think", "0.25", "--seed", "2", "--no-save", "--quiet-board"])
    out = capsys.readouterr().out
    assert code == 0 and "O: mcts" in out  # the default seat
    assert len(seen) == 2  # O answered after each of X's moves
    for seconds, took in seen:  # a turn's budget: each decision of it may use up to half of what is left
        assert 0 < seconds <= 0.25 and took <= seconds * (1 - RESERVE) + SLACK


def test_a_resumed_game_does_not_make_the_player_wait_for_timed_bots_again(capsys, monkeypatch, tmp_path):
    save = tmp_path / "s.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("b2\nquit\n"))
    assert main(["play", "tic-tac-toe", "--think", "0.05", "--seed", "2", "--save", str(save), "--quiet-board"]) == 0
    calls: list[int] = []
    choose = MctsBot.choose
    monkeypatch.setattr(MctsBot, "choose", lambda bot, gs: calls.append(1) or choose(bot, gs))
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--resume", str(save), "--quiet-board"]) == 0
    out = capsys.readouterr().out
    assert "1 decision replayed" in out or "2 decisions replayed" in out
    assert calls == []  # O's move was replayed from the save, not searched again
