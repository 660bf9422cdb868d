"""A time-budgeted search bot stops within its budget: the clock is checked before every move it makes.

The clock here is injected: it reads the number of moves the search has made (tests/movecount.py), so
each move costs one unit of time and the tests do not depend on the machine's speed.
"""

from __future__ import annotations

import pytest

from orrery.interpreter.engine.driver import GameState
from orrery.interpreter.engine.game import Game
from orrery.interpreter.bots.mcts import MctsBot

from conftest import REPO, SPECS, shared_game
from movecount import count_moves

CONNECT_FOUR = REPO / "games" / "connect-four" / "rules.yaml"


@pytest.fixture
def moves(monkeypatch) -> list[int]:
    """A counter of the moves made anywhere, general or flat (one list item: the count), and the clock that
    reads it."""
    made = [0]

    def count() -> None:
        made[0] += 1

    count_moves(monkeypatch, count)
    return made


def search(gs: GameState, budget: int, made: list[int], seed: int = 1) -> tuple[int, int, MctsBot]:
    """(answer, moves the search made, bot) for one search of `budget` moves' worth of time."""
    bot = MctsBot(seed, seconds=budget, clock=lambda: made[0])
    before = made[0]
    answer = bot.choose(gs)
    return answer, made[0] - before, bot


@pytest.mark.parametrize("budget", [3, 10, 60])
def test_exact_search_makes_no_move_past_its_budget(moves, budget):
    """Connect four (nothing hidden): the root's expansion alone is 7 moves and a playout about 20; the search
    stops inside them instead of finishing the iteration (it made at least 27 moves before the fix)."""
    gs = Game.load(CONNECT_FOUR).new_initial_state(seed=1)
    answer, made, bot = search(gs, budget, moves)
    assert answer in gs.legal_actions()
    assert made <= budget
    assert bot.stats.get("timeout") == 1


def test_hidden_information_search_makes_no_move_past_its_budget(moves):
    """A card game (hidden hands): the look for a decisive move and every iteration's moves count too; a tree
    left with untried children by a search cut short is searched again on the next decision."""
    game = Game.load(SPECS / "draw-discard.yaml")
    gs = game.new_initial_state(players=2, seed=11)
    bots = {}
    while not gs.is_terminal():
        p = gs.current_player()
        bot = bots.setdefault(p, MctsBot(p, seconds=7, clock=lambda: moves[0]))
        before = moves[0]
        answer = bot.choose(gs)
        assert moves[0] - before <= 7
        assert answer in gs.legal_actions()
        gs.apply(answer)
    assert any(b.stats.get("timeout") for b in bots.values())


def test_an_iteration_budget_is_untouched_by_the_clock():
    """Without a time budget the clock is never read, and the search does all its iterations."""
    def no_clock() -> float:
        raise AssertionError("the clock was read")

    gs = Game.load(CONNECT_FOUR).new_initial_state(seed=1)
    bot = MctsBot(1, iterations=20, clock=no_clock)
    bot.choose(gs)
    assert bot.stats["iterations"] == 20 and "timeout" not in bot.stats


# ------------------------------------------------------------------ the cycle collector


GARBAGE_GAMES = ["connect-four", "reversi", "bubble-singularity", "bubblee-pop", "burbuja"]


def test_a_search_leaves_no_cyclic_garbage():
    """What a search drops is freed by reference counting alone (so pausing the cycle collector during a
    search costs no memory): an interpreter used to hold bound methods of itself, one cycle per clone.
    One search on each game between two collections (a full collection of the test process costs ~0.3 s of
    CPU: one pair for all five games, not one per game); on a failure each game is searched alone to name it."""
    import gc

    starts = [shared_game(name).new_initial_state(seed=1) for name in GARBAGE_GAMES]

    def search(gs: GameState) -> None:
        bot = MctsBot(1, "12")
        bot.choose(gs)
        assert bot.stats["iterations"] >= 1

    gc.collect()
    for gs in starts:
        search(gs)
    if gc.collect():
        leaking = []
        for name in GARBAGE_GAMES:
            gs = shared_game(name).new_initial_state(seed=1)
            gc.collect()
            search(gs)
            if gc.collect():
                leaking.append(name)
        raise AssertionError(f"a search left cyclic garbage: {leaking or 'only when the games ran together'}")


def test_the_cycle_collector_is_paused_during_a_search_and_restored_after():
    import gc

    gs = Game.load(CONNECT_FOUR).new_initial_state(seed=1)
    seen = []

    def watch(phase: str, info: dict) -> None:
        seen.append((phase, gc.isenabled()))

    gc.callbacks.append(watch)
    try:
        gc.collect()
        seen.clear()
        MctsBot(1, "40").choose(gs)
        assert seen == [] and gc.isenabled()  # no collection ran inside the search
        gc.disable()
        MctsBot(1, "4").choose(gs)
        assert not gc.isenabled()  # a caller's own choice is left as it was
    finally:
        gc.enable()
        gc.callbacks.remove(watch)
