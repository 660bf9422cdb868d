"""Moves told at the table in the game's words: a bot's choice and what it changed, and the engine's automatic answers.

After a decision, the engine may answer more decisions itself (a menu with one option:
`GameState.steps` marks them `auto`); each is told in one line, `SEAT — PROMPT: LABEL (the only
option)`, except the last one when it only starts the action whose question is now asked (a step
menu whose one action is the one that asks).  A bot's move is told as `SEAT (mcts): PROMPT -> LABEL`, then what it changed: the narration (`say`) lines the rules
printed, or, when they printed none, a summary of the public state's difference (cells whose
pieces changed, counts of zones, variables).

Hidden information: a choice of a piece the humans reading the line could see neither before nor after
the move (a card in a bot's hand) is never printed, nor a label only such pieces carry; the line says the
choice is hidden instead (`Sight`).  A seat's own choices are its own.  An answer to a `commit` is
never printed at all (`SEALED`): the others learn it when the rules reveal it.  The summary reads the
public view only.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from orrery.rulespec.wording import spoken, state_name

from ..reference.evaluator import Interp
from ..engine.game import GameState
from ..core.values import PieceRef
from ..core.view import state_view

MAX_CELLS = 6  # cells named in a summary before "and N more"
HIDDEN = "(a choice hidden from you)"
SEALED = "(sealed until everyone has answered)"


def public_view(gs: GameState) -> dict[str, Any]:
    """What every player sees (no seat's private zones or variables)."""
    return state_view(gs.state, None, True)


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


def _zone_name(gs: GameState, key: str) -> str:
    name, _, owner = key.partition("[")
    zone = gs.game.rules.zones.get(name)
    title = spoken(name, zone.decl.label if zone is not None else None)
    return f"{title} of {gs.game.rules.seat_name(int(owner[:-1]))}" if owner else title


def change_summary(gs: GameState, before: dict[str, Any], after: dict[str, Any]) -> str:
    """What changed between two public views, in a line: cells, zone counts, variables."""
    parts: list[str] = []
    for key, zone in after["zones"].items():
        old = before["zones"].get(key, {})
        if "cells" in zone:
            cells = [c for c in sorted(set(zone["cells"]) | set(old.get("cells", {})))
                     if zone["cells"].get(c) != old.get("cells", {}).get(c)]
            if cells:
                more = f" and {len(cells) - MAX_CELLS} more" if len(cells) > MAX_CELLS else ""
                parts.append(f"{_zone_name(gs, key)} {', '.join(cells[:MAX_CELLS])}{more}")
        elif zone.get("count") != old.get("count"):
            parts.append(f"{_zone_name(gs, key)} {old.get('count', 0)} → {zone['count']}")
    for p, (a, b) in enumerate(zip(before["players"], after["players"])):
        for k, v in b.items():
            if k not in ("seat", "name") and a.get(k) != v and isinstance(v, (int, float, str, bool)):
                parts.append(f"{b['name']} {state_name(gs.game.spec.model, k)} {a.get(k)} → {v}")
    for k, v in after["vars"].items():
        if before["vars"].get(k) != v and isinstance(v, (int, float, str, bool)):
            parts.append(f"{state_name(gs.game.spec.model, k)} {before['vars'].get(k)} → {v}")
    return "; ".join(parts)


def bot_lines(gs: GameState, player: int, kind: str, prompt: str, label: str, said: list[str],
              before: dict[str, Any] | None, hidden: "Sight | list[str]", sealed: bool = False,
              value: Any = None) -> list[str]:
    """A bot's move: its choice (never a `sealed` one), then what it changed (the rules' narration, else a
    summary)."""
    seat = gs.game.rules.seat_name(player)
    sight = _sight(hidden)
    shown = SEALED if sealed else HIDDEN if sight.hides(player, label, value) else label
    out = [f"{seat} ({kind}): {prompt} -> {shown}"]
    told = [line for line in said if not names_hidden(line, sight.labels)]
    if told:
        out.extend(f"  {line}" for line in told)
    elif before is not None:
        summary = change_summary(gs, before, public_view(gs))
        if summary:
            out.append(f"  changed: {summary}")
    return out


__all__ = ["Sight", "public_view", "hidden_labels", "names_hidden", "auto_lines", "change_summary", "bot_lines", "HIDDEN",
           "SEALED"]
