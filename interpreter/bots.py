"""Bots: players that answer decisions through the same interface as humans.

A bot sees the GameState and returns the index of one of the pending
decision's options.  Bots own their randomness (seeded), separate from the
game's, so a seed plus the bots' seeds reproduces a simulated game exactly.
"""

from __future__ import annotations

from typing import Callable, Protocol

from .game import GameState
from .rng import Rng


class Bot(Protocol):
    """Anything that can answer a decision."""

    name: str

    def choose(self, gs: GameState) -> int:
        """The index of one of `gs.legal_actions()`."""
        ...


class RandomBot:
    """Uniformly random over the current menu."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, gs: GameState) -> int:
        """A uniformly random legal option."""
        legal = gs.legal_actions()
        return legal[self.rng.below(len(legal))]


class FirstBot:
    """Always the first option: a deterministic baseline for tests."""

    name = "first"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, gs: GameState) -> int:
        """The first legal option."""
        return gs.legal_actions()[0]


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "first": FirstBot,
}


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name; raises KeyError with the known names."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise KeyError(f"unknown bot '{name}' (known: {', '.join(sorted(BOTS))})") from None
    return factory(seed)
