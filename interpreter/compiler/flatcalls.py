"""Built-in calls written over the flat layout (flatgen.py): geometry from tables, places read as lists.

Each writes what the built-in answers for arguments of these types; a call it does not write makes the spec
unsupported.  Where the built-in would fail (a none where a cell is needed, a table that lacks the key) the
flat code stops the flat game (engine/flat.py's BAIL) and the general engine says what is wrong.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A

from . import typepass as T
from .typepass import BOOL, BPIECE, CELL, INT, NEVER, PIECE, PLAYER, STR, ZONE


# built-ins whose cell argument is only read as the index of a list (a place, a geometry table): none fails there
_CELL_INDEXED = frozenset({"empty", "count", "size", "top", "neighbor", "adjacent", "direction", "zone_of"})


def _top_of(gen: Any, k: int, end: int) -> str:
    if gen.no_walrus:
        return f"TOPF(P[{k}])" if end == -1 else f"(P[{k}][0] if P[{k}] else None)"
    t = gen.fresh()
    return f"({t}[{end}] if ({t} := P[{k}]) else None)"


# built-ins of a pile written by its name (flatlayout.py: its place k), as they read the general state's list
_PILE_CALLS = {
    "empty": lambda gen, k: f"(not P[{k}])",
    "size": lambda gen, k: f"len(P[{k}])",
    "count": lambda gen, k: f"len(P[{k}])",
    "top": lambda gen, k: _top_of(gen, k, -1),
    "bottom": lambda gen, k: _top_of(gen, k, 0),
    "pieces": lambda gen, k: f"list(P[{k}])",  # (a copy: a later move changes the place's own list)
}


def builtin_call(gen: Any, node: A.Call) -> str:
    """The source of a built-in call (flatgen.FlatGen `gen`)."""
    f, args = node.func, node.args
    if node.kwargs:
        raise gen.no(f"{f}() with keyword arguments")
    types = [gen.typeof(a) for a in args]
    if f in ("any", "all") and len(args) == 1 and isinstance(args[0], A.Comprehension):
        return gen.x_Comprehension(args[0], lazy=f.upper())
    if f in _PILE_CALLS and len(args) == 1 and gen.is_zone(args[0]) and args[0].id in gen.lay.piles:
        return _PILE_CALLS[f](gen, gen.lay.piles[args[0].id])
    if f in ("cells", "pieces", "lines") and args and gen.is_zone(args[0]):
        return _zone_call(gen, node)
    if f == "cell" and len(args) == 2 and gen.is_zone(args[0]) and T.strip(types[1]) == STR:
        return _cell(gen, node)
    srcs = [gen.expr(a) for a in args]
    one = srcs[0] if srcs else ""
    s0 = T.strip(types[0]) if types else ""
    if types and T.optional(types[0]) and f not in ("text",):
        one = gen.ix(one) if f in _CELL_INDEXED and s0 == CELL else gen.nn(one)
    if f == "changed_at" and len(args) == 1 and s0 == CELL and gen.stamps:
        return f"st.ST[{one}]"  # (State.stamps: 0 for a place never changed; none stops the flat game)
    if f == "empty" and s0 == CELL:
        return f"(not P[{one}])"
    if f in ("count", "size") and s0 == CELL:
        return f"len(P[{one}])"
    if f in ("count", "len") and T.is_list(s0):
        return f"len({one})"
    if f == "len" and s0 == STR:
        return f"len({one})"
    if f == "top" and s0 == CELL:
        if gen.no_walrus:
            return f"TOPF(P[{one}])"
        t = gen.fresh()
        return f"({t}[-1] if ({t} := P[{one}]) else None)"
    if f == "zone_of" and len(args) == 1 and s0 in (CELL, PIECE, BPIECE):  # (a piece's by its place: LOC)
        return f"{gen.const(gen.lay.zone_refs)}[{one if s0 == CELL else f'LOC[{one}]'}]"
    if f == "zone_of" and len(args) == 1 and s0 == ZONE:
        return one
    if f == "neighbor" and s0 == CELL and len(args) in (2, 3):
        return _neighbor(gen, node, one, srcs, types)
    if f == "adjacent" and s0 == CELL and len(args) == 1:
        return f"{gen.const(gen.lay.adjacent())}[{one}]"
    if f == "direction" and s0 == CELL and len(args) == 2 and T.strip(types[1]) == CELL:
        b = srcs[1] if not T.optional(types[1]) else gen.nn(srcs[1])
        return f"{gen.const(gen.lay.direction())}[{one}].get({b})"
    if f == "next_player" and len(args) == 1 and s0 == PLAYER:
        return f"(({one} + 1) % st.n)"
    if f == "abs" and types == [INT]:
        return f"abs({one})"
    if f == "sum" and types == [T.list_of(INT)]:
        return f"NUM(sum({one}))"
    if f in ("min", "max") and len(args) == 2 and all(t == INT for t in types):
        return f"{f}({srcs[0]}, {srcs[1]})"
    if f == "sorted" and len(args) == 1 and T.is_list(s0) and T.elem(s0) in (INT, STR):
        return f"TICK(st, sorted({one}))"
    if f == "sorted" and len(args) == 1 and T.is_list(s0) and T.elem(s0) == CELL:
        return f"TICK(st, sorted({one}, key={gen.const(gen.lay.rank())}.__getitem__))"  # (as Cell's `<` orders)
    if f == "text" and len(args) == 1:
        shown = {STR: "{}", INT: "str({})", CELL: "CLABEL[{}]", PLAYER: "SEATS[{}]"}.get(types[0])
        if shown is None:
            raise gen.no(f"text() of {types[0]}")
        return f"TXT(st, {shown.format(srcs[0])})"
    raise gen.no(f"{f}() of {types}")


def _cell(gen: Any, node: A.Call) -> str:
    """`cell(zone, label)`: the zone's label table (a label off the board, none or no label at all stops the
    flat game: the general engine's answer).  `cell(zone, E + T)` with T a text known now is looked up by E in
    a table of the labels ending with T, the text never made, its ticks (the join's, T's own when T is made
    by text()) charged at once.  Either is never none."""
    labels = gen.lay.labels(node.args[0].id)
    label = node.args[1]
    if isinstance(label, A.Binary) and label.op == "+" and gen.typeof(label.left) == STR:
        suffix = _constant_text(gen, label.right)
        if suffix is not None:
            text, ticks = suffix
            n = len(text)
            table = {k[:-n] if n else k: v for k, v in labels.items() if k.endswith(text)}
            e = gen.expr(label.left)
            # the join charges len(E) + len(T): at most the longest prefix the table holds (a longer one misses:
            # KeyError, the flat game stops); text() of the constant its length
            gen.charge += max(map(len, table), default=0) + n + ticks
            src = f"{gen.const(table)}[{e}]"
            gen.nonnull.add(src)
            return src
    src = f"CELL({gen.const(labels)}, {gen.expr(label)})"
    gen.nonnull.add(src)
    return src


def _constant_text(gen: Any, node: A.Expr) -> tuple[str, int] | None:
    """(a text known now, the ticks making it charges) of a text literal or text() of a constant."""
    if isinstance(node, A.Literal) and type(node.value) is str:
        return node.value, 0
    if (isinstance(node, A.Call) and node.func == "text" and node.func not in gen.rules.functions
            and len(node.args) == 1 and not node.kwargs):
        value = gen.constant(gen.expr(node.args[0]))
        if value.__class__ in (int, str):
            return str(value), len(str(value))
    return None


def _zone_call(gen: Any, node: A.Call) -> str:
    f, args, zone = node.func, node.args, node.args[0].id
    cells = gen.lay.zone_cells.get(zone)
    if cells is None:
        raise gen.no(f"{f}() of '{zone}'")
    if f == "cells" and len(args) == 1:
        return gen.const(list(cells))  # (one list, shared: the flat code never changes a list in place)
    if f == "pieces" and len(args) == 1:
        return f"[i for c in {gen.const(tuple(cells))} for i in P[c]]"
    if f == "lines" and len(args) == 2:
        n = gen.expr(args[1])
        if not n.lstrip("-").isdigit():
            raise gen.no("lines() of a length not written in the rules")
        found = gen.lay.lines(zone, int(n))
        if found is None:
            raise gen.no("lines()")
        runs, charge = found
        gen.charge += charge
        return gen.const(runs)
    raise gen.no(f"{f}()")


def _neighbor(gen: Any, node: A.Call, c: str, srcs: list[str], types: list[str]) -> str:
    n = 1
    if len(srcs) == 3:
        n = gen.constant(srcs[2])
        if type(n) is not int:
            raise gen.no("neighbor() at a distance not known now")
    d = gen.constant(srcs[1])
    if isinstance(d, str):
        table = gen.lay.neighbor(d, n)
        if table is None:
            raise gen.no(f"neighbor() towards '{d}'")
        return f"{gen.const(table)}[{c}]"
    if T.strip(types[1]) != STR:
        raise gen.no("neighbor() along a direction of unknown type")
    return f"{gen.const(gen.lay.directions(n))}[{srcs[1]}][{c}]"  # (a direction no board has: KeyError)


__all__ = ["builtin_call"]
