"""How pieces are drawn, from the spec alone: a piece's symbol and colour, and the legend of what was drawn.

The terminal (cli/render.py) and the served page (serve/) draw the same symbols in the same colours and explain
them with the same legend, so both take them from here.  A kind's `symbol` and `style` expressions decide
(`display:` in the spec); without them a piece is drawn by the first letters of its label.  A colour is a
`rich` style name (`red`, `bold blue`, `#ffaa00`); names rich does not know give no colour, so nothing is told
by colour alone: the symbol and the legend always say it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.style import Style

from ..core.values import PieceRef
from ..reference.evaluator import Interp

if TYPE_CHECKING:
    from .game import GameState

LEGEND_SYMBOLS_PER_KIND = 6  # a kind drawing more symbols than this gets one legend entry, not one per symbol
EMPTY, HIDDEN = "·", "?"  # the marks of an empty cell and of hidden pieces

Drawn = dict[tuple[str, "str | None"], list[int]]  # (symbol, style) -> ids of the pieces drawn with it


def abbrev(label: str) -> str:
    """First letters of a label: initials of the first two words, or the first two letters."""
    words = label.split()
    if len(words) >= 2:
        return words[0][0] + words[1][0]
    return label[:2] or "?"


class Symbols:
    """The symbols, colours and labels of one position's pieces (evaluated on a clone: never on the live state)."""

    def __init__(self, gs: "GameState", it: Interp | None = None) -> None:
        """Read `gs`'s rules and display settings; `it` is an evaluator already made on a clone of its state."""
        self.state = gs.state
        self.rules = gs.game.rules
        self.model = gs.game.spec.model
        self.it = it if it is not None else Interp(gs.state.clone())
        self.cell_width = self.model.display.cell_width

    def label(self, v: Any) -> str:
        """A value as text; never raises."""
        try:
            return self.it.label(v)
        except Exception:  # a broken label expression must not break the display
            return repr(v)

    def style(self, pid: int) -> str | None:
        """The colour of a piece from its kind's `style` expression, if it names a valid style."""
        kind = self.rules.kinds.get(self.state.kinds[pid])
        if kind is None or kind.style is None:
            return None
        try:
            value = self.it.ev(kind.style, {"it": PieceRef(pid)})
            if value is None or value == "":
                return None
            name = value if isinstance(value, str) else self.label(value)
            Style.parse(name)
            return name
        except Exception:  # unknown colour names or failing expressions: no colour
            return None

    def has_symbol(self, pid: int) -> bool:
        """Whether the piece's kind declares a `symbol` (else it is drawn by its label's letters)."""
        kind = self.rules.kinds.get(self.state.kinds[pid])
        return kind is not None and kind.symbol is not None

    def symbol(self, pid: int) -> str:
        """A piece's board symbol: its kind's `symbol` expression, else letters of its label."""
        kind = self.rules.kinds.get(self.state.kinds[pid])
        sym = None
        if kind is not None and kind.symbol is not None:
            try:
                v = self.it.ev(kind.symbol, {"it": PieceRef(pid)})
                sym = v if isinstance(v, str) else self.label(v)
            except Exception:
                sym = None
        if not sym:
            sym = abbrev(self.label(PieceRef(pid)))
        return sym[: max(self.cell_width, 1)]

    def meaning(self, pids: list[int]) -> str:
        """What pieces sharing a symbol are: their label when they share one, else their kinds' names."""
        labels = list(dict.fromkeys(self.label(PieceRef(pid)) for pid in pids))
        if len(labels) == 1:
            return labels[0]
        return " / ".join(dict.fromkeys(self.state.kinds[pid] for pid in pids))

    def legend(self, drawn: Drawn, marks: set[str] = frozenset()) -> list[tuple[str, str | None, str]]:  # type: ignore[assignment]
        """The legend as (symbol, style, meaning): `display.legend` entries, then one per symbol drawn (one per
        kind when a kind drew many), then the marks of empty and hidden cells drawn (one entry, symbol '').
        A `display.legend` key that names a piece kind stands for all its symbols (shown as its meaning alone)."""
        given = self.model.display.legend
        entries: list[tuple[str, str | None, str]] = [("" if sym in self.rules.kinds else sym, None, meaning)
                                                      for sym, meaning in given.items() if meaning]
        order = {kind: i for i, kind in enumerate(self.rules.kinds)}

        def spec_order(item: tuple[tuple[str, str | None], list[int]]) -> tuple[int, int]:
            """Kinds in the spec's order, then the symbols by their first piece."""
            return order.get(self.state.kinds[item[1][0]], len(order)), min(item[1])

        by_kind: dict[str, dict[str, tuple[str | None, list[int]]]] = {}
        for (sym, style), pids in sorted(drawn.items(), key=spec_order):
            if sym in given or self.state.kinds[pids[0]] in given:
                continue
            symbols = by_kind.setdefault(self.state.kinds[pids[0]], {})
            old = symbols.get(sym)
            symbols[sym] = (old[0] if old else style, (old[1] if old else []) + pids)
        for kind, symbols in by_kind.items():
            if len(symbols) > LEGEND_SYMBOLS_PER_KIND:
                first, (style, _) = next(iter(symbols.items()))
                entries.append((f"{first}…", style, f"{kind} ({len(symbols)} symbols)"))
                continue
            entries.extend((sym, style, self.meaning(pids)) for sym, (style, pids) in symbols.items())
        # the cell marks share one entry: they are short, and an entry each could take a line each
        shown = "  ".join(f"{mark} {what}" for mark, what in ((EMPTY, "empty"), (HIDDEN, "hidden (n? for n)"))
                          if mark in marks and mark not in given)
        if shown:
            entries.append(("", None, shown))
        return entries


__all__ = ["EMPTY", "HIDDEN", "LEGEND_SYMBOLS_PER_KIND", "Drawn", "Symbols", "abbrev"]
