"""Every made-up game under tests/ plays alike on both engines (issue 30: each construct's tiny game, end to end).

Each game's own test file plays its construct's cases; this one plays every game of tests/specs/ and
tests/games/ from a few seeds with random legal answers on the compiled and the reference engine in
lockstep (states, menus and narration compared after every decision), at each player count it allows, so a
new made-up game is covered on both engines from the day it is added.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS
from test_differential import play_lockstep
from orrery.interpreter.engine.game import Game
from orrery.rulespec.loader import load_spec

# (workshop is the narration's fixture: its actions are written for scripted moves, some fail on a random one)
SCRIPTED = {"workshop"}
GAMES = [p for p in sorted(SPECS.glob("*.yaml")) + sorted((SPECS.parent / "games").glob("*/rules.yaml"))
         if (p.parent.name if p.name == "rules.yaml" else p.stem) not in SCRIPTED]


def _name(path: Path) -> str:
    return path.parent.name if path.name == "rules.yaml" else path.stem


@pytest.mark.parametrize("path", GAMES, ids=_name)
def test_plays_alike_on_both_engines(path: Path):
    spec = load_spec(path)
    fast, ref = Game(spec, mode="compiled"), Game(spec, mode="interpreted")
    lo, hi = ref.rules.min_players, ref.rules.max_players
    steps = 0
    for seed, players in enumerate(sorted({lo, min(lo + 1, hi), hi})):
        steps += play_lockstep(fast, ref, players, seed, max_steps=120)
    assert steps > 0


def test_every_made_up_game_is_found():
    names = {_name(p) for p in GAMES}
    assert {"lamplight", "relic", "chorus", "ledger", "blind-bid", "fuse-net"} <= names
