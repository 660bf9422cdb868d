"""Where the rule text of the effect catalogue and of pieces' abilities lives, and how a `do:` is read.

An ability sits in a kind's `abilities:` list or in one instance row's: both carry the same fields (their
`when`, `set`/`add`, `then`, an `activate:`'s condition, parameters and costs, a play's `empowered.if`).  A
`do:` (and `play:`, `empowered.do`) is a list of effect-template calls, `NAME(args)`, each written as an
expression; it becomes a block of `call NAME(args)` statements, so both engines run it as they run any call.
"""

from __future__ import annotations

from typing import Any, Callable

from . import ast as A
from .errors import Diagnostics, SpecError
from .parser import parse_block

_KIND = ("components", "pieces", "*")
_SITES = (_KIND + ("abilities", "*"), _KIND + ("instances", "*", "abilities", "*"))
_IN_ABILITY: tuple[tuple[tuple, str], ...] = (
    (("when",), "expr"), (("set",), "expr"), (("add",), "expr"), (("then",), "effect"),
    (("do",), "calls"), (("play",), "calls"), (("empowered", "if"), "expr"), (("empowered", "do"), "calls"),
    (("activate", "condition"), "expr"), (("activate", "params", "*", "from"), "expr"),
    (("activate", "params", "*", "where"), "expr"), (("activate", "cost", "*"), "expr"),
    (("activate", "pay_to", "*"), "expr"),
)

# (path pattern, kind) of every rule text added by the catalogue and abilities (rulespec/loader.py reads them)
ABILITY_FIELDS: tuple[tuple[tuple, str], ...] = (
    (("effects", "*", "effect"), "effect"),
    (_KIND + ("owner",), "expr"),
) + tuple((site + rest, kind) for site in _SITES for rest, kind in _IN_ABILITY)


def parse_calls(text: Any, parse_one: Callable[[tuple, str, Diagnostics], A.Expr | None], merged: Any, dpath: tuple,
                diags: Diagnostics) -> A.Block | None:
    """A `do:` (a text or a list of texts, each `NAME(args)`) as a block of `call` statements; None when
    some item does not parse (its error is reported)."""
    items = list(enumerate(text)) if isinstance(text, list) else [(None, text)]
    body: list[A.Stmt] = []
    ok = True
    for i, item in items:
        path = dpath if i is None else dpath + (i,)
        found = Diagnostics()
        node = parse_one(path, str(item), found)
        if isinstance(node, A.Call):
            body.append(A.CallProc(span=node.span, name=node.func, args=node.args, kwargs=node.kwargs))
            continue
        ok = False
        if node is not None or _statements(merged, path, str(item)):
            diags.error(node.span if node is not None else merged.span(path),
                        "a `do:` item calls an effect template: write `NAME(arguments)`",
                        "statements belong in a template's `effect:` (under `effects:`), which the item then calls")
        else:
            diags.extend(found.findings)
    return A.Block(span=merged.span(dpath), body=tuple(body)) if ok else None


def _statements(merged: Any, path: tuple, text: str) -> bool:
    """Does this text read as statements (written where template calls belong)?"""
    try:
        parse_block(text, lambda line, col, end_line=None, end_col=None: merged.text_span(path, line, col, end_line,
                                                                                           end_col))
    except (SpecError, RecursionError):
        return False
    return True


__all__ = ["ABILITY_FIELDS", "parse_calls"]
