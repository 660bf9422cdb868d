"""Load the game a command names: GAME, --variant and --limit options -> a `Game`.

Shared by the CLI's commands (`cli`, `cli_perf`) and by `play` (which also loads the game
a save or a log names); its own module so that none of them imports another for it.
"""

from __future__ import annotations

import argparse
import gc
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from orrery.rulespec.errors import InputError

from ..core.options import MAX_DIGITS, limit_error

if TYPE_CHECKING:  # (imported when a command reads its limits: `orrery --help` builds the parser without them)
    from orrery.rulespec.bounded import YamlLimits

    from ..core.valueops import Limits

LIMIT_NAMES = {
    "cascade": "most state-trigger firings in one cascade",
    "loop": "most loop iterations while resolving one step",
    "emit_depth": "deepest nesting of events",
    "flow": "most flow stages without any decision",
    "pieces": "most pieces in a game",
    "lookahead": "most re-runs when filtering a menu for dead ends",
    "auto": "most decisions in a row answered automatically (one option or none)",
    "values": "most items in one list or characters in one text",
    "digits": f"most decimal digits of one number (at most {MAX_DIGITS})",
    "yaml_bytes": "largest YAML file, in bytes",
    "yaml_nodes": "most YAML nodes after alias expansion",
    "yaml_depth": "deepest YAML nesting",
    "steps": "most decisions in one simulated game before it counts as a runaway",
}


def parse_limits(args: argparse.Namespace) -> tuple[Limits, YamlLimits, int]:
    """Parse --limit NAME=N options into engine, YAML and step limits."""
    from orrery.rulespec.bounded import YamlLimits

    from ..core.valueops import Limits

    eng: dict[str, int] = {}
    yml: dict[str, int] = {}
    steps = 20_000
    for item in getattr(args, "limit", None) or []:
        name, _, value = item.partition("=")
        if name not in LIMIT_NAMES or not value.strip().isdigit():
            raise InputError(f"--limit {item}: expected NAME=N with NAME one of {', '.join(LIMIT_NAMES)}")
        n = int(value)
        if name == "digits" and n > MAX_DIGITS:
            raise InputError(f"--limit {item}: numbers of more than {MAX_DIGITS} digits cannot be shown or saved, so "
                             f"digits can be at most {MAX_DIGITS}")
        if limit_error(name, n):
            raise InputError(limit_error(name, n))
        if name.startswith("yaml_"):
            yml[{"yaml_bytes": "max_bytes", "yaml_nodes": "max_nodes", "yaml_depth": "max_depth"}[name]] = n
        elif name == "steps":
            steps = n
        else:
            eng[name] = n
    return Limits().replace(**eng), YamlLimits(**yml), steps


def load_game_from_args(args: argparse.Namespace, game_arg: str | None = None):
    """Resolve GAME (or `game_arg`) and --variant options and load the game.

    Returns (game, path of its rules.yaml, the --variant options as given).  The engine is
    `args.mode_override` or `args.mode` when set (compiled or interpreted), else the default.
    """
    from orrery.rulespec.quickload import load_spec

    from ..engine.game import Game
    from ..engine.gamefiles import resolve_game, resolve_variant

    limits, ylimits, _ = parse_limits(args)
    path: Path = resolve_game(game_arg or args.game)
    variants = [resolve_variant(path, v) for v in getattr(args, "variant", None) or []]
    spec = load_spec(path, variants, limits=ylimits)
    mode = getattr(args, "mode_override", None) or getattr(args, "mode", None)
    game = Game(spec, limits, mode)
    game.source = (str(path), tuple(str(v) for v in variants))  # for processes that load it again (simulate)
    return game, path, [str(v) for v in getattr(args, "variant", None) or []]


def parse_bots(text: str, players: int) -> list[str]:
    """A --bots option: one bot for everyone or one per seat, each one `make_bot` can make; else bad input."""
    from ..bots.factory import bot_error

    bots = [b.strip() for b in text.split(",") if b.strip()]
    for b in bots:
        why = bot_error(b)
        if why:
            raise InputError(f"--bots: {why}")
    if len(bots) not in (1, players):
        raise InputError(f"--bots: give one bot for everyone or one per seat ({players}), not {len(bots)}")
    return bots


# ------------------------------------------------------------------ start-up and the garbage collector

_held = False  # the collector is off while a command starts (collector_held), until it has settled


@contextmanager
def collector_held(held: bool = True) -> Iterator[None]:
    """The cyclic garbage collector off while a command starts, until `settled()`: start-up makes objects that
    live as long as the process (modules, the spec, its code, the first state), so every collection meanwhile
    walks them for nothing (`orrery play`: a tenth of its first screen's instructions went to the collector).
    Only for the `orrery` process itself (`held`): a test calling `main()` keeps its collector as it is."""
    global _held
    if not held or not gc.isenabled():
        yield
        return
    gc.disable()
    _held = True
    try:
        yield
    finally:
        if _held:  # (never settled: an error, or a command that stopped before its first question)
            _held = False
            gc.enable()


def settled() -> None:
    """The command has started: what start-up made is frozen out of every later collection, the collector on."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()
