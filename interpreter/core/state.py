"""Game state as plain data: pieces, places, variables, RNG and the flow cursor.

A State is cheap to clone: piece attribute dicts are copy-on-write, place lists
and variable dicts are copied shallowly, and the RNG is one integer.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from .rng import Rng
from .rules import Rules
from .values import Cell, PieceRef, Player, ZoneRef
from .values import serialize as _ser
from .view import state_view

_PLAYERS: dict[int, list[Player]] = {}  # State.players, by player count


@dataclass
class Cursor:
    """Where the flow is: round, phase, turn, step."""

    stage: str = "game_start"
    round: int = 0
    phase: int = 0
    order: list[int] = field(default_factory=list)
    pos: int = 0
    step: int = 0
    step_count: int = 0
    passed: set[int] = field(default_factory=set)
    first_player: int = 0
    current: int = 0  # the acting player: the turn's, or the one a window or `perform ... by` acts for
    turn_player: int = 0  # the player whose turn it is
    turn: int = 0
    # the actions taken in this turn, by name (every action, limited or not): not a use counter (those are
    # State.uses), kept because the state digest covers it and logs record digests
    turn_actions: dict[str, int] = field(default_factory=dict)
    end_turn: bool = False

    def clone(self) -> "Cursor":
        """An independent copy.  Its list, set and dict are shared: they are replaced, never changed in place
        (`order` by the flow, `passed` by `pass`, `turn_actions` when an action is chosen)."""
        c = object.__new__(Cursor)
        c.__dict__ = self.__dict__.copy()
        return c


@dataclass
class Outcome:
    """How a game ended."""

    end: str
    winners: list[int]
    scores: list[Any]
    returns: list[float]


class State:
    """The whole mutable state of one game."""

    __slots__ = ("rules", "n", "kinds", "attrs", "loc", "places", "stamps", "clock", "vars", "pvars",
                 "rng", "cursor", "outcome", "msgs", "cascade", "decisions", "setup_override", "cascades", "_own",
                 "derived", "version", "uses", "origins")

    def __init__(self, rules: Rules, n_players: int, seed: int, rng: Rng | None = None):
        self.rules = rules
        self.n = n_players
        self.kinds: list[str] = []
        self.attrs: list[dict[str, Any]] = []
        self.loc: list[Any] = []
        self.places: dict[Any, list[int]] = {}  # lists shared between clones until written: use writable()
        self._own: set[Any] = set()  # places whose list this state may change in place
        self.stamps: dict[Any, int] = {}
        self.clock = 0
        self.vars: dict[str, Any] = {}
        self.pvars: list[dict[str, Any]] = [{} for _ in range(n_players)]
        self.rng = Rng(seed) if rng is None else rng  # (another source of the same draws: engine/game.py)
        self.cursor = Cursor()
        self.outcome: Outcome | None = None
        self.msgs: list[str] = []
        self.cascade = 0
        self.decisions = 0
        self.setup_override: tuple[Any, bool] | None = None  # (extra setup block, replace the spec's setup?)
        self.cascades: dict[int, int] = {}  # cascade length (firings) -> how many cascades had it
        # values computed from the state, each with the clock or version it was computed at (the clock
        # moves on every change of a place or piece, the version also on every change of a variable;
        # an entry stamped with the current one is up to date)
        self.derived: dict[Any, tuple[int, Any]] = {}
        self.version = 0
        # use counters (core/uses.py): (seat, key) -> (scope instance, count); replaced, never changed in place
        self.uses: dict[tuple[int, str], tuple[Any, int]] = {}
        # a determinised world only (bots/worlds.py): for each piece, the piece whose printed abilities it carries
        # (its face was dealt from that piece); None: every piece carries its own. Replaced, never changed in place.
        self.origins: list[int] | None = None

    def clone(self) -> "State":
        """An independent copy (pieces' attribute dicts are shared until written)."""
        s = State.__new__(State)
        s.rules = self.rules
        s.n = self.n
        s.kinds = self.kinds  # kinds never change after creation; list grows only by create -> copied there
        s.attrs = list(self.attrs)
        s.loc = list(self.loc)
        s.places = dict(self.places)  # copy-on-write: a place's list is copied when first changed
        s._own = set()
        self._own = set()  # the lists are shared now: this state copies before writing too
        s.stamps = dict(self.stamps)
        s.clock = self.clock
        s.vars = dict(self.vars)
        s.pvars = [dict(d) for d in self.pvars]
        s.rng = self.rng.clone()
        s.cursor = self.cursor.clone()
        s.outcome = self.outcome
        s.msgs = []
        s.cascade = self.cascade
        s.decisions = self.decisions
        s.setup_override = self.setup_override
        s.cascades = self.cascades  # (shared: a cascade's end writes a new dict)
        s.derived = {}
        s.version = self.version
        s.uses = self.uses  # (shared: a count writes a new dict)
        s.origins = self.origins
        return s

    # -- players
    @property
    def players(self) -> list[Player]:
        """Every seat, in seat order (one shared list per player count: list values are never changed in
        place, and rule code asks for `players` in every scan of a cascade)."""
        lst = _PLAYERS.get(self.n)
        if lst is None:
            lst = _PLAYERS[self.n] = [Player(i) for i in range(self.n)]
        return lst

    # -- pieces
    def new_piece(self, kind: str, attrs: dict[str, Any], place: Any) -> PieceRef:
        """Create a piece in a place."""
        pid = len(self.kinds)
        self.kinds = self.kinds + [kind]  # a new list: clones share the old one
        self.attrs.append(attrs)
        if self.origins is not None:
            self.origins = self.origins + [pid]
        self.loc.append(place)
        self.writable(place).append(pid)
        self._touch(place)
        return PieceRef(pid)

    def origin(self, pid: int) -> int:
        """The piece whose printed abilities this one carries: itself, except in a determinised world."""
        return pid if self.origins is None else self.origins[pid]

    def kind_of(self, pid: int) -> str:
        """A piece's kind."""
        return self.kinds[pid]

    def get_attr(self, pid: int, name: str) -> Any:
        """A piece attribute."""
        return self.attrs[pid].get(name)

    def set_attr(self, pid: int, name: str, value: Any) -> None:
        """Write a piece attribute (copy-on-write)."""
        d = dict(self.attrs[pid])
        d[name] = value
        self.attrs[pid] = d
        self.version += 1
        place = self.loc[pid]
        if place is not None:
            self._touch(place)

    def place_of(self, pid: int) -> Any:
        """Where a piece is (a ZoneRef or Cell)."""
        return self.loc[pid]

    def contents(self, place: Any) -> list[int]:
        """Piece ids in a place, bottom first (do not mutate)."""
        return self.places.get(place, _EMPTY)

    def move(self, pid: int, dest: Any, bottom: bool = False) -> None:
        """Move a piece to a place (on top, or at the bottom)."""
        src = self.loc[pid]
        if src is not None:
            self.writable(src).remove(pid)
            self._touch(src)
        dl = self.writable(dest)
        if bottom:
            dl.insert(0, pid)
        else:
            dl.append(pid)
        self.loc[pid] = dest
        self._touch(dest)

    def writable(self, place: Any) -> list[int]:
        """The list of a place's pieces, safe to change in place (copied first if a clone shares it)."""
        lst = self.places.get(place)
        if lst is None:
            lst = self.places[place] = []
        elif place not in self._own:
            lst = self.places[place] = list(lst)
        self._own.add(place)
        return lst

    def swap_places(self, a: Any, b: Any) -> None:
        """Exchange the contents of two places."""
        la, lb = self.places.get(a, []), self.places.get(b, [])
        self.places[a], self.places[b] = lb, la
        self._own.discard(a)  # the lists changed places: whose is whose is unknown now, so copy on next write
        self._own.discard(b)
        for pid in lb:
            self.loc[pid] = a
        for pid in la:
            self.loc[pid] = b
        self._touch(a)
        self._touch(b)

    def _touch(self, place: Any) -> None:
        self.clock += 1
        self.version += 1
        self.stamps[place] = self.clock

    # -- digest and views
    def to_data(self, viewer: int | None = None, hide: bool = False) -> dict[str, Any]:
        """A JSON-able picture of the state; with hide=True, only what `viewer` may see."""
        return state_view(self, viewer, hide)

    def digest(self) -> str:
        """A short hash of everything that matters for replay."""
        data = {
            "kinds": self.kinds, "attrs": self.attrs, "loc": [_place(p)[0] for p in self.loc],
            "places": [[_place(k)[0], v] for k, v in sorted(((k, v) for k, v in self.places.items() if v),
                                                             key=lambda kv: _place(kv[0])[1])],
            "vars": _ser(self.vars), "pvars": _ser(self.pvars), "rng": self.rng.state,
            "cursor": _ser(self._cursor_data()),
            "outcome": _ser(self.outcome.__dict__ if self.outcome else None),
        }
        if self.uses:  # (use counters: only games with limits have any, so other digests stay as they were)
            data["uses"] = sorted([seat, key, _ser(at), n] for (seat, key), (at, n) in self.uses.items())
        blob = json.dumps(data, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


    def _cursor_data(self) -> dict[str, Any]:
        """The cursor as the digest sees it: the turn's player only while another player acts (so the
        digests of games that never let another player act, and the logs that recorded them, stay as
        they were before the field existed)."""
        data = dict(self.cursor.__dict__)
        if data["turn_player"] == data["current"]:
            del data["turn_player"]
        return data


# A place's data in a digest and its JSON text (the places' order there), kept per interned ZoneRef/Cell: equal
# places are the same object, and its fields never change.  A digest of a position with hundreds of pieces
# serialised every place again (half of a differential test's random game went to digests).
_PLACES: dict[Any, tuple[Any, str]] = {}
_INTERNED = (ZoneRef, Cell)


def _place(p: Any) -> tuple[Any, str]:
    """`p` as data (shared: never change it) and as JSON text."""
    got = _PLACES.get(p)
    if got is None:
        data = _ser(p)
        got = (data, json.dumps(data))
        if type(p) in _INTERNED:
            _PLACES[p] = got
    return got


_EMPTY: list[int] = []
