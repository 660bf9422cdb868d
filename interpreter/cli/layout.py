"""Layouts for the play screen (rich renderables, knowing nothing of games): boards packed in rows, a panel
beside them when there is room, and a heading with items wrapped between items (the legend).

They exist so that a game's screen fits a terminal: rich's own Columns gives every column the same
width and breaks items anywhere, and a grid of two columns squeezes the boards when space is short.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

PANEL_MIN_WIDTH = 28  # the panel goes beside the boards only with this much room, else below them


class Packed:
    """A heading, then items separated by two spaces and wrapped between items (an item too long for a line
    wraps on its own): `Legend: X Dark disc  O Light disc  · empty`."""

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
        yield line


class Flow:
    """Boards packed left to right into rows no wider than the widest board: small boards share a row under a
    big one, and boards of one width stay one above the other (as a spec's `display.zones` order draws them)."""

    def __init__(self, items: list[RenderableType], gap: int = 1):
        self.items, self.gap = items, gap

    def _rows(self, console: Console, options: ConsoleOptions) -> tuple[list[int], list[list[int]]]:
        """The items' widths, and their indexes in rows (greedily, each row at most as wide as the widest item)."""
        widths = [Measurement.get(console, options, x).maximum for x in self.items]
        limit = min(options.max_width, max(widths, default=0))
        rows: list[list[int]] = []
        for i, w in enumerate(widths):
            if rows and sum(widths[j] + self.gap for j in rows[-1]) + w <= limit:
                rows[-1].append(i)
            else:
                rows.append([i])
        return widths, rows

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((Measurement.get(console, options, x).maximum for x in self.items), default=0)
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


__all__ = ["Packed", "Flow", "Beside", "PANEL_MIN_WIDTH"]
