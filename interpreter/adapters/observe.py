"""What one player may see, as the frameworks want it: strings and a fixed-shape tensor built from the views.

Everything here reads `GameState.view(player)` only, the engine's visibility contract (zones `owner`/`hidden`
show counts, hidden variables are left out, a decision's options go to its own player), so an observation
never shows more than the player's own screen would.
"""

from __future__ import annotations

import io
import json
from typing import Any

import numpy as np
from rich.console import Console

from orrery.interpreter.cli.render import render_decision, render_state
from orrery.interpreter.core.values import Cell

DEFAULT_MAX_GAME_LENGTH = 20_000  # decisions before a game is cut short (as `orrery simulate` counts them)


def observation_string(gs: Any, player: int) -> str:
    """The player's view of the position, as canonical JSON."""
    return json.dumps(gs.view(player), sort_keys=True, separators=(",", ":"))


def information_state_string(gs: Any, player: int, perfect_information: bool) -> str:
    """The view now, plus the past as the player knew it: every answer in a game of perfect information;
    otherwise who answered each step, and the player's own answers (others' may name hidden pieces)."""
    past = []
    for step in gs.steps:
        shown = perfect_information or (step.player == player and not step.auto)
        past.append(f"{step.player}:{step.label if shown else '?'}")
    return f"{' '.join(past)}\n{observation_string(gs, player)}"


def screen_text(gs: Any, viewer: int | None = None) -> str:
    """The play screen as plain text: the state as `viewer` sees it, and the pending menu if it is theirs."""
    console = Console(record=True, width=100, file=io.StringIO(), color_system=None)
    console.print(render_state(gs, viewer))
    if gs.decision is not None and viewer in (None, gs.decision.player):
        console.print(render_decision(gs))
    return console.export_text()


class TensorLayout:
    """A fixed-shape numeric encoding of a view, planned once per game and player count.

    Per bounded board cell: one channel per (piece kind, owner seat or none) counting pieces, and one counting
    pieces the player may not identify. Per other zone (and per unbounded board): the piece count, then one
    count per kind when visible. Then the numeric variables (game-wide, then per seat) that the initial view
    shows, the round and turn, the deciding seat (one-hot) and whether the game is over."""

    def __init__(self, gs: Any) -> None:
        rules, n = gs.game.rules, gs.num_players
        self.n = n
        self.kinds = {k: i for i, k in enumerate(rules.kinds)}
        self.channels = len(self.kinds) * (n + 1) + 1
        self.boards: dict[str, tuple[int, dict[str, int]]] = {}  # view key -> (offset, cell label -> index)
        self.piles: dict[str, int] = {}  # view key -> offset
        size = 0
        for name, zone in rules.zones.items():
            for owner in (range(n) if zone.per_player else [None]):
                key = name if owner is None else f"{name}[{owner}]"
                if zone.is_board and not (zone.type == "grid" and zone.decl.unbounded):
                    labels = {Cell(name, owner, pos).label: i for i, pos in enumerate(zone.all_positions())}
                    self.boards[key] = (size, labels)
                    size += len(labels) * self.channels
                else:
                    self.piles[key] = size
                    size += 1 + len(self.kinds)
        start = gs.view(None)
        self.gvars = [k for k, v in start["vars"].items() if _number(v) is not None]
        self.pvars = [k for k, v in start["players"][0].items() if k not in ("seat", "name") and _number(v) is not None]
        self.vars_at = size
        size += len(self.gvars) + n * len(self.pvars) + 2
        self.seat_at = size
        self.size = size + n + 1

    def encode(self, view: dict[str, Any], out: np.ndarray) -> None:
        """Fill `out` (shape (size,)) from a view."""
        out.fill(0.0)
        for key, zone in view["zones"].items():
            if key in self.boards:
                self._board(zone["cells"], *self.boards[key], out)
            elif key in self.piles:
                self._pile(zone, self.piles[key], out)
        at = self.vars_at
        values = [view["vars"].get(k) for k in self.gvars]
        values += [p.get(k) for p in view["players"] for k in self.pvars]
        values += [view.get("round"), view.get("turn")]
        for i, v in enumerate(values):
            out[at + i] = _number(v) or 0.0
        decision = view.get("decision")
        if decision is not None:
            out[self.seat_at + decision["player"]] = 1.0
        if "outcome" in view:
            out[self.seat_at + self.n] = 1.0

    def _board(self, cells: dict[str, Any], offset: int, labels: dict[str, int], out: np.ndarray) -> None:
        for label, pieces in cells.items():
            base = offset + labels[label] * self.channels
            if isinstance(pieces, int):  # pieces the player may only count
                out[base + self.channels - 1] += pieces
                continue
            for piece in pieces:
                out[base + self._channel(piece)] += 1.0

    def _pile(self, zone: dict[str, Any], offset: int, out: np.ndarray) -> None:
        if "cells" in zone:  # an unbounded board: counted like a pile
            pieces = [p for cell in zone["cells"].values() for p in (cell if isinstance(cell, list) else [])]
            out[offset] = sum(len(c) if isinstance(c, list) else c for c in zone["cells"].values())
        else:
            pieces = zone.get("pieces", [])
            out[offset] = zone["count"]
        for piece in pieces:
            out[offset + 1 + self.kinds[piece["kind"]]] += 1.0

    def _channel(self, piece: dict[str, Any]) -> int:
        owner = piece.get("owner")
        seat = owner["player"] if isinstance(owner, dict) and "player" in owner else self.n
        return self.kinds[piece["kind"]] * (self.n + 1) + seat


def _number(v: Any) -> float | None:
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    return None
