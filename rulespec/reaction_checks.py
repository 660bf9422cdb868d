"""Static checks of reactions: who acts (`perform ... by`), windows, free actions and trigger order.

The checker (checker.py) calls `acting_findings` once per spec; the checks live here so that the big
checker only holds the hooks.  Like the checker, this module mirrors the engine's semantics
(engine/frames.py, engine/windows.py) without importing it.
"""

from __future__ import annotations

from typing import Iterator

from . import ast as A
from .errors import Finding
from .gamespec import GameSpec


def acting_findings(spec: GameSpec) -> list[Finding]:
    """`perform NAME` (no `by`) after a `choose ... by P` in the same effect: an error, since the action is
    done for the acting player (`current`), which is seldom who answered the `choose` (the reacting player of
    a hand-written window).  `perform NAME by P` says who acts; `by current` keeps the acting player."""
    out: list[Finding] = []
    for block in spec.effects.values():
        asked: list[A.Choose] = []
        for stmt in _in_order(block):
            if isinstance(stmt, A.Choose) and stmt.chooser is not None and not _is_current(stmt.chooser):
                asked.append(stmt)
            elif isinstance(stmt, A.Perform) and stmt.actor is None and asked:
                choose = asked[0]
                who = _short(choose.chooser)
                out.append(Finding(
                    stmt.span,
                    f"`perform {stmt.action}` acts for `current` (the acting player), not for the player who "
                    f"answered `choose {choose.var} ... by {who}` (line {choose.span.line})",
                    "error",
                    f"write `perform {stmt.action} by {who}` for that player to act (its pieces, costs and "
                    f"choices), or `perform {stmt.action} by current` to keep the acting player"))
    return out


def _in_order(block: A.Block | None) -> Iterator[A.Stmt]:
    """Every statement of a block, nested ones included, in the order they are written."""
    if block is None:
        return
    for stmt in block.body:
        yield stmt
        for child in stmt.children():
            if isinstance(child, A.Block):
                yield from _in_order(child)


def _is_current(node: A.Expr) -> bool:
    return isinstance(node, A.Name) and node.id == "current"


def _short(node: A.Expr) -> str:
    """Source-like text of a simple chooser (a name or attribute chain), else a placeholder."""
    if isinstance(node, A.Name):
        return node.id
    if isinstance(node, A.Attr):
        inner = _short(node.obj)
        return f"{inner}.{node.name}" if inner != "PLAYER" else inner
    return "PLAYER"


__all__ = ["acting_findings"]
