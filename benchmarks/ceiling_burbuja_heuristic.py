#!/usr/bin/env python3
"""Burbuja's MCTS target (500 iterations/s from the start, issue 34) against its own heuristic, written by hand.

Burbuja's search bot judges a position by the spec's `bots.heuristic` (`square_progress()`, `playout: 0`): every
child of a node the search expands is judged at once (bots/mcts.py `_judge_all`).  So an iteration costs at
least the heuristic of the positions it judges, whatever the code around it.  This script

1. runs the engine's search (`MctsBot(1, iterations=N, reuse=False)` from seed 1's start, as
   `benchmarks/mcts_search.py burbuja N`) and records every position whose heuristic it asks for;
2. computes the heuristic of each by hand (the rules' own algorithm: `best_frame` over the 7x7 squares that can
   still be the final one, `frame_value` = border tiles + the tiles joined to them, a flood fill; cells as ints,
   no guards at all, so it is faster than any generated code could be) and checks it gives the engine's value
   on every one;
3. times the hand-written heuristic over all of them (the median of `--rounds`), and prints the iterations per
   second a search would reach if NOTHING but these heuristics cost time: an upper bound for any generator.

    benchmarks/ceiling_burbuja_heuristic.py [--iterations N] [--rounds R] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from orrery.interpreter.bots.mcts import MctsBot  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402

_W = 1 << 10  # a cell (x, y) as the int x + y * _W (the table has no edge; the games stay far inside this)
_AROUND = (1, -1, _W, -_W)  # the table's adjacency: orthogonal


def position(s: Any) -> tuple[list[int], list[int]]:
    """(the tiles' cells, the cells of the tiles whose coin is used) of a general state."""
    tiles: dict[tuple[str, int], int] = {}
    for place, ids in s.places.items():
        if getattr(place, "zone", None) == "table":
            x, y = place.pos
            for pid in ids:
                a = s.attrs[pid]
                tiles[(a["suit"], a["value"])] = x + y * _W
    used = set()
    for place, ids in s.places.items():
        if getattr(place, "name", place) == "discard" or getattr(place, "zone", None) == "discard":
            used.update((s.attrs[pid]["suit"], s.attrs[pid]["value"]) for pid in ids)
    cs = sorted(tiles.values())
    moved = [c for k, c in tiles.items() if k in used]
    return cs, (moved if used else None)


def xy(c: int) -> tuple[int, int]:
    """A cell's (x, y)."""
    x = (c + 512) % _W - 512
    return x, (c - x) // _W


def square_progress(cs: list[int], moved: list[int] | None) -> int:
    """The heuristic by hand: best_frame(cells(table), moved_cells(), bs)."""
    ms = moved if moved is not None else []
    bs = cs if moved is None else moved
    xs = [xy(c)[0] for c in bs]
    ys = [xy(c)[1] for c in bs]
    mcoords = [xy(c) for c in ms]
    within = set(cs)
    ccoords = [(*xy(c), c) for c in cs]
    best = 0
    for mx in range(max(xs) - 3, min(xs) + 4):
        for my in range(max(ys) - 3, min(ys) + 4):
            if not all(max(abs(x - mx), abs(y - my)) == 3 for x, y in mcoords):
                continue
            border = [c for x, y, c in ccoords if max(abs(x - mx), abs(y - my)) == 3]
            seen = set(border)
            todo = list(border)
            while todo:
                c = todo.pop()
                for d in _AROUND:
                    n = c + d
                    if n in within and n not in seen:
                        seen.add(n)
                        todo.append(n)
            v = len(border) + len(seen)
            if v > best:
                best = v
    return best


def record(iterations: int) -> tuple[list[tuple[list[int], list[int] | None, int]], float]:
    """The positions the engine's search judged, each with the engine's heuristic; and the search's CPU s."""
    game = load_game("burbuja")
    rules = game.rules
    seen: list[tuple[list[int], list[int] | None, int]] = []
    judge = rules.heuristic_returns
    top = rules.heuristic_top  # (worked out at load when the spec writes it as an expression)

    def recording(it: Any) -> Any:
        out = judge(it)
        if out is not None:
            cs, moved = position(it.s)
            seen.append((cs, moved, round((out[0] + 1.0) * top / 2.0)))
        return out

    state = game.new_initial_state(seed=1)
    rules.heuristic_returns = recording  # (an instance attribute, taken away after the search)
    try:
        start = time.process_time()
        MctsBot(1, iterations=iterations, reuse=False).choose(state)
        return seen, time.process_time() - start
    finally:
        del rules.heuristic_returns


def main(argv: list[str]) -> int:
    """Record, check, time, print."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    seen, engine_s = record(args.iterations)
    for k, (cs, moved, value) in enumerate(seen):
        mine = min(square_progress(cs, moved), 48)
        if mine != value:
            raise SystemExit(f"position {k}: the hand-written heuristic gives {mine}, the engine {value}")
    times = []
    for _ in range(args.rounds):
        start = time.process_time()
        for cs, moved, _ in seen:
            square_progress(cs, moved)
        times.append(time.process_time() - start)
    hand_s = statistics.median(times)
    out = {"iterations": args.iterations, "judged_positions": len(seen),
           "judged_per_iteration": round(len(seen) / args.iterations, 2),
           "engine_search_cpu_s": round(engine_s, 3),
           "engine_iterations_per_s": round(args.iterations / engine_s, 1),
           "hand_heuristic_us": round(hand_s / len(seen) * 1e6, 2),
           "ceiling_iterations_per_s": round(args.iterations / hand_s, 1), "target": 500}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"# benchmarks/ceiling_burbuja_heuristic.py --iterations {args.iterations} --rounds {args.rounds}"
          f" (CPU time)")
    print(f"engine search: {out['engine_iterations_per_s']:,} it/s; {len(seen)} positions judged "
          f"({out['judged_per_iteration']} an iteration), the hand-written heuristic gave the engine's value on each")
    print(f"hand-written heuristic {out['hand_heuristic_us']} us a position -> at most "
          f"{out['ceiling_iterations_per_s']:,} it/s if nothing else cost anything (target 500)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
