"""A look-ahead run stops once its action is complete when nothing after an action can refuse the move
(engine/driver.py `_look_run`, engine/position.py `run(until=...)`): the action's cascade, the turn's end and the
next player's step menu are not run for every option tried.  When something after an action can fail (a
`require` at the turn's end), the run goes on to the next decision as before, and an option that the turn's
end would refuse is still refused with its reason.  Stopping early changes no menu and no reason.
"""

from __future__ import annotations

import pytest

from conftest import SPECS, make_game
from test_fallibility import same_menus
from orrery.interpreter.engine import driver
from orrery.interpreter.engine.game import Game
from orrery.interpreter.engine.position import Position

# Spend coins on goods: each buy is checked by look-ahead (its `require`); with DEBT, the turn's end refuses
# a player left with fewer than 0 coins (something after the action can fail).
SPEC = """
orrery: 1
game: {name: stall-row, players: {min: 2, max: 2}}
components:
  tracks:
    coins: {start: 2}
    goods: {start: 0}
flow:
  phases:
    - name: main
      steps: [{actions: [buy, save]}]
      turn_end: |
        TURN_END
actions:
  buy:
    params:
      n: {from: "[1, 2, 3]", prompt: "How many?"}
    effect: |
      require n <= 2 or current.goods == 0 else "three at once only as a first buy"
      current.coins -= n
      current.goods += n
  save:
    effect: current.coins += 1
end:
  stocked:
    when: round > 4
    winners: "[p for p in players where p.goods >= 4]"
"""


def _game(tmp_path, debt: bool) -> Game:
    end = 'require current.coins >= 0 else "no debts at the end of a turn"' if debt else "current.coins += 0"
    return make_game(tmp_path, SPEC.replace("TURN_END", end))


def _look_results(monkeypatch, game: Game, seeds: range) -> list:
    """Random games; every look-ahead run's result (the decision it stopped at, None when it stopped at the end
    of its action or the game) and how it ran."""
    seen: list = []
    look_run = driver.GameState._look_run
    run = Position.run

    def spy(self, q, scope):
        nxt = look_run(self, q, scope)
        seen.append(("stopped", None if nxt is None else nxt.kind))
        return nxt

    def spy_run(self, until=None):
        if until is not None:
            seen.append(("until", until))
        return run(self, until)

    monkeypatch.setattr(driver.GameState, "_look_run", spy)
    monkeypatch.setattr(Position, "run", spy_run)
    for seed in seeds:
        gs = game.new_initial_state(seed=seed)
        while not gs.is_terminal():
            options = gs.legal_options()
            gs.apply(options[seed % len(options)].index)
    return seen


def test_a_run_stops_at_its_actions_end(tmp_path, monkeypatch, engine):
    game = _game(tmp_path, debt=False)
    assert not game.rules.fallibility.tail
    seen = _look_results(monkeypatch, game, range(3))
    assert ("until", "buy") in seen
    assert ("stopped", "action") not in seen  # (never ran on to the next player's step menu)


def test_a_run_goes_on_when_the_turns_end_can_fail(tmp_path, monkeypatch, engine):
    game = _game(tmp_path, debt=True)
    assert game.rules.fallibility.tail
    seen = _look_results(monkeypatch, game, range(3))
    assert not [s for s in seen if s[0] == "until"] and ("stopped", "action") in seen
    gs = game.new_initial_state(seed=0)
    gs.apply(next(o.index for o in gs.legal_options() if o.label == "buy"))
    assert [o.label for o in gs.legal_options()] == ["1", "2"]  # (3 would leave 2 coins at -1)
    rejected = gs.pos.decision.rejected
    assert [label for label, _ in rejected] == ["3"] and "no debts at the end of a turn" in rejected[0][1]


@pytest.mark.parametrize("spec", ["sightline.yaml", "price-list.yaml"])
def test_stopping_at_the_actions_end_changes_no_menu(spec, monkeypatch):
    """The same random games, with every look-ahead run going on to the next decision, offer the same menus
    and refuse the same options for the same reasons."""
    early, full = Game.load(SPECS / spec, mode="compiled"), Game.load(SPECS / spec, mode="compiled")
    assert not early.rules.fallibility.tail
    look_run = driver.GameState._look_run
    monkeypatch.setattr(driver.GameState, "_look_run",
                        lambda self, q, scope: look_run(self, q, None if self.game is full else scope))
    for seed in range(4):
        same_menus(full, early, seed)
