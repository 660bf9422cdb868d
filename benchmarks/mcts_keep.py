#!/usr/bin/env python3
"""What capping the positions an exact-mode MCTS tree keeps costs and saves: memory per 10,000 nodes and
iterations per second, this checkout's bot against another `mcts.py` (the code before the cap), same minutes.

    git show d075c02:interpreter/bots/mcts.py > /tmp/mcts_before.py
    benchmarks/mcts_keep.py --before /tmp/mcts_before.py memory connect-four:2000 reversi:1000
    benchmarks/mcts_keep.py --before /tmp/mcts_before.py time connect-four:1000 --rounds 5

`memory GAME:ITERATIONS[:PLAYOUT]`: `interpreter.cli.bench_memory.mcts_bytes` (the bench report's figure:
tracemalloc, one search from the start position, playouts of PLAYOUT decisions, default 1), with each bot
class in turn; also the positions the tree keeps.  `time GAME:ITERATIONS[:PLAYOUT]`: one search of ITERATIONS
from the start position (the spec's playouts unless PLAYOUT is given), process time, each bot in turn, the
order alternating from round to round; the median of the rounds.  `think GAME:SECONDS`: the bench report's
thinking-bot figure (`bench_think.think_times`: the first 20 decisions of a seeded bot-against-bot game, every
seat `mcts:<SECONDS>s`), each bot in turn (the `mcts` factory made to build it), each round: the slowest decision
over the budget and the decisions over it.  `count GAME:ITERATIONS`: the work of one search, counted (no
clock): `GameState.apply` calls (and how many keep a rollback copy), `sample_step` and `clone` calls per
iteration.  `--keep N` gives this checkout's bot
`keep=N` (`none` for no limit).  Both bots get the same seed, and the move chosen is printed.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import orrery.interpreter.bots.mcts as current  # noqa: E402
import orrery.interpreter.cli.bench_memory as bench_memory  # noqa: E402
from orrery.interpreter.engine.game import Game  # noqa: E402


def load_before(path: str) -> Any:
    """The `mcts` module of another version, loaded beside this one (its relative imports resolve here)."""
    spec = importlib.util.spec_from_file_location("orrery.interpreter.bots.mcts_before", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kept(root: Any) -> int:
    count, todo = 0, [root]
    while todo:
        node = todo.pop()
        count += getattr(node, "gs", None) is not None
        todo.extend(node.children.values())
    return count


def bots(before: Any, keep: Any) -> list[tuple[str, Any]]:
    """(name, factory(seed, iterations, playout)) of the two bots."""
    def after(seed: int, iterations: int, playout: int | None) -> Any:
        extra = {} if keep == "default" else {"keep": keep}
        return current.MctsBot(seed, iterations=iterations, playout=playout, **extra)

    def old(seed: int, iterations: int, playout: int | None) -> Any:
        return before.MctsBot(seed, iterations=iterations, playout=playout)
    return [("before", old), ("after", after)]


def memory(game: Game, iterations: int, playout: int, pairs: list[tuple[str, Any]]) -> None:
    for name, make in pairs:
        made: list[Any] = []

        class Bot:  # mcts_bytes builds its bot as MctsBot(seed, iterations=..., seconds=..., playout=..., reuse=True)
            def __new__(cls, seed: int, iterations: int, seconds: Any = None, playout: Any = None,
                        reuse: bool = True) -> Any:
                made.append(make(seed, iterations, playout))
                return made[-1]

        bench_memory.MctsBot = Bot
        started = time.perf_counter()
        r = bench_memory.mcts_bytes(game, iterations=iterations, playout=playout)
        print(f"{game.name:14} {name:6} {iterations} iterations, playout {playout}: {r['nodes']} nodes, "
              f"{kept(made[-1]._root)} positions kept, {r['bytes_per_10k_nodes'] / 1e6:.2f} MB per 10,000 nodes "
              f"(peak {r['peak_bytes_per_10k_nodes'] / 1e6:.2f}), {r['bytes_per_10k_nodes'] * r['nodes'] / 1e10:.1f} MB "
              f"held ({time.perf_counter() - started:.0f} s)", flush=True)


def timing(game: Game, iterations: int, playout: int | None, pairs: list[tuple[str, Any]], rounds: int) -> None:
    rates: dict[str, list[float]] = {name: [] for name, _ in pairs}
    answers: dict[str, int] = {}
    for r in range(rounds):
        for name, make in pairs if r % 2 == 0 else pairs[::-1]:
            gs = game.new_initial_state(seed=1)
            bot = make(1, iterations, playout)
            gc.collect()
            started = time.process_time()
            answers[name] = bot.choose(gs)
            rates[name].append(bot.stats["iterations"] / (time.process_time() - started))
    medians = {name: statistics.median(v) for name, v in rates.items()}
    print(f"{game.name:14} {iterations} iterations, playout {playout or 'spec'}: iterations/s (median of {rounds}) "
          + ", ".join(f"{n} {m:.1f}" for n, m in medians.items())
          + f"; after / before {medians['after'] / medians['before']:.3f}; rounds "
          + "; ".join(f"{n} " + " ".join(f"{x:.1f}" for x in v) for n, v in rates.items())
          + f"; moves {answers}", flush=True)


def think(game: Game, seconds: float, before: Any, rounds: int) -> None:
    from orrery.interpreter.cli.bench_think import think_times
    made = current.MctsBot
    pairs = [("before", before.MctsBot), ("after", made)]
    results: dict[str, list[str]] = {"before": [], "after": []}
    try:
        for r in range(rounds):
            for name, cls in pairs if r % 2 == 0 else pairs[::-1]:
                current.MctsBot = cls  # make_mcts builds the module's MctsBot
                t = think_times(game, seconds, decisions=20, seed=1)
                results[name].append(f"{t['max_over_budget']:.3f} ({t['over_budget']} over)")
    finally:
        current.MctsBot = made
    for name, figures in results.items():
        print(f"{game.name:14} think {seconds} s, {name:6}: slowest decision / budget, each round: {', '.join(figures)}",
              flush=True)


def count(game: Game, iterations: int, pairs: list[tuple[str, Any]]) -> None:
    from orrery.interpreter.engine.driver import GameState
    calls = {"apply": 0, "with rollback copy": 0, "sample_step": 0, "clone": 0}
    real = GameState.apply, GameState.sample_step, GameState.clone

    def apply(self: Any, index: int, keep: bool = True) -> None:
        calls["apply"] += 1
        calls["with rollback copy"] += keep
        return real[0](self, index, keep)

    def sample_step(self: Any, rng: Any) -> Any:
        calls["sample_step"] += 1
        return real[1](self, rng)

    def clone(self: Any) -> Any:
        calls["clone"] += 1
        return real[2](self)

    GameState.apply, GameState.sample_step, GameState.clone = apply, sample_step, clone
    try:
        for name, make in pairs:
            calls.update(dict.fromkeys(calls, 0))
            bot = make(1, iterations, None)
            bot.choose(game.new_initial_state(seed=1))
            n = bot.stats["iterations"]
            print(f"{game.name:14} {name:6} {iterations} iterations, per iteration: "
                  + ", ".join(f"{k} {v / n:.2f}" for k, v in calls.items()), flush=True)
    finally:
        GameState.apply, GameState.sample_step, GameState.clone = real


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="the other version's interpreter/bots/mcts.py")
    ap.add_argument("--keep", default="default", help="this checkout's bot's keep= (a number or none)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("what", choices=["memory", "time", "think", "count"])
    ap.add_argument("runs", nargs="+", metavar="GAME:ITERATIONS[:PLAYOUT] or GAME:SECONDS")
    a = ap.parse_args()
    keep = a.keep if a.keep == "default" else None if a.keep == "none" else int(a.keep)
    before = load_before(a.before)
    pairs = bots(before, keep)
    print(f"# {' '.join(sys.argv[1:])} (Python {platform.python_version()}, keep {keep})", flush=True)
    for run in a.runs:
        name, iterations, *rest = run.split(":")
        game = Game.load(ROOT / "games" / name / "rules.yaml")
        if a.what == "memory":
            memory(game, int(iterations), int(rest[0]) if rest else 1, pairs)
        elif a.what == "count":
            count(game, int(iterations), pairs)
        elif a.what == "think":
            think(game, float(iterations), before, a.rounds)
        else:
            timing(game, int(iterations), int(rest[0]) if rest else None, pairs, a.rounds)


if __name__ == "__main__":
    main()
