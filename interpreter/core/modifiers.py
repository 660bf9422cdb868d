"""Declared quantities and the modifiers that change them (docs/dsl.md 2.10.3), as the runtime holds them.

A quantity is a named number with parameters (`deploy_cost(p, spot)`); a modifier changes it while its
`when` holds (`set`, `add` or `scale`).  `live_modifiers` is the one place that says which modifiers are in
force at a read: today the spec's own `modifiers:`, in declaration order.  Abilities carried by pieces
(issue 30, item 8) add theirs there, each with the names it binds (`self`, `owner`), so that reading a
quantity (reference/quantities.py) never needs to know where a modifier comes from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from orrery.rulespec import ast as A
from orrery.rulespec.errors import Span


@dataclass(frozen=True)
class QuantityInfo:
    """A quantity: its parameters, base, rounding, bounds and the order of its layers."""

    name: str
    params: tuple[str, ...]
    base: A.Expr
    round: str
    min: A.Expr | None
    max: A.Expr | None
    layers: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class ModifierInfo:
    """One modifier of a quantity: `kind` is set, add or scale; `value` an expression (set, add) or a Fraction."""

    name: str
    quantity: str
    when: A.Expr | None
    kind: str
    value: Any
    span: Span
    names: dict[str, Any] = field(default_factory=dict)  # what its expressions see besides the parameters


def quantities_of(spec: Any) -> tuple[dict[str, QuantityInfo], dict[str, tuple[ModifierInfo, ...]]]:
    """The spec's quantities by name, and its own modifiers per quantity in declaration order."""
    m = spec.model
    quantities = {
        n: QuantityInfo(n, tuple(q.params), spec.expr("quantities", n, "base"), q.round,
                        spec.expr("quantities", n, "min"), spec.expr("quantities", n, "max"), tuple(q.layers),
                        spec.span("quantities", n))
        for n, q in m.quantities.items()}
    mods: dict[str, list[ModifierInfo]] = {}
    for n, d in m.modifiers.items():
        kind = "set" if d.set is not None else "add" if d.add is not None else "scale"
        value = Fraction(d.scale.replace(" ", "")) if kind == "scale" else spec.expr("modifiers", n, kind)
        mods.setdefault(d.modify, []).append(
            ModifierInfo(n, d.modify, spec.expr("modifiers", n, "when"), kind, value, spec.span("modifiers", n)))
    return quantities, {q: tuple(lst) for q, lst in mods.items()}


def live_modifiers(it: Any, quantity: str) -> tuple[ModifierInfo, ...]:
    """The modifiers of `quantity` in force now, in the order they are collected (the last `set` wins): the
    spec's own, in declaration order.  Their `when` is tested by the reader, not here."""
    return it.r.modifiers_of.get(quantity, ())


__all__ = ["ModifierInfo", "QuantityInfo", "live_modifiers", "quantities_of"]
