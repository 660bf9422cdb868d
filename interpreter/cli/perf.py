"""The `bench` and `compile` commands: speed of the two engines, and the fast path's generated source."""

from __future__ import annotations

import argparse
import json
from typing import Any

from orrery.rulespec.errors import InputError

from ..core.options import BENCH_SECONDS, PLAYERS, SEED

EXIT_OK = 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Random playouts per second (and cascade resolutions) with the compiled and/or interpreted engine."""
    from .bench import bench_playouts, ratio
    from .loading import load_game_from_args

    if args.seconds <= 0:
        raise InputError(f"--seconds must be positive, not {args.seconds}")
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


def cmd_compile(args: argparse.Namespace) -> int:
    """Compile a game's rules to Python and report (or show) the generated source."""
    args.mode_override = "compiled"
    from .loading import load_game_from_args

    game, _, _ = load_game_from_args(args)
    module = game.rules.compiled
    if args.show_source:
        print(module.source, end="")
        return EXIT_OK
    lines = module.source.count("\n")
    print(f"{game.name}: {len(module.fns)} rule expressions and effects, {len(module.scans)} cascade scans, "
          f"{lines} lines of Python (spec digest {module.digest[:12]}); --show-source prints them")
    return EXIT_OK


def add_commands(add: Any, game_args: Any) -> None:
    """Register `bench` and `compile` on the CLI's subcommand parser."""
    sp = add("bench", cmd_bench, "Measure random playouts per second (the machinery of simulate --bots random).")
    game_args(sp)
    sp.add_argument("--mode", choices=["compiled", "interpreted", "both"], default="both",
                    help="which engine to measure (default: both, with their ratio)")
    sp.add_argument("--seconds", type=BENCH_SECONDS, default=3.0, help="how long to run each engine (default 3)")
    sp.add_argument("--players", type=PLAYERS, help="number of players (default: the game's default)")
    sp.add_argument("--seed", type=SEED, default=1, help="seed of the first playout (playout i uses seed+i)")
    sp.add_argument("--json", action="store_true", help="print one JSON object per engine")
    sp = add("compile", cmd_compile, "Compile a game's rules to Python (the fast path) and report it.")
    game_args(sp)
    sp.add_argument("--show-source", action="store_true", help="print the generated Python source")
