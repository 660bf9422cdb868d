#!/usr/bin/env python3
"""One MCTS search from a game's start position, for counting its cost from outside (valgrind, or any timer run from outside).

    benchmarks/mcts_search.py GAME ITERATIONS [PLAYERS]

The search bot of seat 1 (`MctsBot(1, iterations=N, reuse=False)`) chooses once from the position of seed 1;
prints the option it chose, so two checkouts can be checked to choose alike.  The cost of N iterations is this
command minus the same command with 1 iteration (start-up and compiling excluded), as docs/performance.md
measures it: `valgrind --tool=cachegrind --cache-sim=no .venv/bin/python benchmarks/mcts_search.py burbuja 40`.
"""

from __future__ import annotations

import sys

from orrery.interpreter.bots.mcts import MctsBot
from orrery.interpreter.engine.game import load_game


def main(argv: list[str]) -> int:
    """Search once; print the chosen option's index."""
    name, iterations = argv[0], int(argv[1])
    players = int(argv[2]) if len(argv) > 2 else None
    state = load_game(name).new_initial_state(players=players, seed=1)
    print(MctsBot(1, iterations=iterations, reuse=False).choose(state))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
