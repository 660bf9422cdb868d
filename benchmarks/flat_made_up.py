#!/usr/bin/env python3
"""The flat path against the general lean path on made-up games (CPU seconds, interleaved rounds).

    benchmarks/flat_made_up.py [--games N] [--rounds R] [SPEC ...]

For each spec (default: the made-up games of the flat path's piles, built-ins, unbounded grids and menus of
pieces under tests/specs/): N seeded random playouts (game i from seed i, answers from random.Random(i * 7 +
1), as benchmarks/lean_playouts.py) on the flat path (lean_state), on the compiled rules' general lean path
(LeanState) and on the interpreted rules' lean path, one after the other in each round; prints each one's
median CPU time per game over the rounds with the spread (min-max), the decisions (the same on all three:
the same games), the games the flat path handed to the general engine, and the ratios of the medians.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from orrery.interpreter.engine.game import load_game  # noqa: E402
from orrery.interpreter.engine.lean import LeanState, lean_state  # noqa: E402

SPECS = ["pile-row", "pawn-walk", "spread", "piece-pick"]


def _play(make, n: int) -> tuple[float, int, int]:
    t = time.process_time()
    decisions = handed = 0
    for i in range(n):
        state = make(i)
        decisions += state.playout(random.Random(i * 7 + 1))
        handed += getattr(state, "general", None) is not None
    return time.process_time() - t, decisions, handed


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("specs", nargs="*", default=SPECS)
    args = ap.parse_args(argv)
    for name in args.specs:
        path = ROOT / "tests" / "specs" / f"{name}.yaml"
        fast, slow = load_game(path), load_game(path, mode="interpreted")
        n = fast.num_players()
        ways = {
            "flat": lambda i: lean_state(fast, i),
            "general": lambda i: LeanState.of(fast.start_state(n, i), copy=False),
            "interpreted": lambda i: LeanState.of(slow.start_state(n, i), copy=False),
        }
        for make in ways.values():
            _play(make, 2)  # (warm: modules made, prepared starts)
        times: dict[str, list[float]] = {k: [] for k in ways}
        seen = {}
        for _ in range(args.rounds):
            for k, make in ways.items():
                cpu, decisions, handed = _play(make, args.games)
                times[k].append(cpu / args.games)
                seen[k] = (decisions, handed)
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"{name}: {args.games} games x {args.rounds} rounds, decisions {seen['flat'][0]} "
              f"(general {seen['general'][0]}, interpreted {seen['interpreted'][0]}), "
              f"handed to the general engine {seen['flat'][1]}")
        for k, v in times.items():
            print(f"  {k:12s} {med[k] * 1000:8.2f} ms/game  ({min(v) * 1000:.2f}-{max(v) * 1000:.2f})")
        print(f"  general / flat {med['general'] / med['flat']:.1f}, interpreted / flat "
              f"{med['interpreted'] / med['flat']:.1f}, interpreted / general {med['interpreted'] / med['general']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
