"""A look-ahead copies the position once per option of the menu being checked, not once per run (engine/driver.py
`_dead_end`, `_again`).

An option of a menu met further in runs on the copy the run before it left at that menu, used up; after a refused
one, the next option runs on a copy of that menu's position made again from the menu being checked by the same
answers.  What these tests hold: every position made again is the position the first run left there (state,
continuation and loop count), the menus, reasons and games are those of a look-ahead that copies before every run,
and fewer copies are made.
"""

from __future__ import annotations

import json

import pytest

from conftest import make_game
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.engine.driver import GameState
from orrery.interpreter.engine.position import Position
from test_lookahead_reuse import SPEC, _record


def _where(pos: Position) -> tuple:
    """A position as data: its state's digest, its continuation and its loop count."""
    return pos.s.digest(), json.dumps(pos.frames_view(), sort_keys=True, default=str), pos.it.loops


def _copying_every_run(m: pytest.MonkeyPatch) -> None:
    """The look-ahead as it was: every run on a copy of its own.  The position a nested option gets is copied
    before the run, so nothing is used up; a menu's position "made again" is that untouched position, copied."""
    run = GameState._dead_end
    untouched: dict[tuple, Position] = {}

    def copying(self, pos, value, scope):
        if self._path is not None:
            untouched[self._path] = pos
            pos = pos.clone()
        return run(self, pos, value, scope)

    m.setattr(GameState, "_dead_end", copying)
    m.setattr(GameState, "_again", lambda self, path, scope: untouched[path].clone())


@pytest.mark.parametrize("limits", [Limits(), Limits(lookahead=6), Limits(lookahead=3, loop=400)])
def test_a_position_made_again_is_the_one_the_run_left(tmp_path, engine, monkeypatch, limits):
    game = make_game(tmp_path, SPEC, limits=limits)
    left: dict[tuple, set] = {}  # (the menu checked, the answers from it) -> every position an option started from
    menu = [0]
    viable, dead_end, again = GameState._viable, GameState._dead_end, GameState._again
    made = [0]

    def spy_viable(self, d):
        menu[0] += 1
        return viable(self, d)

    def spy_dead_end(self, pos, value, scope):
        if self._path is not None:
            left.setdefault((menu[0], self._path), set()).add(_where(pos))
        return dead_end(self, pos, value, scope)

    def spy_again(self, path, scope):
        made[0] += 1
        q = again(self, path, scope)
        left.setdefault((menu[0], path), set()).add(_where(q))
        return q

    monkeypatch.setattr(GameState, "_viable", spy_viable)
    monkeypatch.setattr(GameState, "_dead_end", spy_dead_end)
    monkeypatch.setattr(GameState, "_again", spy_again)
    for seed in range(4):
        _record(game.new_initial_state(seed=seed))
    assert made[0] > 10  # (the walk's pits refuse runs inside an action: positions were made again)
    assert all(len(found) == 1 for found in left.values())


@pytest.mark.parametrize("limits", [Limits(), Limits(lookahead=6), Limits(lookahead=3, loop=400)])
def test_the_same_menus_reasons_and_games_with_fewer_copies(tmp_path, engine, monkeypatch, limits):
    game = make_game(tmp_path, SPEC, limits=limits)
    copies = [0]
    clone = Position.clone

    def counting(self):
        copies[0] += 1
        return clone(self)

    monkeypatch.setattr(Position, "clone", counting)
    seeds = range(4)
    used_up = [_record(game.new_initial_state(seed=s)) for s in seeds]
    fewer = copies[0]
    with monkeypatch.context() as m:
        _copying_every_run(m)
        copies[0] = 0
        copied = [_record(game.new_initial_state(seed=s)) for s in seeds]
    assert used_up == copied
    assert any(step[2] for game_ in copied for step in game_ if isinstance(step, tuple))  # (dead ends were met)
    assert fewer < copies[0] * 0.9, (fewer, copies[0])
