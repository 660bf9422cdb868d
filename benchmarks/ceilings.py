#!/usr/bin/env python3
"""Each classic game's ceiling (benchmarks/ceiling_*.py) against its hand-written reference, in one run.

A ceiling is the game's compiled code as a typed generator would have to write it, written by hand: a flat
layout, the rules' own algorithm, every guard the language keeps, the flow, nothing a playout does not need
(issue 34: for a target the engine misses, a ceiling measured below the target shows the target is out of reach
of any generator over these rules and this language).  First each ceiling is checked to play the very games the
engine's lean path plays (same seeds, same random numbers: the same decisions, final board and result); then
the ceiling, the hand-written reference, the engine's lean path and its public API are measured in interleaved
rounds (the median of each), and the ratios printed with the targets.

    benchmarks/ceilings.py [--seconds S] [--rounds R] [--check N] [--games G ...] [--json]
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import targets  # noqa: E402
from benchmarks.timing import playouts_per_second  # noqa: E402
from orrery.interpreter.cli.bench import bench_lean, bench_playouts  # noqa: E402
from orrery.interpreter.core.values import Cell  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402
from orrery.interpreter.engine.lean import lean_state  # noqa: E402

# (breakthrough and reversi have none yet: their lean paths are within 4 % of their targets or above them)
CEILINGS = {"connect-four": "ceiling_connect_four", "tic-tac-toe": "ceiling_tic_tac_toe"}


def engine_game(game: Any, seed: int, rng_seed: int) -> tuple[Any, int, list[int]]:
    """The engine's lean path on one seed: (winner or None, decisions, each board cell's top owner or -1)."""
    lean = lean_state(game, seed)
    decisions = lean.playout(random.Random(rng_seed))
    s = lean.state() if hasattr(lean, "state") and callable(lean.state) else lean.pos.s
    z = s.rules.zones["board"].decl
    board = []
    for y in range(z.height):
        for x in range(z.width):
            ids = s.places.get(Cell("board", None, (x, y)))
            board.append(int(s.attrs[ids[-1]]["owner"]) if ids else -1)
    winners = s.outcome.winners
    return (winners[0] if len(winners) == 1 else None), decisions, board


def check(name: str, module: Any, games: int) -> int:
    """Play `games` seeds on the ceiling and the engine's lean path; the number of decisions compared."""
    game = load_game(name)
    total = 0
    for seed in range(games):
        mine = module.play(random.Random(seed * 7 + 1))
        theirs = engine_game(game, seed, seed * 7 + 1)
        if mine != theirs:
            raise SystemExit(f"{name}: seed {seed}: the ceiling played another game than the engine\n"
                             f"  ceiling: {mine}\n  engine:  {theirs}")
        total += mine[1]
    return total


def measure(name: str, module: Any, seconds: float, rounds: int) -> dict[str, float]:
    """Median playouts/s of the ceiling, the reference, the lean path and the API, rounds interleaved."""
    ref = importlib.import_module(f"benchmarks.{targets.REFERENCES[name]}")
    game = load_game(name)
    runs = {"ceiling": lambda r: playouts_per_second(module.random_playout, seconds, 1 + r),
            "reference": lambda r: ref.bench(seconds, 1 + r),
            "lean": lambda r: bench_lean(game, seconds, seed=1 + 1000 * r)["playouts_per_s"],
            "api": lambda r: bench_playouts(game, seconds, seed=1 + 1000 * r)["playouts_per_s"]}
    seen: dict[str, list[float]] = {k: [] for k in runs}
    for r in range(rounds):
        for k, run in runs.items():
            seen[k].append(run(r))
    return {k: round(statistics.median(v), 1) for k, v in seen.items()}


def main(argv: list[str]) -> int:
    """Check the ceilings, measure them, print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--check", type=int, default=50, help="seeds played on both before measuring")
    ap.add_argument("--games", nargs="+", default=list(CEILINGS))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = {}
    for name in args.games:
        module = importlib.import_module(f"benchmarks.{CEILINGS[name]}")
        checked = check(name, module, args.check)
        rates = measure(name, module, args.seconds, args.rounds)
        goal = targets.VS_REFERENCE[name]
        out[name] = {"checked_games": args.check, "checked_decisions": checked, "playouts_per_s": rates,
                     "ceiling_vs_reference": round(rates["ceiling"] / rates["reference"], 4),
                     "lean_vs_reference": round(rates["lean"] / rates["reference"], 4),
                     "api_vs_reference": round(rates["api"] / rates["reference"], 4),
                     "lean_vs_ceiling": round(rates["lean"] / rates["ceiling"], 4), "target": goal}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{'game':14} {'ceiling':>9} {'hand-written':>13} {'lean':>8} {'API':>8} {'ceiling x hand':>15} "
          f"{'target':>7} {'lean x hand':>12} {'API x hand':>11} {'lean x ceiling':>15}")
    for name, o in out.items():
        r = o["playouts_per_s"]
        print(f"{name:14} {r['ceiling']:>9,.0f} {r['reference']:>13,.0f} {r['lean']:>8,.1f} {r['api']:>8,.1f} "
              f"{o['ceiling_vs_reference']:>15.4f} {o['target']:>7} {o['lean_vs_reference']:>12.4f} "
              f"{o['api_vs_reference']:>11.4f} {o['lean_vs_ceiling']:>15.4f}")
    print("each ceiling played the engine's games first: " + ", ".join(
        f"{n} {o['checked_games']} games, {o['checked_decisions']} decisions" for n, o in out.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
