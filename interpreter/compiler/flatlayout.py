"""The flat layout of a spec (flatgen.py): cells, places, piece columns, variable slots and geometry tables.

Cells of every board zone are numbered in zone order, each zone's cells in `cells(zone)`'s order; then each
zone shared by the players that holds pieces itself (a pile, a deck, a bag: `piles`) is one place after them,
in zone order, its pieces listed bottom to top as the general state lists them; the box (where destroyed and
unused pieces rest) is the place after the last of those.  A zone value is the general engine's own `ZoneRef`
(interned: `==` is identity), a piece's zone read off a table by its place (`zone_refs`).

An unbounded grid is a window of its cells (`WINDOW` each way from the origin, numbered row by row: the order
`cells(zone)` lists its occupied cells in): a position the general state holds outside it stops the flat game
at its start, and a step out of it (an edge cell's `adjacent`, `cell(zone, x, y)` beyond it) stops the flat
game there; `neighbor`, `direction` and `lines` are not written for such a grid.  A spec with a zone of
another shape (a per-player zone, a zone of a `per:` family, a graph) has no flat layout.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ..core.values import BOX, DIRS, HEX_DIRS, PIECE_REFS, Cell, Player, ZoneRef
from ..reference.builtins import REGISTRY, _step
from . import typepass as T


WINDOW = 32  # an unbounded grid's window: x and y from -WINDOW to WINDOW - 1
_WINDOW = range(-WINDOW, WINDOW)


class NoLayout(Exception):
    """The spec's zones or pieces have no flat layout."""


class FlatLayout:
    """Numbers and tables of one spec's flat layout."""

    def __init__(self, rules: Any, tp: Any):
        self.rules = rules
        self.cells: list[Cell] = []
        self.zone_cells: dict[str, list[int]] = {}
        self.unbounded: dict[str, tuple[int, int]] = {}  # an unbounded grid -> its window's cells lo..hi-1
        piles = []
        for name, z in rules.zones.items():
            if z.per_player or z.family != name or (z.is_board and z.decl.type != "grid"):
                raise NoLayout(f"zone '{name}'")
            if not z.is_board:
                piles.append(name)
                continue
            start = len(self.cells)
            if z.decl.unbounded:
                self.unbounded[name] = (start, start + len(_WINDOW) ** 2)
                positions = [(x, y) for y in _WINDOW for x in _WINDOW]  # (row by row: cells()'s order)
            else:
                positions = z.all_positions()
            self.cells.extend(Cell(name, None, pos) for pos in positions)
            self.zone_cells[name] = list(range(start, len(self.cells)))
        self.index = {c: i for i, c in enumerate(self.cells)}
        self.piles = {name: len(self.cells) + i for i, name in enumerate(piles)}  # zone -> its place
        self.box = len(self.cells) + len(piles)
        # place -> its zone (zone_of a piece there; the box's is BOX, as the general engine's)
        self.zone_refs = [ZoneRef(c.zone) for c in self.cells] + [ZoneRef(n) for n in piles] + [BOX]
        self.kinds = list(rules.kinds)
        attrs: list[str] = []
        for k in rules.kinds.values():
            attrs += [a for a in k.defaults if a not in attrs]
        self.attr_col = {a: i for i, a in enumerate(attrs)}
        self.everywhere = {a for a in attrs if all(a in k.defaults for k in rules.kinds.values())}
        self.var_slot = {n: i for i, n in enumerate(n for n, (k, _) in rules.names.items() if k == "var")}
        self.pvar_slot = {n: i for i, n in enumerate(sorted(rules.player_var_names))}
        self.tp = tp
        self.recursive = _recursive(rules)
        self._tables: dict[Any, Any] = {}

    # ------------------------------------------------------------ geometry, from the built-ins themselves
    def neighbor(self, d: str, n: int) -> list | None:
        """cell -> the cell n steps in direction d (None off the board), or None for a direction the boards lack."""
        key = ("nb", d, n)
        if key not in self._tables:
            it = SimpleNamespace(r=self.rules)
            try:
                self._tables[key] = [self._flat(_step(it, c, d, n)) for c in self.cells]
            except (ValueError, KeyError, TypeError):
                self._tables[key] = None
        return self._tables[key]

    def directions(self, n: int = 1) -> dict[str, list]:
        """direction -> neighbor(d, n) for every direction some board knows."""
        key = ("dirs", n)
        if key not in self._tables:
            found = {}
            for d in list(DIRS) + [h for h in HEX_DIRS if h not in DIRS]:
                t = self.neighbor(d, n)
                if t is not None:
                    found[d] = t
            self._tables[key] = found
        return self._tables[key]

    def adjacent(self) -> list[list[int] | None]:
        """cell -> `adjacent(cell)` (the zone's adjacency), as the built-in lists it; None for a cell of an
        unbounded grid's window with a neighbour outside it (any use of None fails: the flat game stops)."""
        if "adj" not in self._tables:
            it = SimpleNamespace(r=self.rules)
            raw = REGISTRY["adjacent"].fn.geometry_of
            index = self.index
            self._tables["adj"] = [None if any(n not in index for n in around) else [index[n] for n in around]
                                   for around in (raw(it, c) for c in self.cells)]
        return self._tables["adj"]

    def coordinates(self, zone: str) -> dict[tuple[int, int], int]:
        """(x, y) -> cell of a grid (its window for an unbounded one)."""
        key = ("xy", zone)
        if key not in self._tables:
            self._tables[key] = {self.cells[i].pos: i for i in self.zone_cells[zone]}
        return self._tables[key]

    def direction(self) -> list[dict[int, str]]:
        """cell -> {neighbour: direction}, the first direction whose step reaches it (builtins.direction)."""
        if "dir" not in self._tables:
            it = SimpleNamespace(r=self.rules)
            out = []
            for c in self.cells:
                ways = HEX_DIRS if self.rules.zones[c.zone].decl.adjacency == "hex" else DIRS
                found: dict[int, str] = {}
                for d in ways:
                    b = _step(it, c, d)
                    if b is not None and self.index[b] not in found:
                        found[self.index[b]] = d
                out.append(found)
            self._tables["dir"] = out
        return self._tables["dir"]

    def labels(self, zone: str) -> dict[str, int]:
        """label -> cell of a zone."""
        key = ("labels", zone)
        if key not in self._tables:
            self._tables[key] = {self.cells[i].label: i for i in self.zone_cells[zone]}
        return self._tables[key]

    def lines(self, zone: str, n: int) -> tuple[list[list[int]], int] | None:
        """(`lines(zone, n)` as cell numbers, what every call charges), from the built-in."""
        key = ("lines", zone, n)
        if key not in self._tables:
            from .typedlib import lines_table

            found = lines_table(self.rules, zone, n)
            self._tables[key] = None if found is None else ([[self.index[c] for c in run] for run in found[0]],
                                                            found[1])
        return self._tables[key]

    def table(self, name: str) -> dict | None:
        """A spec table as a dict of its entries by seat number and by key text (values of plain data only)."""
        key = ("table", name)
        if key not in self._tables:
            decl = self.rules.tables[name]
            vals = decl.values
            out: dict[Any, Any] = {}
            if decl.default is not None or getattr(decl, "above", None) not in (None, "error"):
                out = None  # (defaults and `above:` rules: the general engine's lookup)
            elif isinstance(vals, list):
                out = dict(enumerate(vals))
            else:
                for k, v in vals.items():
                    out[str(k)] = v
                    if str(k).lstrip("-").isdigit():
                        out[int(k)] = v
            if out is not None and not all(_plain(v) for v in out.values()):
                out = None
            self._tables[key] = out
        return self._tables[key]

    def default(self, kind: str, attr: str, gen: Any) -> str:
        """The source of a kind's default value of an attribute (flat representation)."""
        v = self.rules.kinds[kind].defaults[attr]
        if v is None or isinstance(v, (bool, int)):
            return repr(int(v) if type(v).__name__ == "Player" else v)
        if isinstance(v, str):
            return gen.const(v)
        raise NoLayout(f"the default of '{attr}'")

    def cell_attr(self, name: str) -> dict[int, Any] | None:
        """cell -> its value of a cell attribute (`cell_attributes:`: fixed), for the cells whose zone declares it
        (values of plain data only; else None)."""
        key = ("cattr", name)
        if key not in self._tables:
            out: dict[int, Any] | None = {}
            for i, c in enumerate(self.cells):
                z = self.rules.zones[c.zone]
                if name in z.cell_defaults:
                    out[i] = z.cell_attrs.get(c.pos, {}).get(name, z.cell_defaults[name])
            if not out or not all(v is None or v.__class__ in (bool, int, str) for v in out.values()):
                out = None
            self._tables[key] = out
        return self._tables[key]

    def rank(self) -> list[int]:
        """cell -> its place among the cells sorted as the language sorts cells (Cell's `<`)."""
        if "rank" not in self._tables:
            order = sorted(range(len(self.cells)), key=lambda i: self.cells[i].order)
            rank = [0] * len(self.cells)
            for r, i in enumerate(order):
                rank[i] = r
            self._tables["rank"] = rank
        return self._tables["rank"]

    def _flat(self, c: Any) -> int | None:
        return None if c is None else self.index[c]

    # ------------------------------------------------------------ values between the layouts
    def to_flat(self, value: Any, t: str) -> Any:
        """A general value of type t in the flat layout."""
        if value is None:
            return None
        s = T.strip(t)
        if s == T.CELL:
            return self.index[value]
        if s in (T.PIECE, T.BPIECE):
            return value.id
        if s == T.PLAYER:
            return int(value)
        if T.is_list(s):
            return [self.to_flat(x, T.elem(s)) for x in value]
        return value

    def to_general(self, value: Any, t: str) -> Any:
        """A flat value of type t back in the general layout."""
        if value is None:
            return None
        s = T.strip(t)
        if s == T.CELL:
            return self.cells[value]
        if s in (T.PIECE, T.BPIECE):
            return PIECE_REFS[value]
        if s == T.PLAYER:
            return Player(value)
        if T.is_list(s):
            return [self.to_general(x, T.elem(s)) for x in value]
        return value

    def place_of(self, place: Any) -> int:
        """A general place as a flat place (the box included)."""
        if place == BOX:
            return self.box
        if place in self.index:
            return self.index[place]
        if isinstance(place, ZoneRef) and place.owner is None and place.name in self.piles:
            return self.piles[place.name]
        raise NoLayout(f"a piece in {place!r}")

    def general_place(self, place: int) -> Any:
        if place < len(self.cells):
            return self.cells[place]
        return self.zone_refs[place]  # (a pile's zone, or the box)


def _plain(v: Any) -> bool:
    if isinstance(v, list):
        return all(_plain(x) for x in v)
    return v is None or isinstance(v, (bool, int, str))


def _recursive(rules: Any) -> bool:
    """Whether some spec function calls itself, directly or not."""
    from orrery.rulespec import ast as A

    calls = {n: {c.func for c in (body.walk() if body is not None else ()) if isinstance(c, A.Call)
                 and c.func in rules.functions} for n, (_, body) in rules.functions.items()}

    def reaches(start: str, target: str, seen: set) -> bool:
        for c in calls.get(start, ()):
            if c == target or (c not in seen and reaches(c, target, seen | {c})):
                return True
        return False

    return any(reaches(n, n, {n}) for n in calls)


__all__ = ["FlatLayout", "NoLayout"]
