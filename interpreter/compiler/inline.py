"""Spec functions written into their callers: calls without a Python call or depth bookkeeping.

A call of a small, non-recursive spec function (`analysis.cheap`: loop-free, a few dozen nodes, only
such callees) is emitted as its body, with each parameter a Python local bound, in the interpreter's
order, to its argument's value (an assignment expression; a local or constant argument is used as it
is).  The interpreter counts `call_depth` up and down around every call; the inlined code does not.
The count is observable only where a call could pass the `emit_depth` limit, so every piece of inlined
code sits in a *region* guarded once:

    (INLINED if it.call_depth + R <= it.limits.emit_depth else PLAIN)

where R is the deepest static nesting of the calls written out in it.  When the guard holds, no call
in the region can be the one the interpreter stops at; when it fails, PLAIN is today's code (every
call a generated function counting its depth), which fails exactly where the interpreter does.
Inside an inlined body every call is itself inlined (a cheap function's callees are cheap); a call
that cannot be (keyword arguments, a call in a comprehension's iterable, where Python forbids an
assignment expression) gives up the whole region: its calls then get a guard each, or stay calls.

A spec function's own generated function skips its bookkeeping the same way when its body, inlined
calls and all, reads no depth (no call left that counts one).  Piece labels are the one place an
expression runs from inside a built-in (text(), error messages); a spec whose labels call spec
functions gets no inlining at all, since such a label would count from a lower depth.
"""

from __future__ import annotations

import re
from typing import Any

from orrery.rulespec import ast as A

# Argument sources used in place: a Python local (parameter, comprehension variable), a constant, a number.
_PLAIN_ARG = re.compile(r"[avK][0-9]+|[0-9]+|None|True|False")


class CannotInline(Exception):
    """A call in a region cannot be written out: the region is compiled as before."""


def labels_call_functions(rules: Any) -> bool:
    """Whether a piece label calls a spec function: it could run from inside a built-in or an error
    message, at a depth that code without the count would not have reached (no inlining then)."""
    return any(kind.label is not None and any(isinstance(n, A.Call) and n.func in rules.functions
                                              for n in kind.label.walk())
               for kind in rules.kinds.values())


class InlineCalls:
    """The CodeGen part that writes spec function calls out (mixed into codegen.CodeGen)."""

    rules: Any
    scope: list[dict[str, str]]
    shape_scope: list[dict[str, str | None]]
    env_free: bool
    fn_ids: dict[str, str]
    memo_depth: dict[str, int]
    by_clock: set[str]
    cheap: set[str]

    def init_inline(self) -> None:
        """The inlining state of a new generator (nothing is inlined until `set_inlining`)."""
        self.inline_fns: set[str] = set()  # the functions written into their callers
        self.uncounted = False  # whether code that reads no depth may leave it uncounted (set per spec)
        self.plain = 0  # > 0: compiling a region's fallback, every call as a generated function
        self.in_region = False  # compiling a region's inlined form
        self.level = 0  # inside how many inlined bodies
        self.reach = 0  # the deepest nesting of inlined calls in the region so far
        self.reads_depth = False  # the region keeps a call that counts its depth
        self.no_walrus = 0  # > 0: inside a comprehension's iterable (no assignment expressions there)

    def set_inlining(self, cheap: set[str]) -> None:
        """Inline the cheap functions that have a generated function, unless a piece label calls one."""
        self.uncounted = not labels_call_functions(self.rules)
        self.inline_fns = {n for n in cheap if n in self.fn_ids} if self.uncounted else set()

    # ------------------------------------------------------------ calls
    def inline_site(self, node: A.Call) -> str | None:
        """Source for a call of a spec function written out (None: the caller emits the call as before)."""
        if self.plain:
            return None
        params = self.rules.functions[node.func][0]
        fits = node.func in self.inline_fns and not node.kwargs and len(node.args) == len(params)
        if not fits:
            if self.level:  # inside an inlined body every call must be written out too
                raise CannotInline(node.func)
            self.reads_depth = self.reads_depth or self.in_region
            return None
        if self.in_region:
            return self.inline_call(node, params)
        fast = self.compile_region(node)
        if fast is None:
            return None
        return f"({fast[0]} if {self.depth_guard(fast[1])} else {self.plain_expr(node)})"

    def inline_call(self, node: A.Call, params: list[str]) -> str:
        """The body of the called function with its parameters bound to the arguments' values."""
        frame: dict[str, str] = {}
        shapes: dict[str, str | None] = {}
        binds = []
        for p, arg in zip(params, node.args):
            src = self.expr(arg)  # type: ignore[attr-defined]
            shapes[p] = self.shape(arg)  # type: ignore[attr-defined]
            if _PLAIN_ARG.fullmatch(src):
                frame[p] = src
                continue
            if self.no_walrus:
                raise CannotInline(node.func)
            local = self.fresh("a")  # type: ignore[attr-defined]
            binds.append(f"({local} := {src}) is {local}")  # always true: binds, in order, each once
            frame[p] = local
        body = self.rules.functions[node.func][1]
        saved = self.scope, self.shape_scope, self.env_free
        self.level += 1
        self.reach = max(self.reach, self.level)
        # the body sees its parameters and the spec's names, never the caller's locals (as in the interpreter)
        self.scope, self.shape_scope, self.env_free = [frame], [shapes], True
        try:
            src = self.expr(body)  # type: ignore[attr-defined]
        finally:
            self.scope, self.shape_scope, self.env_free = saved
            self.level -= 1
        if not binds:
            return f"({src})"
        return f"({src} if {' and '.join(binds)} else None)"

    # ------------------------------------------------------------ regions
    def compile_region(self, node: A.Expr) -> tuple[str, int, bool] | None:
        """(source with spec calls written out, their deepest nesting, whether a counting call is left), or
        None when some call cannot be written out."""
        saved = self.in_region, self.reach, self.reads_depth
        self.in_region, self.reach, self.reads_depth = True, 0, False
        try:
            return self.expr(node), self.reach, self.reads_depth  # type: ignore[attr-defined]
        except CannotInline:
            return None
        finally:
            self.in_region, self.reach, self.reads_depth = saved

    def plain_expr(self, node: A.Expr) -> str:
        """An expression compiled with every spec call a generated function (a region's fallback)."""
        self.plain += 1
        try:
            return self.expr(node)  # type: ignore[attr-defined]
        finally:
            self.plain -= 1

    def region_expr(self, node: A.Expr) -> str:
        """An expression whose inlined calls share one depth guard (per call when that cannot be)."""
        if not self.inline_fns or self.plain or self.in_region:
            return self.expr(node)  # type: ignore[attr-defined]
        fast = self.compile_region(node)
        if fast is None:
            return self.expr(node)  # type: ignore[attr-defined]
        if fast[1] == 0:
            return fast[0]  # nothing written out: the same source as before
        return f"({fast[0]} if {self.depth_guard(fast[1])} else {self.plain_expr(node)})"

    @staticmethod
    def depth_guard(reach: int) -> str:
        """True when `reach` more levels of calls stay within the limit."""
        return f"it.call_depth + {int(reach)} <= it.limits.emit_depth"

    # ------------------------------------------------------------ generated functions
    def param_shapes(self, params: list[str]) -> dict[str, str | None]:
        """The shapes of a generated function's parameters: any value (typedgen.py's specialised functions
        know their arguments' types)."""
        return dict.fromkeys(params)

    def root_function(self, name: str, params: list[str], body: A.Expr) -> None:
        """A spec function as a Python function `(it, call_span, *args)`: parameters are Python locals.

        A pure, non-recursive function remembers its results while `it.memo` is set (during a cascade
        scan, a menu filter, an end check or a heuristic, when nothing can change); one that reads only
        pieces and variables (see placebound) remembers them in the state until its version moves.  A
        remembered result is used only if the call would certainly not hit a limit, and it charges the
        loop ticks the first evaluation counted, so loop-limit errors happen exactly where the
        interpreter has them.  A body that keeps no call counting its depth runs without the count
        when the guard shows that no call in it can reach the limit (see the module's docstring).
        """
        fid = self.fn_ids[name]
        args = [self.fresh("a") for _ in params]  # type: ignore[attr-defined]
        depth = None if name in self.cheap else self.memo_depth.get(name)
        by_clock = depth is not None and name in self.by_clock
        key = f"({self.const(name)}, {''.join(a + ', ' for a in args)})"  # type: ignore[attr-defined]
        emit = self.emit  # type: ignore[attr-defined]
        emit(0, f"def {fid}(it, span{''.join(', ' + a for a in args)}):  # {_pos(body)}", body)
        # the memo lookups are written out (not helper calls): for the small functions of a cascade scan
        # the calls cost more than the work they save (profiles of cascade scans)
        if depth is not None:
            if by_clock:
                emit(1, "st_ = it.s")
                emit(1, f"key_ = {key}")
                emit(1, "try:")
                emit(2, "hit = st_.derived.get(key_)")
                emit(1, "except TypeError:  # lists and records as arguments: not remembered")
                emit(2, "hit = key_ = None")
                emit(1, "if hit is not None and hit[0] == st_.version:")
                emit(2, "hit = hit[1]")
            else:
                emit(1, "m = it.memo")
                emit(1, "if m is not None:")
                emit(2, f"hit = MEMO_GET(m, {key})")
            emit(2, f"if hit is not None and it.call_depth + {depth} <= it.limits.emit_depth "
                    f"and it.loops + hit[1] <= it.limits.loop:")
            emit(3, "it.loops += hit[1]")
            emit(3, "return hit[0]")
            emit(1, "t0 = it.loops")
        self.scope.append(dict(zip(params, args)))
        self.shape_scope.append(self.param_shapes(params))
        self.env_free = True
        try:
            # a cheap function's own generated function runs only as a fallback: it stays as before
            fast = None if self.plain or not self.uncounted or name in self.inline_fns else self.compile_region(body)
            indent = 1
            if fast is not None and not fast[2]:
                # nothing in the body reads the depth: when no call in it can reach the limit, no count
                emit(1, f"if {self.depth_guard(1 + fast[1])}:")
                emit(2, f"r = {fast[0]}", body)
                emit(1, "else:")
                indent, src = 2, self.plain_expr(body)
            elif name in self.inline_fns:
                src = self.plain_expr(body)  # called only where a region's guard failed, near the limit
            else:
                src = self.region_expr(body)
            emit(indent, "it.call_depth += 1")
            emit(indent, "if it.call_depth > it.limits.emit_depth:")
            emit(indent + 1, f"DEPTH(it, {self.const(name)}, span)")  # type: ignore[attr-defined]
            emit(indent, "try:")
            emit(indent + 1, f"r = {src}", body)
            emit(indent, "finally:")
            emit(indent + 1, "it.call_depth -= 1")
        finally:
            self.env_free = False
            self.scope.pop()
            self.shape_scope.pop()
        if by_clock:
            emit(1, "if key_ is not None:")
            emit(2, "st_.derived[key_] = (st_.version, (r, it.loops - t0))")
        elif depth is not None:
            emit(1, "if m is not None:")
            emit(2, f"MEMO_PUT(m, {key}, r, it.loops - t0)")
        emit(1, "return r")
        emit(0, "")


def _pos(node: Any) -> str:
    """A generated comment: only numbers from the span, never spec text."""
    span = getattr(node, "span", None)
    if span is None:
        return "?"
    return f"line {int(span.line)} col {int(span.col)}"
