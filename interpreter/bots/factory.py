"""Bots: players that answer decisions through the same interface as humans.

A bot sees the GameState and returns the index of one of the pending
decision's options.  Bots own their randomness (seeded), separate from the
game's, so a seed plus the bots' seeds reproduces a simulated game exactly.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Protocol

from ..core.decisions import RuleError
from ..engine.game import GameState, IllegalMove
from .greedy import GreedyBot
from .mcts import make_mcts, parse_budget
from ..core.options import (MAX_BOT_SECONDS, MAX_EXPLORATION, MAX_ITERATIONS, MAX_PLAYOUT, MAX_RAVE,
                      show_number)
from ..core.rng import Rng


class Bot(Protocol):
    """Anything that can answer a decision."""

    name: str

    def choose(self, gs: GameState) -> int:
        """The index of one of `gs.legal_actions()`."""
        ...

    def snapshot(self) -> "Bot":
        """An independent copy as the bot is now, to go back to (the table's undo)."""
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

    def snapshot(self) -> "RandomBot":
        """A copy at the same point of its random numbers."""
        twin = RandomBot()
        twin.rng = self.rng.clone()
        return twin


class FirstBot:
    """Always the first option: a deterministic baseline for tests."""

    name = "first"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, gs: GameState) -> int:
        """The first legal option."""
        return gs.legal_actions()[0]

    def snapshot(self) -> "FirstBot":
        """Itself: it keeps nothing that changes."""
        return self


def apply_choice(gs: GameState, index: int) -> int:
    """Play a bot's choice; if the engine refuses it, the other options in menu order, as a player told
    "refused" would choose again.  The index played; a RuleError when every option is refused.

    An option is refused when it leads to a dead end the menu could not see (e.g. an action whose only
    parameter has no legal value): that is a flaw of the rules, which must not crash a simulation.
    """
    try:
        gs.apply(index)
        return index
    except IllegalMove as first:
        reasons = [first.reason]
    for other in gs.legal_actions():
        if other == index:
            continue
        try:
            gs.apply(other)
            return other
        except IllegalMove as refused:
            reasons.append(refused.reason)
    raise RuleError(f"every option of '{gs.decision.prompt if gs.decision else '?'}' is refused when chosen, "
                    f"so the game cannot go on (first refusal: {reasons[0]})", gs.game.spec.span("flow"))


BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "first": FirstBot,
    "greedy": GreedyBot,  # one ply: the best option by the end result or the spec's heuristic (greedy.py)
    "mcts": make_mcts,  # search; takes a budget: mcts:200 (iterations), mcts:2s, mcts:200:2s (see mcts.py)
}
PARAMETRIC = {"mcts"}  # bots that take parameters after a colon


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name, with parameters after a colon for those that take them (`mcts:200`).

    Raises KeyError for an unknown name (with the known names), ValueError for parameters the bot
    does not take or cannot read.
    """
    base, colon, params = name.partition(":")
    try:
        factory = BOTS[base]
    except KeyError:
        from orrery.rulespec.suggest import did_you_mean  # (only when a name was mistyped)

        raise KeyError(f"unknown bot '{name}'{did_you_mean(base, BOTS)} (known: {', '.join(sorted(BOTS))})") from None
    if not colon:
        return factory(seed)
    if base not in PARAMETRIC:
        raise ValueError(f"bot '{base}' takes no parameters (in '{name}')")
    return factory(seed, params)


def bot_error(name: str) -> str | None:
    """Why `name` is not a bot that `make_bot` can make, or None if it is."""
    try:
        make_bot(name, 0)
    except (KeyError, ValueError) as exc:
        return str(exc.args[0])
    return bot_bounds_error(name)


def budget_error(params: dict[str, Any]) -> str | None:
    """Why a bot's parsed parameters (mcts.parse_budget) are out of range, or None."""
    checks = (("iterations", MAX_ITERATIONS, "iterations"), ("seconds", MAX_BOT_SECONDS, "seconds of thought"),
              ("playout", MAX_PLAYOUT, "decisions in a playout"), ("c", MAX_EXPLORATION, "exploration (c=)"),
              ("rave", MAX_RAVE, "RAVE weight (rave=)"))
    for key, hi, what in checks:
        value = params.get(key)
        if value is not None and not (isinstance(value, (int, float)) and math.isfinite(value) and value <= hi):
            return f"a bot may use at most {show_number(hi)} {what}, not {value}"
    return None


def bot_bounds_error(name: str) -> str | None:
    """Why the budget of bot `name` (e.g. `mcts:999999999`) is out of range, or None (also for unknown bots)."""
    base, colon, params = name.partition(":")
    if not colon or base != "mcts":
        return None
    try:
        parsed = parse_budget(params)
    except ValueError:
        return None  # unreadable: make_bot says why
    why = budget_error(parsed)
    return f"{why} (in '{name}')" if why else None
