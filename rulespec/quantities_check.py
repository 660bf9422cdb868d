"""Static checks of `quantities:` and `modifiers:` (docs/dsl.md 2.10.3) and of bounds written as expressions
(2.3.3), run by the checker with its own expression checks (`c` is the checker: its `_expr`, `error`, `key`
and call graph).

A quantity's base and bounds, and each of its modifiers' `when`, `set` and `add`, see the quantity's
parameters and nothing else of the caller (like a function).  A modifier names a declared quantity; a
quantity read in its own computation (its base, bounds or modifiers, directly or through functions and
other quantities) would never end.
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .callgraph import cycle_from
from .suggest import did_you_mean
from .typing_rules import NUMERIC, Scope


def check_quantities(c: Any) -> None:
    """Every problem of the spec's quantities and modifiers, reported through the checker `c`."""
    m = c.m
    for name, q in m.quantities.items():
        where = c.key("quantities", name)
        if c._usable_name(name, where, f"quantity '{name}'") and name in m.functions:
            c.error(where, f"quantity '{name}' has the name of the function '{name}'; both are called by name")
        for i, p in enumerate(q.params):
            sp = c.span("quantities", name, "params", i)
            if c._usable_name(p, sp, f"parameter '{p}'", local=True):
                c._no_shadow(p, sp)
        scope = Scope(None, {p: "any" for p in q.params})
        for field in ("base", "min", "max"):
            c._want(c._expr(("quantities", name, field), scope), NUMERIC, ("quantities", name, field),
                    f"a quantity's {field} must be a number")
    for name, d in m.modifiers.items():
        q = m.quantities.get(d.modify)
        if q is None:
            c.error(c.span("modifiers", name, "modify"), f"unknown quantity '{d.modify}'"
                    + did_you_mean(d.modify, m.quantities), None if m.quantities else "declare it under `quantities:`")
            continue
        scope = Scope(None, {p: "any" for p in q.params})
        c._expr(("modifiers", name, "when"), scope, cond=True)
        for field in ("set", "add"):
            c._want(c._expr(("modifiers", name, field), scope), NUMERIC, ("modifiers", name, field),
                    f"a modifier's `{field}` must be a number")
    if m.quantities:
        _self_reads(c)


def _reads(c: Any) -> dict[str, set[str]]:
    """Per quantity and per function, the quantities and functions its expressions call."""
    spec, m = c.spec, c.m
    exprs: dict[str, list[A.Expr]] = {n: [e for f in ("base", "min", "max")
                                          if (e := spec.expr("quantities", n, f)) is not None] for n in m.quantities}
    for n, d in m.modifiers.items():
        exprs.setdefault(d.modify, []).extend(e for f in ("when", "set", "add")
                                              if (e := spec.expr("modifiers", n, f)) is not None)
    for n in m.functions:
        body = spec.expr("functions", n, "expr")
        exprs.setdefault(n, []).extend([body] if body is not None else [])
    known = set(m.quantities) | set(m.functions)
    return {n: {x.func for e in es for x in e.walk() if isinstance(x, A.Call) and x.func in known}
            for n, es in exprs.items()}


def _self_reads(c: Any) -> None:
    """A quantity whose computation reads itself, reported once at the quantity, with the path."""
    reads = _reads(c)
    for start in c.m.quantities:
        path = cycle_from(start, reads)
        if path is not None:
            c.error(c.key("quantities", start), f"quantity '{start}' is read in its own computation "
                                                 f"({' -> '.join(path)}): it would never end",
                    "a modifier's `when`, `set` and `add` may not read the quantity they change")


def check_bounds(c: Any) -> None:
    """Tracks' `min`/`max` and zones' `capacity` written as expressions: numbers, computed without drawing, with
    `p` (the owner) on per-player ones."""
    comp = c.m.components
    places = [(("components", "tracks", n), t, ("min", "max")) for n, t in comp.tracks.items()]
    places += [(("components", "zones", n), z, ("capacity",)) for n, z in comp.zones.items()]
    for path, decl, fields in places:
        scope = Scope(None, {"p": "player"} if decl.per_player else {})
        for field in fields:
            if not isinstance(getattr(decl, field), str):
                continue
            c._want(c._expr(path + (field,), scope), NUMERIC, path + (field,), f"`{field}` must be a number")
            node = c.spec.expr(*path, field)
            for call in (n for n in node.walk() if isinstance(n, A.Call)) if node is not None else ():
                if (drawn := c.calls.draws(call.func)) is not None:
                    c.error(call.span, f"a bound may not draw random numbers: {drawn}() (it is computed at every "
                                       f"assignment and move)")


__all__ = ["check_bounds", "check_quantities"]
