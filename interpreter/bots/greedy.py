"""A one-ply greedy bot: the baseline a search bot must beat besides random play (`--bots greedy`).

The bot tries every option of the pending decision once, in a world that agrees with what it sees
(`worlds.determinise`: hidden pieces re-dealt, future draws reseeded, so it reads nothing it could not
know), and judges the position each leads to: the game's result when the option ends the game, else the
spec's `bots.heuristic` (scaled to -1..1), else 0 (nothing to tell the options apart).  It plays the best,
choosing at random among equally good options.  So it takes a win that is one decision away, never makes
a move that loses at once when another does not, and otherwise follows the heuristic one step ahead:
a careful player who does not plan.  It reads only the GameState API, as the search bot does.
"""

from __future__ import annotations

import math

from ..core.decisions import RequireFailed, RuleError, RunawayError
from ..core.rng import Rng
from ..engine.game import GameState, IllegalMove
from .worlds import determinise

_JUDGE_ERRORS = (IllegalMove, RuleError, RequireFailed, RunawayError)


class GreedyBot:
    """Best option one decision ahead, by the end result or the spec's heuristic; ties at random."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, gs: GameState) -> int:
        """The option whose position judges best for the mover (see the module doc)."""
        legal = gs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = gs.current_player()
        world = determinise(gs, me, self.rng)
        best: list[int] = []
        best_value = -math.inf
        for index in legal:
            value = self.judge(world, index, me)
            if value is None:
                continue
            if value > best_value:
                best, best_value = [index], value
            elif value == best_value:
                best.append(index)
        pool = best or legal
        return pool[self.rng.below(len(pool))]

    def snapshot(self) -> "GreedyBot":
        """A copy at the same point of its random numbers (the table's undo)."""
        twin = GreedyBot()
        twin.rng = self.rng.clone()
        return twin

    @staticmethod
    def judge(world: GameState, index: int, me: int) -> float | None:
        """The value for `me` of answering `index` in `world` (a copy is played), or None if it fails there."""
        g = world.clone()
        try:
            g.apply_sampled(index)
            if g.is_terminal():
                return g.returns()[me]
            judged = g.heuristic_returns()
        except _JUDGE_ERRORS:
            return None
        return 0.0 if judged is None else judged[me]
