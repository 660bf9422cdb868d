"""Visibility tests: gs.view(p) shows an owner-only hand to its owner and a count to others,
hidden zones as counts to everyone, per-player/global variables by visibility; view(None) shows all.

Uses the made-up "draw and discard" card game (tests/specs/draw-discard.yaml).
"""

from __future__ import annotations

import json

import pytest

from conftest import SPECS, load_game, new_state
from orrery.interpreter.core.values import ZoneRef

CARDS = SPECS / "draw-discard.yaml"


@pytest.fixture(scope="module")
def game():
    return load_game(CARDS)


@pytest.fixture()
def gs(game):
    return new_state(game, players=3, seed=5)


def pieces_of(gs, zone):
    ids = gs.state.contents(zone)
    return [{"id": i, "kind": gs.state.kinds[i], **gs.state.attrs[i]} for i in ids]


def hand(p):
    return ZoneRef("hand", p)


# ================================================================= zones

@pytest.mark.parametrize("viewer", [0, 1, 2])
def test_owner_hand_is_visible_to_its_owner_only(gs, viewer):
    v = gs.view(viewer)
    assert v["viewer"] == viewer
    for p in range(3):
        z = v["zones"][f"hand[{p}]"]
        assert z["type"] == "hand"
        assert z["count"] == len(gs.state.contents(hand(p)))
        if p == viewer:
            assert z["pieces"] == pieces_of(gs, hand(p))
        else:
            assert "pieces" not in z


def test_counts_of_hidden_hands(gs):
    v = gs.view(2)
    # player 0 has drawn at the start of the turn: 3 cards; the others hold 2
    assert [v["zones"][f"hand[{p}]"]["count"] for p in range(3)] == [3, 2, 2]


@pytest.mark.parametrize("viewer", [0, 1, 2])
def test_hidden_zone_shows_a_count_to_everyone(gs, viewer):
    z = gs.view(viewer)["zones"]["bag"]
    assert z == {"type": "bag", "count": 8 - 7}


def test_public_zone_shows_pieces_to_everyone(gs):
    gs.apply(gs.legal_actions()[0])
    discarded = pieces_of(gs, ZoneRef("discard"))
    assert len(discarded) == 1
    for viewer in (None, 0, 1, 2):
        assert gs.view(viewer)["zones"]["discard"]["pieces"] == discarded


@pytest.mark.parametrize("viewer", [0, 1, 2])
def test_owner_board_cells_show_counts_to_others(gs, viewer):
    zones = gs.view(viewer)["zones"]
    for p in range(3):
        cells = zones[f"mat[{p}]"]["cells"]
        if p == viewer:
            assert len(cells["a1"]) == 1 and cells["a1"][0]["rank"] == 9
        else:
            assert cells == {"a1": 1}


def test_view_none_shows_everything(gs):
    v = gs.view(None)
    assert "viewer" not in v
    for p in range(3):
        assert v["zones"][f"hand[{p}]"]["pieces"] == pieces_of(gs, hand(p))
        assert v["zones"][f"mat[{p}]"]["cells"]["a1"][0]["rank"] == 9
    assert len(v["zones"]["bag"]["pieces"]) == 1
    assert [pl["secret"] for pl in v["players"]] == [100, 101, 102]
    assert [pl["sealed"] for pl in v["players"]] == [7, 7, 7]
    assert v["vars"]["dealer_note"] == 42 and v["vars"]["open_note"] == "hello"


def test_state_to_data_without_hiding_matches_view_none(gs):
    data = gs.state.to_data(None)
    v = gs.view(None)
    v.pop("decision")
    assert data == v


# ================================================================= variables

@pytest.mark.parametrize("viewer", [0, 1, 2])
def test_owner_variables_are_visible_to_their_owner_only(gs, viewer):
    players = gs.view(viewer)["players"]
    for p, entry in enumerate(players):
        assert entry["seat"] == p and entry["name"] == f"P{p + 1}"
        assert entry["points"] == 0                      # a public track
        assert ("secret" in entry) == (p == viewer)
        if p == viewer:
            assert entry["secret"] == 100 + p
        assert "sealed" not in entry                     # hidden: nobody, not even the owner


@pytest.mark.parametrize("viewer", [0, 1, 2])
def test_hidden_global_variables(gs, viewer):
    vars_ = gs.view(viewer)["vars"]
    assert "dealer_note" not in vars_
    assert vars_["open_note"] == "hello" and vars_["played"] == []


def test_view_general_fields(gs):
    v = gs.view(1)
    assert (v["game"], v["round"], v["turn"], v["current"], v["phase"]) == ("draw-discard", 1, 1, 0, "turns")
    assert v["removed"] == 0
    json.dumps(v)  # JSON-able


def test_view_after_the_end_has_the_outcome(gs):
    from conftest import playout
    playout(gs)
    v = gs.view(0)
    assert v["outcome"]["end"] == "bag_empty"
    assert v["outcome"]["winners"] == gs.outcome().winners
    assert "decision" not in v


@pytest.mark.parametrize("viewer", [0, 1, 2])
def test_no_hidden_piece_id_appears_in_another_players_view(gs, viewer):
    hidden = [i for p in range(3) if p != viewer for i in gs.state.contents(hand(p))]
    hidden += list(gs.state.contents(ZoneRef("bag")))
    text = json.dumps(gs.view(viewer)["zones"])
    for pid in hidden:
        assert f'"id": {pid},' not in text


def test_the_pending_decision_does_not_leak_a_hidden_hand(gs):
    assert gs.decision.player == 0 and gs.decision.prompt == "Discard which card?"
    hidden_labels = [o.label for o in gs.decision.options]
    assert len(hidden_labels) == 3
    text = json.dumps(gs.view(1))
    for label in hidden_labels:
        assert label not in text
    # the owner does see them
    assert all(label in json.dumps(gs.view(0)) for label in hidden_labels)
