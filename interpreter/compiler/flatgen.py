"""The flat generator: a spec's turns written over a flat layout, for the lean playout path (issue 34, steps a-f).

Where the typed generator (typedgen.py) still works on the general state (dictionaries keyed by cell objects,
an attribute dictionary per piece, effects' names in an `env`), this one writes the game over plain lists:

- a cell is an int (its index among the boards' cells, `FlatLayout.cells`), `none` is None; each shared zone
  that holds pieces itself (a pile) is a place after the cells, the box, where destroyed pieces rest, the
  place after those; a zone is the general engine's interned ZoneRef; constants and cell attributes are
  their values, known when the game is built;
- a place is a list of piece ids (`P[c]`); a piece's kind, place and attributes are columns (`KIND`, `LOC`,
  `A_<attr>`); spec variables are slots (`V[i]`), player variables a list per variable indexed by seat;
- a player is its seat number, a piece its id; effects' and functions' names are Python locals;
- geometry is tables made now (neighbours, adjacency, labels, lines, cells).

Every value's representation follows from its type, so the whole spec must be typed (typepass.py): anything
the pass does not know, or a construct this generator does not write, makes the spec unsupported
(`FlatUnsupported`), and the lean path plays it on the general engine.  What the language checks while a game
runs is kept as guards that stop the flat game (`BAIL`, engine/flat.py) instead of failing in its own words: a
none where a cell is needed, the loop, value, piece and nesting limits (counted high, never low), a table
without the key.  The general engine then replays the game's answers and goes on from there, exactly: it says
what is wrong as the reference says it.  So the flat code only ever plays what the reference plays.
"""

from __future__ import annotations

import re
from typing import Any

from orrery.rulespec import ast as A

from . import typepass as T
from ..core.values import ZoneRef
from .flatlayout import FlatLayout
from .typedlib import constant_of
from .typepass import ANY, BOOL, BPIECE, CELL, INT, NEVER, NONE, PIECE, PLAYER, STR, ZONE

_BIG = 1 << 60
_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|-?[0-9]+|None|True|False")
_COMPARE = {"==", "!=", "<", "<=", ">", ">="}
_INT = re.compile(r"-?[0-9]+")
_UNROLL_ITEMS, _UNROLL_TERMS = 12, 64  # any/all over a constant list written out: items per level, terms in all


class FlatUnsupported(Exception):
    """The spec holds something the flat generator does not write: the lean path uses the general engine."""


def _repr_type(t: str) -> bool:
    """Whether values of this type have a flat representation (a known type, no record or table value)."""
    s = T.strip(t)
    if s in (INT, BOOL, STR, NONE, PLAYER, PIECE, BPIECE, CELL, ZONE):
        return True
    if T.is_list(s):
        return T.elem(s) == NEVER or _repr_type(T.elem(s))
    return False


class FlatGen:
    """Writes expressions and statements over the flat layout (see the module doc)."""

    def __init__(self, rules: Any, tp: T.TypePass, layout: FlatLayout):
        self.rules, self.tp, self.lay = rules, tp, layout
        self.consts: list[Any] = []
        self._const_ids: dict[Any, str] = {}
        self.lines: list[str] = []
        self.counter = 0
        self.scope: list[dict[str, tuple[str, str]]] = []  # spec name -> (Python name, type)
        self.in_function = False  # a spec function's body: its parameters and the spec's names only
        self.fns: dict[tuple, str] = {}  # (function, argument types) -> the Python function written for it
        self.no_walrus = 0  # > 0: in a comprehension's iterable, where Python allows no assignment expression
        self.nonnull: set[str] = set()  # sources known never to be none (their helper stops the flat game)
        self.maxlen: dict[str, int] = {}  # comprehension names going through a constant list of lists: most items
        self.sizes: dict[str, int] = {}  # list literals written: their items
        # loop ticks known now that the expressions written since the last take_charge() may charge (counted
        # high: every branch); a comprehension charges them per item, a statement before it runs
        self.charge = 0
        self.unrolling = 1  # (terms an any/all being written out multiplies its items' by)
        self.last_condition = ""  # the source of the last end condition written (flatmodule inlines it)
        self.inlining = 0  # how deep inside bodies of functions written into their callers
        self.stamps = False  # the spec reads change stamps (`changed_at`): every change of a place stamps it
        from .analysis import cheap

        self.cheap = cheap(rules) if not layout.recursive else set()
        self.pending: list[tuple[str, tuple, str]] = []

    # ------------------------------------------------------------ plumbing
    def const(self, value: Any) -> str:
        """A generated name bound to a constant (spec text never enters the source)."""
        try:
            key = (type(value), value)
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in self._const_ids:
            return self._const_ids[key]
        name = f"K{len(self.consts)}"
        self.consts.append(value)
        if key is not None:
            self._const_ids[key] = name
        return name

    def fresh(self, prefix: str = "t") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def emit(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def local_types(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for frame in self.scope:
            out.update({k: t for k, (_, t) in frame.items()})
        if self.in_function:
            out[T.FUNCTION_BODY] = NEVER
        return out

    def typeof(self, node: A.Expr) -> str:
        t = self.tp.of(node, self.local_types())
        return ANY if t == NEVER else t

    def lookup(self, name: str) -> tuple[str, str] | None:
        for frame in reversed(self.scope):
            if name in frame:
                return frame[name]
        return None

    def bind(self, src: str) -> tuple[str, str]:
        """(a source evaluated once, the name to read it by)."""
        if _SIMPLE.fullmatch(src):
            return src, src
        if self.no_walrus:
            raise self.no("a value bound in a comprehension's iterable")
        v = self.fresh()
        return f"({v} := {src})", v

    def take_charge(self) -> int:
        """The static charge accumulated so far, reset."""
        n, self.charge = self.charge, 0
        return n

    def nn(self, src: str) -> str:
        """A value that must not be none here (none: the flat game stops, the general engine says what is wrong):
        tested inline (a local read twice is free; anything else bound once), NN() where Python allows no
        binding; nothing for a source known never to be none (a cell from a table that stops on a miss)."""
        if src in self.nonnull or src in ("None",):
            return src if src != "None" else "NN(None)"
        if _SIMPLE.fullmatch(src):
            return f"({src} if {src} is not None else NN(None))"
        if self.no_walrus:
            return f"NN({src})"
        v = self.fresh()
        return f"({v} if ({v} := {src}) is not None else NN(None))"

    @staticmethod
    def ix(src: str) -> str:
        """A value that must not be none, read only as the index of a list (a place, a table, a column): none
        fails there by itself (TypeError, which stops the flat game as NN does), so it is not tested first."""
        return "NN(None)" if src == "None" else src

    @staticmethod
    def no(what: str) -> FlatUnsupported:
        return FlatUnsupported(what)

    # ------------------------------------------------------------ expressions
    def expr(self, node: A.Expr) -> str:
        """Python source of an expression over the flat layout."""
        t = self.typeof(node)
        if not _repr_type(t) and not (isinstance(node, A.Name) and self.is_zone(node)):
            raise self.no(f"a value of type {t or '?'} ({type(node).__name__})")
        visit = getattr(self, f"x_{type(node).__name__}", None)
        if visit is None:
            raise self.no(type(node).__name__)
        return visit(node)

    def cond(self, node: A.Expr) -> str:
        if self.typeof(node) != BOOL:
            raise self.no("a condition not known to be true/false")
        return self.expr(node)

    def x_Literal(self, node: A.Literal) -> str:
        v = node.value
        if v is None or isinstance(v, bool) or (type(v) is int and abs(v) < _BIG):
            return repr(v)
        if isinstance(v, str):
            return self.const(v)
        raise self.no("a literal")

    def is_zone(self, node: A.Expr) -> bool:
        return (isinstance(node, A.Name) and self.lookup(node.id) is None
                and self.rules.names.get(node.id, (None,))[0] == "zone"
                and (self.in_function or node.id not in self.tp.env_names))

    def x_Name(self, node: A.Name) -> str:
        found = self.lookup(node.id)
        if found is not None:
            return found[0]
        if node.id in ("event", "it", "matched_at", "winners", "ended", "p"):
            raise self.no(f"the name '{node.id}' outside where the engine binds it")
        kind = self.rules.names.get(node.id, (None,))[0]
        if kind == "var":
            if node.id in self.tp.constants:
                return self.flat_const(self.tp.constants[node.id], self.tp.vars[node.id])
            return f"V[{self.lay.var_slot[node.id]}]"
        if kind == "special":
            if node.id == "players" and self.rules.min_players == self.rules.max_players:
                return self.const(list(range(self.rules.min_players)))  # (one table size: a constant, its length known)
            src = {"current": "st.current", "players": "PLAYERS[st.n]", "num_players": "st.n", "round": "st.round",
                   "turn": "st.turn", "first_player": "st.first", "cascade": "st.cascade"}.get(node.id)
            if src is None:
                raise self.no(f"the special name '{node.id}'")
            return src
        if kind in ("kind", "action", "end"):
            return self.const(node.id)
        if kind == "zone" and self.is_zone(node):  # (the general engine's interned ZoneRef: flatlayout.py)
            return self.const(ZoneRef(node.id))
        if kind == "const":  # (`names:` and `constants:`: worked out when the game was built, never changed)
            value = self.rules.names[node.id][1]
            if value is None or value.__class__ in (bool, str) or (value.__class__ is int and abs(value) < _BIG) or (
                    value.__class__ is list and all(x.__class__ is str or (x.__class__ is int and abs(x) < _BIG)
                                                   for x in value)):
                return self.flat_const(value, self.typeof(node))
            raise self.no(f"the constant '{node.id}'")
        raise self.no(f"the name '{node.id}'")

    def flat_const(self, value: Any, t: str) -> str:
        if value is None or isinstance(value, (bool, int)):
            return repr(value)
        if isinstance(value, str):
            return self.const(value)
        if isinstance(value, list) and all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in value):
            return self.const(list(value))  # (shared: the flat code never changes a list in place)
        raise self.no("a constant list")

    def top_attr(self, node: A.Attr) -> str | None:
        """`top(c).name` of a cell: the top piece's column, read once (an empty cell stops the flat game)."""
        call = node.obj
        if (not isinstance(call, A.Call) or call.func != "top" or call.func in self.rules.functions
                or len(call.args) != 1 or call.kwargs or node.name not in self.lay.everywhere):
            return None
        arg_t = self.typeof(call.args[0])
        if T.strip(arg_t) != CELL:
            return None
        c = self.ix(self.expr(call.args[0]))
        # (an empty place has no top piece: [-1] fails, IndexError, and the flat game stops as NN stops it)
        return f"A_{self.lay.attr_col[node.name]}[P[{c}][-1]]"

    def x_Attr(self, node: A.Attr) -> str:
        obj_t, name = self.typeof(node.obj), node.name
        if obj_t == ZONE and name in ("width", "height") and self.is_zone(node.obj):
            extent = self.tp.extent(node, self.local_types())
            if extent is not None:
                return repr(extent)  # (a bounded grid's, known now)
        s = T.strip(obj_t)
        if s in (PIECE, BPIECE):
            top = self.top_attr(node)
            if top is not None:
                return top
        raw = self.expr(node.obj)
        # none has no attributes: the general engine says so (an index fails by itself: ix)
        src = self.ix(raw) if T.optional(obj_t) else raw
        if s == CELL:
            table = {"x": "CX", "y": "CY", "label": "CLABEL"}.get(name)
            if table is not None:
                return f"{table}[{src}]"
            if name in ("size",):
                return f"len(P[{src}])"
            if name == "zone":
                return f"{self.const(self.lay.zone_refs)}[{src}]"
            table = None if name in ("owner", "pieces") else self.lay.cell_attr(name)  # (a cell's own first)
            if table is not None:  # (a cell of a zone without it: KeyError, the general engine's error)
                return f"{self.const(table)}[{src}]"
            if name == "pieces":
                return f"list(P[{src}])"
            raise self.no(f"the cell attribute '{name}'")
        if s in (PIECE, BPIECE):
            if name in self.lay.attr_col and name in self.lay.everywhere:
                return f"A_{self.lay.attr_col[name]}[{src}]"
            if name in ("cell", "place") and s == BPIECE and name not in self.lay.attr_col:
                return f"LOC[{src}]"
            if name == "kind" and name not in self.lay.attr_col:
                return f"KINDS[KIND[{src}]]"
            if name in self.lay.attr_col and name not in ("kind", "place", "cell", "id"):
                # declared by some kinds only: a piece of another kind has none (ABSENT in its column), which
                # stops the flat game where the general engine says the piece has no such attribute
                col = f"A_{self.lay.attr_col[name]}[{src}]"
                if self.no_walrus:
                    return f"HAS({col})"
                t = self.fresh()
                return f"({t} if ({t} := {col}) is not ABSENT else NN(None))"
            raise self.no(f"the piece attribute '{name}'")
        if s == PLAYER:
            if name in self.lay.pvar_slot:
                return f"PV[{self.lay.pvar_slot[name]}][{src}]"
            if name == "seat":
                return self.nn(raw) if T.optional(obj_t) else raw
            if name == "next":
                return f"(({src} + 1) % st.n)"
        raise self.no(f"the attribute '{name}' of {obj_t}")

    def x_Index(self, node: A.Index) -> str:
        obj = node.obj
        key_src = self.expr(node.index)
        if isinstance(obj, A.Name) and self.rules.names.get(obj.id, (None,))[0] == "table" \
                and self.lookup(obj.id) is None:
            table = self.lay.table(obj.id)
            if table is None:
                raise self.no(f"the table '{obj.id}'")
            return f"{self.const(table)}[{key_src}]"  # (a key it lacks: KeyError, the general engine's error)
        obj_t, key_t = self.typeof(obj), self.typeof(node.index)
        if T.is_list(obj_t) and key_t == INT:
            return f"{self.expr(obj)}[{key_src}]"  # (Python's index is the language's; out of range: IndexError)
        raise self.no("an index")

    def x_Unary(self, node: A.Unary) -> str:
        t = self.typeof(node.operand)
        if node.op == "not" and t == BOOL:
            return f"(not {self.expr(node.operand)})"
        if node.op == "-" and t == INT:
            return f"(-{self.expr(node.operand)})"
        raise self.no(f"'{node.op}'")

    def x_Binary(self, node: A.Binary) -> str:
        op = node.op
        if op in ("and", "or"):
            left = self.cond(node.left)
            if op == "and":
                narrowed = T.narrowed(node.left, self.local_types(), self.tp)
                frame = {k: (self.lookup(k)[0], v) for k, v in narrowed.items()
                         if self.lookup(k) is not None and self.lookup(k)[1] != v}
                self.scope.append(frame)
                try:
                    right = self.cond(node.right)
                finally:
                    self.scope.pop()
            else:
                right = self.cond(node.right)
            return f"({left} {op} {right})"
        lt, rt = self.typeof(node.left), self.typeof(node.right)
        a, b = self.expr(node.left), self.expr(node.right)
        if op in ("==", "!=") and "None" in (a, b):
            return f"({a} {'is' if op == '==' else 'is not'} {b})"  # (only none is none)
        if op in ("+", "-") and _INT.fullmatch(a) and _INT.fullmatch(b):
            value = int(a) + int(b) if op == "+" else int(a) - int(b)
            if abs(value) < _BIG:
                return str(value)
        if op in ("==", "!="):
            if not (T.scalar(lt) and T.scalar(rt)) and not (T.strip(lt) == T.strip(rt) == BOOL):
                if not (T.is_list(T.strip(lt)) and T.is_list(T.strip(rt)) and T.scalar(T.elem(lt))
                        and T.scalar(T.elem(rt))):
                    raise self.no(f"'{op}' of {lt} and {rt}")
            return f"({a} {op} {b})"
        if op in ("<", "<=", ">", ">="):
            if (T.numeric(lt) and T.numeric(rt)) or lt == rt == STR:
                return f"({a} {op} {b})"
            raise self.no(f"'{op}' of {lt} and {rt}")
        if op in ("+", "-", "*"):
            if T.numeric(lt) and T.numeric(rt):
                if self.small(node):
                    return f"({a} {op} {b})"  # (small numbers on both sides: no size check needed)
                return f"NUM({a} {op} {b})"
            if op == "+" and lt == rt == STR:
                return f"TXT(st, {a} + {b})"
            if op == "+" and T.is_list(lt) and T.is_list(rt):
                return f"LST(st, {a} + {b})"
            raise self.no(f"'{op}' of {lt} and {rt}")
        if op in ("//", "%"):
            if T.numeric(lt) and T.numeric(rt):
                return f"DIV({a}, {b})" if op == "//" else f"MOD({a}, {b})"
            raise self.no(f"'{op}'")
        if op in ("in", "not in"):
            item, container = T.strip(lt), T.strip(rt)
            if T.optional(rt):
                b = self.nn(b)
            if T.is_list(container) and (item in (CELL, PIECE, BPIECE, STR) and not T.optional(lt)
                                         or T.numeric(lt) and T.elem(container) in (INT, PLAYER, NEVER)):
                return f"({a} {op} {b})"
            raise self.no(f"'{op}' of {lt} and {rt}")
        raise self.no(f"'{op}'")

    def small(self, node: A.Expr) -> bool:
        """Whether an integer expression stays far from the size limit: literals, counts and lengths, players,
        and sums, differences and choices of such (a value of at most 2**50 in size)."""
        return self._bound(node) is not None

    def _bound(self, node: A.Expr) -> int | None:
        if isinstance(node, A.Literal) and type(node.value) is int:
            return abs(node.value) if abs(node.value) < (1 << 40) else None
        if isinstance(node, A.Cond):
            a, b = self._bound(node.then), self._bound(node.else_)
            return None if a is None or b is None else max(a, b)
        if isinstance(node, A.Binary) and node.op in ("+", "-"):
            a, b = self._bound(node.left), self._bound(node.right)
            return None if a is None or b is None or a + b >= (1 << 50) else a + b
        if isinstance(node, A.Call) and node.func in ("count", "len", "size") and node.func not in self.rules.functions:
            return 1 << 40  # (no list or place holds that many)
        if isinstance(node, A.Call) and node.func in self.rules.functions and node.func in self.cheap:
            return self._bound(self.rules.functions[node.func][1])
        if isinstance(node, A.Name) and node.id in ("current", "first_player", "num_players") \
                and self.lookup(node.id) is None:
            return 1 << 10  # (a seat number or the number of seats)
        return None

    def x_Cond(self, node: A.Cond) -> str:
        test = self.cond(node.test)
        narrowed = T.narrowed(node.test, self.local_types(), self.tp)
        frame = {k: (self.lookup(k)[0], v) for k, v in narrowed.items() if self.lookup(k) is not None}
        self.scope.append(frame)
        try:
            then = self.expr(node.then)
        finally:
            self.scope.pop()
        return f"({then} if {test} else {self.expr(node.else_)})"

    def x_ListLit(self, node: A.ListLit) -> str:
        src = "[" + "".join(f"{self.expr(x)}, " for x in node.items) + "]"
        self.sizes[src] = len(node.items)
        return src

    def static_len(self, src: str) -> int | None:
        """The most items a list source can hold, known now: a constant list, or a name going through a constant
        list of lists (None: not known)."""
        value = self.constant(src)
        if isinstance(value, list):
            return len(value)
        if src in self.sizes:
            return self.sizes[src]
        m = re.fullmatch(r"(K[0-9]+)\[.*\]", src)
        if m is not None:  # an entry of a constant table: the longest of its lists
            table = self.consts[int(m.group(1)[1:])]
            if isinstance(table, dict) and table and all(isinstance(v, list) for v in table.values()):
                return max(len(v) for v in table.values())
        return self.maxlen.get(src)

    def x_Comprehension(self, node: A.Comprehension, lazy: str = "") -> str:
        """A list (or `lazy` ANY/ALL over a generator) ticking each clause's items, each charged what its condition,
        the deeper clauses and the element charge (counted high).  Clauses over lists whose size is known now are
        charged with the clause around them, or with the statement around the comprehension: no call per item."""
        frame: dict[str, tuple[str, str]] = {}
        self.scope.append(frame)
        parts = []  # [variable, domain, condition, the condition's own charge]
        outer = self.take_charge()
        try:
            for clause in node.clauses:
                dom_t = self.typeof(clause.iter)
                if not T.is_list(T.strip(dom_t)):
                    raise self.no("a comprehension over something else than a list")
                self.no_walrus += 1
                try:
                    dom = self.expr(clause.iter)
                finally:
                    self.no_walrus -= 1
                if T.optional(dom_t):
                    dom = f"NN({dom})"  # (in a comprehension's iterable: a call)
                dom_charge = self.take_charge()  # (made once per item of the clauses around it)
                v = self.fresh("v")
                frame[clause.var] = (v, T.elem(dom_t))
                value = self.constant(dom)
                if isinstance(value, list) and value and all(isinstance(x, list) for x in value):
                    self.maxlen[v] = max(len(x) for x in value)
                cond = ""
                if clause.cond is not None:
                    cond = f" if {self.cond(clause.cond)}"
                    for k, t in T.narrowed(clause.cond, self.local_types(), self.tp).items():
                        if k in frame and frame[k][1] != t:
                            frame[k] = (frame[k][0], t)
                parts.append([v, dom, cond, self.take_charge(), dom_charge])
            elt = self.cond(node.elt) if lazy else self.expr(node.elt)
            cost = 1 + parts[-1][3] + self.take_charge()  # (an item of the innermost clause)
        finally:
            self.scope.pop()
        texts = []
        for i in range(len(parts) - 1, -1, -1):
            v, dom, cond, _, _ = parts[i]
            size = self.static_len(dom)
            if i > 0:
                outer_item = 1 + parts[i - 1][3] + parts[i][4]  # an item of the clause around: its own charges
                if size is not None:
                    texts.append(f"for {v} in {dom}{cond}")
                    cost = outer_item + size * cost
                else:
                    texts.append(f"for {v} in TICKN(st, {dom}, {cost}){cond}")
                    cost = outer_item
            elif size is not None:
                texts.append(f"for {v} in {dom}{cond}")
                outer += parts[0][4] + size * cost
            else:
                texts.append(f"for {v} in TICKN(st, {dom}, {cost}){cond}")
                outer += parts[0][4]
        self.charge = outer
        text = " ".join(reversed(texts))
        if lazy:
            unrolled = self.unrolled(node, lazy, parts[0][1]) if len(parts) == 1 else None
            return unrolled or f"{lazy}({elt} {text})"
        return f"SIZED([{elt} {text}])"

    def unrolled(self, node: A.Comprehension, lazy: str, dom: str) -> str | None:
        """`any`/`all` over a short constant list without a condition, written as an `or`/`and` of its items'
        conditions (no generator, the same short cut; the charge is the comprehension's, made above), the
        variable bound to each item; None when it is not one (or the unrolled code would grow too big)."""
        items = self.constant(dom)
        clause = node.clauses[0]
        if not isinstance(items, list) or not 0 < len(items) <= _UNROLL_ITEMS or clause.cond is not None \
                or self.unrolling * len(items) > _UNROLL_TERMS:
            return None
        t = T.elem(self.typeof(clause.iter))
        charge, self.unrolling = self.charge, self.unrolling * len(items)
        terms = []
        try:
            for item in items:
                src = str(item) if type(item) is int else self.const(item)
                self.scope.append({clause.var: (src, t)})
                try:
                    terms.append(self.cond(node.elt))
                finally:
                    self.scope.pop()
        finally:
            self.charge, self.unrolling = charge, self.unrolling // len(items)
        return "(" + (" or " if lazy == "ANY" else " and ").join(terms) + ")"

    def x_Call(self, node: A.Call) -> str:
        if node.func in self.rules.functions:
            return self.call_function(node)
        from .flatcalls import builtin_call

        return builtin_call(self, node)

    # ------------------------------------------------------------ spec functions
    def constant(self, src: str) -> Any:
        """The value of a source that is a constant (`K12`, a number), else a marker that equals nothing."""
        return constant_of(self.consts, src)

    def call_function(self, node: A.Call) -> str:
        params, body = self.rules.functions[node.func]
        if node.kwargs or len(node.args) != len(params) or body is None:
            raise self.no(f"a call of '{node.func}'")
        types = tuple(self.typeof(a) for a in node.args)
        if node.func in self.cheap and self.inlining < 8:
            return self.inline(node, params, body, types)
        key = (node.func, types)
        fid = self.fns.get(key)
        if fid is None:
            if len(self.fns) > 200:
                raise self.no("too many specialised functions")
            fid = self.fns[key] = self.fresh("f")
            self.pending.append((node.func, types, fid))
        return f"{fid}(st{''.join(', ' + self.expr(a) for a in node.args)})"

    def inline(self, node: A.Call, params: list[str], body: A.Expr, types: tuple) -> str:
        """A cheap function's body written into its caller, its parameters bound to the arguments' values (each
        evaluated once, in order, as the call evaluates them)."""
        frame: dict[str, tuple[str, str]] = {}
        binds = []
        for p, arg, t in zip(params, node.args, types):
            src = self.expr(arg)
            if _SIMPLE.fullmatch(src):
                frame[p] = (src, t)
                continue
            if self.no_walrus:
                raise self.no("a function written into a comprehension's iterable")
            v = self.fresh("a")
            binds.append(f"({v} := {src}) is {v}")
            frame[p] = (v, t)
        saved = self.scope, self.in_function
        self.scope, self.in_function = [frame], True
        self.inlining += 1
        try:
            src = self.expr(body)
        finally:
            self.scope, self.in_function = saved
            self.inlining -= 1
        return f"({src} if {' and '.join(binds)} else None)" if binds else f"({src})"

    def prologue(self, body: list[str], indent: int) -> None:
        """Bind the state's lists the body uses to locals (attribute reads once, not at every use)."""
        text = "\n".join(body)
        for local, src in (("P", "st.P"), ("V", "st.V"), ("PV", "st.PV"), ("KIND", "st.KIND"), ("LOC", "st.LOC")):
            if re.search(rf"(?<![A-Za-z0-9_.]){local}\b", text):
                self.emit(indent, f"{local} = {src}")
        for col in self.lay.attr_col.values():
            if f"A_{col}" in text:
                self.emit(indent, f"A_{col} = st.A[{col}]")

    def write_functions(self) -> None:
        """The spec functions the code called, each specialised to its arguments' types (a recursive call
        is refused: the flat code counts no call depth)."""
        busy: list[str] = []
        while self.pending:
            name, types, fid = self.pending.pop(0)
            params, body = self.rules.functions[name]
            args = [self.fresh("p") for _ in params]
            saved = self.scope, self.in_function, self.charge
            self.scope = [{p: (a, t) for p, a, t in zip(params, args, types)}]
            self.in_function, self.charge = True, 0
            try:
                src = self.expr(body)
                charge = self.take_charge()
            finally:
                self.scope, self.in_function, self.charge = saved
            body_lines = ([f"    st.loops += {charge}"] if charge else []) + [f"    return {src}"]
            self.emit(0, f"def {fid}(st{''.join(', ' + a for a in args)}):")
            self.prologue(body_lines, 1)
            self.lines.extend(body_lines)
            self.emit(0, "")
            busy.append(name)
        if self.lay.recursive:
            raise self.no("recursive functions")


__all__ = ["FlatGen", "FlatUnsupported"]
