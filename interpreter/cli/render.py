"""Terminal rendering of a game state and of the pending decision, generic from the spec.

Everything shown comes from the spec's components: grid zones become tables
(column letters, row numbers with the highest row on top), graph zones a list
of nodes, other zones one line each, honouring visibility for a given viewer
(`viewer=None` is the spectator's view: what some player sees, but not what the
rules hide from everyone).  A legend lists the symbols drawn, so that no
distinction is made by colour alone.  `debug=True` adds what the screen leaves
out: variables marked `internal`, and for the spectator, hidden zones.

The screen is laid out to fit a terminal: the boards on the left and, when there
is room beside them, the players, the other zones and the legend on the right.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from orrery.rulespec.wording import spoken, state_name, titled
from orrery.rulespec.errors import printable

from ..engine.symbols import EMPTY, HIDDEN, Symbols
from ..reference.evaluator import Interp
from .gridtext import compact_grid, ruled_grid
from .layout import Arrange, FirstFit, Packed
from ..core.values import BOX
from ..core.values import Cell, PieceRef, Player, ZoneRef, cell_label, column_letters

if TYPE_CHECKING:
    from ..engine.game import GameState
    from ..core.rules import ZoneInfo

NARRATION_LINES = 3  # the bots' moves are printed above the screen too; more would not fit 24 lines
MAX_LISTED = 30  # pieces listed per zone line before "... and N more"
PILE_TOP = 3  # a pile or deck lists its top pieces only (play depends on the top; a long list would not fit)
MAX_GRID_CELLS = 4000  # larger (unbounded) bounding boxes are listed cell by cell
MENU_COLUMNS_FROM = 7  # menus with this many options are printed in columns (a long list would not fit the screen)
GRID_LINES_UP_TO = 5  # grids with at most this many rows get lines between rows (taller ones would not fit)


class SafeConsole(Console):
    """A rich Console that writes no control character it did not make itself.

    Titles, labels, prompts, narration and reasons come from specs, logs and saves: their control
    characters (ESC clears screens and retitles windows) are written as escapes (\\x1b) in every
    text segment, after layout; rich's own styles and cursor controls are untouched.

    Text the table prints with `soft_wrap=True` (help, `why`, refusals, narration, where the game is saved) is
    wrapped at the terminal's width on a terminal, and kept in whole lines elsewhere (a pipe, a log of the
    session: programs and searches read whole lines).
    """

    def print(self, *objects: Any, **kwargs: Any) -> None:
        """rich's print; `soft_wrap` asks for whole lines only where the output is not a terminal."""
        if kwargs.get("soft_wrap") and self.is_terminal:
            kwargs["soft_wrap"] = False
        super().print(*objects, **kwargs)

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

    def __init__(self, gs: "GameState", viewer: int | None, debug: bool = False):
        """Collect what rendering `gs` for `viewer` needs."""
        self.gs = gs
        self.state = gs.state
        self.rules = gs.game.rules
        self.model = gs.game.spec.model
        self.viewer = viewer
        self.debug = debug
        self.it = Interp(gs.state.clone())  # a clone: display expressions must never touch the live state
        self.symbols = Symbols(gs, self.it)
        self.cell_width = self.model.display.cell_width
        self.compact = False  # a short screen: grids without rules, zone lines cut to the width
        # what the boards drew, for the legend: (symbol, style) -> piece ids; and the marks for empty/hidden cells
        self.drawn: dict[tuple[str, str | None], list[int]] = {}
        self.marks: set[str] = set()

    def sees(self, visibility: str, owner: int | None) -> bool:
        """Whether this viewer may see a place or value; the spectator sees a hidden one only with --debug."""
        if self.viewer is None and visibility == "hidden" and not self.debug:
            return False
        return visible(visibility, owner, self.viewer)

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
        name = spoken(zone.name, zone.decl.label)
        return name if owner is None else f"{name} of {self.seat(owner)}"

    def owners(self, zone: "ZoneInfo") -> list[int | None]:
        """The owners of a zone's instances: every seat for per-player zones, else None."""
        return list(range(self.state.n)) if zone.per_player else [None]


# ------------------------------------------------------------------ pieces


def _style_of(ctx: _Ctx, pid: int) -> str | None:
    """The colour of a piece from its kind's `style` expression, if it names a valid style."""
    return ctx.symbols.style(pid)


def piece_symbol(ctx: _Ctx, pid: int) -> str:
    """A piece's board symbol: its kind's `symbol` expression, else letters of its label."""
    return ctx.symbols.symbol(pid)


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
        ctx.marks.add(EMPTY)
        return Text(EMPTY, style="dim")
    if not shown:
        ctx.marks.add(HIDDEN)
        return Text(HIDDEN if len(pids) == 1 else f"{len(pids)}{HIDDEN}", style="dim")
    items = [(piece_symbol(ctx, pid), _style_of(ctx, pid)) for pid in pids]
    for pid, item in zip(pids, items):
        ctx.drawn.setdefault(item, []).append(pid)
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


def pieces_text(ctx: _Ctx, pids: list[int], ordered: bool = True, most: int = MAX_LISTED) -> Text:
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
    for i, (lab, sty, n) in enumerate(groups[:most]):
        if i:
            out.append(", ")
        out.append(f"{n}× {lab}" if n > 1 else lab, style=sty or "")
    if len(groups) > most:
        rest = sum(n for _, _, n in groups[most:])
        out.append(f"{', ' if most else ''}... and {rest} more", style="dim")
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
    shown = ctx.sees(d.visibility, owner)
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
    order = range(y0, y1 + 1) if upside_down else range(y1, y0 - 1, -1)
    lines = [(str(y + 1), [cell_text(ctx, cells.get((x, y), []), shown) for x in range(x0, x1 + 1)]) for y in order]
    letters = [Text(column_letters(x)) for x in range(x0, x1 + 1)]
    compact = compact_grid(title, letters, lines)
    if ctx.compact:
        return compact
    # no outer edge: the row and column labels frame the board, and the two lines saved help it fit the screen
    ruled = ruled_grid(title, letters, lines, ctx.cell_width, rows <= GRID_LINES_UP_TO)
    return FirstFit(ruled, compact)  # the rules go when the board would not fit the width


def graph_list(ctx: _Ctx, zone: "ZoneInfo", owner: int | None) -> RenderableType:
    """A graph zone: one `node: pieces` line per occupied node, the empty nodes, then each edge once."""
    d = zone.decl
    shown = ctx.sees(d.visibility, owner)
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


def zone_line(ctx: _Ctx, zone: "ZoneInfo", owner: int | None) -> RenderableType:
    """A bag, deck, pile or hand as one line: name, count, and the pieces when the viewer may see them (on a
    short screen, as many as fit the width, then how many more)."""
    d = zone.decl
    pids = list(ctx.state.contents(ZoneRef(zone.name, owner)))
    line = Text(f"{ctx.zone_title(zone, owner)}", style="bold")
    line.append(": " if d.visibility == "public" else f" ({d.type}, {d.visibility}): ")  # who may look, if not all
    if not pids:
        line.append("empty", style="dim")
        return line
    line.append(f"{len(pids)}")
    if not ctx.sees(d.visibility, owner):
        line.append(" (hidden)", style="dim")
        return line
    count = line.copy()
    if d.type in ("deck", "pile") and len(pids) > 1:
        pids.reverse()  # the top of a deck or pile first
        line.append(" — top first: ")
    else:
        line.append(" — ")
    ordered, most = d.type != "bag", PILE_TOP if d.type in ("deck", "pile") else MAX_LISTED
    full = line + pieces_text(ctx, pids, ordered, most)
    if not ctx.compact:
        return full
    fewer = [line + pieces_text(ctx, pids, ordered, k) for k in range(min(most, len(pids)) - 1, 0, -1)]
    return ZoneLine(full, *fewer, count)  # at the least, the count alone


class ZoneLine(FirstFit):
    """A zone's line, listing as many of its pieces as fit the width."""


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
    out: list[tuple[str, list[int | None]]] = []
    for item in items:
        family = ctx.rules.families.get(item)
        if family is not None:  # a `per:` family: each of its zones
            out += [(z.name, [None]) for z in family.zones]
            continue
        name, seat = (item, None) if item in ctx.rules.zones else _split_seat(item)
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
    in_panel = set(ctx.model.display.player_info or [])  # shown in the players panel, not again as lines
    empty: list[str] = []
    for name, owners in _zone_items(ctx):
        zone = ctx.rules.zones[name]
        if zone.type not in ("grid", "graph") and name in in_panel:
            continue
        for owner in owners:
            if zone.type == "grid":
                upside = name in flipped or (owner is not None and f"{name}[{owner}]" in flipped)
                boards.append(grid_table(ctx, zone, owner, upside))
            elif zone.type == "graph":
                boards.append(graph_list(ctx, zone, owner))
            elif not ctx.state.contents(ZoneRef(zone.name, owner)):
                empty.append(ctx.zone_title(zone, owner))
            else:
                lines.append(zone_line(ctx, zone, owner))
    if empty:  # one line for all the empty zones: a line each would not fit the screen
        lines.append(Text("empty: ", style="bold") + Text(", ".join(empty)))
    return boards + lines


# ------------------------------------------------------------------ players and status


def _var_shown(ctx: _Ctx, name: str, owner: int | None) -> bool:
    """Whether the viewer may see a variable (tracks are always public)."""
    decl = ctx.rules.variables.get(name)
    if decl is None:
        return True
    return ctx.sees(decl.visibility, owner)


def _internal(ctx: _Ctx, name: str) -> bool:
    """Whether a variable is the rules' bookkeeping (`internal: true`), left off the screen unless --debug."""
    decl = ctx.rules.variables.get(name)
    return decl is not None and decl.internal


def zone_symbols(ctx: _Ctx, pids: list[int]) -> Text:
    """A zone's pieces in a panel cell: `n: ` then their board symbols (their labels when a kind has no symbol)."""
    out = Text(f"{len(pids)}: " if pids else "0")
    for i, pid in enumerate(pids):
        kind = ctx.rules.kinds.get(ctx.state.kinds[pid])
        if i:
            out.append(" " if kind is not None and kind.symbol is not None else ", ")
        if kind is not None and kind.symbol is not None:
            item = (piece_symbol(ctx, pid), _style_of(ctx, pid))
            ctx.drawn.setdefault(item, []).append(pid)
            out.append(item[0], style=item[1] or "")
        else:
            out.append(ctx.label(PieceRef(pid)), style=_style_of(ctx, pid) or "")
    return out


def _player_value(ctx: _Ctx, p: int, name: str) -> str | Text:
    """One entry of the players panel: a zone's count (its pieces, when `display.player_info` names it and the
    viewer sees it), a variable's value, or a player attribute."""
    zone = ctx.rules.zones.get(name)
    if zone is not None and zone.per_player:
        try:
            if zone.type not in ("grid", "graph") and name in (ctx.model.display.player_info or []) \
                    and ctx.sees(zone.decl.visibility, p):
                return zone_symbols(ctx, list(ctx.state.contents(ZoneRef(name, p))))
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
        columns += [n for n, v in ctx.rules.variables.items() if v.per_player and not _internal(ctx, n)]
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
    # no box, no title: a header line and a line per seat, so that the panel fits beside or under the boards
    table = Table(box=None, padding=(0, 1), pad_edge=False)
    table.add_column("", no_wrap=True)
    table.add_column("Players", no_wrap=True)
    shows = set(info or [])
    for name in columns:
        zone = ctx.rules.zones.get(name)
        counted = zone is not None and zone.per_player and (name not in shows or zone.type in ("grid", "graph"))
        title = spoken(name, zone.decl.label) if zone is not None else state_name(ctx.model, name)
        table.add_column(Text(f"{title} (count)" if counted else title), overflow="fold")
    for p in range(ctx.state.n):
        mark, seat = _seat_text(ctx, p)
        table.add_row(mark, seat, *[_player_value(ctx, p, n) for n in columns])
    return table


def globals_line(ctx: _Ctx) -> Text | None:
    """Global tracks and variables as `name: value`, or None when there are none."""
    names = [n for n, t in ctx.rules.tracks.items() if not t.per_player]
    names += [n for n, v in ctx.rules.variables.items() if not v.per_player and not _internal(ctx, n)]
    if not names:
        return None
    out = Text()
    for i, name in enumerate(names):
        if i:
            out.append("  ·  ", style="dim")
        out.append(f"{state_name(ctx.model, name)}: ", style="bold")
        out.append(ctx.label(ctx.state.vars.get(name)) if _var_shown(ctx, name, None) else "?")
    return out


def debug_lines(ctx: _Ctx) -> RenderableType | None:
    """With --debug: the internal variables (`internal: true`) that the viewer may see, global then per seat."""
    if not ctx.debug:
        return None
    out = Text("debug: ", style="bold")
    items: list[tuple[str, Any]] = []
    for name, decl in ctx.rules.variables.items():
        if not decl.internal:
            continue
        if not decl.per_player:
            if _var_shown(ctx, name, None):
                items.append((name, ctx.state.vars.get(name)))
            continue
        items.extend((f"{ctx.seat(p)}.{name}", ctx.state.pvars[p].get(name)) for p in range(ctx.state.n)
                     if _var_shown(ctx, name, p))
    if not items:
        out.append("no internal variables", style="dim")
    for i, (name, value) in enumerate(items):
        if i:
            out.append("  ·  ", style="dim")
        out.append(f"{name}: ")
        out.append(ctx.label(value))
    return out


# ------------------------------------------------------------------ legend


def legend_entries(ctx: _Ctx) -> list[tuple[Text, str]]:
    """The legend (engine/symbols.Symbols.legend: what the page in the browser shows too) as styled symbols and
    meanings.  Call it after the zones are rendered."""
    return [(Text(sym, style=f"bold {style}" if style else "bold"), meaning)
            for sym, style, meaning in ctx.symbols.legend(ctx.drawn, ctx.marks)]


def legend_text(ctx: _Ctx) -> RenderableType | None:
    """`Legend:` then its entries (`X Dark disc`), wrapped between entries; None when nothing was drawn."""
    entries = legend_entries(ctx)
    if not entries:
        return None
    items = [sym + Text(f" {meaning}") if sym.plain else Text(meaning) for sym, meaning in entries]
    return Packed(Text("Legend:", style="bold"), items)


def status_line(ctx: _Ctx) -> Text:
    """Title, round, turn, phase and who is to act."""
    c = ctx.state.cursor
    out = Text(ctx.model.game.title or ctx.model.game.name, style="bold underline")
    phase = titled(ctx.model, "phase", ctx.rules.phases[c.phase].name) if 0 <= c.phase < len(ctx.rules.phases) else "-"
    # (before the first round the game is still being set up: there is no round 0 to show)
    out.append(f"   round {c.round} · turn {c.turn} · phase {phase}" if c.round > 0 else "   setting up")
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
    out.append(titled(ctx.model, "end", o.end), style="bold")
    decl = ctx.model.end.get(o.end)
    if decl is not None and decl.description:
        out.append(f" ({decl.description})")
    winners = ", ".join(ctx.seat(p) for p in o.winners) or "nobody"
    out.append(f" — winners: {winners}", style="bold green" if o.winners else "bold")
    if o.scores:
        scores = ", ".join(f"{ctx.seat(p)} {ctx.label(s)}" for p, s in enumerate(o.scores))
        out.append(f"; scores: {scores}")
    return out


def narration_text(ctx: _Ctx, most: int = NARRATION_LINES) -> RenderableType | None:
    """The last few narration lines (at most `most`)."""
    return recent_narration(ctx.gs, most)


def recent_narration(gs: "GameState", most: int = NARRATION_LINES,
                     lines: list[str] | None = None) -> RenderableType | None:
    """The last `most` narration lines of a game (or of `lines`, what the table told), as the play screen shows
    them below the state; None if none."""
    said = gs.narration if lines is None else lines
    recent = said[-most:] if most > 0 else []
    if not recent:
        return None
    # a line wraps under its own start (an indented line is a move's consequence: it stays under the move)
    return Group(*[Padding(Text(m.lstrip(), style="italic"), (0, 0, 0, 2 + len(m) - len(m.lstrip())), expand=False)
                   for m in recent])


# ------------------------------------------------------------------ public API


def render_state(gs: "GameState", viewer: int | None = None, debug: bool = False,
                 narration: int = NARRATION_LINES, compact: bool = False, height: int | None = None) -> RenderableType:
    """The whole state as `viewer` may see it (None: the spectator), ready for `Console.print`: the status line,
    the boards with the panel (players, other zones, legend) beside or below them, then the last `narration`
    lines of narration and the outcome.  For a short screen: `compact` draws the grids without rules and cuts
    the zones' lines to one line each, and
    `height` asks for a layout of the boards and panel that keeps the status line and them within that many
    lines."""
    ctx, head = state_head(gs, viewer, debug, compact)
    state = Group(*head, *state_tail(ctx, narration))
    fit_state(state, height)
    return state


def state_head(gs: "GameState", viewer: int | None = None, debug: bool = False,
               compact: bool = False) -> tuple["_Ctx", list[RenderableType]]:
    """`render_state`'s status line and boards with the panel (what does not depend on the narration shown),
    and the context that draws the rest (`state_tail`)."""
    ctx = _Ctx(gs, viewer, debug)
    ctx.compact = compact
    boards: list[RenderableType] = []
    lines: list[RenderableType] = []
    for part in zones_view(ctx):
        (lines if isinstance(part, (Text, ZoneLine)) else boards).append(part)
    players, values = players_table(ctx), globals_line(ctx)  # before the legend: the panel draws symbols too
    if isinstance(players, Text) and values is not None:  # a one-line players panel takes the values after it
        players, values = players + Text("  ·  ", style="dim") + values, None
    panel: list[RenderableType] = [players]
    panel += [x for x in (values, debug_lines(ctx)) if x is not None]
    panel += lines
    legend = legend_text(ctx)
    if legend is not None:
        panel.append(legend)
    return ctx, [status_line(ctx), Arrange(boards, Group(*panel)) if boards else Group(*panel)]


def state_tail(ctx: "_Ctx", narration: int = NARRATION_LINES) -> list[RenderableType]:
    """`render_state`'s last `narration` narration lines and the outcome, after `state_head`."""
    return [x for x in (narration_text(ctx, narration), outcome_text(ctx)) if x is not None]


def fit_state(state: RenderableType, height: int | None) -> None:
    """Ask a state drawn by `render_state` for the layout that keeps it within `height` lines (None: the usual
    one); the boards and panel it measured are kept, so asking again is cheap."""
    if isinstance(state, Group):
        for part in state.renderables:
            if isinstance(part, Arrange):
                part.lines = None if height is None else height - 1  # the status line above it


def render_decision(gs: "GameState", first: int = 0, count: int | None = None,
                    columns: bool | None = None) -> RenderableType:
    """The pending decision: `<seat>, <prompt>` and a numbered menu (in columns when long, or when `columns`);
    `first` and `count` show a page of it (the options numbered as in the whole menu), with a line saying how
    to see the others."""
    d = gs.decision
    if d is None:
        return Text("The game is over.", style="bold")
    head = Text(f"{gs.game.rules.seat_name(d.player)}, {d.prompt}", style="bold")
    shown = d.options[first:] if count is None else d.options[first:first + count]
    items = [_option_text(i, opt.label, d.note(opt.index)) for i, opt in enumerate(shown, first + 1)]
    more = []
    if d.sealed:  # a commit: the answer stays hidden from the others until everyone has answered
        head.append(Text(" (sealed: revealed when everyone has answered)", style="dim"))
    if len(shown) < len(d.options):
        more = [Text(f"(options {first + 1}-{first + len(shown)} of {len(d.options)}; 'more' shows the next ones)",
                     style="dim")]
    if columns or (columns is None and len(d.options) >= MENU_COLUMNS_FROM):
        return Group(head, Columns(items, padding=(0, 3), column_first=True), *more)
    return Group(head, *items, *more)


def _option_text(number: int, label: str, note: str | None) -> Text:
    """`3) buy a card` and, dimmed, what the decision says of it (`(costs 2 coins)`)."""
    text = Text(f"{number}) {label}")
    if note:
        text.append(f" ({note})", style="dim")
    return text


def print_state(gs: "GameState", viewer: int | None = None, console: Console | None = None,
                debug: bool = False) -> None:
    """Print the state and, if the viewer may answer it, the pending decision's menu."""
    console = console or SafeConsole()
    console.print(render_state(gs, viewer, debug))
    d = gs.decision
    if d is None:
        return
    if viewer is None or viewer == d.player:
        console.print(render_decision(gs))
    else:
        console.print(Text(f"Waiting for {gs.game.rules.seat_name(d.player)}: {d.prompt}", style="dim"))


def state_text(gs: "GameState", viewer: int | None = None, width: int = 100, debug: bool = False) -> str:
    """The rendered state as plain text (for logs and tests)."""
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    console.print(render_state(gs, viewer, debug))
    return console.export_text()

