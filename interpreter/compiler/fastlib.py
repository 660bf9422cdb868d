"""The whitelisted helpers that compiled rule code may call (the generated code's whole namespace).

Each helper does exactly what the tree-walking interpreter does for one kind of
node, so the two paths agree; the difference is that the compiled code calls
them directly instead of dispatching on node types at every step.  Nothing here
knows any game.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec.errors import OrreryError

from ..core.decisions import GameEnded, RequireFailed, RuleError, RunawayError, untold
from ..core.valueops import _EQUAL_ONLY_TO_ITS_KIND, _SMALL, TableRef, _arith, check_nested, list_contains, spend, values_equal
from ..core.values import _ZONE_REFS, PIECE_REFS, Cell, PieceRef, Player, Record, ZoneRef
from .modcache import remade

_PASS_THROUGH = (RequireFailed, GameEnded, RunawayError)
_BUILTIN_ERRORS = (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, AttributeError)


def truth(it: Any, v: Any, span: Any) -> bool:
    """A condition's value, which must be true or false."""
    if v is True or v is False:
        return v
    raise RuleError(f"condition must be true or false, got {it.describe(v)}", span)


def tick(it: Any, span: Any) -> bool:
    """Count one loop iteration against the loop limit (always true, for use in comprehensions)."""
    it.loops += 1
    if it.loops > it.limits.loop:
        raise RunawayError(f"more than {it.limits.loop} loop iterations in one step (limit loop); "
                           f"raise it with --limit loop=N", span)
    return True


def spent(it: Any, items: list) -> bool:
    """Count a loop's ticks at once, one per item, when they all fit within the loop limit (else count
    nothing: the caller then ticks item by item, reaching the limit where the interpreter does)."""
    n = it.loops + len(items)
    if n <= it.limits.loop:
        it.loops = n
        return True
    return False


def not_(it: Any, v: Any, span: Any) -> bool:
    """`not v`."""
    if v is True or v is False:
        return not v
    raise RuleError(f"'not' needs true or false, got {it.describe(v)}", span)


def neg(it: Any, v: Any, span: Any) -> int:
    """`-v`."""
    if not isinstance(v, int) or isinstance(v, bool):
        raise RuleError(f"'-' needs a number, got {it.describe(v)}", span)
    return -v


def eq(a: Any, b: Any) -> bool:
    """`a == b` (true never equals 1)."""
    if a.__class__ is b.__class__ and a.__class__ in _SIMPLE:
        return a == b
    return values_equal(a, b)


_SIMPLE = {int, str, Player, Cell, PieceRef, ZoneRef, type(None)}


def arith(it: Any, node: Any, a: Any, b: Any) -> Any:
    """`a op b` for the arithmetic and ordering operators."""
    if a.__class__ is int and b.__class__ is int:
        op = node.op
        if op == "+":
            return _checked(it, node, a, b, a + b)
        if op == "-":
            return _checked(it, node, a, b, a - b)
        if op == "<":
            return a < b
        if op == ">":
            return a > b
        if op == "<=":
            return a <= b
        if op == ">=":
            return a >= b
    return _arith(it, node.op, a, b, node)


def add(it: Any, node: Any, a: Any, b: Any) -> Any:
    """`a + b`."""
    if a.__class__ is int and b.__class__ is int:
        r = a + b
        if -_BIG < r < _BIG:
            return r
    elif a.__class__ is str and b.__class__ is str:
        # evaluator.joined without its error paths: within the values limit, the copy counted as loop work
        n = len(a) + len(b)
        if n <= it.limits.values and it.loops + n <= it.limits.loop:
            it.loops += n
            return a + b
    return _arith(it, "+", a, b, node)


def sub(it: Any, node: Any, a: Any, b: Any) -> Any:
    """`a - b`."""
    if a.__class__ is int and b.__class__ is int:
        r = a - b
        if -_BIG < r < _BIG:
            return r
    return _arith(it, "-", a, b, node)


def lt(it: Any, node: Any, a: Any, b: Any) -> Any:
    """`a < b`."""
    if a.__class__ is int and b.__class__ is int:
        return a < b
    return _arith(it, "<", a, b, node)


def le(it: Any, node: Any, a: Any, b: Any) -> Any:
    """`a <= b`."""
    if a.__class__ is int and b.__class__ is int:
        return a <= b
    return _arith(it, "<=", a, b, node)


def gt(it: Any, node: Any, a: Any, b: Any) -> Any:
    """`a > b`."""
    if a.__class__ is int and b.__class__ is int:
        return a > b
    return _arith(it, ">", a, b, node)


def ge(it: Any, node: Any, a: Any, b: Any) -> Any:
    """`a >= b`."""
    if a.__class__ is int and b.__class__ is int:
        return a >= b
    return _arith(it, ">=", a, b, node)


_BIG = 1 << 60  # smaller results never need the interpreter's size checks


def _checked(it: Any, node: Any, a: int, b: int, result: int) -> Any:
    # huge numbers take the interpreter's path, which owns the value-size limit
    if -(1 << 60) < result < (1 << 60):
        return result
    return _arith(it, node.op, a, b, node)


def contains(it: Any, item: Any, container: Any, span: Any) -> bool:
    """`item in container` (operands already evaluated left to right)."""
    if container.__class__ is list:
        if item.__class__ in _EQUAL_ONLY_TO_ITS_KIND:
            return item in container  # as list_contains does for these, without the call
        return list_contains(container, item)
    return it.contains(container, item, span)


def call_builtin(it: Any, fn: Any, name: str, span: Any, args: tuple, kwargs: dict) -> Any:
    """A built-in function call, with the interpreter's error locating."""
    try:
        return fn(it, *args, **kwargs)
    except RuleError as err:
        if err.findings and err.findings[0].span is None:
            raise RuleError(err.findings[0].message, span) from None
        raise
    except _PASS_THROUGH:
        raise
    except _BUILTIN_ERRORS as exc:
        raise RuleError(f"{name}(): {exc}", span) from None


def call_function(it: Any, name: str, span: Any, args: tuple, kwargs: tuple) -> Any:
    """A call of a function the spec defines."""
    params, body = it.r.functions[name]
    local = dict(zip(params, args))
    for k, v in kwargs:
        local[k] = v
    it.call_depth += 1
    if it.call_depth > it.limits.emit_depth:
        raise RunawayError(f"function '{name}' calls nested more than {it.limits.emit_depth} deep "
                           f"(limit emit_depth); raise it with --limit emit_depth=N", span)
    try:
        return it.ev(body, local)
    finally:
        it.call_depth -= 1


def too_deep(it: Any, name: str, span: Any) -> None:
    """A spec function nested past the limit."""
    raise RunawayError(f"function '{name}' calls nested more than {it.limits.emit_depth} deep "
                       f"(limit emit_depth); raise it with --limit emit_depth=N", span)


def unknown(name: str, span: Any) -> Any:
    """An unknown name (the checker normally rejects these before a game starts)."""
    raise RuleError(f"unknown name '{name}'", span)


def iterate(it: Any, v: Any, span: Any) -> list:
    """The items a loop or comprehension goes through."""
    if v.__class__ is list:
        return v
    if v.__class__ is ZoneRef:  # a zone that is not a board: its pieces (Interp.iterate without its checks)
        z = it.r.zones.get(v.name)
        if z is not None and not z.is_board:
            return [PIECE_REFS[i] for i in it.s.places.get(v, ())]
    return it.iterate(v, span)


def as_pieces(it: Any, v: Any, span: Any) -> list[int]:
    """The piece ids a statement's operand stands for (Interp.as_pieces)."""
    return it.as_pieces(v, span)


def lazy_any(items: Any) -> bool:
    """`any` over a comprehension: stops at the first true item."""
    for x in items:
        if x is True:
            return True
    return False


def lazy_all(items: Any) -> bool:
    """`all` over a comprehension: stops at the first item that is not true."""
    for x in items:
        if x is not True:
            return False
    return True


def nest_flat(it: Any, value: list, span: Any) -> list:
    """check_nested for a new list whose items are lists of plain values: the same count and charge,
    without the walk."""
    if not value:
        return value
    inner = sum(map(len, value))
    if len(value) + inner > it.limits.values:
        return check_nested(it, value, span)  # raises the interpreter's own error
    spend(it, inner, span)
    return value


def index(it: Any, obj: Any, key: Any, node: Any) -> Any:
    """`obj[key]`: a list by a number in range at once, the rest as the interpreter does."""
    if obj.__class__ is list:
        if key.__class__ is int and -len(obj) <= key < len(obj):
            return obj[key]
    elif obj.__class__ is TableRef:
        return obj.lookup(key, node.span)
    return it.index_value(obj, key, node)


def record(pairs: tuple) -> Record:
    """A record literal."""
    return Record(pairs)


def require_failed(it: Any, node: Any, env: dict) -> None:
    """Raise the refusal of a `require` whose condition is false."""
    from ..reference.effects import message_text

    raise RequireFailed(message_text(it, node.message, env) or "a requirement of this rule is not met",
                        node.span, env.get("__rule__"))


def say(it: Any, v: Any) -> None:
    """`say`: one line of narration (the generated code builds it only when `it.narrate`)."""
    it.s.msgs.append(v if isinstance(v, str) else it.label(v))


def say_failed(it: Any, failed: Any) -> None:
    """`say` whose text could not be built: the error is told in the line (as effects._say does)."""
    it.s.msgs.append(untold(failed))


def repeat_count(it: Any, n: Any, span: Any) -> int:
    """The count of a `repeat`."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise RuleError(f"repeat needs a number, got {it.describe(n)}", span)
    return n


def get_attr(it: Any, obj: Any, name: str, span: Any) -> Any:
    """`obj.name`: pieces' own attributes and players' variables directly, the rest as the interpreter does."""
    cls = obj.__class__
    if cls is PieceRef:
        attrs = it.s.attrs[obj.id]
        if name in attrs:
            return attrs[name]
        if name == "cell" or name == "place":  # (after the kind's own attributes, as the interpreter reads)
            return it.s.loc[obj.id]
    elif cls is Player:
        if name in it.r.player_var_names:
            return it.s.pvars[obj].get(name)
        if name in it.r.player_zone_names:  # (checked in this order by the interpreter too)
            ref = _ZONE_REFS.get((name, obj))  # the interned reference (a seat hashes as its number)
            if ref is not None:
                return ref
    elif cls is Cell and name in _CELL_XY and obj.pos.__class__ is tuple:
        return obj.pos[_CELL_XY[name]]
    return it.get_attr(obj, name, span)


_CELL_XY = {"x": 0, "y": 1}
_MISS = object()


def _count(it: Any, v: Any) -> Any:
    # builtins.count: a list's length, a place's pieces
    return len(v) if v.__class__ is list else _size(it, v)


def _size(it: Any, v: Any) -> Any:
    # builtins.size: a cell's or a zone's pieces
    cls = v.__class__
    if cls is Cell:
        return len(it.s.places.get(v) or ())
    if cls is ZoneRef:
        if not it.r.zones[v.name].is_board:  # (Interp.place_size without its call: a zone's own pieces)
            return len(it.s.places.get(v) or ())
        return it.place_size(v)
    return _MISS


def _place_of(it: Any, v: Any) -> Any:
    # builtins.place_of: where a piece is
    if v.__class__ is PieceRef:
        loc = it.s.loc
        if 0 <= v.id < len(loc):
            return loc[v.id]
    return _MISS


def _first(it: Any, v: Any) -> Any:
    return (v[0] if v else None) if v.__class__ is list else _MISS


def _last(it: Any, v: Any) -> Any:
    return (v[-1] if v else None) if v.__class__ is list else _MISS


def _len(it: Any, v: Any) -> Any:
    return len(v) if v.__class__ is list or v.__class__ is str else _MISS


def _cells(it: Any, v: Any) -> Any:
    # builtins.cells of a board zone
    if v.__class__ is ZoneRef and it.r.zones[v.name].is_board:
        return it.cells_of(v)
    return _MISS


def _zone_of(it: Any, v: Any) -> Any:
    return ZoneRef(v.zone, v.owner) if v.__class__ is Cell else _MISS


def _sum(it: Any, v: Any) -> Any:
    # builtins.sum of a list of numbers (no true/false), within the size the `digits` limit never checks
    if v.__class__ is list:
        for x in v:
            if x.__class__ is not int:
                return _MISS
        r = sum(v)
        if -_SMALL < r < _SMALL:
            return r
    return _MISS


# Built-ins of one argument whose common case is worked out inline; _MISS sends the call to the built-in
# itself (its checks, errors and rare cases).  None of these charges loop ticks, as the built-ins do not.
_ONE_ARG = {"count": _count, "size": _size, "place_of": _place_of, "first": _first, "last": _last, "len": _len,
            "cells": _cells, "zone_of": _zone_of, "sum": _sum}


@remade
def fast_builtin(name: str, fn: Any) -> Any:
    """A specialised call `(it, span, *args)` for a hot built-in (its common case inline), or None."""
    quick = _ONE_ARG.get(name)
    if quick is not None:
        def one_arg(it: Any, span: Any, *args: Any) -> Any:
            if len(args) == 1:
                r = quick(it, args[0])
                if r is not _MISS:
                    return r
            return call_builtin(it, fn, name, span, args, {})
        one_arg.__name__ = name
        return one_arg
    if name == "distance":
        def distance(it: Any, span: Any, *args: Any, metric: Any = "manhattan") -> Any:
            # builtins.distance between two grid cells, reading their positions directly (Cell.x and
            # Cell.y are properties); anything else, or an unknown metric, goes to the built-in
            if len(args) == 2:
                a, b = args
                if a.__class__ is Cell and b.__class__ is Cell:
                    pa, pb = a.pos, b.pos
                    if pa.__class__ is tuple and pb.__class__ is tuple:
                        dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                        if metric == "manhattan":
                            return abs(dx) + abs(dy)
                        if metric == "king":
                            return max(abs(dx), abs(dy))
                        if metric == "hex":
                            return (abs(dx) + abs(dy) + abs(dx - dy)) // 2
            return call_builtin(it, fn, name, span, args, {} if metric == "manhattan" else {"metric": metric})
        return distance
    if name == "empty":
        def empty(it: Any, span: Any, *args: Any) -> Any:
            if len(args) == 1 and args[0].__class__ is Cell:
                return not it.s.places.get(args[0])
            return call_builtin(it, fn, name, span, args, {})
        return empty
    inner = getattr(fn, "geometry_of", None)
    if inner is not None:
        def geometry(it: Any, span: Any, *args: Any) -> Any:
            # a remembered result of the fixed board geometry, read where builtins.geometry keeps it
            cache = it.r.__dict__.get("_geometry_cache")
            if cache is not None:
                try:
                    hit = cache.get((inner, args), _MISS)
                except TypeError:
                    hit = _MISS
                if hit is not _MISS:
                    return hit
            return call_builtin(it, fn, name, span, args, {})
        return geometry
    if name == "pieces":
        def pieces(it: Any, span: Any, *args: Any, kind: Any = None) -> Any:
            # builtins.pieces of one cell: its pieces (optionally of one kind), without the general path
            if len(args) == 1 and args[0].__class__ is Cell and (kind is None or kind.__class__ is str):
                ids = it.s.places.get(args[0])
                if not ids:
                    return []
                if kind is None:
                    return [PIECE_REFS[i] for i in ids]
                kinds = it.s.kinds
                return [PIECE_REFS[i] for i in ids if kinds[i] == kind]
            if len(args) == 1 and args[0].__class__ is ZoneRef and (kind is None or kind.__class__ is str):
                out = it.pieces_in(args[0])  # a fresh list, which builtins.pieces returns as it is
                if kind is None:
                    return out
                kinds = it.s.kinds
                return [p for p in out if kinds[p.id] == kind]
            return call_builtin(it, fn, name, span, args, {} if kind is None else {"kind": kind})
        return pieces
    if name == "text":
        def text(it: Any, span: Any, *args: Any) -> Any:
            # builtins.text for a text, a number or a cell: its label, within `values`, charged to `loop`
            if len(args) == 1:
                v = args[0]
                cls = v.__class__
                shown = (v if cls is str else str(v) if cls is int else v.label if cls is Cell
                         else it.r.seat_name(v) if cls is Player else None)
                if shown is not None:
                    n = len(shown)
                    if n <= it.limits.values and it.loops + n <= it.limits.loop:
                        it.loops += n
                        return shown
            return call_builtin(it, fn, name, span, args, {})
        return text
    if name == "top":
        def top(it: Any, span: Any, *args: Any) -> Any:
            if len(args) == 1 and args[0].__class__ is Cell:
                lst = it.s.places.get(args[0])
                return PIECE_REFS[lst[-1]] if lst else None
            return call_builtin(it, fn, name, span, args, {})
        return top
    return None


def memo_get(memo: dict, key: tuple) -> Any:
    """A remembered (result, ticks) or None (also for arguments that cannot be remembered)."""
    try:
        return memo.get(key)
    except TypeError:  # lists and records as arguments
        return None


def memo_put(memo: dict, key: tuple, result: Any, ticks: int) -> None:
    """Remember a pure function's result and the loop ticks it cost."""
    try:
        memo[key] = (result, ticks)
    except TypeError:
        pass


def clock_get(it: Any, key: tuple) -> Any:
    """A (result, ticks) remembered in the state at its current version, or None."""
    try:
        hit = it.s.derived.get(key)
    except TypeError:  # lists and records as arguments
        return None
    if hit is not None and hit[0] == it.s.version:
        return hit[1]
    return None


def clock_put(it: Any, key: tuple, result: Any, ticks: int) -> None:
    """Remember a result in the state, valid until the state's version moves (any piece or variable changes)."""
    try:
        it.s.derived[key] = (it.s.version, (result, ticks))
    except TypeError:
        pass


HELPERS: dict[str, Any] = {
    "CLOCK_GET": clock_get, "CLOCK_PUT": clock_put, "CELL": Cell, "PIECEREF": PieceRef, "PLAYER": Player,
    "TUPLE": tuple, "STR": str, "LEN": len, "LIST": list, "ZONE_REF": _ZONE_REFS.get,
    "MEMO_GET": memo_get, "MEMO_PUT": memo_put, "NEST": check_nested, "NESTF": nest_flat, "IX": index,
    "GA": get_attr, "ADD": add, "SUB": sub, "LT": lt, "LE": le, "GT": gt, "GE": ge,
    "TB": truth, "TK": tick, "SPENT": spent, "NOT": not_, "NEG": neg, "EQ": eq, "AR": arith, "IN": contains,
    "CB": call_builtin, "CF": call_function, "UNK": unknown, "DEPTH": too_deep, "IT": iterate,
    "PIECES": as_pieces, "ANY": lazy_any, "ALL": lazy_all,
    "REC": record, "REQ": require_failed, "SAY": say, "SAYX": say_failed, "OERR": OrreryError,
    "RPT": repeat_count,
}
