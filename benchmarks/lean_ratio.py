#!/usr/bin/env python3
"""Lean playouts ÷ the hand-written reference in CPU time, rounds interleaved (issue 34's lean targets).

    benchmarks/lean_ratio.py [SECONDS] [ROUNDS] [GAME ...]

Each round runs, for about SECONDS of this process's CPU time each, random playouts through the lean path
(`lean_state(game, seed).playout(rng)`, as `orrery bench`'s lean column) and the game's hand-written
reference (`benchmarks/ref_*.random_playout`), one after the other, and prints their ratio; the last line
is the median ratio against the target (benchmarks/targets.py).  CPU time, because the machine is shared:
a busy spell slows both runs of a round alike, and a process that waits is not charged.
"""

from __future__ import annotations

import importlib
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import targets  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402
from orrery.interpreter.engine.lean import lean_state  # noqa: E402


def per_cpu_second(play: object, seconds: float) -> float:
    """Calls of `play(i)` per CPU second over about `seconds` of CPU time."""
    n, start = 0, time.process_time()
    while True:
        play(n)  # type: ignore[operator]
        n += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return n / spent


def rounds_of(name: str, seconds: float, rounds: int) -> list[float]:
    """The lean ÷ hand-written ratio of each round."""
    game = load_game(name)
    ref = importlib.import_module(f"benchmarks.{targets.REFERENCES[name]}")
    out = []
    for r in range(rounds):
        rng = random.Random(1000 + r)
        lean = per_cpu_second(lambda i: lean_state(game, i).playout(rng), seconds)
        hand_rng = random.Random(2000 + r)
        hand = per_cpu_second(lambda i: ref.random_playout(hand_rng), seconds)
        out.append(lean / hand)
        print(f"{name} round {r}: lean {lean:,.0f}/CPU s, hand-written {hand:,.0f}/CPU s, ratio {lean / hand:.4f}",
              flush=True)
    return out


def main(argv: list[str]) -> int:
    """Print each round and each game's median ratio."""
    seconds = float(argv[0]) if argv else 1.0
    rounds = int(argv[1]) if len(argv) > 1 else 5
    for name in argv[2:] or list(targets.REFERENCES):
        ratios = rounds_of(name, seconds, rounds)
        goal = targets.VS_REFERENCE[name]
        med = statistics.median(ratios)
        print(f"# {name}: median lean / hand-written {med:.4f} (min {min(ratios):.4f}, max {max(ratios):.4f}); "
              f"target {goal} ({(med / goal - 1) * 100:+.1f} %)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
