"""Terminal rendering of a game state and of the pending decision, generic from the spec.

Everything shown comes from the spec's components: grid zones become tables
(column letters, row numbers with the highest row on top), graph zones a list
of nodes, other zones one line each, honouring visibility for a given viewer
(`viewer=None` is the omniscient view for bots and spectators).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

from orrery.rulespec.errors import printable

from ..reference.evaluator import Interp
from ..core.state import BOX
from ..core.values import Cell, PieceRef, Player, ZoneRef, cell_label, column_letters

if TYPE_CHECKING:
    from ..engine.game import GameState
    from ..core.rules import ZoneInfo

NARRATION_LINES = 5
MAX_LISTED = 30  # pieces listed per zone line before "... and N more"
MAX_GRID_CELLS = 4000  # larger (unbounded) bounding boxes are listed cell by cell
MENU_COLUMNS_FROM = 13  # menus with this many options are printed in columns
GRID_LINES_UP_TO = 12  # grids with at most this many rows get lines between rows


class SafeConsole(Console):
    """A rich Console that writes no control character it did not make itself.

    Titles, labels, prompts, narration and reasons come from specs, logs and saves: their control
    characters (ESC clears screens and retitles windows) are written as escapes (\\x1b) in every
    text segment, after layout; rich's own styles and cursor controls are untouched.
    """

    def _render_buffer(self, buffer: Any) -> str:
        return super()._render_buffer(seg if seg.control else Segment(printable(seg.text), seg.style, seg.control)
                                      for seg in buffer)


def visible(visibility: str, owner: int | None, viewer: int | None) -> bool:
    """Whether `viewer` may see the pieces of a place with this visibility (None sees all)."""
    if viewer is None or visibility == "public":
        return True
    return visibility == "owner" and owner is not None and owner == viewer


class _Ctx:
    """What every rendering helper needs: the state, the rules, an evaluator and the viewer."""

    def __init__(self, gs: "GameState", viewer: int | None):
        """Collect what rendering `gs` for `viewer` needs."""
        self.gs = gs
        self.state = gs.state
        self.rules = gs.game.rules
        self.model = gs.game.spec.model
        self.viewer = viewer
        self.it = Interp(gs.state.clone())  # a clone: display expressions must never touch the live state
        self.cell_width = self.model.display.cell_width

    def label(self, v: Any) -> str:
        """A value as text; never raises."""
        try:
            return self.it.label(v)
        except Exception:  # a broken label expression must not break the display
            return repr(v)

    def seat(self, p: int) -> str:
        """A seat's display name."""
        return self.rules.seat_name(p)

    def zone_title(self, zone: "ZoneInfo", owner: int | None) -> str:
        """A zone's display name, with its owner for per-player zones."""
        name = zone.decl.label or zone.name
        return name if owner is None else f"{name} of {self.seat(owner)}"

    def owners(self, zone: "ZoneInfo") -> list[int | None]:
        """The owners of a zone's instances: every seat for per-player zones, else None."""
        return list(range(self.state.n)) if zone.per_player else [None]


# ------------------------------------------------------------------ pieces


def _style_of(ctx: _Ctx, pid: int) -> str | None:
    """The colour of a piece from its kind's `style` expression, if it names a valid style."""
    kind = ctx.rules.kinds.get(ctx.state.kinds[pid])
    if kind is None or kind.style is None:
        return None
    try:
        value = ctx.it.ev(kind.style, {"it": PieceRef(pid)})
        if value is None or value == "":
            return None
        name = value if isinstance(value, str) else ctx.label(value)
        Style.parse(name)
        return name
    except Exception:  # unknown colour names or failing expressions: no colour
        return None


def _abbrev(label: str) -> str:
    """First letters of a label: initials of the first two words, or the first two letters."""
    words = label.split()
    if len(words) >= 2:
        return words[0][0] + words[1][0]
    return label[:2] or "?"


def piece_symbol(ctx: _Ctx, pid: int) -> str:
    """A piece's board symbol: its kind's `symbol` expression, else letters of its label."""
    kind = ctx.rules.kinds.get(ctx.state.kinds[pid])
    sym = None
    if kind is not None and kind.symbol is not None:
        try:
            v = ctx.it.ev(kind.symbol, {"it": PieceRef(pid)})
            sym = v if isinstance(v, str) else ctx.label(v)
        except Exception:
            sym = None
    if not sym:
        sym = _abbrev(ctx.label(PieceRef(pid)))
    return sym[: max(ctx.cell_width, 1)]


def _runs(items: list[tuple[str, str | None]]) -> list[tuple[str, str | None, int]]:
    """Group equal (text, style) items, keeping first-appearance order: (text, style, count)."""
    order: list[tuple[str, str | None]] = []
    counts: dict[tuple[str, str | None], int] = {}
    for item in items:
        if item not in counts:
            order.append(item)
            counts[item] = 0
        counts[item] += 1
    return [(t, s, counts[(t, s)]) for t, s in order]


def cell_text(ctx: _Ctx, pids: list[int], shown: bool) -> Text:
    """The contents of one cell: symbols side by side, or counts like `3●` when they do not fit."""
    if not pids:
        return Text("·", style="dim")
    if not shown:
        return Text("?" if len(pids) == 1 else f"{len(pids)}?", style="dim")
    items = [(piece_symbol(ctx, pid), _style_of(ctx, pid)) for pid in pids]
    out = Text()
    if sum(len(t) for t, _ in items) <= ctx.cell_width:
        for t, s in items:
            out.append(t, style=s or "")
        return out
    for t, s, n in _runs(items):
        out.append(f"{n}{t}" if n > 1 else t, style=s or "")
    if len(out.plain) > ctx.cell_width + 2:  # still too wide: the top piece and how many in all
        t, s = items[-1]
        out = Text(t, style=s or "")
        out.append(f"+{len(pids) - 1}", style="dim")
    return out


def pieces_text(ctx: _Ctx, pids: list[int], ordered: bool = True) -> Text:
    """Labels of pieces as `3× label` (equal neighbours, or all equal ones when not ordered), coloured."""
    items = [(ctx.label(PieceRef(pid)), _style_of(ctx, pid)) for pid in pids]
    groups: list[tuple[str, str | None, int]] = []
    if not ordered:
        groups = _runs(items)
    else:
        for lab, sty in items:
            if groups and groups[-1][0] == lab and groups[-1][1] == sty:
                groups[-1] = (lab, sty, groups[-1][2] + 1)
            else:
                groups.append((lab, sty, 1))
    out = Text()
    for i, (lab, sty, n) in enumerate(groups[:MAX_LISTED]):
        if i:
            out.append(", ")
        out.append(f"{n}× {lab}" if n > 1 else lab, style=sty or "")
    if len(groups) > MAX_LISTED:
        rest = sum(n for _, _, n in groups[MAX_LISTED:])
        out.append(f", ... and {rest} more", style="dim")
    return out


# ------------------------------------------------------------------ zones


def _board_cells(ctx: _Ctx, name: str, owner: int | None) -> dict[Any, list[int]]:
    """Occupied cells of a board zone: position -> piece ids."""
    return {place.pos: pids for place, pids in ctx.state.places.items()
            if isinstance(place, Cell) and place.zone == name and place.owner == owner and pids}


def grid_table(ctx: _Ctx, zone: "ZoneInfo", owner: int | None, upside_down: bool = False) -> RenderableType:
    """A grid zone as a table (row 1 at the bottom, or at the top when upside down); unbounded grids
    show the occupied bounding box plus a margin of one."""
    d = zone.decl
    title = ctx.zone_title(zone, owner)
    shown = visible(d.visibility, owner, ctx.viewer)
    cells = _board_cells(ctx, zone.name, owner)
    if d.unbounded:
        if not cells:
            return Text(f"{title}: empty (unbounded grid)")
        xs = [p[0] for p in cells]
        ys = [p[1] for p in cells]
        x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    else:
        x0, x1, y0, y1 = 0, (d.width or 1) - 1, 0, (d.height or 1) - 1
    if (x1 - x0 + 1) * (y1 - y0 + 1) > MAX_GRID_CELLS:
        lines = [Text(f"{title} (occupied cells)", style="bold")]
        for pos in sorted(cells, key=lambda p: (-p[1], p[0])):
            line = Text(f"  {cell_label(pos)}: ")
            line.append_text(cell_text(ctx, cells[pos], shown))
            lines.append(line)
        return Group(*lines)
    rows = y1 - y0 + 1
    table = Table(title=Text(title), box=box.SQUARE, show_lines=rows <= GRID_LINES_UP_TO,
                  padding=(0, 0), title_justify="left", show_edge=True)
    table.add_column("", justify="center", style="dim", no_wrap=True, min_width=3)
    for x in range(x0, x1 + 1):
        table.add_column(Text(column_letters(x)), justify="center", min_width=ctx.cell_width, no_wrap=True)
    table.add_column("", justify="center", style="dim", no_wrap=True, min_width=3)
    for y in (range(y0, y1 + 1) if upside_down else range(y1, y0 - 1, -1)):
        row_label = str(y + 1)
        table.add_row(row_label, *[cell_text(ctx, cells.get((x, y), []), shown) for x in range(x0, x1 + 1)],
                      row_label)
    return table


def graph_list(ctx: _Ctx, zone: "ZoneInfo", owner: int | None) -> RenderableType:
    """A graph zone: one `node: pieces` line per occupied node, the empty nodes, then each edge once."""
    d = zone.decl
    shown = visible(d.visibility, owner, ctx.viewer)
    cells = _board_cells(ctx, zone.name, owner)
    lines = [Text(f"{ctx.zone_title(zone, owner)} (graph)", style="bold")]
    empty = []
    for node in d.nodes or []:
        pids = cells.get(node, [])
        if not pids:
            empty.append(str(node))
            continue
        line = Text(f"  {node}: ")
        line.append_text(pieces_text(ctx, pids) if shown else Text(f"{len(pids)} pieces", style="dim"))
        lines.append(line)
    if empty:
        lines.append(Text(f"  empty: {', '.join(empty)}", style="dim"))
    edges, seen = [], set()
    arrow = "→" if d.directed else "–"
    for edge in d.edges or []:
        if len(edge) < 2:
            continue
        key = (edge[0], edge[1]) if d.directed else frozenset((edge[0], edge[1]))
        if key in seen:
            continue
        seen.add(key)
        edges.append(f"{edge[0]}{arrow}{edge[1]}")
    if edges:
        lines.append(Text(f"  edges: {', '.join(edges)}", style="dim"))
    return Group(*lines)


def zone_line(ctx: _Ctx, zone: "ZoneInfo", owner: int | None) -> Text:
    """A bag, deck, pile or hand as one line: name, count, and the pieces when the viewer may see them."""
    d = zone.decl
    pids = list(ctx.state.contents(ZoneRef(zone.name, owner)))
    kind = d.type if d.visibility == "public" else f"{d.type}, {d.visibility}"
    line = Text(f"{ctx.zone_title(zone, owner)}", style="bold")
    line.append(f" ({kind}): ")
    if not pids:
        line.append("empty", style="dim")
        return line
    line.append(f"{len(pids)}")
    if not visible(d.visibility, owner, ctx.viewer):
        line.append(" (hidden)", style="dim")
        return line
    if d.type in ("deck", "pile"):
        pids.reverse()  # the top of a deck or pile first
        line.append(" — top first: ")
    else:
        line.append(" — ")
    line.append_text(pieces_text(ctx, pids, ordered=d.type != "bag"))
    return line


def _split_seat(item: str) -> tuple[str, int | None]:
    """'field[1]' -> ('field', 1): one player's copy of a per-player zone; 'middle' -> ('middle', None)."""
    name, _, rest = item.partition("[")
    if rest.endswith("]") and rest[:-1].isdigit():
        return name, int(rest[:-1])
    return item, None


def _zone_items(ctx: _Ctx) -> list[tuple[str, list[int | None]]]:
    """Zones to show with the owners to show them for: `display.zones` order when given, else the spec's.

    An entry `zone[k]` shows only seat k's copy of a per-player zone (so that, say, one player's
    board can be drawn above a shared one and the other's below)."""
    chosen = ctx.model.display.zones
    items = list(ctx.rules.zones) if chosen is None else chosen
    out = []
    for item in items:
        name, seat = _split_seat(item)
        zone = ctx.rules.zones.get(name)
        if zone is None:
            continue
        owners = ctx.owners(zone)
        if seat is not None:
            owners = [o for o in owners if o == seat]
        out.append((name, owners))
    return out


def zones_view(ctx: _Ctx) -> list[RenderableType]:
    """Every shown zone: boards first as tables/lists in display order, then the one-line zones."""
    boards: list[RenderableType] = []
    lines: list[RenderableType] = []
    flipped = set(ctx.model.display.upside_down or [])
    for name, owners in _zone_items(ctx):
        zone = ctx.rules.zones[name]
        for owner in owners:
            if zone.type == "grid":
                upside = name in flipped or (owner is not None and f"{name}[{owner}]" in flipped)
                boards.append(grid_table(ctx, zone, owner, upside))
            elif zone.type == "graph":
                boards.append(graph_list(ctx, zone, owner))
            else:
                lines.append(zone_line(ctx, zone, owner))
    return boards + lines


# ------------------------------------------------------------------ players and status


def _var_shown(ctx: _Ctx, name: str, owner: int | None) -> bool:
    """Whether the viewer may see a variable (tracks are always public)."""
    decl = ctx.rules.variables.get(name)
    if decl is None:
        return True
    return visible(decl.visibility, owner, ctx.viewer)


def _player_value(ctx: _Ctx, p: int, name: str) -> str:
    """One entry of the players panel: a zone's count, a variable's value, or a player attribute."""
    zone = ctx.rules.zones.get(name)
    if zone is not None and zone.per_player:
        try:
            return str(ctx.it.place_size(ZoneRef(name, p)))
        except Exception:
            return "?"
    if name in ctx.rules.player_var_names:
        if not _var_shown(ctx, name, p):
            return "?"
        return ctx.label(ctx.state.pvars[p].get(name))
    try:
        return ctx.label(ctx.it.get_attr(Player(p), name, None))
    except Exception:
        return "-"


def _acting(ctx: _Ctx) -> int | None:
    """The seat that must act now (the decision's player), or None when the game is over."""
    if ctx.state.outcome is not None:
        return None
    d = ctx.gs.decision
    return d.player if d is not None else ctx.state.cursor.current


def _seat_text(ctx: _Ctx, p: int) -> tuple[str, Text]:
    """A seat's marker (▶ to act, ★ winner) and its name with notes (passed, you)."""
    outcome = ctx.state.outcome
    if outcome is not None:
        mark = "★" if p in outcome.winners else ""
    else:
        mark = "▶" if p == _acting(ctx) else ""
    seat = Text(ctx.seat(p), style="bold" if mark else "")
    if p in ctx.state.cursor.passed and outcome is None:
        seat.append(" (passed)", style="dim")
    if ctx.viewer is not None and p == ctx.viewer:
        seat.append(" (you)", style="dim")
    return mark, seat


def players_table(ctx: _Ctx) -> RenderableType:
    """Seat names, the current-player marker, per-player tracks/variables and zone counts."""
    info = ctx.model.display.player_info
    if info is not None:
        columns = list(info)
    else:
        columns = [n for n, t in ctx.rules.tracks.items() if t.per_player]
        columns += [n for n, v in ctx.rules.variables.items() if v.per_player]
        columns += list(dict.fromkeys(n for n, _ in _zone_items(ctx) if ctx.rules.zones[n].per_player))
    if not columns:  # nothing per player: one line
        line = Text("Players: ", style="bold")
        for p in range(ctx.state.n):
            mark, seat = _seat_text(ctx, p)
            if p:
                line.append(", ")
            if mark:
                line.append(f"{mark} ")
            line.append_text(seat)
        return line
    table = Table(title="Players", box=box.SIMPLE_HEAD, title_justify="left", padding=(0, 1))
    table.add_column("", no_wrap=True)
    table.add_column("seat", no_wrap=True)
    for name in columns:
        zone = ctx.rules.zones.get(name)
        head = f"{name} (count)" if zone is not None and zone.per_player else name
        table.add_column(Text(head), overflow="fold")
    for p in range(ctx.state.n):
        mark, seat = _seat_text(ctx, p)
        table.add_row(mark, seat, *[_player_value(ctx, p, n) for n in columns])
    return table


def globals_line(ctx: _Ctx) -> Text | None:
    """Global tracks and variables as `name: value`, or None when there are none."""
    names = [n for n, t in ctx.rules.tracks.items() if not t.per_player]
    names += [n for n, v in ctx.rules.variables.items() if not v.per_player]
    if not names:
        return None
    out = Text()
    for i, name in enumerate(names):
        if i:
            out.append("  ·  ", style="dim")
        out.append(f"{name}: ", style="bold")
        out.append(ctx.label(ctx.state.vars.get(name)) if _var_shown(ctx, name, None) else "?")
    return out


def status_line(ctx: _Ctx) -> Text:
    """Title, round, turn, phase and who is to act."""
    c = ctx.state.cursor
    out = Text(ctx.model.game.title or ctx.model.game.name, style="bold underline")
    phase = ctx.rules.phases[c.phase].name if 0 <= c.phase < len(ctx.rules.phases) else "-"
    out.append(f"   round {c.round} · turn {c.turn} · phase {phase}")
    acting = _acting(ctx)
    if acting is not None:
        out.append(f" · {ctx.seat(acting)} to act")
    removed = len(ctx.state.contents(BOX))
    if removed and ctx.state.outcome is None:
        out.append(f" · {removed} in the box", style="dim")
    return out


def outcome_text(ctx: _Ctx) -> Text | None:
    """`Game over: <end> — winners ...; scores ...` once the game has ended."""
    o = ctx.state.outcome
    if o is None:
        return None
    out = Text("Game over: ", style="bold")
    out.append(o.end, style="bold")
    decl = ctx.model.end.get(o.end)
    if decl is not None and decl.description:
        out.append(f" ({decl.description})")
    winners = ", ".join(ctx.seat(p) for p in o.winners) or "nobody"
    out.append(f" — winners: {winners}", style="bold green" if o.winners else "bold")
    if o.scores:
        scores = ", ".join(f"{ctx.seat(p)} {ctx.label(s)}" for p, s in enumerate(o.scores))
        out.append(f"; scores: {scores}")
    return out


def narration_text(ctx: _Ctx) -> RenderableType | None:
    """The last few narration lines."""
    recent = ctx.gs.narration[-NARRATION_LINES:]
    if not recent:
        return None
    return Group(*[Text(f"  {m}", style="italic") for m in recent])


# ------------------------------------------------------------------ public API


def render_state(gs: "GameState", viewer: int | None = None) -> RenderableType:
    """The whole state as `viewer` may see it (None: everything), ready for `Console.print`."""
    ctx = _Ctx(gs, viewer)
    parts: list[RenderableType] = [status_line(ctx)]
    parts.extend(zones_view(ctx))
    parts.append(players_table(ctx))
    for extra in (globals_line(ctx), narration_text(ctx), outcome_text(ctx)):
        if extra is not None:
            parts.append(extra)
    return Group(*parts)


def render_decision(gs: "GameState") -> RenderableType:
    """The pending decision: `<seat>, <prompt>` and a numbered menu (in columns when long)."""
    d = gs.decision
    if d is None:
        return Text("The game is over.", style="bold")
    head = Text(f"{gs.game.rules.seat_name(d.player)}, {d.prompt}", style="bold")
    items = [Text(f"{i}) {opt.label}") for i, opt in enumerate(d.options, 1)]
    if len(items) >= MENU_COLUMNS_FROM:
        return Group(head, Columns(items, padding=(0, 3), column_first=True))
    return Group(head, *items)


def print_state(gs: "GameState", viewer: int | None = None, console: Console | None = None) -> None:
    """Print the state and, if the viewer may answer it, the pending decision's menu."""
    console = console or SafeConsole()
    console.print(render_state(gs, viewer))
    d = gs.decision
    if d is None:
        return
    if viewer is None or viewer == d.player:
        console.print(render_decision(gs))
    else:
        console.print(Text(f"Waiting for {gs.game.rules.seat_name(d.player)}: {d.prompt}", style="dim"))


def state_text(gs: "GameState", viewer: int | None = None, width: int = 100) -> str:
    """The rendered state as plain text (for logs and tests)."""
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    console.print(render_state(gs, viewer))
    return console.export_text()

