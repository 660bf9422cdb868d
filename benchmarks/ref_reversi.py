"""Hand-written reference: Reversi / Othello (8x8) random playouts in plain Python.

Same rules as games/reversi/rules.yaml: Light on d4 and e5, Dark on d5 and e4, Dark moves first; a
disc must be placed on an empty square from which it outflanks at least one straight line (any of
the 8 directions) of opponent discs ending at one of the mover's discs; every outflanked line is
turned over; a player without a legal move passes; the game ends when the board is full or neither
player can move; more discs wins, equal counts are a draw.

The board is the usual 10x10 "mailbox" list: squares 11..88 (index 10*row + column, both 1-based)
with a border of OFF squares, so walking off the edge needs no bounds checks.

`random_playout(rng)` plays one game with uniformly random legal moves and returns the number of
plies, counting **discs placed only**: a pass is not a ply, because in the spec a pass is forced
(the only option) and is answered automatically, not chosen. `play(rng)` also returns the final
disc counts, for tests.
"""

from __future__ import annotations

import random

try:
    from benchmarks.timing import playouts_per_second
except ImportError:  # run as a script from inside benchmarks/
    from timing import playouts_per_second  # type: ignore[no-redef]

EMPTY, DARK, LIGHT, OFF = 0, 1, 2, 3
DIRECTIONS = (-11, -10, -9, -1, 1, 9, 10, 11)
SQUARES = [10 * r + c for r in range(1, 9) for c in range(1, 9)]


def initial_board() -> list[int]:
    """The Othello start: Light on d4 and e5, Dark on d5 and e4 (index 10*row + column)."""
    board = [OFF] * 100
    for sq in SQUARES:
        board[sq] = EMPTY
    board[44] = board[55] = LIGHT  # d4, e5
    board[54] = board[45] = DARK  # d5, e4
    return board


def legal_moves(board: list[int], me: int) -> list[int]:
    """Empty squares from which `me` outflanks at least one line of the opponent's discs."""
    foe = 3 - me
    moves = []
    for sq in SQUARES:
        if board[sq] != EMPTY:
            continue
        for d in DIRECTIONS:
            n = sq + d
            if board[n] != foe:
                continue
            n += d
            while board[n] == foe:
                n += d
            if board[n] == me:
                moves.append(sq)
                break
    return moves


def place(board: list[int], sq: int, me: int) -> int:
    """Put `me`'s disc on `sq` and turn over every outflanked line; return how many discs turned."""
    foe = 3 - me
    board[sq] = me
    turned = 0
    for d in DIRECTIONS:
        n = sq + d
        if board[n] != foe:
            continue
        n += d
        while board[n] == foe:
            n += d
        if board[n] == me:
            n -= d
            while n != sq:
                board[n] = me
                turned += 1
                n -= d
    return turned


def play(rng: random.Random) -> tuple[int, int, int]:
    """One random game: (discs placed, Dark's final discs, Light's final discs)."""
    board = initial_board()
    counts = [0, 2, 2]  # indexed by colour
    me = DARK
    plies = 0
    passed = False
    while counts[DARK] + counts[LIGHT] < 64:
        moves = legal_moves(board, me)
        if not moves:
            if passed:
                break  # neither player can move
            passed = True
            me = 3 - me
            continue
        passed = False
        sq = moves[rng.randrange(len(moves))]
        turned = place(board, sq, me)
        counts[me] += turned + 1
        counts[3 - me] -= turned
        plies += 1
        me = 3 - me
    return plies, counts[DARK], counts[LIGHT]


def random_playout(rng: random.Random) -> int:
    """Play one complete random game from the start; return the number of discs placed (passes excluded)."""
    return play(rng)[0]


def bench(seconds: float = 3.0, seed: int = 1) -> float:
    """Random playouts per second over about `seconds`."""
    return playouts_per_second(random_playout, seconds, seed)

if __name__ == "__main__":
    print(f"reversi reference: {bench():,.0f} playouts/s")
