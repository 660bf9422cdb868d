#!/usr/bin/env python3
"""What each compiled part of the fast path is worth, measured in one process (issue 17, item 2).

For each game, seeded random games are played on the compiled engine twice per round, once with the part
and once without it, in alternation, and the CPU time (time.process_time: less disturbed by other processes
than wall time) of each is kept; the figure is the ratio of the medians.  Parts:

- `flow`: the flow generated per spec (compiler/flowgen.py) against the reference stage machine
  (engine/flowframe.FlowFrame), swapped through `Game.flow_frame`;
- `effects`: the generated steps of the effects that may ask, their loops, the actions and the events
  (compiler/effectgen.py) against the reference's frames (engine/frames.py: statements one by one through
  the statement functions, whose expressions are compiled), swapped by emptying the compiled module's
  frame tables for the measurement only.

Both variants play the same games (the differential tests prove the engines equal); random answers come
from legal_actions() (exact menus) or, with --sampled, from sample_step (the playouts MCTS uses).

    benchmarks/compiled_parts.py [--rounds 5] [--sampled] [GAME[:PLAYERS]:GAMES ...]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from orrery.interpreter.core.rng import Rng  # noqa: E402
from orrery.interpreter.engine.flowframe import FlowFrame  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402

DEFAULT = ["connect-four:2:200", "tic-tac-toe:2:300", "breakthrough:2:10", "reversi:2:6", "burbuja:1:6",
           "bubblee-pop:2:4", "bubble-singularity:4:2"]


def frame_tables(module) -> tuple[dict, dict, dict]:
    """The compiled module's generated frame classes (engine/framescompiled.py): blocks, actions, events."""
    return module.block_frames, module.action_frames, module.event_frames


def use_frames(module, tables: tuple[dict, dict, dict]) -> None:
    module.block_frames, module.action_frames, module.event_frames = tables


def play(game, players: int, games: int, sampled: bool) -> float:
    """CPU seconds for `games` seeded random games (the garbage collector paused while they run: its
    pauses fall wherever the heap happens to fill, which made single figures differ by up to 30%)."""
    gc.collect()
    gc.disable()
    try:
        return _play(game, players, games, sampled)
    finally:
        gc.enable()


def _play(game, players: int, games: int, sampled: bool) -> float:
    start = time.process_time()
    for k in range(games):
        gs = game.new_initial_state(players=players, seed=1 + k)
        rng = Rng(1000 + k)
        while not gs.is_terminal():
            if sampled:
                gs.sample_step(rng)
            else:
                legal = gs.legal_actions()
                gs.apply(legal[rng.below(len(legal))])
    return time.process_time() - start


def measure(name: str, players: int, games: int, rounds: int, sampled: bool) -> dict[str, float]:
    """The speed-up of each part: median CPU time without it over median CPU time with it."""
    game = load_game(name, mode="compiled")
    generated, module = game.flow_frame, game.rules.compiled
    steps, reference = frame_tables(module), ({}, {}, {})
    setups = {"all": (generated, steps), "no flow": (FlowFrame, steps),
              "no effects": (generated, reference), "neither": (FlowFrame, reference)}
    times: dict[str, list[float]] = {k: [] for k in setups}
    try:
        labels = list(setups)
        for label in labels:  # warm every variant's caches (late-compiled code, geometry, the code itself)
            game.flow_frame, tables = setups[label]
            use_frames(module, tables)
            play(game, players, games, sampled)
        for r in range(rounds):
            for label in labels[r % 4:] + labels[:r % 4]:  # each variant goes first in turn (drift)
                game.flow_frame, tables = setups[label]
                use_frames(module, tables)
                times[label].append(play(game, players, games, sampled))
    finally:
        game.flow_frame = generated
        use_frames(module, steps)
    med = {k: statistics.median(v) for k, v in times.items()}
    return {"flow": med["no flow"] / med["all"], "effects": med["no effects"] / med["all"],
            "both": med["neither"] / med["all"], "seconds": med["all"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=DEFAULT, help="GAME:PLAYERS:GAMES (default: every bundled game)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sampled", action="store_true", help="sampled playouts (sample_step) instead of exact menus")
    args = ap.parse_args(argv)
    print(f"# benchmarks/compiled_parts.py --rounds {args.rounds}{' --sampled' if args.sampled else ''}  "
          f"(Python {sys.version.split()[0]}; speed-up = median CPU time without the part / with it)")
    print(f"{'game':22} {'games':>5} {'CPU s':>7} {'flow':>6} {'effects':>7} {'both':>6}")
    for item in args.games:
        name, players, games = item.split(":")
        r = measure(name, int(players), int(games), args.rounds, args.sampled)
        print(f"{name:22} {games:>5} {r['seconds']:7.3f} {r['flow']:6.3f} {r['effects']:7.3f} {r['both']:6.3f}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
