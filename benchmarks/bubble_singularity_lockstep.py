#!/usr/bin/env python3
"""Lock-step check of benchmarks/ceiling_bubble_singularity.py against the engine's public API.

For each seed, the engine plays `bots/simulate.play_game`'s game (RandomBot(bot_seed(seed, seat)) per seat,
`apply_choice`) and the ceiling plays its own, side by side: at every decision of two options or more the
ceiling's menu (options in order, named as the engine names them) must be the engine's `legal_options()`,
the pick is the engine bot's, and (with --state) the bubbles of every cell, the supplies, the bag, the
scores and markers must be the engine's; at the end, the end condition, winners and scores.

    benchmarks/bubble_singularity_lockstep.py [--seeds N] [--first S] [--state] [--mode compiled|interpreted]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import ceiling_bubble_singularity as ceil  # noqa: E402
from orrery.interpreter.bots.factory import RandomBot, apply_choice  # noqa: E402
from orrery.interpreter.bots.simulate import bot_seed  # noqa: E402
from orrery.interpreter.core.values import Cell, PieceRef, ZoneRef  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402

PLAYERS = 4


class Mismatch(AssertionError):
    """The ceiling and the engine parted ways."""


def engine_name(o) -> object:
    """An engine option as the checker compares it."""
    if o.label == "skip":
        return "skip"
    v = o.value
    if isinstance(v, PieceRef):
        return ("p", v.id)
    if isinstance(v, Cell):
        return ("c", v.pos[1] * ceil.W + v.pos[0])
    return v


def ceiling_name(v, tag: int) -> object:
    """A ceiling option as the checker compares it."""
    if v is None:
        return "skip"
    if tag == ceil.T_CELL:
        return ("c", v)
    if tag == ceil.T_PIECE:
        return ("p", v)
    if tag == ceil.T_DIR:
        return "NESW"[v]
    if tag == ceil.T_WAY:
        return "clockwise" if v == 1 else "counterclockwise"
    if tag == ceil.T_OFFER:
        return "draw from the deck" if v == ceil.DRAW else ("p", v)
    return v


def engine_state(gs) -> dict:
    """The engine's position in the ceiling's terms."""
    s = gs.pos.s
    bubbles = [[p for p in s.places.get(Cell("board", None, (c % ceil.W, c // ceil.W)), []) if 25 <= p < 85]
               for c in range(ceil.NCELLS)]
    return {"bub": bubbles,
            "supply": [list(s.places.get(ZoneRef("supply", p), [])) for p in range(PLAYERS)],
            "bag": list(s.places.get(ZoneRef("bag"), [])),
            "score": [s.pvars[p]["score"] for p in range(PLAYERS)],
            "markers": [len(s.places.get(ZoneRef("markers", p), [])) for p in range(PLAYERS)],
            "abilities": [list(s.places.get(ZoneRef("abilities", p), [])) for p in range(PLAYERS)],
            "market": list(s.places.get(ZoneRef("market"), [])),
            "col": [s.attrs[p]["color"] for p in range(25, 85)]}


COLOURS = ["red", "green", "blue", "yellow"]


def ceiling_state(peek: dict) -> dict:
    """The ceiling's position in the same terms."""
    return {"bub": [list(b) for b in peek["bub"]], "supply": [list(x) for x in peek["supply"]],
            "bag": list(peek["bag"]), "score": list(peek["score"]), "markers": list(peek["markers"]),
            "abilities": [list(a) for a in peek["abilities"]], "market": list(peek["market"]),
            "col": [COLOURS[peek["col"][p]] for p in range(25, 85)]}


def check_seed(game, seed: int, state: bool = False) -> int:
    """Play one seed both ways; the decisions compared (Mismatch at the first difference)."""
    gs = game.new_initial_state(players=PLAYERS, seed=seed)
    bots = [RandomBot(bot_seed(seed, k)) for k in range(PLAYERS)]
    peek: dict = {}
    seen = [0]

    def ask(p: int, opts: list, tag: int):
        n = seen[0]
        if gs.is_terminal():
            raise Mismatch(f"seed {seed}, decision {n}: the engine's game is over, the ceiling asks {opts}")
        mine = [ceiling_name(v, tag) for v in opts]
        theirs = [engine_name(o) for o in gs.legal_options()]
        d = gs.decision
        if gs.current_player() != p or mine != theirs:
            raise Mismatch(f"seed {seed}, decision {n} ({d.prompt!r}): engine seat {gs.current_player()} "
                           f"{theirs}\n  ceiling seat {p} {mine}")
        if state:
            a, b = ceiling_state(peek), engine_state(gs)
            for k in a:
                if a[k] != b[k]:
                    raise Mismatch(f"seed {seed}, decision {n} ({d.prompt!r}): state '{k}' differs\n"
                                   f"  ceiling {a[k]}\n  engine  {b[k]}")
        index = bots[p].choose(gs)
        played = apply_choice(gs, index)
        if played != index:
            raise Mismatch(f"seed {seed}, decision {n}: the engine refused option {index}")
        seen[0] += 1
        return opts[gs_index(d, index)]

    def gs_index(d, index: int) -> int:
        legal = [o.index for o in d.options if o.index in legal_now[0]]
        return legal.index(index)

    legal_now = [None]
    _ask = ask

    def ask_wrapped(p: int, opts: list, tag: int):
        legal_now[0] = set(gs.legal_actions())
        return _ask(p, opts, tag)

    end, winners, scores, steps = ceil.play(seed, ask_wrapped, PLAYERS, peek)
    if not gs.is_terminal():
        raise Mismatch(f"seed {seed}: the ceiling ended ({end}) after {steps} decisions; the engine goes on "
                       f"({gs.decision.prompt!r})")
    o = gs.outcome()
    if (end, list(winners), list(scores)) != (o.end, list(o.winners), list(o.scores)):
        raise Mismatch(f"seed {seed}: ceiling {end} {winners} {scores}; engine {o.end} {o.winners} {o.scores}")
    if steps != seen[0]:
        raise Mismatch(f"seed {seed}: {steps} decisions counted, {seen[0]} compared")
    return steps


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--state", action="store_true")
    ap.add_argument("--mode", default="compiled")
    args = ap.parse_args(argv)
    game = load_game("bubble-singularity", mode=args.mode)
    total = 0
    for seed in range(args.first, args.first + args.seeds):
        n = check_seed(game, seed, args.state)
        total += n
        print(f"seed {seed}: {n} decisions, the same", flush=True)
    print(f"{args.seeds} seeds, {total} decisions: the ceiling plays the engine's games")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
