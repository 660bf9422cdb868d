#!/usr/bin/env python3
"""Seeded random playouts through the lean path (engine/lean.py), for timing a whole process from outside.

    benchmarks/lean_playouts.py GAME GAMES [PLAYERS]

Game i starts from seed i (a copy of the prepared start position where the setup draws nothing random); each
decision takes a uniformly random option of `random.Random(i * 7 + 1)` (the C generator the lean path's
playouts use).  Prints the number of decisions, so two checkouts can be checked to play the same games;
`valgrind --tool=cachegrind` over it minus the same with 0 games counts the instructions of the games.
"""

from __future__ import annotations

import random
import sys

from orrery.interpreter.engine.game import load_game
from orrery.interpreter.engine.lean import lean_state


def main(argv: list[str]) -> int:
    """Play the games; print the decisions made."""
    name, games = argv[0], int(argv[1])
    players = int(argv[2]) if len(argv) > 2 else None
    game = load_game(name)
    decisions = 0
    for i in range(games):
        decisions += lean_state(game, i, players).playout(random.Random(i * 7 + 1))
    print(decisions)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
