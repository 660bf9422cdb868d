"""Declared quantities and the modifiers that change them (docs/dsl.md 2.10.3), as the runtime holds them.

A quantity is a named number with parameters (`deploy_cost(p, spot)`); a modifier changes it while its
`when` holds (`set`, `add` or `scale`).  `core/abilities.live_modifiers` is the one place that says which
modifiers are in force at a read: the spec's own `modifiers:`, in declaration order, then those of live
pieces' `modify:` abilities, each with the names it binds (`self`, `owner`), so that reading a quantity
(reference/quantities.py) never needs to know where a modifier comes from.
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


__all__ = ["ModifierInfo", "QuantityInfo", "quantities_of"]
