"""Building `match` (docs/dsl.md 3.15): arms of literal patterns, parsed into what the engines already run.

An expression `match V { "a" | "b" => X, _ => Y }` becomes `let m = V in (if m == "a" or m == "b" then X
else Y)`, and a statement becomes `let m = V` followed by `if ... {..} elif ... else {..}`, with `m` a name
no spec can write (`match#1`).  So both engines, the resumable frames (an arm may ask a player) and the code
generator run a `match` as the conditionals they already know, with no second implementation to keep
equal.  Without `_`, the last branch is `NoMatch`: a value that fits no arm is a located error at run time
(the checker requires every word of a `names:` set, or `_`).  The original arms are kept on the built
node (`MatchInfo`) for the checker.
"""

from __future__ import annotations

from typing import Any

from lark import Token

from . import ast as A
from .errors import Span


def with_meta(func):
    """Mark a builder method that takes the rule's position (`meta`) before its children (parser._Builder)."""
    func.wants_meta = True
    return func


class Built(Exception):
    """A construct that parsed but cannot be built (a slice's step, a pattern that is not a literal), located."""

    def __init__(self, span: Span, message: str):
        super().__init__(message)
        self.span, self.message = span, message


class Many(tuple):
    """Statements one construct is built into (a `match`: the `let` of its value, then its conditionals)."""


class _Wild:
    """The `_` pattern."""

    def __init__(self, span: Span):
        self.span = span


class MatchBuilder:
    """The parser's builder methods for `match` (mixed into parser._Builder)."""

    matches: int

    def _span(self, meta: Any) -> Span:  # (parser._Builder's)
        raise NotImplementedError

    def _tok_span(self, tok: Token) -> Span:  # (parser._Builder's)
        raise NotImplementedError

    # -- patterns and arms
    def patterns(self, c: list) -> tuple:
        return tuple(c)

    def pattern_name(self, c: list) -> Any:
        tok = c[0]
        if str(tok) == "_":
            return _Wild(self._tok_span(tok))
        raise Built(self._tok_span(tok), f"'{tok}' as a pattern: a pattern is a literal (a text, a number, true, "
                                         f"false or none), or `_` for anything else")

    def neg_int(self, c: list) -> A.Literal:
        return A.Literal(span=self._tok_span(c[0]), value=-int(c[0]))

    def expr_arm(self, c: list) -> tuple:
        return (c[0], c[1])

    @with_meta
    def stmt_arm(self, meta: Any, c: list) -> tuple:
        body = c[1]
        if not isinstance(body, A.Block):
            stmts = tuple(body) if isinstance(body, Many) else (body,)
            body = A.Block(span=self._span(meta), body=stmts)
        return (c[0], body)

    # -- the two forms
    @with_meta
    def match_expr(self, meta: Any, c: list) -> A.LetIn:
        span, subject = self._span(meta), c[0]
        ref, arms, default, info = self._arms(span, subject, c[1:])
        result: A.Expr = default if default is not None else A.NoMatch(span=span, subject=ref)
        for test, body in reversed(arms):
            result = A.Cond(span=body.span, test=test, then=body, else_=result)
        return A.LetIn(span=span, name=ref.id, value=subject, body=result, match=info)

    @with_meta
    def match_stmt(self, meta: Any, c: list) -> Many:
        span, subject = self._span(meta), c[0]
        ref, arms, default, info = self._arms(span, subject, c[1:])
        if default is None:
            fail = A.Let(span=span, name=ref.id + "!", value=A.NoMatch(span=span, subject=ref))
            default = A.Block(span=span, body=(fail,))
        let = A.Let(span=subject.span, name=ref.id, value=subject)
        return Many((let, A.If(span=span, branches=tuple(arms), else_=default, match=info)))

    def _arms(self, span: Span, subject: A.Expr, arms: list) -> tuple:
        """The subject's name, [(test, body)] of the literal arms, the `_` arm's body and the MatchInfo."""
        self.matches += 1
        ref = A.Name(span=subject.span, id=f"match#{self.matches}")
        out, default, seen = [], None, []
        for patterns, body in arms:
            if default is not None:
                raise Built(patterns[0].span, "an arm after `_` can never be taken: `_` must be the last arm")
            wild = [p for p in patterns if isinstance(p, _Wild)]
            if wild:
                if len(patterns) > 1:
                    raise Built(wild[0].span, "`_` matches anything: write it alone, as the last arm")
                default = body
                continue
            test: A.Expr | None = None
            for p in patterns:
                if any(type(p.value) is type(v) and p.value == v for v, _ in seen):
                    raise Built(p.span, f"the pattern {_shown(p.value)} is written twice in this match")
                seen.append((p.value, p.span))
                eq = A.Binary(span=p.span, op="==", left=ref, right=p)
                test = eq if test is None else A.Binary(span=p.span, op="or", left=test, right=eq)
            out.append((test, body))
        return ref, out, default, A.MatchInfo(span=span, name=ref.id, patterns=tuple(seen),
                                                  default=default is not None)


def _shown(v: Any) -> str:
    return "none" if v is None else str(v).lower() if isinstance(v, bool) else repr(v) if isinstance(v, str) else str(v)
