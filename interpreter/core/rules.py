"""The runtime view of a validated spec: zones, piece kinds, actions, triggers, flow.

Built once per GameSpec from its model and ASTs; shared (read-only) by every
state of every game of that spec.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from orrery.rulespec import ast as A
from orrery.rulespec.errors import Span
from orrery.rulespec.datacheck import build_types
from orrery.rulespec.gamespec import GameSpec
from orrery.rulespec.models import AttrDecl, PieceKind, ZoneDecl, attr_values
from orrery.rulespec.zonekeys import edges_of, instance_name, per_keys

from .causes import reads_causes
from .data import as_value, typed_value
from .decisions import RuleError
from .reactions import anytime_actions, owned_events, windows_after, windows_of
from .fallibility import Fallibility
from .abilities import abilities_of, initial_rows, templates_of
from .actioninfo import ActionInfo, ParamInfo, split_costs
from .activation import activate_actions
from .modifiers import quantities_of
from .payto import paid_to
from .uses import Limit, limit_of
from .values import DIAGONAL, HEX_DIRS, ORTHOGONAL, Player, ZoneRef, parse_cell_label
from .valueops import TableRef, ZoneFamily

ADJACENCY_DIRS = {
    "orthogonal": ORTHOGONAL,
    "diagonal": DIAGONAL,
    "king": ORTHOGONAL + DIAGONAL,
    "hex": list(HEX_DIRS),
}


# the keys of a listed piece (`instances:`) that are not its attributes
INSTANCE_KEYS = ("count", "id", "abilities")


@dataclass
class ZoneInfo:
    """A zone declaration, resolved."""

    name: str
    decl: ZoneDecl
    cell_attrs: dict[Any, dict[str, Any]] = field(default_factory=dict)
    cell_defaults: dict[str, Any] = field(default_factory=dict)
    graph_adj: dict[str, list[str]] = field(default_factory=dict)
    # a graph's edge attributes (defaults filled in) by (from, to); a two-way edge is there both ways
    edge_attrs: dict[tuple, dict[str, Any]] = field(default_factory=dict)
    family: str = ""  # the declared name: the zone's own, or its family's for one zone of a `per:` family
    key: Any = None  # the key of one zone of a `per:` family
    # the declaration's kind as plain fields (read on every loop over a zone; a declaration never changes)
    type: str = field(init=False)
    per_player: bool = field(init=False)
    is_board: bool = field(init=False)  # grids and graphs hold pieces in cells, not directly

    def __post_init__(self) -> None:
        self.family = self.family or self.name
        self.type = self.decl.type
        self.per_player = self.decl.per_player
        self.is_board = self.decl.type in ("grid", "graph")

    def in_bounds(self, pos: Any) -> bool:
        """Whether a position is a cell of this zone."""
        d = self.decl
        if d.type == "graph":
            return pos in self.graph_adj
        if d.unbounded:
            return True
        x, y = pos
        return 0 <= x < d.width and 0 <= y < d.height

    def all_positions(self) -> list[Any]:
        """Every cell position of a bounded grid (row by row from the bottom) or graph."""
        d = self.decl
        if d.type == "graph":
            return list(self.graph_adj)
        return [(x, y) for y in range(d.height) for x in range(d.width)]


@dataclass
class KindInfo:
    """A piece kind with attribute defaults and display expressions."""

    name: str
    decl: PieceKind
    defaults: dict[str, Any]
    label: A.Expr | None
    symbol: A.Expr | None
    style: A.Expr | None
    start: A.Expr | None
    start_reads_it: bool = False  # the start expression names `it`, the piece being placed


@dataclass
class TriggerInfo:
    """An event or state trigger."""

    name: str
    on: str | None
    var: str | None
    domain: A.Expr | None
    when: A.Expr | None
    order: A.Expr | None
    effect: A.Block
    span: Span
    caused_by: A.Expr | None = None  # state triggers: the places whose last change caused a firing (6.5)
    phases: frozenset[str] | None = None  # live only while one of these phases is the current one
    owner: A.Expr | None = None  # event triggers: the player it belongs to (grouped by owner when several fire)
    fires: Limit | None = None  # max_fires: past it the trigger does not fire


@dataclass
class StepInfo:
    """A decision point of a turn."""

    index: int
    name: str
    actions: list[str]
    optional: bool
    repeat: bool
    max: int | None
    when: A.Expr | None
    prompt: str | None = None  # the question of the step menu, in the game's words (else PHASE: STEP)


@dataclass
class PhaseInfo:
    """A phase of a round."""

    index: int
    name: str
    order: str
    order_by: A.Expr | None
    start: A.Expr | None
    turns: str
    players: A.Expr | None
    when: A.Expr | None
    steps: list[StepInfo]
    free_actions: list[str]
    on_start: A.Block | None
    on_end: A.Block | None
    turn_start: A.Block | None
    turn_end: A.Block | None
    span: Span


@dataclass
class EndInfo:
    """An end condition."""

    name: str
    when: A.Expr | None
    check: str
    winners: A.Expr | None
    description: str | None
    span: Span


def _failure_analysis(rules: "Rules") -> dict[str, bool]:
    """Per action: can it fail after its first choice? (core.fallibility: requires, chooses that may come up
    empty, performs, capacities, several params, in the effect or in what follows it)."""
    return {name: rules.fallibility.action_fails(a) for name, a in rules.actions.items()}


def _outside_failure(rules: "Rules") -> bool:
    """Can a choice made outside any action (setup, hooks, triggers) lead to a `require` failing?"""
    blocks = [t.effect for t in rules.triggers] + [b for _, b in rules.procedures.values()]
    blocks += [rules.spec.effect("setup"), rules.spec.effect("flow", "round_start"), rules.spec.effect("flow", "round_end")]
    for ph in rules.phases:
        blocks += [ph.on_start, ph.on_end, ph.turn_start, ph.turn_end]
    return any(isinstance(n, A.Require) for b in blocks if b is not None for n in b.walk())


def _invariant(spec: GameSpec, name: str, inv: Any) -> tuple[str, A.Expr]:
    if isinstance(inv, str):
        return "holds", spec.expr("invariants", name)
    if inv.holds is not None:
        return "holds", spec.expr("invariants", name, "holds")
    return "never_decreases", spec.expr("invariants", name, "never_decreases")


def _global_names(rules: "Rules") -> dict[str, tuple[str, Any]]:
    """What each spec-level name means: special, var, zone, table, kind, action or end."""

    m = rules.spec.model
    names: dict[str, tuple[str, Any]] = {}
    for n in m.components.pieces:
        names[n] = ("kind", n)
    for n in m.actions:
        names[n] = ("action", n)
    for n in m.end:
        names[n] = ("end", n)
    for n, t in m.tables.items():
        names[n] = ("table", TableRef(n, t, rules.table_values(n), rules.table_default(n)))
    for n, words in m.names.items():  # a set of words is the list of its words
        names[n] = ("const", list(words))
    for n, value in m.constants.items():
        if not isinstance(value, str):  # (an expression's value: engine/constants.py, before the first game)
            names[n] = ("const", as_value(value))
    for n, z in m.components.zones.items():
        if n in rules.families:
            names[n] = ("zones", rules.families[n])
        elif not z.per_player:
            names[n] = ("zone", n)
    for n, t in m.components.tracks.items():
        if not t.per_player:
            names[n] = ("var", n)
    for n, v in m.variables.items():
        if not v.per_player:
            names[n] = ("var", n)
    names.update({
        "current": ("special", lambda it: Player(it.s.cursor.current)),
        "turn_player": ("special", lambda it: Player(it.s.cursor.turn_player)),
        "players": ("special", lambda it: it.s.players),
        "num_players": ("special", lambda it: it.s.n),
        "round": ("special", lambda it: it.s.cursor.round),
        "turn": ("special", lambda it: it.s.cursor.turn),
        "phase": ("special", lambda it: rules.phases[it.s.cursor.phase].name
                  if it.s.cursor.phase < len(rules.phases) else None),
        "first_player": ("special", lambda it: Player(it.s.cursor.first_player)),
        "cascade": ("special", lambda it: it.s.cascade),
    })
    return names


# The special names above as Python source over `it` (and the Player class as PLAYER), for the compiled
# path to read them in place instead of calling the functions; tests/test_compiler_specialise.py checks
# that each gives what its function gives.
SPECIAL_SOURCE = {
    "current": "PLAYER(it.s.cursor.current)", "turn_player": "PLAYER(it.s.cursor.turn_player)", "players": "it.s.players", "num_players": "it.s.n",
    "round": "it.s.cursor.round", "turn": "it.s.cursor.turn", "first_player": "PLAYER(it.s.cursor.first_player)",
    "cascade": "it.s.cascade",
}


class Rules:
    """Everything the interpreter needs from a spec, indexed for quick lookup."""

    def __init__(self, spec: GameSpec):
        self.spec = spec
        m = spec.model
        self.name = m.game.name
        self.min_players = m.game.players.min
        self.max_players = m.game.players.max
        self.default_players = m.game.players.default or m.game.players.min
        self.seat_names = m.game.seat_names
        self.types = build_types(m)  # the declared types of the data: YAML values become runtime values by them
        self._tables: dict[str, Any] = {}
        self.families: dict[str, ZoneFamily] = {}  # `per:` zones: name -> the family of its zones
        self.zones: dict[str, ZoneInfo] = {}
        for n, z in m.components.zones.items():
            keys = per_keys(m, z)
            if keys is None:
                self.zones[n] = self._zone(n, z)
                continue
            for k in keys:
                self.zones[instance_name(n, k)] = self._zone(instance_name(n, k), z, n, k)
            self.families[n] = ZoneFamily(n, keys, [ZoneRef(instance_name(n, k)) for k in keys])
        self.player_attrs: dict[str, set[str]] = {}
        self.state_resets: dict[str, dict[str, dict[str, Any]]] = {}  # turn/phase/round -> kind -> field -> default
        self.kinds = {n: self._kind(n, k) for n, k in m.components.pieces.items()}
        self.tracks = m.components.tracks
        self.variables = m.variables
        self.tables = m.tables
        self.functions = {n: (f.param_names, spec.expr("functions", n, "expr")) for n, f in m.functions.items()}
        self.procedures = {n: (p.param_names, spec.effect("procedures", n, "effect")) for n, p in m.procedures.items()}
        self.procedures.update(templates_of(spec))  # the effect catalogue: a `do:` calls its templates
        self.actions = {n: self._action(n) for n in m.actions}
        self.quantities, self.modifiers_of = quantities_of(spec)  # (read by name like functions: dsl.md 2.10.3)
        self.triggers = [self._trigger(n) for n in m.triggers]
        self.event_triggers: dict[str, list[TriggerInfo]] = {}
        for t in self.triggers:
            if t.on:
                self.event_triggers.setdefault(t.on, []).append(t)
        self.state_triggers = [t for t in self.triggers if not t.on]
        # rule text reads causes (§6.5): only then do the cascade and events keep them (core/causes.py)
        self.track_causes = reads_causes([*spec.exprs.values(), *spec.effects.values()],
                                         [t.effect for t in self.state_triggers if t.effect is not None])
        self.phase_scoped = any(t.phases is not None for t in self.triggers)
        self.trigger_named = {t.name: t for t in self.triggers}
        self.windows = windows_of(spec)
        self.windows_after = windows_after(self.windows)  # event -> the windows that open after it
        self.listened = set(self.event_triggers) | set(self.windows_after)  # events something hears
        # events with triggers that belong to players: event -> its order (declared or owner_chooses)
        self.owned_events = owned_events(spec, self.event_triggers)
        # free actions offered at any time: (in the player's own turn, also in others' windows)
        self.anytime, self.anytime_always = anytime_actions(spec)
        self.carried: set[str] = set()  # the actions that are pieces' `activate:` abilities (named by their ident)
        self.abilities = abilities_of(spec, initial_rows(self))  # pieces' abilities (None: no kind has any)
        if self.abilities is not None:
            self.listened |= self.abilities.events  # (a piece's `on:` ability hears them too)
            for name, (action, always) in activate_actions(spec, self.abilities).items():
                self.actions[name] = action  # (offered as free actions are, at any time: core/activation.py)
                self.carried.add(name)
                self.anytime.append(name)
                if always:
                    self.anytime_always.append(name)
        # every use counter's key -> its limit (the checker makes one key mean one times/per): read by uses()
        self.limit_keys: dict[str, Limit] = {lim.key: lim for lim in [a.limit for a in self.actions.values()]
                                             + [t.fires for t in self.triggers] if lim is not None}
        self.fire_limited = any(t.fires is not None for t in self.state_triggers)  # (cascade scans check them)
        self.phases = [self._phase(i) for i in range(len(m.flow.phases))]
        self.ends = {n: self._end(n) for n in m.end}
        self.ends_at: dict[str, tuple] = {}  # timing -> (the ends checked then, whether they read the flow)
        self.step_menus: dict[tuple, list[str]] = {}  # a step's action names in menu order (flow.step_candidates)
        self.ranking = [spec.expr("ranking", "by", i) for i in range(len(m.ranking.by or []))]
        self.heuristic = spec.expr("bots", "heuristic")
        top = m.bots.heuristic_max  # (an expression is worked out with the constants: engine/constants.py)
        self.heuristic_top: int = top if isinstance(top, int) else 1
        self.score = spec.expr("scoring", "score")
        # name -> ("holds" | "never_decreases", expression)
        self.invariants = {n: _invariant(spec, n, inv) for n, inv in m.invariants.items()}
        self.names = _global_names(self)
        self.fallibility = Fallibility(self)
        self._may_fail = _failure_analysis(self)
        self.some_may_fail = any(self._may_fail.values())  # (step menus need no look-ahead otherwise)
        # actions whose only way to fail is an empty menu for their one parameter: the step menu checks
        # that menu itself instead of a look-ahead replay (see flow._step)
        self.param_gated = {n for n, a in self.actions.items() if not self._may_fail[n] and len(a.params) == 1
                            and not a.params[0].optional and not a.cost and not a.late_cost}
        self.outside_may_fail = _outside_failure(self)
        self.player_zone_names = {n for n, z in self.zones.items() if z.per_player}
        self.player_var_names = {n for n, t in self.tracks.items() if t.per_player} | {
            n for n, v in self.variables.items() if v.per_player}

    # -- data
    def table_values(self, name: str) -> Any:
        """A table's entries as runtime values (converted once; rows may name rows of other tables)."""
        found = self._tables.get(name)
        if found is None:
            decl, ts = self.tables[name], self.types.rows.get(name)
            self._tables[name] = decl.values  # (a row naming its own table reads the YAML: the checker refuses it)
            if decl.row is None:
                found = as_value(decl.values)
            elif isinstance(decl.values, dict):
                found = {k: self.value(ts, v) for k, v in decl.values.items()}
            else:
                found = [self.value(ts, v) for v in decl.values]
            self._tables[name] = found
        return found

    def table_default(self, name: str) -> Any:
        """A table's default as a runtime value."""
        return as_value(self.tables[name].default)

    def row(self, table: str, key: Any) -> Any:
        """The row of a table a `{row: T}` value names by its key (none when it names no row)."""
        values = self.table_values(table)
        if isinstance(values, dict):
            return values.get(str(key))
        return values[key] if isinstance(key, int) and 0 <= key < len(values) else None

    def value(self, ts: Any, v: Any) -> Any:
        """YAML data of a declared type as a runtime value (core/data.py)."""
        return typed_value(ts, v, self.row)

    # -- builders
    def _zone(self, name: str, decl: ZoneDecl, family: str = "", key: Any = None) -> ZoneInfo:
        info = ZoneInfo(name, decl, family=family, key=key)
        types = self.types.cell_attrs.get(family or name, {})  # (a `per:` family's zones share its declaration)
        info.cell_defaults = {k: self.value(types[k], types[k].default) for k in decl.cell_attributes}
        for label, attrs in decl.cells.items():
            pos = label if decl.type == "graph" else parse_cell_label(label)
            info.cell_attrs[pos] = {k: self.value(types.get(k), v) for k, v in attrs.items()}
        if decl.type == "graph":
            info.graph_adj = {n: [] for n in decl.nodes or []}
            etypes = self.types.edge_attrs.get(family or name, {})
            defaults = {k: self.value(etypes[k], etypes[k].default) for k in decl.edge_attributes}
            for edge in edges_of(decl):
                a, b = edge.a, edge.b
                attrs = {**defaults, **{k: self.value(etypes.get(k), v) for k, v in edge.attrs.items()}}
                info.graph_adj.setdefault(a, []).append(b)
                info.edge_attrs[(a, b)] = attrs
                if not edge.directed:
                    info.graph_adj.setdefault(b, []).append(a)
                    info.edge_attrs[(b, a)] = attrs
        return info

    def _kind(self, name: str, decl: PieceKind) -> KindInfo:
        types = self.types.kind_attrs.get(name, {})  # (attributes and state fields: rulespec/datacheck.py)
        fields = {**decl.attributes, **decl.state}
        defaults = {k: self.value(types[k], types[k].default) for k in fields}
        self.player_attrs[name] = {k for k in fields if types[k].kind == "player"}
        for k, v in decl.state.items():  # fields that go back to their default when a turn/phase/round ends
            if isinstance(v, AttrDecl) and getattr(v, "reset", None):
                self.state_resets.setdefault(v.reset, {}).setdefault(name, {})[k] = defaults[k]
        s = self.spec
        start = s.expr("components", "pieces", name, "start")
        reads_it = start is not None and any(isinstance(n, A.Name) and n.id == "it" for n in start.walk())
        return KindInfo(name, decl, defaults, s.expr("components", "pieces", name, "label"),
                        s.expr("components", "pieces", name, "symbol"),
                        s.expr("components", "pieces", name, "style"), start, reads_it)

    def _action(self, name: str) -> ActionInfo:
        s, decl = self.spec, self.spec.model.actions[name]
        params = [
            ParamInfo(p, s.expr("actions", name, "params", p, "from"), s.expr("actions", name, "params", p, "where"),
                      pd.why, pd.prompt, pd.optional, s.span("actions", name, "params", p))
            for p, pd in decl.params.items()
        ]
        cost = [(var, s.expr("actions", name, "cost", var)) for var in decl.cost]
        to = {var: s.expr("actions", name, "pay_to", var) for var in decl.pay_to}  # (a target reads params too)
        early, late, site = split_costs(params, cost, to)
        effect = s.effect("actions", name, "effect") or A.Block(span=s.span("actions", name), body=())
        return ActionInfo(name, decl.label or name.replace("_", " "), decl.rule, s.expr("actions", name, "condition"),
                          decl.why, params, early, effect, limit_of(decl.limit, name), s.span("actions", name), late,
                          site, paid_to(s, ("actions", name), decl.pay_to), decl.description)

    def _trigger(self, name: str) -> TriggerInfo:
        s, decl = self.spec, self.spec.model.triggers[name]
        var = domain = None
        binder = s.expr("triggers", name, "for")
        if isinstance(binder, A.Binary) and binder.op == "in" and isinstance(binder.left, A.Name):
            var, domain = binder.left.id, binder.right
        phases = None if decl.phase is None else frozenset([decl.phase] if isinstance(decl.phase, str) else decl.phase)
        return TriggerInfo(name, decl.on, var, domain, s.expr("triggers", name, "when"),
                           s.expr("triggers", name, "order"), s.effect("triggers", name, "effect"),
                           s.span("triggers", name), s.expr("triggers", name, "caused_by"), phases,
                           owner=s.expr("triggers", name, "owner") if decl.on else None,
                           fires=limit_of(decl.max_fires, name))

    def _phase(self, i: int) -> PhaseInfo:
        s, decl = self.spec, self.spec.model.flow.phases[i]
        p = ("flow", "phases", i)
        steps = [
            StepInfo(j, st.name or f"step {j + 1}", st.actions, st.optional, st.repeat, st.max,
                     s.expr(*p, "steps", j, "when"), st.prompt)
            for j, st in enumerate(decl.steps)
        ]
        return PhaseInfo(i, decl.name, decl.order, s.expr(*p, "order_by"), s.expr(*p, "start"), decl.turns,
                         s.expr(*p, "players"), s.expr(*p, "when"), steps, decl.free_actions,
                         s.effect(*p, "on_start"), s.effect(*p, "on_end"), s.effect(*p, "turn_start"),
                         s.effect(*p, "turn_end"), s.span(*p))

    def _end(self, name: str) -> EndInfo:
        s, decl = self.spec, self.spec.model.end[name]
        return EndInfo(name, s.expr("end", name, "when"), decl.check, s.expr("end", name, "winners"),
                       decl.description, s.span("end", name))

    def score_of(self, it: Any, p: Any) -> Any:
        """A player's score: scoring.score, else their `score` track/variable, else 0."""
        if self.score is not None:
            return it.ev(self.score, {"p": p})
        if "score" in self.player_var_names:
            return it.s.pvars[p].get("score")
        return 0

    def rank_key(self, it: Any, p: Any) -> tuple:
        """Ranking keys of a player (compared largest first): ranking.by, else the score."""
        if self.spec.model.ranking.by is not None:
            return tuple(it.ev(k, {"p": p}) for k in self.ranking)
        return (self.score_of(it, p),) if self.score is not None or "score" in self.player_var_names else ()

    def heuristic_returns(self, it: Any) -> list[float] | None:
        """Per player, bots.heuristic scaled from 0..heuristic_max to -1..1 (None: the spec has none)."""
        if self.heuristic is None:
            return None
        top = self.heuristic_top
        out = []
        saved, it.memo = it.memo, {}  # only expressions run here: pure functions may remember results
        try:
            for p in it.s.players:
                v = it.ev(self.heuristic, {"p": p})
                if isinstance(v, bool) or not isinstance(v, int):
                    raise RuleError(f"the heuristic must be a whole number, got {it.describe(v)}",
                                    self.heuristic.span)
                out.append(2.0 * min(max(v, 0), top) / top - 1.0)
        finally:
            it.memo = saved
        return out

    def may_fail(self, action: str) -> bool:
        """Whether choices made inside this action can lead to a dead end (so menus need look-ahead)."""
        return self._may_fail.get(action, True)

    # -- piece generation
    def initial_counts(self) -> dict[str, int]:
        """How many pieces of each counted kind the game starts with (computed without making them)."""
        out: dict[str, int] = {}
        for name, k in self.kinds.items():
            decl = k.decl
            if decl.unlimited:
                continue
            if decl.instances is not None:
                out[name] = sum(int(inst.get("count", decl.count)) for inst in decl.instances)
                continue
            combos = 1
            for d in decl.attributes.values():
                if attr_values(d, self.spec.model.names):
                    combos *= len(attr_values(d, self.spec.model.names))
            out[name] = combos * decl.count
        return out

    def initial_pieces(self) -> list[tuple[str, dict[str, Any]]]:
        """Every counted piece (kind, attributes) in spec order."""
        out: list[tuple[str, dict[str, Any]]] = []
        for name, k in self.kinds.items():
            decl = k.decl
            if decl.unlimited:
                continue
            if decl.instances is not None:
                types = self.types.kind_attrs[name]
                for inst in decl.instances:
                    attrs = dict(k.defaults)
                    attrs.update({a: self.value(types.get(a), v) for a, v in inst.items()
                                  if a not in INSTANCE_KEYS})
                    out.extend((name, dict(attrs)) for _ in range(int(inst.get("count", decl.count))))
                continue
            words = self.spec.model.names
            enums = [(a, attr_values(d, words)) for a, d in decl.attributes.items() if attr_values(d, words)]
            combos = itertools.product(*[vals for _, vals in enums]) if enums else [()]
            for combo in combos:
                attrs = dict(k.defaults)
                attrs.update({a: as_value(v) for (a, _), v in zip(enums, combo)})
                out.extend((name, dict(attrs)) for _ in range(decl.count))
        return out

    def coerce_attr(self, kind: str, name: str, value: Any) -> Any:
        """Attributes declared `player` hold players, even when written as seat numbers."""
        if value.__class__ is int and name in self.player_attrs.get(kind, ()):  # (a bool is not an int here)
            return Player(value)
        return value

    def player_count_text(self) -> str:
        """'2 players' or '2-4 players', for messages."""
        lo, hi = self.min_players, self.max_players
        return f"{lo} player{'s' if lo > 1 else ''}" if lo == hi else f"{lo}-{hi} players"

    def seat_name(self, p: int) -> str:
        """Display name of a seat."""
        if self.seat_names and p < len(self.seat_names):
            return str(self.seat_names[p])
        return f"P{p + 1}"
