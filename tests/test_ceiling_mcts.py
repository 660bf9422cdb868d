"""benchmarks/ceiling_mcts_connect_four.py: with connect four's game code written by hand, the search bot makes the
same search as on the engine's flat module (same move, statistics and tree), so the ceiling it measures is the
cost of the same work; and the hand-written code ends games as the flat module does."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # `benchmarks/` sits beside the engine, outside the installed package
    sys.path.insert(0, str(REPO))

from benchmarks import ceiling_mcts_connect_four as ceiling  # noqa: E402
from orrery.interpreter.core.rng import Rng  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402


def test_the_hand_written_code_makes_the_engines_search():
    game = load_game("connect-four")
    fg = game.new_initial_state(seed=1)._fg
    _, bot, move = ceiling.search(game, 300, fg)
    _, mine, my_move = ceiling.search(game, 300, ceiling.hand_written(fg))
    assert (my_move, mine.stats, ceiling.tree(mine)) == (move, bot.stats, ceiling.tree(bot))


def test_the_hand_written_code_plays_the_engines_games():
    game = load_game("connect-four")
    mine = ceiling.hand_written(game.new_initial_state(seed=1)._fg)
    for seed in range(20):
        ours, theirs = game.new_initial_state(seed=seed), game.new_initial_state(seed=seed)
        ours.__dict__["_fg"] = mine
        rng = Rng(seed)
        while not theirs.is_terminal():
            assert ours.legal_actions() == theirs.legal_actions() and ours.current_player() == theirs.current_player()
            index = rng.below(len(theirs.legal_actions()))
            ours.apply(index)
            theirs.apply(index)
        assert ours.is_terminal() and ours._st.over == theirs._st.over and ours.returns() == theirs.returns()
        assert ours._fg is mine  # (never handed to the general engine)
        assert ours.state.digest() == theirs.state.digest()
