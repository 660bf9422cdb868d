#!/usr/bin/env python3
"""How fast connect four would be if the engine's protocol cost nothing (issue 17, what stands in the way).

Two loops play the same seeded random games of connect four on the compiled engine:

- `api`: the public API, as `benchmarks/api_playouts.py` does (`legal_actions()` then `apply()`);
- `bare`: only the spec's compiled pieces, called directly: the parameter's filter (`where` of `drop`'s
  `column`), the action's effect, and the generated end checks.  No driver, frames, flow stages,
  decisions, options or history: what a move costs when everything but the generated expression code is
  free.  A menu of one column answers itself without a random number, as the driver does.

The ratio bare ÷ api bounds what removing the protocol layers (driver, frames, flow frame, decisions) can
give on this game; what is left is the generated expression code itself, over the general state layout.
`same_games()` checks that both loops play the same games (moves, narration, final board).

    benchmarks/protocol_bound.py [GAMES] [--rounds R]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from orrery.interpreter.core.decisions import GameEnded  # noqa: E402
from orrery.interpreter.core.rng import Rng  # noqa: E402
from orrery.interpreter.engine.flowcompiled import compiled_flow_frame, link_flow  # noqa: E402
from orrery.interpreter.engine.game import Game, load_game  # noqa: E402


def api_game(game: Game, i: int) -> tuple[int, Any]:
    """Game i through the public API: (decisions answered, the final GameState)."""
    gs = game.new_initial_state(seed=i)
    rng = Rng(i * 7 + 1)
    decisions = 0
    while not gs.is_terminal():
        options = gs.legal_actions()
        gs.apply(options[rng.below(len(options))])
        decisions += 1
    return decisions, gs


class Bare:
    """Connect four's compiled pieces, called without the engine around them."""

    def __init__(self, game: Game):
        rules = game.rules
        _, fs = compiled_flow_frame(rules)
        ns = link_flow(fs, rules.compiled.fns)
        self.ends = (ns["ends_immediate"], ns["ends_end_of_turn"])
        self.game = game

    def play(self, i: int, narrate: bool = False) -> tuple[int, Any]:
        """Game i: (decisions that had a choice, the final state); `narrate`: build the narration (the API
        builds it only when read)."""
        gs = self.game.new_initial_state(seed=i, narrate=narrate)
        rng = Rng(i * 7 + 1)
        it = gs.pos.it
        action = it.r.actions["drop"]
        param = action.params[0]
        keep = it.fast.filters[(id(param.where), param.name)]
        effect = it.fast.fns[id(action.effect)]
        columns = it.s.vars["columns"]
        cursor = it.s.cursor
        ends_now, ends_turn = self.ends
        decisions = 0
        while True:
            env = {"__rule__": action.rule}
            it.memo = {}  # (as effects._filter: pure functions may remember results inside one filter)
            kept, _ = keep(it, env, columns)
            it.memo = None
            if not kept:
                break
            if len(kept) > 1:
                env[param.name] = kept[rng.below(len(kept))]
                decisions += 1
            else:
                env[param.name] = kept[0]
            it.loops = 0
            effect(it, env)
            try:
                ends_now(it)
                ends_turn(it)
            except GameEnded:
                break
            cursor.current = 1 - cursor.current
        return decisions, gs


def same_games(game: Game, games: int) -> None:
    """Raise AssertionError unless both loops play the same games (decisions, narration, final board)."""
    bare = Bare(game)
    for i in range(games):
        n_api, a = api_game(game, i)
        n_bare, b = bare.play(i, narrate=True)
        assert n_api == n_bare, f"game {i}: {n_api} decisions through the API, {n_bare} bare"
        said = [m for m in a.narration if not m.startswith("game over")]
        assert said == b.pos.s.msgs, f"game {i}: the narration differs"
        board = {c: list(p) for c, p in a.pos.s.places.items() if p}
        assert board == {c: list(p) for c, p in b.pos.s.places.items() if p}, f"game {i}: the boards differ"


def rate(play: Any, games: int) -> float:
    """Moves (discs dropped, forced ones included) per CPU second over `games` games."""
    start = time.process_time()
    moves = sum(len(play(i)[1].pos.s.kinds) for i in range(games))
    return moves / (time.process_time() - start)


def hand_written_rate(games: int) -> float:
    """Moves per CPU second of the hand-written reference (benchmarks/ref_connect_four.py)."""
    import random

    from benchmarks.ref_connect_four import random_playout

    rng = random.Random(1)
    start = time.process_time()
    moves = sum(random_playout(rng) for _ in range(games))
    return moves / (time.process_time() - start)


def main(argv: list[str]) -> int:
    """Print decisions/s of both loops (medians of the rounds, alternated) and their ratio."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="?", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    game = load_game("connect-four")
    same_games(game, 20)
    bare = Bare(game)
    api, alone, hand = [], [], []
    for _ in range(args.rounds):
        api.append(rate(lambda i: api_game(game, i), args.games))
        alone.append(rate(bare.play, args.games))
        hand.append(hand_written_rate(args.games * 20))
    a, b, h = statistics.median(api), statistics.median(alone), statistics.median(hand)
    print(f"connect four, {args.games} seeded random games, {args.rounds} rounds (CPU time, medians of moves/s)")
    print(f"  through the API:          {a:12,.0f}   {a / h:.4f} of hand-written")
    print(f"  compiled pieces alone:    {b:12,.0f}   {b / h:.4f} of hand-written   {b / a:.2f} x the API")
    print(f"  hand-written (bitboards): {h:12,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
