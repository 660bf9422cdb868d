#!/usr/bin/env python3
"""The ceiling of connect four's MCTS rate: the search bot on the flat state with the game's code written by hand.

    benchmarks/ceiling_mcts_connect_four.py ITERATIONS ROUNDS

Issue 34 asks 7,000 MCTS iterations a second from connect four's start.  The search bot (`MctsBot(seat,
iterations=N, reuse=False)`, seed 1, as benchmarks/mcts_rate.py runs it) plays its tree and playouts on the
flat state (engine/flatapi.py); the game's own work there is the flat module's `perform_drop` and `advance`.
Here they are replaced by the code a typed generator would at best emit for them (benchmarks/
ceiling_connect_four.py's: cells as ints, neighbour tables with an always-empty off-board place, `run` and
`mine` written in, no end-check memo, the effect, the end checks, the turn change and the next menu in one
pass), over the same flat state, keeping what the flat state must hold (the pieces' places and columns, the
variables, the cursor, the loop and piece limits as the reference counts them).

Each round runs the engine's search, then the same search on the hand-written code, and checks they chose
the same move with the same statistics and the same tree (so the hand-written code played the same games);
CPU time (`time.process_time`: the machine is shared); the medians are printed.  If the hand-written code
does not reach 7,000 iterations a second, no generator of the game's code can: what is left is the bot's.
"""

from __future__ import annotations

import copy
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import ceiling_connect_four as C  # noqa: E402
from orrery.interpreter.bots.mcts import MctsBot  # noqa: E402
from orrery.interpreter.engine.flat import BAIL  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402

TARGET = 7_000


def hand_written(fg):
    """A copy of connect four's FlatGame whose perform and advance are written by hand (see the module doc)."""
    ns = fg.ns
    labels = ns["K0"]  # the column labels, the menu's values (as the flat module's)
    bottom = {v: C.BOTTOM[i] for i, v in enumerate(labels)}
    top = [(v, C.TOP[i]) for i, v in enumerate(labels)]
    up = [c if c >= 0 else None for c in C.UP]
    limit, pieces, auto_limit, four = ns["LOOP_LIMIT"], ns["PIECE_LIMIT"], ns["AUTO_LIMIT"], C._four_through
    # the end conditions' names, found by value: the constants' slots move when the generator changes
    won, full = (next(v for k, v in ns.items() if k.startswith("K") and v == name)
                 for name in ("four_in_a_row", "board_full"))
    row_top = (C.H - 1) * C.W

    def perform(st, v):
        P, owner, V = st.P, st.A[0], st.V
        loops = st.loops + 2
        spot = bottom[v]
        while P[spot]:
            loops += 1
            spot = up[spot]  # (none off the board: P[None] fails, the flat game stops as the engine's does)
        if loops > limit:
            raise BAIL
        who = st.current
        pid = len(st.KIND)
        if pid >= pieces:
            raise BAIL
        st.KIND.append(0)
        st.LOC.append(spot)
        owner.append(who)
        P[spot].append(pid)
        V[2] = spot
        st.decisions += 1
        st.acts.append(0)
        if four(P, owner, spot, who):
            V[3] = who
            st.over = won
            return
        loops += 28  # (board_full's comprehension and texts, as the flat module charges them)
        if loops > limit:
            raise BAIL
        if spot >= row_top and all(P[c] for _, c in top):
            st.over = full
            return
        st.loops = loops
        st.step = 1

    def advance(st):
        while True:
            if st.step >= 1:  # the turn changes (connect four has no turn hooks and no end-of-turn checks)
                st.pos += 1
                if st.pos >= st.n:
                    st.round += 1
                    st.pos = 0
                st.current = (st.first + st.pos) % st.n
                st.turn += 1
                st.step = 0
                st.acts = []
            P = st.P
            st.loops = 21  # (the menu's filter: 3 a column, as the flat module charges it)
            values = [v for v, c in top if not P[c]]
            if len(values) > 1:
                st.menu, st.action, st.auto = values, 0, 0
                return
            if not values:
                raise BAIL  # (never: a full board ended the game)
            st.auto += 2
            if st.auto >= auto_limit - 2:
                raise BAIL
            perform(st, values[0])
            if st.over is not None:
                return

    mine = copy.copy(fg)
    mine.__dict__ = dict(fg.__dict__)
    mine._perform, mine._advance = (perform,), advance
    return mine


def search(game, iterations: int, fg) -> tuple[float, MctsBot, int]:
    """(iterations per CPU second, the bot, its move) of one search from the start of seed 1 on `fg`."""
    state = game.new_initial_state(seed=1)
    state.__dict__["_fg"] = fg
    bot = MctsBot(state.current_player(), iterations=iterations, reuse=False)
    start = time.process_time()
    move = bot.choose(state)
    return iterations / (time.process_time() - start), bot, move


def tree(bot: MctsBot) -> list:
    return sorted((a, ch.visits, round(ch.value, 9)) for a, ch in bot._root.children.items())


def main(argv: list[str]) -> int:
    """Interleaved rounds of the engine's search and the hand-written code's; each printed, then the medians."""
    iterations, rounds = int(argv[0]), int(argv[1])
    game = load_game("connect-four")
    fg = game.new_initial_state(seed=1)._fg
    mine = hand_written(fg)
    seen: dict[str, list[float]] = {"engine": [], "hand-written": []}
    for r in range(rounds):
        rate, bot, move = search(game, iterations, fg)
        rate_h, bot_h, move_h = search(game, iterations, mine)
        if (move, bot.stats, tree(bot)) != (move_h, bot_h.stats, tree(bot_h)):
            print(f"round {r}: the hand-written code made another search: {move_h} {bot_h.stats} vs {move} "
                  f"{bot.stats}")
            return 1
        seen["engine"].append(rate)
        seen["hand-written"].append(rate_h)
        print(f"round {r}: engine {rate:,.1f} it/s, hand-written {rate_h:,.1f} it/s, move {move} (same search)",
              flush=True)
    e, h = statistics.median(seen["engine"]), statistics.median(seen["hand-written"])
    print(f"# connect-four MCTS, {iterations} iterations: median engine {e:,.1f} it/s, hand-written game code "
          f"{h:,.1f} it/s (target {TARGET:,}; CPU time)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
