"""benchmarks/ceiling_burbuja_heuristic.py: the hand-written heuristic gives the engine's value on every position a
search judges (so the ceiling it measures is the cost of the same work), before and after a coin is used."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # `benchmarks/` sits beside the engine, outside the installed package
    sys.path.insert(0, str(REPO))

from benchmarks import ceiling_burbuja_heuristic as ceiling  # noqa: E402


def test_the_hand_written_heuristic_is_the_engines_on_every_judged_position():
    seen, _ = ceiling.record(4)
    assert len(seen) >= 10
    assert {moved is None for _, moved, _ in seen} == {True, False}  # (the start, and after a coin is used)
    for cs, moved, value in seen:
        assert min(ceiling.square_progress(cs, moved), 48) == value
