"""`orrery explain` for `let ... in`, slices and `match` (dsl.md 3.15): their source text, and a `match`
statement phrased as the choice it is rather than as the `let` and conditionals it is parsed into."""

from __future__ import annotations

from typing import Any, Callable

from orrery.rulespec import ast as A


def code_form(e: A.Node, code: Callable[[Any], str], paren: Callable[[Any, int], str]) -> str | None:
    """The source text of a let-in, a slice or a match expression (None for other nodes)."""
    if isinstance(e, A.LetIn) and e.match is not None:
        arms = [" | ".join(code(p) for p in pats) + f" => {code(body)}" for pats, body in expr_arms(e.body)]
        default = _default(e.body)
        if default is not None:
            arms.append(f"_ => {code(default)}")
        return f"match {code(e.value)} {{ {', '.join(arms)} }}"
    if isinstance(e, A.LetIn):
        return f"let {e.name} = {code(e.value)} in {code(e.body)}"
    if isinstance(e, A.Slice):
        return f"{paren(e.obj, 9)}[{code(e.start)}:{code(e.stop)}]"
    if isinstance(e, A.NoMatch):
        return "no arm fits"
    return None


def patterns(test: A.Expr) -> list[A.Literal]:
    """The literals of an arm's test (`m == "a" or m == "b"`)."""
    if isinstance(test, A.Binary) and test.op == "or":
        return patterns(test.left) + patterns(test.right)
    if isinstance(test, A.Binary) and test.op == "==" and isinstance(test.right, A.Literal):
        return [test.right]
    return []


def expr_arms(body: A.Expr) -> list[tuple[list[A.Literal], A.Expr]]:
    """The literal arms of a match expression's conditionals."""
    out = []
    while isinstance(body, A.Cond):
        out.append((patterns(body.test), body.then))
        body = body.else_
    return out


def _default(body: A.Expr) -> A.Expr | None:
    while isinstance(body, A.Cond):
        body = body.else_
    return None if isinstance(body, A.NoMatch) else body


def is_match_value(s: A.Stmt) -> bool:
    """The `let` a match statement binds its value with (phrased with the match, not on its own)."""
    return isinstance(s, A.Let) and s.name.startswith("match#")


def match_lines(ph: Any, subject: A.Expr, s: A.If, depth: int) -> list[str]:
    """A match statement as list items: what it depends on, then one item per arm."""
    pad = "  " * depth
    out = [f"{pad}- Depending on {ph.expr(subject)}:"]
    for test, body in s.branches:
        words = " or ".join(ph.expr(p) for p in patterns(test))
        out += ph._branch(pad + "  ", f"if it is {words}", body, depth + 1)
    default = s.else_
    if default is not None and not (len(default.body) == 1 and is_match_value(default.body[0])):
        out += ph._branch(pad + "  ", "otherwise", default, depth + 1)
    return out
