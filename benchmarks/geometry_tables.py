#!/usr/bin/env python3
"""What the geometry tables of the fast path are worth (compiler/geotables.py), measured in one process.

Each game is compiled twice: as it is, and with the tables turned off (`geotables.call_source` answering
None while it compiles, so `neighbor`, `adjacent`, `direction` and `cell` go through fastlib's generic
`geometry` helper as before).  The same seeded random games are played on each in alternation (CPU time,
garbage collector paused: compiled_parts.play); the figure is the ratio of the medians.

    benchmarks/geometry_tables.py [--rounds 12] [GAME:PLAYERS:GAMES ...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.compiled_parts import play  # noqa: E402
from orrery.interpreter.compiler import geotables  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402

DEFAULT = ["connect-four:2:100", "breakthrough:2:10"]


def without_tables(name: str) -> object:
    """The game compiled with every geometry call on the generic helper."""
    real, cache = geotables.call_source, os.environ.get("ORRERY_CACHE_DIR")
    geotables.call_source = lambda gen, node, fn: None
    os.environ["ORRERY_CACHE_DIR"] = "off"  # (generated here, not read from the disk cache, nor kept in it)
    try:
        return load_game(name, mode="compiled")
    finally:
        geotables.call_source = real
        if cache is None:
            del os.environ["ORRERY_CACHE_DIR"]
        else:
            os.environ["ORRERY_CACHE_DIR"] = cache


def measure(name: str, players: int, games: int, rounds: int) -> tuple[float, float]:
    """Median CPU seconds with the tables, and the speed-up (median without / median with)."""
    variants = {"with": load_game(name, mode="compiled"), "without": without_tables(name)}
    times: dict[str, list[float]] = {k: [] for k in variants}
    for game in variants.values():  # warm the caches and tables
        play(game, players, games, False)
    for r in range(rounds):
        for label in (("with", "without") if r % 2 == 0 else ("without", "with")):  # each first in turn
            times[label].append(play(variants[label], players, games, False))
    med = {k: statistics.median(v) for k, v in times.items()}
    return med["with"], med["without"] / med["with"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=DEFAULT, help="GAME:PLAYERS:GAMES")
    ap.add_argument("--rounds", type=int, default=12)
    args = ap.parse_args(argv)
    print(f"# benchmarks/geometry_tables.py --rounds {args.rounds}  (Python {sys.version.split()[0]}; "
          f"speed-up = median CPU time without the tables / with them)")
    print(f"{'game':22} {'games':>5} {'CPU s':>7} {'speed-up':>8}")
    for item in args.games:
        name, players, games = item.split(":")
        seconds, gain = measure(name, int(players), int(games), args.rounds)
        print(f"{name:22} {games:>5} {seconds:7.3f} {gain:8.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
