#!/usr/bin/env python3
"""The cost of one decision as the chain of decisions inside one effect grows (issue 17).

The made-up game `benchmarks/chain/rules.yaml` has one action whose effect makes k two-way
choices in a row (`repeat k { choose x from [0, 1] ... }`); k is set per run by a variant
(`set: variables.k.start`) written to a temporary folder.  For each k and each engine
(`Game(spec, mode=...)`), whole games are played through the public `GameState` API:
`new_initial_state`, then `legal_actions()` and `apply()` with a seeded random answer until
`is_terminal()`.  The time per decision is the time spent in the legal_actions/apply loop
divided by the number of decisions; new_initial_state, which runs the flow up to the first
menu, is timed apart (`setup_ms`), and the whole game per decision is reported too
(`per_decision_with_setup_us`: the fixed cost of a game spread over its k decisions, as the
"about 9x" of issue 17 was measured).  Games are played until --seconds have passed for that
k and engine (at least one game), in each of --rounds rounds; the rounds interleave (every
k and engine once per round) and each cost is the median of the rounds.  Each ratio is a cost
per decision at k over the same cost at k = 1 (k = 1 is always measured): 1.0 means a decision
costs the same however long the chain.

    benchmarks/chain_cost.py [--ks 1,2,8,32,128] [--seconds S] [--rounds R] [--modes compiled,interpreted]
                             [--seed N] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from orrery.interpreter.engine.game import Game  # noqa: E402
from orrery.rulespec.loader import load_spec  # noqa: E402

SPEC = ROOT / "benchmarks" / "chain" / "rules.yaml"
MODES = ("compiled", "interpreted")
MAX_K = 1000

VARIANT = """\
variant:
  name: k{k}
  title: A chain of {k} choices
changes:
  - set: variables.k.start
    value: "{k}"
    why: "chain_cost.py measures a chain of {k} decisions"
"""


def load_chain(k: int, mode: str, folder: Path) -> Game:
    """The chain game with k choices in its one action, on the given engine."""
    variant = folder / f"k{k}.yaml"
    variant.write_text(VARIANT.format(k=k), encoding="utf-8")
    return Game(load_spec(SPEC, [variant]), mode=mode)


def play(game: Game, seed: int, rng: random.Random) -> tuple[float, float, int, object]:
    """One game with random answers: (setup seconds, decision-loop seconds, decisions, final state)."""
    t0 = time.perf_counter()
    state = game.new_initial_state(seed=seed)
    t1 = time.perf_counter()
    decisions = 0
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        decisions += 1
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, decisions, state


def measure(game: Game, k: int, seconds: float, seed: int) -> dict:
    """Play whole games for about `seconds` (at least one); cost per decision and per game."""
    rng = random.Random(seed)
    games = decisions = 0
    setup = loop = 0.0
    start = time.perf_counter()
    while True:
        s, l, d, state = play(game, seed + games, rng)
        if d != k:  # the game is not the one measured: say so rather than print a wrong figure
            raise RuntimeError(f"a game of the chain with k={k} made {d} decisions")
        games += 1
        decisions += d
        setup += s
        loop += l
        if time.perf_counter() - start >= seconds:
            break
    return {"mode": game.mode, "k": k, "games": games, "decisions": decisions,
            "history": len(state.steps), "answered": sum(1 for h in state.steps if not h.auto),
            "seconds": round(time.perf_counter() - start, 3),
            "setup_ms": round(setup / games * 1e3, 4),
            "per_game_ms": round((setup + loop) / games * 1e3, 4),
            "per_decision_us": round(loop / decisions * 1e6, 2),
            "per_decision_with_setup_us": round((setup + loop) / decisions * 1e6, 2)}


def combine(rounds: list[dict]) -> dict:
    """One row from the rounds of one k and engine: totals, and the median of each cost."""
    out = dict(rounds[0])
    for key in ("games", "decisions"):
        out[key] = sum(r[key] for r in rounds)
    out["seconds"] = round(sum(r["seconds"] for r in rounds), 3)
    for key in ("setup_ms", "per_game_ms", "per_decision_us", "per_decision_with_setup_us"):
        out[key] = round(statistics.median(r[key] for r in rounds), 4 if key.endswith("ms") else 2)
    out["per_decision_us_rounds"] = [r["per_decision_us"] for r in rounds]
    return out


def parse_ks(text: str) -> list[int]:
    """`1,2,8` -> [1, 2, 8]; raises ValueError with the reason."""
    ks = []
    for item in text.split(","):
        item = item.strip()
        if not item.isdigit() or not 1 <= int(item) <= MAX_K:
            raise ValueError(f"--ks {text}: each k must be a whole number from 1 to {MAX_K}, not {item!r}")
        ks.append(int(item))
    return ks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ks", default="1,2,8,32,128", help="chain lengths, comma-separated (default 1,2,8,32,128)")
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per k and engine (default 2)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="rounds, each measuring every k and engine in turn; costs are the median (default 1)")
    ap.add_argument("--modes", default=",".join(MODES), help="engines, comma-separated (default: both)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game and of the random answers")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    try:
        ks = sorted(set(parse_ks(args.ks)) | {1})
    except ValueError as err:
        ap.error(str(err))
    if not (args.seconds > 0 and math.isfinite(args.seconds)):
        ap.error(f"--seconds must be a number above 0, not {args.seconds}")
    if args.rounds < 1:
        ap.error(f"--rounds must be at least 1, not {args.rounds}")
    modes = [m.strip() for m in args.modes.split(",")]
    if not modes or any(m not in MODES for m in modes):
        ap.error(f"--modes {args.modes}: each mode must be one of {', '.join(MODES)}")
    modes = list(dict.fromkeys(modes))

    results = []
    with tempfile.TemporaryDirectory(prefix="orrery-chain-") as tmp:
        games = {(mode, k): load_chain(k, mode, Path(tmp)) for mode in modes for k in ks}
        rounds: dict[tuple, list[dict]] = {key: [] for key in games}
        for r in range(args.rounds):  # rounds interleave, so a busy spell of the machine hits every row alike
            for (mode, k), game in games.items():
                rounds[mode, k].append(measure(game, k, args.seconds, args.seed + r))
    for mode in modes:
        base = combine(rounds[mode, 1])
        for k in ks:
            row = combine(rounds[mode, k])
            row["ratio_to_k1"] = round(row["per_decision_us"] / base["per_decision_us"], 2)
            row["ratio_with_setup_to_k1"] = round(row["per_decision_with_setup_us"]
                                                  / base["per_decision_with_setup_us"], 2)
            results.append(row)
    machine = {"python": platform.python_version(), "machine": platform.machine(), "system": platform.system(),
               "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps({"benchmark": "chain_cost", "machine": machine, "seconds": args.seconds, "rounds": args.rounds,
                          "ks": ks,
                          "modes": modes, "seed": args.seed, "results": results}, indent=2))
        return 0
    print(f"# benchmarks/chain_cost.py --ks {','.join(map(str, ks))} --seconds {args.seconds} --rounds {args.rounds}  "
          f"(Python {machine['python']}, {machine['cpus']} cpus)")
    print(f"{'engine':12} {'k':>5} {'games':>6} {'decisions':>9} {'us/decision':>12} {'x k=1':>7} "
          f"{'with setup':>11} {'x k=1':>7} {'ms/game':>9}")
    for r in results:
        print(f"{r['mode']:12} {r['k']:>5} {r['games']:>6} {r['decisions']:>9} {r['per_decision_us']:>12.1f} "
              f"{r['ratio_to_k1']:>7.2f} {r['per_decision_with_setup_us']:>11.1f} {r['ratio_with_setup_to_k1']:>7.2f} "
              f"{r['per_game_ms']:>9.2f}")
    print("us/decision: time in legal_actions()/apply() per decision; with setup: the whole game "
          "(new_initial_state too) per decision; x k=1: over the same figure at k = 1")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
