"""Shared timing loop of the hand-written references (and of benchmarks/run)."""

from __future__ import annotations

import random
import time
from typing import Any, Callable


def playouts_per_second(random_playout: Callable[[random.Random], int], seconds: float = 3.0,
                        seed: int = 1) -> float:
    """Random playouts per CPU second (time.process_time) over about `seconds` of CPU time."""
    rng = random.Random(seed)
    n = 0
    start = time.process_time()
    while True:
        random_playout(rng)
        n += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return n / elapsed


def general_lean_round(game: Any, games: int) -> float:
    """CPU seconds of `games` seeded random playouts on the general engine's lean path (seed i: game i, its
    own random.Random(i)), the baseline the flat path's made-up games are measured against."""
    from orrery.interpreter.engine.lean import LeanState

    t = time.process_time()
    for seed in range(games):
        lean = LeanState.of(game.start_state(game.num_players(), seed), copy=False)
        lean.playout(random.Random(seed))
    return time.process_time() - t
