"""Hand-written reference: tic-tac-toe random playouts in plain Python.

Same rules as games/tic-tac-toe/rules.yaml: X then O place a mark in an empty
square; three in a row wins; a full board without one is a draw.
`random_playout(rng)` plays one game with uniformly random moves and returns
the number of moves (5..9).
"""

from __future__ import annotations

import random

try:
    from benchmarks.timing import playouts_per_second
except ImportError:  # run as a script from inside benchmarks/
    from timing import playouts_per_second  # type: ignore[no-redef]

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def play(rng: random.Random) -> tuple[int | None, int]:
    """One random game: (winner 0/1 or None, moves made)."""
    board = [None] * 9
    empty = list(range(9))
    me = 0
    for move in range(9):
        sq = empty.pop(rng.randrange(len(empty)))
        board[sq] = me
        if any(board[a] == me and board[b] == me and board[c] == me for a, b, c in LINES if sq in (a, b, c)):
            return me, move + 1
        me = 1 - me
    return None, 9


def random_playout(rng: random.Random) -> int:
    """Moves made in one random game."""
    return play(rng)[1]


def bench(seconds: float = 3.0, seed: int = 1) -> float:
    """Random playouts per second over about `seconds`."""
    return playouts_per_second(random_playout, seconds, seed)

if __name__ == "__main__":
    print(f"tic-tac-toe reference: {bench():.0f} playouts/s")
