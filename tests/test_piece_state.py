"""Per-piece mutable state (`state:` with defaults and `reset: turn|phase|round`) on the made-up game
tests/specs/lanterns.yaml, on both engines: defaults and instance values, assignment, resets at each scope's
end, views by the zone's visibility, digests, clones and replays."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS, error_line, evaluate, make_game, new_state, seeded_trace

from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

LANTERNS = SPECS / "lanterns.yaml"


@pytest.fixture
def gs(engine):
    return new_state(Game(load_spec(LANTERNS)), players=2)


def lamp(gs, seat: int, name: str, field: str):
    return evaluate(gs, f'first([l for l in players[{seat}].hand where l.name == "{name}"]).{field}')


def test_defaults_and_instance_values(gs):
    assert evaluate(gs, "[l.facing for l in players[0].hand]") == ["N", "N", "E"]
    assert evaluate(gs, "[l.shuttered for l in players[0].hand]") == [False, True, False]
    assert evaluate(gs, "[l.sparks for l in players[1].hand]") == [0, 0, 0]


def test_state_changes_and_each_scope_puts_its_fields_back(gs):
    gs.apply_label("light")
    gs.apply_label("red lamp")  # seat 0, dusk: lit, used, a spark (it faced north), now facing east
    assert (lamp(gs, 0, "red lamp", "lit"), lamp(gs, 0, "red lamp", "sparks")) == (False, 1)  # the turn ended
    assert (lamp(gs, 0, "red lamp", "used"), lamp(gs, 0, "red lamp", "facing")) == (True, "E")
    assert lamp(gs, 0, "blue lamp", "shuttered") is True
    gs.apply_label("wait")  # seat 1 ends dusk: every shutter opens (reset: phase)
    assert lamp(gs, 0, "blue lamp", "shuttered") is False and lamp(gs, 1, "blue lamp", "shuttered") is False
    gs.apply_label("light")
    assert "red lamp" not in [o.label for o in gs.decision.options]  # used this round
    gs.apply_label("blue lamp")
    gs.apply_label("wait")  # round 1 ends: `used` goes back for everyone (reset: round)
    assert lamp(gs, 0, "red lamp", "used") is False and lamp(gs, 0, "blue lamp", "used") is False
    assert lamp(gs, 0, "blue lamp", "sparks") == 1  # sparks are kept


def test_views_show_state_only_where_the_zone_is_seen(gs):
    gs.apply_label("light")
    gs.apply_label("gold lamp")  # faced east: turned to south, no spark
    own = gs.state.to_data(viewer=0, hide=True)["zones"]["hand[0]"]
    assert [p["facing"] for p in own["pieces"]] == ["N", "N", "S"]
    other = gs.state.to_data(viewer=1, hide=True)["zones"]["hand[0]"]
    assert other == {"type": "hand", "count": 3}  # an owner-only hand: a count, and no piece state


def test_digests_and_clones_carry_state(gs):
    before = gs.state.digest()
    copy = gs.clone()
    gs.apply_label("light")
    gs.apply_label("gold lamp")
    assert gs.state.digest() != before
    assert copy.state.digest() == before  # the copy's pieces did not turn
    assert evaluate(copy, '[l.facing for l in players[0].hand]') == ["N", "N", "E"]


def test_a_game_replays_and_plays_the_same_on_both_engines():
    spec = load_spec(LANTERNS)
    for seed in range(3):
        traces = [seeded_trace(Game(spec, mode=mode), seed, 2, 40) for mode in ("compiled", "interpreted")]
        assert traces[0] == traces[1]
        history = traces[0][-1][2]
        again = Game(spec).new_initial_state(players=2, seed=seed)
        for index in history:
            again.apply(index)
        assert again.digest() == traces[0][-2][3]


BAD = """
orrery: 1
game: {name: bad-lamps, players: {min: 1, max: 1}}
components:
  pieces:
    lamp:
      attributes: {colour: str}
      state:
        colour: bool
        kind: int
        lit: {type: bool, default: false, reset: game}
      instances: [{colour: red, lits: true}]
  zones:
    shelf: {}
flow:
  phases: [{name: main, steps: [{actions: [go]}]}]
actions:
  go:
    effect: |
      create lamp {shine: 1} in shelf
end:
  never: {when: "false", winners: "[]"}
"""


def test_reset_scopes_are_checked(tmp_path: Path):
    with pytest.raises(SpecError) as err:
        make_game(tmp_path, BAD)
    assert "Input should be 'turn', 'phase' or 'round'" in str(err.value)


@pytest.mark.parametrize("fragment, line", [
    ("state field 'colour' has the name of one of its attributes", 9),
    ("state field 'kind' has the name of a piece's built-in attribute", 10),
    ("piece kind 'lamp' declares no attribute 'lits' (did you mean 'lit'?)", 12),
])
def test_misuse_is_a_located_error(tmp_path: Path, fragment: str, line: int):
    assert error_line(tmp_path, BAD.replace("reset: game", "reset: round"), fragment) == line
