"""The lean playout path (engine/lean.py) and the prepared start position (Game.start_state).

The lean path keeps no history, narration or checkpoint, but plays the very games the public API plays: the
same menus (after the same look-ahead), the same positions after every answer, the same results.  A new state
copied from the prepared start position is the state a fresh start makes.
"""

from __future__ import annotations

import random

import pytest

from orrery.interpreter.core.rng import Rng
from orrery.interpreter.engine.driver import GameState
from orrery.interpreter.engine.game import IllegalMove, load_game
from orrery.interpreter.engine.gamefiles import bundled_games
from orrery.interpreter.engine.lean import LeanState, lean_state

# games and seeds played in lockstep (the bubble games' long games: fewer seeds)
SEEDS = {"bubble-singularity": 1, "bubblee-pop": 2}


@pytest.mark.parametrize("name", bundled_games())
@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_the_lean_path_plays_the_apis_games(name, mode):
    game = load_game(name, mode=mode)
    for seed in range(SEEDS.get(name, 3)):
        api, lean = game.new_initial_state(seed=seed), lean_state(game, seed)
        rng = Rng(seed + 11)
        while not api.is_terminal():
            legal = api.legal_actions()
            assert lean.legal() == legal and lean.current_player() == api.current_player()
            index = legal[rng.below(len(legal))]
            api.apply(index)
            lean.play(index)
            assert lean.pos.s.digest() == api.pos.s.digest()
        assert lean.is_terminal() and lean.legal() == [] and lean.returns() == api.returns()
        assert lean.history() == [] and api.history()


@pytest.mark.parametrize("name", bundled_games())
def test_a_copy_of_the_prepared_start_is_a_fresh_start(name):
    game = load_game(name)
    for seed in (0, 5, 123456789):
        copied, fresh = game.new_initial_state(seed=seed), GameState.start(game, game.num_players(), seed)
        assert copied.digest() == fresh.digest() and copied.seed == seed
        assert [(s.player, s.index, s.auto) for s in copied.steps] == [(s.player, s.index, s.auto) for s in fresh.steps]
        assert copied.narration == fresh.narration
    prepared = game._prepared[game.num_players()]
    drew = fresh.pos.s.rng.state != Rng(123456789).state  # (a setup that draws is run per seed instead)
    assert (prepared is None) == drew


def test_a_prepared_start_is_never_changed_by_the_games_copied_from_it():
    game = load_game("connect-four")
    first = game.new_initial_state(seed=1)
    before = game._prepared[2].digest()
    first.apply(first.legal_actions()[0])
    lean = lean_state(game, 2)
    lean.playout(random.Random(3))
    assert game._prepared[2].digest() == before
    assert game.new_initial_state(seed=1).digest() == GameState.start(game, 2, 1).digest()


def test_a_refused_answer_after_which_the_state_may_not_be_used():
    game = load_game("tic-tac-toe")
    lean = lean_state(game, 0)
    with pytest.raises(IllegalMove, match="not one of the options"):
        lean.play(99)
    lean.playout(random.Random(1))
    with pytest.raises(IllegalMove, match="the game is over"):
        lean.play(0)


def test_playouts_are_reproducible_and_clones_independent():
    game = load_game("reversi")
    a, b = lean_state(game, 4), lean_state(game, 4)
    c = a.clone()
    assert a.playout(random.Random(9)) == b.playout(random.Random(9))
    assert a.pos.s.digest() == b.pos.s.digest() != c.pos.s.digest()
    assert isinstance(c, LeanState) and not c.is_terminal()
    assert c.playout(random.Random(9), limit=3) == 3 and not c.is_terminal()


def test_a_lean_copy_of_a_game_in_progress_goes_on_from_there():
    game = load_game("breakthrough")
    gs = game.new_initial_state(seed=2)
    for _ in range(4):
        gs.apply(gs.legal_actions()[0])
    lean = LeanState.of(gs)
    assert lean.legal() == gs.legal_actions() and lean.pos.s.digest() == gs.pos.s.digest()
    lean.play(lean.legal()[-1])
    assert gs.pos.s.digest() != lean.pos.s.digest() and len(gs.history()) == 4
