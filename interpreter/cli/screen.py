"""The play screen of a decision fitted to the terminal's height: the state, the narration and the menu.

The narration is the last lines the table told (the moves since, as this seat may read them: the bots' moves
are printed above the screen as they are made, and would scroll away on a small terminal), else the rules' own.

The screen must fit the terminal with the prompt's line below it; when it does not, it gives way in this
order (a whole screen is never made shorter than it must be):

1. the narration keeps fewer lines, down to the last one;
2. a short menu goes into columns, the grids are drawn without their rules (columns a space apart) and
   the zones' lines list the pieces that fit on one line (each with as many narration lines as then fit);
3. the state takes its lowest layout (the panel beside the boards' last rows, or boards side by side), and
   the menu shows a page of its options that fits, with a line saying that `more` shows the next ones
   (every option's number and label may still be typed on any page);
4. the last narration line goes too.

Without a height (the output is not a terminal) the whole screen is printed as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console, Group, RenderableType

from .layout import Arrange, Drawn
from .render import (NARRATION_LINES, fit_state, recent_narration, render_decision, render_state, state_head,
                     state_tail)

if TYPE_CHECKING:
    from ..engine.game import GameState

PROMPT_LINES = 1  # the `> ` line the answer is typed on
MIN_MENU_ROWS = 2  # a page of the menu has at least this many lines of options before the narration goes
LOWEST = 1  # a height no state fits: the state's lowest layout


def _lines(console: Console, renderable: RenderableType) -> int:
    """How many lines `renderable` takes on this console."""
    return len(console.render_lines(renderable, console.options, pad=False))


def _layout(state: RenderableType, console: Console) -> object | None:
    """The layout the state's boards and panel take at the height fit_state asked (None: it has only one): the
    one drawing it would choose (the layouts it works out are kept, so drawing it then works none out again)."""
    if isinstance(state, Group):
        for part in state.renderables:
            if isinstance(part, Arrange):
                return part.choose(console, console.options)
    return None


class PlayScreen:
    """One decision's screen for `viewer`, fitted to `height` lines (None: as tall as it is); `pages` says how
    many pages its menu takes, and `render(page)` draws one of them."""

    def __init__(self, gs: "GameState", viewer: int | None, console: Console, debug: bool = False,
                 height: int | None = None, told: list[str] | None = None):
        self.gs, self.viewer, self.console, self.debug = gs, viewer, console, debug
        # the lines its narration shows: what the table told (the moves since, in words), else the rules' `say`s
        self.said = gs.narration if told is None else told
        self.narration, self.compact, self.columns = NARRATION_LINES, False, None
        self.per_page: int | None = None
        d = gs.decision
        self.options = len(d.options) if d is not None else 0
        self.lines: int | None = None  # the state's layout asked to fit this many lines (None: the usual one)
        self._states: dict[tuple[bool, int | None], Drawn] = {}
        self._laid_out: dict[tuple[bool, int], Drawn] = {}  # the same, by the layout the height asked gave
        self._views: dict[bool, RenderableType] = {}
        if height is not None:
            self._fit(height - PROMPT_LINES)

    @property
    def pages(self) -> int:
        """How many pages the menu takes (1 when it is shown whole)."""
        return 1 if not self.per_page else -(-self.options // self.per_page)

    def render(self, page: int = 0) -> RenderableType:
        """The screen with the menu's `page` (pages wrap around)."""
        told = recent_narration(self.gs, self.narration, self.said)
        state = Group(self._drawn(self.compact, self.lines), *([told] if told is not None else []))
        if self.per_page is None:
            return Group(state, render_decision(self.gs, columns=self.columns))
        first = (page % self.pages) * self.per_page
        return Group(state, render_decision(self.gs, first, self.per_page, columns=True))

    def _drawn(self, compact: bool, lines: int | None) -> Drawn:
        """The state without its narration, its grids with or without rules, laid out to take at most `lines`
        lines if it can (None: the usual layout); drawn once for each (it is slow)."""
        if (compact, lines) not in self._states:
            if compact not in self._views:  # one state drawn for each, its layouts kept for every height asked
                self._views[compact] = render_state(self.gs, self.viewer, self.debug, 0, compact)
            state = self._views[compact]
            fit_state(state, lines)
            # heights that pick the same layout draw the same lines: drawn once (the narration tried line by line
            # asks many heights, most of which the usual or the same other layout fits)
            key = (compact, id(_layout(state, self.console)))
            if key not in self._laid_out:
                self._laid_out[key] = Drawn(self.console.render_lines(state, self.console.options, pad=False),
                                            self.console.width)
            self._states[compact, lines] = self._laid_out[key]
        return self._states[compact, lines]

    def _told(self, narration: int) -> int:
        """The lines of the last `narration` narration lines."""
        told = recent_narration(self.gs, narration, self.said)
        return _lines(self.console, told) if told is not None else 0

    def _fit(self, room: int) -> None:
        """Choose the narration lines, the grids' rules, the layout, the menu's columns and its page size to fit
        `room` lines."""
        told = min(len(self.said), NARRATION_LINES)
        rows = _lines(self.console, render_decision(self.gs))
        in_columns = _lines(self.console, render_decision(self.gs, columns=True))
        last = min(told, 1)
        tries = [(n, False, None, rows) for n in range(told, last - 1, -1)]  # 1. fewer narration lines
        for compact, columns, menu in ((False, True, in_columns), (True, None, rows), (True, True, in_columns)):  # 2.
            tries += [(n, compact, columns, menu) for n in range(told, last - 1, -1)]
        usual = len(self._drawn(False, None).lines)
        for narration, compact, columns, menu in tries:
            budget = room - menu - self._told(narration)
            lines = None if usual <= budget else budget  # another layout only when the usual one is too tall
            if len(self._drawn(compact, lines).lines) <= budget:
                self.narration, self.compact, self.columns, self.lines = narration, compact, columns, lines
                return
        lowest = len(self._drawn(True, LOWEST).lines)
        for narration in dict.fromkeys([last, 0]):  # 3. a page of the menu; 4. without the last narration line
            left = room - self._told(narration) - lowest
            if left >= MIN_MENU_ROWS + 2 or narration == 0:
                self.narration, self.compact, self.lines = narration, True, LOWEST
                self.per_page = self._page_size(left)
                return

    def _page_size(self, rows: int) -> int:
        """The most options a page may hold so that every page (the question, its options, the line about
        `more`) fits `rows` lines (1 when none does)."""
        def fits(n: int) -> bool:
            return all(_lines(self.console, render_decision(self.gs, first, n, columns=True)) <= rows
                       for first in range(0, self.options, n))

        lo, hi = 1, self.options  # pages of `lo` options fit (or nothing does), pages of `hi` do not
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if fits(mid) else (lo, mid)
        return lo


def watched_state(gs: "GameState", console: Console, debug: bool = False, height: int | None = None,
                  above: int = 0) -> RenderableType:
    """The state as a spectator sees it after a move, fitted to `height` lines less the `above` lines printed
    over it (the move's own lines), giving way in the play screen's order: fewer narration lines (down to
    one), grids without rules, the lowest layout, no narration; None: the whole state."""
    if height is None:
        return render_state(gs, None, debug)
    room = height - above - PROMPT_LINES  # (the cursor's line below the screen, as under a menu)
    told = min(len(gs.narration), NARRATION_LINES)
    tries = [(n, False) for n in range(told, min(told, 1) - 1, -1)] + [(min(told, 1), True), (0, True)]
    heads: dict[bool, tuple] = {}  # the boards and panel drawn once for each `compact`, whatever the narration
    for narration, compact in tries:
        if compact not in heads:
            heads[compact] = state_head(gs, None, debug, compact)
        ctx, head = heads[compact]
        state = Group(*head, *state_tail(ctx, narration))
        fit_state(state, None)  # (the usual layout first, as a state drawn afresh)
        if _lines(console, state) <= room:
            return state
        if compact:  # the lowest layout that leaves room for what is printed below the boards
            fit_state(state, max(room - _below_boards(console, state), LOWEST))
            if _lines(console, state) <= room or narration == 0:
                return state
    return state


def _below_boards(console: Console, state: RenderableType) -> int:
    """The lines a drawn state prints after its boards and panel (narration, outcome)."""
    parts = list(getattr(state, "renderables", ()))
    after = next((i for i, part in enumerate(parts) if isinstance(part, Arrange)), len(parts))
    return sum(_lines(console, part) for part in parts[after + 1:])


def terminal_height(console: Console) -> int | None:
    """The terminal's height when the output is a terminal, else None (a pipe or file: nothing is cut)."""
    return console.size.height if console.is_terminal else None


__all__ = ["PlayScreen", "watched_state", "terminal_height", "PROMPT_LINES", "MIN_MENU_ROWS"]
