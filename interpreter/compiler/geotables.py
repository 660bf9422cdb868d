"""Board geometry as per-rules lookup tables on the fast path: `neighbor`, `adjacent`, `cell` and `direction`.

The board never changes shape during a game, so the code generator answers these built-ins from plain
dictionaries kept on the rules: one per (distance, direction) for `neighbor`, one for `adjacent`, one per
zone for `cell(zone, label)` and one for `cell(zone, x, y)`, one per cell for `direction`.  A direction, distance or zone written as a
constant picks its table at compile time; a variable one costs one more lookup.  Tables are filled
lazily with the built-in's own result the first time a key is met (a miss calls the built-in through
`fastlib.call_builtin`, so errors keep the interpreter's messages and spans) and only for keys whose
result the built-in's `geometry` cache would keep too (`cell(zone, x, y)` also on unbounded grids, whose
positions are all cells: see `by_zone_xy`).  None of these built-ins charges loop ticks, so
skipping the call changes no counter.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from orrery.rulespec import ast as A

from ..core.values import Cell, ZoneRef
from ..reference.builtins import _fixed_geometry
from .fastlib import call_builtin
from .modcache import remade

_MISS = object()
_LIMIT = 200_000  # entries per table: a bound like the built-ins' own cache (unbounded zones make new cells)
_LOCAL = re.compile(r"[av][0-9]+")  # codegen's names of parameters and comprehension variables
_CONST = re.compile(r"K([0-9]+)")


def tables(rules: Any) -> dict[tuple, dict]:
    """The rules' geometry tables, made on first use: (built-in, fixed part) -> table."""
    return rules.__dict__.setdefault("_geometry_tables", {})


@remade
def by_cell(fn: Any, name: str, table: dict, rest: tuple) -> Callable[..., Any]:
    """`name(c, *rest)` answered from table (cell -> result): neighbor with a fixed direction, adjacent."""

    def lookup(it: Any, span: Any, c: Any) -> Any:
        if c.__class__ is Cell:
            hit = table.get(c, _MISS)
            if hit is not _MISS:
                return hit
        r = call_builtin(it, fn, name, span, (c, *rest), {})
        if c.__class__ is Cell and len(table) < _LIMIT:  # a cell's neighbours never change (builtins.geometry)
            table[c] = r
        return r

    lookup.__name__ = name
    return lookup


@remade
def by_cell_and(fn: Any, name: str, tables_: dict, rest: tuple, kind: type) -> Callable[..., Any]:
    """`name(c, k, *rest)` from tables_ (k -> cell -> result), k of class `kind`: neighbor along a variable
    direction, direction between two cells."""

    def lookup(it: Any, span: Any, c: Any, k: Any) -> Any:
        keyed = c.__class__ is Cell and k.__class__ is kind
        if keyed:
            table = tables_.get(k)
            if table is not None:
                hit = table.get(c, _MISS)
                if hit is not _MISS:
                    return hit
        r = call_builtin(it, fn, name, span, (c, k, *rest), {})
        if keyed and (k in tables_ or len(tables_) < _LIMIT):  # (direction's keys are cells: bounded too)
            table = tables_.setdefault(k, {})
            if len(table) < _LIMIT:
                table[c] = r
        return r

    lookup.__name__ = name
    return lookup


@remade
def by_label(fn: Any, table: dict, zone: ZoneRef) -> Callable[..., Any]:
    """`cell(zone, label)` of a zone known at compile time, from table (label -> cell or none)."""

    def lookup(it: Any, span: Any, a: Any) -> Any:
        if a.__class__ is str:
            hit = table.get(a, _MISS)
            if hit is not _MISS:
                return hit
        r = call_builtin(it, fn, "cell", span, (zone, a), {})
        if a.__class__ is str and len(table) < _LIMIT and _fixed_geometry(it, (zone,)):
            table[a] = r
        return r

    lookup.__name__ = "cell"
    return lookup


@remade
def by_zone_label(fn: Any, tables_: dict) -> Callable[..., Any]:
    """`cell(zone, label)` of any zone, from tables_ (zone -> label -> cell or none)."""

    def lookup(it: Any, span: Any, z: Any, a: Any) -> Any:
        keyed = z.__class__ is ZoneRef and a.__class__ is str
        if keyed:
            table = tables_.get(z)
            if table is not None:
                hit = table.get(a, _MISS)
                if hit is not _MISS:
                    return hit
        r = call_builtin(it, fn, "cell", span, (z, a), {})
        if keyed and _fixed_geometry(it, (z,)):  # an unbounded zone's cells are not fixed (builtins.geometry)
            table = tables_.setdefault(z, {})
            if len(table) < _LIMIT:
                table[a] = r
        return r

    lookup.__name__ = "cell"
    return lookup


@remade
def by_zone_xy(fn: Any, tables_: dict) -> Callable[..., Any]:
    """`cell(zone, x, y)` of a grid from tables_ (zone -> (x, y) -> cell or none), for whole numbers x and y.

    Kept for unbounded grids too: the built-in's answer for a position never changes (every position of
    such a grid is a cell, and cells are interned), only which of them hold pieces does."""

    def lookup(it: Any, span: Any, z: Any, x: Any, y: Any) -> Any:
        keyed = z.__class__ is ZoneRef and x.__class__ is int and y.__class__ is int
        if keyed:
            table = tables_.get(z)
            if table is not None:
                hit = table.get((x, y), _MISS)
                if hit is not _MISS:
                    return hit
        r = call_builtin(it, fn, "cell", span, (z, x, y), {})
        if keyed:
            table = tables_.setdefault(z, {})
            if len(table) < _LIMIT:
                table[(x, y)] = r
        return r

    lookup.__name__ = "cell"
    return lookup


def call_source(gen: Any, node: A.Call, fn: Any) -> str | None:
    """Source answering a geometry built-in's call from a table, or None (compiled as before).

    `gen` is the CodeGen: its `expr`, `const` and `span` write the arguments and constants."""
    name, args = node.func, node.args
    if node.kwargs:
        return None
    store = tables(gen.rules)
    span = gen.span(node)
    if name == "neighbor" and len(args) in (2, 3):
        n = args[2].value if len(args) == 3 and isinstance(args[2], A.Literal) else 1 if len(args) == 2 else None
        if type(n) is not int:
            return None  # a distance worked out at run time (or not a number): the generic helper
        rest = (n,) if len(args) == 3 else ()
        per_dir = store.setdefault(("neighbor", n), {})
        d = args[1]
        if isinstance(d, A.Literal) and type(d.value) is str:
            table = per_dir.setdefault(d.value, {})
            return _one_key(gen, by_cell(fn, name, table, (d.value, *rest)), table, gen.expr(args[0]), "CELL", span)
        return _two_keys(gen, fn, name, per_dir, gen.expr(args[0]), gen.expr(d), str, rest, span)
    if name == "adjacent" and len(args) == 1:
        table = store.setdefault(("adjacent",), {})
        return _one_key(gen, by_cell(fn, name, table, ()), table, gen.expr(args[0]), "CELL", span)
    if name == "direction" and len(args) == 2:
        per_to = store.setdefault(("direction",), {})  # b -> a -> direction from a to b
        return _two_keys(gen, fn, name, per_to, gen.expr(args[0]), gen.expr(args[1]), Cell, (), span)
    if name == "cell" and len(args) == 2:
        per_zone = store.setdefault(("cell",), {})
        z, a = gen.expr(args[0]), gen.expr(args[1])
        m = _CONST.fullmatch(z)
        zone = gen.consts[int(m.group(1))] if m else None
        if zone.__class__ is ZoneRef:  # a zone named in the spec: its table is chosen here
            table = per_zone.setdefault(zone, {})
            return _one_key(gen, by_label(fn, table, zone), table, a, "STR", span)
        return f"{gen.const(by_zone_label(fn, per_zone), hashable=False)}(it, {span}, {z}, {a})"
    if name == "cell" and len(args) == 3:
        per_zone = store.setdefault(("cell", "xy"), {})
        helper = gen.const(by_zone_xy(fn, per_zone), hashable=False)
        return f"{helper}(it, {span}, {gen.expr(args[0])}, {gen.expr(args[1])}, {gen.expr(args[2])})"
    return None


def _one_key(gen: Any, helper: Any, table: dict, x: str, cls: str, span: str) -> str:
    """`helper(x)`, or the table read inline when x can be held in a Python local."""
    h = gen.const(helper, hashable=False)
    t = gen.const(table, hashable=False)
    if _LOCAL.fullmatch(x) or _CONST.fullmatch(x):
        # a Python local or a constant: read twice for free, so the table is consulted inline (the helper fills a miss)
        return f"({t}[{x}] if {x}.__class__ is {cls} and {x} in {t} else {h}(it, {span}, {x}))"
    if gen.no_walrus:
        return f"{h}(it, {span}, {x})"  # (no assignment expression here: evaluated inside the helper's lookup)
    v = gen.fresh("a")  # any other expression: evaluated once into a local, then the same
    return f"({t}[{v}] if ({v} := {x}).__class__ is {cls} and {v} in {t} else {h}(it, {span}, {v}))"


def _two_keys(gen: Any, fn: Any, name: str, tables_: dict, c: str, k: str, kind: type, rest: tuple,
              span: str) -> str:
    """`name(c, k, *rest)` from tables_ (k -> c -> result): the table picked here when k is a constant of
    class `kind` (a direction written in the spec, or passed as a constant to a function written into its
    caller), else read inline when both are Python locals, else through the helper."""
    m = _CONST.fullmatch(k)
    if m is not None:
        kv = gen.consts[int(m.group(1))]
        if kv.__class__ is kind and (kv in tables_ or len(tables_) < _LIMIT):
            table = tables_.setdefault(kv, {})  # the table by_cell_and fills for this key too
            return _one_key(gen, by_cell(fn, name, table, (kv, *rest)), table, c, "CELL", span)
    h = gen.const(by_cell_and(fn, name, tables_, rest, kind), hashable=False)
    call = f"{h}(it, {span}, {c}, {k})"
    if not (_LOCAL.fullmatch(c) and _LOCAL.fullmatch(k)):
        return call
    t = gen.const(tables_, hashable=False)
    k_cls = "STR" if kind is str else "CELL"
    return (f"({t}[{k}][{c}] if {k}.__class__ is {k_cls} and {c}.__class__ is CELL and {k} in {t} "
            f"and {c} in {t}[{k}] else {call})")
