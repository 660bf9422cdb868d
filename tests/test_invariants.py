"""Invariants: conditions that hold after every step, and values that never decrease."""

from __future__ import annotations

from conftest import make_game
from orrery.interpreter.bots.simulate import simulate

# A made-up "ratchet": each turn a player adds 1 or 2 to their score, or (in the leaky
# version) loses 1.  The invariants say scores never decrease and stay within bounds.
SPEC = """
orrery: 1
game: {name: ratchet, players: {min: 2, max: 2}}
components:
  tracks:
    score: {min: 0, max: 50}
flow:
  phases:
    - name: main
      steps: [{actions: [up_one, up_two, LEAK]}]
actions:
  up_one: {effect: "current.score += 1"}
  up_two: {effect: "current.score += 2"}
  leak: {effect: "current.score -= 1"}
end:
  done: {when: "any(p.score >= 10 for p in players)"}
invariants:
  bounded: "all(p.score <= 11 for p in players)"
  ratchet:
    never_decreases: "[p.score for p in players]"
"""


def test_never_decreases_holds_when_scores_only_grow(tmp_path):
    game = make_game(tmp_path, SPEC.replace(", LEAK", ""))
    result = simulate(game, 10, 2, 1, ["random"], check=True)
    assert result["violations"] == []


def test_never_decreases_catches_a_drop(tmp_path):
    game = make_game(tmp_path, SPEC.replace("LEAK", "leak"))
    result = simulate(game, 10, 2, 1, ["random"], check=True)
    drops = [v for v in result["violations"] if v["invariant"] == "ratchet"]
    assert drops, "some random game takes the leak action after scoring"
    assert "went down from" in str(drops[0]["value"])
    assert drops[0]["where"].endswith(":20:23")  # the never_decreases expression: its "[" inside the quotes
    assert all(v["invariant"] != "bounded" for v in result["violations"])
