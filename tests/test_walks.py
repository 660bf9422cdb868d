"""Edges that carry attributes, walks on boards (`path`, `path_cost`, `reachable`) and zones keyed by a list
(`per:`), on the made-up game tests/specs/ring-road.yaml and small specs, on both engines."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS, error_line, evaluate, make_game, new_state, seeded_trace

from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

RING = SPECS / "ring-road.yaml"


def _ev(gs, text):
    return evaluate(gs, text)


def _labels(cells):
    return None if cells is None else [c.label for c in cells]


@pytest.fixture
def ring(engine):
    return new_state(Game(load_spec(RING)), players=2)


@pytest.mark.parametrize("text, want", [
    # north-east 2, east-south 1, south-west 0, west-north 3; a one-way bridge north -> south costs 1
    ('path(cell(roads, "north"), cell(roads, "south"), cost: edge.toll)', ["north", "south"]),
    # south to north: via east (1 + 2) or via west (0 + 3), both 3 in 2 steps: east comes first in node order
    ('path(cell(roads, "south"), cell(roads, "north"), cost: edge.toll)', ["south", "east", "north"]),
    # unit costs: two ways of 2 steps from east to west; the next cell first in node order wins (north)
    ('path(cell(roads, "east"), cell(roads, "west"))', ["east", "north", "west"]),
    # roads that cost none cannot be taken
    ('path(cell(roads, "north"), cell(roads, "west"), cost: if edge.toll == 0 then none else edge.toll)',
     ["north", "west"]),
    ('path(cell(roads, "south"), cell(roads, "south"))', ["south"]),
])
def test_paths(ring, text, want):
    assert _labels(_ev(ring, text)) == want


def test_cheapest_ties_go_to_fewer_steps(ring):
    # north to west: bridge + free road = 1 in 2 steps, or the west road = 3 in 1 step, or via east = 3
    assert _ev(ring, 'path_cost(cell(roads, "north"), cell(roads, "west"), cost: edge.toll)') == 1
    # all roads free: north-west directly (1 step) beats north-south-west (2 steps) at equal cost
    assert _labels(_ev(ring, 'path(cell(roads, "north"), cell(roads, "west"), cost: 0)')) == ["north", "west"]


def test_reachable_within_steps_and_within_a_budget(ring):
    assert _labels(_ev(ring, 'reachable(cell(roads, "south"), 1)')) == ["east", "south", "west"]
    assert _labels(_ev(ring, 'reachable(cell(roads, "south"), 0, cost: edge.toll)')) == ["south", "west"]
    assert _labels(_ev(ring, 'reachable(cell(roads, "north"), 1, cost: edge.toll)')) == ["north", "south", "west"]
    assert _ev(ring, 'reachable(cell(roads, "north"), -1)') == []


def test_edges_read_as_records_both_ways(ring):
    assert _ev(ring, 'edge(cell(roads, "east"), cell(roads, "north")).toll') == 2
    assert _ev(ring, 'edge(cell(roads, "north"), cell(roads, "east")).toll') == 2
    assert _ev(ring, 'edge(cell(roads, "south"), cell(roads, "north"))') is None  # the bridge is one-way
    assert _ev(ring, '[e.target.label for e in edges_of(cell(roads, "north"))]') == ["east", "west", "south"]
    assert _ev(ring, '[e.toll for e in edges_of(cell(roads, "south"))]') == [1, 0]


@pytest.mark.parametrize("text, fragment", [
    ('path(cell(roads, "north"), cell(roads, "east"), cost: -1)', "must be a whole number of at least 0"),
    ('path(cell(roads, "north"), 3)', "the end must be a cell, got the number 3"),
    ('stock["middle"]', "zone 'stock' has no key 'middle'"),
])
def test_walk_and_key_errors_are_located(ring, text, fragment):
    with pytest.raises(Exception) as err:
        _ev(ring, text)
    assert fragment in str(err.value)


def test_keyed_zones_hold_their_own_pieces(ring):
    assert _ev(ring, '[z.key for z in stock]') == ["north", "east", "south", "west"]
    assert _ev(ring, 'all(size(z) == 2 and all(g.town == z.key for g in z) for z in stock)') is True
    assert _ev(ring, 'stock["east"].name') == "stock"
    assert _ev(ring, 'zone_of(first(pieces(stock["west"])))') == _ev(ring, 'stock["west"]')


def test_views_name_keyed_zones_and_hide_what_they_hide(ring):
    view = ring.state.to_data(viewer=0, hide=True)["zones"]
    assert view["stock[east]"] == {"type": "pile", "count": 2}  # hidden: a count, no pieces
    full = ring.state.to_data()["zones"]
    assert [p["town"] for p in full["stock[east]"]["pieces"]] == ["east", "east"]


def test_a_game_plays_the_same_on_both_engines():
    spec = load_spec(RING)
    for seed in range(4):
        traces = [seeded_trace(Game(spec, mode=mode), seed, 2, 60) for mode in ("compiled", "interpreted")]
        assert traces[0] == traces[1]
        assert traces[0][-1][1] is not None  # the game ended


def test_travel_pays_the_cheapest_tolls(engine):
    gs = new_state(Game(load_spec(RING)), players=2)
    assert gs.decision.prompt.startswith("travel")  # resting is for those with fewer than 4 coins
    gs.apply_label("west")  # Amber: bridge (1) then the free road: 1 coin of 4
    assert _ev(gs, "players[0].coins") == 3
    assert _ev(gs, "size(players[0].haul)") == 1
    assert _ev(gs, 'size(stock["west"])') == 1
    assert "Amber travels north, south, west and takes a good" in gs.narration


BAD = """
orrery: 1
game: {name: bad-ring, players: {min: 1, max: 1}}
components:
  zones:
    roads:
      type: graph
      nodes: [a, b, c]
      edge_attributes: {toll: int}
      edges:
        - {from: a, to: b, tol: 3}
        - {from: b, to: c, toll: "x"}
        - [c, b]
        - {from: a, to: q}
    stock: {per: [red, blue, red]}
    other: {per: colours}
flow:
  phases: [{name: main, steps: [{actions: [go]}]}]
actions:
  go:
    effect: |
      move top(stock["rde"]) to stock
      let n = path_cost(cell(roads, "a"), cell(roads, "b"), cost: edge.toll > 2)
      let m = stock[true]
end:
  never: {when: "false", winners: "[]"}
"""


@pytest.mark.parametrize("fragment, line", [
    ("graph 'roads' declares no edge attribute 'tol' (did you mean 'toll'?)", 11),
    ("'x' does not fit attribute 'toll'", 12),
    ("graph 'roads' joins 'c' and 'b' twice (edge 2 already does)", 13),
    ("graph 'roads' has no node 'q'", 14),
    ("zone 'stock': key 'red' is listed twice", 15),
    ("zone 'other': per: 'colours' is not a constant", 16),
    ("zone 'stock' has no key 'rde'", 22),
    ("'stock' is one zone per key, not a place: pick one with stock[KEY]", 22),
    ("a cost must be a whole number (or none: that edge cannot be taken), but this is true/false", 23),
    ("a zone's key is a text or a number, but this is true/false", 24),
])
def test_misuse_is_a_located_error(tmp_path: Path, fragment: str, line: int):
    assert error_line(tmp_path, BAD, fragment) == line


def test_per_and_per_player_together_is_refused(tmp_path: Path):
    text = BAD.replace("other: {per: colours}", "other: {per: [a], per_player: true}")
    with pytest.raises(SpecError) as err:
        make_game(tmp_path, text)
    assert "either per_player or per: KEYS, not both" in str(err.value)


def test_an_owner_only_family_is_warned_about(tmp_path: Path):
    path = tmp_path / "hands.yaml"
    path.write_text(RING.read_text().replace("stock: {per: [north, east, south, west], visibility: hidden}",
                                             "stock: {per: [north, east, south, west], type: hand}"), encoding="utf-8")
    spec = load_spec(path)
    assert [w.message for w in spec.warnings] == [
        "zone 'stock': nobody owns a zone of a per: family, so visibility 'owner' shows its pieces to nobody"]
    view = Game(spec).new_initial_state(players=2, seed=0).state.to_data(viewer=0, hide=True)["zones"]
    assert view["stock[east]"] == {"type": "hand", "count": 2}


def test_the_command_line_exits_2_with_hints(tmp_path: Path, capsys):
    from orrery.interpreter.cli.main import main

    path = tmp_path / "bad.yaml"
    path.write_text(BAD, encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    out = "".join(capsys.readouterr())
    assert "bad.yaml:23:67: error: type error: a cost must be a whole number" in out
    assert "hint: to refuse some edges, write `cost: if CONDITION then N else none`" in out
    assert "hint: two one-way arrows, one each way, are written with directed: true on each" in out
