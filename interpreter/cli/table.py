"""The shared screen: what the players around one terminal may see, and handing it over between seats.

The seed decides every random draw: with it, anyone can work out a shuffled deck,
the bag's order or a bot's hidden hand.  So a game without `--seed` draws its seed
from the operating system, and a game with hidden information (a zone or variable
not everyone sees, or a random draw) never shows its seed on the play screen until
the game is over.  The save and the log keep it: they are the table's private record.

In a hot-seat game of several humans with private views (an owner-only hand, a
`commit`'s sealed answers), the screen is cleared and handed over ("pass to <seat>, press Enter") before another
human's turn, so that nobody reads the previous player's hand or its scrollback; the incoming player is then
told what the others did since their last turn, as that player may see it (`Recap`).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Callable

from orrery.rulespec import ast as A
from orrery.rulespec.callgraph import RANDOM

if TYPE_CHECKING:  # rich is imported where it is used: simulate needs only new_seed, and starts faster without it
    from rich.console import Console

    from ..core.rules import Rules

RECAP_LINES = 12  # the last lines of a hand-over's recap (the play screen follows it)
SEED_BITS = 48  # plenty against guessing, short enough to type back with --seed
PRIVATE_RECORD = ("the table's private record: it holds the seed, which decides every hidden card and draw, so keep "
                  "it from the players until the game is over")


def new_seed() -> int:
    """A fresh seed from the operating system's randomness (not guessable from the clock)."""
    return secrets.randbits(SEED_BITS)


def private_views(rules: "Rules") -> bool:
    """Whether some zone or variable is hidden from some player, or a `commit` seals answers (players' views
    differ or hide things)."""
    zones = any(z.decl.visibility != "public" for z in rules.zones.values())
    return zones or any(v.visibility != "public" for v in rules.variables.values()) or commits(rules)


def commits(rules: "Rules") -> bool:
    """Whether some rule asks players a sealed question (`commit`): its answers are private until revealed."""
    return any(isinstance(node, A.Commit) for root in rules.spec.effects.values() for node in root.walk())


def draws_at_random(rules: "Rules") -> bool:
    """Whether any rule draws at random (a bag, shuffle, random_int, shuffled)."""
    if any(z.type == "bag" for z in rules.zones.values()):  # `draw` from a bag picks at random
        return True
    spec = rules.spec
    roots: list[A.Node] = [*spec.exprs.values(), *spec.effects.values()]
    for root in roots:
        for node in root.walk():
            if isinstance(node, A.Shuffle) or (isinstance(node, A.Call) and node.func in RANDOM):
                return True
    return False


def hidden_information(rules: "Rules") -> bool:
    """Whether knowing the seed would tell a player something the rules keep from them."""
    return private_views(rules) or draws_at_random(rules)


def seed_text(seed: int, secret: bool) -> str:
    """How the play screen names the seed while the game runs."""
    return "seed shown at the end" if secret else f"seed {seed}"


def clear_screen(console: "Console") -> None:
    """Clear the terminal and its scrollback (nothing is written when the output is not a terminal)."""
    from rich.control import Control, ControlType
    from rich.segment import Segment

    ctl = Control(ControlType.CLEAR, ControlType.HOME)
    # \x1b[3J then drops the scrollback, which rich's CLEAR (\x1b[2J) keeps: the last hand must not be scrolled
    # to.  After the clear, not before: tmux, VTE and xterm (with its default saveLines) move a cleared screen into
    # the scrollback, so a \x1b[3J sent first would leave the last screen there.
    ctl.segment = Segment(ctl.segment.text + "\x1b[3J", None, ctl.segment.control)
    console.control(ctl)


class Handover:
    """Hands the screen from one human seat to the next when their views differ (hot-seat, private hands)."""

    def __init__(self, humans: list[int], rules: "Rules", console: "Console", ask: Callable[[str], str] = input):
        self.active = len(humans) > 1 and private_views(rules)
        self.rules, self.console, self.ask = rules, console, ask
        self.last: int | None = None  # the human who last saw their own screen

    def to(self, seat: int, since: list[str] | None = None) -> bool:
        """Before `seat`'s screen: clear it and wait for Enter if another human saw theirs, then print `since`
        (what the others did since this seat's last screen, as it may see it); False on end of input."""
        if not self.active or self.last in (None, seat):
            self.last = seat
            return True
        from rich.markup import escape

        self.last = seat
        name = self.rules.seat_name(seat)
        clear_screen(self.console)
        self.console.print(f"[bold]Pass the screen to {escape(name)}[/bold], then {escape(name)} presses Enter.")
        try:
            self.ask("> ")
        except EOFError:
            return False
        clear_screen(self.console)
        if since:
            self.console.print(f"[bold]Since your last turn, {escape(name)}:[/bold]")
            shown = since[-RECAP_LINES:]
            if len(since) > len(shown):
                self.console.print(f"[dim]  ({len(since) - len(shown)} earlier lines left out)[/dim]")
            for line in shown:
                self.console.print(f"  {escape(line)}", soft_wrap=True)
        return True


class Recap:
    """What each human seat may read of the moves made since it last had the screen: told to it after a
    hand-over (the screen was cleared, so the moves printed meanwhile are gone)."""

    def __init__(self, humans: list[int], active: bool):
        self.pending: dict[int, list[str]] = {h: [] for h in humans} if active else {}

    def note(self, lines_for: Callable[[int], list[str]], mover: int | None = None) -> None:
        """A move: `lines_for(seat)` tells it as `seat` may see it (not told to `mover`, who made it)."""
        for seat, lines in self.pending.items():
            if seat != mover:
                lines.extend(lines_for(seat))

    def take(self, seat: int) -> list[str]:
        """The lines kept for `seat`, now told (so forgotten)."""
        out = self.pending.get(seat, [])
        if seat in self.pending:
            self.pending[seat] = []
        return out


__all__ = ["new_seed", "private_views", "commits", "draws_at_random", "hidden_information", "seed_text", "clear_screen",
           "Handover", "Recap", "PRIVATE_RECORD", "RECAP_LINES", "SEED_BITS"]
