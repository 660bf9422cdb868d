#!/usr/bin/env python3
"""Bubble Singularity's ceiling against issue 34's 4-player target, measured as benchmarks/full_table_rate.py
measures the engine: each round the hand-written connect four (benchmarks/ref_connect_four.py), the engine's
random games through the public API (`cli.bench.bench_playouts`: every menu complete), optionally as the search
bot plays them (`bench_sampled`), and the hand-written ceiling (benchmarks/ceiling_bubble_singularity.py) on
the same seeds as bench_playouts (1, 2, 3, ...: the same games), also with every look-ahead trial copying the
whole flat state first (`COPY_TRIALS`: a generator that replays options on a copy); each rate normalised by 37,000 / the
connect four's rate of its round; CPU time; medians and the spread (min-max) over the rounds.

    nice -n 5 benchmarks/ceiling_bubble_singularity_rate.py [--seconds S] [--rounds R] [--sampled]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import ceiling_bubble_singularity as ceiling  # noqa: E402
from benchmarks import ref_connect_four  # noqa: E402
from orrery.interpreter.cli.bench import bench_playouts, bench_sampled  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402

NORMALISER = 37_000  # the hand-written connect four's rate the target assumes (games/s)
TARGET = 50  # issue 34: Bubble Singularity 4-player random games, normalised


def ceiling_rate(seconds: float, seed: int = 1) -> tuple[float, float]:
    """The ceiling's games per CPU second over about `seconds` (seeds seed, seed+1, ...), and its decisions
    per game."""
    n = decisions = 0
    start = time.process_time()
    while True:
        decisions += ceiling.play(seed + n)[3]
        n += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return n / elapsed, decisions / n


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sampled", action="store_true", help="also the engine's sampled playouts (bench_sampled)")
    args = ap.parse_args(argv)
    game = load_game("bubble-singularity", mode="compiled")
    seen: dict[str, list[float]] = {"hand-written connect four": [], "exact": [], "ceiling": [],
                                    "ceiling, copying trials": []}
    if args.sampled:
        seen["sampled"] = []
    for r in range(args.rounds):
        hand = ref_connect_four.bench(args.seconds, 1 + r)
        exact = bench_playouts(game, args.seconds, players=4, seed=1)["playouts_per_s"]
        sampled = bench_sampled(game, args.seconds, players=4, seed=1)["playouts_per_s"] if args.sampled else None
        ceil, per_game = ceiling_rate(args.seconds)
        ceiling.COPY_TRIALS = True  # (each move trial copies the whole flat state first)
        try:
            copying, _ = ceiling_rate(args.seconds)
        finally:
            ceiling.COPY_TRIALS = False
        scale = NORMALISER / hand
        seen["hand-written connect four"].append(hand)
        seen["exact"].append(exact * scale)
        seen["ceiling"].append(ceil * scale)
        seen["ceiling, copying trials"].append(copying * scale)
        line = (f"round {r}: hand-written connect four {hand:,.0f}/s; bubble-singularity 4p: exact {exact:.2f}/s "
                f"(normalised {exact * scale:.1f})")
        if sampled is not None:
            seen["sampled"].append(sampled * scale)
            line += f", sampled {sampled:.2f}/s (normalised {sampled * scale:.1f})"
        line += (f", ceiling {ceil:.1f}/s (normalised {ceil * scale:.0f}; {per_game:.0f} decisions a game), "
                 f"copying trials {copying:.1f}/s (normalised {copying * scale:.0f})")
        print(line, flush=True)
    for k, v in seen.items():
        unit = "/s" if k.startswith("hand") else " normalised"
        print(f"{k}: median {statistics.median(v):,.1f}{unit} (min {min(v):,.1f}, max {max(v):,.1f})")
    c = statistics.median(seen["ceiling"])
    print(f"target {TARGET}: the ceiling is {c / TARGET:.1f}x the target, "
          f"{c / statistics.median(seen['exact']):.0f}x the engine's exact path")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
