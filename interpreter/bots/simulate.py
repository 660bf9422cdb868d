"""Bots play many games; results as one JSON-able dict; optional invariant checks after every step."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from .backends import BACKENDS, TaskSpec, play_in_processes, play_on_ray
from .factory import Bot, apply_choice, make_bot
from ..reference.evaluator import Interp
from ..engine.game import Game, GameState
from ..core.values import serialize

STEP_LIMIT_END = "step_limit"


@dataclass
class Violation:
    """An invariant that did not hold."""

    seed: int
    step: int
    invariant: str
    where: str
    value: Any

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"seed": self.seed, "step": self.step, "invariant": self.invariant, "where": self.where,
                "value": self.value}


@dataclass
class GameRecord:
    """One simulated game."""

    seed: int
    winners: list[int]
    scores: list[Any]
    end: str
    steps: int
    violations: list[Violation] = field(default_factory=list)
    cascades: dict[int, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form (the shape `simulate --json` prints)."""
        return {"seed": self.seed, "winners": self.winners, "scores": serialize(self.scores), "end": self.end,
                "steps": self.steps}


def check_invariants(game: Game, gs: GameState, seed: int, step: int,
                     previous: dict[str, Any] | None = None) -> list[Violation]:
    """Evaluate every invariant on the current state; `previous` carries values for never_decreases."""
    out = []
    for name, (kind, expr) in game.rules.invariants.items():
        it = Interp(gs.state.clone(), game.limits)
        try:
            value = it.ev(expr, {})
        except Exception as exc:  # an invariant that cannot even be evaluated is a violation too
            out.append(Violation(seed, step, name, str(expr.span), f"error: {exc}"))
            continue
        if kind == "holds":
            if value is not True:
                out.append(Violation(seed, step, name, str(expr.span), serialize(value)))
            continue
        if previous is not None:
            before = previous.get(name)
            if before is not None and _decreased(before, value):
                out.append(Violation(seed, step, name, str(expr.span),
                                     f"went down from {serialize(before)} to {serialize(value)}"))
            previous[name] = value
    return out


def _decreased(before: Any, after: Any) -> bool:
    """True if a number, or any position of a list of numbers, went down."""
    if isinstance(before, list) and isinstance(after, list):
        return len(before) != len(after) or any(_decreased(b, a) for b, a in zip(before, after))
    try:
        return after < before
    except TypeError:
        return True  # the value changed shape: that is not "never decreases"


def bot_seed(game_seed: int, seat: int) -> int:
    """Each seat's bot gets its own seed derived from the game's."""
    return game_seed * 7919 + seat * 104729 + 1


def play_game(game: Game, players: int, seed: int, bots: list[Bot], max_steps: int = 20_000,
              check: bool = False) -> GameRecord:
    """Play one game with bots to the end (or the step limit)."""
    gs = game.new_initial_state(players=players, seed=seed)
    violations: list[Violation] = []
    previous: dict[str, Any] = {}
    if check:
        violations.extend(check_invariants(game, gs, seed, 0, previous))
    steps = 0
    while not gs.is_terminal():
        if steps >= max_steps:
            scores = [gs.state.pvars[p].get("score") for p in range(players)]
            return GameRecord(seed, [], scores, STEP_LIMIT_END, steps, violations, dict(gs.state.cascades))
        index = bots[gs.current_player()].choose(gs)
        apply_choice(gs, index)
        steps += 1
        if check:
            violations.extend(check_invariants(game, gs, seed, steps, previous))
    o = gs.outcome()
    return GameRecord(seed, o.winners, o.scores, o.end, steps, violations, gs.cascade_lengths())


def simulate(game: Game, games: int, players: int, seed: int, bot_names: list[str], max_steps: int = 20_000,
             check: bool = False, variants: list[str] = (),
             progress: Callable[[int], None] | None = None, jobs: int = 1, backend: str = "local",
             address: str | None = None, batch: int | None = None, start_method: str | None = None) -> dict[str, Any]:
    """Play `games` games; game i uses seed `seed + i`. The same games, faster: in `jobs` processes (forked, or
    spawned where fork is unavailable or `start_method` says so), or as Ray tasks of `batch` games
    (`backend="ray"`: a local Ray instance of `jobs` workers, or the cluster at `address`). Ctrl-C stops it and
    keeps the games played so far (`"interrupted": true`)."""
    if len(bot_names) == 1:
        bot_names = bot_names * players
    if len(bot_names) != players:
        raise ValueError(f"{len(bot_names)} bots given for {players} players")
    task = _Task(game, players, list(bot_names), max_steps, check)
    seeds = [seed + i for i in range(games)]
    records: list[GameRecord] = []
    interrupted = False
    try:
        for record in _play_all(task, seeds, jobs, backend, address, batch, start_method):
            records.append(record)
            if progress:
                progress(len(records))
    except KeyboardInterrupt:
        interrupted = True
    return {
        "interrupted": interrupted,
        "game": game.name,
        "variants": list(variants),
        "players": players,
        "seed": seed,
        "bots": bot_names,
        "results": [r.as_dict() for r in records],
        "summary": summarize(game, records),
        "violations": [v.as_dict() for r in records for v in r.violations],
    }


@dataclass
class _Task:
    """What every game of one simulation shares."""

    game: Game
    players: int
    bot_names: list[str]
    max_steps: int
    check: bool

    def play(self, gseed: int) -> GameRecord:
        """One game, its bots seeded from the game's seed (so the result never depends on who plays it)."""
        bots = [make_bot(name, bot_seed(gseed, k)) for k, name in enumerate(self.bot_names)]
        return play_game(self.game, self.players, gseed, bots, self.max_steps, self.check)


def _play_all(task: _Task, seeds: list[int], jobs: int, backend: str = "local", address: str | None = None,
              batch: int | None = None, start_method: str | None = None) -> Iterator[GameRecord]:
    """The games' records in seed order, played here, by `jobs` processes, or on Ray (bots/backends.py)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if backend == "ray":
        yield from play_on_ray(task_from_spec, _spec_of(task), seeds, jobs, address, batch)
    elif jobs <= 1 or len(seeds) <= 1:
        for gseed in seeds:
            yield task.play(gseed)
    else:
        yield from play_in_processes(task, task_from_spec, lambda: _spec_of(task), seeds, jobs, start_method)


def task_from_spec(spec: TaskSpec) -> _Task:
    """The task of a spec, its game loaded from its files (in a spawned process or a Ray worker)."""
    game = Game.load(spec.path, list(spec.variants), spec.limits, spec.mode)
    return _Task(game, spec.players, list(spec.bot_names), spec.max_steps, spec.check)


def _spec_of(task: _Task) -> TaskSpec:
    """What another process needs to rebuild the task: the game's files, engine and limits, and the settings."""
    if task.game.source is None:
        raise ValueError("this game was not loaded from files: it can only be played in this process or forked")
    path, variants = task.game.source
    return TaskSpec(path, tuple(variants), task.game.mode, task.game.limits, task.players, tuple(task.bot_names),
                    task.max_steps, task.check)


def outcome_kind(record: GameRecord) -> str:
    """How one game counts, exactly once: win, shared win, draw, loss (solitaire) or runaway.

    As the engine scores results (docs/dsl.md, "Winners and results"): in a game of two or more,
    nobody or everybody winning is a draw; several winners but not all (a tie the ranking shares)
    is one shared win; `ranking: {ties: nobody}` leaves a tie without winners, so a draw.
    """
    if record.end == STEP_LIMIT_END:
        return "runaway"
    if len(record.scores) == 1:
        return "win" if record.winners else "loss"
    if not record.winners or len(set(record.winners)) >= len(record.scores):
        return "draw"
    return "win" if len(set(record.winners)) == 1 else "shared win"


def summarize(game: Game, records: list[GameRecord]) -> dict[str, Any]:
    """Counts of end conditions, results (each game counted once), wins per seat, failures and average length."""
    ends = Counter(r.end for r in records)
    kinds = Counter(outcome_kind(r) for r in records)
    wins: Counter = Counter()
    shared: Counter = Counter()
    for r in records:
        kind = outcome_kind(r)
        if kind in ("win", "shared win"):
            for w in sorted(set(r.winners)):
                (wins if kind == "win" else shared)[game.rules.seat_name(w)] += 1
    n = len(records) or 1
    lengths: Counter = Counter()
    for r in records:
        lengths.update(r.cascades)
    return {
        "cascades": {str(k): lengths[k] for k in sorted(lengths)},
        "games": len(records),
        "ends": dict(sorted(ends.items())),
        "outcomes": {k: kinds.get(k, 0) for k in ("win", "shared win", "draw", "loss", "runaway")},
        "wins": dict(sorted(wins.items())),
        "shared_wins": dict(sorted(shared.items())),
        "draws": kinds.get("draw", 0),
        "losses": kinds.get("loss", 0),
        "failures": ends.get(STEP_LIMIT_END, 0),
        "avg_steps": round(sum(r.steps for r in records) / n, 2),
        "max_steps": max((r.steps for r in records), default=0),
        "invariant_violations": sum(len(r.violations) for r in records),
    }
