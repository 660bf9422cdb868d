"""Random playouts of tests/specs/kin-grid.yaml (a made-up game whose placements a `require` may refuse: both
paths look ahead) on the flat flow and on the general engine's lean path, interleaved in one process, CPU time
(issue 34, helper flatlook; after benchmarks/flat_cascade_rate.py).

    nice -n 5 .venv/bin/python benchmarks/flat_lookahead_rate.py [ROUNDS] [GAMES]

Each round plays GAMES random games (seeds 0..GAMES-1, answers from random.Random(seed)) on each path; prints
per path the median games per CPU second over the rounds, with the lowest and highest round (both paths play
the same games: tests/test_flat_lookahead.py checks it).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.timing import general_lean_round  # noqa: E402
from orrery.interpreter.engine.flat import FlatGame  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402
from orrery.interpreter.engine.lean import FlatLean, lean_state  # noqa: E402

SPEC = Path(__file__).resolve().parent.parent / "tests" / "specs" / "kin-grid.yaml"


def flat_round(game, games: int) -> float:
    assert FlatGame.of(game).mod.look
    t = time.process_time()
    for seed in range(games):
        lean = lean_state(game, seed)
        assert isinstance(lean, FlatLean)
        lean.playout(random.Random(seed))
        assert lean.general is None
    return time.process_time() - t


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    game = load_game(SPEC)
    flat_round(game, 2), general_lean_round(game, 2)  # (warm: modules made and linked)
    rates = {"flat": [], "general": []}
    for _ in range(rounds):
        rates["flat"].append(games / flat_round(game, games))
        rates["general"].append(games / general_lean_round(game, games))
    for name, r in rates.items():
        print(f"{name:8s} {statistics.median(r):9.1f} games/s  (lowest {min(r):.1f}, highest {max(r):.1f})")
    ratios = [f / g for f, g in zip(rates["flat"], rates["general"])]
    print(f"flat / general per round: median {statistics.median(ratios):.1f} ({min(ratios):.1f}-{max(ratios):.1f})")


if __name__ == "__main__":
    main()
