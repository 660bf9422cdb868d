"""The public API: `Game` (a loaded spec); its states are `GameState`s (shaped like OpenSpiel's State).

A GameState is a position that is plain data: the state plus its continuation (engine/position.py).
Answering a decision continues the position from where it stopped; nothing is replayed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from orrery.rulespec.loader import GameSpec, load_spec

from .engine.driver import TERMINAL, GameState, IllegalMove, Step
from .evaluator import Limits
from .rules import Rules

MODES = ("compiled", "interpreted")


def default_mode() -> str:
    """The engine used when none is asked for: compiled, unless ORRERY_MODE says otherwise (for testing)."""
    return os.environ.get("ORRERY_MODE", "compiled")


class Game:
    """A loaded, validated spec ready to play."""

    def __init__(self, spec: GameSpec, limits: Limits | None = None, mode: str | None = None):
        self.spec = spec
        self.rules = Rules(spec)
        self.limits = limits or Limits()
        self.mode = mode or default_mode()
        if self.mode not in MODES:
            raise ValueError(f"unknown engine mode '{self.mode}' (known: {', '.join(MODES)})")
        if self.mode == "compiled":
            from .compiler import compile_rules

            self.rules.compiled = compile_rules(self.rules)

    @classmethod
    def load(cls, path: str | Path, variants: list[str | Path] = (), limits: Limits | None = None,
             mode: str | None = None) -> "Game":
        """Load a spec file (and variants) and build the game."""
        return cls(load_spec(path, list(variants)), limits, mode)

    @property
    def name(self) -> str:
        """The game's identifier."""
        return self.rules.name

    def new_initial_state(self, players: int | None = None, seed: int = 0, setup: Any = None,
                          replace_setup: bool = False) -> "GameState":
        """A new game: setup runs up to the first decision (plus an extra setup block, e.g. a scenario's)."""
        n = players if players is not None else self.rules.default_players
        if not self.rules.min_players <= n <= self.rules.max_players:
            raise IllegalMove(f"{self.name} takes {self.rules.player_count_text()}, not {n}")
        return GameState.start(self, n, seed, setup, replace_setup)


__all__ = ["Game", "GameState", "IllegalMove", "Step", "TERMINAL", "MODES", "default_mode"]
