#!/usr/bin/env python3
"""What a flat state layout alone would give connect four's compiled code (issue 17, item 2, step 1).

The generated code reads the board through the general `State`: a place's pieces as
`it.s.places.get(cell)` (a dictionary keyed by the interned `Cell`) and a piece's attribute as
`it.s.attrs[pid]`, then a membership test and an index (one dictionary per piece).  A flat layout would
read `it.s.board[i]` (cells numbered, one list per board) and `it.s.owner[pid]` (one list per attribute),
and a neighbour from a list indexed by the cell's number instead of a dictionary keyed by the cell.

This script measures the most that change could give, without building it:

1. it counts those three reads per move in the bare loop of `benchmarks/protocol_bound.py` (connect four's
   compiled pieces alone, playing the same games as the API);
2. it times each read both ways, written as the generator writes it, with its operands in locals;
3. it prints reads per move x time saved per read, as a share of a bare move and of a move through the API.

Everything else the generated code does (class checks, helper calls, text and narration, loop charges)
is left as it is: those belong to the typed generator (design.md section 2.6, step 2), not to the layout.

    benchmarks/layout_bound.py [GAMES] [--rounds R]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import timeit
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.protocol_bound import Bare, api_game, rate  # noqa: E402
from orrery.interpreter.compiler import geotables  # noqa: E402
from orrery.interpreter.core.values import Cell  # noqa: E402
from orrery.interpreter.engine.game import Game, load_game  # noqa: E402


class CountingPlaces(dict):
    """A place dictionary that counts `get` (the generated code's only way of reading it)."""

    gets = 0

    def get(self, key: Any, default: Any = None) -> Any:
        CountingPlaces.gets += 1
        return super().get(key, default)


class CountingAttrs(list):
    """A list of attribute dictionaries that counts reads by index."""

    reads = 0

    def __getitem__(self, i: Any) -> Any:
        CountingAttrs.reads += 1
        return super().__getitem__(i)


class CountingTable(dict):
    """A geometry table (cell -> neighbour, adjacent cells or direction) that counts reads by key."""

    reads = 0

    def __getitem__(self, key: Any) -> Any:
        CountingTable.reads += 1
        return super().__getitem__(key)


class _PerKey(dict):
    """direction (or target cell) -> its CountingTable."""

    def setdefault(self, key: Any, default: Any = None) -> Any:
        return super().setdefault(key, CountingTable())


class _Store(dict):
    """A rules' geometry tables whose cell-keyed tables count their reads (label tables are not layout)."""

    def setdefault(self, key: Any, default: Any = None) -> Any:
        made = (_PerKey() if key[0] in ("neighbor", "direction") else CountingTable() if key[0] == "adjacent"
                else default)
        return super().setdefault(key, made)


def counted_game() -> Game:
    """Connect four compiled by the general generator (the code this measurement is about: the typed generator
    reads its own tables) with counting geometry tables (geotables.tables swapped while it compiles)."""
    real = geotables.tables
    geotables.tables = lambda rules: rules.__dict__.setdefault("_geometry_tables", _Store())
    try:
        game = load_game("connect-four", mode="compiled")
        game.rules, game.flow_frame = game.engine(setup_override=True)  # (the general code: Game.engine)
        return game
    finally:
        geotables.tables = real


class Counted:
    """A Game whose new states count their board and attribute reads (for Bare, which only needs these two)."""

    def __init__(self, game: Game):
        self.game, self.rules = game, game.rules

    def new_initial_state(self, seed: int, narrate: bool = False) -> Any:
        gs = self.game.new_initial_state(seed=seed, narrate=narrate)
        s = gs.pos.s
        s.places, s.attrs = CountingPlaces(s.places), CountingAttrs(s.attrs)
        return gs


def reads_per_move(games: int) -> tuple[float, float, float]:
    """(board, attribute, neighbour) reads per move over `games` bare games, counted after the start."""
    bare = Bare(Counted(counted_game()))  # type: ignore[arg-type]
    moves = 0
    CountingPlaces.gets = CountingAttrs.reads = CountingTable.reads = 0
    for i in range(games):
        _, gs = bare.play(i)
        moves += len(gs.pos.s.kinds)
    return CountingPlaces.gets / moves, CountingAttrs.reads / moves, CountingTable.reads / moves


class _S:
    __slots__ = ("places", "attrs", "board", "owner")


class _It:
    __slots__ = ("s",)


def _fixture() -> dict[str, Any]:
    """A half-full 7x6 board in both layouts, and one occupied cell."""
    s, it = _S(), _It()
    it.s = s
    cells = [Cell("board", None, (x, y)) for y in range(6) for x in range(7)]
    s.places = {c: [i] for i, c in enumerate(cells) if i % 2}
    s.attrs = [{"owner": i % 2} for i in range(42)]
    s.board = [[i] if i % 2 else [] for i in range(42)]
    s.owner = [i % 2 for i in range(42)]
    north = {c: cells[i + 7] if i + 7 < 42 else None for i, c in enumerate(cells)}
    north_list = [i + 7 if i + 7 < 42 else -1 for i in range(42)]
    return {"IT": it, "C": cells[3], "I": 3, "PID": 3, "CELL": Cell, "T": north, "L": north_list}


PATTERNS = {
    # what the generator writes now, and what it would write over the flat layout
    "board": ("not it.s.places.get(c)", "not it.s.board[i]"),
    "attribute": ("(a9[k] if k in (a9 := it.s.attrs[pid]) else None)", "it.s.owner[pid]"),
    "neighbour": ("(t[c] if c in t else None)", "t2[i]"),
}


def saving_ns(number: int = 400_000, repeat: int = 7) -> dict[str, tuple[float, float]]:
    """Per pattern: (ns a read now, ns a read over the flat layout), best of `repeat`."""
    setup = "it = IT; c = C; i = I; pid = PID; k = 'owner'; t = T; t2 = L"  # (timeit's setup names are locals of its loop)
    out = {}
    for name, pair in PATTERNS.items():
        out[name] = tuple(min(timeit.repeat(stmt, setup, globals=_fixture(), number=number, repeat=repeat))
                          / number * 1e9 for stmt in pair)  # type: ignore[assignment]
    return out


def main(argv: list[str]) -> int:
    """Print the reads per move, the time per read both ways, and the share of a move they bound."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="?", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    game = load_game("connect-four")
    board, attrs, nbrs = reads_per_move(args.games)
    bare = Bare(game)
    bare_rate = statistics.median(rate(bare.play, args.games) for _ in range(args.rounds))
    api_rate = statistics.median(rate(lambda i: api_game(game, i), args.games) for _ in range(args.rounds))
    ns = saving_ns()
    counts = {"board": board, "attribute": attrs, "neighbour": nbrs}
    saved = sum(n * (ns[name][0] - ns[name][1]) for name, n in counts.items())
    print(f"connect four, {args.games} seeded random games (bare loop of protocol_bound.py)")
    print(f"  reads a move: {board:.1f} of the board (places.get), {attrs:.1f} of piece attributes, "
          f"{nbrs:.1f} of neighbour tables")
    for name, (now, flat) in ns.items():
        print(f"  one {name} read: {now:.1f} ns now, {flat:.1f} ns over a flat layout")
    print(f"  at most {saved / 1000:.2f} us saved a move: {saved / (1e9 / bare_rate):.1%} of a bare move "
          f"({1e6 / bare_rate:.1f} us), {saved / (1e9 / api_rate):.1%} of a move through the API "
          f"({1e6 / api_rate:.1f} us)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
