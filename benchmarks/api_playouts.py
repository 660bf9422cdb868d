#!/usr/bin/env python3
"""Seeded random playouts through the public GameState API, for timing a whole process from outside.

    benchmarks/api_playouts.py GAME GAMES [PLAYERS] [--sampled]

Game i starts from seed i; each decision takes a random legal option (`legal_actions()` then `apply()`,
as `orrery simulate --bots random` does, a copy kept for refusals), or with --sampled one `sample_step`
(the search bots' playouts).  Prints the number of decisions, so two checkouts can be checked to play
the same games; run from outside in two checkouts alternately (`.venv/bin/python benchmarks/api_playouts.py
connect-four 300`), it times them against each other (docs/performance.md).

The cyclic garbage collector runs a full collection once after loading, before the games: a full pass over
everything loaded (the spec, its ASTs, the compiled code: tens of millions of instructions) otherwise falls
wherever the collector's counters happen to stand when loading ends, inside the first game for one checkout
and past the last for another, and "N games minus 0 games" would count it as the games' cost (issue 30's
Burbuja +4.4 %, docs/performance.md).
"""

from __future__ import annotations

import gc
import sys

from orrery.interpreter.core.rng import Rng
from orrery.interpreter.engine.game import load_game


def main(argv: list[str]) -> int:
    """Play the games; print the decisions made."""
    sampled = "--sampled" in argv
    args = [a for a in argv if a != "--sampled"]
    name, games = args[0], int(args[1])
    players = int(args[2]) if len(args) > 2 else None
    game = load_game(name)
    gc.collect()  # (both runs of a measurement, N games and 0, pay it: the games start from the same collector state)
    decisions = 0
    for i in range(games):
        gs = game.new_initial_state(players=players, seed=i)
        rng = Rng(i * 7 + 1)
        while not gs.is_terminal():
            if sampled:
                gs.sample_step(rng)
            else:
                options = gs.legal_actions()
                gs.apply(options[rng.below(len(options))])
            decisions += 1
    print(decisions)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
