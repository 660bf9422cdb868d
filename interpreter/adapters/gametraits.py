"""What a framework wants to know about a game before playing it: chance, hidden information, utilities.

Read from the checked spec, never from a game's name: randomness is any shuffle, draw from a bag or random
built-in anywhere in the rules; hidden information is any zone or variable not public, or a sealed `commit`.
"""

from __future__ import annotations

from dataclasses import dataclass
from orrery.rulespec import ast as A
from orrery.rulespec.gamespec import GameSpec
from orrery.rulespec.callgraph import RANDOM


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
        """Every player sees everything, and nothing is left to chance the players cannot see."""
        return not (self.random or self.hidden)

    def zero_sum(self) -> bool:
        """Always two seats: a win for one is a loss for the other, a draw is 0 for both (dsl.md, results)."""
        return self.min_players == self.max_players == 2


def traits_of(spec: GameSpec) -> Traits:
    """The traits of a game from its checked spec (`Game.spec`)."""
    nodes = [n for root in list(spec.exprs.values()) + list(spec.effects.values()) for n in root.walk()]
    random = any(isinstance(n, A.Shuffle) or (isinstance(n, A.Call) and n.func in RANDOM) for n in nodes)
    zones = spec.model.components.zones.values()
    random = random or any(z.type == "bag" for z in zones)
    hidden = any(isinstance(n, A.Commit) for n in nodes)
    hidden = hidden or any(z.visibility != "public" for z in zones)
    hidden = hidden or any(v.visibility != "public" for v in spec.model.variables.values())
    game, seats = spec.model.game, spec.model.game.players
    return Traits(name=game.name, title=game.title or game.name, min_players=seats.min, max_players=seats.max,
                  default_players=seats.default or seats.min, random=random, hidden=hidden)
