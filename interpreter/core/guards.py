"""When can a choice not come up empty?  The proofs behind core.fallibility's guards.

A choice (a `choose`, or an action parameter) offers something for sure when its domain is a written list
with no filter, all the cells of a fixed board, the directions of an adjacency, or a row of a table whose every
row is a list with items (`T[k]`); or when a condition that
held just before, with nothing run in between, says so: `len(D) > 0` (also `>= 1`, `count`, `size`,
`not empty(D)`, a bound that is a number, a constant or another size: `size(D) > hand_limit`) for a choice
from D with no filter, or `any(C for x in D)` for `choose y from D where C'` when C' is C with x written y.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from orrery.rulespec import ast as A

_SIZES = frozenset({"len", "count", "size"})
_ADJACENCIES = frozenset({"orthogonal", "diagonal", "king", "hex"})


def never_empty(domain: A.Expr, cond: A.Expr | None, rules: Any = None) -> bool:
    """A domain that always offers something with no filter: a written list of items, `cells(BOARD)` of a
    board that has cells, `dirs(ADJACENCY)`, `TABLE[key]` of a table whose rows are all lists with items."""
    if cond is not None:
        return False
    if isinstance(domain, A.ListLit):
        return len(domain.items) > 0
    if isinstance(domain, A.Index) and isinstance(domain.obj, A.Name) and rules is not None:
        return _full_rows(rules, domain.obj.id)
    if not (isinstance(domain, A.Call) and len(domain.args) == 1 and not domain.kwargs):
        return False
    arg = domain.args[0]
    if domain.func == "dirs":
        return isinstance(arg, A.Literal) and arg.value in _ADJACENCIES
    if domain.func == "cells" and rules is not None and isinstance(arg, A.Name):
        return _fixed_board(rules, arg.id)
    return False


def _full_rows(rules: Any, name: str) -> bool:
    """A table every entry of which (and its default, where a lookup can give it) is a list with items: a lookup
    in it gives a list with items, or fails with an error (a key it has no entry for), never an empty menu."""
    found = rules.names.get(name)
    if found is None or found[0] != "table":
        return False
    table = found[1]
    values = table.values
    rows = list(values.values()) if isinstance(values, dict) else list(values) if isinstance(values, list) else None
    if not rows:
        return False
    if table.default is not None or table.decl.above == "default":
        rows.append(table.default)
    return all(isinstance(row, list) and len(row) > 0 for row in rows)


def _fixed_board(rules: Any, name: str) -> bool:
    """A shared board zone whose cells never change and are not none (a bounded grid, a graph)."""
    z = rules.zones.get(name)
    if z is None or not z.is_board or z.decl.per_player or name in rules.families:
        return False
    if z.decl.type == "grid" and z.decl.unbounded:
        return False  # (its cells are the occupied ones)
    try:
        return len(z.all_positions()) > 0
    except Exception:  # (a size that is worked out later: no proof, so no claim)
        return False


def has_items(cond: A.Expr, domain: A.Expr, rules: Any) -> bool:
    """Does `cond` holding mean that `domain` has an item?  `len(D) > E` with E >= 0, `len(D) >= E` with
    E >= 1, the same written the other way round (`E < len(D)`), with `count` or `size`, or `not empty(D)`."""
    if isinstance(cond, A.Unary) and cond.op == "not":
        inner = cond.operand
        return isinstance(inner, A.Call) and inner.func == "empty" and inner.args == (domain,) and not inner.kwargs
    if not isinstance(cond, A.Binary):
        return False
    op, left, right = cond.op, cond.left, cond.right
    if op in ("<", "<="):  # `E < len(D)` is `len(D) > E`
        op, left, right = (">" if op == "<" else ">="), right, left
    if op not in (">", ">=") or not _size_of(left, domain):
        return False
    return at_least(right, 0 if op == ">" else 1, rules)


def _size_of(e: A.Expr, domain: A.Expr) -> bool:
    return isinstance(e, A.Call) and e.func in _SIZES and e.args == (domain,) and not e.kwargs


def at_least(e: A.Expr, least: int, rules: Any) -> bool:
    """Is `e` known to be a number >= `least` whatever the state: a written number, a constant (never
    assigned nor hidden by a local: the checker refuses both), or a size when `least` <= 0?"""
    if isinstance(e, A.Literal):
        return type(e.value) is int and e.value >= least
    if isinstance(e, A.Name) and rules is not None:
        found = rules.names.get(e.id)
        return found is not None and found[0] == "const" and type(found[1]) is int and found[1] >= least
    if isinstance(e, A.Call) and e.func in _SIZES and not e.kwargs:
        return least <= 0
    return False


def any_of(cond: A.Expr, var: str, domain: A.Expr, where: A.Expr | None) -> bool:
    """`any(C for x in D)` guarding a choice of `var` from D where C (x written `var`)."""
    if where is None or not (isinstance(cond, A.Call) and cond.func == "any" and len(cond.args) == 1
                             and not cond.kwargs):
        return False
    gen = cond.args[0]
    if not (isinstance(gen, A.Comprehension) and len(gen.clauses) == 1):
        return False
    clause = gen.clauses[0]
    if clause.cond is not None or clause.iter != domain:
        return False
    if clause.var == var:
        return gen.elt == where
    renamed = rename(gen.elt, clause.var, var)
    return renamed is not None and renamed == where


def given(cond: A.Expr, var: str, where: A.Expr) -> A.Expr | None:
    """What a choice's filter `where` says of its chosen `var` when `cond` holds: all of it for `var != none` (an
    optional choice's skip is none, and a chosen value passed the filter); for `var == K` (K written, not none),
    the one alternative of `A or B or ...` that does not say `var != K` or `var == K2` (another K2), if only one
    is left.  None: nothing known."""
    if not (isinstance(cond, A.Binary) and cond.op in ("!=", "==") and isinstance(cond.left, A.Name)
            and cond.left.id == var and isinstance(cond.right, A.Literal)):
        return None
    k = cond.right.value
    if cond.op == "!=":
        return where if k is None else None
    if k is None:  # (`var == none`: the choice was skipped, and its filter says nothing)
        return None
    left = [d for d in _parts(where, "or") if not any(_rules_out(c, var, k) for c in _parts(d, "and"))]
    return left[0] if len(left) == 1 else None


def _parts(e: A.Expr, op: str) -> list[A.Expr]:
    if isinstance(e, A.Binary) and e.op == op:
        return _parts(e.left, op) + _parts(e.right, op)
    return [e]


def _rules_out(c: A.Expr, var: str, k: Any) -> bool:
    """Does the test `c` fail when `var` is the written value `k`?"""
    if not (isinstance(c, A.Binary) and c.op in ("!=", "==") and isinstance(c.left, A.Name) and c.left.id == var
            and isinstance(c.right, A.Literal)):
        return False
    v = c.right.value
    same = v.__class__ is k.__class__ and v == k
    return same if c.op == "!=" else not same


def rename(e: A.Expr, old: str, new: str) -> A.Expr | None:
    """`e` with the name `old` written `new`; None when a name inside binds either (no proof then)."""
    for node in e.walk():
        if isinstance(node, A.CompFor) and node.var in (old, new) or isinstance(node, A.LetIn) and node.name in (old, new):
            return None
        if isinstance(node, A.Name) and node.id == new:
            return None  # (`new` already read: renaming would merge two names)
    return _renamed(e, old, new)


def _renamed(node: Any, old: str, new: str) -> Any:
    if isinstance(node, tuple):
        return tuple(_renamed(x, old, new) for x in node)
    if not isinstance(node, A.Node):
        return node
    if isinstance(node, A.Name):
        return A.Name(node.span, new) if node.id == old else node
    values = {f.name: _renamed(getattr(node, f.name), old, new) for f in fields(node)}
    return type(node)(**values)
