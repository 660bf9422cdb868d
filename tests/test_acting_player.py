"""The acting player (`current`) and the turn's player (`turn_player`): `perform NAME by P` (docs/dsl.md 4.23).

A made-up duel: the attacker's action emits an event; a trigger asks the target whether to dodge, and the
target performs `dodge`.  The dodge must move the target's own token, charge the target's energy and ask
the target its parameter, while `turn_player` stays the attacker; once it is done the attacker acts again.
Before, `perform` inside the trigger acted for the turn's player (the attacker's token moved) and the spec
validated cleanly; a `perform` without `by` after a `choose ... by P` is now a located error.
"""

from __future__ import annotations

import textwrap

import pytest

from conftest import make_game
from orrery.interpreter.core.values import ZoneRef
from orrery.rulespec.loader import load_spec
from orrery.rulespec.errors import SpecError

DUEL = """
orrery: 1
game: {name: duel, players: {min: 3, max: 3}}
components:
  pieces:
    token: {attributes: {owner: player}, unlimited: true}
  zones:
    home: {per_player: true}
    away: {per_player: true}
  tracks:
    energy: {start: 2}
variables:
  seen: {type: list, start: "[]"}
  after: {start: -1}
setup: |
  for p in players { create token {owner: p} in p.home }
flow:
  phases:
    - name: play
      steps: [{actions: [attack]}]
actions:
  attack:
    params:
      target: {from: "[p for p in players where p != current]"}
    effect: |
      emit attacked(target: target)
      after = current
  dodge:
    cost: {energy: 1}
    params:
      dest: {from: "[current.away, current.home]"}
    effect: |
      seen += [[current, turn_player]]
      move top(current.home) to dest
  rest:
    effect: pass
triggers:
  ask_target:
    on: attacked
    effect: |
      choose answer from ["dodge", "rest"] by event.target prompt "Dodge?"
      if answer == "dodge" { perform dodge by event.target } else { perform rest by event.target }
end:
  never: {when: "round > 3", winners: "[]"}
"""


@pytest.fixture(params=["compiled", "interpreted"])
def duel(request, tmp_path):
    game = make_game(tmp_path, DUEL)
    from orrery.interpreter.engine.game import Game

    return Game(game.spec, mode=request.param)


def test_a_reacting_player_performs_for_themselves(duel):
    gs = duel.new_initial_state(players=3, seed=1)
    attacker = gs.current_player()
    target = (attacker + 2) % 3
    gs.apply_label(gs.state.rules.seat_name(target))  # attack: the target
    assert gs.decision.prompt == "Dodge?" and gs.current_player() == target
    gs.apply_label("dodge")
    assert gs.current_player() == target  # dodge's parameter is the target's to choose
    gs.apply_label(f"away of {gs.state.rules.seat_name(target)}")
    s = gs.state
    assert s.pvars[target]["energy"] == 1 and s.pvars[attacker]["energy"] == 2  # the target paid
    assert len(s.contents(ZoneRef("away", target))) == 1 and not s.contents(ZoneRef("away", attacker))
    assert s.vars["seen"] == [[target, attacker]]  # current: the target; turn_player: the attacker
    assert s.vars["after"] == attacker  # back in the attack's effect, the attacker acts again
    assert s.cursor.current == s.cursor.turn_player == (attacker + 1) % 3  # the next turn, as usual


def test_pass_by_another_player_does_not_end_the_turn(duel):
    gs = duel.new_initial_state(players=3, seed=1)
    attacker = gs.current_player()
    target = (attacker + 1) % 3
    gs.apply_label(gs.state.rules.seat_name(target))
    gs.apply_label("rest")  # the target performs `rest`, whose effect says `pass`
    assert target in gs.state.cursor.passed and attacker not in gs.state.cursor.passed
    assert gs.current_player() == (attacker + 1) % 3  # the attacker's turn ended as usual (one step)


def _findings(tmp_path, text):
    path = tmp_path / "rules.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    return err.value.findings


def test_perform_without_by_after_a_choose_by_another_player_is_an_error(tmp_path):
    text = DUEL.replace("{ perform dodge by event.target }", "{ perform dodge }")
    [f] = [f for f in _findings(tmp_path, text) if f.severity == "error"]
    assert "`perform dodge` acts for `current`" in f.message and "choose answer ... by event.target" in f.message
    assert "perform dodge by event.target" in f.hint and "by current" in f.hint
    line = text.splitlines()[f.span.line - 1]
    assert line[f.span.col - 1:].startswith("perform dodge }")


def test_perform_by_current_keeps_the_acting_player_and_validates(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text(textwrap.dedent(DUEL.replace("perform dodge by event.target", "perform dodge by current")))
    load_spec(path)  # no error


def test_perform_by_needs_a_player(tmp_path):
    text = DUEL.replace("perform dodge by event.target", 'perform dodge by "them"')
    [f] = [f for f in _findings(tmp_path, text) if f.severity == "error"]
    assert f.message == "type error: `perform ... by` needs a player, but this is text"
