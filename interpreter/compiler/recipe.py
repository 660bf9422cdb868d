"""What the fast path's generator makes of a spec, before it is linked: a recipe (codegen.generate writes it,
codegen.build links it into the Module the engine runs; compiler/modcache.py keeps it on disk).

The recipe refers to the spec's AST nodes themselves (not their ids), so that it can be stored with the
nodes written as their positions in the spec and read back against another load of the same spec.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from orrery.rulespec import ast as A

# Statements compiled inline; the others call the interpreter's statement function (EXEC).
INLINE = (A.Let, A.If, A.For, A.While, A.Repeat, A.Require, A.Say)


class SiteOf:
    """A constant of the generated code that is the identity of a node (a choice's site: engine/fallible.py),
    resolved when the recipe is linked (codegen._link), so that a stored recipe gives the node read back."""

    __slots__ = ("node",)

    def __init__(self, node: A.Node):
        self.node = node

    def __reduce__(self) -> tuple:
        return (SiteOf, (self.node,))


@dataclass
class Recipe:
    """The generated source with its constants, line map and the tables that name its functions."""

    source: str
    consts: list[Any]  # K<n> / N<n> of the source
    line_spans: dict[int, Any]
    digest: str  # the spec's
    env_names: set[str]
    names: list[tuple[Any, str, str]]  # (root node | trigger index | (condition node, variable), fn|scan|filter, name)
    by_block: list[tuple[Any, str]]  # (block that may ask, its step function)
    by_loop: list[tuple[Any, tuple[str, str]]]  # (loop that may ask, (frame kind, step function))
    by_action: dict[str, str]  # action name -> its step function
    by_event: dict[str, str]  # event -> its triggers' step function
    fn_ids: dict[str, str]  # spec function -> its generated function
    keep: list[Any]  # the roots and asking nodes (kept alive so that their ids stay theirs)


def roots(rules: Any) -> tuple[list[A.Expr], list[A.Block], list[Any]]:
    """The AST roots the engine evaluates, in a deterministic order."""
    spec = rules.spec
    exprs = [spec.exprs[k] for k in sorted(spec.exprs, key=repr)]
    blocks = [spec.effects[k] for k in sorted(spec.effects, key=repr)]
    # operands of delegated statements are evaluated through `it.ev`: compile them as roots too
    seen = {id(e) for e in exprs}
    for root in blocks + exprs:
        for n in root.walk():
            if isinstance(n, A.Stmt) and not isinstance(n, INLINE) or isinstance(n, A.For) and n.chooser \
                    or isinstance(n, A.Assign):
                for child in n.children():
                    if isinstance(child, A.Expr) and id(child) not in seen:
                        seen.add(id(child))
                        exprs.append(child)
                    elif isinstance(child, A.Block) and id(child) not in seen:
                        seen.add(id(child))
                        blocks.append(child)
            if isinstance(n, A.Assign) and isinstance(n.target, A.Attr) and id(n.target.obj) not in seen:
                seen.add(id(n.target.obj))
                exprs.append(n.target.obj)
            if isinstance(n, A.Require) and n.message is not None and id(n.message) not in seen:
                seen.add(id(n.message))
                exprs.append(n.message)
    return exprs, blocks, list(rules.state_triggers)


def filters(rules: Any, blocks: list[A.Block]) -> list[tuple[str, A.Expr]]:
    """(variable, condition) of every menu with a `where`: action parameters and `choose` statements."""
    out, seen = [], set()
    for name in sorted(rules.actions):
        for p in rules.actions[name].params:
            if p.where is not None and id(p.where) not in seen:
                seen.add(id(p.where))
                out.append((p.name, p.where))
    for b in blocks:
        for n in b.walk():
            if isinstance(n, A.Choose) and n.cond is not None and id(n.cond) not in seen:
                seen.add(id(n.cond))
                out.append((n.var, n.cond))
    return out


__all__ = ["INLINE", "Recipe", "SiteOf", "filters", "roots"]
