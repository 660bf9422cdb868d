"""The compiled forms of `let NAME = VALUE in BODY`, slices `xs[a:b]` and the `match` that fits no arm.

A `match` is parsed into a `let` of its subject and a chain of conditionals (rulespec/parser.py), so these
three forms are all the code generator needs for it.  The name a `let ... in` binds is a Python local of
the generated expression (an assignment expression, or the parameter of a lambda where Python allows no
assignment: a comprehension's iterable), as comprehension variables are; the reference interpreter binds
it in the environment around the body.  Slices and a missing arm call the engine's one implementation
(core/valueops.py), so values, loop counts and errors are the reference's.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A

from ..core.valueops import no_match, slice_value


class ExprForms:
    """The CodeGen part for let-in, slices and a failed match (mixed into codegen.CodeGen)."""

    scope: list[dict[str, str]]
    shape_scope: list[dict[str, str | None]]
    no_walrus: int

    def visit_LetIn(self, node: A.LetIn) -> str:
        value = self.expr(node.value)  # type: ignore[attr-defined]
        v = self.fresh("v")  # type: ignore[attr-defined]
        self.scope.append({node.name: v})
        self.shape_scope.append({node.name: self.shape(node.value)})  # type: ignore[attr-defined]
        try:
            body = self.expr(node.body)  # type: ignore[attr-defined]
        finally:
            self.scope.pop()
            self.shape_scope.pop()
        if self.no_walrus:
            return f"(lambda {v}: {body})({value})"
        return f"({body} if ({v} := {value}) is {v} else None)"  # (the test binds, and is always true)

    def visit_Slice(self, node: A.Slice) -> str:
        start = "None" if node.start is None else self.expr(node.start)  # type: ignore[attr-defined]
        stop = "None" if node.stop is None else self.expr(node.stop)  # type: ignore[attr-defined]
        return f"SLICE(it, {self.expr(node.obj)}, {start}, {stop}, {self.node_const(node)})"  # type: ignore[attr-defined]

    def visit_NoMatch(self, node: A.NoMatch) -> str:
        return f"NOMATCH(it, {self.expr(node.subject)}, {self.span(node)})"  # type: ignore[attr-defined]


HELPERS: dict[str, Any] = {"SLICE": slice_value, "NOMATCH": no_match}
