"""Hand-written reference: Breakthrough (8x8) random playouts in plain Python.

Same rules as games/breakthrough/rules.yaml: White fills rows 1-2 and moves first (up the board),
Black fills rows 7-8 (moving down); a pawn moves one square straight forward onto an empty square,
or one square diagonally forward onto an empty square or an opposing pawn (capturing it). Reaching
the opponent's home row wins; so does capturing every opposing pawn.

The board is a list of 64 squares, index 8*row + column (0-based, row 0 at the bottom), and each
player's pawns are also kept as a set of squares, so move generation visits the pawns, not the board.

`random_playout(rng)` plays one game with uniformly random legal moves (a uniform choice among all
legal (from, to) moves of the player to move) and returns the number of moves (plies) made.
`play(rng)` also returns the winner and the pawns left, for tests.
"""

from __future__ import annotations

import random

try:
    from benchmarks.timing import playouts_per_second
except ImportError:  # run as a script from inside benchmarks/
    from timing import playouts_per_second  # type: ignore[no-redef]

SIZE = 8
EMPTY, WHITE, BLACK = 0, 1, 2


def initial_board() -> list[int]:
    """Two rows of pawns each: White on rows 1-2, Black on rows 7-8."""
    board = [EMPTY] * (SIZE * SIZE)
    for sq in range(2 * SIZE):
        board[sq] = WHITE
        board[SIZE * SIZE - 1 - sq] = BLACK
    return board


def pawn_squares(board: list[int]) -> dict[int, set[int]]:
    """The squares of each player's pawns."""
    return {who: {sq for sq, v in enumerate(board) if v == who} for who in (WHITE, BLACK)}


def legal_moves(board: list[int], me: int, squares: set[int] | None = None) -> list[tuple[int, int]]:
    """Every legal (from, to) move of `me`, whose pawns stand on `squares` (default: found on the board):
    straight forward onto an empty square, diagonally forward onto a square that is not `me`'s own.
    (No pawn of the player to move is on the far row: that ends the game.)"""
    if squares is None:
        squares = pawn_squares(board)[me]
    step = SIZE if me == WHITE else -SIZE
    moves = []
    for sq in squares:
        ahead = sq + step
        if board[ahead] == EMPTY:
            moves.append((sq, ahead))
        col = sq % SIZE
        if col > 0 and board[ahead - 1] != me:
            moves.append((sq, ahead - 1))
        if col < SIZE - 1 and board[ahead + 1] != me:
            moves.append((sq, ahead + 1))
    return moves


def play(rng: random.Random) -> tuple[int, int, list[int]]:
    """One random game: (moves made, winner WHITE or BLACK, pawns left [_, white, black])."""
    board = initial_board()
    pawns = pawn_squares(board)
    goal = {WHITE: SIZE - 1, BLACK: 0}  # the row a player must reach
    me = WHITE
    plies = 0
    while True:
        moves = legal_moves(board, me, pawns[me])
        src, dst = moves[rng.randrange(len(moves))]
        foe = 3 - me
        if board[dst] == foe:
            pawns[foe].discard(dst)
        board[dst] = me
        board[src] = EMPTY
        pawns[me].discard(src)
        pawns[me].add(dst)
        plies += 1
        if dst // SIZE == goal[me] or not pawns[foe]:
            return plies, me, [0, len(pawns[WHITE]), len(pawns[BLACK])]
        me = foe


def random_playout(rng: random.Random) -> int:
    """Play one complete random game from the start; return the number of moves (plies) made."""
    return play(rng)[0]


def bench(seconds: float = 3.0, seed: int = 1) -> float:
    """Random playouts per second over about `seconds`."""
    return playouts_per_second(random_playout, seconds, seed)

if __name__ == "__main__":
    print(f"breakthrough reference: {bench():,.0f} playouts/s")
