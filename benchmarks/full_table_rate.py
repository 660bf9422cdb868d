#!/usr/bin/env python3
"""A game's random games per second at a full table, normalised as issue 34's target is (`orrery bench --report`'s
full-table figure, alone): the rate scaled by 37,000 / the hand-written connect four's rate measured in the
same round, so a loaded machine slows both alike.

    benchmarks/full_table_rate.py GAME PLAYERS [--seconds S] [--rounds R]

Each round measures the hand-written connect four (benchmarks/ref_connect_four.py), then the game's random
games through the public API (every menu complete: `cli.bench.bench_playouts`, random bots) and as the search
bot plays them (`bench_sampled`: options tried in a random order, `GameState.sample_step`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import ref_connect_four  # noqa: E402
from orrery.interpreter.cli.bench import bench_playouts, bench_sampled  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402

NORMALISER = 37_000  # the hand-written connect four's rate the target assumes (games/s)


def main(argv: list[str]) -> int:
    """Rounds of (hand-written, exact, sampled); each printed with its normalised rates."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args(argv)
    game = load_game(args.game, mode="compiled")
    for r in range(args.rounds):
        hand = ref_connect_four.bench(args.seconds, 1 + r)
        exact = bench_playouts(game, args.seconds, players=args.players, seed=1)["playouts_per_s"]
        sampled = bench_sampled(game, args.seconds, players=args.players, seed=1)["playouts_per_s"]
        scale = NORMALISER / hand
        print(f"round {r}: hand-written connect four {hand:,.0f}/s; {args.game} {args.players}p: exact "
              f"{exact:.2f}/s (normalised {exact * scale:.1f}), sampled {sampled:.2f}/s (normalised "
              f"{sampled * scale:.1f})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
