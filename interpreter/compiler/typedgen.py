"""The typed code generator: today's generator (codegen.py) with the types of the type pass (typepass.py).

Where the pass knows the types of the values an expression works on, the generated code needs no class
check and no general helper: `a == b` of two numbers is Python's `==`, `a + b` is Python's `+` with the
size check inline, `empty(c)` of a cell reads the cell's pieces, `top(c).owner` reads the top piece's
attribute, `neighbor(c, "N")` of a cell is one lookup in a table made when the module is generated.  Where it
does not, the generator writes what codegen.py writes (its `visit_` methods are the fallback), so a
construct the pass does not know still compiles, untyped.  The rare paths (an error, a number grown past
the size the checks skip, a text past a limit) call the same helpers as before, which raise the same errors
at the same places: the typed code plays exactly the games the general code plays.

Types also reach the general generator's own decisions: the shapes it reads (shapes.py) come from the pass
too (`TypedShapes`), so comparisons of numbers, lists of plain values and the like take its short paths more
often.
"""

from __future__ import annotations

import re
from typing import Any

from orrery.rulespec import ast as A

from . import modcache
from .codegen import CodeGen, Module, build, generate
from . import typepass as T
from .typepass import ANY, BOOL, CELL, INT, NEVER, NONE, PIECE, PLAYER, STR, ZONE
from .typedlib import constant_of, adjacent_table, coords_table, board_cells, direction_table, direction_tables, label_table, lines_table, neighbor_table
from .typedstmts import TypedStatements

_LOCAL = re.compile(r"[av][0-9]+|K[0-9]+|-?[0-9]+|None|True|False")  # sources read twice for free
_EQUALS = {"==": "==", "!=": "!="}
_ORDER = {"<", "<=", ">", ">="}
_BIG = 1 << 60  # fastlib._BIG: smaller sums need none of the interpreter's size checks


class _NoWalrus(Exception):
    """A typed form needs a local where Python allows no assignment expression (a comprehension's iterable)."""


class TypedShapes:
    """The shapes codegen.py reads (shapes.py's vocabulary), from the type pass where it knows more."""

    def __init__(self, gen: "TypedGen", old: Any):
        self.gen, self.old = gen, old

    def of(self, node: A.Expr, local: dict) -> str | None:
        t = self.gen.typeof(node, local)
        if t not in (ANY, NEVER) and ANY not in t.split(":"):
            return t
        old = self.old.of(node, local)
        return old if old is not None or t in (ANY, NEVER) else t

    def __getattr__(self, name: str) -> Any:
        return getattr(self.old, name)


class TypedGen(TypedStatements, CodeGen):
    """CodeGen whose visitors write native code where the type pass knows the types (see the module doc)."""

    def __init__(self, rules: Any, env_names: set[str], types: T.TypePass):
        super().__init__(rules, env_names)
        self.tp = types
        self.shapes = TypedShapes(self, self.shapes)
        self.fixed = _fixed_boards(rules)  # every board is a bounded grid or graph shared by all players
        self.grids_only = all(z.decl.type == "grid" for z in rules.zones.values() if z.is_board)
        self.capacities = any(z.decl.capacity is not None for z in rules.zones.values())
        # attributes every piece kind declares: a piece's attribute dict always holds them
        kinds = list(rules.kinds.values())
        self.everywhere = set(kinds[0].defaults).intersection(*(k.defaults for k in kinds[1:])) if kinds else set()
        # nodes whose values' types the pass knew but that were written with the general code, as
        # (what, where): tests/test_typedgen.py holds the classic games to none
        self.misses: list[tuple[str, str]] = []
        self.declared = {n for k in kinds for n in k.defaults}  # attributes some kind declares
        self.specs: dict[tuple, str] = {}  # (function, argument types) -> its specialised Python function
        self.pending: list[tuple[str, tuple, str]] = []
        self.spec_types: dict[str, str] | None = None  # the parameters' types of the function being written

    # ------------------------------------------------------------ functions specialised to their arguments
    def visit_Call(self, node: A.Call) -> str:
        if node.func in self.rules.functions:
            return self.spec_call(node)
        if not node.kwargs or node.func == "pieces":
            try:
                typed = self.typed_builtin(node) if not node.kwargs else self.pieces_of_kind(node)
            except _NoWalrus:
                typed = None
            if typed is not None:
                return typed
        if not self.no_walrus:
            self.missed(node, f"{node.func}()", *[self.typeof(a) for a in node.args])
        return super().visit_Call(node)

    def spec_call(self, node: A.Call) -> str:
        """A call of a spec function: of its version specialised to the arguments' types, where some is known."""
        params = self.rules.functions[node.func][0]
        if node.kwargs or len(node.args) != len(params) or node.func not in self.fn_ids:
            return super().visit_Call(node)
        types = tuple(self.typeof(a) for a in node.args)
        if all(t == ANY for t in types):
            return super().visit_Call(node)
        key = (node.func, types)
        fid = self.specs.get(key)
        if fid is None:
            fid = self.specs[key] = self.fresh("f")
            self.pending.append((node.func, types, fid))
        saved = self.fn_ids[node.func]
        self.fn_ids[node.func] = fid
        try:
            return super().visit_Call(node)
        finally:
            self.fn_ids[node.func] = saved

    def menu_shape(self, var: str) -> str | None:
        t = self.tp.env.get(var, ANY)  # a parameter's or choice's values: the type pass joined them
        return None if t in (ANY, NEVER) else t

    def param_shapes(self, params: list[str]) -> dict[str, str | None]:
        if self.spec_types is None:
            return super().param_shapes(params)
        return {p: self.spec_types.get(p) for p in params}

    def finish(self) -> None:
        """Write the specialised functions the code asked for (each may ask for more)."""
        while self.pending:
            name, types, fid = self.pending.pop(0)
            params, body = self.rules.functions[name]
            saved = self.fn_ids[name], self.spec_types
            self.fn_ids[name], self.spec_types = fid, dict(zip(params, types))
            try:
                self.root_function(name, list(params), body)
            finally:
                self.fn_ids[name], self.spec_types = saved

    # ------------------------------------------------------------ types where the code stands
    def typeof(self, node: A.Expr, local: dict | None = None) -> str:
        """The type of an expression at the point being generated (`any` when unknown)."""
        t = self.tp.of(node, self.scope_types(local))
        return ANY if t == NEVER else t

    def scope_types(self, local: dict | None = None, bound: bool = True) -> dict[str, str]:
        """The local names' types where the code stands (the generator's shapes; `bound`: with the env names
        certainly bound here, as the type pass has them), for the type pass's `of`."""
        if local is None:
            local = {}
            for frame in self.shape_scope:
                local.update(frame)
        known = {k: (ANY if v is None or v == "flat" else v) for k, v in local.items()}
        if self.env_free:
            known[T.FUNCTION_BODY] = NEVER
        elif bound:
            for name in self.bound:
                known.setdefault(name, self.tp.env.get(name, ANY) or ANY)
        return known

    def narrowing(self, cond: A.Expr) -> dict[str, str]:
        """The names `cond` shows are not none where it holds (to push while generating what it guards)."""
        local: dict = {}
        for frame in self.shape_scope:
            local.update(frame)
        before = {k: self.typeof(A.Name(span=cond.span, id=k)) for k in _tested_names(cond)}
        out = {}
        for name, t in before.items():
            if T.optional(t) and t not in (ANY, NONE):
                out[name] = T.strip(t)
        # only names tested `!= none` on the left of an `and` chain (typepass.narrowed)
        allowed = T.narrowed(cond, {k: v for k, v in before.items()}, self.tp)
        return {k: v for k, v in out.items() if allowed.get(k) == v}

    def narrowed_expr(self, cond: A.Expr, node: A.Expr, *, as_cond: bool = False) -> str:
        """`node`'s source where `cond` holds."""
        frame = self.narrowing(cond)
        self.shape_scope.append(frame)
        try:
            return self.cond(node) if as_cond else self.expr(node)
        finally:
            self.shape_scope.pop()

    def missed(self, node: A.Node, what: str, *types: str) -> None:
        """Record a general form written for values of known types (when every type given is known)."""
        if all(t not in (ANY, NEVER) for t in types) and not self.plain:
            self.misses.append((f"{what} ({', '.join(types)})", _pos(node)))

    def bind(self, src: str) -> tuple[str, str]:
        """(a source to evaluate once, the name to read it by): a local or constant as it is, else a fresh local
        bound by an assignment expression (the first returned source binds it; where Python allows none, in a
        comprehension's iterable, _NoWalrus: the caller writes the general code)."""
        if _LOCAL.fullmatch(src):
            return src, src
        if self.no_walrus:
            raise _NoWalrus()
        v = self.fresh("a")
        return f"({v} := {src})", v

    def domain(self, node: A.Expr, src: str) -> tuple[str, str | None]:
        """A pieces zone's pieces (typepass.piece_zone) are read from the state without IT's class checks."""
        if self.piece_zone(node) is not None:
            return f"T_PIECES(it, {src})", PIECE
        return super().domain(node, src)

    def piece_zone(self, node: A.Expr) -> str | None:
        """The zone that is not a board `node` always names (typepass.piece_zone), where the code stands."""
        return self.tp.piece_zone(node, self.scope_types())

    # ------------------------------------------------------------ names
    def global_name(self, node: A.Name) -> str:
        """A spec variable nothing assigns, with a literal start, is that value (typepass.constants)."""
        if node.id in self.tp.constants:
            value = self.tp.constants[node.id]
            if value is None or isinstance(value, bool) or (type(value) is int and abs(value) < _BIG):
                return repr(value)
            return self.const(value, hashable=not isinstance(value, list))
        return super().global_name(node)

    def constant_text(self, node: A.Expr) -> tuple[str, int] | None:
        """(the text, the loop ticks its making charges) of a text known when the code is generated: a text
        literal (none), or `text()` of a literal or a constant variable (its length, as builtins.text charges)."""
        if isinstance(node, A.Literal) and type(node.value) is str:
            return node.value, 0
        if (isinstance(node, A.Call) and node.func == "text" and node.func not in self.rules.functions
                and len(node.args) == 1 and not node.kwargs):
            value = self.constant(self.expr(node.args[0]))
            if value.__class__ in (int, str):
                shown = str(value)
                return shown, len(shown)
        return None

    def nested(self, node: A.Expr, items: str) -> str:
        """A new list's items need no count of nested items where the pass knows none is a list or a record."""
        t = self.typeof(node)
        if T.is_list(t) and (T.elem(t) == NEVER or T.scalar(T.elem(t)) or T.strip(T.elem(t)) == BOOL):
            return items
        return super().nested(node, items)

    # ------------------------------------------------------------ conditions
    def always_bool(self, node: A.Expr) -> bool:
        return self.typeof(node) == BOOL or super().always_bool(node)

    # ------------------------------------------------------------ operators
    def visit_Binary(self, node: A.Binary) -> str:
        op = node.op
        if op == "and":
            return f"({self.cond(node.left)} and {self.narrowed_expr(node.left, node.right, as_cond=True)})"
        if op in ("==", "!=") and not _none_literal(node.left) and not _none_literal(node.right):
            lt, rt = self.typeof(node.left), self.typeof(node.right)
            if _native_equal(lt, rt) or _only_its_kind(lt) or _only_its_kind(rt):
                return f"({self.expr(node.left)} {op} {self.expr(node.right)})"
        if op in _ORDER:
            lt, rt = self.typeof(node.left), self.typeof(node.right)
            if (T.numeric(lt) and T.numeric(rt)) or lt == rt == STR:
                return f"({self.expr(node.left)} {op} {self.expr(node.right)})"
        if op in ("+", "-") and not self.no_walrus:
            lt, rt = self.typeof(node.left), self.typeof(node.right)
            if T.numeric(lt) and T.numeric(rt):
                return self.checked_arith(node)
            if op == "+" and lt == rt == STR:
                return f"T_JOIN(it, {self.node_const(node)}, {self.expr(node.left)}, {self.expr(node.right)})"
        if op in ("*", "//", "%") and not self.no_walrus and T.numeric(self.typeof(node.left)) \
                and T.numeric(self.typeof(node.right)):
            return self.checked_product(node)
        if op in ("in", "not in") and not self.no_walrus:
            lt, rt = self.typeof(node.left), self.typeof(node.right)
            if T.strip(lt) in (CELL, PIECE, T.BPIECE, ZONE, STR) and not T.optional(lt) and T.is_list(T.strip(rt)):
                if T.is_list(rt):
                    return f"({self.expr(node.left)} {op} {self.expr(node.right)})"
                a_src, a = self.bind(self.expr(node.left))
                c_src, c = self.bind(self.expr(node.right))
                general = f"XIN(it, {a}, {c}, {self.span(node)})"
                general = general if op == "in" else f"(not {general})"
                return f"(({a} {op} {c}) if ({a_src}, {c_src})[1] is not None else {general})"
            if T.numeric(lt) and T.is_list(rt) and T.elem(rt) in (INT, PLAYER, NEVER):
                return f"({self.expr(node.left)} {op} {self.expr(node.right)})"  # (no true/false to equal 1)
        if op not in ("and", "or") and not _none_literal(node.left) and not _none_literal(node.right):
            self.missed(node, f"'{op}'", self.typeof(node.left), self.typeof(node.right))
        return super().visit_Binary(node)

    def checked_arith(self, node: A.Binary) -> str:
        """`a + b` / `a - b` of two numbers: Python's, with the interpreter's size checks only past 2**60 (two
        numbers written in the rules: the result, worked out now)."""
        a_src, a = self.bind(self.expr(node.left))
        b_src, b = self.bind(self.expr(node.right))
        x, y = self.constant(a_src), self.constant(b_src)
        if type(x) is int and type(y) is int:
            r = x + y if node.op == "+" else x - y
            if -_BIG < r < _BIG:
                return repr(r)
        r = self.fresh("a")
        helper = "ADD" if node.op == "+" else "SUB"
        return (f"({r} if -{_BIG} < ({r} := {a_src} {node.op} {b_src}) < {_BIG} "
                f"else X{helper}(it, {self.node_const(node)}, {a}, {b}))")

    def checked_product(self, node: A.Binary) -> str:
        """`a * b`, `a // b`, `a % b` of two numbers: Python's (the language's `//` and `%` are Python's), with
        the interpreter's size check only past 2**60 and its division by zero left to it (XAR: the same error)."""
        a_src, a = self.bind(self.expr(node.left))
        b_src, b = self.bind(self.expr(node.right))
        general = f"XAR(it, {self.node_const(node)}, {a}, {b})"
        if node.op == "*":
            r = self.fresh("a")
            return f"({r} if -{_BIG} < ({r} := {a_src} * {b_src}) < {_BIG} else {general})"
        y = self.constant(b_src)
        if type(y) is int and y != 0:
            return f"({a_src} {node.op} {b})"
        both = f"({a_src}, {b_src})[1]" if a_src != a else b_src
        return f"({a} {node.op} {b} if {both} != 0 else {general})"

    def visit_Unary(self, node: A.Unary) -> str:
        t = self.typeof(node.operand)
        if node.op == "not" and t == BOOL:
            return f"(not {self.expr(node.operand)})"
        if node.op == "-" and t == INT:
            return f"(-{self.expr(node.operand)})"
        if not (node.op == "not" and super().always_bool(node.operand)):
            self.missed(node, f"'{node.op}'", t)
        return super().visit_Unary(node)

    def visit_Cond(self, node: A.Cond) -> str:
        test = self.cond(node.test)
        return f"({self.narrowed_expr(node.test, node.then)} if {test} else {self.expr(node.else_)})"

    def visit_Index(self, node: A.Index) -> str:
        obj_t, key_t = self.typeof(node.obj), self.typeof(node.index)
        if not self.no_walrus and T.is_list(obj_t) and key_t == INT:
            o_src, o = self.bind(self.expr(node.obj))
            k_src, k = self.bind(self.expr(node.index))
            return f"({o}[{k}] if -LEN({o_src}) <= {k_src} < LEN({o}) else XIX(it, {o}, {k}, {self.node_const(node)}))"
        if obj_t == T.TABLE:
            return f"{self.expr(node.obj)}.lookup({self.expr(node.index)}, {self.span(node)})"
        self.missed(node, "index", obj_t, key_t)
        return super().visit_Index(node)

    # ------------------------------------------------------------ attributes
    def visit_Attr(self, node: A.Attr) -> str:
        if self.no_walrus:
            # (where Python allows no assignment expression: a player's zone of a local, else the general code)
            if self.typeof(node.obj) == PLAYER and node.name in self.rules.player_zone_names \
                    and node.name not in self.rules.player_var_names and _LOCAL.fullmatch(src := self.expr(node.obj)):
                k = self.const(node.name)
                return f"(ZONE_REF(({k}, {src})) or XGA(it, {src}, {k}, {self.span(node)}))"
            return super().visit_Attr(node)
        obj_t = self.typeof(node.obj)
        name = node.name
        if isinstance(node.obj, A.Call) and node.obj.func == "top" and node.obj.func not in self.rules.functions \
                and len(node.obj.args) == 1 and not node.obj.kwargs and self.typeof(node.obj.args[0]) == CELL \
                and name in self.everywhere:
            ids = self.fresh("a")
            return (f"(it.s.attrs[{ids}[-1]][{self.const(name)}] if ({ids} := it.s.places.get("
                    f"{self.expr(node.obj.args[0])})) else XGA(it, None, {self.const(name)}, {self.span(node)}))")
        if name in ("width", "height") and obj_t == ZONE and self.zone_named(node.obj):
            extent = self.tp.extent(node, self.scope_types())
            if extent is not None:
                return repr(extent)  # (a bounded grid's, known now)
        if obj_t == CELL and name in ("x", "y") and self.grids_only:
            return f"{self.expr(node.obj)}.pos[{0 if name == 'x' else 1}]"
        if T.is_piece(obj_t) and name in self.everywhere:
            return f"it.s.attrs[{self.expr(node.obj)}.id][{self.const(name)}]"
        if obj_t == T.BPIECE and name in ("cell", "place") and name not in self.declared:
            return f"it.s.loc[{self.expr(node.obj)}.id]"
        if T.optional(obj_t) and T.is_piece(T.strip(obj_t)) and name in self.everywhere:
            src, o = self.bind(self.expr(node.obj))
            k = self.const(name)
            return f"(it.s.attrs[{o}.id][{k}] if {src} is not None else XGA(it, None, {k}, {self.span(node)}))"
        if T.is_piece(T.strip(obj_t)) and name in self.declared and name not in ("cell", "place"):
            # an attribute some kinds declare: read from the piece's dict where its kind has it (no class test);
            # none, or a kind without it, goes to get_attr (its value or its error)
            src, o = self.bind(self.expr(node.obj))
            d, k = self.fresh("a"), self.const(name)
            test = f"{k} in ({d} := it.s.attrs[{src}.id])"
            if T.optional(obj_t):
                test = f"{src} is not None and {k} in ({d} := it.s.attrs[{o}.id])"
            return f"({d}[{k}] if {test} else XGA(it, {o}, {k}, {self.span(node)}))"
        if obj_t == PLAYER and name in self.rules.player_var_names:
            return f"it.s.pvars[{self.expr(node.obj)}].get({self.const(name)})"
        if obj_t == PLAYER and name in self.rules.player_zone_names:
            # a player's zone: its interned reference (never false), made by get_attr the first time
            src, o = self.bind(self.expr(node.obj))
            k = self.const(name)
            return f"(ZONE_REF(({k}, {src})) or XGA(it, {o}, {k}, {self.span(node)}))"
        if obj_t == PLAYER and name == "seat":
            return f"INT({self.expr(node.obj)})"
        self.missed(node, f"attribute '{name}'", obj_t)
        return super().visit_Attr(node)

    # ------------------------------------------------------------ calls
    def typed_builtin(self, node: A.Call) -> str | None:
        """A built-in's call written out for arguments of known types, or None.  A cell argument that may be
        none is tested once: none goes to the built-in, which says what is wrong."""
        f, args = node.func, node.args
        types = [self.typeof(a) for a in args]
        first = types[0] if types else ANY
        if (first == T.maybe(CELL) and f in ("empty", "top", "neighbor", "count", "size", "text", "adjacent", "direction")
                or T.optional(first) and T.is_list(T.strip(first)) and f in ("len", "count", "sorted")):
            src, x = self.bind(self.expr(args[0]))
            typed = self.typed_builtin_of(node, [T.strip(first)] + types[1:], x)
            if typed is None:
                return None
            general = self.general_call(node, x)
            return f"({typed} if {src} is not None else {general})"
        return self.typed_builtin_of(node, types, None)

    def general_call(self, node: A.Call, first: str) -> str:
        """The built-in called as the general code calls it, its first argument already evaluated (`first`)."""
        return self.general_call_with(node, [first] + [self.expr(a) for a in node.args[1:]])

    def general_call_with(self, node: A.Call, args: list[str]) -> str:
        """The built-in called as the general code calls it, with these sources as its arguments."""
        from ..reference.builtins import REGISTRY

        fn = self.const(REGISTRY[node.func].fn, hashable=False)
        return f"XCB(it, {fn}, {self.const(node.func)}, {self.span(node)}, ({''.join(a + ', ' for a in args)}), {{}})"

    def place_of_kind(self, node: A.Call) -> str | None:
        """`pieces(P, kind: K)` of the built-in, K a text written in the rules and P a cell (`cell`), maybe none
        (`?cell`) or a zone that is not a board (`zone`); else None."""
        if (node.func != "pieces" or node.func in self.rules.functions or len(node.args) != 1
                or len(node.kwargs) != 1 or node.kwargs[0][0] != "kind"):
            return None
        kind = node.kwargs[0][1]
        if not (isinstance(kind, A.Literal) and type(kind.value) is str):
            return None
        t = self.typeof(node.args[0])
        if t in (CELL, T.maybe(CELL)):
            return t
        return ZONE if t == ZONE and self.piece_zone(node.args[0]) is not None else None

    def pieces_of_kind(self, node: A.Call, count: bool = False) -> str | None:
        """`pieces(P, kind: K)` (place_of_kind) read from the state (`count`: `count()` of it, no list made); a
        cell that is none goes to the built-in (its error)."""
        place = self.place_of_kind(node)
        if place is None:
            return None
        k = self.const(node.kwargs[0][1].value)
        helper = "T_COUNT_KIND" if count else "T_PIECES_KIND"
        if place != T.maybe(CELL):
            return f"{helper}(it, {self.expr(node.args[0])}, {k})"
        src, x = self.bind(self.expr(node.args[0]))
        from ..reference.builtins import REGISTRY

        fn = self.const(REGISTRY["pieces"].fn, hashable=False)
        general = f"XCB(it, {fn}, {self.const('pieces')}, {self.span(node)}, ({x}, ), {{{self.const('kind')}: {k}}})"
        if count:
            general = f"LEN({general})"
        return f"({helper}(it, {x}, {k}) if {src} is not None else {general})"

    def typed_builtin_of(self, node: A.Call, types: list[str], first: str | None) -> str | None:
        """typed_builtin for these argument types; `first`: the first argument's source, already bound."""
        f, args = node.func, node.args
        if f in ("any", "all") and len(args) == 1 and isinstance(args[0], A.Comprehension):
            return self.any_all(node)
        if f == "cells" and types == [ZONE] and self.fixed and self.zone_named(args[0]):
            return self.const(board_cells(self.rules, args[0].id), hashable=False)
        if f == "lines" and types == [ZONE, INT] and self.fixed and self.zone_named(args[0]):
            n = self.constant(self.expr(args[1]))
            runs = lines_table(self.rules, args[0].id, n) if type(n) is int and n > 0 else None
            if runs is not None:
                general = self.general_call_with(node, [self.expr(args[0]), repr(n)])
                return f"({self.const(runs[0], hashable=False)} if T_BUILT(it, {runs[1]}) else {general})"
        if f == "count" and len(args) == 1 and isinstance(args[0], A.Call) and args[0].func == "pieces" \
                and args[0].kwargs and self.place_of_kind(args[0]) is not None:
            return self.pieces_of_kind(args[0], count=True)
        x = first if first is not None else (self.expr(args[0]) if args else "")
        if f == "pieces" and len(args) == 1 and (types == [CELL] or self.piece_zone(args[0]) is not None):
            return f"T_PIECES(it, {x})"
        if f in ("count", "size") and len(args) == 1 and types == [ZONE] and self.piece_zone(args[0]) is not None:
            return f"LEN(it.s.places.get({x}) or ())"
        if f in ("first", "last") and len(types) == 1 and T.is_list(types[0]):
            src, v = self.bind(x)
            return f"({v}[{0 if f == 'first' else -1}] if {src} else None)"
        if f == "empty" and types == [CELL]:
            return f"(not it.s.places.get({x}))"
        if f in ("count", "size") and types == [CELL]:
            return f"LEN(it.s.places.get({x}) or ())"
        if f in ("count", "len") and len(types) == 1 and T.is_list(types[0]):
            return f"LEN({x})"
        if f == "sum" and len(types) == 1 and types[0] == T.list_of(INT):
            src, v = self.bind(x)
            r = self.fresh("a")
            general = self.general_call_with(node, [v])
            return f"({r} if -{_BIG} < ({r} := SUMB({src})) < {_BIG} else {general})"
        if f == "sorted" and len(types) == 1 and T.is_list(types[0]) and T.elem(types[0]) in (CELL, INT, STR):
            src, v = self.bind(x)
            key = ", key=CELL_KEY" if T.elem(types[0]) == CELL else ""
            return f"(SORTEDB({v}{key}) if T_BUILT(it, LEN({src})) else {self.general_call_with(node, [v])})"
        if f == "pieces" and types == [ZONE] and self.zone_named(args[0]) and self.rules.zones[args[0].id].is_board:
            return f"it.pieces_in({self.expr(args[0])})"
        if f == "direction" and types == [CELL, CELL] and self.fixed and self.grids_only:
            b_src, b = self.bind(self.expr(args[1]))
            table = self.const(direction_table(self.rules), hashable=False)
            return f"{table}[{x}].get({b_src})"
        if f == "top" and types == [CELL]:
            if self.no_walrus:
                return None
            ids = self.fresh("a")
            return f"(PIECE_REFS[{ids}[-1]] if ({ids} := it.s.places.get({x})) else None)"
        if f == "neighbor" and self.fixed and types[:1] == [CELL] and len(args) in (2, 3):
            return self.neighbor(node, x)
        if f == "adjacent" and self.fixed and types == [CELL]:
            table = self.const(adjacent_table(self.rules), hashable=False)
            return f"{table}[{x}]"
        if f == "cell" and len(args) == 3 and types == [ZONE, INT, INT] and self.zone_named(args[0]) \
                and not self.no_walrus and coords_table(self.rules, args[0].id) is not None:
            # a grid's cell by its coordinates: a table of its cells; off the board, the built-in (none)
            x_src, x = self.bind(self.expr(args[1]))
            y_src, y = self.bind(self.expr(args[2]))
            hit = self.fresh("a")
            table = self.const(coords_table(self.rules, args[0].id), hashable=False)
            general = self.general_call_with(node, [self.expr(args[0]), x, y])
            return f"({hit} if ({hit} := {table}.get(({x_src}, {y_src}), MISS)) is not MISS else {general})"
        if f == "cell" and len(args) == 2 and types == [ZONE, STR] and isinstance(args[0], A.Name) and not self.no_walrus:
            return self.cell_by_label(node)
        if f == "text" and len(types) == 1 and types[0] in (STR, INT, CELL, PLAYER):
            return f"T_TEXT_{types[0].upper()}(it, {self.span(node)}, {x})"
        if f == "next_player" and types == [PLAYER]:
            return f"PLAYERS_OF(it)[({x} + 1) % it.s.n]"
        return None

    def neighbor(self, node: A.Call, x: str) -> str | None:
        """`neighbor(c, d[, n])` of a cell: with the direction and distance constant, one lookup in a table of
        every cell of the boards (made now, from the built-in itself); with a direction known to be a text, a
        lookup of its table first (a direction the boards do not have goes to the built-in)."""
        args = node.args
        d_src = self.expr(args[1])
        d = self.constant(d_src)
        n = 1 if len(args) == 2 else self.constant(self.expr(args[2]))
        if type(n) is not int:
            return None
        if isinstance(d, str):
            table = neighbor_table(self.rules, d, n)
            return None if table is None else f"{self.const(table, hashable=False)}[{x}]"
        if n != 1 or T.strip(self.typeof(args[1])) != STR or self.no_walrus:
            return None
        tables = self.const(direction_tables(self.rules), hashable=False)
        t, k = self.fresh("a"), self.fresh("a")
        general = self.general_call_with(node, [x, k])
        return f"({t}[{x}] if ({t} := {tables}.get(({k} := {d_src}))) is not None else {general})"

    def cell_by_prefix(self, node: A.Call, table: dict, suffix: tuple[str, int]) -> str:
        """`cell(zone, E + T)` with T a text known now (`column + text(rows)`): the text is never made.  The ticks
        its making charges are charged at once where they fit (T's, then the join's: both within `values`,
        together within `loop`), and the cell looked up by E in a table of the zone's labels ending with T;
        where they do not fit, the text is made as the general code makes it (the same error at the same
        place), and so is a label the table does not hold."""
        text, ticks = suffix
        label = node.args[1]
        e_src, e = self.bind(self.expr(label.left))
        by_prefix = self.const(_prefix_table(table, text), hashable=False)
        zone = self.expr(node.args[0])
        hit = self.fresh("a")
        made = self.const(text)
        slow_text = made if ticks == 0 else self.expr(label.right)
        slow = f"XCELL(it, {self.span(node)}, {zone}, T_JOIN(it, {self.node_const(label)}, {e}, {slow_text}))"
        found = (f"({hit} if ({hit} := {by_prefix}.get({e}, MISS)) is not MISS "
                 f"else XCELL(it, {self.span(node)}, {zone}, {e} + {made}))")
        return f"({found} if T_SPEND(it, {ticks}, LEN({e_src}) + {len(text)}) else {slow})"

    def zone_named(self, node: A.Expr) -> bool:
        """A zone written by its name in the rules (its geometry known now)."""
        return (isinstance(node, A.Name) and self.rules.names.get(node.id, (None,))[0] == "zone"
                and node.id in self.rules.zones and not self.env_shadows(node.id))

    def env_shadows(self, name: str) -> bool:
        """Whether a local or an env may hold this name where the code stands (then it is not the spec's)."""
        for frame in self.shape_scope:
            if name in frame:
                return True
        return not self.env_free and (name in self.bound or name in self.env_names or not self.strict_env)

    def any_all(self, node: A.Call) -> str | None:
        """`any`/`all` over a comprehension of true/false values: Python's own (the same items, ticked as the
        general code ticks them)."""
        comp = node.args[0]
        if self.tp.of(comp.elt, self.tp.clause_types(comp, self.scope_types(bound=False))) != BOOL:
            return None
        lazy = node.func.upper()
        src = self.comprehension(comp, lazy=lazy)
        return src.replace(f"{lazy}(", f"{lazy}B(", 1) if src.startswith(f"{lazy}(") else src

    def constant(self, src: str) -> Any:
        """The value of a source that is a constant (`K12`, a number), else a marker that equals nothing."""
        return constant_of(self.consts, src)

    def cell_by_label(self, node: A.Call) -> str | None:
        """`cell(zone, label)` of a zone named in the rules: a table of its labels; a label it does not hold goes
        to the built-in (its errors, a label off the board)."""
        zone = node.args[0]
        if self.rules.names.get(zone.id, (None,))[0] != "zone" or zone.id not in self.rules.zones:
            return None
        table = label_table(self.rules, zone.id)
        if table is None:
            return None
        label = node.args[1]
        if isinstance(label, A.Binary) and label.op == "+" and self.typeof(label.left) == STR:
            suffix = self.constant_text(label.right)
            if suffix is not None:
                return self.cell_by_prefix(node, table, suffix)
        label_src, label = self.bind(self.expr(node.args[1]))
        hit = self.fresh("a")
        return (f"({hit} if ({hit} := {self.const(table, hashable=False)}.get({label_src}, MISS)) is not MISS "
                f"else XCELL(it, {self.span(node)}, {self.expr(zone)}, {label}))")


def _prefix_table(table: dict, suffix: str) -> dict:
    """label prefix -> cell, of the labels that end with `suffix`."""
    n = len(suffix)
    return {label[:-n] if n else label: c for label, c in table.items() if isinstance(label, str) and label.endswith(suffix)}


def _native_equal(a: str, b: str) -> bool:
    """Whether Python's `==` is the language's for values of these types: plain values of known types (never
    true/false against a number, never a list or record), or true/false against true/false or none."""
    if a in (ANY, NEVER) or b in (ANY, NEVER):
        return False
    if T.scalar(a) and T.scalar(b):
        return True
    sa, sb = T.strip(a), T.strip(b)
    return (sa == BOOL and sb in (BOOL, NONE)) or (sb == BOOL and sa in (BOOL, NONE))


def _only_its_kind(t: str) -> bool:
    """A value of this type (or none) equals only a value of its own kind, under Python's `==` as under the
    language's (valueops._EQUAL_ONLY_TO_ITS_KIND: never true/false, a number, a list or a record): compared with
    anything, even a value of unknown type, Python's `==` is the language's."""
    return t not in (ANY, NEVER) and T.strip(t) in (STR, CELL, PIECE, T.BPIECE, ZONE)


def _pos(node: Any) -> str:
    span = getattr(node, "span", None)
    return "?" if span is None else f"line {int(span.line)} col {int(span.col)}"


def _none_literal(node: A.Expr) -> bool:
    return isinstance(node, A.Literal) and node.value is None


def _tested_names(cond: A.Expr) -> list[str]:
    out = []
    for test in T._conjuncts(cond):
        if isinstance(test, A.Binary) and test.op == "!=" and isinstance(test.left, A.Name):
            out.append(test.left.id)
    return out


def _fixed_boards(rules: Any) -> bool:
    """Every board zone is a bounded grid or a graph, not per player: its cells are known before a game."""
    return all(not z.decl.unbounded and not z.per_player for z in rules.zones.values() if z.is_board)


__all__ = ["TypedGen", "TypedShapes"]


def typed_generator(rules: Any, env_names: set[str]) -> TypedGen:
    """The typed generator over the type pass's types of this spec."""
    return TypedGen(rules, env_names, T.TypePass(rules))


def compile_typed(rules: Any) -> Module:
    """The fast path of a spec, typed where the type pass knows the types (codegen.compile_rules): its recipe
    from the disk cache when a start before made it (modcache.py), else generated (and stored)."""
    recipe = modcache.load(rules)
    if recipe is None:
        before = set(vars(rules))
        recipe = generate(rules, typed_generator)
        modcache.store(rules, recipe, {k: v for k, v in vars(rules).items() if k not in before})
    return build(recipe)
