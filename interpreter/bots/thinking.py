"""A search bot's think time at the table, budgeted per TURN (`orrery play --think`, default 2 s).

A bot's turn may hold many decisions (an action, its parameters, the choices of its effect); a budget per
decision made a person wait the budget times all of them.  The table gives each bot turn `--think`
seconds: each decision of the turn may use half of what is left of it, at least FLOOR while the turn has
that much left (the first decision, usually the one that matters most, gets the most); once less than FLOOR
is left, the turn's remaining decisions take no search at all: the search bot follows the plan its
earlier searches of the turn made (MctsBot.follow), so a turn's searches never take more than the budget,
however many decisions it holds.  Decisions the engine answers itself (one option) take no time at all:
the bot is never asked.  A turn is the bot's own turn (round, turn) or, for a bot answering in another
player's turn (a reaction window, a `choose ... by`), its answers within that turn.  A seat given its own budget (`mcts:2s`,
`mcts:200`) keeps it.  `orrery play` and `orrery serve` both budget their bot seats so.
"""

from __future__ import annotations

import time
from typing import Any, Callable

SHARE = 0.5  # of what is left of the turn's budget, what one decision may use
FLOOR = 0.05  # seconds: the least a decision is given (a search that is given no time makes no choice)


def thinking(kind: str, seconds: float | None) -> str:
    """A seat's bot with the table's think time: a plain search bot searches up to `seconds` (a turn's budget:
    its decisions' shares are set by TurnBudget.think)."""
    if seconds is None or kind != "mcts":
        return kind
    return f"mcts:{seconds:g}s"


def turn_budgets(seats: list[str], seconds: float | None) -> dict[int, "TurnBudget"]:
    """A TurnBudget of `seconds` for each plain `mcts` seat (a seat with its own budget keeps it)."""
    return {} if seconds is None else {i: TurnBudget(seconds) for i, kind in enumerate(seats) if kind == "mcts"}


class TurnBudget:
    """Splits `per_turn` seconds of thought among the decisions of each bot turn; a turn never searches longer."""

    clock = staticmethod(time.monotonic)  # the turn's clock (a test may give a fake one)

    def __init__(self, per_turn: float, clock: Callable[[], float] | None = None):
        self.per_turn = per_turn
        if clock is not None:
            self.clock = clock
        self.turn: tuple | None = None
        self.spent = 0.0

    def share(self, gs: Any, player: int) -> float:
        """The seconds the next decision of `player` may use, in the turn `gs` is in: half of what is left,
        at least FLOOR while that much is left, never more than is left; 0 once less than FLOOR is left (but
        the whole budget for the turn's first decision when the budget itself is under FLOOR)."""
        c = gs.state.cursor
        key = (player, c.round, c.turn)
        if key != self.turn:
            self.turn, self.spent = key, 0.0
        left = self.per_turn - self.spent
        if left < FLOOR:  # (a budget under the floor: the turn's first decision still searches, all of it)
            return left if self.spent == 0 else 0.0
        return min(left, max(FLOOR, left * SHARE))

    def think(self, gs: Any, player: int, bot: Any, play: Callable[[Any], Any] | None = None) -> Any:
        """`bot.choose(gs)` within its share of this turn (the bot's `seconds` set for it), or, with no share
        left, `bot.follow(gs)`: the search bot's move without a search (the plan its earlier searches of the
        turn made); with `play`, the move is played too and `play`'s result returned.  The time it all took
        (the move's included: a person waits for it as well) is counted against the turn."""
        seconds = self.share(gs, player)
        start = self.clock()
        try:
            if seconds <= 0:
                choice = bot.follow(gs)
            else:
                bot.seconds = seconds
                choice = bot.choose(gs)
            return play(choice) if play is not None else choice
        finally:
            self.spent += self.clock() - start


__all__ = ["TurnBudget", "SHARE", "FLOOR", "thinking", "turn_budgets"]
