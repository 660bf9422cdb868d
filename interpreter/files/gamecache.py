"""Games loaded once per command (issue 39.7): `orrery validate` of a folder of 2,000 scenario files of one
game built that game (and each variant stack) again for every file, about 31 ms a file.

A game is kept under the resolved paths of its spec and variant files and a digest of their bytes (a file
changed on disk is a new key), with the limits and the engine mode; a few games at most are kept, the oldest
dropped first.  The files are read through the bounded reader (a pipe or a link loop is refused there, with a
located message, and never cached).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from pathlib import Path
from typing import Any

from orrery.rulespec.bounded import read_bounded
from orrery.rulespec.paths import real_path

from ..engine.game import Game

KEEP = 16  # games kept: a validate run names a handful of games and variant stacks

_GAMES: "OrderedDict[tuple, Game]" = OrderedDict()
_SPECS: "OrderedDict[tuple, Any]" = OrderedDict()  # the same files' spec for either engine (`orrery test` runs both)


def _key(path: Path, variants: list[Path], limits: Any, mode: str | None) -> tuple | None:
    """Resolved paths and digests of the files, the limits and the mode; None when a file cannot be read
    (the loader then says why, at its location)."""
    parts: list[Any] = [repr(limits), mode]
    for p in [path, *variants]:
        try:
            data = read_bounded(p, getattr(limits, "max_bytes", 5_000_000))
        except Exception:  # (TooLarge, NotAFile, OSError: the loader reports it properly)
            return None
        parts += [str(real_path(p)), hashlib.sha256(data).hexdigest()]
    return tuple(parts)


def game_for(path: Path, variants: list[Path] | None = None, ylimits: Any = None, limits: Any = None,
             mode: str | None = None) -> Game:
    """The game of a spec and its variants, built once per process for the same files' bytes."""
    from orrery.rulespec.loader import load_spec

    variants = list(variants or [])
    key = _key(path, variants, ylimits, mode)
    key = None if key is None else key + (repr(limits),)
    game = _GAMES.get(key) if key is not None else None
    if game is None:
        spec_key = None if key is None else key[:1] + key[2:-1]  # (the spec depends on neither engine nor limits)
        spec = _SPECS.get(spec_key) if spec_key is not None else None
        if spec is None:
            spec = load_spec(path, variants, limits=ylimits)
            if spec_key is not None:
                _SPECS[spec_key] = spec
                while len(_SPECS) > KEEP:
                    _SPECS.popitem(last=False)
        game = Game(spec, limits, mode=mode)
        if key is not None:
            _GAMES[key] = game
            while len(_GAMES) > KEEP:
                _GAMES.popitem(last=False)
    else:
        _GAMES.move_to_end(key)
    return game


__all__ = ["game_for"]
