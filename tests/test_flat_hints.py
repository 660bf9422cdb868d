"""Search hints on the flat flow (compiler/flatmodule._heuristic, engine/flat.FlatGame.heuristic_returns,
engine/flatapi.FlatGameState): a spec with `bots:` keeps its flat module; the flat state judges a position by
bots.heuristic as the general engine does, stays flat while judged, and a search on it makes the same search
as on the general state.  The game: Breakthrough with a hint (tests/specs/variants/breakthrough-hinted.yaml:
a bounded grid's height, a table, spec functions, a comprehension over the board's pieces)."""

from __future__ import annotations

import pytest

from orrery.interpreter.bots import mcts as mcts_module
from orrery.interpreter.bots.mcts import MctsBot
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.engine.flatapi import FlatGameState
from orrery.interpreter.engine.game import load_game

from conftest import REPO

HINTED = REPO / "tests" / "specs" / "variants" / "breakthrough-hinted.yaml"


@pytest.fixture(scope="module")
def game():
    return load_game("breakthrough", variants=[HINTED])


def test_a_spec_with_hints_keeps_its_flat_module_and_judges_positions_on_it(game):
    state = game.new_initial_state(seed=0)
    assert isinstance(state, FlatGameState) and state._fg.mod.heuristic
    assert "def heuristic(st, l_p):" in state._fg.mod.source
    assert "board" not in state._fg.mod.source.split("def heuristic")[1]  # (the height is written as a number)


def test_the_flat_heuristic_is_the_general_engines_at_every_position(game):
    judged = 0
    for seed in range(4):
        flat, general = game.new_initial_state(seed=seed), game.start_state(2, seed)
        rng = Rng(seed)
        while not flat.is_terminal():
            assert flat.heuristic_returns() == general.heuristic_returns()
            judged += 1
            index = rng.below(len(flat.legal_actions()))
            flat.apply(index)
            general.apply(index)
        assert flat._fg is not None  # (judging never turned it general)
    assert judged > 100


def test_a_value_the_flat_code_cannot_give_is_judged_by_the_general_engine(game):
    state = game.new_initial_state(seed=2)
    for _ in range(6):
        state.apply(0)
    fg = state._fg
    expected = state.clone().heuristic_returns()
    saved = fg.heuristic
    try:
        for odd in (lambda st, p: True, lambda st, p: None, lambda st, p: 1 // 0):
            fg.heuristic = odd
            assert fg.heuristic_returns(state._st) is None
            assert state.heuristic_returns() == expected and state._fg is not None
    finally:
        fg.heuristic = saved


def test_apply_sampled_plays_on_the_flat_state(game):
    """A judged answer (the search's apply_sampled) leaves the same position, judged alike, and the state flat."""
    for index in (0, 3, 7):
        flat, general = game.new_initial_state(seed=5), game.start_state(2, 5)
        flat.apply_sampled(index)
        general.apply_sampled(index)
        assert flat._fg is not None and flat.heuristic_returns() == general.heuristic_returns()
        assert flat.state.digest() == general.state.digest()


def test_the_search_bot_makes_the_same_search_on_the_flat_state(monkeypatch, game):
    """Judged children, cut playouts and their heuristic: the same move, statistics and tree as on the general state."""
    flat_bot, general_bot = MctsBot(0, iterations=60, reuse=False), MctsBot(0, iterations=60, reuse=False)
    on_flat = flat_bot.choose(game.new_initial_state(seed=1))
    monkeypatch.setattr(mcts_module, "as_flat", lambda gs: gs)
    on_general = general_bot.choose(game.start_state(2, 1))
    assert on_flat == on_general and flat_bot.stats == general_bot.stats
    assert flat_bot.stats.get("capped", 0) > 0  # (playouts cut short and judged by the heuristic)

    def tree(bot):
        return sorted((a, ch.visits, round(ch.value, 9)) for a, ch in bot._root.children.items())

    assert tree(flat_bot) == tree(general_bot)
