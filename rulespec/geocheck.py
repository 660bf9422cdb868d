"""Checks of geometry and keyed zones in rule text: `ZONE[KEY]` of a `per:` family, per-edge `cost:`
expressions of the walks (`path`, `reachable`).

Hooks called by the checker (checker.py) so that its module stays small; they use its `expr`, `error` and
`type_error`, and mirror the interpreter (core/valueops.ZoneFamily, reference/walks.py).
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .signatures import CLOSURES
from .typing_rules import NUMERIC, Scope, base, describe, did_you_mean, known

Checker = Any  # checker._Checker; not imported: the checker imports this module


def keyed_index(c: Checker, e: A.Index, ti: str) -> str:
    """`ZONE[KEY]` of a `per:` family: a literal key must be one of its keys; the result is a zone."""
    name = e.obj.id if isinstance(e.obj, A.Name) else None
    keys = c.ix.families.get(name) if name else None
    literal = isinstance(e.index, A.Literal) and e.index.value.__class__ in (str, int)
    if literal and keys is not None:
        key = e.index.value
        if not any(k.__class__ is key.__class__ and k == key for k in keys):
            shown = ", ".join(repr(k) for k in keys)
            c.error(e.index.span, f"zone '{name}' has no key {key!r} (its keys: {shown})"
                    + did_you_mean(str(key), [str(k) for k in keys]))
    elif known(ti) and base(ti) not in NUMERIC | {"str"}:
        c.type_error(e.index.span, f"a zone's key is a text or a number, but this is {describe(ti)}")
    return "zone"


def closure_kwarg(c: Checker, func: str, key: str, value: A.Expr, sc: Scope) -> None:
    """A keyword argument; one evaluated per item (`cost:` of a walk) sees its item's name, and a cost is a
    number or none."""
    bound = CLOSURES.get(func)
    if bound is None or bound[0] != key:
        c.expr(value, sc)
        return
    t = c.expr(value, sc.child({bound[1]: "record"}))
    if known(t) and base(t) not in NUMERIC | {"none"}:
        c.type_error(value.span, f"a cost must be a whole number (or none: that {bound[1]} cannot be taken), "
                                 f"but this is {describe(t)}")
