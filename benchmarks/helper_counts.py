#!/usr/bin/env python3
"""Which runtime helpers a game's generated module calls most in seeded random games (a benchmark: it wraps
the helpers of the module's namespace in counters, in its own process only).

    benchmarks/helper_counts.py GAME PLAYERS [--games N] [--seed S] [--top K] [--sampled]

Counts every call of a namespace function the generated source names (`EQ`, `GA`, `IT`, `TK`, `MEMO_GET`,
...; the constants `K<n>` that are functions are counted together as `K*`), over N random games (the public
API's `play_game` with random bots, or with --sampled the search bot's `GameState.sample_step`).
"""

from __future__ import annotations

import argparse
import collections
import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from orrery.interpreter.compiler import codegen  # noqa: E402
from orrery.interpreter.compiler.sourcecounts import GENERAL  # noqa: E402

COUNTS: collections.Counter = collections.Counter()
_FUNCS = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.BuiltinMethodType)


SITES: collections.Counter = collections.Counter()


def _counting(name: str, fn):
    def wrapped(*args, **kwargs):
        COUNTS[name] += 1
        f = sys._getframe(1)
        while f.f_code.co_name.startswith("<"):  # (a comprehension: the function it stands in)
            f = f.f_back
        SITES[(name, f.f_code.co_name, f.f_lineno)] += 1
        return fn(*args, **kwargs)
    return wrapped


def _link(source, tag, ns, _real=codegen.link):
    for name, value in list(ns.items()):
        if name.startswith("__") or not isinstance(value, _FUNCS):
            continue
        if name[:1] in "KN" and name[1:].isdigit():
            if name[0] == "N":
                continue
            ns[name] = _counting("K*", value)
        else:
            ns[name] = _counting(name, value)
    return _real(source, tag, ns)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--sampled", action="store_true")
    ap.add_argument("--sites", type=int, default=0, help="also the K busiest (helper, generated function, line)")
    args = ap.parse_args(argv)
    codegen.link = _link
    from orrery.interpreter.bots.factory import RandomBot
    from orrery.interpreter.bots.simulate import bot_seed, play_game
    from orrery.interpreter.core.rng import Rng
    from orrery.interpreter.engine.game import load_game

    game = load_game(args.game, mode="compiled")
    steps = 0
    for g in range(args.games):
        seed = args.seed + g
        if args.sampled:
            gs = game.new_initial_state(players=args.players, seed=seed)
            rng = Rng(bot_seed(seed, 0))
            while not gs.is_terminal():
                gs.sample_step(rng)
                steps += 1
        else:
            steps += play_game(game, args.players, seed, [RandomBot(bot_seed(seed, k)) for k in range(args.players)]).steps
    total = sum(COUNTS.values())
    general = sum(n for name, n in COUNTS.items() if name in GENERAL or name == "K*")
    print(f"{args.game} {args.players}p, {args.games} games ({'sampled' if args.sampled else 'exact'}), {steps} steps: "
          f"{total:,} helper calls ({total / max(steps, 1):,.0f} a step); general ones (sourcecounts.GENERAL and "
          f"K*): {general:,} ({general / max(steps, 1):,.0f} a step)")
    for name, n in COUNTS.most_common(args.top):
        print(f"  {name:12} {n:>12,} {n / total:6.1%}")
    for (name, fn, line), n in SITES.most_common(args.sites):
        print(f"  {name:12} {fn:>12} line {line:<6} {n:>10,}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
