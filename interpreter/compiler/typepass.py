"""Static types of a spec's values, for the typed code generator (typedgen.py).

Every expression gets a type, or `any` when the pass cannot be sure.  A type is a string:

- `int` (a whole number, never true/false or none), `bool`, `str`, `none`, `player`, `piece`, `cell`, `zone`,
  `table`, `record`; `bpiece`, a piece an expression found in a cell of a board (while that expression is
  evaluated nothing moves it: its `cell` is a cell), a `piece` once stored anywhere;
- `list:T`, a list whose items all have type T (`list:` alone: a list with no items);
- `?T`: a value of type T, or none (`?list:cell` a list of cells or none, `list:?cell` a list of cells and nones);
- `any`: unknown.  `""` (NEVER) stands for "no value yet" while the pass works the types out.

What a value can be is worked out from every place it can come from, never from a declaration alone (a
declaration says what a value should hold; an unchecked spec, or a value of unknown type, can put anything
there): a spec variable's type joins its `start` and every value assigned to it; a piece attribute's joins
its kinds' defaults, the counted pieces' values, every `create` and every assignment; a player variable's
and a track's the same way; an effect's local names (`let`, loops, `choose`, parameters, binds) join every
value bound to them in any effect.  The types of these depend on each other, so they are worked out
together until nothing changes (a fixpoint over a small lattice: each can only grow towards `any`).

A construct the pass does not know (a node type added to the language later) has type `any`; a statement it
does not know might write anything anywhere, so then every variable, attribute and local name is `any`:
the typed generator then writes the general code, which is always right.  Values a scenario's extra setup
writes are not seen here either: the engine compiles such games without types (engine/game.py).

Spec functions are typed per call: the type of a call is the type of the body with the parameters bound to
the arguments' types (`result`), remembered per (function, argument types); a recursive call is `any`.
"""

from __future__ import annotations

from typing import Any, Iterable

from orrery.rulespec import ast as A

ANY, NEVER, NONE = "any", "", "none"
INT, BOOL, STR = "int", "bool", "str"
PLAYER, PIECE, CELL, ZONE, TABLE, RECORD = "player", "piece", "cell", "zone", "table", "record"
# a piece in a cell of a board, as found by the expression that holds it (pieces(board), top(c), c.pieces):
# nothing moves a piece while an expression is evaluated, so its `cell` is a cell there; stored anywhere (a
# variable, an attribute, an effect's name) it is a `piece` again (`settled`)
BPIECE = "bpiece"
_ROUNDS = 12  # fixpoint rounds before whatever still changes is given up as `any`
# a key of `local` marking a spec function's body: it sees its parameters and the spec's names, never an env
FUNCTION_BODY = "\x00function"


# ------------------------------------------------------------------ the type algebra


def is_list(t: str) -> bool:
    """A list type (never none)."""
    return t.startswith("list:")


def optional(t: str) -> bool:
    """A type that includes none."""
    return t.startswith("?") or t in (NONE, ANY)


def strip(t: str) -> str:
    """The type without its none: `?cell` -> `cell`."""
    return t[1:] if t.startswith("?") else t


def maybe(t: str) -> str:
    """T or none (written `?T`)."""
    if t in (ANY, NONE, NEVER) or t.startswith("?"):
        return t
    return "?" + t


def elem(t: str) -> str:
    """The items' type of a list type, none or not (`any` for anything else)."""
    t = strip(t)
    return t[5:] if is_list(t) else NEVER if t == NEVER else ANY


def list_of(t: str) -> str:
    """The type of a list whose items have type t."""
    return "list:" + t


def join(a: str, b: str) -> str:
    """The type of a value that may be an `a` or a `b`."""
    if a == NEVER or a == b:
        return b
    if b == NEVER:
        return a
    if ANY in (a, b):
        return ANY
    if a == NONE:
        return maybe(b)
    if b == NONE:
        return maybe(a)
    sa, sb = strip(a), strip(b)
    none = sa != a or sb != b
    if {sa, sb} == {PIECE, BPIECE}:
        sa = sb = PIECE
    if sa == sb:
        out = sa
    elif is_list(sa) and is_list(sb):
        out = list_of(join(elem(sa), elem(sb)))
    else:
        return ANY
    return maybe(out) if none else out


def join_all(types: Iterable[str]) -> str:
    """The join of several types (NEVER for none)."""
    out = NEVER
    for t in types:
        out = join(out, t)
    return out


def counted_values(r: Any) -> Iterable[tuple[str, Any]]:
    """Every (attribute, value) a counted piece starts with (Rules.initial_pieces's values, each once: a kind's
    count and the product of its listed values do not change which values there are)."""
    from orrery.rulespec.models import attr_values

    from ..core.rules import INSTANCE_KEYS

    for name, k in r.kinds.items():
        decl = k.decl
        if decl.unlimited:
            continue
        if decl.instances is not None:
            for inst in decl.instances:
                if int(inst.get("count", decl.count)) > 0:
                    yield from {**k.defaults, **{a: r.coerce_attr(name, a, v) for a, v in inst.items()
                                                 if a not in INSTANCE_KEYS}}.items()
            continue
        if decl.count > 0:
            words = r.spec.model.names  # (an attribute typed by a `names:` set takes its words: Rules.initial_pieces)
            enums = {a: attr_values(d, words) for a, d in decl.attributes.items() if attr_values(d, words)}
            yield from ((a, v) for a, v in k.defaults.items() if a not in enums)
            yield from ((a, v) for a, vals in enums.items() for v in vals)


def value_type(v: Any) -> str:
    """The type of a value written in YAML (a default, a counted piece's attribute)."""
    from ..core.values import Player

    if v is None:
        return NONE
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, Player):
        return PLAYER
    if isinstance(v, int):
        return INT
    if isinstance(v, str):
        return STR
    if isinstance(v, list):
        return list_of(join_all(value_type(x) for x in v)) if v else list_of(NEVER)
    return ANY


def scalar(t: str) -> bool:
    """A known type whose Python `==` is the language's (never true/false, a list, a record or unknown)."""
    return strip(t) in (INT, STR, PLAYER, PIECE, BPIECE, CELL, ZONE, NONE)


def is_piece(t: str) -> bool:
    """A piece (found on a board or not), never none."""
    return t in (PIECE, BPIECE)


def settled(t: str) -> str:
    """A type as stored: a piece found on a board may be elsewhere by the time the stored value is read."""
    return t.replace(BPIECE, PIECE) if BPIECE in t else t


def numeric(t: str) -> bool:
    """A whole number or a player (a seat number), never none."""
    return t in (INT, PLAYER)


# ------------------------------------------------------------------ what the pass knows

_SPECIAL = {"current": PLAYER, "players": list_of(PLAYER), "num_players": INT, "round": INT, "turn": INT,
            "phase": maybe(STR), "first_player": PLAYER, "cascade": INT}
# names the engine binds in some envs (analysis.env_bound_names), with the types it gives them
_ENGINE_NAMES = {"event": RECORD, "p": PLAYER, "it": PIECE, "__rule__": maybe(STR), "winners": list_of(PLAYER),
                 "matched_at": ANY, "ended": ANY}
_CELL_ATTRS = {"x": INT, "y": INT, "label": STR, "pieces": list_of(BPIECE), "size": INT, "owner": maybe(PLAYER),
               "zone": ZONE}
_ZONE_ATTRS = {"size": INT, "pieces": list_of(PIECE), "owner": maybe(PLAYER), "name": STR}
_PLAYER_ATTRS = {"seat": INT, "name": STR, "passed": BOOL, "next": PLAYER}
_PIECE_BUILTIN = {"kind": STR, "id": INT, "place": ANY, "cell": ANY}
_LISTS = {"cells": CELL, "adjacent": CELL, "line": CELL, "connected": CELL, "pieces": PIECE,
          "players_from": PLAYER, "range": INT, "dirs": STR}
_RESULTS = {"count": INT, "len": INT, "size": INT, "any": BOOL, "all": BOOL, "empty": BOOL, "in_bounds": BOOL,
            "abs": INT, "text": STR, "index_of": INT, "changed_at": INT, "distance": INT, "random_int": INT,
            "next_player": PLAYER, "zone_of": ZONE, "rotate": STR, "opposite": STR, "cell": maybe(CELL),
            "neighbor": maybe(CELL), "top": maybe(PIECE), "bottom": maybe(PIECE), "owner_of": maybe(PLAYER),
            "direction": maybe(STR), "lines": list_of(list_of(CELL)), "groups": list_of(list_of(CELL))}
_SAME_LIST = frozenset({"sorted", "reversed", "shuffled", "unique"})
_COMPARE = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or"})

# the nodes the pass knows; a spec with any other kind of statement is typed without state types
KNOWN_EXPRS = (A.Literal, A.Name, A.Attr, A.Index, A.Call, A.Unary, A.Binary, A.Cond, A.ListLit, A.Record,
               A.Comprehension, A.LetIn, A.NoMatch, A.Slice)
# (`use` runs abilities whose statements are effects of the spec, walked like any other; `open` binds only
# `event`; `commit` binds its name: _Writes)
KNOWN_STMTS = (A.Let, A.Assign, A.If, A.For, A.While, A.Repeat, A.Choose, A.Require, A.Move, A.Create, A.Destroy,
               A.Draw, A.Shuffle, A.Swap, A.Emit, A.EndGame, A.Settle, A.Pass, A.EndTurn, A.Say, A.CallProc,
               A.Perform, A.Commit, A.Use, A.Open)
_KNOWN = KNOWN_EXPRS + KNOWN_STMTS + (A.Block, A.CompFor)


class TypePass:
    """The types of one spec's values (see the module doc); `of(node, local)` types an expression."""

    def __init__(self, rules: Any):
        self.rules = rules
        self.roots = _all_roots(rules)
        nodes = [n for root in self.roots for n in root.walk()]
        # False when the spec holds a node the pass does not know: no state or local type is trusted then
        self.sound = all(isinstance(n, _KNOWN) for n in nodes)
        self._writing = [n for n in nodes if type(n).__name__ in _WRITERS]  # what each round looks at
        self.vars: dict[str, str] = {}  # spec variables (and global tracks)
        self.pvars: dict[str, str] = {}  # player variables and per-player tracks
        self.attrs: dict[str, str] = {}  # piece attributes by name
        self.env: dict[str, str] = dict(_ENGINE_NAMES)  # effect-level names, joined over every effect
        self._results: dict[tuple, str] = {}
        self._memo: dict[tuple, str] = {}  # (node, local names' types) -> type, once the types are final
        self._busy: set[tuple] = set()
        self._counted: dict[str, str] | None = None  # the counted pieces' attribute types (counted_values)
        self.constants: dict[str, Any] = {}  # spec variables nothing ever assigns, whose start is written out
        if self.sound:
            self._solve()
            self.constants = self._constants()
        else:
            self._give_up()

    # ------------------------------------------------------------ expressions
    def of(self, node: A.Expr | None, local: dict[str, str] | None = None) -> str:
        """The type of an expression; `local` types the Python-local names in scope (comprehension variables,
        a spec function's parameters) and the effect names known to be bound (typedgen passes them)."""
        if node is None:
            return NONE
        visit = getattr(self, f"_{type(node).__name__}", None)
        if visit is None or not isinstance(node, KNOWN_EXPRS):
            return ANY
        if not self._stable:
            return visit(node, local or {})
        key = (id(node), tuple(local.items()) if local else ())
        t = self._memo.get(key)
        if t is None:
            t = self._memo[key] = visit(node, local or {})
        return t

    def _Literal(self, node: A.Literal, local: dict) -> str:
        return value_type(node.value)

    def _Name(self, node: A.Name, local: dict) -> str:
        if node.id in local:
            return local[node.id]
        glob = self.global_type(node.id)
        if FUNCTION_BODY not in local and node.id in self.env_names:
            return join(self.env.get(node.id, NEVER), glob)
        return glob

    @property
    def env_names(self) -> set[str]:
        """Every name an effect's env may bind at run time (analysis.env_bound_names)."""
        names = self.__dict__.get("_env_names")
        if names is None:
            from .analysis import env_bound_names

            names = self.__dict__["_env_names"] = env_bound_names(self.rules)
        return names

    def global_type(self, name: str) -> str:
        """The type of a spec-level name (as the interpreter resolves it when no local has it)."""
        kind = self.rules.names.get(name, (None, None))[0]
        if kind == "special":
            return _SPECIAL.get(name, ANY)
        if kind == "var":
            return self.vars.get(name, NEVER)
        if kind == "zone":
            return ZONE
        if kind == "table":
            return TABLE
        if kind in ("kind", "action", "end"):
            return STR
        if kind == "const":  # a constant of the spec (`constants:`, `names:`): its value's type
            return value_type(self.rules.names[name][1])
        return NEVER  # an unknown name: an error at run time, never a value

    def _Attr(self, node: A.Attr, local: dict) -> str:
        obj_t = strip(self.of(node.obj, local))
        if obj_t == ZONE and node.name in ("width", "height"):
            return INT if self.extent(node, local) is not None else ANY
        return self.attr_type(obj_t, node.name)

    def extent(self, node: A.Attr, local: dict) -> int | None:
        """The width or height of a bounded grid written by its zone's name (`board.height`): known now; None
        for anything else (another zone's has none: an error at run time)."""
        obj, r = node.obj, self.rules
        if not isinstance(obj, A.Name) or obj.id in local or r.names.get(obj.id, (None,))[0] != "zone" \
                or obj.id not in r.zones or (FUNCTION_BODY not in local and obj.id in self.env_names):
            return None
        z = r.zones[obj.id]
        d = z.decl
        if z.per_player or d.type != "grid" or d.unbounded or node.name not in ("width", "height"):
            return None
        return d.width if node.name == "width" else d.height

    def attr_type(self, obj: str, name: str) -> str:
        """The type of `x.name` for x of type obj (not none)."""
        r = self.rules
        if obj == NEVER:
            return NEVER  # (not known yet: the fixpoint's next round knows)
        if obj == PLAYER:
            if name in r.player_var_names:
                return self.pvars.get(name, NEVER)
            if name in r.player_zone_names:
                return ZONE
            return _PLAYER_ATTRS.get(name, ANY)
        if obj in (PIECE, BPIECE):
            if name in self.attrs:
                return self.attrs[name]
            if obj == BPIECE and name in ("cell", "place"):
                return CELL
            return _PIECE_BUILTIN.get(name, ANY)
        if obj == CELL:
            return _CELL_ATTRS.get(name) or self.cell_attr_type(name)
        if obj == ZONE:
            return _ZONE_ATTRS.get(name, ANY)
        return ANY

    def cell_attr_type(self, name: str) -> str:
        """The type of a cell attribute the zones declare (`cell_attributes:`, never assigned): every value a
        declaring zone's cells hold (a cell of another zone has none: an error at run time, not a value)."""
        values = [v for z in self.rules.zones.values() if name in z.cell_defaults
                  for v in [z.cell_defaults[name]] + [a[name] for a in z.cell_attrs.values() if name in a]]
        return join_all(value_type(v) for v in values) if values else ANY

    def _Index(self, node: A.Index, local: dict) -> str:
        table = node.obj.id if isinstance(node.obj, A.Name) and node.obj.id not in local else None
        if table is not None and self.rules.names.get(table, (None,))[0] == "table" and \
                (FUNCTION_BODY in local or table not in self.env_names):
            self.of(node.index, local)
            return self.table_type(table)
        obj = strip(self.of(node.obj, local))
        self.of(node.index, local)
        if is_list(obj):
            return elem(obj)  # (out of range, or none indexed: an error, never a value)
        return ANY

    def table_type(self, name: str) -> str:
        """The type of a table's entries (a mapping row is a record): the join of every entry and the default."""
        decl = self.rules.tables[name]
        rows = decl.values.values() if isinstance(decl.values, dict) else decl.values
        t = join_all(RECORD if isinstance(v, dict) else value_type(v) for v in rows)
        if decl.default is not None or getattr(decl, "above", None) == "default":
            t = join(t, value_type(decl.default))
        return t if t != NEVER else ANY

    def _Unary(self, node: A.Unary, local: dict) -> str:
        self.of(node.operand, local)
        return BOOL if node.op == "not" else INT

    def _Binary(self, node: A.Binary, local: dict) -> str:
        left, right = self.of(node.left, local), self.of(node.right, local)
        if node.op in _COMPARE:
            return BOOL
        if NEVER in (left, right):
            return NEVER
        if node.op == "+":
            if numeric(left) and numeric(right):
                return INT
            if left == right == STR:
                return STR
            if is_list(left) and is_list(right):
                return join(left, right)
            return ANY
        return INT if numeric(left) and numeric(right) else ANY

    def _Cond(self, node: A.Cond, local: dict) -> str:
        self.of(node.test, local)
        return join(self.of(node.then, narrowed(node.test, local, self)), self.of(node.else_, local))

    def _ListLit(self, node: A.ListLit, local: dict) -> str:
        return list_of(join_all(self.of(x, local) for x in node.items))

    def _LetIn(self, node: A.LetIn, local: dict) -> str:
        return self.of(node.body, {**local, node.name: self.of(node.value, local)})

    def _NoMatch(self, node: A.NoMatch, local: dict) -> str:
        self.of(node.subject, local)
        return NEVER  # (an error, never a value)

    def _Slice(self, node: A.Slice, local: dict) -> str:
        for bound in (node.start, node.stop):
            self.of(bound, local)
        t = self.of(node.obj, local)
        return t if is_list(t) or t == STR else ANY

    def _Record(self, node: A.Record, local: dict) -> str:
        for _, v in node.items:
            self.of(v, local)
        return RECORD

    def _Comprehension(self, node: A.Comprehension, local: dict) -> str:
        return list_of(self.of(node.elt, self.clause_types(node, local)))

    def clause_types(self, node: A.Comprehension, local: dict) -> dict[str, str]:
        """`local` with the comprehension's variables, each typed as its domain's items."""
        inner = dict(local)
        for clause in node.clauses:
            inner[clause.var] = self.items(clause.iter, inner)
            if clause.cond is not None:
                self.of(clause.cond, inner)
                inner = narrowed(clause.cond, inner, self)
        return inner

    def _Call(self, node: A.Call, local: dict) -> str:
        args = [self.of(a, local) for a in node.args]
        for _, v in node.kwargs:
            self.of(v, local)
        if node.func in self.rules.functions:
            if node.kwargs or len(args) != len(self.rules.functions[node.func][0]):
                return ANY
            if NEVER in args:
                return NEVER
            return self.result(node.func, tuple(args))
        if node.func == "pieces" and len(args) == 1 and args[0] == CELL:
            return list_of(BPIECE)
        if node.func == "pieces" and len(args) == 1 and args[0] == ZONE and self.board_named(node.args[0], local):
            return list_of(BPIECE)
        if node.func in ("top", "bottom") and args == [CELL]:
            return maybe(BPIECE)
        if node.func == "place_of" and len(args) == 1 and strip(args[0]) == BPIECE:
            return CELL  # (as `.cell` of a piece found on a board; none has no place: an error, not a value)
        if node.func in ("min", "max") and len(args) == 1 and is_list(args[0]) and len(node.kwargs) == 1 \
                and node.kwargs[0][0] == "default":  # (the list's smallest or largest item, or the default)
            return join(elem(args[0]), self.of(node.kwargs[0][1], local))
        return builtin_type(node.func, args, node)

    def items(self, node: A.Expr, local: dict) -> str:
        """The type of the items a loop over `node` goes through: a list's items, a pieces zone's pieces."""
        t = self.of(node, local)
        if t == ZONE and self.piece_zone(node, local) is not None:
            return PIECE
        return elem(t)

    def piece_zone(self, node: A.Expr, local: dict) -> str | None:
        """The name of the zone `node`'s value always is a reference of, when that zone is not a board (a place
        that holds pieces itself: a loop goes through its pieces, `size` counts them): a player's zone
        (`who.hand`, `who` a player), or a zone shared by all players written by its name; else None."""
        r = self.rules
        if isinstance(node, A.Attr):
            name = node.name
            if name not in r.player_zone_names or name in r.player_var_names or self.of(node.obj, local) != PLAYER:
                return None
        elif isinstance(node, A.Name):
            name = node.id
            if (name in local or (FUNCTION_BODY not in local and name in self.env_names)
                    or r.names.get(name, (None,))[0] != "zone" or name not in r.zones or r.zones[name].per_player):
                return None
        else:
            return None
        z = r.zones.get(name)
        return None if z is None or z.is_board else name

    def board_named(self, node: A.Expr, local: dict) -> bool:
        """A board zone written by its name (no local or env name can stand for it there)."""
        if not isinstance(node, A.Name) or node.id in local:
            return False
        if FUNCTION_BODY not in local and node.id in self.env_names:
            return False
        z = self.rules.zones.get(node.id)
        return self.rules.names.get(node.id, (None,))[0] == "zone" and z is not None and z.is_board

    def result(self, name: str, args: tuple[str, ...]) -> str:
        """The type of a spec function's value for arguments of these types (`any` while recursing)."""
        key = (name, args)
        if key in self._results:
            return self._results[key]
        if key in self._busy:
            return ANY
        params, body = self.rules.functions[name]
        self._busy.add(key)
        try:
            t = self.of(body, {FUNCTION_BODY: NEVER, **dict(zip(params, args))}) if body is not None else ANY
        finally:
            self._busy.discard(key)
        if self._stable:
            self._results[key] = t
        return t

    _stable = False  # results are remembered only once the state types are final

    # ------------------------------------------------------------ the fixpoint
    def _solve(self) -> None:
        for _ in range(_ROUNDS):
            before = (dict(self.vars), dict(self.pvars), dict(self.attrs), dict(self.env))
            self._round()
            if before == (self.vars, self.pvars, self.attrs, self.env):
                for table in (self.vars, self.pvars, self.attrs):  # never given a value: nothing is known
                    for k, t in table.items():
                        if t == NEVER:
                            table[k] = ANY
                self._stable = True
                return
        self._give_up()

    def _give_up(self) -> None:
        """Every state and local type unknown (the general code everywhere values are read from them)."""
        r = self.rules
        self.vars = {n: ANY for n, (k, _) in r.names.items() if k == "var"}
        self.pvars = {n: ANY for n in r.player_var_names}
        self.attrs = {n: ANY for k in r.kinds.values() for n in k.defaults}
        self.env = {n: ANY for n in self.env_names}
        self._stable = True

    def _round(self) -> None:
        r, spec = self.rules, self.rules.spec
        vars_, pvars, attrs, env = {}, {}, {}, dict(_ENGINE_NAMES)
        if "self" in self.env_names:  # (pieces' abilities: core/abilities.py env_of)
            env.update(self=PIECE, owner=PLAYER)
        for name, (kind, _) in r.names.items():
            if kind == "var":
                vars_[name] = self._start(name, False)
        for name in r.player_var_names:
            pvars[name] = self._start(name, True)
        if self._counted is None:  # (the same every round)
            self._counted = {}
            for a, v in counted_values(r):
                self._counted[a] = join(self._counted.get(a, NEVER), value_type(v))
        attrs.update(self._counted)
        writes = _Writes(self, vars_, pvars, attrs, env)
        for node in self._writing:
            getattr(writes, f"_{type(node).__name__}")(node)
        for name, action in r.actions.items():
            for p in action.params:
                env[p.name] = join(env.get(p.name, NEVER), settled(elem(self.of(p.domain))))
        for t in r.triggers:
            if t.var:
                env[t.var] = join(env.get(t.var, NEVER), settled(elem(self.of(t.domain))))
        for action in r.actions.values():  # a cost takes a number off a player's variable (frames._pay)
            for var, amount in action.cost:
                pvars[var] = join(pvars.get(var, NEVER), INT if numeric(self.of(amount)) else ANY)
        self.vars, self.pvars, self.attrs, self.env = vars_, pvars, attrs, env

    def _constants(self) -> dict[str, Any]:
        """Variables no statement assigns and whose `start` is a literal (or a list of them): their value is
        that, all game long (a state whose setup comes from outside runs untyped code: engine/game.py)."""
        r, spec = self.rules, self.rules.spec
        assigned = {n.target.id for n in self._writing if isinstance(n, A.Assign) and isinstance(n.target, A.Name)}
        out: dict[str, Any] = {}
        for name, (kind, _) in r.names.items():
            if kind != "var" or name in assigned or name in r.tracks:
                continue
            value = literal_value(spec.expr("variables", name, "start"))
            if value is not _NOT_LITERAL:
                out[name] = value
        return out

    def _start(self, name: str, per_player: bool) -> str:
        spec, r = self.rules.spec, self.rules
        if name in r.tracks:
            expr = spec.expr("components", "tracks", name, "start")
            return join(INT, settled(self.of(expr, {"p": PLAYER}))) if expr is not None else INT
        expr = spec.expr("variables", name, "start")
        return settled(self.of(expr, {"p": PLAYER})) if expr is not None else NONE


class _Writes:
    """One round's walk over every effect: what each statement writes, joined into the round's tables."""

    def __init__(self, tp: TypePass, vars_: dict, pvars: dict, attrs: dict, env: dict):
        self.tp, self.vars, self.pvars, self.attrs, self.env = tp, vars_, pvars, attrs, env
        r = tp.rules
        self.defaults = {k: {a: value_type(v) for a, v in kind.defaults.items()} for k, kind in r.kinds.items()}
        self.player_attrs = r.player_attrs

    def bind(self, name: str, t: str) -> None:
        self.env[name] = join(self.env.get(name, NEVER), settled(t))

    def _Let(self, n: A.Let) -> None:
        self.bind(n.name, self.tp.of(n.value))

    def _For(self, n: A.For) -> None:
        self.bind(n.var, self.tp.items(n.iter, {}))

    def _Choose(self, n: A.Choose) -> None:
        t = elem(self.tp.of(n.domain))
        self.bind(n.var, maybe(t) if n.optional else t)

    def _Commit(self, n: A.Commit) -> None:
        self.bind(n.var, ANY)  # (after the reveal, one answer or none per seat)

    def _CompFor(self, n: A.CompFor) -> None:
        pass  # comprehension variables are Python locals, typed where they are read (clause_types)

    def _Create(self, n: A.Create) -> None:
        if n.bind:
            self.bind(n.bind, PIECE)
        given = {k: self.tp.of(v) for k, v in n.attrs.items} if n.attrs is not None else {}
        for a, t in self.defaults.get(n.kind, {}).items():
            self.attr(n.kind, a, given.get(a, t))
        for a, t in given.items():
            if a not in self.defaults.get(n.kind, {}):
                self.attr(n.kind, a, t)

    def attr(self, kind: str | None, a: str, t: str) -> None:
        """A value of type t written to attribute `a` of a piece of `kind` (None: of any kind)."""
        if strip(t) == INT:
            # `player` attributes hold players even when written as seat numbers (rules.coerce_attr): for a
            # piece of unknown kind, only when every kind declares `a` so
            as_player = PLAYER if t == INT else maybe(PLAYER)
            kinds = self.player_attrs if kind is None else {kind: self.player_attrs.get(kind, set())}
            if all(a in attrs for attrs in kinds.values()):
                t = as_player
            elif any(a in attrs for attrs in kinds.values()):
                t = join(t, as_player)
        self.attrs[a] = join(self.attrs.get(a, NEVER), settled(t))

    def _Draw(self, n: A.Draw) -> None:
        if n.bind:
            self.bind(n.bind, list_of(PIECE))

    def _CallProc(self, n: A.CallProc) -> None:
        proc = self.tp.rules.procedures.get(n.name)
        if proc is None:
            return
        for p, a in zip(proc[0], n.args):
            self.bind(p, self.tp.of(a))
        for k, v in n.kwargs:
            self.bind(k, self.tp.of(v))

    def _Assign(self, n: A.Assign) -> None:
        tp, value = self.tp, self.tp.of(n.value)
        target = n.target
        if isinstance(target, A.Name):
            name = target.id
            if name in tp.env_names:
                self.bind(name, combined(n.op, self.env.get(name, NEVER), value))
            if tp.rules.names.get(name, (None,))[0] == "var":
                old = tp.vars.get(name, NEVER)
                self.vars[name] = join(self.vars.get(name, NEVER), settled(combined(n.op, old, value)))
            return
        if isinstance(target, A.Attr):
            obj = strip(tp.of(target.obj))
            name = target.name
            if obj in (PLAYER, ANY) and name in tp.rules.player_var_names:
                old = tp.pvars.get(name, NEVER)
                self.pvars[name] = join(self.pvars.get(name, NEVER), settled(combined(n.op, old, value)))
            if obj in (PIECE, ANY):
                old = tp.attrs.get(name, NEVER)
                self.attr(None, name, combined(n.op, old, value))


_WRITERS = frozenset(n[1:] for n in vars(_Writes) if n.startswith("_") and n[1:2].isupper())


def combined(op: str, old: str, value: str) -> str:
    """The type of `old op= value` (effects._combine): `=` the value; on a list, `+=` adds an item or a list of
    them and `-=` keeps some of its items; on numbers a number, on texts `+=` a text.  Anything else (none
    included) is an error, never a value."""
    if op == "=":
        return value
    if old == NEVER or value == NEVER:
        return NEVER  # not known yet (the fixpoint's next round knows)
    base = strip(old)
    if is_list(base) and op in ("+=", "-="):
        if op == "-=":
            return base
        if value == ANY:
            return list_of(ANY)
        return join(base, list_of(elem(value) if is_list(strip(value)) and not optional(value) else value))
    if numeric(base) and numeric(value):
        return INT
    if op == "+=" and base == value == STR:
        return STR
    return ANY


_NOT_LITERAL = object()


def literal_value(node: A.Expr | None) -> Any:
    """The value of a literal or a list of literals (what the interpreter makes of it), else _NOT_LITERAL."""
    if isinstance(node, A.Literal) and (node.value is None or isinstance(node.value, (bool, int, str))):
        return node.value
    if isinstance(node, A.ListLit):
        items = [literal_value(x) for x in node.items]
        return _NOT_LITERAL if any(x is _NOT_LITERAL or isinstance(x, list) for x in items) else items
    return _NOT_LITERAL


def builtin_type(func: str, args: list[str], node: A.Call) -> str:
    """The type of a built-in's value given its arguments' types."""
    if func in _LISTS:
        return list_of(_LISTS[func])
    if func in _RESULTS:
        return _RESULTS[func]
    first = args[0] if args else ANY
    if first == NEVER:
        return NEVER
    if func in _SAME_LIST and len(args) == 1:
        return first if is_list(first) else ANY
    if func in ("first", "last") and len(args) == 1:
        return maybe(elem(first)) if is_list(first) else ANY
    if func in ("min", "max") and not node.kwargs:
        if len(args) == 1 and is_list(first):
            return elem(first)
        if len(args) == 2:
            return join(args[0], args[1])
    if func == "sum" and len(args) == 1 and elem(first) == INT:
        return INT
    return ANY


def narrowed(cond: A.Expr, local: dict, tp: TypePass) -> dict:
    """`local` as it stands where `cond` holds: a name tested `!= none` (alone, or on the left of an `and`)
    is not none there."""
    out = local
    for test in _conjuncts(cond):
        if (isinstance(test, A.Binary) and test.op == "!=" and isinstance(test.left, A.Name)
                and isinstance(test.right, A.Literal) and test.right.value is None):
            t = tp.of(test.left, out)
            if t.startswith("?"):
                out = {**out, test.left.id: strip(t)}
    return out


def _conjuncts(cond: A.Expr) -> list[A.Expr]:
    if isinstance(cond, A.Binary) and cond.op == "and":
        return _conjuncts(cond.left) + _conjuncts(cond.right)
    return [cond]


def _all_roots(rules: Any) -> list[A.Node]:
    """Every expression and effect of the spec."""
    spec = rules.spec
    return list(spec.exprs.values()) + list(spec.effects.values())


__all__ = ["TypePass", "FUNCTION_BODY", "narrowed", "settled", "is_piece", "BPIECE", "join", "maybe", "strip", "elem", "list_of", "is_list", "optional", "scalar", "numeric",
           "ANY", "NEVER", "NONE", "INT", "BOOL", "STR", "PLAYER", "PIECE", "CELL", "ZONE", "TABLE", "RECORD"]
