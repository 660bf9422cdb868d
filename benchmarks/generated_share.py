#!/usr/bin/env python3
"""How much of a compiled random playout is the game's generated code, per bundled game (issue 34's ceilings).

For a game: the functions of its generated source (`orrery compile GAME --source`: the module and the flow), how
many of them a playout runs, and their self time in a CPU profile of seeded random playouts through the public
API (cli/bench.bench_playouts) over all the time profiled.  The rest is the engine's machinery, which the
interpreter runs too: so (machinery + generated) / machinery bounds what any generated code, however good, could
make of compiled / interpreted; see benchmarks/ceiling_lantern_fair.py for the
measured ceiling of one game.

    .venv/bin/python benchmarks/generated_share.py GAME [GAME ...] [--games N] [--players P] [--seconds S]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from orrery.interpreter.cli.bench import bench_playouts  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402

_DEF = re.compile(r"^def ([A-Za-z_][A-Za-z_0-9]*)\(", re.M)


def share(name: str, games: int, players: int | None) -> dict[str, Any]:
    """The generated functions of `name`, those a playout runs, and their self-time share of `games` playouts."""
    game = load_game(name, mode="compiled")
    source = game.rules.compiled.source + "\n" + game.flow_source
    defined = _DEF.findall(source)
    bench_playouts(game, 0.0, players=players, seed=1, min_playouts=2)  # (the first games fill the caches)
    prof = cProfile.Profile(time.process_time)
    prof.runcall(bench_playouts, game, 0.0, players, 1, games)
    total = gen = 0.0
    ran: set[str] = set()
    for (file, _, fname), (_, _, tt, _, _) in pstats.Stats(prof).stats.items():
        total += tt
        if file.startswith("<orrery-"):
            gen += tt
            if not fname.startswith("<"):  # (comprehensions are counted with their function)
                ran.add(fname)
    return {"game": name, "players": players or game.rules.default_players, "games": games,
            "functions": len(defined), "run": len(ran), "profiled_s": round(total, 3),
            "generated_share": round(gen / total, 4)}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("games_", nargs="+", metavar="GAME")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--players", type=int)
    args = p.parse_args(argv)
    for name in args.games_:
        print(share(name, args.games, args.players), flush=True)


if __name__ == "__main__":
    main()
