#!/usr/bin/env python3
"""Where the time of random playouts goes, by engine layer (issue 17's profile).

Plays seeded random games (the machinery of `orrery bench`: `simulate.play_game` with random bots)
under cProfile and prints, for each game:

* each layer's share of the time spent *in its own code* (cProfile's tottime, summed over the
  functions of the layer's files: the shares add up to 100%);
* the share of a few cross-cutting jobs, each the cumulative time of the functions that do it
  (these overlap each other and the layers: a step menu runs compiled filters, an end check runs
  compiled expressions);
* the top functions by tottime.

    benchmarks/profile_layers.py [--games connect-four bubble-singularity:4] [--playouts N] [--top K]

`GAME:P` plays P players.  cProfile slows the run down about twice, more for many small calls, so
the shares lean towards the layers with the most calls; compare them, not the absolute times.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from orrery.interpreter.bots.factory import RandomBot  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402
from orrery.interpreter.bots.simulate import bot_seed, play_game  # noqa: E402

# layer -> path fragments of its files (the first match wins; compiled code has no file)
LAYERS = [
    ("compiled expressions (generated code)", ("<orrery-compiled",)),
    ("fastlib helpers", ("interpreter/compiler/fastlib.py",)),
    ("flow frame (stage machine, end checks, menus)", ("engine/flowframe.py", "interpreter/engine/flow.py",
                                                       "<orrery-flow")),
    ("frames (effect frames, choose, settle)", ("engine/frames.py", "engine/position.py", "core/suspends.py")),
    ("driver (apply, look-ahead, history)", ("engine/driver.py", "engine/fallible.py")),
    ("evaluator (tree-walker, built-ins, labels)", ("interpreter/reference/evaluator.py", "interpreter/reference/builtins.py",
                                                    "interpreter/compiler/shapes.py")),
    ("effects (statements, parameter menus)", ("interpreter/reference/effects.py", "interpreter/files/atomic.py")),
    ("state (places, pieces, clone)", ("interpreter/core/state.py", "interpreter/core/values.py", "interpreter/core/rng.py")),
    ("decisions and options", ("interpreter/core/decisions.py",)),
    ("rules tables", ("interpreter/core/rules.py",)),
    ("bots and simulate (the benchmark's own loop)", ("interpreter/bots/factory.py", "interpreter/bots/simulate.py")),
    ("Python built-ins (list, dict, isinstance, ...)", ("~",)),
]

# job -> alternatives (file fragment, function name; a trailing * matches a prefix): cumulative time, overlapping.
# Each alternative counts once (its largest cumulative time: recursion); alternatives are added up (the
# reference flow's functions, and the generated flow's, one per timing or step: they do not call each other).
JOBS = [
    ("end checks (check_ends)", (("interpreter/engine/flow.py", "check_ends"), ("<orrery-flow", "ends_*"))),
    ("step menus (_step_menu, parameter menus included)", (("engine/flowframe.py", "_step_menu"),
                                                           ("<orrery-flow", "menu_*"))),
    ("parameter values (param_values, with their filters)", (("interpreter/reference/effects.py", "param_values"),)),
    ("labels (Interp.label)", (("interpreter/reference/evaluator.py", "label"),)),
    ("position clone (Position.clone)", (("engine/position.py", "clone"),)),
    ("state clone (State.clone)", (("interpreter/core/state.py", "clone"),)),
    ("look-ahead (GameState._viable)", (("engine/driver.py", "_viable"),)),
    ("cascade scans (SettleFrame._scan)", (("engine/frames.py", "_scan"),)),
    ("answers (GameState._commit)", (("engine/driver.py", "_commit"),)),
]


def _named(name: str, pattern: str) -> bool:
    return name.startswith(pattern[:-1]) if pattern.endswith("*") else name == pattern


def layer_of(filename: str) -> str:
    """The layer a function's file belongs to ('other' when none matches)."""
    for name, parts in LAYERS:
        if any(p in filename for p in parts):
            return name
    return "other"


def profile(name: str, players: int | None, playouts: int) -> pstats.Stats:
    """cProfile of `playouts` seeded random games of a bundled game on the compiled engine."""
    game = load_game(name, mode="compiled")
    n = players or game.rules.default_players
    game.new_initial_state(players=n, seed=0)  # compile and warm the caches outside the profile
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(1, playouts + 1):
        play_game(game, n, seed, [RandomBot(bot_seed(seed, k)) for k in range(n)])
    prof.disable()
    return pstats.Stats(prof)


def report(stats: pstats.Stats, top: int) -> list[str]:
    """The layer shares, the job shares and the top functions of one profile."""
    total = stats.total_tt
    layers: dict[str, float] = {}
    for (filename, _line, _fn), (_cc, _nc, tt, _ct, _callers) in stats.stats.items():
        layers[layer_of(filename)] = layers.get(layer_of(filename), 0.0) + tt
    out = [f"total {total:.2f} s (profiled)", "", "layer (own time)                                   share"]
    out += [f"  {k:50} {v / total:6.1%}" for k, v in sorted(layers.items(), key=lambda kv: -kv[1])]
    out += ["", "job (cumulative, overlapping)                      share"]
    for label, alternatives in JOBS:
        ct = 0.0
        for part, fn in alternatives:
            hits: dict[str, float] = {}
            for (f, _l, name), st in stats.stats.items():
                if part in f and _named(name, fn):
                    hits[name] = max(hits.get(name, 0.0), st[3])
            ct += sum(hits.values())
        out.append(f"  {label:50} {ct / total:6.1%}")
    out += ["", f"top {top} functions by own time                                  calls   own s  share"]
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:top]
    for (filename, line, fn), (_cc, nc, tt, _ct, _callers) in rows:
        where = filename.split("interpreter/")[-1] if "interpreter/" in filename else filename
        out.append(f"  {fn[:28] + ' (' + where[:24] + ':' + str(line) + ')':60} {nc:>8} {tt:7.2f} {tt / total:6.1%}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="+", default=["connect-four", "bubble-singularity:4"],
                    help="bundled games, GAME or GAME:PLAYERS (default connect-four bubble-singularity:4)")
    ap.add_argument("--playouts", type=int, default=0, help="games to play (default 300, 4 for bubble-singularity)")
    ap.add_argument("--top", type=int, default=15, help="functions listed by own time (default 15)")
    args = ap.parse_args(argv)
    for item in args.games:
        name, _, players = item.partition(":")
        playouts = args.playouts or (4 if name.startswith("bubble") else 300)
        print(f"## {name}, {players or 'default'} players, {playouts} random games, compiled engine")
        print("\n".join(report(profile(name, int(players) if players else None, playouts), args.top)))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
