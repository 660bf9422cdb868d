"""The fast path: compiles a spec's rule AST to Python source, once per spec.

Modelled on jinja2's code generator: one `visit_<Node>` per AST node type, the
generated module is compiled once and cached by spec digest, every generated
line is mapped back to the rule's span, and the source can be shown
(`orrery compile GAME --show-source`).

Safety: the source is built only from the validated AST.  Spec text never
enters it: names, strings and attribute names are passed as constants (`K12`),
identifiers are generated (`v3`, `e17`), comments carry only line:column
numbers.  The code runs in a namespace holding only the helpers of
`fastlib.HELPERS`, the interpreter's statement functions and those constants
(no Python builtins).

Semantics: the tree-walking interpreter is the reference.  Compiled code keeps
its evaluation order, its error messages and spans, its loop ticks, and its
flat per-effect `env` for statement-level names; only comprehension variables
and state-trigger bindings become Python locals.  Statements that decide or
need the interpreter's machinery (choose, move, draw...) call the
interpreter's own statement function, whose sub-expressions run compiled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from orrery.rulespec import ast as A

from . import fastlib, geotables, ordergen, typedlib
from ..core.rules import SPECIAL_SOURCE
from ..core.suspends import suspends_of
from ..reference.effects import EXEC, assign_attr, assign_global, call_with, combine, create_with, destroy, move_to
from ..reference.quantities import read_quantity
from .analysis import cheap, counts_no_loops, env_bound_names, memoisable, placebound
from .effectgen import frame_steps
from .exprgen import HELPERS as EXPR_HELPERS, ExprForms
from .inline import InlineCalls
from .inplace import attr_source, builtin_source, kwarg_source, top_attr_source
from .link import link
from .recipe import INLINE as _INLINE, Recipe, SiteOf, filters, roots
from .shapes import Shapes, element, is_scalar




class CompileError(Exception):
    """The code generator met a node it cannot compile (a bug: the interpreter still runs it)."""


@dataclass
class Module:
    """A compiled spec: functions by AST node identity, plus the source and its line map."""

    source: str
    line_spans: dict[int, Any]
    fns: dict[int, Callable[..., Any]] = field(default_factory=dict)
    scans: dict[int, Callable[..., Any]] = field(default_factory=dict)
    filters: dict[tuple, Callable[..., Any]] = field(default_factory=dict)  # (id(cond), var) -> root_filter
    digest: str = ""
    env_names: set[str] = field(default_factory=set)
    keep: list[Any] = field(default_factory=list)  # nodes compiled late: kept alive so their ids stay theirs
    functions: dict[str, Callable[..., Any]] = field(default_factory=dict)  # spec function -> its compiled form
    # effectgen.py's steps by block id and by action name, with the namespace the engine links them in
    # (engine/framescompiled.py), and the frame classes it makes of them
    block_steps: dict[int, Callable[..., Any]] = field(default_factory=dict)
    action_steps: dict[str, Callable[..., Any]] = field(default_factory=dict)
    loop_steps: dict[int, tuple[str, Callable[..., Any]]] = field(default_factory=dict)  # (While, Repeat, For)
    event_steps: dict[str, Callable[..., Any]] = field(default_factory=dict)
    event_frames: dict[str, type] = field(default_factory=dict)
    namespace: dict[str, Any] = field(default_factory=dict)
    block_frames: dict[int, type] = field(default_factory=dict)
    action_frames: dict[str, type] = field(default_factory=dict)

    def late(self, rules: Any, node: A.Node) -> Callable[..., Any]:
        """Compile a node the engine met at run time that was not among the spec's roots."""
        fn = compile_one(rules, node, self.env_names, self.functions)
        self.keep.append(node)
        self.fns[id(node)] = fn
        return fn

    def where(self, lineno: int) -> Any:
        """The rule span that produced a line of the generated source (nearest above)."""
        for n in range(lineno, 0, -1):
            if n in self.line_spans:
                return self.line_spans[n]
        return None


class CodeGen(ExprForms, InlineCalls):
    """Generates Python source for expressions (as Python expressions) and blocks (as statements)."""

    def __init__(self, rules: Any, env_names: set[str]):
        self.rules = rules
        self.env_names = env_names  # names that an env may bind at run time
        self.consts: list[Any] = []
        self.const_ids: dict[Any, str] = {}
        self.lines: list[str] = []
        self.line_spans: dict[int, Any] = {}
        self.counter = 0
        self.scope: list[dict[str, str]] = []  # Python-local bindings (comprehension/trigger variables)
        self.shape_scope: list[dict[str, str | None]] = []  # the same bindings' shapes (see shapes.py)
        self.shapes = Shapes(rules)
        self.piece_attr_names = frozenset(n for kind in rules.kinds.values() for n in kind.defaults)
        self.strict_env = True  # False for nodes compiled later: any name might come from the env
        self.env_free = False  # True inside a spec function's body: its only locals are its parameters
        self.fn_ids: dict[str, str] = {}  # spec function name -> generated Python function
        self.memo_depth: dict[str, int] = {}  # memoisable functions -> their static call nesting
        self.by_clock: set[str] = set()  # memoisable functions the state's version covers (see placebound)
        self.cheap: set[str] = set()  # functions cheaper to work out again than to look up (see cheap)
        self.bool_fns: dict[str, bool] = {}  # spec function -> always returns true/false
        self.bound: set[str] = set()  # effect-level names certainly in `env` at this point of a block
        self.init_inline()

    # ------------------------------------------------------------ plumbing
    def const(self, value: Any, hashable: bool = True) -> str:
        """A generated identifier bound to a constant (spec text never enters the source)."""
        key = None
        if hashable:
            try:
                key = (type(value), value)
                hash(key)
            except TypeError:
                key = None
        if key is not None and key in self.const_ids:
            return self.const_ids[key]
        name = f"K{len(self.consts)}"
        self.consts.append(value)
        if key is not None:
            self.const_ids[key] = name
        return name

    def node_const(self, node: Any) -> str:
        """A constant holding an AST node (for spans, messages and delegated statements)."""
        name = f"N{len(self.consts)}"
        self.consts.append(node)
        return name

    def span(self, node: A.Node) -> str:
        """A constant for a node's span."""
        return self.const(node.span, hashable=False) if node.span is not None else "None"

    def finish(self) -> None:
        """Write what the roots asked for last (typedgen.py: functions specialised to their arguments' types)."""

    def fresh(self, prefix: str) -> str:
        """A new generated identifier."""
        self.counter += 1
        return f"{prefix}{self.counter}"

    def emit(self, indent: int, text: str, node: A.Node | None = None) -> None:
        """Append one line of source, remembering which rule produced it."""
        self.lines.append("    " * indent + text)
        if node is not None and node.span is not None:
            self.line_spans[len(self.lines)] = node.span

    # ------------------------------------------------------------ roots
    def root_expr(self, node: A.Expr) -> str:
        """A function `(it, env) -> value` for an expression; returns its name."""
        fname = self.fresh("e")
        body = self.region_expr(node)
        self.emit(0, f"def {fname}(it, env):  # {_pos(node)}", node)
        self.emit(1, f"return {body}", node)
        self.emit(0, "")
        return fname

    def root_block(self, node: A.Block) -> str:
        """A function `(it, env) -> None` for an effect; returns its name."""
        fname = self.fresh("b")
        self.emit(0, f"def {fname}(it, env):  # {_pos(node)}", node)
        n = len(self.lines)
        self.bound = set()
        self.block(node, 1)
        self.bound = set()
        if len(self.lines) == n:
            self.emit(1, "pass")
        self.emit(0, "")
        return fname

    def root_scan(self, trig: Any) -> str:
        """A function `(it) -> [(env, i)]`: every binding of a state trigger whose condition holds."""
        fname = self.fresh("scan")
        when = trig.when
        self.emit(0, f"def {fname}(it):  # {_pos(when) if when is not None else 'trigger'}", when)
        self.emit(1, "out = []")
        self.emit(1, "env = {}")
        self.emit(1, "it.memo = {}  # nothing changes during a scan: pure functions may remember results")
        self.emit(1, "try:")
        start = len(self.lines)
        if trig.var is None:
            cond = "True" if when is None else f"{self.cond(when)}"
            self.emit(1, f"if {cond}:", when)
            self.emit(2, "out.append((env, 0))")
        else:
            v = self.fresh("v")
            dom = self.expr(trig.domain)
            if not self.known_list(trig.domain, dom):
                dom = f"IT(it, {dom}, {self.const(trig.span, hashable=False)})"
            self.emit(1, f"dom = {dom}", trig.domain)
            self.emit(1, f"for i, {v} in enumerate(dom):")
            self.scope.append({trig.var: v})
            self.shape_scope.append({trig.var: element(self.shape(trig.domain))})
            cond = "True" if when is None else f"{self.cond(when)}"
            self.scope.pop()
            self.shape_scope.pop()
            self.emit(2, f"if {cond}:", when)
            self.emit(3, f"out.append(({{{self.const(trig.var)}: {v}}}, i))")
        for i in range(start, len(self.lines)):
            self.lines[i] = "    " + self.lines[i]
        self.emit(1, "finally:")
        self.emit(2, "it.memo = None")
        self.emit(1, "return out")
        self.emit(0, "")
        return fname

    def root_filter(self, var: str, cond: A.Expr) -> str:
        """A function `(it, env, domain) -> (kept, dropped)`: a menu's domain split by its condition.

        The value under test is a Python local, and the loop is the generated code's own, not one call
        of a tester per value (effects._filter).  Each value is also put in `env` under its name before
        it is tested, as the interpreter's loop does, so a failure leaves `env` as it would.
        """
        fname = self.fresh("w")
        v = self.fresh("v")
        self.emit(0, f"def {fname}(it, env, dom):  # {_pos(cond)}", cond)
        self.emit(1, "kept = []")
        self.emit(1, "dropped = []")
        self.emit(1, f"for {v} in dom:")
        self.emit(2, f"env[{self.const(var)}] = {v}")
        self.scope.append({var: v})
        self.shape_scope.append({var: self.menu_shape(var)})
        try:
            self.emit(2, f"if {self.cond(cond)}:", cond)
        finally:
            self.scope.pop()
            self.shape_scope.pop()
        self.emit(3, f"kept.append({v})")
        self.emit(2, "else:")
        self.emit(3, f"dropped.append({v})")
        self.emit(1, "return kept, dropped")
        self.emit(0, "")
        return fname

    def menu_shape(self, var: str) -> str | None:
        """The shape of a menu's value under test (typedgen.py knows the parameters' types)."""
        return None

    # ------------------------------------------------------------ expressions
    def cond(self, node: A.Expr) -> str:
        """Source of a condition: the value, checked to be true/false unless it always is."""
        if self.always_bool(node):
            return self.expr(node)
        src, span = self.expr(node), self.span(node)
        if _LOCAL.fullmatch(src) or not self.no_walrus:
            # true and false answer themselves; anything else gets TB's error (no call in the common case)
            v = src if _LOCAL.fullmatch(src) else self.fresh("a")
            bind = v if v == src else f"({v} := {src})"
            return f"({bind} is True or ({v} is not False and TB(it, {v}, {span})))"
        return f"TB(it, {src}, {span})"

    def always_bool(self, node: A.Expr) -> bool:
        """True/false by construction: operators, `empty`-like built-ins, and spec functions whose body is."""
        if isinstance(node, A.Call):
            if node.func in self.rules.functions:
                return self.bool_function(node.func)
            return node.func in _BOOL_BUILTINS or _always_bool(node)
        if isinstance(node, A.Cond):
            return self.always_bool(node.then) and self.always_bool(node.else_)
        return _always_bool(node)

    def bool_function(self, name: str) -> bool:
        """Whether a spec function always returns true/false (False while being decided: recursion)."""
        if name not in self.bool_fns:
            self.bool_fns[name] = False
            body = self.rules.functions[name][1]
            self.bool_fns[name] = body is not None and self.always_bool(body)
        return self.bool_fns[name]

    def known_list(self, node: A.Expr, src: str) -> bool:
        """Whether an expression is certainly a list (or fails): a loop goes through it without IT (a list's
        items are the list itself; `players` is the state's list of seats)."""
        shape = self.shape(node)
        return src == SPECIAL_SOURCE["players"] or (shape is not None and shape.startswith("list:"))

    def domain(self, node: A.Expr, src: str) -> tuple[str, str | None]:
        """(the source of the items a comprehension's clause goes through, their shape), `src` the domain's."""
        dom = src if self.known_list(node, src) else f"IT(it, {src}, {self.span(node)})"
        return dom, element(self.shape(node))

    def shape(self, node: A.Expr) -> str | None:
        """The static shape of an expression where it stands (shapes.py)."""
        local: dict[str, str | None] = {}
        for frame in self.shape_scope:
            local.update(frame)
        return self.shapes.of(node, local)

    def nested(self, node: A.Expr, items: str) -> str:
        """A new list's source with the count of nested items the language makes (check_nested), skipped
        where its shape shows that no item is a list or record, and done without a walk for lists of such
        lists."""
        item = element(self.shape(node))
        if is_scalar(item):
            return items
        if item is not None and is_scalar(element(item)):
            return f"NESTF(it, {items}, {self.span(node)})"
        return f"NEST(it, {items}, {self.span(node)})"

    def expr(self, node: A.Expr) -> str:
        """Python source of an expression."""
        visit = getattr(self, f"visit_{type(node).__name__}", None)
        if visit is None:
            raise CompileError(f"no code generator for {type(node).__name__}")
        return visit(node)

    def visit_Literal(self, node: A.Literal) -> str:
        v = node.value
        if v is None or isinstance(v, bool):
            return repr(v)
        if type(v) is int and -(1 << 62) < v < (1 << 62):
            return str(v)
        return self.const(v)

    def visit_Name(self, node: A.Name) -> str:
        for frame in reversed(self.scope):
            if node.id in frame:
                return frame[node.id]
        if node.id in self.bound and not self.env_free:
            return f"env[{self.const(node.id)}]"  # bound by a `let` or loop above: the lookup cannot fail
        glob = self.global_name(node)
        if self.env_free or self.strict_env and node.id not in self.env_names and node.id in self.rules.names:
            return glob
        k = self.const(node.id)
        return f"(env[{k}] if {k} in env else {glob})"

    def global_name(self, node: A.Name) -> str:
        """Source for a spec-level name (as the interpreter resolves it when no local has it)."""
        kind, payload = self.rules.names.get(node.id, (None, None))
        if kind == "special":
            inline = SPECIAL_SOURCE.get(node.id)  # (read in place: no call of the rules' function)
            return inline if inline is not None else f"{self.const(payload, hashable=False)}(it)"
        if kind == "var":
            return f"it.s.vars.get({self.const(node.id)})"
        if kind == "zone":
            from ..core.values import ZoneRef

            return self.const(ZoneRef(node.id))
        if kind in ("table", "kind", "action", "end", "zones", "const"):
            return self.const(payload, hashable=False)
        return f"UNK({self.const(node.id)}, {self.span(node)})"

    def visit_Attr(self, node: A.Attr) -> str:
        top = top_attr_source(self, node)
        return top if top is not None else attr_source(self, node, self.expr(node.obj))

    def visit_Index(self, node: A.Index) -> str:
        return f"IX(it, {self.expr(node.obj)}, {self.expr(node.index)}, {self.node_const(node)})"

    def visit_Call(self, node: A.Call) -> str:
        if node.func in self.rules.functions:
            inlined = self.inline_site(node)  # inline.py: the body written out, or None
            if inlined is not None:
                return inlined
        fid = self.fn_ids.get(node.func)
        if fid is not None and not node.kwargs and len(node.args) == len(self.rules.functions[node.func][0]):
            args = "".join(f", {self.expr(a)}" for a in node.args)
            return f"{fid}(it, {self.span(node)}{args})"
        if node.func in self.rules.functions:
            args = "".join(f"{self.expr(a)}, " for a in node.args)
            kwargs = "".join(f"({self.const(k)}, {self.expr(v)}), " for k, v in node.kwargs)
            return f"CF(it, {self.const(node.func)}, {self.span(node)}, ({args}), ({kwargs}))"
        from ..reference.builtins import REGISTRY

        spec = REGISTRY.get(node.func)
        if spec is None and node.func in self.rules.quantities:  # read by the reference's one function
            args = "".join(f"{self.expr(a)}, " for a in node.args)
            kwargs = "".join(f"({self.const(k)}, {self.expr(v)}), " for k, v in node.kwargs)
            return f"QTY(it, {self.const(node.func)}, {self.span(node)}, ({args}), ({kwargs}))"
        if spec is None:
            return f"UNKF({self.const(node.func)}, {self.span(node)})"
        if (node.func in ("any", "all") and len(node.args) == 1 and not node.kwargs
                and isinstance(node.args[0], A.Comprehension)):
            return self.comprehension(node.args[0], lazy=node.func.upper())
        table = geotables.call_source(self, node, spec.fn)  # fixed board geometry: per-rules tables
        if table is not None:
            return table
        arg_list = [self.expr(a) for a in node.args]
        args = "".join(f"{a}, " for a in arg_list)
        kwargs = ", ".join(f"{self.const(k)}: {kwarg_source(self, node.func, k, v)}" for k, v in node.kwargs)
        allowed = _FAST_KEYWORDS.get(node.func, ())
        keywords = len(node.kwargs) <= 1 and all(k in allowed for k, _ in node.kwargs)
        fast = fastlib.fast_builtin(node.func, spec.fn) if keywords else None
        if fast is not None:
            kw = "".join(f"{k}={self.expr(v)}" for k, v in node.kwargs)
            helper = self.const(fast, hashable=False)
            return builtin_source(self, node, helper, arg_list, f"{helper}(it, {self.span(node)}, {args}{kw})")
        fn = self.const(spec.fn, hashable=False)
        return f"CB(it, {fn}, {self.const(node.func)}, {self.span(node)}, ({args}), {{{kwargs}}})"

    def visit_Unary(self, node: A.Unary) -> str:
        if node.op == "not" and self.always_bool(node.operand):
            return f"(not {self.expr(node.operand)})"
        helper = "NOT" if node.op == "not" else "NEG"
        return f"{helper}(it, {self.expr(node.operand)}, {self.span(node)})"

    def visit_Binary(self, node: A.Binary) -> str:
        op = node.op
        if op in ("and", "or"):
            left = f"{self.cond(node.left)}"
            right = f"{self.cond(node.right)}"
            return f"({left} {op} {right})"
        a, b = self.expr(node.left), self.expr(node.right)
        if op in _COMPARE and self.shape(node.left) == "int" and self.shape(node.right) == "int":
            return f"({a} {op} {b})"  # two numbers (shapes.py): Python's comparison is the language's
        if op in ("==", "!=") and (_none_literal(node.left) or _none_literal(node.right)) \
                and not (isinstance(node.left, A.Literal) and isinstance(node.right, A.Literal)):
            # only none equals none (values_equal): an identity test, the other side evaluated as before
            other = b if _none_literal(node.left) else a
            return f"({other} is {'' if op == '==' else 'not '}None)"
        if op in ("==", "!=") and _plain_literal(node.right) and not _plain_literal(node.left):
            # against a text or a number other than 0 and 1, Python's == is the language's: true/false,
            # lists and records never equal such a literal either way
            return f"({a} {op} {b})"
        if op == "==":
            return f"EQ({a}, {b})"
        if op == "!=":
            return f"(not EQ({a}, {b}))"
        if op == "in":
            return f"IN(it, {a}, {b}, {self.span(node)})"
        if op == "not in":
            return f"(not IN(it, {a}, {b}, {self.span(node)}))"
        return f"{_ARITH_HELPER[op]}(it, {self.node_const(node)}, {a}, {b})"

    def visit_Cond(self, node: A.Cond) -> str:
        test = f"{self.cond(node.test)}"
        return f"({self.expr(node.then)} if {test} else {self.expr(node.else_)})"

    def visit_ListLit(self, node: A.ListLit) -> str:
        items = "[" + "".join(f"{self.expr(x)}, " for x in node.items) + "]"
        return self.nested(node, items)

    def visit_Record(self, node: A.Record) -> str:
        pairs = "".join(f"({self.const(k)}, {self.expr(v)}), " for k, v in node.items)
        return f"NEST(it, REC(({pairs})), {self.span(node)})"

    def visit_Comprehension(self, node: A.Comprehension) -> str:
        return self.comprehension(node)

    def comprehension(self, node: A.Comprehension, lazy: str = "") -> str:
        """A list comprehension, or `lazy` (ANY or ALL) over a generator, ticking like the interpreter."""
        parts = []
        frame: dict[str, str] = {}
        sframe: dict[str, str | None] = {}
        self.scope.append(frame)
        self.shape_scope.append(sframe)
        try:
            for clause in node.clauses:
                self.no_walrus += 1  # Python allows no assignment expression in a comprehension's iterable
                try:
                    it_src = self.expr(clause.iter)
                finally:
                    self.no_walrus -= 1
                dom, sframe[clause.var] = self.domain(clause.iter, it_src)
                v = self.fresh("v")
                frame[clause.var] = v
                tick = f"TK(it, {self.span(clause)})"
                test = "" if clause.cond is None else self.cond(clause.cond)
                cond = tick if clause.cond is None else f"{tick} and {test}"
                parts.append(f"for {v} in {dom} if {cond}")
            elt = self.expr(node.elt)
            at_once = (not lazy and len(node.clauses) == 1 and not self.no_walrus
                       and all(x is None or counts_no_loops(x, self.shape, self.rules.functions)
                               for x in (node.elt, node.clauses[0].cond)))
        finally:
            self.scope.pop()
            self.shape_scope.pop()
        if lazy:
            return f"{lazy}(({elt} {' '.join(parts)}))"
        if at_once:
            # nothing inside counts loop work, so the domain's ticks are counted at once when they all fit
            # (SPENT); if they do not, the ticking loop finds the limit at the same item (the same error)
            d = self.fresh("a")
            fast = f"[{elt} for {v} in {d}{' if ' + test if test else ''}]"
            slow = f"[{elt} for {v} in {d} if {cond}]"
            items = f"({fast} if SPENT(it, ({d} := {dom})) else {slow})"
            return self.nested(node, items)
        return self.nested(node, f"[{elt} {' '.join(parts)}]")

    # ------------------------------------------------------------ statements
    def block(self, node: A.Block | None, indent: int) -> None:
        """Statements of a block at an indentation level."""
        if node is None:
            return
        start = len(self.lines)
        for stmt in node.body:
            self.stmt(stmt, indent)
        if len(self.lines) == start:
            self.emit(indent, "pass")

    def stmt(self, node: A.Stmt, indent: int) -> None:
        """Source for one statement."""
        if isinstance(node, _INLINE) and not (isinstance(node, A.For) and node.chooser):
            getattr(self, f"visit_{type(node).__name__}")(node, indent)
            return
        if isinstance(node, A.Assign) and isinstance(node.target, A.Name):
            self.visit_Assign(node, indent)
            return
        if self.operands(node, indent):
            return
        fn = self.const(EXEC[type(node)], hashable=False)
        self.emit(indent, f"{fn}(it, {self.node_const(node)}, env)  # {_pos(node)}", node)

    def operands(self, node: A.Stmt, indent: int) -> bool:
        """A piece or call statement whose operands are compiled here, in the interpreter's order, and whose
        rest is the interpreter's own function of the values (effects.move_to, create_with...); False for
        a statement left to the interpreter whole (and for a kind or procedure the spec does not have,
        whose error the interpreter raises before evaluating anything)."""
        n, at = self.node_const(node), _pos(node)
        if isinstance(node, A.Move):
            pieces = f"PIECES(it, {self.expr(node.what)}, {self.span(node.what)})"
            self.emit(indent, f"MOVETO(it, {n}, {pieces}, {self.expr(node.dest)})  # {at}", node)
        elif isinstance(node, A.Destroy):
            self.emit(indent, f"DESTROY(it, {n}, {self.expr(node.what)})  # {at}", node)
        elif isinstance(node, A.Assign) and isinstance(node.target, A.Attr):
            self.emit(indent, f"ASSIGNA(it, {n}, {self.expr(node.value)}, {self.expr(node.target.obj)})  # {at}", node)
        elif isinstance(node, A.Create):
            kind = self.rules.kinds.get(node.kind)
            if kind is None or not kind.decl.unlimited:
                return False
            values = "".join(f"{self.expr(v)}, " for _, v in node.attrs.items) if node.attrs is not None else ""
            made = f"CREATE(it, {n}, ({values}), {self.expr(node.dest)})"
            if node.bind:
                self.emit(indent, f"env[{self.const(node.bind)}] = {made}  # {at}", node)
                self.bound.add(node.bind)
            else:
                self.emit(indent, f"{made}  # {at}", node)
        elif isinstance(node, A.CallProc):
            proc = self.rules.procedures.get(node.name)
            if proc is None:
                return False
            items = [(p, a) for p, a in zip(proc[0], node.args)] + list(node.kwargs)
            local = "".join(f"{self.const(k)}: {self.expr(v)}, " for k, v in items)
            self.emit(indent, f"CALLW(it, {n}, {{{local}}})  # {at}", node)
        else:
            return False
        return True

    def visit_Let(self, node: A.Let, indent: int) -> None:
        self.emit(indent, f"env[{self.const(node.name)}] = {self.expr(node.value)}  # {_pos(node)}", node)
        self.bound.add(node.name)  # the env is flat per effect: the name stays bound to the effect's end

    def nested_block(self, node: A.Block | None, indent: int, binds: tuple[str, ...] = ()) -> None:
        """A block that may run or not (a branch, a loop body): what it binds is certain only inside it."""
        before = set(self.bound)
        self.bound.update(binds)
        self.block(node, indent)
        self.bound = before

    def visit_Assign(self, node: A.Assign, indent: int) -> None:
        """`NAME op= value`: a local name in place, else the spec variable (effects.assign_global)."""
        value, key, n = self.fresh("val"), self.const(node.target.id), self.node_const(node)
        self.emit(indent, f"{value} = {self.expr(node.value)}  # {_pos(node)}", node)
        if node.target.id in self.bound:  # certainly a local name: no spec variable to fall back to
            self.set_local(indent, node, key, n, value)
            return
        self.emit(indent, f"if {key} in env:")
        self.set_local(indent + 1, node, key, n, value)
        self.emit(indent, "else:")
        self.emit(indent + 1, f"SETG(it, {n}, {value})")

    def set_local(self, indent: int, node: A.Assign, key: str, n: str, value: str) -> None:
        """`NAME op= value` on the effect's local name (in `env`), combined as effects._combine combines."""
        new = value if node.op == "=" else f"CMB(it, {n}, env[{key}], {value})"
        self.emit(indent, f"env[{key}] = {new}")

    def visit_If(self, node: A.If, indent: int) -> None:
        for i, (cond, body) in enumerate(node.branches):
            kw = "if" if i == 0 else "elif"
            self.emit(indent, f"{kw} {self.cond(cond)}:  # {_pos(cond)}", cond)
            self.nested_block(body, indent + 1)
        if node.else_ is not None:
            self.emit(indent, "else:")
            self.nested_block(node.else_, indent + 1)

    def visit_For(self, node: A.For, indent: int) -> None:
        items = self.fresh("items")
        v = self.fresh("v")
        key = self.const(node.var)
        self.emit(indent, f"{items} = list(IT(it, {self.expr(node.iter)}, {self.span(node.iter)}))  "
                          f"# {_pos(node)}", node)
        if node.cond is not None:
            kept = self.fresh("kept")
            self.emit(indent, f"{kept} = []")
            before = ordergen.bind_each(self, indent, items, key, node.var, v)
            self.emit(indent + 1, f"if {self.cond(node.cond)}:", node.cond)
            self.bound = before
            self.emit(indent + 2, f"{kept}.append({v})")
            items = kept
        if node.order_key is not None:
            items = ordergen.ordered_items(self, node, items, key, indent)
        self.emit(indent, f"for {v} in {items}:")
        self.emit(indent + 1, f"TK(it, {self.span(node)})")
        self.emit(indent + 1, f"env[{key}] = {v}")
        self.nested_block(node.body, indent + 1, (node.var,))

    def visit_While(self, node: A.While, indent: int) -> None:
        self.emit(indent, f"while {self.cond(node.cond)}:  # {_pos(node)}", node)
        self.emit(indent + 1, f"TK(it, {self.span(node)})")
        self.nested_block(node.body, indent + 1)

    def visit_Repeat(self, node: A.Repeat, indent: int) -> None:
        self.emit(indent, f"for _ in range(RPT(it, {self.expr(node.count)}, {self.span(node.count)})):  "
                          f"# {_pos(node)}", node)
        self.emit(indent + 1, f"TK(it, {self.span(node)})")
        self.nested_block(node.body, indent + 1)

    def visit_Require(self, node: A.Require, indent: int) -> None:
        self.emit(indent, f"if not {self.cond(node.cond)}:  # {_pos(node)}", node)
        self.emit(indent + 1, f"REQ(it, {self.node_const(node)}, env)")

    def visit_Say(self, node: A.Say, indent: int) -> None:
        # as effects._say: built only when narrating, on a loop budget of its own, an error told in the line
        self.emit(indent, f"if it.narrate:  # {_pos(node)}", node)
        self.emit(indent + 1, "sv_ = it.loops", node)
        self.emit(indent + 1, "it.loops = 0", node)
        self.emit(indent + 1, "try:", node)
        self.emit(indent + 2, f"SAY(it, {self.expr(node.message)})", node)
        self.emit(indent + 1, "except OERR as failed_:", node)
        self.emit(indent + 2, "SAYX(it, failed_)", node)
        self.emit(indent + 1, "finally:", node)
        self.emit(indent + 2, "it.loops = sv_", node)


_FAST_KEYWORDS = {"pieces": ("kind",), "distance": ("metric",)}  # the keyword a fast built-in takes as one
_LOCAL = re.compile(r"[av][0-9]+")  # the generated names of parameters and comprehension variables

_BOOL_OPS = {"==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or"}
_COMPARE = frozenset({"==", "!=", "<", "<=", ">", ">="})
_ARITH_HELPER = {"+": "ADD", "-": "SUB", "<": "LT", "<=": "LE", ">": "GT", ">=": "GE", "*": "AR", "//": "AR",
                 "%": "AR"}


def _none_literal(node: A.Expr) -> bool:
    """The literal `none`."""
    return isinstance(node, A.Literal) and node.value is None


def _plain_literal(node: A.Expr) -> bool:
    """A text literal, or an integer literal other than 0 and 1 (which true and false equal in Python)."""
    if not isinstance(node, A.Literal):
        return False
    v = node.value
    return type(v) is str or (type(v) is int and v not in (0, 1))


# Built-ins that return true or false (or raise): builtins.empty, in_bounds, any, all.
_BOOL_BUILTINS = frozenset({"empty", "in_bounds", "any", "all"})


def _always_bool(node: A.Expr) -> bool:
    """Expressions whose value is true or false by construction (no truth check needed)."""
    if isinstance(node, A.Binary):
        return node.op in _BOOL_OPS
    if isinstance(node, A.Unary):
        return node.op == "not"
    if isinstance(node, A.Literal):
        return isinstance(node.value, bool)
    if isinstance(node, A.Call):
        return (node.func in ("any", "all") and len(node.args) == 1 and not node.kwargs
                and isinstance(node.args[0], A.Comprehension))
    return False


def _pos(node: Any) -> str:
    """A generated comment: only numbers from the span, never spec text."""
    span = getattr(node, "span", None)
    if span is None:
        return "?"
    return f"line {int(span.line)} col {int(span.col)}"


# ---------------------------------------------------------------- building


def compile_rules(rules: Any, generator: Callable[[Any, set[str]], "CodeGen"] | None = None) -> Module:
    """Generate, compile (cached by source hash) and link the fast path for a spec: by `generator(rules,
    env_names)` (typedgen.compile_typed: the typed generator), else the general code everywhere."""
    return build(generate(rules, generator))


def build(r: Recipe) -> Module:
    """Compile (cached by source hash) and link a recipe: the Module the engine runs."""
    ns = _link(r.source, r.consts)
    module = Module(r.source, r.line_spans, digest=r.digest, env_names=r.env_names, namespace=ns, keep=list(r.keep))
    module.block_steps = {id(node): ns[fname] for node, fname in r.by_block}
    module.action_steps = {key: ns[fname] for key, fname in r.by_action.items()}
    module.loop_steps = {id(node): (kind, ns[fname]) for node, (kind, fname) in r.by_loop}
    module.event_steps = {key: ns[fname] for key, fname in r.by_event.items()}
    for key, what, fname in r.names:
        if what == "fn":
            module.fns[id(key)] = ns[fname]
        elif what == "scan":
            module.scans[key] = ns[fname]
        else:
            module.filters[(id(key[0]), key[1])] = ns[fname]
    module.functions = {n: ns[fid] for n, fid in r.fn_ids.items()}
    return module


def generate(rules: Any, generator: Callable[[Any, set[str]], "CodeGen"] | None = None) -> Recipe:
    """The fast path's source, constants and tables of a spec (recipe.build links them into a Module)."""
    env_names = env_bound_names(rules)
    gen = (generator or CodeGen)(rules, env_names)
    exprs, blocks, triggers = roots(rules)
    names: list[tuple[Any, str, str]] = []
    functions = [(n, p, b) for n, (p, b) in sorted(rules.functions.items()) if b is not None]
    gen.fn_ids.update((n, gen.fresh("f")) for n, _, _ in functions)
    gen.memo_depth = memoisable(rules)
    gen.by_clock = placebound(rules, gen.memo_depth)
    gen.cheap = cheap(rules)
    gen.set_inlining(gen.cheap)
    for n, params, body in functions:
        gen.root_function(n, list(params), body)
    for e in exprs:
        names.append((e, "fn", gen.root_expr(e)))
    for b in blocks:
        names.append((b, "fn", gen.root_block(b)))
    for i, t in enumerate(triggers):
        names.append((i, "scan", gen.root_scan(t)))
    for var, cond in filters(rules, blocks):
        names.append(((cond, var), "filter", gen.root_filter(var, cond)))
    by_block, by_loop, by_action, by_event, asking = frame_steps(gen, rules, suspends_of(rules))
    gen.finish()
    nodes = {id(n): n for n in blocks + asking}
    return Recipe("\n".join(gen.lines) + "\n", gen.consts, gen.line_spans, rules.spec.digest, env_names, names,
                  [(nodes[k], f) for k, f in by_block.items()], [(nodes[k], kf) for k, kf in by_loop.items()],
                  by_action, by_event, dict(gen.fn_ids), exprs + blocks + asking)


def compile_one(rules: Any, node: A.Node, env_names: set[str],
                functions: dict[str, Callable[..., Any]] | None = None) -> Callable[..., Any]:
    """Compile one node met at run time that was not a known root (e.g. a scenario's expectation, the
    conditions and runs of an effect that asks): its calls of spec functions call the spec module's
    compiled functions (`functions`), as the module's own code does, not the general call helper."""
    gen = CodeGen(rules, env_names)
    gen.strict_env = False
    linked = {f"F{i}": fn for i, fn in enumerate((functions or {}).values())}
    gen.fn_ids = {n: f"F{i}" for i, n in enumerate((functions or {}).keys())}
    fname = gen.root_block(node) if isinstance(node, A.Block) else gen.root_expr(node)
    return _link("\n".join(gen.lines) + "\n", gen.consts, linked)[fname]


def _link(source: str, consts: list[Any], linked: dict[str, Callable[..., Any]] | None = None) -> dict[str, Any]:
    ns: dict[str, Any] = {"__builtins__": {"list": list, "range": range, "enumerate": enumerate,
                                           "TypeError": TypeError}}
    ns.update(typedlib.HELPERS)
    ns.update(linked or {})
    ns.update(fastlib.HELPERS)
    ns.update(EXPR_HELPERS)
    ns["CMB"], ns["SETG"], ns["QTY"] = combine, assign_global, read_quantity
    ns.update(MOVETO=move_to, DESTROY=destroy, ASSIGNA=assign_attr, CREATE=create_with, CALLW=call_with)
    ns["UNKF"] = _unknown_function
    for i, value in enumerate(consts):
        if value.__class__ is SiteOf:
            value = id(value.node)
        ns[f"K{i}"] = value
        ns[f"N{i}"] = value
    return link(source, "compiled", ns)


def _unknown_function(name: str, span: Any) -> Any:
    from ..core.decisions import RuleError

    raise RuleError(f"unknown function '{name}'", span)
