"""Seeded games for the workbench, played as `orrery simulate` plays them, with what a report needs on the way.

Game i of a run uses seed `seed + i` and its bots are seeded from the game's seed (bots/simulate.bot_seed), so
a trial is the very game `orrery simulate --seed SEED` plays, and a command line reproduces every figure. On
top of the outcome a trial keeps, per decision, how many options the menu had (the branching factor) and which
seats led the ranking then (decisiveness: from when on the eventual winner led).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from ..bots.factory import apply_choice, make_bot
from ..bots.simulate import STEP_LIMIT_END, _play_all, bot_seed
from ..core.values import serialize
from ..engine.game import Game, GameState
from ..reference.evaluator import Interp


@dataclass
class Trial:
    """One seeded game: its outcome and its course."""

    seed: int
    players: int
    winners: list[int]
    scores: list[Any]
    end: str
    steps: int  # decisions the bots answered
    rounds: int
    first: int  # the seat that answered the first decision
    branching: list[int] = field(default_factory=list)  # the menu's size at each bot decision
    leaders: list[tuple[int, ...]] = field(default_factory=list)  # the seats ranked first after each decision
    history: list[int] = field(default_factory=list)  # the indices applied (GameState.history): replays the game

    @property
    def runaway(self) -> bool:
        """Whether the game hit the step limit instead of ending."""
        return self.end == STEP_LIMIT_END

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form (without the per-decision lists)."""
        return {"seed": self.seed, "winners": self.winners, "scores": serialize(self.scores), "end": self.end,
                "steps": self.steps, "rounds": self.rounds, "first": self.first}


def ranks_players(game: Game) -> bool:
    """Whether the game ranks players by a key (a score or `ranking.by`), so that a leader exists mid-game."""
    r = game.rules
    return r.spec.model.ranking.by is not None or r.score is not None or "score" in r.player_var_names


def leaders(game: Game, gs: GameState) -> tuple[int, ...]:
    """The seats whose ranking keys are the best right now (every seat when the keys cannot be compared)."""
    it = Interp(gs.state.clone(), game.limits)
    try:
        keys = [game.rules.rank_key(it, p) for p in it.s.players]
        best = max(keys)
    except Exception:  # a key that cannot be worked out mid-game (an empty list...): nobody leads alone
        return tuple(range(gs.num_players))
    return tuple(i for i, k in enumerate(keys) if k == best)


def play_trial(game: Game, players: int, seed: int, bot_names: Sequence[str], max_steps: int = 20_000,
               track_leaders: bool = True) -> Trial:
    """Play one game with bots seeded as `orrery simulate` seeds them, recording its course."""
    bots = [make_bot(name, bot_seed(seed, k)) for k, name in enumerate(bot_names)]
    gs = game.new_initial_state(players=players, seed=seed)
    ranked = track_leaders and ranks_players(game)
    branching: list[int] = []
    lead: list[tuple[int, ...]] = []
    first = -1
    while not gs.is_terminal():
        if len(branching) >= max_steps:
            scores = [gs.state.pvars[p].get("score") for p in range(players)]
            return Trial(seed, players, [], scores, STEP_LIMIT_END, len(branching), gs.state.cursor.round,
                         max(first, 0), branching, lead, gs.history())
        seat = gs.current_player()
        first = seat if first < 0 else first
        branching.append(len(gs.legal_actions()))
        apply_choice(gs, bots[seat].choose(gs))
        if ranked:
            lead.append(leaders(game, gs))
    o = gs.outcome()
    return Trial(seed, players, list(o.winners), list(o.scores), o.end, len(branching), gs.state.cursor.round,
                 max(first, 0), branching, lead, gs.history())


@dataclass
class _TrialTask:
    """What every trial of one run shares (the simulation's process pool calls `play(seed)`)."""

    game: Game
    players: int
    bot_names: list[str]
    max_steps: int

    def play(self, gseed: int) -> Trial:
        """One trial."""
        return play_trial(self.game, self.players, gseed, self.bot_names, self.max_steps)


def run_trials(game: Game, games: int, players: int, seed: int, bot_names: Sequence[str], max_steps: int = 20_000,
               jobs: int = 1, progress: Callable[[int], None] | None = None) -> list[Trial]:
    """`games` trials, game i with seed `seed + i`, in `jobs` processes (the same trials for any number)."""
    names = list(bot_names) * players if len(bot_names) == 1 else list(bot_names)
    if len(names) != players:
        raise ValueError(f"{len(bot_names)} bots given for {players} players")
    task = _TrialTask(game, players, names, max_steps)
    out: list[Trial] = []
    for trial in _iter(task, [seed + i for i in range(games)], jobs):
        out.append(trial)
        if progress:
            progress(len(out))
    return out


def _iter(task: _TrialTask, seeds: list[int], jobs: int) -> Iterator[Trial]:
    """The trials in seed order (the simulation's pool when jobs > 1: forked processes share the game)."""
    yield from _play_all(task, seeds, jobs)  # type: ignore[arg-type]  (any task with play(seed) will do)
