#!/usr/bin/env python3
"""N seeded random games of a game on the compiled engine (the public API's `play_game`, random bots), for
instruction counts of the engine under cachegrind:

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python benchmarks/seeded_games.py GAME PLAYERS N

(run it with N=0 too: the difference is the games' own instructions, without start-up).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from orrery.interpreter.bots.factory import RandomBot  # noqa: E402
from orrery.interpreter.bots.simulate import bot_seed, play_game  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402


def main(argv: list[str]) -> int:
    name, players, n = argv[0], int(argv[1]), int(argv[2])
    game = load_game(name, mode="compiled")
    game.new_initial_state(players=players, seed=0)  # (the engine made, as for N=0)
    steps = 0
    for seed in range(1, n + 1):
        steps += play_game(game, players, seed, [RandomBot(bot_seed(seed, k)) for k in range(players)]).steps
    print(f"{name} {players}p: {n} games, {steps} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
