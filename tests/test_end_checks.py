"""End checks: which end conditions read the flow's cursor (flow.reads_flow), and that a condition
found false is checked again exactly when something it reads has changed.  Made-up games only."""

from __future__ import annotations

import pytest

from conftest import make_game
from orrery.interpreter.engine.flow import reads_flow
from orrery.rulespec.parser import parse_expr

BASE = """
orrery: 1
game: {name: ends, players: {min: 2, max: 2}}
variables: {n: {start: 0}}
functions:
  far: {params: [k], expr: "n >= k"}
  late: {params: [k], expr: "round >= k"}
  shadow: {params: [round], expr: "round > 3"}
flow:
  phases:
    - name: play
      order: clockwise
      steps: [{actions: [tick]}]
actions:
  tick:
    effect: |
      EFFECT
end:
  enough: {when: "END", winners: "[]"}
"""


@pytest.mark.parametrize("expr, reads", [
    ("n > 3", False),
    ("far(3)", False),
    ("count(p for p in players where p != none) > 5", False),  # players never changes in a game
    ("current == 1", True),
    ("round > 2", True),
    ("late(2)", True),  # through a function
    ("shadow(n)", False),  # a parameter named like a special name is the parameter
    ("any(p.passed for p in players)", True),
    ("cascade > 0", True),  # a special name, though the key covers it anyway
])
def test_reads_flow(tmp_path, expr, reads):
    game = make_game(tmp_path, BASE.replace("END", "n > 100").replace("EFFECT", "n += 1"))
    assert reads_flow(game.rules, parse_expr(expr)) is reads


@pytest.mark.parametrize("effect, when, moves", [
    ("n += 1", "n >= 3", 3),  # reads only a variable: checked again when it changes
    ("n += 1", "current == 1 and n >= 2", 2),
    # the moves change nothing in the state: only the flow's cursor moves on, and the check must see it
    ('say "tick"', "round >= 3", 4),
    ('say "tick"', "current == 1", 1),
])
def test_an_end_found_false_is_checked_again_when_what_it_reads_changes(tmp_path, engine, effect, when, moves):
    # one action: every step answers itself, so the game runs to its end as it starts; 20 turns at most
    text = BASE.replace('"END"', f'"{when}"').replace("EFFECT", effect)
    text = text.replace("  enough:", "  stuck: {when: \"round > 20\", winners: \"[]\"}\n  enough:")
    gs = make_game(tmp_path, text).new_initial_state(seed=0)
    assert gs.state.outcome.end == "enough", "the end condition was never checked again"
    assert len(gs.steps) == moves
