"""Implementations of the built-in functions listed in rulespec/signatures.py.

Each takes the interpreter first (for the state, the rules and the RNG), then
the evaluated arguments.  They are general: grids, graphs, lists, players.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from orrery.rulespec.signatures import FUNCTIONS, Sig

from ..core.valueops import check_size, checked_number, list_contains, spend, values_equal
from ..core.decisions import RuleError
from ..core.uses import for_value, used
from ..core.values import (CLOCKWISE, DIRS, HEX_DIRS, PIECE_REFS, Cell, PieceRef, Player, ZoneRef, cell_key,
                           parse_cell_label)

Interp = Any  # the evaluator's Interp; not imported: the evaluator imports this module


@dataclass(frozen=True)
class Builtin:
    """A built-in: its implementation and its signature."""

    fn: Callable[..., Any]
    sig: Sig


REGISTRY: dict[str, Builtin] = {}


def builtin(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register an implementation under a name from the signature table."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        REGISTRY[name] = Builtin(fn, FUNCTIONS[name])
        return fn

    return deco


def _items(it: "Interp", v: Any) -> list[Any]:
    return it.iterate(v, None)


_GEOMETRY_CACHE_SIZE = 200_000


def geometry(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Memoise a function of the board's fixed geometry (bounded zones only) per spec.

    Lines, neighbours and adjacency never change during a game, and rule
    conditions ask for them over and over.  Sharing the cached lists is safe
    because the engine never changes a list value in place (`+=` and every
    built-in build new lists; tests/test_compiler.py checks the cache).
    """

    def cached(it: "Interp", *args: Any, **kwargs: Any) -> Any:
        cache = it.r.__dict__.setdefault("_geometry_cache", {})
        try:
            # (a keyword's class is part of the key: `wrap: 1` must not find the answer of `wrap: true`)
            key = (fn, args, tuple(sorted((k, v, v.__class__) for k, v in kwargs.items()))) if kwargs else (fn, args)
            hit = cache.get(key, _MISS)
        except TypeError:  # unhashable arguments: nothing to remember
            return fn(it, *args, **kwargs)
        if hit is _MISS:  # (none is a result too: a step off the board)
            hit = fn(it, *args, **kwargs)
            if len(cache) >= _GEOMETRY_CACHE_SIZE or not _fixed_geometry(it, args):
                return hit
            cache[key] = hit
        return hit

    cached.__name__, cached.__qualname__, cached.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__  # (pickled by name)
    cached.geometry_of = fn  # type: ignore[attr-defined]  # the cache key's function (fastlib reads the cache)
    return cached


_MISS = object()


def _fixed_geometry(it: "Interp", args: tuple) -> bool:
    for a in args:
        if isinstance(a, ZoneRef) and it.r.zones[a.name].decl.unbounded:
            # an unbounded grid's cells are the occupied ones: they change.  A cell's neighbours,
            # lines and directions do not, since every position is a cell of such a grid.
            return False
    return True


# classes whose `==` and hash agree with the language's equality (no true/false, lists or records)
_HASH_EQUAL = frozenset({Cell, PieceRef, ZoneRef, Player, str, int})


def spend_items(it: "Interp", n: int) -> None:
    """Count n items of work against the loop limit (errors are located at the call)."""
    spend(it, n, None)


def _built(it: "Interp", n: int, what: str = "list") -> None:
    """A built-in is about to build a list (or text) of n items: within `values`, and counted against `loop`."""
    check_size(it, n, what, None)
    spend(it, n, None)


# ------------------------------------------------------------ collections


@builtin("count")
def count(it: "Interp", v: Any) -> int:
    """Items in a list or pieces in a place."""
    if isinstance(v, (ZoneRef, Cell)):
        return it.place_size(v)
    return len(_items(it, v))


@builtin("len")
def length(it: "Interp", v: Any) -> int:
    """Length of a list or text."""
    if isinstance(v, str):
        return len(v)
    return len(_items(it, v))


@builtin("sum")
def total(it: "Interp", v: Any) -> int:
    """Sum of numbers."""
    items = _items(it, v)
    for x in items:
        if isinstance(x, bool) or not isinstance(x, int):
            raise ValueError(f"can only add numbers, got {it.describe(x)}")
    return checked_number(it, sum(items), None)


def _extreme(it: "Interp", pick: Callable, args: tuple, default: Any, has_default: bool) -> Any:
    if len(args) == 2:
        return pick(args[0], args[1])
    items = _items(it, args[0])
    if not items:
        if has_default:
            return default
        raise ValueError("empty list (give default: value)")
    return pick(items)


_NO = object()


@builtin("min")
def minimum(it: "Interp", *args: Any, default: Any = _NO) -> Any:
    """Smallest value."""
    return _extreme(it, min, args, default, default is not _NO)


@builtin("max")
def maximum(it: "Interp", *args: Any, default: Any = _NO) -> Any:
    """Largest value."""
    return _extreme(it, max, args, default, default is not _NO)


@builtin("any")
def any_(it: "Interp", v: Any) -> bool:
    """Some item is true."""
    return any(x is True for x in _items(it, v))


@builtin("all")
def all_(it: "Interp", v: Any) -> bool:
    """Every item is true."""
    return all(x is True for x in _items(it, v))


@builtin("range")
def range_(it: "Interp", a: int, b: int | None = None) -> list[int]:
    """Integers a..b-1."""
    lo, hi = (0, a) if b is None else (a, b)
    if hi - lo > it.limits.loop:
        raise RuleError(f"range(): range of {hi - lo} numbers is larger than the loop limit (limit loop); raise "
                        f"it with --limit loop=N", None)
    if hi > lo:
        _built(it, hi - lo)
    return list(range(lo, hi))


@builtin("sorted")
def sorted_(it: "Interp", v: Any, reverse: bool = False) -> list[Any]:
    """Increasing order."""
    items = _items(it, v)
    _built(it, len(items))
    if items and all(x.__class__ is Cell for x in items):
        return sorted(items, key=cell_key, reverse=bool(reverse))  # the same order as Cell's `<`, faster
    return sorted(items, reverse=bool(reverse))


@builtin("reversed")
def reversed_(it: "Interp", v: Any) -> list[Any]:
    """Backwards."""
    items = _items(it, v)
    _built(it, len(items))
    return list(reversed(items))


@builtin("unique")
def unique(it: "Interp", v: Any) -> list[Any]:
    """Without repeats."""
    out: list[Any] = []
    items = _items(it, v)
    _built(it, len(items))
    if all(x.__class__ in _HASH_EQUAL for x in items):
        # values whose equality is Python's own: a set finds repeats at once; the loop limit is still
        # charged the comparisons of the list scan below, so both ways count the same work
        seen: set[Any] = set()
        compared = 0
        for x in items:
            compared += len(out)
            if x not in seen:
                seen.add(x)
                out.append(x)
        spend_items(it, compared)
        return out
    for x in items:
        _built(it, len(out))  # the comparisons made: unique() is quadratic
        if not list_contains(out, x):
            out.append(x)
    return out


@builtin("first")
def first(it: "Interp", v: Any) -> Any:
    """First item or none."""
    items = _items(it, v)
    return items[0] if items else None


@builtin("last")
def last(it: "Interp", v: Any) -> Any:
    """Last item or none."""
    items = _items(it, v)
    return items[-1] if items else None


@builtin("index_of")
def index_of(it: "Interp", v: Any, x: Any) -> int:
    """Position or -1."""
    for i, y in enumerate(_items(it, v)):
        if values_equal(x, y):
            return i
    return -1


@builtin("abs")
def abs_(it: "Interp", x: int) -> int:
    """Absolute value."""
    return abs(x)


@builtin("text")
def text(it: "Interp", x: Any) -> str:
    """Menu text of a value."""
    shown = it.label(x)
    _built(it, len(shown), "text")
    return shown


# --------------------------------------------------------- places, pieces


@builtin("cells")
def cells(it: "Interp", zone: Any) -> list[Cell]:
    """Cells of a board zone."""
    if not isinstance(zone, ZoneRef) or not it.r.zones[zone.name].is_board:
        raise ValueError(f"needs a grid or graph zone, got {it.describe(zone)}")
    return it.cells_of(zone)


@builtin("pieces")
def pieces(it: "Interp", place: Any, kind: str | None = None) -> list[PieceRef]:
    """Pieces in a place, optionally of one kind."""
    if isinstance(place, list):
        out = [p for c in place for p in it.pieces_in(c)]
    else:
        out = it.pieces_in(place)
    if kind is not None:
        out = [p for p in out if it.s.kinds[p.id] == kind]
    return out


@builtin("empty")
def empty(it: "Interp", place: Any) -> bool:
    """No pieces in a place."""
    if isinstance(place, Cell):
        return not it.s.contents(place)
    return not it.place_size(place)


@builtin("size")
def size(it: "Interp", place: Any) -> int:
    """Pieces in a place."""
    return it.place_size(place)


@builtin("top")
def top(it: "Interp", place: Any) -> Any:
    """Top piece or none."""
    lst = it.s.contents(it.as_place(place, None))
    return PIECE_REFS[lst[-1]] if lst else None


@builtin("bottom")
def bottom(it: "Interp", place: Any) -> Any:
    """Bottom piece or none."""
    lst = it.s.contents(it.as_place(place, None))
    return PIECE_REFS[lst[0]] if lst else None


@builtin("place_of")
def place_of(it: "Interp", piece: PieceRef) -> Any:
    """Where a piece is."""
    return it.s.loc[piece.id]


@builtin("zone_of")
def zone_of(it: "Interp", x: Any) -> ZoneRef:
    """The zone of a cell or piece."""
    if isinstance(x, PieceRef):
        x = it.s.loc[x.id]
    if isinstance(x, Cell):
        return ZoneRef(x.zone, x.owner)
    if isinstance(x, ZoneRef):
        return x
    raise ValueError(f"needs a cell or piece, got {it.describe(x)}")


@builtin("changed_at")
def changed_at(it: "Interp", place: Any) -> int:
    """Change stamp of a place."""
    return it.s.stamps.get(place, 0)


@builtin("cell")
@geometry
def cell(it: "Interp", zone: ZoneRef, a: Any, b: Any = None) -> Cell | None:
    """A cell by label or coordinates."""
    z = it.r.zones[zone.name]
    if z.decl.type == "graph":
        pos: Any = a
    elif b is None:
        pos = parse_cell_label(str(a))
        if pos is None:
            raise ValueError(f"'{a}' is not a cell label like c3")
    else:
        pos = (a, b)
    return Cell(zone.name, zone.owner, pos) if z.in_bounds(pos) else None


@builtin("owner_of")
def owner_of(it: "Interp", x: Any) -> Any:
    """Owner of a per-player zone or cell."""
    owner = getattr(x, "owner", None)
    return None if owner is None else Player(owner)


# ---------------------------------------------------------------- geometry


def _dirs_for(it: "Interp", zone: str, adjacency: str | None) -> list[str]:
    from ..core.rules import ADJACENCY_DIRS

    kind = adjacency or it.r.zones[zone].decl.adjacency
    if kind not in ADJACENCY_DIRS:
        raise ValueError(f"unknown adjacency '{kind}' (orthogonal, diagonal, king, hex)")
    return ADJACENCY_DIRS[kind]


def _step(it: "Interp", c: Cell, d: str, n: int = 1, adjacency: str | None = None,
          wrap: bool | None = None) -> Cell | None:
    z = it.r.zones[c.zone]
    table = HEX_DIRS if (adjacency or z.decl.adjacency) == "hex" else DIRS
    if d not in table:
        raise ValueError(f"unknown direction '{d}'")
    dx, dy = table[d]
    x, y = c.pos[0] + dx * n, c.pos[1] + dy * n
    if (z.decl.wrap if wrap is None else _wraps(it, wrap)) and not z.decl.unbounded:
        x, y = x % z.decl.width, y % z.decl.height
    pos = (x, y)
    return Cell(c.zone, c.owner, pos) if z.in_bounds(pos) else None


def _wraps(it: "Interp", wrap: Any) -> bool:
    """A `wrap:` argument: across the edges to the opposite side (true) or not (false)."""
    if wrap is not True and wrap is not False:
        raise ValueError(f"wrap: must be true or false, got {it.describe(wrap)}")
    return wrap


@builtin("adjacent")
@geometry
def adjacent(it: "Interp", c: Cell, adjacency: str | None = None, wrap: bool | None = None) -> list[Cell]:
    """Neighbouring cells on the board."""
    if not isinstance(c, Cell):
        raise ValueError(f"needs a cell, got {it.describe(c)}")
    z = it.r.zones[c.zone]
    if z.decl.type == "graph":
        return [Cell(c.zone, c.owner, n) for n in z.graph_adj.get(c.pos, [])]
    out = []
    for d in _dirs_for(it, c.zone, adjacency):
        n = _step(it, c, d, 1, adjacency, wrap)
        if n is not None and n != c and n not in out:
            out.append(n)
    return out


@builtin("neighbor")
@geometry
def neighbor(it: "Interp", c: Cell, d: str, n: int = 1, wrap: bool | None = None) -> Cell | None:
    """The cell n steps away in direction d."""
    if not isinstance(c, Cell):
        raise ValueError(f"needs a cell, got {it.describe(c)}")
    return _step(it, c, d, n, None, wrap)


@builtin("dirs")
def dirs(it: "Interp", adjacency: str = "orthogonal") -> list[str]:
    """Direction names."""
    from ..core.rules import ADJACENCY_DIRS

    if adjacency not in ADJACENCY_DIRS:
        raise ValueError(f"unknown adjacency '{adjacency}'")
    return list(ADJACENCY_DIRS[adjacency])


@builtin("rotate")
def rotate(it: "Interp", d: str, quarter_turns: int) -> str:
    """Turn a direction by quarter turns clockwise."""
    if d not in CLOCKWISE:
        raise ValueError(f"unknown direction '{d}'")
    return CLOCKWISE[(CLOCKWISE.index(d) + 2 * quarter_turns) % 8]


@builtin("opposite")
def opposite(it: "Interp", d: str) -> str:
    """The opposite direction."""
    return rotate(it, d, 2)


@builtin("direction")
@geometry
def direction(it: "Interp", a: Cell, b: Cell) -> str | None:
    """Direction from a to its neighbour b."""
    table = HEX_DIRS if it.r.zones[a.zone].decl.adjacency == "hex" else DIRS
    for d in table:
        if _step(it, a, d) == b:
            return d
    return None


@builtin("line")
def line(it: "Interp", c: Cell, d: str, n: int, wrap: bool | None = None) -> list[Cell]:
    """n cells from c in direction d, or [] if off the board."""
    if isinstance(n, int) and n > 0:
        _built(it, n)  # charged on every call, remembered or not: the loop limit must not depend on a cache
    return _line(it, c, d, n) if wrap is None else _line(it, c, d, n, _wraps(it, wrap))


@geometry
def _line(it: "Interp", c: Cell, d: str, n: int, wrap: bool | None = None) -> list[Cell]:
    if n <= 0:
        return []
    out = [c]
    cur: Cell | None = c
    for _ in range(n - 1):
        cur = _step(it, cur, d, 1, None, wrap)
        if cur is None:
            return []
        out.append(cur)
    return out


@builtin("ray")
def ray(it: "Interp", c: Cell, d: str, wrap: bool | None = None) -> list[Cell]:
    """The cells after c in direction d up to the board's edge (on a wrapped grid: until back at c)."""
    if not isinstance(c, Cell):
        raise ValueError(f"needs a cell, got {it.describe(c)}")
    z = it.r.zones[c.zone]
    if z.decl.type != "grid" or z.decl.unbounded:
        raise ValueError(f"needs a cell of a bounded grid, got {it.describe(c)}")
    out = _ray(it, c, d, None if wrap is None else _wraps(it, wrap))
    _built(it, len(out))  # charged on every call, as line() is
    return out


@geometry
def _ray(it: "Interp", c: Cell, d: str, wrap: bool | None) -> list[Cell]:
    out: list[Cell] = []
    cur = _step(it, c, d, 1, None, wrap)
    while cur is not None and cur is not c and cur not in out:
        out.append(cur)
        cur = _step(it, cur, d, 1, None, wrap)
    return out


@builtin("lines")
def lines(it: "Interp", zone: ZoneRef, n: int, adjacency: str | None = None) -> list[list[Cell]]:
    """Every straight run of n cells."""
    runs, tried = _lines(it, zone, n, adjacency)
    if isinstance(n, int) and n > 0:
        _built(it, n * tried)  # the runs tried, charged on every call, remembered or not
    return runs


@geometry
def _lines(it: "Interp", zone: ZoneRef, n: int, adjacency: str | None = None) -> tuple[list[list[Cell]], int]:
    """The runs of n cells and how many were tried (one per cell and direction)."""
    z = it.r.zones[zone.name]
    kind = adjacency or ("king" if z.decl.adjacency in ("king", "diagonal") else z.decl.adjacency)
    # one direction per axis, so each run is listed once
    ways = {"orthogonal": ["E", "N"], "king": ["E", "N", "NE", "SE"], "diagonal": ["NE", "SE"],
            "hex": ["E", "NE", "NW"]}[kind]
    out = []
    cells = it.cells_of(zone)
    for c in cells:
        for d in ways:
            run = _line(it, c, d, n)
            if run and not (z.decl.wrap and len(set(run)) < n):
                out.append(run)
    return out, len(cells) * len(ways)


@builtin("distance")
def distance(it: "Interp", a: Cell, b: Cell, metric: str = "manhattan") -> int:
    """Steps between cells."""
    dx, dy = abs(a.x - b.x), abs(a.y - b.y)
    if metric == "manhattan":
        return dx + dy
    if metric == "king":
        return max(dx, dy)
    if metric == "hex":
        ddx, ddy = b.x - a.x, b.y - a.y
        return (abs(ddx) + abs(ddy) + abs(ddx - ddy)) // 2
    raise ValueError(f"unknown metric '{metric}' (manhattan, king, hex)")


@builtin("connected")
def connected(it: "Interp", start: Any, within: Any, adjacency: str | None = None) -> list[Cell]:
    """Flood fill from start through `within`."""
    unseen = set(_items(it, within))  # what the flood may still reach: a cell leaves it when first reached
    seeds = [start] if isinstance(start, Cell) else list(_items(it, start))
    seen: list[Cell] = []
    for c in seeds:
        if c in unseen:
            unseen.remove(c)
            seen.append(c)
    # each cell's neighbours kept per rules and adjacency (a cell's neighbours never change: builtins.geometry)
    table = it.r.__dict__.setdefault("_flood_neighbours", {}).setdefault(adjacency, {})
    # One loop iteration per cell visited, counted in `done` and charged as it.tick would have charged them:
    # nothing else in the flood counts, so the limit is crossed at the same count with the same error.
    start_loops = it.loops
    budget = it.limits.loop - start_loops
    done = 0
    try:
        for c in seen:  # (seen grows while it is walked: a breadth-first flood)
            if done >= budget:  # this cell's tick crosses the limit
                it.loops = start_loops + done
                it.tick(None)
            done += 1
            around = table.get(c)
            if around is None:
                around = adjacent(it, c, adjacency)
                if len(table) < _GEOMETRY_CACHE_SIZE:
                    table[c] = around
            for n in around:
                if n in unseen:
                    unseen.remove(n)
                    seen.append(n)
    finally:
        it.loops = max(it.loops, start_loops + done)
    return sorted(seen, key=cell_key)  # the order of Cell's `<`, one slot read per cell


@builtin("groups")
def groups(it: "Interp", cells_: Any, adjacency: str | None = None) -> list[list[Cell]]:
    """Connected components of a set of cells."""
    remaining = list(_items(it, cells_))
    out: list[list[Cell]] = []
    done: set[Cell] = set()
    for c in remaining:
        if c in done:
            continue
        group = connected(it, [c], remaining, adjacency)
        done.update(group)
        out.append(group)
    return out


@builtin("in_bounds")
def in_bounds(it: "Interp", zone: ZoneRef, a: Any, b: Any = None) -> bool:
    """Whether a position is on the board."""
    return cell(it, zone, a, b) is not None


# ---------------------------------------------------------- players, chance


@builtin("next_player")
def next_player(it: "Interp", p: int, k: int = 1) -> Player:
    """k seats clockwise."""
    return Player((int(p) + k) % it.s.n)


@builtin("players_from")
def players_from(it: "Interp", p: int) -> list[Player]:
    """Everyone clockwise from p."""
    return [Player((int(p) + i) % it.s.n) for i in range(it.s.n)]


@builtin("random_int")
def random_int(it: "Interp", a: int, b: int) -> int:
    """Seeded random integer in [a, b]."""
    if b < a:
        raise ValueError(f"empty range {a}..{b}")
    checked_number(it, b - a, None)  # the range must be a number within the `digits` limit
    return a + it.s.rng.below(b - a + 1)


@builtin("shuffled")
def shuffled(it: "Interp", v: Any) -> list[Any]:
    """Seeded random order."""
    items = list(_items(it, v))
    _built(it, len(items))
    it.s.rng.shuffle(items)
    return items


# ---------------------------------------------------------- use limits


_NO_VALUE = object()  # (uses() with no value: a limit counted as one)


@builtin("uses")
def uses(it: "Interp", key: Any, who: Any = None, value: Any = _NO_VALUE) -> int:
    """How many times `who` (default: the acting player) used a limit's key in the scope instance in progress;
    for a limit counted per value (`each`), how many times with `value`."""
    limit = it.r.limit_keys.get(key) if key.__class__ is str else None
    if limit is None:
        known = ", ".join(sorted(it.r.limit_keys)) or "none"
        raise ValueError(f"no limit is counted under {it.describe(key)} (keys: {known})")
    if who is None:
        who = it.current()
    elif who.__class__ is not Player and not (who.__class__ is int and 0 <= who < it.s.n):
        raise ValueError(f"the player must be a player, got {it.describe(who)}")
    given = value is not _NO_VALUE
    if (limit.each is not None) != given:
        raise ValueError(f"the counter '{key}' is counted for each value of '{limit.each}': name the value, "
                         f"uses(\"{key}\", PLAYER, VALUE)" if limit.each is not None else
                         f"the counter '{key}' is one count, not one per value: uses(\"{key}\", PLAYER)")
    return used(it.s, for_value(limit, value) if given else limit, int(who))


from . import walks  # noqa: E402  (edges and walks, in their own module)

for _name in ("edge", "edges_of", "path", "path_cost", "reachable"):
    REGISTRY[_name] = Builtin(getattr(walks, _name), FUNCTIONS[_name])

from .abilityrun import carriers  # noqa: E402  (an `activate:` ability's pieces: core/activation.py)
from ..core.activation import CARRIERS  # noqa: E402

REGISTRY[CARRIERS] = Builtin(carriers, Sig(1, 1, frozenset(), "list", "The acting player's live pieces carrying an "
                                                                     "ability (never written in a spec)."))

missing = set(FUNCTIONS) - set(REGISTRY)
if missing:  # pragma: no cover - caught by the import in tests
    raise ImportError(f"built-ins without implementation: {sorted(missing)}")
