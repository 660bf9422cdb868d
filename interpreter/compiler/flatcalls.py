"""Built-in calls written over the flat layout (flatgen.py): geometry from tables, places read as lists.

Each writes what the built-in answers for arguments of these types, charging the loop limit what the built-in
charges (counted high, never low); a call it does not write makes the spec unsupported.  A pile written by its
name is read as its place (flatlayout.py), an unbounded grid's cells are its occupied ones (OCC), keywords are
written where they are literal (`kind:`, `default:`, `metric:`).  Where the built-in would fail (a none where a cell is needed, a table that lacks the key) the
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
        return _with_keywords(gen, node)
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
    if f == "place_of" and len(args) == 1 and s0 == BPIECE:
        return f"LOC[{gen.ix(srcs[0])}]"  # (none: LOC[None] fails, the flat game stops as the built-in's error)
    if f == "zone_of" and len(args) == 1 and s0 in (CELL, PIECE, BPIECE):  # (a piece's by its place: LOC)
        return f"{gen.const(gen.lay.zone_refs)}[{one if s0 == CELL else f'LOC[{one}]'}]"
    if f == "zone_of" and len(args) == 1 and s0 == ZONE:
        return one
    if f in ("neighbor", "direction") and gen.lay.unbounded:
        raise gen.no(f"{f}() beside an unbounded grid")  # (its tables would step out of the window)
    if f == "cell" and len(args) == 3 and gen.is_zone(args[0]) and args[0].id in gen.lay.zone_cells \
            and types[1] == INT and types[2] == INT:
        # a bounded grid: none off the board; an unbounded grid's window: a position outside it stops the flat
        # game (KeyError), the general engine goes on from there
        table = gen.const(gen.lay.coordinates(args[0].id))
        get = "get" if args[0].id not in gen.lay.unbounded else "__getitem__"
        return f"{table}.{get}(({srcs[1]}, {srcs[2]}))"
    if f == "connected" and len(args) == 2 and s0 in (CELL, T.list_of(CELL)) and T.strip(types[1]) == T.list_of(CELL):
        seeds = f"[{one}]" if s0 == CELL else one
        within = gen.nn(srcs[1]) if T.optional(types[1]) else srcs[1]
        return f"CONNECTED(st, {gen.const(gen.lay.adjacent())}, {gen.const(gen.lay.rank())}, {seeds}, {within})"
    if f == "neighbor" and s0 == CELL and len(args) in (2, 3):
        return _neighbor(gen, node, one, srcs, types)
    if f == "adjacent" and s0 == CELL and len(args) == 1:
        return f"{gen.const(gen.lay.adjacent())}[{one}]"
    if f == "direction" and s0 == CELL and len(args) == 2 and T.strip(types[1]) == CELL:
        b = srcs[1] if not T.optional(types[1]) else gen.nn(srcs[1])
        return f"{gen.const(gen.lay.direction())}[{one}].get({b})"
    if f == "next_player" and len(args) == 1 and s0 == PLAYER:
        return f"(({one} + 1) % st.n)"
    if f in ("first", "last") and len(args) == 1 and T.is_list(s0):
        return _end_of(gen, one, 0 if f == "first" else -1)
    if f in ("min", "max") and len(args) == 1 and T.is_list(s0) and T.elem(s0) == INT:
        return f"{f}({one})"  # (an empty list: ValueError, the flat game stops; the general engine's error)
    if f == "range" and len(args) in (1, 2) and all(t == INT for t in types):
        return f"RANGE(st, {'0' if len(args) == 1 else srcs[0]}, {srcs[-1]})"
    if f == "distance" and len(args) == 2 and all(T.strip(t) == CELL for t in types):
        return _distance(gen, node, srcs, types, "manhattan")
    if f == "unique" and len(args) == 1 and T.is_list(s0) and T.scalar(T.elem(s0)) \
            and T.strip(T.elem(s0)) != T.ZONE:  # (items whose Python equality and hash are the language's)
        return f"UNIQUE(st, {one})"
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


def _with_keywords(gen: Any, node: A.Call) -> str:
    """`pieces(PLACE, kind: "K")`, `min`/`max(LIST, default: V)` and `distance(A, B, metric: "M")`, each with a
    keyword written in the rules; any other call with keywords is not written."""
    f, args, kwargs = node.func, node.args, dict(node.kwargs)
    if len(kwargs) != 1 or len(node.kwargs) != 1:
        raise gen.no(f"{f}() with keyword arguments")
    (key, value), = kwargs.items()
    const = value.value if isinstance(value, A.Literal) else None
    if f == "pieces" and key == "kind" and len(args) == 1 and const.__class__ is str:
        kind = gen.lay.kinds.index(const) if const in gen.lay.kinds else -1  # (no such kind: no piece)
        v = gen.fresh("v")
        where = args[0]
        if T.strip(gen.typeof(where)) == CELL:
            return f"[{v} for {v} in P[{gen.ix(gen.expr(where))}] if KIND[{v}] == {kind}]"
        if gen.is_zone(where) and where.id in gen.lay.piles:
            return f"[{v} for {v} in P[{gen.lay.piles[where.id]}] if KIND[{v}] == {kind}]"
        if gen.is_zone(where) and where.id in gen.lay.zone_cells:
            c = gen.fresh("c")
            window = gen.lay.unbounded.get(where.id)
            cells = gen.const(tuple(gen.lay.zone_cells[where.id])) if window is None else \
                f"OCC(st, {window[0]}, {window[1]})"
            return f"[{v} for {c} in {cells} for {v} in P[{c}] if KIND[{v}] == {kind}]"
        raise gen.no("pieces() of a kind, of something else than a cell or a zone named")
    if f in ("min", "max") and key == "default" and len(args) == 1:
        lt = gen.typeof(args[0])
        if T.is_list(T.strip(lt)) and T.elem(T.strip(lt)) == INT and T.strip(gen.typeof(value)) in (INT, T.NONE):
            items = gen.expr(args[0])
            if T.optional(lt):
                items = gen.nn(items)
            return f"{f}({items}, default={gen.expr(value)})"
    if f == "distance" and key == "metric" and len(args) == 2 and const in ("manhattan", "king", "hex"):
        types = [gen.typeof(a) for a in args]
        if all(T.strip(t) == CELL for t in types):
            return _distance(gen, node, [gen.expr(a) for a in args], types, const)
    raise gen.no(f"{f}() with the keyword '{key}'")


def _end_of(gen: Any, items: str, i: int) -> str:
    """first()/last(): the item at an end of a list, or none."""
    if gen.no_walrus:
        return f"ENDOF({items}, {i})"
    t = gen.fresh()
    return f"({t}[{i}] if ({t} := {items}) else None)"


def _distance(gen: Any, node: A.Call, srcs: list[str], types: list[str], metric: str) -> str:
    """distance() between two cells by their coordinates (a none: the table's index fails, the flat game
    stops as the built-in's error does)."""
    a, b = (gen.ix(s) for s in srcs)
    return f"DIST_{metric.upper()}({a}, {b})"


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
    window = gen.lay.unbounded.get(zone)
    if window is not None:  # an unbounded grid: its occupied cells, row by row (cells_of), made when asked
        if f == "cells" and len(args) == 1:
            return f"OCC(st, {window[0]}, {window[1]})"
        if f == "pieces" and len(args) == 1:
            c, i = gen.fresh("c"), gen.fresh("i")
            return f"[{i} for {c} in OCC(st, {window[0]}, {window[1]}) for {i} in P[{c}]]"
        raise gen.no(f"{f}() of an unbounded grid")
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
