"""The tree-walking interpreter: evaluates expressions and executes effects on a State.

It is the reference semantics of the rule language; the compiled fast path must
agree with it exactly.  Statements that ask a player something never run here:
the resumable engine (engine/frames.py) walks them, and runs through this
interpreter only what cannot ask.
"""

from __future__ import annotations

from typing import Any, Callable

from orrery.rulespec import ast as A

from ..core.decisions import Decision, GameEnded, Option, RequireFailed, RuleError, RunawayError
from ..core.state import State
from ..core.values import PIECE_REFS, Cell, PieceRef, Player, Record, ZoneRef, frozen
from orrery.rulespec.signatures import CLOSURES

from .builtins import REGISTRY
from .quantities import read_quantity
from ..core.valueops import (Limits, TableRef, ZoneFamily, _arith, check_nested, list_contains, no_match,
                              slice_value, values_equal)


class Interp:
    """Evaluates rule-language AST nodes against one State."""

    def __init__(self, state: State, limits: Limits | None = None):
        self.s = state
        self.r = state.rules
        self.limits = limits or Limits()
        self.loops = 0
        self.emit_depth = 0
        self.current_action: str | None = None
        self.cause, self.cause_log, self.cause_ids = None, None, 0  # causes in force (core/causes.py)
        self.cause_root: Record | None = None
        self.top_action: str | None = None  # the action a player chose at a step menu, while it runs
        self.settling = False
        self.call_depth = 0
        # whether `say` builds its line: off where nobody reads the narration (look-ahead copies, search
        # playouts, API states until their narration is first read; see GameState.narration)
        self.narrate = True
        self.builtins = REGISTRY
        self.fast = getattr(self.r, "compiled", None)  # the compiled fast path, when the game uses it
        self.scans = None
        # set while only expressions run (cascade scans, menu filters, end checks): compiled pure
        # functions remember their results in it (see compiler.root_function)
        self.memo: dict | None = None
        if self.fast is not None:
            # the compiled path's ev and run, as a class: bound methods kept in the instance made every
            # interpreter (one per cloned position) a reference cycle that only the garbage collector frees
            self.__class__ = FastInterp
            self.scans = self.fast.scans

    def fork(self, state: State) -> "Interp":
        """The same interpreter (counters included) over another state: for a cloned position."""
        it = Interp.__new__(type(self))
        it.__dict__.update(self.__dict__)
        it.s = state
        return it

    # ================================================================ decisions
    def ask(self, decision: Decision) -> Any:
        """A question met where the engine cannot suspend (only the resumable engine asks players)."""
        raise RuleError(f"'{decision.prompt}' asks a player something where nobody can be asked "
                        f"(only actions, setup, hooks, triggers and procedures can ask)", decision.span)

    def options_for(self, values: list[Any], optional: bool, labelled: bool = True) -> list[Option]:
        """Menu options for values, identical pieces merged, 'skip' last when optional (unlabelled: no
        labels, for a menu whose answer is already known)."""
        label = self.label
        kinds = set(map(type, values))
        if kinds <= _FIXED_LABEL:  # no pieces to merge, and labels that are made when read
            opts = [Option(None, v, i, label) if labelled else Option("", v, i) for i, v in enumerate(values)]
            if optional:
                opts.append(Option("skip", None, len(values)))
            return opts
        opts = []
        seen: set = set()
        for i, v in enumerate(values):
            if isinstance(v, PieceRef):
                # (sorted by name: two names of one dict differ, so no value is ever compared)
                key = (self.s.kinds[v.id], tuple(sorted(self.s.attrs[v.id].items())), self.s.loc[v.id])
                try:
                    fresh = key not in seen
                except TypeError:  # lists (or records holding them) as attribute values: merged by content
                    key = frozen(key)
                    fresh = key not in seen
                if not fresh:
                    continue
                seen.add(key)
            if not labelled:
                opts.append(Option("", v, i))
            elif v.__class__ in _FIXED_LABEL or v.__class__ is list and _FIXED_LABEL.issuperset(map(type, v)):
                opts.append(Option(None, v, i, label))  # labelled when read: the label cannot change
            else:
                opts.append(Option(label(v), v, i))  # a piece's label is the state's now
        if optional:
            opts.append(Option("skip", None, len(values)))
        return opts

    # ============================================================= expressions
    def ev(self, node: A.Expr, env: dict[str, Any]) -> Any:
        """Evaluate an expression."""
        return _EVAL[type(node)](self, node, env)

    def tester(self, node: A.Expr) -> Callable[[dict[str, Any]], bool]:
        """`truth(node, env)` as a function of env alone, for conditions tested over many values."""
        fn = self.fast.fns.get(id(node)) if self.fast is not None else None
        if fn is None:
            return lambda env: self.truth(node, env)

        def test(env: dict[str, Any]) -> bool:
            v = fn(self, env)
            if v is True or v is False:
                return v
            raise RuleError(f"condition must be true or false, got {self.describe(v)}", node.span)

        return test

    def truth(self, node: A.Expr | None, env: dict[str, Any], default: bool = True) -> bool:
        """Evaluate a condition (None means `default`)."""
        if node is None:
            return default
        v = self.ev(node, env)
        if not isinstance(v, bool):
            raise RuleError(f"condition must be true or false, got {self.describe(v)}", node.span)
        return v

    def _literal(self, node: A.Literal, env: dict) -> Any:
        return node.value

    def _name(self, node: A.Name, env: dict) -> Any:
        name = node.id
        if name in env:
            return env[name]
        kind, payload = self.r.names.get(name, (None, None))
        if kind == "special":
            return payload(self)
        if kind == "var":
            return self.s.vars.get(name)
        if kind == "zone":
            return ZoneRef(name)
        if kind in ("table", "kind", "action", "end", "zones", "const"):
            return payload
        raise RuleError(f"unknown name '{name}'", node.span)

    def _attr(self, node: A.Attr, env: dict) -> Any:
        return self.get_attr(self.ev(node.obj, env), node.name, node.span)

    def get_attr(self, obj: Any, name: str, span: Any) -> Any:
        """`obj.name` for players, pieces, cells, zones and records."""
        s = self.s
        if isinstance(obj, Player):
            if name in self.r.player_var_names:
                return s.pvars[obj].get(name)
            if name in self.r.player_zone_names:
                return ZoneRef(name, int(obj))
            if name == "seat":
                return int(obj)
            if name == "name":
                return self.r.seat_name(obj)
            if name == "passed":
                return int(obj) in s.cursor.passed
            if name == "next":
                return Player((int(obj) + 1) % s.n)
        elif isinstance(obj, PieceRef):
            attrs = s.attrs[obj.id]
            if name in attrs:
                return attrs[name]
            if name == "kind":
                return s.kinds[obj.id]
            if name in ("place", "cell"):
                return s.loc[obj.id]
            if name == "id":
                return obj.id
            if name in self.r.kinds[s.kinds[obj.id]].defaults:
                return None
        elif isinstance(obj, Cell):
            if name == "x":
                return obj.x
            if name == "y":
                return obj.y
            if name == "label":
                return obj.label
            if name == "pieces":
                return [PIECE_REFS[i] for i in s.contents(obj)]
            if name == "size":
                return len(s.contents(obj))
            if name == "owner":
                return None if obj.owner is None else Player(obj.owner)
            if name == "zone":
                return ZoneRef(obj.zone, obj.owner)
            z = self.r.zones[obj.zone]
            if name in z.cell_defaults:
                return z.cell_attrs.get(obj.pos, {}).get(name, z.cell_defaults[name])
        elif isinstance(obj, ZoneRef):
            if name == "size":
                return self.place_size(obj)
            if name == "pieces":
                return self.pieces_in(obj)
            if name == "owner":
                return None if obj.owner is None else Player(obj.owner)
            if name in ("width", "height"):
                d = self.r.zones[obj.name].decl if obj.name in self.r.zones else None
                if d is not None and d.type == "grid" and not d.unbounded:
                    return d.width if name == "width" else d.height
                raise RuleError(f"{self.describe(obj)} has no {name}: only a bounded grid has one", span)
            if name in ("name", "key"):
                z = self.r.zones.get(obj.name)  # (none for the box, which a destroyed piece's place_of gives)
                return obj.name if z is None and name == "name" else getattr(z, "family" if name == "name" else
                                                                             "key", None)
        elif isinstance(obj, Record):
            if name in obj:
                return obj[name]
        raise RuleError(f"{self.describe(obj)} has no attribute '{name}'", span)

    def _index(self, node: A.Index, env: dict) -> Any:
        return self.index_value(self.ev(node.obj, env), self.ev(node.index, env), node)

    def index_value(self, obj: Any, key: Any, node: A.Index) -> Any:
        """`obj[key]` for tables, lists, texts and records."""
        if isinstance(obj, TableRef):
            return obj.lookup(key, node.span)
        if isinstance(obj, (list, str)):
            if not isinstance(key, int) or isinstance(key, bool):
                raise RuleError(f"list index must be a number, got {self.describe(key)}", node.index.span)
            if not -len(obj) <= key < len(obj):
                raise RuleError(f"index {key} is outside a list of {len(obj)}", node.span)
            return obj[key]
        if isinstance(obj, Record):
            return obj.get(str(key))
        if isinstance(obj, ZoneFamily):
            return obj.pick(key, node.span)
        raise RuleError(f"cannot index {self.describe(obj)}", node.span)

    def _call(self, node: A.Call, env: dict) -> Any:
        fn = self.r.functions.get(node.func)
        if fn is not None:
            params, body = fn
            args = [self.ev(a, env) for a in node.args]
            local = dict(zip(params, args))
            for k, v in node.kwargs:
                local[k] = self.ev(v, env)
            self.call_depth += 1
            if self.call_depth > self.limits.emit_depth:
                raise RunawayError(f"function '{node.func}' calls nested more than {self.limits.emit_depth} deep "
                                   f"(limit emit_depth); raise it with --limit emit_depth=N", node.span)
            try:
                return self.ev(body, local)
            finally:
                self.call_depth -= 1
        spec = self.builtins.get(node.func)
        if spec is None:
            if node.func in self.r.quantities:  # a declared quantity, read with its live modifiers
                return read_quantity(self, node.func, node.span, tuple(self.ev(a, env) for a in node.args),
                                     tuple((k, self.ev(v, env)) for k, v in node.kwargs))
            raise RuleError(f"unknown function '{node.func}'", node.span)
        if node.func in _LAZY and len(node.args) == 1 and not node.kwargs and isinstance(node.args[0],
                                                                                          A.Comprehension):
            return _LAZY[node.func](self._comp_lazy(node.args[0], 0, dict(env)))
        args = [self.ev(a, env) for a in node.args]
        if node.kwargs and node.func in CLOSURES:
            kwargs = self._closures(node, env)
        else:
            kwargs = {k: self.ev(v, env) for k, v in node.kwargs}
        try:
            return spec.fn(self, *args, **kwargs)
        except RuleError as err:
            if err.findings and err.findings[0].span is None:  # raised deep inside with no location: use the call's
                raise RuleError(err.findings[0].message, node.span) from None
            raise
        except (RequireFailed, GameEnded, RunawayError):
            raise
        except (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, AttributeError) as exc:
            raise RuleError(f"{node.func}(): {exc}", node.span) from None

    def _closures(self, node: A.Call, env: dict) -> dict[str, Any]:
        """Keyword arguments of a call, one evaluated per item (a walk's `cost:`) as a function of its item."""
        key, name = CLOSURES[node.func]
        out: dict[str, Any] = {}
        for k, v in node.kwargs:
            if k != key:
                out[k] = self.ev(v, env)
                continue
            local = dict(env)

            def per_item(item: Any, expr: A.Expr = v, local: dict = local) -> Any:
                local[name] = item
                return self.ev(expr, local)

            out[k] = per_item
        return out

    def _unary(self, node: A.Unary, env: dict) -> Any:
        v = self.ev(node.operand, env)
        if node.op == "not":
            if not isinstance(v, bool):
                raise RuleError(f"'not' needs true or false, got {self.describe(v)}", node.span)
            return not v
        if not isinstance(v, int) or isinstance(v, bool):
            raise RuleError(f"'-' needs a number, got {self.describe(v)}", node.span)
        return -v

    def _binary(self, node: A.Binary, env: dict) -> Any:
        op = node.op
        if op == "and":
            return self.truth(node.left, env) and self.truth(node.right, env)
        if op == "or":
            return self.truth(node.left, env) or self.truth(node.right, env)
        a = self.ev(node.left, env)
        b = self.ev(node.right, env)
        if op == "==":
            return values_equal(a, b)
        if op == "!=":
            return not values_equal(a, b)
        if op in ("in", "not in"):
            found = self.contains(b, a, node.span)
            return found if op == "in" else not found
        return _arith(self, op, a, b, node)

    def contains(self, container: Any, item: Any, span: Any) -> bool:
        """Membership: in a list/string, or a piece in a place."""
        if isinstance(container, (ZoneRef, Cell)):
            if isinstance(item, PieceRef):
                loc = self.s.loc[item.id]
                if isinstance(container, Cell):
                    return loc == container
                return loc == container or (isinstance(loc, Cell) and loc.zone == container.name
                                            and loc.owner == container.owner)
            if isinstance(item, Cell) and isinstance(container, ZoneRef):
                return item.zone == container.name and item.owner == container.owner
            raise RuleError(f"cannot look for {self.describe(item)} in a place", span)
        if isinstance(container, str):
            if not isinstance(item, str):
                raise RuleError(f"cannot look for {self.describe(item)} in a text", span)
            return item in container
        if isinstance(container, list):
            return list_contains(container, item)
        if isinstance(container, Record):
            return item in container
        raise RuleError(f"'in' needs a list, text or place, got {self.describe(container)}", span)

    def _cond(self, node: A.Cond, env: dict) -> Any:
        return self.ev(node.then if self.truth(node.test, env) else node.else_, env)

    def _list(self, node: A.ListLit, env: dict) -> Any:
        return check_nested(self, [self.ev(x, env) for x in node.items], node.span)

    def _record(self, node: A.Record, env: dict) -> Any:
        return check_nested(self, Record((k, self.ev(v, env)) for k, v in node.items), node.span)

    def _let_in(self, node: A.LetIn, env: dict) -> Any:
        # the name is bound around the body only (saved and put back: the environment serves the whole effect)
        name = node.name
        old = env.get(name, _UNSET)
        env[name] = self.ev(node.value, env)
        try:
            return self.ev(node.body, env)
        finally:
            if old is _UNSET:
                del env[name]
            else:
                env[name] = old

    def _slice(self, node: A.Slice, env: dict) -> Any:
        obj = self.ev(node.obj, env)
        start = None if node.start is None else self.ev(node.start, env)
        stop = None if node.stop is None else self.ev(node.stop, env)
        return slice_value(self, obj, start, stop, node)

    def _no_match(self, node: A.NoMatch, env: dict) -> Any:
        return no_match(self, self.ev(node.subject, env), node.span)

    def _comprehension(self, node: A.Comprehension, env: dict) -> Any:
        out: list[Any] = []
        local = dict(env)
        self._comp(node, 0, local, out)
        return check_nested(self, out, node.span)

    def _comp(self, node: A.Comprehension, i: int, env: dict, out: list) -> None:
        if i == len(node.clauses):
            out.append(self.ev(node.elt, env))
            return
        clause = node.clauses[i]
        for v in self.iterate(self.ev(clause.iter, env), clause.iter.span):
            self.tick(clause.span)
            env[clause.var] = v
            if clause.cond is None or self.truth(clause.cond, env):
                self._comp(node, i + 1, env, out)

    def _comp_lazy(self, node: A.Comprehension, i: int, env: dict) -> Any:
        """The items of a comprehension one at a time (for any/all, which stop at the deciding item)."""
        if i == len(node.clauses):
            yield self.ev(node.elt, env)
            return
        clause = node.clauses[i]
        for v in self.iterate(self.ev(clause.iter, env), clause.iter.span):
            self.tick(clause.span)
            env[clause.var] = v
            if clause.cond is None or self.truth(clause.cond, env):
                yield from self._comp_lazy(node, i + 1, env)

    # ============================================================ collections
    def iterate(self, v: Any, span: Any) -> list[Any]:
        """The items of a list, the cells of a board zone, or the pieces of a place."""
        if isinstance(v, list):
            return v
        if isinstance(v, ZoneRef):
            z = self.r.zones[v.name]
            if z.is_board:
                return self.cells_of(v)
            return [PIECE_REFS[i] for i in self.s.contents(v)]
        if isinstance(v, Cell):
            return [PIECE_REFS[i] for i in self.s.contents(v)]
        if isinstance(v, (tuple, set, frozenset)):
            return list(v)
        if isinstance(v, ZoneFamily):
            return list(v.zones)
        raise RuleError(f"cannot go through {self.describe(v)}", span)

    def cells_of(self, zone: ZoneRef) -> list[Cell]:
        """Cells of a board zone (for unbounded grids: the occupied cells)."""
        z = self.r.zones[zone.name]
        if z.decl.type == "grid" and z.decl.unbounded:
            s = self.s
            hit = s.derived.get(zone)
            if hit is not None and hit[0] == s.clock:
                return hit[1]  # shared: the engine never changes a list value in place
            cells = [p for p, lst in s.places.items()
                     if lst and isinstance(p, Cell) and p.zone == zone.name and p.owner == zone.owner]
            cells.sort(key=_row_major)
            s.derived[zone] = (s.clock, cells)
            return cells
        cache = self.r.__dict__.setdefault("_cells_cache", {})  # fixed boards: the same cells every time
        cells = cache.get(zone)
        if cells is None:
            cells = cache[zone] = [Cell(zone.name, zone.owner, pos) for pos in z.all_positions()]
        return cells

    def pieces_in(self, place: Any) -> list[PieceRef]:
        """Pieces in a place; for a board zone, in all its cells."""
        if isinstance(place, ZoneRef) and self.r.zones[place.name].is_board:
            s = self.s
            key = ("pieces", place)
            hit = s.derived.get(key)
            if hit is not None and hit[0] == s.clock:
                return list(hit[1])  # a copy: callers may extend the list
            out: list[PieceRef] = []
            places = s.places  # (what s.contents reads, without a call per cell)
            for c in self.cells_of(place):
                ids = places.get(c)
                if ids:
                    out.extend(map(PIECE_REFS.__getitem__, ids))
            s.derived[key] = (s.clock, out)
            return list(out)
        return [PIECE_REFS[i] for i in self.s.contents(place)]

    def place_size(self, place: Any) -> int:
        """Number of pieces in a place (a cell, a zone, or all cells of a board zone), as len(pieces_in)."""
        # counted without making a piece list: end checks count the bag and the decks at every timing
        places = self.s.places
        if isinstance(place, ZoneRef) and self.r.zones[place.name].is_board:
            n = 0
            for c in self.cells_of(place):
                ids = places.get(c)
                if ids:
                    n += len(ids)
            return n
        return len(places.get(place) or ())

    def as_place(self, v: Any, span: Any) -> Any:
        """Check that v can hold pieces directly (a non-board zone or a cell)."""
        if isinstance(v, Cell):
            return v
        if isinstance(v, ZoneRef):
            if self.r.zones[v.name].is_board:
                raise RuleError(f"'{v.name}' is a board: pieces go into its cells, not the zone", span)
            return v
        raise RuleError(f"expected a place (a zone or a cell), got {self.describe(v)}", span)

    def as_pieces(self, v: Any, span: Any) -> list[int]:
        """Piece ids from a piece or a list of pieces."""
        if isinstance(v, PieceRef):
            return [v.id]
        if isinstance(v, list) and all(isinstance(x, PieceRef) for x in v):
            return [x.id for x in v]
        if v is None:
            return []
        raise RuleError(f"expected a piece or a list of pieces, got {self.describe(v)}", span)

    def tick(self, span: Any) -> None:
        """Count one loop iteration against the loop limit."""
        self.loops += 1
        if self.loops > self.limits.loop:
            raise RunawayError(
                f"more than {self.limits.loop} loop iterations in one step (limit loop); "
                f"raise it with --limit loop=N", span)

    # ================================================================ display
    def label(self, v: Any) -> str:
        """How a value is shown in menus and logs."""
        cls = v.__class__
        if cls is str:
            return v
        if cls is int:
            return str(v)
        if cls is Cell:
            return v.label
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, Player):
            return self.r.seat_name(v)
        if isinstance(v, PieceRef):
            return self.piece_label(v.id)
        if isinstance(v, Cell):
            return v.label
        if isinstance(v, ZoneRef):
            return v.name if v.owner is None else f"{v.name} of {self.r.seat_name(v.owner)}"
        if isinstance(v, list):
            return ", ".join(self.label(x) for x in v)
        if isinstance(v, Record):
            return ", ".join(f"{k}={self.label(x)}" for k, x in v.items())
        if isinstance(v, ZoneFamily):
            return v.name
        return str(v)

    def piece_label(self, pid: int) -> str:
        """A piece's name: its kind's label expression, its `name`, or its enumerated attributes."""
        kind = self.r.kinds[self.s.kinds[pid]]
        if kind.label is not None:
            return str(self.ev(kind.label, {"it": PieceRef(pid)}))
        attrs = self.s.attrs[pid]
        if "name" in attrs:
            return str(attrs["name"])
        words = [self.r.seat_name(v) if isinstance(v, Player) else str(v)
                 for a in kind.decl.attributes if (v := attrs.get(a)) is not None and not isinstance(v, (list, dict))]
        return " ".join(words + [kind.name]) if words else kind.name

    def describe(self, v: Any) -> str:
        """A value with its type, for error messages."""
        if v is None:
            return "none"
        if isinstance(v, bool):
            return f"the truth value {str(v).lower()}"
        if isinstance(v, Player):
            return f"player {self.label(v)}"
        if isinstance(v, int):
            return f"the number {v}"
        if isinstance(v, str):
            return f"the text {v!r}"
        if isinstance(v, PieceRef):
            return f"piece '{self.label(v)}'"
        if isinstance(v, Cell):
            return f"cell {v.label}"
        if isinstance(v, ZoneRef):
            return f"zone '{v.name}'"
        if isinstance(v, list):
            return f"a list of {len(v)}"
        if isinstance(v, TableRef):
            return f"table '{v.name}'"
        if isinstance(v, ZoneFamily):
            return f"the zones '{v.name}' (one per key: pick one with {v.name}[KEY])"
        return type(v).__name__

    # ============================================================= statements
    def run(self, block: A.Block | None, env: dict[str, Any] | None = None) -> None:
        """Execute an effect."""
        if block is None:
            return
        env = {} if env is None else env
        for stmt in block.body:
            _EXEC[type(stmt)](self, stmt, env)

    def current(self) -> Player:
        """The acting player."""
        return Player(self.s.cursor.current)


_UNSET = object()  # (a name that was not bound before a `let ... in`)

# values whose label depends on the rules alone, never on the state: their menu labels are made when read
_FIXED_LABEL = frozenset({str, int, bool, type(None), Cell, Player, ZoneRef})


def _row_major(c: Cell) -> tuple:
    """Sort key of a grid cell: by row, then column."""
    return (c.pos[1], c.pos[0])


def _lazy_any(items: Any) -> bool:
    return any(x is True for x in items)


def _lazy_all(items: Any) -> bool:
    return all(x is True for x in items)


# any/all over a comprehension stop at the first item that decides (docs/dsl.md, "any and all")
_LAZY = {"any": _lazy_any, "all": _lazy_all}


_EVAL: dict[type, Callable[[Interp, Any, dict], Any]] = {
    A.Literal: Interp._literal,
    A.Name: Interp._name,
    A.Attr: Interp._attr,
    A.Index: Interp._index,
    A.Call: Interp._call,
    A.Unary: Interp._unary,
    A.Binary: Interp._binary,
    A.Cond: Interp._cond,
    A.ListLit: Interp._list,
    A.Record: Interp._record,
    A.Comprehension: Interp._comprehension,
    A.LetIn: Interp._let_in,
    A.Slice: Interp._slice,
    A.NoMatch: Interp._no_match,
}

from .effects import EXEC as _EXEC  # noqa: E402  (statements live in their own module)


class FastInterp(Interp):
    """The interpreter of a game on the compiled fast path: expressions and blocks run their compiled functions
    (Interp.__init__ makes an interpreter one when its rules are compiled)."""

    def ev(self, node: A.Expr, env: dict[str, Any]) -> Any:
        """Evaluate an expression with its compiled function (compiled late when it has none yet)."""
        fn = self.fast.fns.get(id(node))
        if fn is None:
            fn = self.fast.late(self.r, node)
        return fn(self, env)

    def run(self, block: A.Block | None, env: dict[str, Any] | None = None) -> None:
        """Run a block with its compiled function (compiled late when it has none yet)."""
        if block is None:
            return
        fn = self.fast.fns.get(id(block))
        if fn is None:
            fn = self.fast.late(self.r, block)
        fn(self, {} if env is None else env)

