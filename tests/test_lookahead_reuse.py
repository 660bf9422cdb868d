"""What the look-ahead of one menu found at the next one is not found again (engine/driver.py `_viable`, `_dead_end`).

Checking an option of a menu runs it to the next menu of the same action and tries that menu's options until one
completes the action; when the player answers that option, the next menu is the one that was reached (the engine
is deterministic), so the verdicts found there (completes, or refused with its reason) are taken instead of
replaying those options again.  The menus, their reasons and the games are those of a look-ahead that finds
everything again; only the number of runs goes down.
"""

from __future__ import annotations

import pytest

from conftest import make_game
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.engine.driver import GameState, IllegalMove
from orrery.interpreter.engine.lean import lean_state

# Each turn walks 1-3 steps at a time, each optional, while under 6; the walk must end on 4 or 5 (a square with
# a pit is refused on the way).  Several menus of one action deep, with dead ends and their reasons.
SPEC = """
orrery: 1
game: {name: pit-walk, players: {min: 2, max: 2}}
variables:
  total: {type: int, start: 0}
  pit: {type: int, start: 3}
flow:
  phases:
    - name: main
      steps: [{actions: [walk, rest]}]
actions:
  walk:
    effect: |
      let n = 0
      let going = true
      while going and n < 6 {
        choose step from [1, 2, 3] where n + step != pit else "a pit at " + text(n + step) optional prompt "step"
        if step == none { going = false } else { n += step }
      }
      require n == 4 or n == 5 else "the walk ends at " + text(n)
      total += n
      pit = 1 + (pit + n) % 5
  rest:
    effect: total += 1
end:
  enough:
    when: total >= 30
    winners: "[]"
"""


def _record(gs) -> list:
    """Every menu of a seeded random game, with its reasons and the position after each answer."""
    out, rng = [], Rng(5)
    while not gs.is_terminal():
        d = gs.decision
        out.append((d.prompt, [o.label for o in d.options], sorted(d.reasons.items()), list(d.rejected), gs.digest()))
        legal = gs.legal_actions()
        try:
            gs.apply(legal[rng.below(len(legal))])
        except IllegalMove as refused:  # (past a small budget an option is offered unchecked, and may be refused)
            out.append(refused.reason)
    return out + [gs.digest()]


def _counted(monkeypatch) -> list[int]:
    runs = [0]
    run = GameState._dead_end

    def counting(self, *args):
        runs[0] += 1
        return run(self, *args)

    monkeypatch.setattr(GameState, "_dead_end", counting)
    return runs


def _without_reuse(monkeypatch) -> None:
    monkeypatch.setattr(GameState, "_ahead_of", lambda self, d, opt: None)


@pytest.mark.parametrize("limits", [Limits(), Limits(lookahead=6), Limits(lookahead=3, loop=400)])
def test_the_same_menus_reasons_and_games_in_fewer_runs(tmp_path, engine, monkeypatch, limits):
    """(a small look-ahead budget or loop limit: a verdict is taken only where finding it again would not run out
    of either on the way, so the menus past the budget are those of a search that finds everything again)"""
    game = make_game(tmp_path, SPEC, limits=limits)
    runs = _counted(monkeypatch)
    seeds = range(4)
    reused = [_record(game.new_initial_state(seed=s)) for s in seeds]
    fewer = runs[0]
    with monkeypatch.context() as m:
        _without_reuse(m)
        runs[0] = 0
        again = [_record(game.new_initial_state(seed=s)) for s in seeds]
    assert reused == again
    assert any(step[2] for game_ in again for step in game_ if isinstance(step, tuple))  # (dead ends were met)
    if limits.lookahead == Limits().lookahead:
        assert fewer < runs[0] * 0.9, (fewer, runs[0])
    else:  # answers offered unchecked were refused: each went back to its checkpoint and redid the answers since,
        # with no verdict of the refused answer's next menu carried into the redo (the menus after it are equal)
        assert any(isinstance(step, str) for game_ in again for step in game_[:-1])


def test_the_lean_path_and_forced_answers_take_them_too(tmp_path, monkeypatch):
    """(a menu whose one viable option answers itself passes its verdicts on to the menu after it)"""
    game = make_game(tmp_path, SPEC)
    runs = _counted(monkeypatch)
    import random

    lean = lean_state(game, 3)
    steps = lean.playout(random.Random(2))
    fewer = runs[0]
    _without_reuse(monkeypatch)
    runs[0] = 0
    again = lean_state(game, 3)
    assert again.playout(random.Random(2)) == steps and again.pos.s.digest() == lean.pos.s.digest()
    assert fewer < runs[0]
