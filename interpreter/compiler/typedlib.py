"""Runtime helpers and compile-time tables of the typed generator (typedgen.py).

The helpers take values whose types the type pass proved (a text, a number, a cell, a player), so they
check no class; each does what the general helper (fastlib) does for that type, and leaves anything past a
limit to the built-in or operator itself, so errors keep their messages and places.  The tables answer the
board's geometry for every cell of every fixed board, made once when the module is generated from the
built-ins themselves (a table lookup cannot miss where the type pass proved the argument is such a cell).
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from ..core.valueops import _arith
from ..core.values import PIECE_REFS, Cell, ZoneRef, cell_key
from ..reference.builtins import REGISTRY, _step
from ..reference.effects import create_with
from .fastlib import add, arith, call_builtin, contains, get_attr, index, sub

_NOT_CONSTANT = object()
_CONST, _INT = re.compile(r"K[0-9]+"), re.compile(r"-?[0-9]+")


def constant_of(consts: list[Any], src: str) -> Any:
    """The value of a generated source that is a constant (`K12`: consts[12], a number), else a marker that
    equals nothing (the generators fold what they can see is constant)."""
    if _CONST.fullmatch(src):
        return consts[int(src[1:])]
    if _INT.fullmatch(src):
        return int(src)
    return _NOT_CONSTANT

MISS = object()  # a table's answer for a key it does not hold


def _charged(it: Any, span: Any, shown: str, value: Any) -> str:
    """`text(value)` once shown: within `values`, charged to `loop` (builtins.text); past a limit, the built-in."""
    n = len(shown)
    if n <= it.limits.values and it.loops + n <= it.limits.loop:
        it.loops += n
        return shown
    return call_builtin(it, REGISTRY["text"].fn, "text", span, (value,), {})


def text_str(it: Any, span: Any, v: str) -> str:
    """`text` of a text."""
    return _charged(it, span, v, v)


def text_int(it: Any, span: Any, v: int) -> str:
    """`text` of a number."""
    return _charged(it, span, str(v), v)


def text_cell(it: Any, span: Any, v: Cell) -> str:
    """`text` of a cell: its label."""
    return _charged(it, span, v.label, v)


def text_player(it: Any, span: Any, v: int) -> str:
    """`text` of a player: the seat's name."""
    return _charged(it, span, it.r.seat_name(v), v)


def join_texts(it: Any, node: Any, a: str, b: str) -> str:
    """`a + b` of two texts: within `values`, the copy counted as loop work (fastlib.add's text case)."""
    n = len(a) + len(b)
    if n <= it.limits.values and it.loops + n <= it.limits.loop:
        it.loops += n
        return a + b
    return _arith(it, "+", a, b, node)


def spend_texts(it: Any, made: int, joined: int) -> bool:
    """The loop ticks of making a text of `made` characters and joining it into one of `joined`, charged when both
    are within `values` and together within `loop` (then True); else nothing is charged (False: the caller
    makes the texts as the general code does, which fails where the interpreter fails)."""
    n = it.loops + made + joined
    if made <= it.limits.values and joined <= it.limits.values and n <= it.limits.loop:
        it.loops = n
        return True
    return False


def cell_by_label(it: Any, span: Any, zone: ZoneRef, label: Any) -> Any:
    """`cell(zone, label)` for a label the zone's table does not hold: the built-in (off the board, or an error)."""
    return call_builtin(it, REGISTRY["cell"].fn, "cell", span, (zone, label), {})


def players_of(it: Any) -> list:
    """The seats as players (State.players: one shared list per player count)."""
    return it.s.players


# ------------------------------------------------------------------ tables


def _board_cells(rules: Any) -> list[Cell]:
    """Every cell of every board zone (bounded grids and graphs; boards of one owner only)."""
    out = []
    for name, z in rules.zones.items():
        if z.is_board:
            out.extend(Cell(name, None, pos) for pos in z.all_positions())
    return out


def _interp(rules: Any) -> Any:
    """An interpreter over an empty state of these rules, for the built-ins that read only the rules."""
    from ..core.state import State
    from ..reference.evaluator import Interp

    return Interp(State(rules, 1, 0))


def board_cells(rules: Any, zone: str) -> list[Cell]:
    """`cells(zone)` of a fixed board: the built-in's own list (Interp.cells_of keeps it per rules)."""
    return _interp(rules).cells_of(ZoneRef(zone))


def lines_table(rules: Any, zone: str, n: int) -> tuple[list, int] | None:
    """(`lines(zone, n)`, the runs tried: what every call charges) of a fixed board, from the built-in."""
    key = ("lines", zone, n)
    tables = _tables(rules)
    if key not in tables:
        raw = REGISTRY["lines"].fn.__globals__["_lines"]
        try:
            runs, tried = raw(_interp(rules), ZoneRef(zone), n)
            tables[key] = (runs, n * tried)
        except (ValueError, KeyError, TypeError):
            tables[key] = None
    return tables[key]


def spend_built(it: Any, n: int) -> bool:
    """A built-in's list of n items (builtins._built): charged when within `values` and `loop` (True); else
    nothing (False: the caller calls the built-in, which fails where it fails)."""
    if n <= it.limits.values and it.loops + n <= it.limits.loop:
        it.loops += n
        return True
    return False


def _tables(rules: Any) -> dict:
    return rules.__dict__.setdefault("_typed_tables", {})


def neighbor_table(rules: Any, d: str, n: int) -> dict | None:
    """cell -> `neighbor(cell, d, n)` for every board cell, or None when the built-in refuses some (an unknown
    direction: the general code keeps its error)."""
    key = ("neighbor", d, n)
    tables = _tables(rules)
    if key not in tables:
        it = SimpleNamespace(r=rules)
        try:
            tables[key] = {c: _step(it, c, d, n) for c in _board_cells(rules)}
        except (ValueError, KeyError, TypeError):
            tables[key] = None
    return tables[key]


def direction_tables(rules: Any) -> dict:
    """direction -> neighbor_table(direction, 1), for every direction every board knows (the others are left to
    the built-in, which refuses them)."""
    tables = _tables(rules)
    if "directions" not in tables:
        from ..core.values import DIRS, HEX_DIRS

        found = {}
        for d in list(DIRS) + [h for h in HEX_DIRS if h not in DIRS]:
            t = neighbor_table(rules, d, 1)
            if t is not None:
                found[d] = t
        tables["directions"] = found
    return tables["directions"]


def direction_table(rules: Any) -> dict:
    """cell -> {neighbour: `direction(cell, neighbour)`} for every cell of the (grid) boards: the first direction
    whose step reaches the neighbour, as the built-in tries them; a cell that is no neighbour is not held (the
    built-in says none)."""
    tables = _tables(rules)
    if "direction" not in tables:
        from ..core.values import DIRS, HEX_DIRS

        it = SimpleNamespace(r=rules)
        out: dict = {}
        for c in _board_cells(rules):
            ways = HEX_DIRS if rules.zones[c.zone].decl.adjacency == "hex" else DIRS
            found: dict = {}
            for d in ways:
                b = _step(it, c, d)
                if b is not None and b not in found:
                    found[b] = d
            out[c] = found
        tables["direction"] = out
    return tables["direction"]


def adjacent_table(rules: Any) -> dict:
    """cell -> `adjacent(cell)` (the zone's adjacency) for every board cell: the built-in's own lists (values are
    never changed in place)."""
    tables = _tables(rules)
    if "adjacent" not in tables:
        it = SimpleNamespace(r=rules)
        raw = REGISTRY["adjacent"].fn.geometry_of
        tables["adjacent"] = {c: raw(it, c) for c in _board_cells(rules)}
    return tables["adjacent"]


def coords_table(rules: Any, zone: str) -> dict | None:
    """(x, y) -> cell of a bounded grid zone shared by all players (`cell(zone, x, y)` of its cells), or None for
    other zones."""
    z = rules.zones[zone]
    if not z.is_board or z.per_player or z.decl.unbounded or z.decl.type != "grid":
        return None
    key = ("coords", zone)
    tables = _tables(rules)
    if key not in tables:
        tables[key] = {pos: Cell(zone, None, pos) for pos in z.all_positions()}
    return tables[key]


def label_table(rules: Any, zone: str) -> dict | None:
    """label -> cell of a board zone shared by all players (graph: node name -> cell), or None for other zones."""
    z = rules.zones[zone]
    if not z.is_board or z.per_player or z.decl.unbounded:
        return None
    key = ("label", zone)
    tables = _tables(rules)
    if key not in tables:
        cells = (Cell(zone, None, pos) for pos in z.all_positions())
        tables[key] = {(c.pos if z.decl.type == "graph" else c.label): c for c in cells}
    return tables[key]


def pieces_of(it: Any, place: Any) -> list:
    """`pieces(place)` of a cell or of a zone that is not a board (the type pass proved which): its pieces."""
    ids = it.s.places.get(place)
    return list(map(PIECE_REFS.__getitem__, ids)) if ids else []


def pieces_of_kind(it: Any, place: Any, kind: str) -> list:
    """`pieces(place, kind: K)` of a cell or of a zone that is not a board, K a text written in the rules (a
    loop, not a comprehension: places hold a few pieces, and a comprehension's frame costs more than them)."""
    out: list = []
    ids = it.s.places.get(place)
    if ids:
        kinds = it.s.kinds
        for i in ids:
            if kinds[i] == kind:
                out.append(PIECE_REFS[i])
    return out


def count_of_kind(it: Any, place: Any, kind: str) -> int:
    """`count(pieces(place, kind: K))` of a cell or of a zone that is not a board (no list made)."""
    ids = it.s.places.get(place)
    if not ids:
        return 0
    kinds = it.s.kinds
    n = 0
    for i in ids:
        if kinds[i] == kind:
            n += 1
    return n


HELPERS: dict[str, Any] = {
    "T_TEXT_STR": text_str, "T_TEXT_INT": text_int, "T_TEXT_CELL": text_cell, "T_TEXT_PLAYER": text_player,
    "T_JOIN": join_texts, "T_SPEND": spend_texts, "T_BUILT": spend_built, "ANYB": any, "ALLB": all,
    "SUMB": sum, "SORTEDB": sorted, "CELL_KEY": cell_key, "XCREATE": create_with, "XIX": index, "XIN": contains, "XCELL": cell_by_label, "PLAYERS_OF": players_of, "MISS": MISS, "INT": int,
    "XADD": add, "XSUB": sub, "XGA": get_attr, "XCB": call_builtin, "PIECE_REFS": PIECE_REFS,
    "XAR": arith, "T_PIECES": pieces_of, "T_PIECES_KIND": pieces_of_kind, "T_COUNT_KIND": count_of_kind,
}

__all__ = ["HELPERS", "MISS", "coords_table", "direction_table", "neighbor_table", "adjacent_table", "direction_tables", "label_table", "board_cells",
           "lines_table"]
