"""Sizes written as constants: a grid's width and height, a zone's capacity, how many pieces of a kind.

These numbers shape the components before any rule runs, so they are read from the `constants:` block when
the spec loads: a constant written as a YAML number (an expression is worked out only once zones exist).  A
variant that changes the constant changes the board, so the board and the rules that name the constant agree.
The model is updated in place: everything downstream reads plain numbers.
"""

from __future__ import annotations

from typing import Any, Callable

from .errors import Finding, Span
from .models import Spec
from .records import did_you_mean

# field -> (smallest, largest) whole number it takes
_RANGES = {"width": (1, 1000), "height": (1, 1000), "capacity": (0, None), "count": (0, 100_000)}


def resolve_sizes(m: Spec, span: Callable[[tuple], Span]) -> list[Finding]:
    """Replace every size that names a constant by the constant's number; a located error for each that
    cannot be (no such constant, not a whole number, out of range)."""
    out: list[Finding] = []

    def resolve(value: Any, path: tuple) -> Any:
        if not isinstance(value, str):
            return value
        if path[-1] == "capacity" and not _whole(m.constants.get(value)):
            return value  # an expression, worked out at each move into the zone (dsl.md 2.10.4)
        number = _number(m, value, path[-1], span(path), out)
        return number if number is not None else _RANGES[path[-1]][0]

    for zname, z in m.components.zones.items():
        for f in ("width", "height", "capacity"):
            setattr(z, f, resolve(getattr(z, f), ("components", "zones", zname, f)))
    for kname, kind in m.components.pieces.items():
        kind.count = resolve(kind.count, ("components", "pieces", kname, "count"))
        for i, inst in enumerate(kind.instances or []):
            if "count" in inst:
                inst["count"] = resolve(inst["count"], ("components", "pieces", kname, "instances", i, "count"))
    return out


def _number(m: Spec, name: str, what: str, where: Span, out: list[Finding]) -> int | None:
    if name not in m.constants:
        plain = [k for k, v in m.constants.items() if _whole(v)]
        out.append(Finding(where, f"{what} '{name}' is neither a number nor a constant" + did_you_mean(name, plain),
                           "error", "declare it under constants:, e.g. `constants: {" + name + ": 8}`"))
        return None
    value = m.constants[name]
    if not _whole(value):
        out.append(Finding(where, f"{what} names the constant '{name}', which is not a whole number written as "
                                  f"a YAML number (it is {value!r})",
                           "error", "a size is read before any rule runs: write the constant as a number"))
        return None
    lo, hi = _RANGES[what]
    if value < lo or hi is not None and value > hi:
        bounds = f"{lo} to {hi}" if hi is not None else f"{lo} or more"
        out.append(Finding(where, f"{what} names the constant '{name}', whose value {value} is not {bounds}"))
        return None
    return value


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
