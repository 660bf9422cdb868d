"""Edges and walks on boards: `edge`, `edges_of`, `path`, `path_cost` and `reachable` (builtins.py registers them).

A board's edges are the steps `adjacent` allows: a graph's declared edges (one-way ones only forward), a
grid's neighbours.  An edge reads as a record: `source`, `target` and, on graphs, the edge attributes.
Walks are Dijkstra searches whose cost per edge is the `cost:` expression, evaluated once per edge looked
at with `edge` bound (the evaluator passes it here as a function of the edge record); none means the
edge cannot be taken.  Ties are broken as docs/dsl.md (§3.16) says, so both engines walk alike.
"""

from __future__ import annotations

import heapq
from typing import Any, Callable

from ..core.decisions import RuleError
from ..core.values import Cell, Record

Interp = Any
Cost = Callable[[Record], Any] | None


def adjacent(it: "Interp", c: Cell) -> list[Cell]:
    """The built-in `adjacent` (builtins.py registers this module's functions, so it is not imported here)."""
    return it.builtins["adjacent"].fn(it, c)


def edge_record(it: "Interp", a: Cell, b: Cell) -> Record | None:
    """The edge from a to b as a record, or None when b is not a step from a (records are shared: values
    are never changed in place)."""
    cache = it.r.__dict__.setdefault("_edge_records", {})
    hit = cache.get((a, b), _MISS)
    if hit is not _MISS:
        return hit
    z = it.r.zones[a.zone]
    rec: Record | None = None
    if z.decl.type == "graph":
        attrs = z.edge_attrs.get((a.pos, b.pos)) if (a.zone, a.owner) == (b.zone, b.owner) else None
        if attrs is not None:
            rec = Record({"source": a, "target": b, **attrs})
    elif b in adjacent(it, a):
        rec = Record({"source": a, "target": b})
    if len(cache) < 200_000:
        cache[(a, b)] = rec
    return rec


_MISS = object()


def _cell(it: "Interp", v: Any, what: str) -> Cell:
    if v.__class__ is not Cell:
        raise ValueError(f"the {what} must be a cell, got {it.describe(v)}")
    return v


def edge(it: "Interp", a: Any, b: Any) -> Record | None:
    """The edge from a to b, or none."""
    return edge_record(it, _cell(it, a, "first argument"), _cell(it, b, "second argument"))


def edges_of(it: "Interp", c: Any) -> list[Record]:
    """The edges leaving a cell."""
    c = _cell(it, c, "argument")
    return [edge_record(it, c, n) for n in adjacent(it, c)]


def _order(it: "Interp", c: Cell) -> Any:
    """A cell's place in the board order `cells()` lists: a graph's node order, a grid's rows from the bottom."""
    if isinstance(c.pos, tuple):
        return (c.pos[1], c.pos[0])
    index = it.r.__dict__.setdefault("_node_order", {}).get(c.zone)
    if index is None:
        nodes = list(it.r.zones[c.zone].graph_adj)
        index = it.r._node_order[c.zone] = {n: i for i, n in enumerate(nodes)}
    return (index.get(c.pos, len(index)), 0)


def _step_cost(it: "Interp", cost: Cost, rec: Record) -> int | None:
    if cost is None:
        return 1
    v = cost(rec)
    if v is None:
        return None
    if v.__class__ is bool or not isinstance(v, int) or v < 0:
        raise RuleError(f"the cost of the edge {it.label(rec['source'])}-{it.label(rec['target'])} must be a "
                        f"whole number of at least 0, or none (the edge cannot be taken), got {it.describe(v)}",
                        None)
    return v


def _search(it: "Interp", start: Cell, cost: Cost, goal: Cell | None = None,
            budget: int | None = None) -> tuple[dict, dict]:
    """Dijkstra from `start` by (cost, steps): each cell's best (cost, steps), and the cells before it on the
    best ways there.  Stops once `goal` is settled; leaves out cells dearer than `budget`."""
    best: dict[Cell, tuple[int, int]] = {start: (0, 0)}
    before: dict[Cell, list[Cell]] = {start: []}
    heap = [(0, 0, _order(it, start), start)]
    settled: set[Cell] = set()
    while heap:
        d, k, _, u = heapq.heappop(heap)
        if u in settled:
            continue
        settled.add(u)
        it.tick(None)
        if u is goal:
            break
        for n in adjacent(it, u):
            c = _step_cost(it, cost, edge_record(it, u, n))
            if c is None:
                continue
            there = (d + c, k + 1)
            if budget is not None and there[0] > budget:
                continue
            old = best.get(n)
            if old is None or there < old:
                best[n] = there
                before[n] = [u]
                heapq.heappush(heap, (there[0], there[1], _order(it, n), n))
            elif there == old:
                before[n].append(u)
    return best, before


def _ends(it: "Interp", a: Any, b: Any) -> tuple[Cell, Cell]:
    a, b = _cell(it, a, "start"), _cell(it, b, "end")
    if (a.zone, a.owner) != (b.zone, b.owner):
        raise ValueError(f"{it.label(a)} and {it.label(b)} are on different boards")
    return a, b


def path(it: "Interp", a: Any, b: Any, cost: Cost = None) -> list[Cell] | None:
    """The cheapest path from a to b, both included, or none."""
    a, b = _ends(it, a, b)
    best, before = _search(it, a, cost, goal=b)
    if b not in best:
        return None
    on_path = {b}  # cells on some best way to b, found backwards
    todo = [b]
    after: dict[Cell, list[Cell]] = {}
    while todo:
        v = todo.pop()
        for u in before[v]:
            after.setdefault(u, []).append(v)
            if u not in on_path:
                on_path.add(u)
                todo.append(u)
    out = [a]
    while out[-1] is not b:  # forwards, the next cell first in board order (steps fall by one each time)
        out.append(min(after[out[-1]], key=lambda c: _order(it, c)))
    return out


def path_cost(it: "Interp", a: Any, b: Any, cost: Cost = None) -> int | None:
    """The cost of the cheapest path from a to b, or none."""
    a, b = _ends(it, a, b)
    best, _ = _search(it, a, cost, goal=b)
    return best[b][0] if b in best else None


def reachable(it: "Interp", c: Any, n: Any, cost: Cost = None) -> list[Cell]:
    """The cells within a cost of n from c (c included), in board order."""
    c = _cell(it, c, "start")
    if n.__class__ is bool or not isinstance(n, int):
        raise ValueError(f"the budget must be a number, got {it.describe(n)}")
    if n < 0:
        return []
    best, _ = _search(it, c, cost, budget=n)
    return sorted(best, key=lambda x: _order(it, x))
