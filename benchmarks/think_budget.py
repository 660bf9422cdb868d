#!/usr/bin/env python3
"""Thinking bots at the table (issue 18): the wall time of every bot decision over one game of `mcts` bots.

    benchmarks/think_budget.py [--think 1] [--seed 11] [--json] [GAME ...]

Every seat is the default bot of `orrery play` (`mcts` with `--think` seconds a decision).  For each
decision it times the search (`choose`) and the move played (`apply_choice`: the engine's look-ahead
runs then), as a person at the table waits for both, and the CPU time of the process over the
decision (on a machine shared with other work, the wall time can be several times the CPU time).
Prints one line per game (all bundled games by default): decisions, the largest wall time per
decision, its search and move parts, the largest CPU time, and how many decisions took longer than
the budget.  Not a timed test: the budget itself is tested on a fake clock (tests/test_bot_budget.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from orrery.interpreter.bots.factory import apply_choice, make_bot  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402
from orrery.interpreter.engine.gamefiles import bundled_games  # noqa: E402
from orrery.interpreter.cli.play import DEFAULT_BOT, thinking  # noqa: E402
from orrery.interpreter.bots.simulate import bot_seed  # noqa: E402


def measure(name: str, think: float, seed: int, max_decisions: int = 1000) -> dict:
    """One game of default bots: the times of every decision."""
    game = load_game(name)
    n = game.rules.default_players
    bots = [make_bot(thinking(DEFAULT_BOT, think), bot_seed(seed, i)) for i in range(n)]
    gs = game.new_initial_state(players=n, seed=seed)
    rows = []
    while not gs.is_terminal() and len(rows) < max_decisions:
        d = gs.decision
        t0, c0 = time.perf_counter(), time.process_time()
        index = bots[gs.current_player()].choose(gs)
        t1 = time.perf_counter()
        apply_choice(gs, index)
        t2, c2 = time.perf_counter(), time.process_time()
        rows.append({"wall": t2 - t0, "search": t1 - t0, "move": t2 - t1, "cpu": c2 - c0, "kind": d.kind,
                     "prompt": d.prompt})
    worst = max(rows, key=lambda r: r["wall"])
    return {"game": name, "think": think, "seed": seed, "decisions": len(rows), "finished": gs.is_terminal(),
            "max_wall": round(worst["wall"], 3), "max_at": worst["prompt"],
            "max_search": round(max(r["search"] for r in rows), 3),
            "max_move": round(max(r["move"] for r in rows), 3),
            "max_cpu": round(max(r["cpu"] for r in rows), 3),
            "mean_wall": round(sum(r["wall"] for r in rows) / len(rows), 3),
            "over_budget": sum(1 for r in rows if r["wall"] > think),
            "inside_effects": sum(1 for r in rows if r["kind"] == "choose")}


def main() -> None:
    """Measure the games given (default: every bundled game) and print a line (or JSON) per game."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*")
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not args.json:
        print(f"# benchmarks/think_budget.py --think {args.think:g} --seed {args.seed}")
        print(f"{'game':20} {'decisions':>9} {'max wall':>9} {'search':>7} {'move':>6} {'max cpu':>8} "
              f"{'over':>5}")
    for name in args.games or bundled_games():
        r = measure(name, args.think, args.seed)
        if args.json:
            print(json.dumps(r), flush=True)
        else:
            print(f"{name:20} {r['decisions']:9} {r['max_wall']:9.3f} {r['max_search']:7.3f} {r['max_move']:6.3f} "
                  f"{r['max_cpu']:8.3f} {r['over_budget']:5}", flush=True)


if __name__ == "__main__":
    main()
