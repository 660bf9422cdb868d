"""Shared timing loop of the hand-written references (and of benchmarks/run)."""

from __future__ import annotations

import random
import time
from typing import Callable


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
