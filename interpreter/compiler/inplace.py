"""Built-ins and attributes written out in place on the fast path: their common case as an expression, the
helper for the rest.

fastlib's fast helpers answer `empty`, `len`, `count`, `size`, `place_of` and `distance` for the values rules
mostly give them (a cell, a list, a piece, two grid cells) before calling the built-in itself.  Here that common case is written
into the generated expression, with the argument evaluated once into a local, so the common case costs no
call; any other value goes to the same helper, so errors and rare cases keep the built-in's answers.  None
of these built-ins counts loop ticks, so skipping the call changes no counter.  Attributes (`attr_source`) follow
the same pattern with fastlib.get_attr as the helper.
"""

from __future__ import annotations

import re
from typing import Any

from orrery.rulespec import ast as A
from orrery.rulespec.signatures import CLOSURES

_LOCAL = re.compile(r"[av][0-9]+")  # codegen's names of parameters and comprehension variables
_LENGTHS = frozenset({"len", "count", "size"})  # a list's length (len, count), a cell's pieces (count, size)
_METRICS = frozenset({"manhattan", "king", "hex"})  # builtins.distance's metrics, written out below


def builtin_source(gen: Any, node: A.Call, fast: str, args: list[str], call: str) -> str:
    """The source of a call of a fast built-in: written out where this module knows how, else `call`.

    `gen` is the CodeGen (its `fresh`, `const`, `span`, `no_walrus`), `fast` the helper's constant, `args` the
    arguments' sources and `call` the helper's call with them."""
    name = node.func
    if len(args) == 1 and not node.kwargs:
        x = args[0]
        if name == "empty" and _LOCAL.fullmatch(x):
            # a cell held in a Python local: read twice for free
            return f"((not it.s.places.get({x})) if {x}.__class__ is CELL else {call})"
        if gen.no_walrus:
            return call  # (no assignment expression allowed here: a comprehension's iterable)
        t = gen.fresh("a")
        fallback = f"{fast}(it, {gen.span(node)}, {t})"
        if name == "empty":
            return f"((not it.s.places.get({t})) if ({t} := {x}).__class__ is CELL else {fallback})"
        if name == "place_of":
            return (f"(it.s.loc[{t}.id] if ({t} := {x}).__class__ is PIECEREF and 0 <= {t}.id < LEN(it.s.loc) "
                    f"else {fallback})")
        if name in _LENGTHS:
            tests = []
            if name != "size":
                tests.append(("LIST", f"LEN({t})"))
            if name != "len":
                tests.append(("CELL", f"LEN(it.s.places.get({t}) or ())"))
            (cls, first), rest = tests[0], tests[1:]
            out = f"{first} if ({t} := {x}).__class__ is {cls} else "
            out += "".join(f"{value} if {t}.__class__ is {cls} else " for cls, value in rest)
            return f"({out}{fallback})"
    if name == "distance" and len(args) == 2 and not gen.no_walrus:
        inline = _distance(gen, node, fast, args)
        if inline is not None:
            return inline
    return call


def _distance(gen: Any, node: A.Call, fast: str, args: list[str]) -> str | None:
    """`distance(a, b)` (its `metric:` written as a constant) for two grid cells, else None; a metric the
    built-in does not know goes to the helper, which leaves it to the built-in."""
    metric: Any = "manhattan"
    if node.kwargs:
        (key, value), = node.kwargs
        metric = value.value if key == "metric" and isinstance(value, A.Literal) else None
    if metric.__class__ is not str or metric not in _METRICS:
        return None
    a, b, pa, pb, dx, dy, e = (gen.fresh("a") for _ in range(7))
    # absolute values and the larger of two as conditional expressions: no call (a third of the time of abs/max)
    ax, ay = _abs(dx, f"{pb}[0] - {pa}[0]"), _abs(dy, f"{pb}[1] - {pa}[1]")
    if metric == "hex":
        body = f"({ax} + {ay} + {_abs(e, f'{dx} - {dy}')}) // 2"
    elif metric == "king":
        body = f"({dx} if ({dx} := {ax}) >= ({dy} := {ay}) else {dy})"
    else:
        body = f"{ax} + {ay}"
    kw = "" if not node.kwargs else f", metric={gen.const(metric)}"
    binds, names = "", []
    for fresh, arg in ((a, args[0]), (b, args[1])):  # (an argument already in a local is read as it is)
        if _LOCAL.fullmatch(arg):
            names.append(arg)
        else:
            binds += f"({fresh} := {arg}) is {fresh} and "
            names.append(fresh)
    a, b = names
    return (f"(({body}) if {binds}"
            f"{a}.__class__ is CELL and {b}.__class__ is CELL and ({pa} := {a}.pos).__class__ is TUPLE "
            f"and ({pb} := {b}.pos).__class__ is TUPLE else {fast}(it, {gen.span(node)}, {a}, {b}{kw}))")


def _abs(v: str, src: str) -> str:
    """`abs(src)` of a number, with `v` bound to `src` (a fresh local)."""
    return f"({v} if ({v} := {src}) >= 0 else -{v})"


# ------------------------------------------------------------------ attributes
_CELL_XY = {"x": 0, "y": 1}


def attr_source(gen: Any, node: A.Attr, obj: str) -> str:
    """The source of `obj.name`: fastlib.get_attr's first answer for the object's likely kind written out (a grid
    cell's x and y, a piece's own attribute, a player's variable or zone), `GA` for anything else."""
    name, rules = node.name, gen.rules
    k, span = gen.const(name), gen.span(node)
    local = _LOCAL.fullmatch(obj) is not None
    if name in _CELL_XY and local:
        # a grid cell's column or row, read in place (the object is a local: reading it twice is free)
        return f"({obj}.pos[{_CELL_XY[name]}] if {obj}.__class__ is CELL and {obj}.pos.__class__ is TUPLE " \
               f"else GA(it, {obj}, {k}, {span}))"
    shape = gen.shape(node.obj)
    if (shape == "piece" or shape is None and name in gen.piece_attr_names
            and name not in rules.player_var_names) and not gen.no_walrus:
        # a piece's own attribute, read from its dict; also for an object of unknown kind when some piece kind
        # declares the name (`a.face_up` for a in a player's zone)
        o, a = gen.fresh("a"), gen.fresh("a")
        return f"({a}[{k}] if ({o} := {obj}).__class__ is PIECEREF and {k} in ({a} := it.s.attrs[{o}.id]) " \
               f"else GA(it, {o}, {k}, {span}))"
    if (name in rules.player_var_names or name in rules.player_zone_names) and (local or not gen.no_walrus):
        o = obj if local else gen.fresh("a")
        bind = o if local else f"({o} := {obj})"
        if name in rules.player_var_names:  # a player's variable (`who.score`), checked first by get_attr too
            return f"(it.s.pvars[{o}].get({k}) if {bind}.__class__ is PLAYER else GA(it, {o}, {k}, {span}))"
        # a player's zone (`who.hand`): its interned reference (a zone reference is never false)
        return f"((ZONE_REF(({k}, {o})) if {bind}.__class__ is PLAYER else None) or GA(it, {o}, {k}, {span}))"
    return f"GA(it, {obj}, {k}, {span})"


def top_attr_source(gen: Any, node: A.Attr) -> str | None:
    """`top(x).name` of a cell x, read from the cell's last piece id without making its reference (the
    built-in `top` and fastlib.get_attr's first case, written out); None where that does not apply."""
    call = node.obj
    if (gen.no_walrus or not isinstance(call, A.Call) or call.func != "top" or len(call.args) != 1
            or call.kwargs or call.func in gen.rules.functions or node.name in ("cell", "place")):
        return None
    from ..reference.builtins import REGISTRY
    from .fastlib import fast_builtin

    fast = fast_builtin("top", REGISTRY["top"].fn)
    x, ids, a = gen.fresh("a"), gen.fresh("a"), gen.fresh("a")
    k = gen.const(node.name)
    top = f"{gen.const(fast, hashable=False)}(it, {gen.span(call)}, {x})"
    return (f"({a}[{k}] if ({x} := {gen.expr(call.args[0])}).__class__ is CELL and ({ids} := it.s.places.get({x})) "
            f"and {k} in ({a} := it.s.attrs[{ids}[-1]]) else GA(it, {top}, {k}, {gen.span(node)}))")


def kwarg_source(gen: Any, func: str, key: str, value: A.Expr) -> str:
    """A built-in's keyword argument; one evaluated per item (a walk's `cost:`) becomes a function of its item,
    with the item's name bound as a Python local, as the interpreter's Interp._closures binds it in an env."""
    bound = CLOSURES.get(func)
    if bound is None or bound[0] != key:
        return gen.expr(value)
    v = gen.fresh("v")
    gen.scope.append({bound[1]: v})
    gen.shape_scope.append({bound[1]: None})
    try:
        return f"(lambda {v}: {gen.expr(value)})"
    finally:
        gen.scope.pop()
        gen.shape_scope.pop()
