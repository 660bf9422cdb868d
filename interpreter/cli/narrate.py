"""Moves told at the table in the game's words: a bot's choice and what it changed, and the engine's automatic answers.

After a decision, the engine may answer more decisions itself (a menu with one option:
`GameState.steps` marks them `auto`); each is told in one line, `SEAT — PROMPT: LABEL (the only
option)`, except the last one when it only starts the action whose question is now asked (a step
menu whose one action is the one that asks).  A bot's move is told as `SEAT (mcts): PROMPT -> LABEL`, then what it did: the narration (`say`) lines the rules
printed, or, when they printed none, what it changed told in the game's words (moves.py: `South swaps the red
stone at c1 with the blue stone at c2`).  A human's own move is told the same way, without the choice.

Hidden information: a choice of a piece the humans reading the line could see neither before nor after
the move (a card in a bot's hand) is never printed, nor a label only such pieces carry; the line says the
choice is hidden instead (`Sight`).  A seat's own choices are its own.  An answer to a `commit` is
never printed at all (`SEALED`): the others learn it when the rules reveal it.  The summary reads the
public view only.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..reference.evaluator import Interp
from ..engine.game import GameState
from ..core.values import PieceRef
from .moves import Moment, told_move

HIDDEN = "(a choice hidden from you)"
SEALED = "(sealed until everyone has answered)"


def public_view(gs: GameState) -> Moment:
    """The game now, as a move will be told from it: what every player sees (no seat's private zones or
    variables) and where each piece is (moves.py names only the pieces the readers may see)."""
    return Moment.of(gs)


def hidden_labels(gs: GameState, viewers: list[int], visible: Callable[[GameState, int], set[int]]) -> list[str]:
    """Labels of pieces some viewer cannot see, where the label says more than the piece's kind."""
    return Sight.around(gs, viewers, None, visible).labels


class Sight:
    """What the viewers of some lines could not see around a move: the pieces hidden from them both before and
    after it (a piece chosen from a public supply, or one revealed by the move, was seen), and the labels that
    only such pieces carry (a label a seen piece also carries names nothing secret).  A viewer's own choice is
    never hidden from that viewer: it was in their menu."""

    def __init__(self, labels: list[str] | tuple = (), pieces: frozenset[int] | None = None,
                 viewers: tuple[int, ...] = ()):
        # (pieces None: not known, so a choice is judged by its label alone)
        self.labels, self.pieces, self.viewers = list(labels), pieces, viewers

    @classmethod
    def around(cls, gs: GameState, viewers: list[int], before: dict[int, set[int]] | None,
               visible: Callable[[GameState, int], set[int]]) -> "Sight":
        """The sight of `viewers` now, given what each saw before the move (`before`, by viewer; None: now only)."""
        if not viewers:
            return cls()
        seen = [visible(gs, v) | (before.get(v, set()) if before else set()) for v in viewers]
        hidden = frozenset(pid for pid in range(len(gs.state.kinds)) if any(pid not in s for s in seen))
        if not hidden:
            return cls((), hidden, tuple(viewers))
        it = Interp(gs.state.clone())
        named: set[str] = set()
        shown: set[str] = set()
        for pid, kind in enumerate(gs.state.kinds):
            try:
                label = it.piece_label(pid)
            except Exception:  # a broken label expression names nothing
                continue
            if label and label != kind:
                (named if pid in hidden else shown).add(label)
        return cls(sorted(named - shown), hidden, tuple(viewers))

    def hides(self, player: int, label: str, value: Any = None) -> bool:
        """Whether the answer `label` (its value, when known) that `player` gave is hidden from the viewers."""
        if self.viewers == (player,):
            return False
        if self.pieces is not None and isinstance(value, PieceRef):
            return value.id in self.pieces
        return names_hidden(label, self.labels)


def _sight(hidden: "Sight | list[str]") -> Sight:
    """A sight from the labels alone (callers that know no pieces), or the sight itself."""
    return hidden if isinstance(hidden, Sight) else Sight(hidden)


def names_hidden(text: str, hidden: list[str]) -> bool:
    """Whether `text` names one of the hidden labels (as a whole word)."""
    return any(re.search(rf"(?<!\w){re.escape(h)}(?!\w)", text) for h in hidden)


def auto_lines(gs: GameState, since: int, hidden: "Sight | list[str]") -> list[str]:
    """One line per automatic answer in `gs.steps[since:]` (see the module doc)."""
    sight = _sight(hidden)
    seat = gs.game.rules.seat_name
    autos = [s for s in gs.steps[since:] if s.auto]
    d = gs.decision
    if autos and d is not None and d.kind == "choose" and d.action is not None:
        last = autos[-1]
        action = gs.game.rules.actions.get(d.action)
        if action is not None and last.player == d.player and last.label == action.label:
            autos = autos[:-1]  # it only starts the action whose question is asked now
    out = []
    for s in autos:
        label = SEALED if s.sealed else HIDDEN if sight.hides(s.player, s.label, s.value) else s.label
        out.append(f"{seat(s.player)} — {s.prompt}: {label} (the only option)")
    return out


def bot_lines(gs: GameState, player: int, kind: str, prompt: str, label: str, said: list[str],
              before: Moment | None, hidden: "Sight | list[str]", sealed: bool = False,
              value: Any = None) -> list[str]:
    """A bot's move: its choice (never a `sealed` one), then what it did (`told_lines`)."""
    seat = gs.game.rules.seat_name(player)
    sight = _sight(hidden)
    shown = SEALED if sealed else HIDDEN if sight.hides(player, label, value) else label
    return [f"{seat} ({kind}): {prompt} -> {shown}"] + told_lines(gs, player, said, before, sight)


def told_lines(gs: GameState, player: int, said: list[str], before: Moment | None,
               hidden: "Sight | list[str]") -> list[str]:
    """What a move did, indented under it: the rules' narration (`say`) when they printed some, else what it
    changed in the game's words (moves.py); nothing a reader may not see."""
    sight = _sight(hidden)
    told = [line for line in said if not names_hidden(line, sight.labels)]
    if not told and before is not None:
        told = [line for line in told_move(gs, player, before, sight.pieces) if not names_hidden(line, sight.labels)]
    return [f"  {line}" for line in told]


class Watch:
    """One move as the table tells it, watched from just before it: the public moment, what each reader could
    see then (when the game hides anything), and how many steps and narration lines there were."""

    def __init__(self, gs: GameState, readers: list[int], visible: Callable[[GameState, int], set[int]],
                 secret: bool, steps: int | None = None):
        self.before, self.said = Moment.of(gs), len(gs.narration)
        self.steps = len(gs.steps) if steps is None else steps  # (0: every step so far, as at the start)
        self.visible, self.secret = visible, secret
        self.seen = {h: visible(gs, h) for h in readers} if secret else {}
        self._sights: dict[tuple, Sight] = {}  # by position and viewers: the move and its autos share one

    def sight(self, gs: GameState, viewers: list[int]) -> Sight:
        """What must not be printed to `viewers` (nothing in a game without hidden information)."""
        if not self.secret:
            return Sight()
        key = (id(gs), len(gs.steps), tuple(viewers))  # (every decision applied is a step: a new position)
        if key not in self._sights:
            self._sights[key] = Sight.around(gs, viewers, self.seen, self.visible)
        return self._sights[key]

    def move(self, gs: GameState, player: int, kind: str | None, prompt: str, label: str, sealed: bool,
             value: Any, viewers: list[int]) -> list[str]:
        """The move made, as `viewers` may read it: `SEAT (kind): PROMPT -> LABEL` and what it did (`bot_lines`),
        or only what it did when `kind` is None (the reader made it)."""
        said, sight = gs.narration[self.said:], self.sight(gs, viewers)
        if kind is None:
            return told_lines(gs, player, said, self.before, sight)
        return bot_lines(gs, player, kind, prompt, label, said, self.before, sight, sealed, value)

    def autos(self, gs: GameState, viewers: list[int]) -> list[str]:
        """The engine's own answers after the move, as `viewers` may read them."""
        return auto_lines(gs, self.steps, self.sight(gs, viewers))


__all__ = ["Watch", "Sight", "public_view", "hidden_labels", "names_hidden", "auto_lines", "bot_lines", "told_lines", "HIDDEN",
           "SEALED"]
