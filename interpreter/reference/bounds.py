"""Bounds written as expressions: a track's `min`/`max`, a zone's `capacity` (docs/dsl.md 2.3.3).

A bound given as a number is that number.  One given as rule text (`max: p.time_limit`) is evaluated each
time it is needed: at each assignment of the track (for its owner `p`, on a per-player track), at each move,
creation or draw into the zone (for its owner `p`, on a per-player zone), and when a cost is checked against
the track's `min`.  Nothing watches a bound: a value over a bound that has moved stays as it is until the
next assignment, which clamps it; pieces over a capacity that has shrunk stay, and nothing more may come in.
"""

from __future__ import annotations

from typing import Any

from ..core.decisions import RuleError

Interp = Any  # the evaluator's Interp (it imports this module's importers)


def bound_value(it: "Interp", path: tuple, who: Any) -> int:
    """The value of the bound written as rule text at `path`, for the owner `who` (None: a global one)."""
    expr = it.r.spec.expr(*path)
    v = it.ev(expr, {} if who is None else {"p": who})
    if v.__class__ is bool or not isinstance(v, int):
        raise RuleError(f"{'.'.join(str(k) for k in path[1:])} must be a number, got {it.describe(v)}", expr.span)
    return int(v)


def track_bounds(it: "Interp", name: str, track: Any, who: Any) -> tuple[int | None, int | None]:
    """A track's (min, max) now, for its owner `who` (a number stays a number)."""
    lo, hi = track.min, track.max
    if lo is not None and lo.__class__ is not int:
        lo = bound_value(it, ("components", "tracks", name, "min"), who)
    if hi is not None and hi.__class__ is not int:
        hi = bound_value(it, ("components", "tracks", name, "max"), who)
    return lo, hi


__all__ = ["bound_value", "track_bounds"]
