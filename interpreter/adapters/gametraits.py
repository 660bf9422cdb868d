"""What a framework wants to know about a game before playing it: chance, hidden information, utilities.

Read from the rules, never from a game's name, with the same tests the play table uses to decide whether a
seed may be shown (cli/table.py): randomness is a shuffle, a draw from a bag or a random built-in anywhere in
the rules; hidden information is a zone or variable that is not public, or a sealed `commit`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from orrery.interpreter.cli.table import draws_at_random, private_views


@dataclass(frozen=True)
class Traits:
    """The framework-facing shape of one game."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    random: bool  # the rules draw random numbers (shuffles, bags, random built-ins)
    hidden: bool  # some zone, variable or sealed answer is not seen by everybody

    def perfect_information(self) -> bool:
        """Every player sees everything (draws are chance nodes of their own, seen when they happen)."""
        return not self.hidden

    def zero_sum(self) -> bool:
        """Always two seats: a win for one is a loss for the other, a draw is 0 for both (dsl.md, results)."""
        return self.min_players == self.max_players == 2


def traits_of(rules: Any) -> Traits:
    """The traits of a game from its runtime rules (`Game.rules`, or `Rules(spec)`)."""
    title = rules.spec.model.game.title or rules.name
    return Traits(name=rules.name, title=title, min_players=rules.min_players, max_players=rules.max_players,
                  default_players=rules.default_players, random=draws_at_random(rules), hidden=private_views(rules))
