"""Runtime values of the rule language besides int/str/bool/None/list.

Players are ints with a type of their own; pieces, cells and zones are small
immutable references resolved against a State, so a value never holds on to a
particular state and clones stay independent.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from orrery.rulespec.labels import cell_label, column_letters, parse_cell_label  # noqa: F401  (re-exported)


class Player(int):
    """A seat index (0-based) that the language treats as a player."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"P{int(self) + 1}"


class PieceRef:
    """A reference to a piece by id.

    Interned as cells are: `PieceRef(i)` always returns the same object for the same id, so equality is
    identity and hashing is Python's own, with no method called (sets and dicts of pieces are on the hot
    paths of cascade scans; a Python `__eq__`/`__hash__` pair was about 30 calls per decision of a
    cascade game's profile).  Copies and pickles come back as the interned object."""

    __slots__ = ("id",)

    def __new__(cls, pid: int) -> "PieceRef":
        return _PIECE_REFS[pid]

    def __reduce__(self) -> tuple:
        return (PieceRef, (self.id,))

    def __copy__(self) -> "PieceRef":
        return self

    def __deepcopy__(self, memo: dict) -> "PieceRef":
        return self

    def __repr__(self) -> str:
        return f"piece#{self.id}"


class _PieceRefs(dict):
    """Every piece reference made so far, by id (see PieceRef): a missing one is made on first use, so hot
    code can read `PIECE_REFS[i]` (a dictionary subscript, no Python call) where it would call PieceRef(i)."""

    def __missing__(self, pid: int) -> PieceRef:
        ref = object.__new__(PieceRef)
        ref.id = pid
        self[pid] = ref
        return ref


_PIECE_REFS = _PieceRefs()
PIECE_REFS = _PIECE_REFS  # the public name for hot code (fastlib, the evaluator)


class ZoneRef:
    """A whole zone; `owner` is the player for per-player zones, else None.  Interned (see PieceRef)."""

    __slots__ = ("name", "owner")

    def __new__(cls, name: str, owner: int | None = None) -> "ZoneRef":
        key = (name, owner)
        ref = _ZONE_REFS.get(key)
        if ref is None:
            ref = object.__new__(cls)
            ref.name, ref.owner = name, owner
            _ZONE_REFS[key] = ref
        return ref

    def __reduce__(self) -> tuple:
        return (ZoneRef, (self.name, self.owner))

    def __copy__(self) -> "ZoneRef":
        return self

    def __deepcopy__(self, memo: dict) -> "ZoneRef":
        return self

    def __repr__(self) -> str:
        return self.name if self.owner is None else f"{self.name}[P{self.owner + 1}]"


_ZONE_REFS: dict[tuple, ZoneRef] = {}  # every zone reference made so far, by (name, owner): see ZoneRef


class Cell:
    """A cell of a grid zone (pos is (x, y)) or a node of a graph zone (pos is its name).

    Cells are interned: `Cell(zone, owner, pos)` always returns the same object for the same cell,
    so equality is identity, which Python compares without calling any method.  Membership in a list
    of cells, dictionary keys and sets are the engine's hottest comparisons (profiles: a Python
    `__eq__` was 14% of a playout of a flipping game on an 8x8 board).  Copies and pickles come back as
    the interned object.
    """

    __slots__ = ("zone", "owner", "pos", "order")

    def __new__(cls, zone: str, owner: int | None, pos: Any) -> "Cell":
        key = (zone, owner, pos)
        cell = _CELLS.get(key)
        if cell is None:
            cell = object.__new__(cls)
            cell.zone, cell.owner, cell.pos = zone, owner, pos
            # the sort key, made once: sorting cells by it reads a slot instead of calling a function per cell
            cell.order = (zone, -1 if owner is None else owner, pos if isinstance(pos, tuple) else (0, str(pos)))
            _CELLS[key] = cell
        return cell

    # no __eq__ and no __hash__: one object per cell, so the default identity comparison and hash are the
    # language's equality, and Python computes both without calling any method (sets and dictionaries of
    # cells are on every hot path)

    def __reduce__(self) -> tuple:
        return (Cell, (self.zone, self.owner, self.pos))

    def __copy__(self) -> "Cell":
        return self

    def __deepcopy__(self, memo: dict) -> "Cell":
        return self

    def __lt__(self, other: "Cell") -> bool:
        return self.order < other.order

    @property
    def x(self) -> int:
        return self.pos[0] if isinstance(self.pos, tuple) else 0

    @property
    def y(self) -> int:
        return self.pos[1] if isinstance(self.pos, tuple) else 0

    @property
    def label(self) -> str:
        return cell_label(self.pos)

    def __repr__(self) -> str:
        base = self.label
        return base if self.owner is None else f"{base}[P{self.owner + 1}]"


_CELLS: dict[tuple, Cell] = {}  # every cell made so far, by (zone, owner, pos): see Cell


cell_key = attrgetter("order")  # the sort key behind Cell's `<`: zone, owner, then position (Cell.__new__)


class Record(dict):
    """A small map value (`{a: 1}`); fields are read with `.name`."""

    def __hash__(self) -> int:  # records are values: hash by content
        return hash(tuple(sorted(self.items(), key=lambda kv: kv[0])))


class _Frozen(tuple):
    """A list, record or set turned into a hashable tuple; its own class, so a frozen list never equals a
    frozen record, nor a value that happened to be a tuple already."""

    __slots__ = ()


def frozen(v: Any) -> Any:
    """A hashable value equal for equal values: lists, records and sets (nested too) become tuples, for
    keys made of values that may hold them (identical pieces merged in a menu)."""
    if isinstance(v, list):
        return _Frozen(("list", *map(frozen, v)))
    if isinstance(v, dict):
        return _Frozen(("record", *sorted((str(k), frozen(x)) for k, x in v.items())))
    if isinstance(v, (set, frozenset)):
        return _Frozen(("set", frozenset(map(frozen, v))))
    if v.__class__ is tuple:  # a key made of values: frozen item by item
        return tuple(map(frozen, v))
    return v


DIRS: dict[str, tuple[int, int]] = {
    "N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
    "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1),
}
CLOCKWISE = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
ORTHOGONAL = ["N", "E", "S", "W"]
DIAGONAL = ["NE", "SE", "SW", "NW"]
# Hex grids use 'odd-r' free axial directions; named so specs read naturally.
HEX_DIRS: dict[str, tuple[int, int]] = {"E": (1, 0), "W": (-1, 0), "NE": (1, 1), "NW": (0, 1), "SE": (0, -1), "SW": (-1, -1)}


BOX = ZoneRef("__box__")  # where destroyed pieces and the unused ones rest


_PLAIN = frozenset({int, str, bool, float, type(None)})  # exactly these types (a Player is an int) are data already


def serialize(v: Any) -> Any:
    """Serialise runtime values to JSON-able data."""
    if type(v) in _PLAIN:  # most values a view holds: no test below applies
        return v
    if isinstance(v, Player):
        return {"player": int(v)}
    if isinstance(v, PieceRef):
        return {"piece": v.id}
    if isinstance(v, Cell):
        return {"cell": [v.zone, v.owner, list(v.pos) if isinstance(v.pos, tuple) else v.pos]}
    if isinstance(v, ZoneRef):
        return {"zone": [v.name, v.owner]}
    if isinstance(v, Record):
        return {"record": {k: serialize(x) for k, x in v.items()}}
    if isinstance(v, dict):
        return {str(k): serialize(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [serialize(x) for x in v]
    if isinstance(v, (set, frozenset)):
        return sorted(serialize(x) for x in v)
    return v
