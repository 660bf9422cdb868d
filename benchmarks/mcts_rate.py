#!/usr/bin/env python3
"""MCTS iterations per CPU second from a game's start position, at a given number of players.

    benchmarks/mcts_rate.py GAME ITERATIONS PLAYERS ROUNDS

The search bot of the player to move (`MctsBot(seat, iterations=N, reuse=False)`, with the game's own bot
hints: playout cap and heuristic) chooses once from the position of seed 1, through the public API (a
FlatGameState where the spec has a flat module); CPU time (`time.process_time`: the machine is shared), each
round printed, then the median (issue 34's target for Bubble Singularity at 4 players: 100 iterations a second).
"""

from __future__ import annotations

import statistics
import sys
import time

from orrery.interpreter.bots.mcts import MctsBot
from orrery.interpreter.engine.game import load_game


def main(argv: list[str]) -> int:
    """Search ROUNDS times from the same position; print each rate and the median."""
    name, iterations, players, rounds = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    game = load_game(name)
    rates = []
    for r in range(rounds):
        state = game.new_initial_state(players=players, seed=1)
        bot = MctsBot(state.current_player(), iterations=iterations, reuse=False)
        start = time.process_time()
        move = bot.choose(state)
        rates.append(bot.stats.get("iterations", 0) / (time.process_time() - start))
        print(f"round {r}: {rates[-1]:,.1f} it/s, move {move}, {bot.stats}", flush=True)
    print(f"# {name}, {players} players: median {statistics.median(rates):,.1f} MCTS iterations per CPU second")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
