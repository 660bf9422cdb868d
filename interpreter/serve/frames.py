"""What a seat is shown of a game at one moment (a *frame*): the served page's and the HTML replay's.

A frame is built from `state.view(seat)` only (a spectator's view is what every seat's view shows alike), the
pending question when it is that seat's to answer, the decisions so far as that seat may know them (its own
answers by label, the others' by who answered and what was asked), the rules' narration (`say`: what every
player is told) and what the page needs to draw the view (serve/board.py).  The seed, the random generator and
other seats' menus or sealed picks are never in a frame (tests/test_serve_leaks.py).
"""

from __future__ import annotations

from typing import Any

from ..engine.game import Game, GameState
from .board import Looks, drawing, layout, panels

SPECTATOR = -1  # the seat number of a spectator (sees only what every seat sees)
TOLD = 30  # narration lines a frame carries (the newest)


def seat_name(game: Game, seat: int) -> str:
    """The rules' name for a seat ('spectator' for the spectators)."""
    return "spectator" if seat == SPECTATOR else game.rules.seat_name(seat)


class Position:
    """One position's seat views and piece drawings, made once for the frames of all its viewers (a frame only
    reads them: the same views and pieces as each frame made its own)."""

    def __init__(self, gs: GameState):
        self.gs, self.looks = gs, Looks(gs)
        self._views: dict[int, dict[str, Any]] = {}

    def view(self, seat: int) -> dict[str, Any]:
        """`gs.view(seat)`, made once."""
        if seat not in self._views:
            self._views[seat] = self.gs.view(seat)
        return self._views[seat]


def frame_of(game: Game, gs: GameState, seat: int, seats: list[str], told: list[str] | None = None,
             position: Position | None = None) -> dict[str, Any]:
    """Everything `seat` is shown of `gs` (seats: 'human' or a bot's name, per seat; told: the narration lines
    to show, default the newest of the game's; position: `gs` now, as other viewers' frames of it read it)."""
    at = Position(gs) if position is None else position
    view = at.view(seat) if seat != SPECTATOR else public_view(gs, at)
    frame: dict[str, Any] = {
        "type": "frame", "game": game.name, "title": game.spec.model.game.title or game.name, "seat": seat,
        "seat_name": seat_name(game, seat), "step": len(gs.steps), "view": view,
        "seats": [{"name": seat_name(game, i), "kind": k} for i, k in enumerate(seats)],
        "log": log_lines(game, gs, seat), "told": list(gs.narration[-TOLD:] if told is None else told),
    }
    frame["layout"] = layout(game, view)
    frame.update(drawing(gs, view, frame["layout"], at.looks), panels=panels(game, view))
    if gs.is_terminal():
        o = gs.outcome()
        frame["over"] = {"end": o.end, "winners": [seat_name(game, w) for w in o.winners], "returns": gs.returns()}
        return frame
    current = gs.current_player()
    frame["waiting_for"] = seat_name(game, current)
    if seat == current:
        d = gs.decision
        frame["decision"] = {
            "prompt": d.prompt, "kind": d.kind,
            "options": [{"index": o.index, "label": o.label} for o in d.options],
            "refused": [{"option": str(k), "why": str(v)} for k, v in (d.reasons or {}).items()],
        }
    return frame


def log_lines(game: Game, gs: GameState, seat: int) -> list[str]:
    """The decisions so far as `seat` may know them: its own answers by label, the others' by who."""
    lines = []
    for s in gs.steps:
        if s.auto:
            continue
        who = seat_name(game, s.player)
        lines.append(f"{who}: {s.label}" if s.player == seat else f"{who} answered ({s.prompt})")
    return lines


def public_view(gs: GameState, position: Position | None = None) -> dict[str, Any]:
    """What a spectator sees: only what every seat's view shows alike (their meet), so no seat's private zones,
    values, menu or sealed pick; a hidden place shown to one seat and counted for another is counted.  (In a
    one-player game that is the player's own view: there is no other seat to hide from.)"""
    at = Position(gs) if position is None else position
    view = dict(_meet([at.view(s) for s in range(gs.num_players)]))  # (a copy: a part met whole is a seat's own)
    view["viewer"] = None
    return view


_NOTHING = object()  # (the meet of values that differ)


def _meet(values: list[Any]) -> Any:
    """What a list of views (or parts) all show: keys they share, lists of one length element by element,
    equal values; pieces in one and a count in another give the count; anything else is left out.  (Parts all
    views show alike, most of a view, are met whole: one comparison in C instead of a walk through them.)"""
    first = values[0]
    if all(v == first for v in values):
        return first
    if all(isinstance(v, dict) for v in values):
        out = {}
        for key in first:
            if all(key in v for v in values):
                part = _meet([v[key] for v in values])
                if part is not _NOTHING:
                    out[key] = part
        return out
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1:
        parts = [_meet(list(items)) for items in zip(*values)]
        return _NOTHING if any(p is _NOTHING for p in parts) else parts
    counts = {v for v in values if isinstance(v, int) and not isinstance(v, bool)}
    if len(counts) == 1 and all(isinstance(v, list) or v in counts for v in values):
        return counts.pop()
    return _NOTHING


__all__ = ["SPECTATOR", "Position", "frame_of", "log_lines", "public_view", "seat_name"]
