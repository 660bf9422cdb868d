"""Runtime values of the rule language besides int/str/bool/None/list.

Players are ints with a type of their own; pieces, cells and zones are small
immutable references resolved against a State, so a value never holds on to a
particular state and clones stay independent.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec.labels import cell_label, column_letters, parse_cell_label  # noqa: F401  (re-exported)


class Player(int):
    """A seat index (0-based) that the language treats as a player."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"P{int(self) + 1}"


class PieceRef:
    """A reference to a piece by id."""

    __slots__ = ("id",)

    def __init__(self, pid: int):
        self.id = pid

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, PieceRef) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("piece", self.id))

    def __repr__(self) -> str:
        return f"piece#{self.id}"


class ZoneRef:
    """A whole zone; `owner` is the player for per-player zones, else None."""

    __slots__ = ("name", "owner", "_h")

    def __init__(self, name: str, owner: int | None = None):
        self.name = name
        self.owner = owner
        self._h = hash(("zone", name, owner))

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ZoneRef) and other.name == self.name and other.owner == self.owner

    def __hash__(self) -> int:
        return self._h

    def __repr__(self) -> str:
        return self.name if self.owner is None else f"{self.name}[P{self.owner + 1}]"


class Cell:
    """A cell of a grid zone (pos is (x, y)) or a node of a graph zone (pos is its name).

    Cells are interned: `Cell(zone, owner, pos)` always returns the same object for the same cell,
    so equality is identity, which Python compares without calling any method.  Membership in a list
    of cells, dictionary keys and sets are the engine's hottest comparisons (profiles: a Python
    `__eq__` was 14% of a playout of a flipping game on an 8x8 board).  Copies and pickles come back as
    the interned object.
    """

    __slots__ = ("zone", "owner", "pos")

    def __new__(cls, zone: str, owner: int | None, pos: Any) -> "Cell":
        key = (zone, owner, pos)
        cell = _CELLS.get(key)
        if cell is None:
            cell = object.__new__(cls)
            cell.zone, cell.owner, cell.pos = zone, owner, pos
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
        return cell_key(self) < cell_key(other)

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


def cell_key(c: Cell) -> tuple:
    """The sort key behind Cell's `<`: zone, owner, then position."""
    pos = c.pos if isinstance(c.pos, tuple) else (0, str(c.pos))
    return (c.zone, -1 if c.owner is None else c.owner, pos)


class Record(dict):
    """A small map value (`{a: 1}`); fields are read with `.name`."""

    def __hash__(self) -> int:  # records are values: hash by content
        return hash(tuple(sorted(self.items(), key=lambda kv: kv[0])))


DIRS: dict[str, tuple[int, int]] = {
    "N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
    "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1),
}
CLOCKWISE = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
ORTHOGONAL = ["N", "E", "S", "W"]
DIAGONAL = ["NE", "SE", "SW", "NW"]
# Hex grids use 'odd-r' free axial directions; named so specs read naturally.
HEX_DIRS: dict[str, tuple[int, int]] = {"E": (1, 0), "W": (-1, 0), "NE": (1, 1), "NW": (0, 1), "SE": (0, -1), "SW": (-1, -1)}
