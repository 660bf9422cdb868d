"""`for x in xs [where c] order by KEY [desc] {..}` written out for the compiled path (codegen.visit_For).

As the reference (reference/effects.for_items): the items are filtered first, then each item's key is
evaluated with the loop's name bound to it, in the domain's order, and the items sorted by their keys with
Python's stable sort (ties keep the domain's order; `desc` sorts with reverse=True, which keeps ties in order
too); the name is left at the last item looked at.  Keys that cannot be compared fail there as here
(effects.sort_keyed, a located error).
A `for ... chosen by` asks a player: the resumable engine's steps play it (compiler/effectgen.py).
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A

from ..reference.effects import sort_keyed


def bind_each(gen: Any, indent: int, items: str, key: str, var: str, v: str) -> set[str]:
    """Emit `for v in items:` binding the loop's name in env (certain inside: codegen's `bound`); the names bound
    before, for the caller to restore once it has written the loop's one line (a filter's, a sort key's)."""
    gen.emit(indent, f"for {v} in {items}:")
    gen.emit(indent + 1, f"env[{key}] = {v}")
    before = set(gen.bound)
    gen.bound.add(var)
    return before


def ordered_items(gen: Any, node: A.For, items: str, key: str, indent: int) -> str:
    """Emit the keyed sort of `items` (a generated list's name) by the loop's `order by`; the sorted list's
    name."""
    keyed, v, t, out = gen.fresh("keyed"), gen.fresh("v"), gen.fresh("t"), gen.fresh("items")
    gen.emit(indent, f"{keyed} = []")
    before = bind_each(gen, indent, items, key, node.var, v)
    gen.emit(indent + 1, f"{keyed}.append(({gen.expr(node.order_key)}, {v}))", node.order_key)
    gen.bound = before
    gen.emit(indent, f"{gen.const(sort_keyed, hashable=False)}({keyed}, {node.descending}, "
                     f"{gen.span(node.order_key)})")
    gen.emit(indent, f"{out} = [{t}[1] for {t} in {keyed}]")
    return out


__all__ = ["bind_each", "ordered_items"]
