"""Abilities carried by pieces (docs/dsl.md 2.22), resolved once per Rules, and which of them are live.

A kind lists abilities every piece of it carries; an instance row lists its own (after the kind's).  Each
ability is one of `on:` (a trigger), `modify:` (a modifier of a quantity), `activate:` (an action its owner
may take) or `play:` (run by `use`).  An ability is **live** while its piece lies in one of the kind's
`active_in` zones, owned by that zone's player (a per-player zone) or by the kind's `owner:` expression (a
shared zone), looked up each time the engine asks (an event, a quantity read, a menu): a piece that arrives
mid-action is live for everything after, nothing before.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Iterator

from orrery.rulespec import ast as A
from orrery.rulespec.errors import Span

from .modifiers import ModifierInfo
from .uses import Limit, limit_of
from .values import Cell, PieceRef, Player, ZoneRef


@dataclass(frozen=True, eq=False)
class AbilityInfo:
    """One ability of a kind or of an instance row: `what` is on, modify, activate or play."""

    what: str
    ident: str  # `kind#i` or `kind[row]#i`: names it in messages and keys its counters (with the piece)
    index: int  # its place among the piece's abilities (declared order within a piece)
    event: str | None
    when: A.Expr | None
    do: A.Block | None
    fires: Limit | None
    modifier: ModifierInfo | None
    empowered_if: A.Expr | None
    empowered_do: A.Block | None
    prompt: str | None
    text: str | None
    span: Span
    path: tuple = ()  # where it is declared (an `activate:` reads its action's texts there: core/activation.py)


@dataclass(frozen=True)
class KindAbilities:
    """A kind's abilities: where they are live and whose they are, the kind's own and each row's."""

    kind: str
    zones: tuple[str, ...]
    owner: A.Expr | None
    common: tuple[AbilityInfo, ...]
    rows: tuple[tuple[AbilityInfo, ...], ...]  # per instance row: the kind's, then the row's own


class Abilities:
    """Every kind's abilities, each initial piece's, and the events, quantities and zones they concern."""

    def __init__(self, kinds: dict[str, KindAbilities], by_pid: list[tuple[AbilityInfo, ...]],
                 rows: list[tuple[str, int | None]]):
        self.kinds = kinds
        self.by_pid = by_pid  # the pieces made at game start (pid order), then `create`d ones carry `common`
        self.rows = rows  # each initial piece's (kind, instance row): pieces of one row carry the same abilities
        every = [ab for k in kinds.values() for ab in k.common + tuple(a for row in k.rows for a in row)]
        self.events = {ab.event for ab in every if ab.what == "on"}
        self.modified = {ab.modifier.quantity for ab in every if ab.what == "modify"}
        self.on_blocks: dict[str, list[A.Block]] = {}  # event -> the `do:` of every ability listening to it
        for ab in every:
            if ab.what == "on":
                self.on_blocks.setdefault(ab.event, []).append(ab.do)
        self.play_blocks = [b for ab in every if ab.what == "play" for b in (ab.do, ab.empowered_do) if b is not None]
        self.empowered = any(ab.empowered_do is not None for ab in every)  # (a `use` may ask the player)
        zones: list[str] = []
        for k in kinds.values():
            zones += [z for z in k.zones if z not in zones]
        self.zones = tuple(zones)  # every active_in zone, in the order abilities resolve (then bottom first)
        self._plain: dict[int, tuple[ZoneRef, ...] | None] = {}  # plain_places, by player count
        self.memo: dict[tuple, tuple[ModifierInfo, ...]] = {}  # live_modifiers' answers (see there)

    def plain_places(self, rules: Any, n: int) -> tuple[ZoneRef, ...] | None:
        """The places whose pieces' abilities are live, each owned by its zone's player; None when an
        active_in zone is shared (its pieces' owners are worked out by an expression) or a board (cells)."""
        if n not in self._plain:
            plain = all(rules.zones[z].decl.per_player and not rules.zones[z].is_board for z in self.zones)
            self._plain[n] = tuple(ZoneRef(z, seat) for z in self.zones for seat in range(n)) if plain else None
        return self._plain[n]

    def row_key(self, pid: int, kind: str) -> tuple[str, int]:
        """Which printed abilities a piece carries, as a sortable key (equal keys: the same abilities)."""
        k, r = self.rows[pid] if pid < len(self.rows) else (kind, None)
        return k, -1 if r is None else r

    def of(self, pid: int, kind: str) -> tuple[AbilityInfo, ...]:
        """The abilities a piece carries (none for a kind without any)."""
        if pid < len(self.by_pid):
            return self.by_pid[pid]
        k = self.kinds.get(kind)
        return k.common if k is not None else ()


def abilities_of(spec: Any, initial: list[tuple[str, int | None]]) -> Abilities | None:
    """The spec's abilities (None when no kind carries any: the engine then pays nothing for them);
    `initial` is each initial piece's (kind, instance row)."""
    m = spec.model
    kinds: dict[str, KindAbilities] = {}
    for name, decl in m.components.pieces.items():
        base = ("components", "pieces", name)
        common = tuple(_ability(spec, base + ("abilities", i), name, f"{name}#{i}", i, a)
                       for i, a in enumerate(decl.abilities))
        rows = []
        for r, inst in enumerate(decl.instances or []):
            own = inst.get("abilities") or []
            rid = inst.get("id", r)
            rows.append(common + tuple(_ability(spec, base + ("instances", r, "abilities", i), name, f"{name}[{rid}]#{i}",
                                                len(common) + i, a) for i, a in enumerate(own)))
        if common or any(len(row) > len(common) for row in rows):
            kinds[name] = KindAbilities(name, tuple(decl.active_in or ()), spec.expr(*base, "owner"), common,
                                        tuple(rows))
    if not kinds:
        return None
    by_pid = [(kinds[k].rows[r] if r is not None else kinds[k].common) if k in kinds else () for k, r in initial]
    return Abilities(kinds, by_pid, list(initial))


def initial_rows(rules: Any) -> list[tuple[str, int | None]]:
    """Each piece made at game start, in pid order (Rules.initial_pieces' order): its kind and instance row."""
    out: list[tuple[str, int | None]] = []
    counts = rules.initial_counts()
    for name, k in rules.kinds.items():
        decl = k.decl
        if decl.unlimited:
            continue
        if decl.instances is None:
            out += [(name, None)] * counts[name]
            continue
        for r, inst in enumerate(decl.instances):
            out += [(name, r)] * int(inst.get("count", decl.count))
    return out


def templates_of(spec: Any) -> dict[str, tuple[list[str], A.Block | None]]:
    """The effect catalogue as procedures (parameters in order, body): a `do:` runs them as `call`s."""
    return {n: (list(e.params), spec.effect("effects", n, "effect")) for n, e in spec.model.effects.items()}


def _ability(spec: Any, path: tuple, kind: str, ident: str, index: int, a: Any) -> AbilityInfo:
    what = "on" if a.on is not None else "modify" if a.modify is not None else \
        "activate" if a.activate is not None else "play"
    modifier = None
    if what == "modify":
        change = "set" if a.set is not None else "add" if a.add is not None else "scale"
        value = Fraction(a.scale.replace(" ", "")) if change == "scale" else spec.expr(*path, change)
        modifier = ModifierInfo(ident, a.modify, spec.expr(*path, "when"), change, value, spec.span(*path))
    do = spec.effect(*path, "play") if what == "play" else spec.effect(*path, "do")
    emp = a.empowered
    return AbilityInfo(what, ident, index, a.on, spec.expr(*path, "when"), do,
                       limit_of(a.max_fires, ident) if a.max_fires is not None else None, modifier,
                       spec.expr(*path, "empowered", "if") if emp is not None else None,
                       spec.effect(*path, "empowered", "do") if emp is not None else None,
                       emp.prompt if emp is not None else None, a.text or a.description, spec.span(*path), path)


def owner_of(it: Any, pid: int) -> int | None:
    """The seat whose live piece this is, or None when it lies in none of its kind's active_in zones."""
    ab = it.r.abilities
    k = ab.kinds.get(it.s.kinds[pid]) if ab is not None else None
    if k is None:
        return None
    loc = it.s.loc[pid]
    zone = loc.name if loc.__class__ is ZoneRef else loc.zone if loc.__class__ is Cell else None
    if zone not in k.zones:
        return None
    if loc.__class__ is ZoneRef and loc.owner is not None:
        return loc.owner
    return _shared_owner(it, k, pid)


def _shared_owner(it: Any, k: KindAbilities, pid: int) -> int | None:
    """The `owner:` of a piece in a shared zone (the checker requires one there), as a seat."""
    if k.owner is None:
        return None
    who = it.ev(k.owner, {"self": PieceRef(pid)})
    if who is None:
        return None
    if who.__class__ not in (int, Player) or not 0 <= who < it.s.n:
        from .decisions import RuleError

        raise RuleError(f"`owner` of a '{k.kind}' must be a player, got {it.describe(who)}", k.owner.span)
    return int(who)


def live(it: Any, only: int | None = None) -> Iterator[tuple[int, int, AbilityInfo]]:
    """(owner, piece, ability) of every live ability (`only`: of that seat's pieces): zone by zone (active_in
    order), seat by seat for per-player zones, pieces bottom first, abilities in the piece's order."""
    ab, s = it.r.abilities, it.s
    for zname in ab.zones:
        per_player = it.r.zones[zname].decl.per_player
        for seat in (range(s.n) if only is None else (only,)) if per_player else (None,):
            for piece in it.pieces_in(ZoneRef(zname, seat)):
                pid = piece.id
                k = ab.kinds.get(s.kinds[pid])
                if k is None or zname not in k.zones:
                    continue
                owner = seat if seat is not None else _shared_owner(it, k, pid)
                if owner is None or (only is not None and owner != only):
                    continue
                for a in ab.of(s.origin(pid), k.kind):  # (a determinised world's faces carry their own)
                    yield owner, pid, a


def by_owner(it: Any, found: list[tuple[int, int, AbilityInfo]]) -> list[tuple[int, int, AbilityInfo]]:
    """The same entries grouped by owner: the acting player's first, then the others clockwise (stable)."""
    start, n = it.current(), it.s.n
    return sorted(found, key=lambda e: (e[0] - start) % n)


def live_modifiers(it: Any, quantity: str) -> tuple[ModifierInfo, ...]:
    """The modifiers of `quantity` in force now, in the order they are collected (the last `set` wins): the
    spec's own, in declaration order, then those of live pieces' `modify:` abilities (owners from the acting
    player clockwise, then zone, piece and ability order), each with its `self` and `owner`.  Their `when`
    is tested by the reader, not here."""
    own = it.r.modifiers_of.get(quantity, ())
    ab = it.r.abilities
    if ab is None or quantity not in ab.modified:
        return own
    s = it.s
    places = ab.plain_places(it.r, s.n)
    if places is None or s.origins is not None:  # see plain_places; a determinised world's pieces swap faces
        return own + _live_modifiers(it, quantity)
    # which abilities are live follows from which pieces lie in those places, their order from the acting
    # player: the answer is remembered by those (for every state of the spec: reads outnumber moves)
    contents = s.places.get
    key = (quantity, it.current(), *[tuple(contents(p, ())) for p in places])
    memo = ab.memo
    mods = memo.get(key)
    if mods is None:
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        mods = memo[key] = own + _live_modifiers(it, quantity)
    return mods


_MEMO_SIZE = 4096  # remembered answers per spec (a game's card holdings repeat; thousands of games' do not)


def _live_modifiers(it: Any, quantity: str) -> tuple[ModifierInfo, ...]:
    """The live pieces' modifiers of `quantity`, each with its `self` and `owner` (live_modifiers' order)."""
    return tuple(replace(a.modifier, names=env_of(owner, pid)) for owner, pid, a in by_owner(it, list(live(it)))
                 if a.what == "modify" and a.modifier.quantity == quantity)


def env_of(owner: int, pid: int, record: Any = None) -> dict[str, Any]:
    """The names an ability's expressions and calls see."""
    env: dict[str, Any] = {"self": PieceRef(pid), "owner": Player(owner)}
    if record is not None:
        env["event"] = record
    return env


__all__ = ["Abilities", "AbilityInfo", "KindAbilities", "abilities_of", "by_owner", "env_of", "initial_rows", "live",
           "live_modifiers",
           "owner_of", "templates_of"]
