"""Bounds written as expressions (docs/dsl.md 2.3.3, interpreter/reference/bounds.py) on both engines, with the
made-up game tests/specs/reservoir.yaml: each player's `water` is kept within their own `reserve` and `tank`,
their `cistern` holds `cisterns` drops, and a cost never takes water below the payer's reserve."""

from __future__ import annotations

import pytest

from conftest import SPECS
from test_differential import play_lockstep
from orrery.interpreter.core.values import ZoneRef
from orrery.interpreter.engine.driver import IllegalMove
from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

RESERVOIR = SPECS / "reservoir.yaml"
MODES = ("compiled", "interpreted")


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    spec = load_spec(RESERVOIR)
    return {mode: Game(spec, mode=mode) for mode in MODES}


def water(gs, seat: int) -> int:
    return gs.state.pvars[seat]["water"]


def turns(gs, *labels: str) -> None:
    """One action per turn: Ann's, then Bo's `build` (which touches no water), and so on."""
    for label in labels:
        gs.apply_label(label)
        gs.apply_label("build")


@pytest.mark.parametrize("mode", MODES)
def test_each_player_is_clamped_to_their_own_bound(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    turns(gs, "rain")
    assert water(gs, 0) == 4  # 2 + 3, held to Ann's tank of 4
    turns(gs, "enlarge", "rain")
    assert water(gs, 0) == 6  # her tank is 6 now: the bound is read at each assignment


@pytest.mark.parametrize("mode", MODES)
def test_a_bound_that_moves_under_a_value_leaves_it_until_the_next_assignment(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    turns(gs, "rain", "shrink")
    assert gs.state.pvars[0]["tank"] == 1 and water(gs, 0) == 4  # over the new bound: not changed by itself
    turns(gs, "rain")
    assert water(gs, 0) == 1  # the next assignment clamps to the tank of 1


@pytest.mark.parametrize("mode", MODES)
def test_a_cost_stops_at_the_payers_own_minimum(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    turns(gs, "rain", "save", "save")  # water 4, reserve 2
    turns(gs, "sell")
    assert water(gs, 0) == 2 and gs.state.pvars[0]["score"] == 1
    with pytest.raises(IllegalMove, match="'sell' costs 2 water; you have 2 and may not go below 2"):
        gs.apply_label("sell")


@pytest.mark.parametrize("mode", MODES)
def test_a_capacity_per_owner(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    turns(gs, "store")
    with pytest.raises(IllegalMove, match="cistern of Ann can hold at most 1"):
        gs.apply_label("store")
    gs.apply_label("build")  # Ann builds a second cistern; Bo builds too
    gs.apply_label("build")
    turns(gs, "store")
    assert len(gs.state.contents(ZoneRef("cistern", 0))) == 2


@pytest.mark.parametrize("seed", range(3))
def test_both_engines_play_the_same_games(games, seed):
    assert play_lockstep(games["compiled"], games["interpreted"], 2, seed) > 0


@pytest.mark.parametrize("replace, where, fragment", [
    (("max: p.tank", 'max: p.tank + "x"'), "18:53", "'+' needs"),
    (("max: p.tank", 'max: "random_int(1, 3)"'), "18:45", "a bound may not draw random numbers: random_int()"),
    (("capacity: p.cisterns", "capacity: p.cistrens"), "16:45", "no attribute 'cistrens' (did you mean 'cisterns'?)"),
    (("capacity: p.cisterns", """capacity: '"many"'"""), "16:44", "`capacity` must be a number, but this is text"),
])
def test_a_bad_bound_is_a_located_error(tmp_path, replace, where, fragment):
    path = tmp_path / "rules.yaml"
    path.write_text(RESERVOIR.read_text().replace(*replace))
    with pytest.raises(SpecError) as err:
        load_spec(path)
    found = [(f"{f.span.line}:{f.span.col}", f.message) for f in err.value.findings]
    assert any(w == where and fragment in m for w, m in found), found
