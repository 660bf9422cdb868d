"""The designer's workbench on the command line: `orrery compare`, `report`, `coverage` and `tune` (docs/workbench.md).

Every command plays seeded games exactly as `orrery simulate --seed SEED` does (game i: seed SEED+i), so the
command line reproduces its figures; its default seed is 1, not a drawn one, for that reason.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import TYPE_CHECKING, Any

from orrery.rulespec.errors import InputError, printable

from ..core.options import GAMES, JOBS, PLAYERS, SEED
from .loading import load_game_from_args, parse_bots, parse_limits
from .progress import progress

if TYPE_CHECKING:  # the workbench's modules are imported when a command runs, not when the parser is built
    from ..workbench.trials import Trial

EXIT_OK = 0


# ------------------------------------------------------------------ shared


def load_side(args: argparse.Namespace, variants: list[str]) -> Any:
    """The game of GAME with these variants (stacked in order), the engine and limits of the command."""
    ns = argparse.Namespace(game=args.game, variant=variants, limit=args.limit, mode=getattr(args, "mode", None))
    game, _, _ = load_game_from_args(ns)
    return game


def bots_of(args: argparse.Namespace, players: int) -> list[str]:
    """The --bots option as one bot name per seat; a bot that cannot be made is bad input."""
    bots = parse_bots(args.bots, players)
    return bots * players if len(bots) == 1 else bots


def players_of(args: argparse.Namespace, game: Any) -> int:
    """--players, or the game's default; a count the game does not take is bad input."""
    n = game.rules.default_players if args.players is None else args.players
    r = game.rules
    if not r.min_players <= n <= r.max_players:
        raise InputError(f"{game.name} takes {r.player_count_text()}, not {n}")
    return n


def play(args: argparse.Namespace, game: Any, players: int, bots: list[str], label: str = "") -> list[Trial]:
    """The command's seeded games with a progress bar (when stderr is a terminal)."""
    from ..workbench.trials import run_trials

    _, _, steps = parse_limits(args)
    with progress(args.games, quiet=getattr(args, "json", False)) as tick:
        return run_trials(game, args.games, players, args.seed, bots, max_steps=steps, jobs=args.jobs, progress=tick)


def add_play_options(sp: argparse.ArgumentParser, games: int) -> None:
    """--games, --players, --bots, --seed, --jobs and --mode, as `simulate` reads them."""
    sp.add_argument("--games", type=GAMES, default=games, help=f"how many games (default {games})")
    sp.add_argument("--players", type=PLAYERS, help="number of players (default: the game's default)")
    sp.add_argument("--bots", default="random", help="bot for every seat, or one per seat (comma-separated): "
                    "random, first, greedy, mcts or mcts:BUDGET (default random)")
    sp.add_argument("--seed", type=SEED, default=1, help="seed of the first game (game i uses seed+i; default 1)")
    sp.add_argument("--jobs", type=JOBS, default=1, help="processes playing games side by side (default 1); the "
                    "results are the same for any number")
    sp.add_argument("--mode", choices=["compiled", "interpreted"], help="engine (default compiled); both give "
                    "identical games")


# ------------------------------------------------------------------ compare


def side_variants(text: str | None) -> list[str]:
    """One side of a comparison: variants stacked with commas (none: the game as written)."""
    return [v.strip() for v in (text or "").split(",") if v.strip()]


def cmd_compare(args: argparse.Namespace) -> int:
    """Variant A/B on paired seeds: each metric's difference with its interval and significance."""
    from ..workbench.compare import TEST_NAME, compare_trials, format_table

    sides = args.variant or []
    if not 1 <= len(sides) <= 2:
        raise InputError("compare: give --variant B (the game as written against B) or --variant A --variant B")
    a, b = ([], side_variants(sides[0])) if len(sides) == 1 else (side_variants(sides[0]), side_variants(sides[1]))
    game_a, game_b = load_side(args, a), load_side(args, b)
    players = players_of(args, game_a)
    players_of(args, game_b)
    bots = bots_of(args, players)
    trials_a = play(args, game_a, players, bots)
    trials_b = play(args, game_b, players, bots)
    diffs = compare_trials(game_a, trials_a, game_b, trials_b)
    label_a, label_b = "+".join(a) or "as written", "+".join(b) or "as written"
    if args.json:
        print(json.dumps({"game": game_a.name, "a": a, "b": b, "players": players, "bots": bots, "seed": args.seed,
                          "games": args.games, "test": TEST_NAME, "metrics": [d.as_dict() for d in diffs]},
                         sort_keys=True))
        return EXIT_OK
    print(printable(f"{game_a.name}: A = {label_a}, B = {label_b}; {args.games} paired games, {players} players, "
                    f"seed {args.seed}, bots {','.join(bots)}"))
    print(printable(format_table(diffs, "A", "B")))
    return EXIT_OK


# ------------------------------------------------------------------ coverage


def coverage_text(uses: list[Any], games: int, show_all: bool) -> str:
    """The coverage as text: per kind how many rules fired, then every rule never fired / never legal."""
    from ..workbench.coverage import KINDS, PLURAL, never_fired, never_fired_listing, never_legal

    lines = [f"rule coverage in {games} games (fired: performed, run or read at least once)"]
    for kind in KINDS:
        of = [u for u in uses if u.kind == kind]
        if of:
            lines.append(f"  {PLURAL[kind]:16} {sum(1 for u in of if u.fired):4} of {len(of):4} fired")
    dead = never_fired(uses)
    lines.append(f"never fired ({len(dead)}):" if dead else "every rule fired at least once")
    lines += [f"  {where}: {kind} {name}" for where, kind, name in never_fired_listing(uses)]
    unreachable = never_legal(uses)
    if unreachable:
        lines.append(f"never legal ({len(unreachable)}): no menu (a step's or a window's) offered these actions")
        lines += [f"  {u.where}: action {u.name}" for u in unreachable]
    if show_all:
        lines.append("every rule (fired / legal):")
        lines += [f"  {u.where}: {u.kind} {u.name}: {u.fired}" + ("" if u.legal is None else f" / {u.legal}")
                  for u in uses]
    return "\n".join(lines)


def cmd_coverage(args: argparse.Namespace) -> int:
    """Which rules fired in seeded games, which never did and which actions were never legal, with FILE:LINE."""
    from ..workbench.coverage import coverage

    game = load_side(args, args.variant or [])
    players = players_of(args, game)
    trials = play(args, game, players, bots_of(args, players))
    uses = coverage(game, trials, args.jobs)
    if args.json:
        print(json.dumps({"game": game.name, "games": args.games, "seed": args.seed, "players": players,
                          "rules": [u.as_dict() for u in uses]}, sort_keys=True))
    else:
        print(printable(f"{game.name}: {args.games} games, {players} players, seed {args.seed}, bots {args.bots}"))
        print(printable(coverage_text(uses, args.games, args.all)))
    return EXIT_OK


# ------------------------------------------------------------------ report


def command_line(args: argparse.Namespace, name: str, extra: list[str]) -> str:
    """The command line that plays the same games again."""
    import shlex

    parts = ["orrery", name, args.game] + [a for v in args.variant or [] for a in ("--variant", v)]
    if args.players is not None:
        parts += ["--players", str(args.players)]
    parts += ["--games", str(args.games), "--bots", args.bots, "--seed", str(args.seed)] + extra
    return " ".join(shlex.quote(p) for p in parts)


def cmd_report(args: argparse.Namespace) -> int:
    """Play seeded games and write the balance report: an HTML page and its PNG figures."""
    from pathlib import Path

    from ..workbench.compare import compare_trials
    from ..workbench.plots import MissingPlotting, pyplot
    from ..workbench.report import Report, write_report

    try:
        pyplot()
    except MissingPlotting as err:
        raise InputError(str(err)) from None
    if args.games < 1:
        raise InputError("report: --games must be at least 1 (a report rests on games)")
    game = load_side(args, args.variant or [])
    players = players_of(args, game)
    bots = bots_of(args, players)
    trials = play(args, game, players, bots)
    report = Report(game, trials, command_line(args, "report", ["--out", args.out]), args.variant or [], bots,
                    args.seed)
    if args.compare_with:
        other = load_side(args, (args.variant or []) + side_variants(args.compare_with))
        players_of(args, other)
        report.comparison = ("as above", "+ " + args.compare_with,
                             compare_trials(game, trials, other, play(args, other, players, bots)))
    if not args.no_coverage:
        from ..workbench.coverage import coverage
        from ..workbench.report import coverage_html

        report.coverage_html = coverage_html(coverage(game, trials, args.jobs), len(trials))
    page = write_report(report, Path(args.out))
    print(printable(f"wrote {page} ({len(trials)} games); open it in a browser"))
    return EXIT_OK


# ------------------------------------------------------------------ tune


def cmd_tune(args: argparse.Namespace) -> int:
    """Search the spec's constants for the variant that best meets the objective; write it as a variant file."""
    import os
    from pathlib import Path

    from ..engine.gamefiles import resolve_game, resolve_variant
    from ..workbench import tune as T
    from ..workbench.trials import run_trials

    try:
        T.optuna_module()
    except T.MissingOptuna as err:
        raise InputError(str(err)) from None
    game = load_side(args, args.variant or [])
    players = players_of(args, game)
    bots = bots_of(args, players)
    params = [T.parse_param(p, game) for p in args.param]
    if len({p.name for p in params}) != len(params):
        raise InputError("--param: each constant once")
    weights = T.parse_objective(args.objective)
    if args.games < 1 or args.trials < 1:
        raise InputError("tune: --games and --trials must be at least 1")
    out = Path(args.out or f"tuned-{game.name}.yaml")
    _may_write(out)
    path = resolve_game(args.game)
    variants = [resolve_variant(path, v) for v in args.variant or []]
    _, _, steps = parse_limits(args)
    search = T.Search(path, variants, lambda vs: load_side(args, [str(v) for v in vs]), params, weights,
                      args.games, players, args.seed, bots, steps, args.jobs)
    _check_bounds(search, args.param)

    def show(c: T.Candidate) -> None:
        values = ", ".join(f"{k}={v}" for k, v in c.values.items())
        print(printable(f"  trial {c.number}: {values}: {args.objective} {c.value:.4f} after {c.games} games"
                        + (" (pruned)" if c.pruned else "")), flush=True)

    try:
        study = T.run_search(search, args.trials, args.sampler, args.storage, args.study, progress=show)
    except T.StorageError as err:
        raise InputError(f"--storage {args.storage}: {err}") from None
    best = study.best_trial
    values = {p.name: best.params[p.name] for p in params}
    kept = [c for c in search.candidates if c.values == values and not c.pruned]
    trials = kept[0].trials if kept else run_trials(search.load(variants + [_write_candidate(search, values)]),
                                                    args.games, players, args.seed, bots, steps, args.jobs)
    command = command_line(args, "tune", [a for p in args.param for a in ("--param", p)] +
                           ["--objective", args.objective, "--trials", str(args.trials)])
    tuned_game = search.load(variants + [_write_candidate(search, values)])
    comment = T.metrics_comment(tuned_game, trials, args.objective, T.objective_value(weights, trials), command)
    if variants:
        comment += "\nApply it after: " + " ".join(f"--variant {v}" for v in args.variant)
    base = os.path.relpath(path.resolve(), out.resolve().parent)  # near the rules: a path that moves with them
    out.write_text(T.variant_yaml(Path(base if not base.startswith(os.pardir + os.sep + os.pardir) else path.resolve()),
                                  values, comment), encoding="utf-8")
    load_side(args, [str(v) for v in variants] + [str(out)])  # the file written is a variant that loads and checks
    played, asked_again = T.played_trials(study)
    space = math.prod(p.space_size() for p in params)
    note = "".join([f"; {asked_again} repeated proposals asked again" if asked_again else "",
                    f"; all {int(space)} parameter sets of the ranges played" if played >= space else ""])
    note = f" ({note[2:]})" if note else ""
    print(printable(f"best of {played} trials{note}: " + ", ".join(f"{k}={v}" for k, v in values.items())
                    + f" ({args.objective} {best.value:.4f}); wrote {out} (a checked variant)"))
    return EXIT_OK


def _check_bounds(search: Any, given: list[str]) -> None:
    """Both ends of every range must make rules the spec accepts (a size of 0, a type the constant refuses...)."""
    from orrery.rulespec.errors import OrreryError

    for p, text in zip(search.params, given):
        for v in (p.low, p.high):
            try:
                search.load(search.variants + [_write_candidate(search, {p.name: v})])
            except OrreryError as err:
                first = err.findings[0].message if err.findings else str(err)
                raise InputError(f"--param {text}: {p.name} = {v} is refused by the rules: {first}") from None


def _write_candidate(search: Any, values: dict[str, Any]) -> Any:
    path = search.workdir / "best.yaml"
    from ..workbench.tune import variant_yaml

    path.write_text(variant_yaml(search.game_path, values), encoding="utf-8")
    return path


def _may_write(out: Any) -> None:
    """Refuse to overwrite a file that `orrery tune` did not write."""
    if out.exists():
        try:
            first = out.read_text(encoding="utf-8", errors="replace").splitlines()[:1]
        except OSError:
            first = []
        if not out.is_file() or not first or not first[0].startswith("# Written by: orrery tune"):
            raise InputError(f"--out {out}: the file exists and was not written by orrery tune; choose another")


# ------------------------------------------------------------------ registration


def add_commands(add: Any, game_args: Any) -> None:
    """Register the workbench's commands on the CLI's subcommand parser."""
    sp = add("compare", cmd_compare, "Compare two variants on paired seeds: every metric's difference with a 95%% "
             "interval and whether it is significant (paired t-test, Holm-corrected).")
    sp.add_argument("game", metavar="GAME", help="a bundled game's name (see orrery list) or a path to rules.yaml")
    sp.add_argument("--variant", action="append", metavar="V[,V2...]", help="once: the game as written (A) "
                    "against this variant (B); twice: A against B. Commas stack variants on one side")
    add_play_options(sp, 200)
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp = add("coverage", cmd_coverage, "Play seeded games and list, for every action, trigger, procedure, effect "
             "branch, table row, card and end condition, how often it fired (and each action how often it was "
             "legal); the rules never fired and the actions never legal are listed with FILE:LINE.")
    game_args(sp)
    add_play_options(sp, 200)
    sp.add_argument("--all", action="store_true", help="list every rule with its counts, not only the unused")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp = add("tune", cmd_tune, "Search the spec's constants (optuna) for the variant that best meets an objective "
             "and write it as a variant file with its measured metrics.")
    game_args(sp)
    sp.add_argument("--param", action="append", required=True, metavar="NAME=LO..HI", help="a constant to search "
                    "and its range (repeatable), e.g. --param goal=5..12")
    sp.add_argument("--objective", default="fairness", help="what to minimise: fairness (seats' win rates equal), "
                    "length (mean decisions), decisiveness (decided late), or weights: fairness=1,length=0.01")
    sp.add_argument("--trials", type=GAMES, default=20, help="candidates to try (default 20)")
    add_play_options(sp, 100)
    sp.add_argument("--sampler", choices=["auto", "grid", "tpe", "random"], default="auto", help="optuna's "
                    "sampler (auto: every value when the space fits in --trials, else TPE)")
    sp.add_argument("--storage", metavar="URL", help="optuna storage to keep and resume the search, e.g. "
                    "sqlite:///tune.db")
    sp.add_argument("--study", metavar="NAME", help="the study's name in --storage (default orrery-tune-GAME)")
    sp.add_argument("--out", metavar="FILE", help="the variant file to write (default tuned-GAME.yaml)")
    sp = add("report", cmd_report, "Play seeded games and write a balance report to --out: an HTML page (no "
             "network needed) with PNG plots of win rates, game length, score margins, end conditions, branching "
             "factor and decisiveness, each with the games it rests on.")
    game_args(sp)
    add_play_options(sp, 200)
    sp.add_argument("--out", required=True, metavar="DIR", help="the folder to write index.html and the PNGs to")
    sp.add_argument("--compare-with", metavar="V[,V2...]", help="also play the same seeds with these variants "
                    "added and show the comparison")
    sp.add_argument("--no-coverage", action="store_true", help="leave out the rule coverage (it replays every "
                    "game on the reference interpreter)")
