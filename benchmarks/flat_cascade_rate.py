"""Random playouts of tests/specs/pop-grid.yaml (a made-up game whose pops cascade) on the flat flow and on
the general engine's lean path, interleaved in one process, CPU time (issue 34, helper flattrig).

    nice -n 5 .venv/bin/python benchmarks/flat_cascade_rate.py [ROUNDS] [GAMES]

Each round plays GAMES random games (seeds 0..GAMES-1, answers from random.Random(seed)) on each path; prints
per path the median games per CPU second over the rounds, with the lowest and highest round, and the firings
per game the flat games made (both paths play the same games: tests/test_flat_cascade.py checks it).
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

SPEC = Path(__file__).resolve().parent.parent / "tests" / "specs" / "pop-grid.yaml"


def flat_round(game, games: int) -> tuple[float, int]:
    fg = FlatGame.of(game)
    slot = fg.lay.var_slot["fired"]
    fired = 0
    t = time.process_time()
    for seed in range(games):
        lean = lean_state(game, seed)
        assert isinstance(lean, FlatLean)
        lean.playout(random.Random(seed))
        assert lean.general is None
        fired += len(lean.st.V[slot])
    return time.process_time() - t, fired


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    game = load_game(SPEC)
    flat_round(game, 2), general_lean_round(game, 2)  # (warm: modules made and linked)
    rates = {"flat": [], "general": []}
    fired = 0
    for _ in range(rounds):
        dt, fired = flat_round(game, games)
        rates["flat"].append(games / dt)
        rates["general"].append(games / general_lean_round(game, games))
    for name, r in rates.items():
        print(f"{name:8s} {statistics.median(r):9.1f} games/s  (lowest {min(r):.1f}, highest {max(r):.1f})")
    ratios = [f / g for f, g in zip(rates["flat"], rates["general"])]
    print(f"flat / general per round: median {statistics.median(ratios):.1f} ({min(ratios):.1f}-{max(ratios):.1f}); "
          f"firings per game {fired / games:.1f}")


if __name__ == "__main__":
    main()
