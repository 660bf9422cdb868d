"""What a designer measures in a set of trials, per game and in aggregate, each draw counted once.

Per game (`game_metrics`), as numbers that can be averaged and paired: each seat's share of the win (1 for a
sole winner, 1/k for each of k sharing winners, 0 in a draw: nobody or everybody won), whether it was a draw,
its length in decisions and in rounds, the score margin between first and second place, decisiveness (the
fraction of the game after which the eventual sole winner led for good, as Ludii's DecisivenessMoves), the
mean branching factor, and which end condition ended it.  `summary` aggregates them with 95 % intervals.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Sequence

from .stats import Estimate, mean_interval, wilson
from .trials import Trial


def is_number(v: Any) -> bool:
    """A real number (not a bool)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def outcome(t: Trial) -> str:
    """win, shared win, draw, loss (a solo game without a winner) or runaway: each game exactly one."""
    if t.runaway:
        return "runaway"
    if t.players == 1:
        return "win" if t.winners else "loss"
    won = set(t.winners)
    if not won or len(won) >= t.players:
        return "draw"
    return "win" if len(won) == 1 else "shared win"


def win_shares(t: Trial) -> list[float]:
    """Each seat's share of this game's win (they add up to 1, or to 0 in a draw or a runaway)."""
    kind = outcome(t)
    shares = [0.0] * t.players
    if kind in ("win", "shared win"):
        won = sorted(set(t.winners))
        for w in won:
            shares[w] = 1.0 / len(won)
    return shares


def margin(t: Trial) -> float | None:
    """First place's score minus second place's (None: fewer than two seats, or scores that are not numbers)."""
    if t.players < 2 or not all(is_number(s) for s in t.scores):
        return None
    top = sorted(t.scores, reverse=True)
    return float(top[0] - top[1])


def decisiveness(t: Trial) -> float | None:
    """The fraction of the game (0..1) after which the eventual sole winner was the sole leader to the end.

    0: the winner led from the first decision on; 1: only the last decision made them the leader.  None when the
    game has no sole winner or keeps no ranking.
    """
    if outcome(t) != "win" or not t.leaders or t.players < 2:
        return None
    winner = t.winners[0]
    k = len(t.leaders)
    while k > 0 and t.leaders[k - 1] == (winner,):
        k -= 1
    return k / len(t.leaders)


def mean_branching(t: Trial) -> float | None:
    """The average size of the menus the bots chose from in this game."""
    return sum(t.branching) / len(t.branching) if t.branching else None


def game_metrics(t: Trial, ends: Sequence[str]) -> dict[str, float | None]:
    """This game's metrics by name (None where a metric does not apply to it)."""
    out: dict[str, float | None] = {}
    if t.players > 1:
        for seat, share in enumerate(win_shares(t)):
            out[f"win rate seat {seat + 1}"] = share
        out["first player wins"] = win_shares(t)[t.first]
        out["draw rate"] = 1.0 if outcome(t) == "draw" else 0.0
        out["score margin"] = margin(t)
        out["decisiveness"] = decisiveness(t)
    else:
        out["win rate"] = 1.0 if outcome(t) == "win" else 0.0
        out["score"] = float(t.scores[0]) if t.scores and is_number(t.scores[0]) else None
    out["length (decisions)"] = float(t.steps)
    out["length (rounds)"] = float(t.rounds)
    out["branching factor"] = mean_branching(t)
    for end in ends:
        out[f"ended by {end}"] = 1.0 if t.end == end else 0.0
    return out


RATES = ("win rate", "draw rate", "first player wins", "ended by")  # metrics that are proportions


def is_rate(name: str) -> bool:
    """Whether a metric is a proportion of games (Wilson interval) rather than a mean."""
    return name.startswith(RATES)


def end_names(game: Any, trials: Sequence[Trial]) -> list[str]:
    """The spec's end conditions, then any other end seen (the step limit)."""
    names = list(game.rules.spec.model.end)
    return names + sorted({t.end for t in trials} - set(names))


def summary(game: Any, trials: Sequence[Trial]) -> dict[str, Estimate]:
    """Every metric over the trials: a rate with Wilson's interval, a mean with the t interval."""
    ends = end_names(game, trials)
    per_game = [game_metrics(t, ends) for t in trials]
    names = list(per_game[0]) if per_game else []
    out: dict[str, Estimate] = {}
    for name in names:
        xs = [m[name] for m in per_game if m.get(name) is not None]
        if not xs:
            continue
        out[name] = wilson(sum(xs), len(xs)) if is_rate(name) else mean_interval(xs)
    return out


def outcome_counts(trials: Sequence[Trial]) -> dict[str, int]:
    """How many games were wins, shared wins, draws, losses and runaways (each game once)."""
    kinds = Counter(outcome(t) for t in trials)
    return {k: kinds.get(k, 0) for k in ("win", "shared win", "draw", "loss", "runaway")}


def first_player_advantage(trials: Sequence[Trial]) -> Estimate | None:
    """The first player's win rate minus a fair share (1/players), with its interval (None for solo games)."""
    multi = [t for t in trials if t.players > 1]
    if not multi:
        return None
    fair = 1.0 / multi[0].players
    rate = wilson(sum(win_shares(t)[t.first] for t in multi), len(multi))
    return Estimate(rate.value - fair, rate.low - fair, rate.high - fair, rate.n)
