"""Shared timing loop of the hand-written references (and of benchmarks/run)."""

from __future__ import annotations

import random
import time
from typing import Callable


def playouts_per_second(random_playout: Callable[[random.Random], int], seconds: float = 3.0,
                        seed: int = 1) -> float:
    """Random playouts per second over about `seconds`."""
    rng = random.Random(seed)
    n = 0
    start = time.perf_counter()
    while True:
        random_playout(rng)
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed
