"""Computed messages: `choose ... else EXPR` per rejected value, `require ... else EXPR`, prompts;
and assignment targets that start with a call."""

from __future__ import annotations

import pytest

from conftest import evaluate, make_game, new_state
from orrery.interpreter.engine.game import IllegalMove

# A made-up "lantern row": light one of five lamps; a lamp next to a lit one is too hot, a lit
# one is already lit. Lighting raises the lamp's glow through a call-started assignment target.
SPEC = """
orrery: 1
game: {name: lantern-row, players: {min: 2, max: 2}}
components:
  pieces:
    lamp: {attributes: {lit: {type: bool, default: false}, glow: {type: int, default: 0}}, count: 5, start: shelf}
  zones:
    row: {type: grid, width: 5, height: 1}
    shelf: {type: pile}
functions:
  lamp_at: {params: [c], expr: "top(c)"}
  hot: {params: [c], expr: "any(lamp_at(a).lit for a in adjacent(c))"}
setup: |
  for c in cells(row) { draw 1 from shelf to c }
flow:
  phases:
    - name: main
      steps: [{actions: [light]}]
actions:
  light:
    effect: |
      choose c from cells(row) where not lamp_at(c).lit and not hot(c)
        else (if lamp_at(c).lit then text(c) + " is already lit" else text(c) + " is next to a lit lamp")
        prompt "Light a lamp, " + text(current)
      lamp_at(c).lit = true
      lamp_at(c).glow += 3
      require count(l for l in pieces(row) where l.lit) <= 2 else "no more than " + text(2) + " lamps"
end:
  dark: {when: "count(l for l in pieces(row) where l.lit) >= 2"}
"""


@pytest.fixture
def game(tmp_path):
    return make_game(tmp_path, SPEC)


def test_prompt_is_computed(game):
    gs = new_state(game)
    assert gs.decision.prompt == "Light a lamp, P1"


def test_each_rejected_value_gets_its_own_reason(game):
    gs = new_state(game)
    gs.apply_label("b1")
    assert [o.label for o in gs.decision.options] == ["d1", "e1"]
    with pytest.raises(IllegalMove, match="'b1' is not allowed: b1 is already lit"):
        gs.apply_label("b1")
    with pytest.raises(IllegalMove, match="'c1' is not allowed: c1 is next to a lit lamp"):
        gs.apply_label("c1")
    with pytest.raises(IllegalMove, match="'a1' is not allowed: a1 is next to a lit lamp"):
        gs.apply_label("a1")


def test_assignment_through_a_call_writes_the_piece(game):
    gs = new_state(game)
    gs.apply_label("b1")
    assert evaluate(gs, 'top(cell(row, "b1")).lit') is True
    assert evaluate(gs, 'top(cell(row, "b1")).glow') == 3
    assert evaluate(gs, 'top(cell(row, "a1")).lit') is False


def test_require_message_is_computed(tmp_path):
    spec = SPEC.replace('      require count(', '      require c != cell(row, "e1") else "the lamp on " + text(c) + " is broken"\n      require count(')
    gs = new_state(make_game(tmp_path, spec))
    assert "e1" not in [o.label for o in gs.decision.options]  # look-ahead removed the dead end
    with pytest.raises(IllegalMove, match="'e1' is not allowed: the lamp on e1 is broken"):
        gs.apply_label("e1")
