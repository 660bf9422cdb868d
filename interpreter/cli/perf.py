"""The `bench` and `compile` commands: speed of the two engines, and the fast path's generated source."""

from __future__ import annotations

import argparse
import json
from typing import Any

from orrery.rulespec.errors import InputError

from ..core.options import BENCH_SECONDS, PLAYERS, ROUNDS, SEED, THINK

EXIT_OK = 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Random playouts per second (and cascade resolutions) with the compiled and/or interpreted engine."""
    from .bench import bench_playouts, ratio
    from .loading import load_game_from_args

    if args.seconds <= 0:
        raise InputError(f"--seconds must be positive, not {args.seconds}")
    if args.report:
        return bench_report(args)
    if not args.game:
        raise InputError("bench: give GAME, or --report for every figure of every bundled game")
    if args.json_file or args.games:
        raise InputError("bench: --json-file and --games go with --report")
    modes = ["compiled", "interpreted"] if args.mode == "both" else [args.mode]
    results: list[dict[str, Any]] = []
    for mode in modes:
        args.mode_override = mode
        game, _, _ = load_game_from_args(args)
        if args.players is not None and not game.rules.min_players <= args.players <= game.rules.max_players:
            raise InputError(f"--players: {game.name} takes {game.rules.player_count_text()}, not {args.players}")
        results.append(bench_playouts(game, args.seconds, args.players, args.seed))
    if args.json:
        for r in results:
            print(json.dumps(r, sort_keys=True))
        return EXIT_OK
    for r in results:
        extra = f", {r['cascades_per_s']} cascades/s" if "cascades_per_s" in r else ""
        print(f"{r['game']} [{r['mode']}]: {r['playouts']} playouts in {r['seconds']} s: "
              f"{r['playouts_per_s']} playouts/s, {r['steps_per_s']} steps/s{extra}")
    if len(results) == 2:
        print(f"compiled / interpreted: {ratio(results[0]['playouts_per_s'], results[1]['playouts_per_s'])}x "
              f"playouts/s")
    return EXIT_OK


def bench_report(args: argparse.Namespace) -> int:
    """`orrery bench --report [GAME ...]`: every figure of issue 17 for the bundled games, with its target."""
    import sys

    from .bench_format import render
    from .bench_report import Settings, run_report
    from ..engine.gamefiles import bundled_games

    games = ([args.game] if args.game else []) + (args.games or [])
    unknown = [g for g in games if g not in bundled_games()]
    if unknown:
        raise InputError(f"bench --report: {', '.join(unknown)} is not a bundled game (see orrery list)")
    if args.variant or args.players is not None or args.mode != "both" or getattr(args, "limit", None):
        raise InputError("bench --report measures the bundled games as they are: leave out --variant, --players, "
                         "--mode and --limit")
    st = Settings(seconds=args.seconds, rounds=args.rounds, games=games, think_budget=args.think,
                  memory_seconds=args.seconds)
    report = run_report(st, None if args.json else lambda msg: print(f"... {msg}", file=sys.stderr, flush=True))
    print(json.dumps(report, indent=2, sort_keys=True) if args.json else render(report), end="\n" if args.json else "")
    if args.json_file:
        write_json(args.json_file, report)
    return EXIT_OK


def write_json(path: str, data: Any) -> None:
    """Write `data` as JSON to `path`; an input error naming the file when it cannot be written."""
    from ..files.atomic import write_atomic  # (a pipe nobody reads is an error, not a wait; no torn file)

    try:
        write_atomic(path, json.dumps(data, indent=2, sort_keys=True))
    except OSError as err:
        raise InputError(f"--json-file {path}: {err.strerror or err}") from None


def cmd_compile(args: argparse.Namespace) -> int:
    """Compile a game's rules to Python and report (or show) the generated source."""
    args.mode_override = "compiled"
    from .loading import load_game_from_args

    game, _, _ = load_game_from_args(args)
    module = game.rules.compiled
    if args.show_source:
        print(module.source, end="")
        print(f"\n# ---- the flow (rounds, phases, turns, steps, end checks)\n{game.flow_source}", end="")
        return EXIT_OK
    lines = module.source.count("\n") + game.flow_source.count("\n")
    print(f"{game.name}: {len(module.fns)} rule expressions and effects, {len(module.scans)} cascade scans, "
          f"{len(module.block_steps)} effect(s) that may ask, {len(module.loop_steps)} loop(s) and "
          f"{len(module.action_steps)} action(s) as resumable steps, the flow of {len(game.rules.phases)} phase(s); {lines} lines of Python (spec digest "
          f"{module.digest[:12]}); --source prints them")
    return EXIT_OK


def add_commands(add: Any, game_args: Any) -> None:
    """Register `bench` and `compile` on the CLI's subcommand parser."""
    sp = add("bench", cmd_bench, "Measure random playouts per second (the machinery of simulate --bots random); "
             "--report: every performance figure of the bundled games, each against its target (docs/performance.md).")
    sp.add_argument("game", metavar="GAME", nargs="?", help="a bundled game's name (see orrery list) or a path to "
                    "rules.yaml (with --report: one bundled game; default every one)")
    sp.add_argument("--variant", action="append", metavar="V", help="a variant name or file (repeatable; stacks)")
    sp.add_argument("--report", action="store_true", help="every figure in one run: both engines, the hand-written "
                    "references, cascades, MCTS, memory, the thinking bot, the decision chain, each with its target")
    sp.add_argument("--games", nargs="+", metavar="G", help="with --report: these bundled games only")
    sp.add_argument("--rounds", type=ROUNDS, default=1,
                    help="with --report: the median of this many rounds (default 1)")
    sp.add_argument("--json-file", metavar="FILE", help="with --report: also write the report as JSON to FILE")
    sp.add_argument("--think", type=THINK, default=0.2, help="with --report: the thinking bot's budget a decision "
                    "(default 0.2 s)")
    sp.add_argument("--mode", choices=["compiled", "interpreted", "both"], default="both",
                    help="which engine to measure (default: both, with their ratio)")
    sp.add_argument("--seconds", type=BENCH_SECONDS, default=3.0, help="how long to run each engine (default 3)")
    sp.add_argument("--players", type=PLAYERS, help="number of players (default: the game's default)")
    sp.add_argument("--seed", type=SEED, default=1, help="seed of the first playout (playout i uses seed+i)")
    sp.add_argument("--json", action="store_true", help="print one JSON object per engine")
    sp = add("compile", cmd_compile, "Compile a game's rules to Python (the fast path) and report it.")
    game_args(sp)
    sp.add_argument("--source", "--show-source", dest="show_source", action="store_true",
                    help="print the generated Python source")
