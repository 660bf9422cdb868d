#!/usr/bin/env python3
"""MCTS iterations per second from a game's start on the flat state against the same search on the general one.

    benchmarks/mcts_flat.py GAME ITERATIONS ROUNDS

The search bot of seat 1 (`MctsBot(1, iterations=N, reuse=False)`) chooses once from the position of seed 1,
on the public GameState a new game is (a FlatGameState where the spec has a flat module), then on the general
GameState of the same position (the bot's `as_flat` turned off): the same move and the same tree (tests/
test_flatapi.py checks that).  CPU time (`time.process_time`: the machine is shared), rounds interleaved, the
median of each printed with their ratio (issue 34).
"""

from __future__ import annotations

import statistics
import sys
import time

from orrery.interpreter.bots import mcts as M
from orrery.interpreter.engine.game import load_game


def search(game, iterations: int, flat: bool, real) -> tuple[float, int]:
    """(iterations per CPU second, the move chosen) of one search."""
    M.as_flat = real if flat else (lambda gs: gs)
    state = game.new_initial_state(seed=1) if flat else game.start_state(game.num_players(), 1)
    bot = M.MctsBot(1, iterations=iterations, reuse=False)
    start = time.process_time()
    move = bot.choose(state)
    return iterations / (time.process_time() - start), move


def main(argv: list[str]) -> int:
    """Interleaved rounds; print each and the medians."""
    name, iterations, rounds = argv[0], int(argv[1]), int(argv[2])
    game, real = load_game(name), M.as_flat
    seen: dict[bool, list[float]] = {True: [], False: []}
    for r in range(rounds):
        for flat in (True, False):
            rate, move = search(game, iterations, flat, real)
            seen[flat].append(rate)
            print(f"round {r} {'flat' if flat else 'general'}: {rate:,.1f} it/s, move {move}", flush=True)
    f, g = statistics.median(seen[True]), statistics.median(seen[False])
    print(f"# {name}: median flat {f:,.1f} it/s, general {g:,.1f} it/s, x {f / g:.2f} (CPU time)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
