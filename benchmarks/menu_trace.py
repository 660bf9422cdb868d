#!/usr/bin/env python3
"""A hash of every menu of seeded random games, for checking that a change of the engine plays the same games.

    benchmarks/menu_trace.py GAME PLAYERS GAMES MODE [--sampled]

Game i starts from seed i and answers with `Rng(i * 7 + 1)` (as benchmarks/api_playouts.py).  At every decision
the player, prompt, kind, options (index, label), `reasons`, `rejected` and `GameState.digest()` go into the hash,
and at each game's end its returns, digest and history; with --sampled each `sample_step` answer and the digest
after it.  Prints the game, the number of decisions and the hash: two checkouts printing the same line played
the same games with the same menus and reasons (docs/performance.md, issue 34 session 10).
"""

from __future__ import annotations

import hashlib
import sys

from orrery.interpreter.core.rng import Rng
from orrery.interpreter.engine.game import load_game


def main(argv: list[str]) -> int:
    """Play the games; print the decisions made and the hash."""
    sampled = "--sampled" in argv
    argv = [a for a in argv if a != "--sampled"]
    name, players, games, mode = argv[0], int(argv[1]), int(argv[2]), argv[3]
    game = load_game(name, mode=mode)
    h = hashlib.sha256()
    decisions = 0
    for i in range(games):
        gs = game.new_initial_state(players=players, seed=i)
        rng = Rng(i * 7 + 1)
        while not gs.is_terminal():
            d = gs.decision
            if sampled:
                h.update(repr(gs.sample_step(rng)).encode())
                h.update(gs.digest().encode())
            else:
                h.update(repr((d.player, d.prompt, d.kind, [(o.index, o.label) for o in d.options],
                               sorted(d.reasons.items()), [(str(v), w) for v, w in d.rejected],
                               gs.digest())).encode())
                options = gs.legal_actions()
                gs.apply(options[rng.below(len(options))])
            decisions += 1
        h.update(repr((gs.returns(), gs.digest(), [(s.player, s.index, s.label, s.auto) for s in gs.steps])).encode())
    print(name, players, games, mode, "sampled" if sampled else "exact", decisions, h.hexdigest()[:16])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
