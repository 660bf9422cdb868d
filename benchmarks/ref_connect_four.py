"""Hand-written reference: Connect Four (7 columns x 6 rows) random playouts in plain Python.

Same rules as games/connect-four/rules.yaml: players alternate dropping a disc into a column that
is not full, the disc falls to the lowest empty space, four (or more) in a row horizontally,
vertically or diagonally wins, a full board without one is a draw.

The position is the usual pair of bitboards (one int per player): column x occupies bits
x*7 .. x*7+5 (row 0 at the bottom), bit x*7+6 is an always-empty guard, so a line of four in
direction d exists when `b & b>>d & b>>2d & b>>3d` is not zero (d = 1 vertical, 7 horizontal,
8 and 6 the two diagonals).

`random_playout(rng)` plays one game with uniformly random legal moves (a uniform choice among the
non-full columns) and returns the number of moves (plies) made: one per disc dropped, 7..42.
`play(rng)` does the same and also returns the winner (0, 1, or None for a draw) and the final
board, for tests.
"""

from __future__ import annotations

import random

try:
    from benchmarks.timing import playouts_per_second
except ImportError:  # run as a script from inside benchmarks/
    from timing import playouts_per_second  # type: ignore[no-redef]

WIDTH = 7
HEIGHT = 6
STRIDE = HEIGHT + 1  # bits per column: the rows plus a guard bit that stays empty
DIRECTIONS = (1, STRIDE, STRIDE + 1, STRIDE - 1)  # vertical, horizontal, diagonal /, diagonal \


def has_four(b: int) -> bool:
    """Whether the bitboard `b` holds four in a row in some direction."""
    for d in DIRECTIONS:
        m = b & (b >> d)
        if m & (m >> (2 * d)):
            return True
    return False


def _game(rng: random.Random) -> tuple[int | None, int, list[int]]:
    """One random game: (winner or None, moves made, the two bitboards)."""
    boards = [0, 0]
    heights = [x * STRIDE for x in range(WIDTH)]  # bit index of the next free space of each column
    tops = [x * STRIDE + HEIGHT for x in range(WIDTH)]  # the guard bit: reached when the column is full
    open_cols = list(range(WIDTH))
    randrange = rng.randrange
    who = 0
    moves = 0
    while open_cols:
        x = open_cols[randrange(len(open_cols))]
        bit = heights[x]
        heights[x] = bit + 1
        if bit + 1 == tops[x]:
            open_cols.remove(x)
        b = boards[who] | (1 << bit)
        boards[who] = b
        moves += 1
        if has_four(b):
            return who, moves, boards
        who ^= 1
    return None, moves, boards


def play(rng: random.Random) -> tuple[int | None, int, list[list[int]]]:
    """One random game: (winner or None, moves made, grid[x][y] = owner 0/1, or -1 when empty)."""
    winner, moves, boards = _game(rng)
    grid = [[0 if boards[0] >> (x * STRIDE + y) & 1 else 1 if boards[1] >> (x * STRIDE + y) & 1 else -1
             for y in range(HEIGHT)] for x in range(WIDTH)]
    return winner, moves, grid


def random_playout(rng: random.Random) -> int:
    """Play one complete random game from the empty board; return the number of plies (discs dropped)."""
    return _game(rng)[1]


def bench(seconds: float = 3.0, seed: int = 1) -> float:
    """Random playouts per second over about `seconds`."""
    return playouts_per_second(random_playout, seconds, seed)

if __name__ == "__main__":
    print(f"connect-four reference: {bench():,.0f} playouts/s")
