"""The ceiling of connect four's compiled code: what a typed generator would have to emit, written by hand.

games/connect-four/rules.yaml as a typed generator (issue 34, steps a-f of ../shared/design/typed-codegen.md)
would write it, over a flat layout, with nothing of the engine around it but what the rules need:

- the layout: cells are ints (y * 7 + x), a place is a list of piece ids, a piece's kind and `owner` are
  columns, neighbour tables are lists indexed by cell (-1: off the board), `landed` and `winner` are slots;
  `columns` and `rows` are constants (nothing assigns them);
- the rules' own algorithm: the column menu is the columns whose top cell (`cell(board, column + text(rows))`,
  a table) is empty; `drop` walks up from the bottom cell; `four_through` with `run` and `mine` written in;
- every guard the language keeps: the loop limit charged per stage as the reference counts (the filter's text
  `column + text(rows)`, never made, charges its length plus one; each `while` iteration one; the full-board
  check's comprehension one a column plus its texts), the pieces limit at each `create`; none of them can
  fire in a game of connect four, but a generator cannot know that;
- the flow: turns in seat order, the step menu of one action answered by itself, the end conditions after
  every step in the spec's order (`four_in_a_row`, then `board_full`), the decision counter;
- what it leaves out, as the lean path does: history, narration, labels, option objects; and checks the
  types prove cannot fire (class checks, none checks of values that cannot be none).

`play(rng)` plays one game choosing with `rng.randrange` exactly where the engine's lean path does (a menu of
more than one option), so seed for seed it plays the engine's games (benchmarks/ceilings.py checks it).
"""

from __future__ import annotations

import random

W, H = 7, 6
LOOP_LIMIT, PIECE_LIMIT = 2_000_000, 200_000  # the engine's default limits (core/valueops.Limits)
COLUMNS = ["a", "b", "c", "d", "e", "f", "g"]
TOP = [5 * W + x for x in range(W)]  # cell(board, column + "6") by column
BOTTOM = list(range(W))  # cell(board, column + "1") by column
_STEP = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1), "S": (0, -1), "SW": (-1, -1), "W": (-1, 0),
         "NW": (-1, 1)}


def _table(d: str, k: int) -> list[int]:
    dx, dy = _STEP[d]
    out = []
    for c in range(W * H):
        x, y = c % W + dx * k, c // W + dy * k
        out.append(y * W + x if 0 <= x < W and 0 <= y < H else -1)
    return out + [-1]  # cell -1 (off the board) stays off it


NB = {d: [None, _table(d, 1), _table(d, 2), _table(d, 3)] for d in _STEP}
UP = NB["N"][1]
S_1, S_2, S_3 = NB["S"][1:]
E_1, E_2, E_3 = NB["E"][1:]
W_1, W_2, W_3 = NB["W"][1:]
NE_1, NE_2, NE_3 = NB["NE"][1:]
SW_1, SW_2, SW_3 = NB["SW"][1:]
SE_1, SE_2, SE_3 = NB["SE"][1:]
NW_1, NW_2, NW_3 = NB["NW"][1:]
LABEL_LEN = [len(c) + 1 for c in COLUMNS]  # len(column + text(rows))


def play(rng: random.Random) -> tuple[int | None, int, list[int]]:
    """One game: (the winner or None, the decisions made, the owner of each cell's top piece or -1)."""
    places: list[list[int]] = [[] for _ in range(W * H)] + [[]]  # (the last: off the board, always empty)
    kind: list[int] = []
    owner: list[int] = []
    loc: list[int] = []
    landed = -1
    winner = -1
    current = 0
    decisions = 0
    while True:
        loops = 0  # (a new stage: the step menu)
        legal = []
        for i in range(W):
            loops += 1 + LABEL_LEN[i]  # text(rows), then column + "6"
            if loops > LOOP_LIMIT:
                raise RuntimeError("loop limit")
            if not places[TOP[i]]:
                legal.append(i)
        if not legal:
            break  # (the board is full: board_full ended the game before; never reached)
        if len(legal) > 1:
            col = legal[rng.randrange(len(legal))]
            decisions += 1
        else:
            col = legal[0]  # (a menu of one answers itself: no random number, no decision)
        loops = 0  # (the action's stage)
        spot = BOTTOM[col]
        while places[spot]:
            loops += 1
            if loops > LOOP_LIMIT:
                raise RuntimeError("loop limit")
            spot = UP[spot]
            if spot < 0:
                raise RuntimeError("empty() of none")
        if len(kind) >= PIECE_LIMIT:
            raise RuntimeError("pieces limit")
        pid = len(kind)
        kind.append(0)
        owner.append(current)
        loc.append(spot)
        places[spot].append(pid)
        landed = spot
        if _four_through(places, owner, spot, current):
            winner = current
        # the end conditions after the step, in the spec's order
        if winner >= 0:
            break
        if landed // W == H - 1:
            full = True
            for i in range(W):
                loops += 1 + 1 + LABEL_LEN[i]  # the comprehension's item, text(rows), c + "6"
                if loops > LOOP_LIMIT:
                    raise RuntimeError("loop limit")
                if not places[TOP[i]]:
                    full = False
                    break
            if full:
                break
        current ^= 1
    board = [owner[p[-1]] if p else -1 for p in places[:W * H]]
    return (winner if winner >= 0 else None), decisions, board


def _four_through(places: list, owner: list, c: int, who: int) -> bool:
    """four_through(c, who) with run and mine written in, as the generator writes cheap functions into their
    callers (neighbour tables; -1 is off the board, a place that is always empty)."""
    return ((0 if not (p := places[S_1[c]]) or owner[p[-1]] != who
             else 1 if not (p := places[S_2[c]]) or owner[p[-1]] != who
             else 2 if not (p := places[S_3[c]]) or owner[p[-1]] != who else 3) >= 3
            or (0 if not (p := places[E_1[c]]) or owner[p[-1]] != who
                else 1 if not (p := places[E_2[c]]) or owner[p[-1]] != who
                else 2 if not (p := places[E_3[c]]) or owner[p[-1]] != who else 3)
            + (0 if not (p := places[W_1[c]]) or owner[p[-1]] != who
               else 1 if not (p := places[W_2[c]]) or owner[p[-1]] != who
               else 2 if not (p := places[W_3[c]]) or owner[p[-1]] != who else 3) >= 3
            or (0 if not (p := places[NE_1[c]]) or owner[p[-1]] != who
                else 1 if not (p := places[NE_2[c]]) or owner[p[-1]] != who
                else 2 if not (p := places[NE_3[c]]) or owner[p[-1]] != who else 3)
            + (0 if not (p := places[SW_1[c]]) or owner[p[-1]] != who
               else 1 if not (p := places[SW_2[c]]) or owner[p[-1]] != who
               else 2 if not (p := places[SW_3[c]]) or owner[p[-1]] != who else 3) >= 3
            or (0 if not (p := places[SE_1[c]]) or owner[p[-1]] != who
                else 1 if not (p := places[SE_2[c]]) or owner[p[-1]] != who
                else 2 if not (p := places[SE_3[c]]) or owner[p[-1]] != who else 3)
            + (0 if not (p := places[NW_1[c]]) or owner[p[-1]] != who
               else 1 if not (p := places[NW_2[c]]) or owner[p[-1]] != who
               else 2 if not (p := places[NW_3[c]]) or owner[p[-1]] != who else 3) >= 3)


def random_playout(rng: random.Random) -> int:
    """Decisions of one random game (the benchmark's unit of work)."""
    return play(rng)[1]
