"""Static value shapes for the code generator: which expressions can never hold a list or a record.

The language counts the items a new list stands for, nested lists included, against the `values`
limit and charges the walk to `loop` (`evaluator.check_nested`).  That walk only does anything when
an item is itself a list or a record, so code that provably builds a list of plain values (cells,
pieces, players, numbers, texts) can skip it, and a list of such lists can count its items without
walking them.  A shape is worked out from the AST alone:

- ``"cell"``, ``"piece"``, ``"player"``, ``"zone"``: a value of that kind (or none);
- ``"int"``: a number, never none or true/false (number literals, counts and lengths, arithmetic on
  numbers, spec functions whose every result is one): two of them compare with Python's own operators;
- ``"flat"``: some other value that is never a list or a record (a number, a text, true/false, none);
- ``"list:" + shape``: a list whose items all have that shape (``"list:?"`` when they are unknown);
- ``None``: unknown.

Only what the engine guarantees is used: literals, operators, the result kinds of built-ins,
comprehension variables, and the built-in attributes of cells, pieces and players.  Variables,
table rows, record fields and spec attributes can hold anything at run time and stay unknown.
A built-in piece attribute (`kind`, `place`, `cell`, `id`) counts only when no kind declares an
attribute of that name: the checker refuses to create or assign an attribute a kind does not
declare, and the engine runs only checked specs.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A

SCALARS = frozenset({"int", "flat", "cell", "piece", "player", "zone"})

# What a built-in returns (rulespec/signatures.py and the interpreter's builtins agree on these).
_BUILTIN = {
    "abs": "flat", "all": "flat", "any": "flat", "cell": "cell", "changed_at": "flat", "count": "int",
    "direction": "flat", "distance": "int", "empty": "flat", "in_bounds": "flat", "index_of": "flat",
    "len": "int", "neighbor": "cell", "next_player": "player", "opposite": "flat", "owner_of": "player",
    "place_of": "flat", "random_int": "flat", "rotate": "flat", "size": "int", "sum": "flat",
    "text": "flat", "zone_of": "zone", "top": "piece", "bottom": "piece",
    "cells": "list:cell", "adjacent": "list:cell", "line": "list:cell",
    "pieces": "list:piece", "players_from": "list:player", "range": "list:flat", "dirs": "list:flat",
    "lines": "list:list:cell", "groups": "list:list:?",
}
# `connected` returns items of its arguments (cells in every sensible use, but not by construction)
_SAME_LIST = frozenset({"sorted", "reversed", "shuffled", "unique"})
_ELEMENT = frozenset({"first", "last", "max", "min"})
_BOOL_OPS = frozenset({"==", "!=", "<", ">", "<=", ">=", "in", "not in", "and", "or"})
_CELL_ATTRS = {"x": "int", "y": "int", "label": "flat", "size": "int", "owner": "player", "zone": "zone",
               "pieces": "list:piece"}
_PIECE_ATTRS = {"kind": "flat", "id": "int", "place": "flat", "cell": "flat"}
_PLAYER_ATTRS = {"seat": "int", "name": "flat", "passed": "flat", "next": "player"}


def is_scalar(shape: str | None) -> bool:
    """A value that is never a list or a record."""
    return shape in SCALARS


def element(shape: str | None) -> str | None:
    """The shape of a list's items (None when unknown or not a list)."""
    if shape is None or not shape.startswith("list:"):
        return None
    inner = shape[5:]
    return None if inner == "?" else inner


def list_of(item: str | None) -> str:
    """The shape of a list whose items have `item`'s shape."""
    return "list:" + (item if item is not None else "?")


_ARITH = frozenset({"+", "-", "*", "//", "%"})


def join(a: str | None, b: str | None) -> str | None:
    """A shape both may have: the same one, or flat for two different plain values."""
    if a == b:
        return a
    if is_scalar(a) and is_scalar(b):
        return "flat"
    if a is not None and b is not None and a.startswith("list:") and b.startswith("list:"):
        return list_of(join(element(a), element(b)))
    return None


class Shapes:
    """Works out shapes of expressions of one spec; `local` maps comprehension variables to shapes."""

    def __init__(self, rules: Any):
        declared: set[str] = set()
        for kind in rules.kinds.values():
            declared.update(kind.defaults)
        # a declared attribute of any kind shadows the built-in one of that name and can hold anything
        self.piece_attrs = {k: v for k, v in _PIECE_ATTRS.items() if k not in declared}
        shadow = set(rules.player_var_names) | set(rules.player_zone_names)
        self.player_attrs = {k: v for k, v in _PLAYER_ATTRS.items() if k not in shadow}
        self.functions = rules.functions
        self.results: dict[str, str | None] = {}  # spec function -> the shape of every result it gives

    def of(self, node: A.Expr, local: dict[str, str | None]) -> str | None:
        """The shape of an expression (None when unknown)."""
        visit = getattr(self, f"_{type(node).__name__}", None)
        return visit(node, local) if visit is not None else None

    def _Literal(self, node: A.Literal, local: dict) -> str | None:
        if node.value.__class__ is int:
            return "int"
        return "flat" if node.value is None or isinstance(node.value, (bool, int, str)) else None

    def _Name(self, node: A.Name, local: dict) -> str | None:
        return local.get(node.id)

    def _Unary(self, node: A.Unary, local: dict) -> str | None:
        if node.op == "-" and self.of(node.operand, local) == "int":
            return "int"
        return "flat"  # `not` gives true/false and `-` a number, or an error

    def _Binary(self, node: A.Binary, local: dict) -> str | None:
        if node.op in _BOOL_OPS:
            return "flat"
        left, right = self.of(node.left, local), self.of(node.right, local)
        if node.op in _ARITH and left == "int" and right == "int":
            return "int"  # a number, or an error (division by zero, the digits limit)
        # arithmetic on two plain values gives a number or a text (lists only come from lists)
        if is_scalar(left) and is_scalar(right):
            return "flat"
        return None

    def _Cond(self, node: A.Cond, local: dict) -> str | None:
        return join(self.of(node.then, local), self.of(node.else_, local))

    def _ListLit(self, node: A.ListLit, local: dict) -> str | None:
        shapes = [self.of(x, local) for x in node.items]
        if not shapes:
            return "list:flat"  # no items: none of them is a list
        item = shapes[0]
        for s in shapes[1:]:
            item = join(item, s)
        return list_of(item)

    def _Comprehension(self, node: A.Comprehension, local: dict) -> str | None:
        return list_of(self.of(node.elt, self.clauses(node, local)))

    def clauses(self, node: A.Comprehension, local: dict) -> dict:
        """The comprehension's variables added to `local`, each with its items' shape."""
        inner = dict(local)
        for clause in node.clauses:
            inner[clause.var] = element(self.of(clause.iter, inner))
        return inner

    def _Slice(self, node: A.Slice, local: dict) -> str | None:
        obj = self.of(node.obj, local)  # a list's slice has its items; a text's is a text (flat)
        return obj if obj is not None and obj.startswith("list:") else None

    def _LetIn(self, node: A.LetIn, local: dict) -> str | None:
        return self.of(node.body, {**local, node.name: self.of(node.value, local)})

    def _Attr(self, node: A.Attr, local: dict) -> str | None:
        obj = self.of(node.obj, local)
        if obj == "cell":
            return _CELL_ATTRS.get(node.name)
        if obj == "piece":
            return self.piece_attrs.get(node.name)
        if obj == "player":
            return self.player_attrs.get(node.name)
        return None

    def _Call(self, node: A.Call, local: dict) -> str | None:
        if node.func in self.functions:
            return self.result(node.func)
        if node.func in _BUILTIN:
            return _BUILTIN[node.func]
        if not node.args:
            return None
        first = self.of(node.args[0], local)
        if node.func in _SAME_LIST and len(node.args) == 1:
            return first if first is not None and first.startswith("list:") else None
        if node.func in _ELEMENT and not node.kwargs:  # a `default:` could be anything
            if len(node.args) == 1:
                return element(first)
            if len(node.args) == 2:  # max(a, b) / min(a, b): one of the two
                return join(first, self.of(node.args[1], local))
        return None

    def result(self, name: str) -> str | None:
        """The shape of every result of a spec function whatever its arguments (its parameters are
        untyped), or None; a function still being worked out (recursion) counts as unknown."""
        if name not in self.results:
            self.results[name] = None
            body = self.functions[name][1]
            self.results[name] = self.of(body, {}) if body is not None else None
        return self.results[name]
