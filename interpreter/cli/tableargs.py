"""The options that set a table, shared by `orrery play` and `orrery serve`: the game, its variants, the number
of players, who sits at each seat, the seed and how long a search bot thinks."""

from __future__ import annotations

import argparse

from ..core.options import PLAYERS, SEED, THINK


def add_table_args(sp: argparse.ArgumentParser, game: str, seats: str, seed: str, think: str) -> None:
    """GAME (optional: a resumed table names its own), --variant, --players, --seats, --seed and --think, with
    the command's own words for what differs (the defaults of the seats, when the seed is shown, what --think
    bounds)."""
    sp.add_argument("game", metavar="GAME", nargs="?", help=f"a bundled game's name (see orrery list) or a path to "
                    f"rules.yaml ({game})")
    sp.add_argument("--variant", action="append", metavar="V", help="a variant name or file (repeatable; stacks)")
    sp.add_argument("--players", type=PLAYERS, help="number of players (default: the game's default)")
    sp.add_argument("--seats", help=f"comma-separated seat types, e.g. human,random or human,mcts:200 ({seats})")
    sp.add_argument("--seed", type=SEED, help=f"random seed (default: drawn from the operating system; {seed})")
    sp.add_argument("--think", type=THINK, default=2.0, help=f"seconds a search bot thinks {think}, when its seat "
                    "gives it no budget (a plain 'mcts' seat, as the default seats are; default 2)")


__all__ = ["add_table_args"]
