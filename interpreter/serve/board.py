"""What the page needs to draw a seat's view as the terminal does: where each board's cells go, and each
visible piece's symbol, colour and label, with the legend.

Everything here is built from the spec and from the seat's own view: `layout` from the zones' declarations
(square and hex grids by their coordinates, graphs as a ring of nodes with their edges, unbounded grids by
the cells the view shows), `drawing` from the pieces that `state.view(seat)` names (by their ids, so a
piece the seat does not see gets no symbol either).  Symbols, colours and the legend are the terminal's
(engine/symbols.py); a colour is sent as a CSS colour and never alone: the symbol and the legend say it too.
"""

from __future__ import annotations

import functools
import math
from importlib.resources import files
from typing import Any

from rich.style import Style

from orrery.rulespec.labels import cell_label, parse_cell_label
from orrery.rulespec.wording import spoken, state_name

from ..core.values import PieceRef
from ..engine.game import Game, GameState
from ..engine.symbols import EMPTY, HIDDEN, Drawn, Symbols

GEOMETRY = {"hex": "hex"}  # a grid's adjacency -> how its cells are drawn (any other: squares)


def layout(game: Game, view: dict[str, Any] | None = None) -> dict[str, Any]:
    """Each board zone's geometry and cells: [label, x, y] (grid coordinates; graph nodes on a unit ring) and,
    for graphs, the edges [from, to, directed].  An unbounded grid lays out the cells `view` shows, plus a
    margin of one."""
    out: dict[str, Any] = {}
    for name, z in game.rules.zones.items():
        if not z.is_board:
            continue
        d = z.decl
        entry: dict[str, Any] = {"type": z.type, "description": d.description}
        if z.type == "graph":
            nodes = list(z.all_positions())
            entry["geometry"] = "graph"
            entry["cells"] = [[str(n), round(math.sin(2 * math.pi * i / len(nodes)), 4),
                               round(math.cos(2 * math.pi * i / len(nodes)), 4)] for i, n in enumerate(nodes)]
            entry["edges"] = [_edge(e, bool(d.directed)) for e in d.edges or [] if _edge(e, False)]
        else:
            entry["geometry"] = GEOMETRY.get(d.adjacency, "square")
            positions = _occupied_box(name, view) if d.unbounded else z.all_positions()
            entry["cells"] = [[cell_label(p), p[0], p[1]] for p in positions]
        out[name] = entry
    return out


def _edge(e: Any, directed: bool) -> list[Any]:
    """An edge as [from, to, directed] (a list edge or an edge record)."""
    if isinstance(e, (list, tuple)):
        return [str(e[0]), str(e[1]), directed] if len(e) >= 2 else []
    return [e.from_, e.to, directed if e.directed is None else e.directed]


def _occupied_box(name: str, view: dict[str, Any] | None) -> list[tuple[int, int]]:
    """The cells of an unbounded grid worth drawing: the box around the cells the view shows, plus one."""
    zone = (view or {}).get("zones", {}).get(name, {})
    positions = [p for p in (parse_cell_label(label) for label in zone.get("cells", {})) if p is not None]
    if not positions:
        return [(0, 0)]
    xs, ys = [p[0] for p in positions], [p[1] for p in positions]
    return [(x, y) for y in range(min(ys) - 1, max(ys) + 2) for x in range(min(xs) - 1, max(xs) + 2)]


def _pieces_of(view: dict[str, Any]) -> tuple[list[int], list[int], set[str]]:
    """The ids of the pieces a view names (those on boards apart), and the cell marks the page will draw."""
    on_boards, others, marks = [], [], set()
    for zone in view["zones"].values():
        others.extend(p["id"] for p in zone.get("pieces", []) if isinstance(p, dict) and "id" in p)
        for here in zone.get("cells", {}).values():
            if isinstance(here, list):
                on_boards.extend(p["id"] for p in here if isinstance(p, dict) and "id" in p)
            else:
                marks.add(HIDDEN)
    return on_boards, others, marks


@functools.lru_cache(maxsize=1024)
def css_colour(style: str | None) -> str | None:
    """A rich style's colour as a CSS colour (#rrggbb), or None (worked out once per style)."""
    if not style:
        return None
    try:
        colour = Style.parse(style).color
        return None if colour is None else colour.get_truecolor().hex
    except Exception:  # a style rich parses but cannot colour: no colour (the symbol still tells)
        return None


class Looks:
    """How one position's pieces are drawn (symbol, style, label), each piece worked out once: the same for
    every viewer of the position (a viewer's frame only picks the pieces its view names)."""

    def __init__(self, gs: GameState):
        self.gs = gs
        self._sy: Symbols | None = None
        self._pieces: dict[int, tuple[str, str | None, str, bool]] = {}
        self._entries: dict[int, dict[str, Any]] = {}

    @property
    def symbols(self) -> Symbols:
        """The position's Symbols (made at first use: it evaluates on a clone of the state)."""
        if self._sy is None:
            self._sy = Symbols(self.gs)
        return self._sy

    def piece(self, pid: int) -> tuple[str, str | None, str, bool]:
        """(symbol, style, label, whether its kind declares a symbol) of a piece."""
        if pid not in self._pieces:
            sy = self.symbols
            self._pieces[pid] = (sy.symbol(pid), sy.style(pid), sy.label(PieceRef(pid)), sy.has_symbol(pid))
        return self._pieces[pid]

    def entry(self, pid: int) -> dict[str, Any]:
        """A piece as a frame describes it (one dict for every frame of the position: frames only send it)."""
        if pid not in self._entries:
            sym, style, label, symbolic = self.piece(pid)
            self._entries[pid] = {"sym": sym, "color": css_colour(style), "label": label, "symbolic": symbolic}
        return self._entries[pid]


def drawing(gs: GameState, view: dict[str, Any], lay: dict[str, Any], looks: Looks | None = None) -> dict[str, Any]:
    """The symbols, colours and labels of the pieces `view` names (by id), and the legend of what is drawn
    (`looks`: the position's pieces as other viewers' frames drew them)."""
    looks = Looks(gs) if looks is None else looks
    on_boards, others, marks = _pieces_of(view)
    boarded = set(on_boards)
    drawn: Drawn = {}
    pieces: dict[str, dict[str, Any]] = {}
    for pid in on_boards + others:
        pieces[str(pid)] = looks.entry(pid)
        sym, style, _, symbolic = looks.piece(pid)
        if pid in boarded or symbolic:  # the terminal's legend: what boards and panels drew
            drawn.setdefault((sym, style), []).append(pid)
    for key, zone in view["zones"].items():
        entry = lay.get(key.split("[")[0])
        if entry is not None and any(label not in zone.get("cells", {}) for label, _, _ in entry["cells"]):
            marks.add(EMPTY)
    legend = [[sym, css_colour(style), meaning] for sym, style, meaning in looks.symbols.legend(drawn, marks)]
    return {"pieces": pieces, "legend": legend}




def panels(game: Game, view: dict[str, Any]) -> dict[str, Any]:
    """What the page lists and in which order, as the terminal does: the zones (`display.zones`, else all) by
    their titles, and the players panel's columns (`display.player_info`, else the per-player tracks,
    variables that are not the rules' bookkeeping, and per-player zones)."""
    rules, display = game.rules, game.spec.model.display
    n = len(view["players"])

    def keys(item: str) -> list[str]:
        family = rules.families.get(item)
        if family is not None:
            return [z.name for z in family.zones]
        zone = rules.zones.get(item)
        if zone is None:
            return [item]  # 'zone[k]': one seat's copy
        return [f"{item}[{p}]" for p in range(n)] if zone.per_player else [item]

    items = list(rules.zones) if display.zones is None else display.zones
    order = [k for item in items for k in keys(item) if k in view["zones"]]
    zones = [[k, _zone_title(game, k)] for k in dict.fromkeys(order)]
    if display.player_info is not None:
        columns = list(display.player_info)
    else:
        columns = [name for name, t in rules.tracks.items() if t.per_player]
        columns += [name for name, v in rules.variables.items() if v.per_player and not v.internal]
        columns += [name for name, z in rules.zones.items() if z.per_player]
    titled = [[c, spoken(c, rules.zones[c].decl.label) if c in rules.zones else state_name(game.spec.model, c)]
              for c in columns]
    return {"zones": zones, "columns": titled}


def _zone_title(game: Game, key: str) -> str:
    """'supply[1]' -> 'supply of Green'; a shared zone by its label or its name's words."""
    name, _, rest = key.partition("[")
    zone = game.rules.zones.get(name)
    title = spoken(name, zone.decl.label if zone is not None else None)
    if rest[:-1].isdigit():
        return f"{title} of {game.rules.seat_name(int(rest[:-1]))}"
    return f"{title} {rest[:-1]}" if rest else title  # a `per:` family's zone: 'stock north'


def page(name: str) -> str:
    """A page of serve/ (an HTML file) with the shared style (page.css) and drawing script (board.js) put in."""
    return _asset(name).replace("/*STYLE*/", _asset("page.css")).replace("/*BOARD*/", _asset("board.js"))


def _asset(name: str) -> str:
    return (files("orrery.interpreter.serve") / name).read_text(encoding="utf-8")


__all__ = ["Looks", "layout", "drawing", "css_colour", "panels", "page"]
