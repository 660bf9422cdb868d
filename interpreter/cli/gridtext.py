"""A grid zone drawn as lines of text: with its rules (the look of a rich table without an outer edge), or
without them (columns a space apart, for a board too wide or a screen too short).

Drawing the lines directly is many times faster than a rich Table, which lays out every cell as a
renderable of its own; the play screen draws its boards several times while it looks for a layout
that fits the terminal.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

LABEL_WIDTH = 3  # the row labels' columns, at least


def _center(text: Text, width: int) -> Text:
    """`text` centred in `width` cells (the extra cell on the right, as rich does)."""
    excess = max(width - cell_len(text.plain), 0)
    out = Text(" " * (excess // 2))
    out.append_text(text)
    out.append(" " * (excess - excess // 2))
    return out


class GridText:
    """A grid's title and lines; `width` is the grid's (a ruled grid's title wraps to it, as a table's does)."""

    def __init__(self, title: str, lines: list[Text], width: int, wrap_title: bool):
        self.title, self.lines, self.width, self.wrap_title = title, lines, width, wrap_title

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        width = self.width if self.wrap_title else max(self.width, cell_len(self.title))
        return Measurement(width, width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        title = Text(self.title, style="table.title")
        if self.wrap_title:
            yield from console.render(title, options.update_width(min(self.width, options.max_width)))
        else:
            yield title
        yield from self.lines


def ruled_grid(title: str, letters: list[Text], rows: list[tuple[str, list[Text]]], cell_width: int,
               lines_between: bool) -> GridText:
    """Column letters on top, row labels on both sides, `│` between columns, a rule under the letters and,
    with `lines_between`, between the rows."""
    label = max([LABEL_WIDTH, *(cell_len(r) for r, _ in rows)])
    widths = [max([cell_width, cell_len(letter.plain), *(cell_len(cells[i].plain) for _, cells in rows)])
              for i, letter in enumerate(letters)]

    def line(left: Text, cells: list[Text], right: Text, style: str = "") -> Text:
        out = _center(left, label)
        for cell, w in zip(cells, widths):
            out.append("│")
            out.append_text(_center(cell, w))
        out.append("│")
        out.append_text(_center(right, label))
        out.stylize(style)
        out.no_wrap, out.overflow = True, "crop"
        return out

    rule = Text("┼".join("─" * w for w in [label, *widths, label]), no_wrap=True, overflow="crop")
    out = [line(Text(), letters, Text(), "table.header"), rule]
    for i, (name, cells) in enumerate(rows):
        if i and lines_between:
            out.append(rule.copy())
        out.append(line(Text(name, style="dim"), cells, Text(name, style="dim")))
    return GridText(title, out, cell_len(rule.plain), True)


def compact_grid(title: str, letters: list[Text], rows: list[tuple[str, list[Text]]]) -> GridText:
    """Column letters on top, row labels on both sides, every column as wide as the widest symbol, a space apart."""
    label = max((cell_len(r) for r, _ in rows), default=1)
    width = max(cell_len(t.plain) for t in [*letters, *(c for _, cells in rows for c in cells)])

    def line(left: str, cells: list[Text], right: str, style: str = "") -> Text:
        out = Text(left.rjust(label), style="dim")
        for cell in cells:
            out.append(" ")
            out.append_text(_center(cell, width))
        out.append(" ")
        out.append(right, style="dim")
        out.stylize(style)
        out.no_wrap, out.overflow = True, "crop"
        out.rstrip()
        return out

    out = [line("", letters, "", "table.header")]
    out += [line(name, cells, name) for name, cells in rows]
    # one blank column after it: with no rules, a grid beside another needs more than one space between them
    return GridText(title, out, max(cell_len(x.plain) for x in out) + 1, False)


__all__ = ["GridText", "ruled_grid", "compact_grid"]
