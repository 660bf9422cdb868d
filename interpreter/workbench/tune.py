"""The search for the balancing variant: optuna proposes values for a spec's `constants:`, each candidate plays
the same seeded games, clearly worse candidates are pruned after a few games, and the best becomes a variant file.

Each candidate is a real variant (`set: constants.NAME`), loaded and checked like any other, so a value the
spec cannot take fails as it would for a user's variant.  Every candidate plays seeds SEED.. SEED+games-1 (common
random numbers: candidates differ by their rules, not their luck), in rungs of games; after each rung optuna's
pruner may stop a candidate that is in the worst quarter of those before it at that rung.  With optuna's
storage (`storage=sqlite:///FILE`) a search resumes where it stopped.  A parameter set already played is never
played again nor counted as a trial: the sampler is asked again (`FreshProposals`).
"""

from __future__ import annotations

import itertools
import math
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import yaml

from orrery.rulespec.errors import InputError

from ..engine.game import Game
from .metrics import decisiveness, outcome, summary, win_shares
from .trials import Trial, run_trials

OBJECTIVES = ("fairness", "length", "decisiveness")
RUNGS = 4  # a candidate's games come in this many rungs; the pruner looks after each


class MissingOptuna(RuntimeError):
    """optuna is not installed (the optional extra `orrery[workbench]`)."""


class StorageError(RuntimeError):
    """optuna could not open or use the storage given."""


@dataclass(frozen=True)
class Param:
    """A constant to search and its range (whole numbers when the constant is one)."""

    name: str
    low: float
    high: float
    integer: bool

    def space_size(self) -> float:
        """How many values the range holds (infinite for a real range)."""
        return self.high - self.low + 1 if self.integer else math.inf


def parse_param(text: str, game: Game) -> Param:
    """NAME=LO..HI for a constant of the spec written as a number; anything else is a located, plain error."""
    name, eq, rng = text.partition("=")
    name = name.strip()
    lo_text, dots, hi_text = rng.partition("..")
    if not eq or not dots:
        raise InputError(f"--param {text}: expected NAME=LO..HI, e.g. --param {name or 'goal'}=3..9")
    constants = game.spec.model.constants
    if name not in constants:
        from difflib import get_close_matches

        close = get_close_matches(name, list(constants), n=1)
        known = f"did you mean '{close[0]}'?" if close else \
            ("its constants are " + ", ".join(constants) if constants else "it declares no constants:")
        raise InputError(f"--param {text}: '{name}' is not a constant of {game.name} ({known})")
    value = constants[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"--param {text}: constant '{name}' is {_kind(value)}, not a number: only numbers can be "
                         f"searched")
    integer = isinstance(value, int)
    lo, hi = _bound(lo_text, integer, text, name), _bound(hi_text, integer, text, name)
    if lo > hi:
        raise InputError(f"--param {text}: the range is empty ({lo} > {hi})")
    return Param(name, lo, hi, integer)


def _kind(value: Any) -> str:
    return "an expression" if isinstance(value, str) else "a list" if isinstance(value, list) else \
        "a record" if isinstance(value, dict) else "true/false" if isinstance(value, bool) else type(value).__name__


def _bound(text: str, integer: bool, whole: str, name: str) -> float:
    try:
        v = float(text.strip())
    except ValueError:
        v = math.nan
    if not math.isfinite(v):
        raise InputError(f"--param {whole}: '{text.strip()}' is not a number")
    if integer and v != int(v):
        raise InputError(f"--param {whole}: constant '{name}' is a whole number, so its range must be too "
                         f"(not {text.strip()})")
    return int(v) if integer else v


# ------------------------------------------------------------------ objectives


def parse_objective(text: str) -> dict[str, float]:
    """fairness | length | decisiveness | weights like `fairness=1,length=0.01` -> {objective: weight}."""
    out: dict[str, float] = {}
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        name, _, w = part.partition("=")
        if name not in OBJECTIVES:
            raise InputError(f"--objective {text}: '{name}' is not an objective (known: {', '.join(OBJECTIVES)}; "
                             f"weigh them as fairness=1,length=0.01)")
        try:
            weight = float(w) if w else 1.0
        except ValueError:
            weight = math.nan
        if not math.isfinite(weight) or weight < 0:
            raise InputError(f"--objective {text}: the weight of {name} must be a number of at least 0")
        out[name] = weight
    if not out:
        raise InputError("--objective: name one of " + ", ".join(OBJECTIVES))
    return out


def unfairness(trials: Sequence[Trial]) -> float:
    """How far the seats' win rates are from equal shares: the largest gap to (1 - draw rate) / seats.
    A solo game is fair when it is won half the time."""
    n = len(trials)
    if not n:
        return math.inf
    players = trials[0].players
    if players == 1:
        return abs(sum(1 for t in trials if outcome(t) == "win") / n - 0.5)
    rates = [sum(win_shares(t)[s] for t in trials) / n for s in range(players)]
    fair = sum(rates) / players
    return max(abs(r - fair) for r in rates)


def objective_value(weights: dict[str, float], trials: Sequence[Trial]) -> float:
    """The weighted objective to minimise: unfairness, mean length in decisions, earliness of the decision
    (1 - decisiveness: a game decided at the last moment scores 0)."""
    parts = {"fairness": lambda: unfairness(trials),
             "length": lambda: sum(t.steps for t in trials) / len(trials),
             "decisiveness": lambda: 1 - _mean([d for d in map(decisiveness, trials) if d is not None], 0.0)}
    return sum(w * parts[name]() for name, w in weights.items() if w)


def _mean(xs: list[float], empty: float) -> float:
    return sum(xs) / len(xs) if xs else empty


# ------------------------------------------------------------------ the search


def variant_yaml(game_path: Path, values: dict[str, Any], comment: str = "", name: str = "tuned") -> str:
    """A variant file setting the constants (a comment block first, e.g. the measured metrics)."""
    doc = {"variant": {"base": str(game_path), "name": name,
                       "description": "Constants found by orrery tune: " +
                                      ", ".join(f"{k} = {v}" for k, v in values.items())},
           "changes": [{"set": f"constants.{k}", "value": v} for k, v in values.items()]}
    head = "".join(f"# {line}".rstrip() + "\n" for line in comment.splitlines())
    return head + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


@dataclass
class Candidate:
    """One candidate's values, objective and games (pruned: stopped after some rungs)."""

    number: int
    values: dict[str, Any]
    value: float
    games: int
    pruned: bool = False
    trials: list[Trial] = field(default_factory=list, repr=False)
    repeat_of: int | None = None  # a candidate with the same values measured before (its games, not played again)


@dataclass
class Search:
    """What `tune` needs to play a candidate: the game's file and variants, how to play, the objective."""

    game_path: Path
    variants: list[Path]
    load: Callable[[list[Path]], Game]
    params: list[Param]
    weights: dict[str, float]
    games: int
    players: int
    seed: int
    bots: list[str]
    max_steps: int = 20_000
    jobs: int = 1
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="orrery-tune-")))
    candidates: list[Candidate] = field(default_factory=list)

    def play(self, number: int, values: dict[str, Any], report: Callable[[float, int], bool]) -> Candidate:
        """Play a candidate rung by rung; `report(value, games)` returns True when the candidate is to be pruned.

        Values measured before in full are not played again: the same rules on the same seeds play the very same
        games (`run_search` asks its sampler again instead; a caller of `play` may repeat itself)."""
        same = next((c for c in self.candidates if c.values == values and not c.pruned), None)
        if same is not None:
            cand = Candidate(number, values, same.value, same.games, trials=same.trials, repeat_of=same.number)
            self.candidates.append(cand)
            return cand
        path = self.workdir / f"candidate-{number}.yaml"
        path.write_text(variant_yaml(self.game_path, values), encoding="utf-8")
        game = self.load(self.variants + [path])
        trials: list[Trial] = []
        cuts = sorted({max(1, round(self.games * (k + 1) / RUNGS)) for k in range(RUNGS)})
        cand = Candidate(number, values, math.inf, 0)
        for cut in cuts:
            trials += run_trials(game, cut - len(trials), self.players, self.seed + len(trials), self.bots,
                                 self.max_steps, self.jobs)
            cand.value, cand.games, cand.trials = objective_value(self.weights, trials), len(trials), trials
            if cut < self.games and report(cand.value, cut):
                cand.pruned = True
                break
        self.candidates.append(cand)
        return cand


def optuna_module() -> Any:
    """optuna, or MissingOptuna with what to install."""
    try:
        import optuna
    except ImportError:
        raise MissingOptuna("orrery tune needs optuna: pip install 'orrery[workbench]'") from None
    optuna.logging.set_verbosity(optuna.logging.ERROR)  # a rule error ends the search: main reports it, located
    return optuna


def make_sampler(optuna: Any, params: Sequence[Param], trials: int, seed: int, kind: str) -> Any:
    """grid when asked, or (auto) when the whole space fits in the trials; else TPE (or random), seeded."""
    size = math.prod(p.space_size() for p in params)
    if kind == "grid" or (kind == "auto" and size <= trials):
        if size == math.inf:
            raise InputError("--sampler grid: every --param must be a whole-number range")
        return optuna.samplers.GridSampler({p.name: list(range(int(p.low), int(p.high) + 1)) for p in params},
                                           seed=seed)
    if kind == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    return optuna.samplers.TPESampler(seed=seed, n_startup_trials=min(10, max(2, trials // 3)))


def run_search(search: Search, trials: int, sampler: str = "auto", storage: str | None = None,
               study_name: str | None = None, progress: Callable[[Candidate], None] | None = None) -> Any:
    """Run the optuna study (resumed from `storage` when it holds `study_name`); the study is returned."""
    optuna = optuna_module()
    try:
        study = optuna.create_study(direction="minimize", storage=storage, load_if_exists=True,
                                    study_name=study_name or f"orrery-tune-{search.game_path.stem}",
                                    sampler=make_sampler(optuna, search.params, trials, search.seed, sampler),
                                    pruner=optuna.pruners.PercentilePruner(75.0, n_startup_trials=4))
    except (ValueError, ImportError, OSError) as err:  # a storage URL optuna cannot use
        raise StorageError(str(err).splitlines()[0] if str(err) else type(err).__name__) from None
    except Exception as err:  # SQLAlchemy's errors (a folder that does not exist...), without importing it here
        if type(err).__module__.startswith("sqlalchemy"):
            raise StorageError(str(err).splitlines()[0]) from None
        raise

    fresh = FreshProposals(search.params, search.seed, _played(optuna, study, search.params))

    def objective(trial: Any) -> float:
        values = {p.name: trial.suggest_int(p.name, int(p.low), int(p.high)) if p.integer
                  else trial.suggest_float(p.name, p.low, p.high) for p in search.params}
        if not fresh.take(values):
            if fresh.stuck():
                study.enqueue_trial(fresh.nearest_untried(values))
            raise Repeated()

        def report(value: float, games: int) -> bool:
            trial.report(value, games)
            return trial.should_prune()

        cand = search.play(trial.number, values, report)
        trial.set_user_attr("games", cand.games)
        if progress:
            progress(cand)
        if cand.pruned:
            raise optuna.TrialPruned()
        return cand.value

    for _ in range(trials):
        while not fresh.exhausted():
            study.optimize(objective, n_trials=1, catch=(Repeated,))  # a repeat ends as a failed trial: ask again
            if not fresh.asking:
                break
    study.set_user_attr("repeats_asked_again", study.user_attrs.get("repeats_asked_again", 0) + fresh.repeats)
    return study


class Repeated(Exception):
    """A sampler proposed a parameter set the search has played (the trial fails; the sampler is asked again)."""


def played_trials(study: Any) -> tuple[int, int]:
    """How many trials of a study played a parameter set (complete or pruned), and how many proposals were repeats
    asked again (failed trials of the study, in every run of a resumed search)."""
    optuna = optuna_module()
    states = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    return len(study.get_trials(deepcopy=False, states=states)), study.user_attrs.get("repeats_asked_again", 0)


def _played(optuna: Any, study: Any, params: Sequence[Param]) -> set[tuple]:
    """The parameter sets a (resumed) study has played, complete or pruned, in the order of `params`."""
    states = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    return {tuple(t.params.get(p.name) for p in params) for t in study.get_trials(deepcopy=False, states=states)}


class FreshProposals:
    """Only parameter sets not played before.  A sampler (TPE especially, on a small whole-number space) proposes
    values it has already tried, and each repeat would spend a trial of the budget on nothing new (the same rules
    on the same seeds are the same games).  A repeated proposal ends as a failed trial (samplers learn nothing
    from failed trials) and the sampler is asked again; after `ASKS` repeats in a row, the untried set nearest to
    its last proposal is enqueued for the next trial, so the search always moves on."""

    ASKS = 8
    LISTED = 100_000  # whole-number spaces up to this size are listed to find the nearest untried set

    def __init__(self, params: Sequence[Param], seed: int, played: set[tuple]):
        self.params, self.played = list(params), played
        self.rng = random.Random(seed)
        self.size = math.prod(p.space_size() for p in self.params)
        self.repeats = 0  # proposals asked again, in all
        self.in_a_row = 0  # repeats since the last fresh proposal
        self.asking = False  # the last proposal was a repeat: ask again

    def take(self, values: dict[str, Any]) -> bool:
        """Whether `values` were not played before (they count as played from now on)."""
        key = self._key(values)
        self.asking = key in self.played
        if self.asking:
            self.repeats += 1
            self.in_a_row += 1
            return False
        self.played.add(key)
        self.in_a_row = 0
        return True

    def stuck(self) -> bool:
        """The sampler has repeated itself `ASKS` times in a row."""
        return self.in_a_row >= self.ASKS

    def exhausted(self) -> bool:
        """Every set of a whole-number space that can be listed has been played."""
        return self.size <= self.LISTED and next(self._untried(), None) is None

    def nearest_untried(self, values: dict[str, Any]) -> dict[str, Any]:
        """The untried set nearest to `values` (each parameter scaled by its range; ties: the first listed), or, in
        a space too large to list, one drawn at random (seeded) until it is untried."""
        names = [p.name for p in self.params]
        if self.size <= self.LISTED:
            def distance(point: tuple) -> float:
                return sum(abs(v - values[p.name]) / max(1, p.high - p.low) for p, v in zip(self.params, point))

            return dict(zip(names, min(self._untried(), key=distance)))
        while True:
            draw = {p.name: self.rng.randint(int(p.low), int(p.high)) if p.integer else self.rng.uniform(p.low, p.high)
                    for p in self.params}
            if self._key(draw) not in self.played:
                return draw

    def _key(self, values: dict[str, Any]) -> tuple:
        return tuple(values[p.name] for p in self.params)

    def _untried(self) -> Iterator[tuple]:
        """The sets of a whole-number space not played yet, in order."""
        ranges = (range(int(p.low), int(p.high) + 1) for p in self.params)
        return (pt for pt in itertools.product(*ranges) if pt not in self.played)


def metrics_comment(game: Game, trials: Sequence[Trial], objective: str, value: float, command: str) -> str:
    """The measured metrics of the best candidate, for the variant file's comment."""
    lines = [f"Written by: {command}", f"Objective {objective} = {value:.4f} over {len(trials)} games "
             f"(seeds {trials[0].seed}..{trials[-1].seed}); 95% intervals:"]
    for name, est in summary(game, trials).items():
        lines.append(f"  {name}: {est.value:.3f} [{est.low:.3f}, {est.high:.3f}] (n = {est.n})")
    return "\n".join(lines)
