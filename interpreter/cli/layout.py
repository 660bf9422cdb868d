"""Layouts for the play screen (rich renderables, knowing nothing of games): boards packed in rows, the panel
beside the boards (or beside their last rows) when there is room, a heading with items wrapped between items
(the legend), and a choice among renderings by the width available.

They exist so that a game's screen fits a terminal: rich's own Columns gives every column the same
width and breaks items anywhere, and a grid of two columns squeezes the boards when space is short.
"""

from __future__ import annotations

from typing import Iterator

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

UNBOUNDED = 10_000  # a width no rendering reaches: to measure how wide a thing would be
PANEL_MIN_WIDTH = 28  # the panel goes beside the boards only with this much room, else below them


class Packed:
    """A heading, then items separated by two spaces and wrapped between items (an item too long for a line
    wraps between its words, and the next item follows it): `Legend: X Dark disc  O Light disc  · empty`."""

    def __init__(self, head: Text, items: list[Text]):
        self.head, self.items = head, items

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(options.max_width, max(len(x) for x in [self.head, *self.items])),
                           len(self.head) + sum(len(x) + 2 for x in self.items))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line, width = self.head.copy(), options.max_width
        for i, item in enumerate(self.items):
            gap = " " if i == 0 else "  "
            if line.plain and len(line) + len(gap) + len(item) > width and len(item) <= width:
                yield line
                line, gap = Text(), ""
            line.append(gap)
            line.append_text(item)
            if len(line) > width:  # an item longer than a line: wrapped between its words, the next one follows it
                *full, line = line.wrap(console, width)
                yield from full
        yield line


def pack(widths: list[int], limit: int, gap: int) -> list[list[int]]:
    """Indexes of items of these widths packed greedily, in order, into rows at most `limit` wide."""
    rows: list[list[int]] = []
    for i, w in enumerate(widths):
        if rows and row_width(widths, rows[-1], gap) + gap + w <= limit:
            rows[-1].append(i)
        else:
            rows.append([i])
    return rows


def row_width(widths: list[int], row: list[int], gap: int) -> int:
    """The width of a row of items with `gap` columns between them."""
    return sum(widths[j] for j in row) + gap * (len(row) - 1)


class Flow:
    """Boards packed left to right into rows no wider than the widest board (or than `limit`, when given): small
    boards share a row under a big one, and boards of one width stay one above the other (as a spec's
    `display.zones` order draws them) unless the limit leaves room for them side by side."""

    def __init__(self, items: list[RenderableType], gap: int = 1, limit: int | None = None):
        self.items, self.gap, self.limit = items, gap, limit

    def _rows(self, console: Console, options: ConsoleOptions) -> tuple[list[int], list[list[int]]]:
        """The items' widths, and their indexes in rows (greedily, each row at most as wide as the limit)."""
        widths = [Measurement.get(console, options, x).maximum for x in self.items]
        return widths, pack(widths, self._limit(widths, options), self.gap)

    def _limit(self, widths: list[int], options: ConsoleOptions) -> int:
        return min(options.max_width, max(widths + [self.limit or 0], default=0))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widths, rows = self._rows(console, options)
        widest = max((row_width(widths, row, self.gap) for row in rows), default=0)
        return Measurement(widest, widest)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        widths, rows = self._rows(console, options)
        for row in rows:
            grid = Table.grid(padding=(0, self.gap, 0, 0))
            for j in row:
                grid.add_column(width=widths[j], no_wrap=True)
            grid.add_row(*[self.items[j] for j in row])
            yield grid


class Beside:
    """Two renderables side by side when the left one leaves `PANEL_MIN_WIDTH` columns free, else one above
    the other: the boards keep their natural width and the panel takes the rest."""

    def __init__(self, left: RenderableType, right: RenderableType, gap: int = 3):
        self.left, self.right, self.gap = left, right, gap

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = Measurement.get(console, options, self.left).maximum
        if options.max_width - width - self.gap < PANEL_MIN_WIDTH:
            yield self.left
            yield self.right
            return
        grid = Table.grid(padding=(0, self.gap, 0, 0))
        grid.add_column(width=width, no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_row(self.left, self.right)
        yield grid


class Arrange:
    """The boards and the panel: boards packed as `Flow` packs them with the panel beside them all (as `Beside`
    does), else below them all; or, when that takes more than `lines` lines, the first of the other layouts
    that fits them (else the lowest): the panel beside the boards' last rows only, or below them, with the
    boards' rows as wide as the widest board or as the terminal allows.  Heights are worked out from each
    board's and the panel's own (a board is drawn once to count its lines, the panel once per width tried),
    and kept for another `lines` asked of the same object; a layout is worked out only when none before it
    fits (the usual one, when it fits, is all that is drawn)."""

    def __init__(self, boards: list[RenderableType], panel: RenderableType, gap: int = 3, board_gap: int = 1,
                 lines: int | None = None):
        self.boards, self.panel, self.gap, self.board_gap, self.lines = boards, panel, gap, board_gap, lines
        # by width: the layouts worked out so far, in the order of preference, and the rest still to work out
        # (`lines` may change between drawings; a layout is only worked out when no earlier one fits)
        self._tried: dict[int, tuple[list[tuple[int, RenderableType]], Iterator[tuple[int, RenderableType]]]] = {}

    def choose(self, console: Console, options: ConsoleOptions) -> RenderableType:
        """The layout to draw in this width."""
        width = options.max_width
        if width not in self._tried:
            self._tried[width] = ([], self.layouts(console, options))
        done, rest = self._tried[width]
        if not done and not _more(done, rest):
            return self.panel
        if self.lines is None:
            return done[0][1]  # the usual layout
        fits = next((layout for lines, layout in done if lines <= self.lines), None)
        while fits is None and _more(done, rest):
            fits = done[-1][1] if done[-1][0] <= self.lines else None
        return fits if fits is not None else min(done, key=lambda x: x[0])[1]

    def layouts(self, console: Console, options: ConsoleOptions) -> Iterator[tuple[int, RenderableType]]:
        """Every layout, in the order of preference, with its height (each board drawn once, the panel once per
        width it is given)."""
        width = options.max_width
        widths = [Measurement.get(console, options, x).maximum for x in self.boards]
        boards = [Drawn(console.render_lines(x, options.update_width(max(w, 1)), pad=False), w)
                  for x, w in zip(self.boards, widths)]  # each board drawn once
        heights = [len(b.lines) for b in boards]
        drawn: dict[int, Drawn] = {}

        def panel_in(w: int) -> Drawn:
            if w not in drawn:
                drawn[w] = Drawn(console.render_lines(self.panel, options.update_width(w), pad=False), w)
            return drawn[w]

        def flow_height(rows: list[list[int]]) -> int:
            return sum(max(heights[j] for j in row) for row in rows)

        widest = min(width, max(widths, default=0))
        for limit in dict.fromkeys([widest, width - self.gap - PANEL_MIN_WIDTH, width]):
            rows = pack(widths, max(limit, widest), self.board_gap)
            for k in dict.fromkeys([0, len(rows), *range(1, len(rows))]):  # beside rows[k:]; k == len(rows): below
                top = [boards[j] for row in rows[:k] for j in row]
                rest = [boards[j] for row in rows[k:] for j in row]
                left = max((row_width(widths, r, self.board_gap) for r in rows[k:]), default=0)
                if rest and width - left - self.gap < PANEL_MIN_WIDTH:
                    continue
                if rest:
                    panel = panel_in(width - left - self.gap)
                    lines = flow_height(rows[:k]) + max(flow_height(rows[k:]), len(panel.lines))
                    beside: RenderableType = Beside(Flow(rest, self.board_gap, limit), panel, self.gap)
                else:
                    lines, beside = flow_height(rows) + len(panel_in(width).lines), panel_in(width)
                yield lines, Group(Flow(top, self.board_gap, limit), beside) if top else beside

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.choose(console, options)


def _more(done: list, rest: Iterator) -> bool:
    """Work out the next layout into `done`; False when there is none left."""
    item = next(rest, None)
    if item is not None:
        done.append(item)
    return item is not None


class Drawn:
    """Lines already drawn `width` wide, drawn again as they are (a layout measures its parts by drawing them)."""

    def __init__(self, lines: list[list[Segment]], width: int):
        self.lines, self.width = lines, width

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines:
            yield from line
            yield Segment.line()


class FirstFit:
    """The first of several renderings of one thing that fits the width available (the last one otherwise):
    a board with its rules, then without them; a line listing many pieces, then fewer.  Each is tried by
    drawing it at its natural width, and the one chosen is kept as drawn (tables are slow to draw)."""

    def __init__(self, *choices: RenderableType):
        self.choices = choices
        self._picked: dict[int, Drawn] = {}  # by the width available

    def pick(self, console: Console, options: ConsoleOptions) -> Drawn:
        """The rendering drawn for this width."""
        width = options.max_width
        if width not in self._picked:
            for choice in self.choices:
                lines = console.render_lines(choice, options.update_width(UNBOUNDED), pad=False)
                natural = max((Segment.get_line_length(line) for line in lines), default=0)
                if natural <= width:
                    break
            else:  # none fits: the last one, as rich draws it in this width
                lines = console.render_lines(self.choices[-1], options, pad=False)
                natural = min(natural, width)
            self._picked[width] = Drawn(lines, natural)
        return self._picked[width]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.pick(console, options))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.pick(console, options)


__all__ = ["Packed", "Flow", "Beside", "Arrange", "Drawn", "FirstFit", "pack", "row_width", "PANEL_MIN_WIDTH"]
