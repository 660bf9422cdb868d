"""The ceiling of tic-tac-toe's compiled code: what a typed generator would have to emit, written by hand.

games/tic-tac-toe/rules.yaml over a flat layout (see ceiling_connect_four.py for what a ceiling keeps and leaves
out): cells are ints (y * 3 + x), a place a list of piece ids, `owner` a column; the menu is the empty cells in
`cells(board)`'s order; `place` makes the mark; after every step the end conditions in the spec's order:
`three_in_a_row` (`owns_line(current)`: `any` over `lines(board, 3)` of `all` over the line's cells, `lines`
charging its 108 tried cells to the loop limit as the built-in does, each comprehension item one tick), then
`board_full` (`all` over the cells, a tick each).  `three_in_a_row` reads `current`, so at the next turn's start
the end checks evaluate it again for the new current player (the engine remembers a condition found false
only while the state and, for a condition that reads the flow, the cursor stay as they were: flow.check_ends);
`board_full` reads no flow and is not evaluated again.
"""

from __future__ import annotations

import random

N = 3
LOOP_LIMIT, PIECE_LIMIT = 2_000_000, 200_000
# lines(board, 3) in the built-in's order: from each cell (row by row from the bottom), E, N, NE, SE
_STEP = {"E": (1, 0), "N": (0, 1), "NE": (1, 1), "SE": (1, -1)}
LINES = []
for _c in range(N * N):
    for _d in ("E", "N", "NE", "SE"):
        _dx, _dy = _STEP[_d]
        _run = [(_c % N + _dx * k, _c // N + _dy * k) for k in range(N)]
        if all(0 <= x < N and 0 <= y < N for x, y in _run):
            LINES.append(tuple(y * N + x for x, y in _run))
LINES_CHARGE = N * N * N * 4  # n * the runs tried (one per cell and way): what every call of lines() charges


def play(rng: random.Random) -> tuple[int | None, int, list[int]]:
    """One game: (the winner or None, the decisions made, the owner of each cell's mark or -1)."""
    places: list[list[int]] = [[] for _ in range(N * N)]
    kind: list[int] = []
    owner: list[int] = []
    current = 0
    decisions = 0
    winner = None
    while True:
        legal = [c for c in range(N * N) if not places[c]]  # (the filter counts no loop work)
        if len(legal) > 1:
            square = legal[rng.randrange(len(legal))]
            decisions += 1
        else:
            square = legal[0]
        loops = 0  # (the action's stage)
        if len(kind) >= PIECE_LIMIT:
            raise RuntimeError("pieces limit")
        pid = len(kind)
        kind.append(0)
        owner.append(current)
        places[square].append(pid)
        # three_in_a_row: owns_line(current)
        loops, won = _owns_line(places, owner, current, loops)
        if won:
            winner = current
            break
        full = True  # board_full
        for c in range(N * N):
            loops += 1
            if not places[c]:
                full = False
                break
        if full:
            break
        current ^= 1
        loops = 0  # (the next turn starts: its immediate end checks, `three_in_a_row` for the new current)
        loops, won = _owns_line(places, owner, current, loops)
        if won:
            winner = current
            break
    board = [owner[p[-1]] if p else -1 for p in places]
    return winner, decisions, board


def _owns_line(places: list, owner: list, who: int, loops: int) -> tuple[int, bool]:
    """owns_line(who): (the loop count after it, whether `who` owns a line of `lines(board, 3)`)."""
    loops += LINES_CHARGE
    for line in LINES:
        loops += 1
        for c in line:
            loops += 1
            p = places[c]
            if not p or owner[p[-1]] != who:
                break
        else:
            if loops > LOOP_LIMIT:
                raise RuntimeError("loop limit")
            return loops, True
    if loops > LOOP_LIMIT:
        raise RuntimeError("loop limit")
    return loops, False


def random_playout(rng: random.Random) -> int:
    """Decisions of one random game (the benchmark's unit of work)."""
    return play(rng)[1]
