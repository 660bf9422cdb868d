"""One action space for a whole game: a documented, stable mapping from a decision's options to global ids.

Orrery numbers the options of each decision `0..n-1` (docs/api.md, "Action identifiers"); frameworks such as
OpenSpiel and PettingZoo want ids that mean the same move in every position. The global ids are, in order:

1. the step-menu answers: every action of the spec in its written order, then `done` and `skip`;
2. every cell of every bounded board, zone by zone in the spec's order (per-player boards seat by seat), cells
   in the engine's order (rows from the bottom, or a graph's nodes as written);
3. `max_options` slots for every other answer (a piece, a number, a text, a list): slot `k` is the option of
   engine index `k` in the decision's full option list (stable across runs: the engine's own index).

An option whose value has an id of kind 1 or 2 gets it (a value met twice in one decision keeps its first id,
the later ones use their slot), so the same cell or action is the same id wherever it is asked.
"""

from __future__ import annotations

from typing import Any

from orrery.interpreter.core.decisions import Decision
from orrery.interpreter.core.values import Cell

SPECIAL_ANSWERS = ("done", "skip")
DEFAULT_MAX_OPTIONS = 256


class ActionSpaceExceeded(ValueError):
    """A decision had more options than the action space's slots."""


class ActionSpace:
    """The global ids of one game at one player count (the per-player boards depend on it)."""

    def __init__(self, rules: Any, players: int, max_options: int = DEFAULT_MAX_OPTIONS) -> None:
        self.max_options = max_options
        self.keys: list[tuple] = [("action", name) for name in rules.actions]
        self.keys += [("action", name) for name in SPECIAL_ANSWERS if name not in rules.actions]
        for name, zone in rules.zones.items():
            if not zone.is_board or (zone.type == "grid" and zone.decl.unbounded):
                continue
            for owner in (range(players) if zone.per_player else [None]):
                self.keys += [("cell", Cell(name, owner, pos)) for pos in zone.all_positions()]
        self.ids: dict[tuple, int] = {key: i for i, key in enumerate(self.keys)}
        self.slot_base = len(self.keys)
        self.size = self.slot_base + max_options

    def _key(self, decision: Decision, value: Any) -> tuple | None:
        if isinstance(value, Cell):
            return ("cell", value)
        if decision.kind == "action" and isinstance(value, str):
            return ("action", value)
        return None

    def global_ids(self, decision: Decision) -> dict[int, int]:
        """The offered options of `decision`: global id -> the engine's option index."""
        out: dict[int, int] = {}
        for opt in decision.options:
            gid = self.ids.get(self._key(decision, opt.value))
            if gid is None or gid in out:
                if opt.index >= self.max_options:
                    raise ActionSpaceExceeded(
                        f"a decision has an option of index {opt.index}, past the action space's {self.max_options} "
                        f"slots ('{decision.prompt}'): load the game with a larger max_options")
                gid = self.slot_base + opt.index
            out[gid] = opt.index
        return out

    def describe(self, gid: int) -> str:
        """What a global id stands for, in words."""
        if gid < self.slot_base:
            kind, what = self.keys[gid]
            return f"{kind} {what if kind == 'action' else repr(what) + ' of ' + what.zone}"
        return f"option #{gid - self.slot_base}"
