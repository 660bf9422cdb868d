"""Reading a quantity: its base, then the live modifiers whose `when` holds, in a fixed order (dsl.md 2.10.3).

The layers apply in the quantity's order (default: set, add, scale): every `set` collected replaces the
value (the last one wins), the sum of every `add` is added, the product of every `scale` multiplies it, all
as exact fractions; then the value is rounded **once** (`round:`), then held within `min` and `max`.  So 7
with "half" and "-1" is (7 - 1) x 1/2 = 3 whichever modifier comes first.  Both engines read a quantity
with this one function (the compiled path calls it as `QTY`; the expressions it evaluates are compiled).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ..core.decisions import RuleError, RunawayError
from ..core.abilities import live_modifiers
from ..core.modifiers import QuantityInfo

Interp = Any  # the evaluator's Interp (it imports this module)

_HALF = Fraction(1, 2)


def read_quantity(it: "Interp", name: str, span: Any, args: tuple, kwargs: tuple) -> int:
    """The value of quantity `name` for these arguments (positional, then (name, value) pairs)."""
    q: QuantityInfo = it.r.quantities[name]
    env = dict(zip(q.params, args))
    env.update(kwargs)
    missing = [p for p in q.params if p not in env]
    if missing or len(args) > len(q.params):
        raise RuleError(f"quantity '{name}' takes {', '.join(q.params) or 'no parameters'}", span)
    it.call_depth += 1
    if it.call_depth > it.limits.emit_depth:
        raise RunawayError(f"quantity '{name}' read nested more than {it.limits.emit_depth} deep "
                           f"(limit emit_depth); raise it with --limit emit_depth=N", span)
    try:
        return _value(it, q, env)
    finally:
        it.call_depth -= 1


def _value(it: "Interp", q: QuantityInfo, env: dict) -> int:
    base = _number(it, it.ev(q.base, env), q, "its base", q.base.span)
    sets: list[int] = []
    adds = 0
    scales: Any = 1  # (a Fraction once a scale modifier applies)
    for m in live_modifiers(it, q.name):
        menv = {**env, **m.names} if m.names else dict(env)
        if m.when is not None and not it.truth(m.when, menv):
            continue
        if m.kind == "scale":
            scales *= m.value
        elif m.kind == "add":
            adds += _number(it, it.ev(m.value, menv), q, f"modifier '{m.name}'", m.value.span)
        else:
            sets.append(_number(it, it.ev(m.value, menv), q, f"modifier '{m.name}'", m.value.span))
    value: Any = base  # an int until a scale other than 1 applies: most reads make no fraction
    for layer in q.layers:
        if layer == "set":
            if sets:
                value = sets[-1]
        elif layer == "add":
            value += adds
        elif scales != 1:
            value = value * scales
    if value.__class__ is int:
        n = value
    else:
        n = math.floor(value) if q.round == "down" else math.ceil(value) if q.round == "up" \
            else math.floor(value + _HALF)
    if q.min is not None:
        n = max(n, _number(it, it.ev(q.min, env), q, "its min", q.min.span))
    if q.max is not None:
        n = min(n, _number(it, it.ev(q.max, env), q, "its max", q.max.span))
    return n


def _number(it: "Interp", v: Any, q: QuantityInfo, what: str, span: Any) -> int:
    if v.__class__ is bool or not isinstance(v, int):
        raise RuleError(f"quantity '{q.name}': {what} must be a number, got {it.describe(v)}", span)
    return int(v)


__all__ = ["read_quantity"]
