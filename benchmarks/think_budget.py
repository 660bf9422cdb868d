#!/usr/bin/env python3
"""Thinking bots at the table (issues 18 and 35): how long a person waits for a bot's whole TURN.

    benchmarks/think_budget.py [--think 2] [--seed 11] [--turns 40] [--json] [GAME ...]

Every seat is the default bot of `orrery play`: a plain `mcts` seat given `--think` seconds a TURN (default
the table's, 2), shared among the turn's decisions by the table's own TurnBudget (bots/thinking.py, on the
wall clock as at the table).  A turn is what TurnBudget counts as one: the decisions a seat makes in one
(round, turn) of the flow, forced ones (one option: the bot is not asked) included.  For each turn it times,
on the wall clock, everything from its first decision to the last move played (searches and moves: the
engine's look-ahead runs when a move is played), which is what a person at the table waits for, and its
CPU time.  Prints one line per game (all bundled games by default, each up to `--turns` bot turns):
turns, decisions, the most decisions in a turn and how many of them had a choice (more than one option),
the decisions with a choice taken without a search once the turn's budget was spent (MctsBot.follow; the
most in one turn), the longest turn (wall) and its part before the moves, the longest turn in CPU
seconds, how many turns took longer than the budget and the largest overrun.  Not a timed test: the
budget itself is tested on a fake clock (tests/test_thinking.py, tests/test_bot_budget.py).  Before session 7 this script timed single decisions of
`mcts:<think>s` bots (the per-decision figures in docs/performance.md's older sections).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from orrery.interpreter.bots.factory import apply_choice, make_bot  # noqa: E402
from orrery.interpreter.bots.simulate import bot_seed  # noqa: E402
from orrery.interpreter.cli.play import DEFAULT_BOT, thinking  # noqa: E402
from orrery.interpreter.bots.thinking import TurnBudget  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402
from orrery.interpreter.engine.gamefiles import bundled_games  # noqa: E402

TABLE_THINK = 2.0  # `orrery play --think`'s default (cli/tableargs.py)


def _turn_key(gs: Any) -> tuple:
    """The turn a decision belongs to, as TurnBudget.share counts it: (player, round, turn)."""
    c = gs.state.cursor
    return gs.current_player(), c.round, c.turn


def measure(name: str, think: float, seed: int, max_turns: int = 40) -> dict[str, Any]:
    """One game of default bots at the table's per-turn budget (up to `max_turns` turns): its turns' times."""
    game = load_game(name)
    n = game.rules.default_players
    bots = [make_bot(thinking(DEFAULT_BOT, think), bot_seed(seed, i)) for i in range(n)]
    budgets = [TurnBudget(think) for _ in range(n)]
    gs = game.new_initial_state(players=n, seed=seed)
    turns: list[dict[str, Any]] = []
    followed = [0] * n  # each bot's decisions so far taken without a search (MctsBot.follow)
    key = None
    while not gs.is_terminal():
        if _turn_key(gs) != key:
            if len(turns) == max_turns:
                break
            key = _turn_key(gs)
            turns.append({"wall": 0.0, "search": 0.0, "cpu": 0.0, "decisions": 0, "searched": 0, "followed": 0})
        turn, p = turns[-1], gs.current_player()
        searched = len(gs.legal_actions()) > 1
        t0, c0 = time.perf_counter(), time.process_time()
        moved: list[float] = []

        def play(choice: int) -> None:
            moved.append(time.perf_counter())
            apply_choice(gs, choice)

        if searched:  # as at the table: the move is played within the turn's budget
            budgets[p].think(gs, p, bots[p], play)
        else:
            play(gs.legal_actions()[0])
        t2, c2 = time.perf_counter(), time.process_time()
        turn["wall"] += t2 - t0
        turn["search"] += moved[0] - t0
        turn["followed"] += searched and bots[p].stats.get("followed", 0) > followed[p]
        followed[p] = bots[p].stats.get("followed", 0)
        turn["cpu"] += c2 - c0
        turn["decisions"] += 1
        turn["searched"] += searched
    worst = max(turns, key=lambda t: t["wall"])
    longest = max(turns, key=lambda t: (t["searched"], t["decisions"]))
    return {"game": name, "think": think, "seed": seed, "players": n, "turns": len(turns),
            "decisions": sum(t["decisions"] for t in turns), "finished": gs.is_terminal(),
            "most_decisions": longest["decisions"], "most_searched": longest["searched"],
            "max_wall": round(worst["wall"], 3), "max_wall_search": round(worst["search"], 3),  # (before each decision's move)
            "max_wall_searched": worst["searched"], "max_cpu": round(max(t["cpu"] for t in turns), 3),
            "followed": sum(t["followed"] for t in turns), "most_followed": max(t["followed"] for t in turns),
            "over_budget": sum(1 for t in turns if t["wall"] > think),
            "max_over": round(max(0.0, worst["wall"] - think), 3)}


def main() -> None:
    """Measure the games given (default: every bundled game) and print a line (or JSON) per game."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*")
    ap.add_argument("--think", type=float, default=TABLE_THINK, help="seconds a bot thinks a turn (the table's 2)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--turns", type=int, default=40, help="bot turns measured a game (from its start)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not args.json:
        print(f"# benchmarks/think_budget.py --think {args.think:g} --seed {args.seed} --turns {args.turns}")
        print(f"{'game':20} {'turns':>5} {'decisions':>9} {'most (searched)':>15} {'unsearched (most)':>17} "
              f"{'max turn wall':>13} {'search':>7} {'max turn cpu':>12} {'over':>5} {'max over':>8}")
    for name in args.games or bundled_games():
        r = measure(name, args.think, args.seed, args.turns)
        if args.json:
            print(json.dumps(r), flush=True)
        else:
            most = f"{r['most_decisions']} ({r['most_searched']})"
            unsearched = f"{r['followed']} ({r['most_followed']})"
            print(f"{name:20} {r['turns']:5} {r['decisions']:9} {most:>15} {unsearched:>17} {r['max_wall']:13.3f} "
                  f"{r['max_wall_search']:7.3f} {r['max_cpu']:12.3f} {r['over_budget']:5} {r['max_over']:8.3f}",
                  flush=True)


if __name__ == "__main__":
    main()
