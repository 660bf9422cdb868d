"""Lantern Fair (games/lantern-fair, docs/dsl.md 11): the card game that puts records, limits and costs,
reactions, effects carried by cards and secret simultaneous choices together.  Its scenarios run with the
bundled games'; here, the hidden-information check of issue 30 for its sealed bids and its secret hands:

- at every sealed bid asked after another player's, what each player is shown (view, narration, the
  table's lines, the screen) is the same whatever the players before could have bid
  (tests/test_commit_secrecy.py's check);
- at every decision, what each player is shown is the same in a twin world where the deck's cards are in
  the other order with each other's faces, and no narration line names a card hidden from them.
"""

from __future__ import annotations

import pytest

from conftest import budget
from orrery.interpreter.bots.factory import RandomBot
from orrery.interpreter.cli.play import narrated
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.core.values import ZoneRef
from orrery.interpreter.engine.game import Game
from orrery.interpreter.engine.gamefiles import games_root
from test_commit_secrecy import _alternatives, shown_to

GAME = games_root() / "lantern-fair" / "rules.yaml"
SEEDS = range(budget(3, 10))


@pytest.mark.parametrize("players", [2, 3])
def test_nobody_is_shown_another_players_pending_bid(players):
    game = Game.load(GAME)
    checked = 0
    for seed in SEEDS:
        gs = game.new_initial_state(players=players, seed=seed)
        rng = Rng(seed)
        start, since, asked = None, 0, []
        while not gs.is_terminal():
            d = gs.decision
            committed = gs.view()["commit"]["committed"] if d.sealed else []
            if d.sealed and (not committed or committed != [seat for seat, _, _ in asked]):  # a new bidding
                # (it starts with nobody's bid, or with an automatic bid of a player without coins: not checked)
                start, since, asked = (gs.clone(), len(gs.steps), []) if not committed else (None, 0, [])
            if d.sealed and asked:
                for viewer in range(players):
                    real = shown_to(gs, viewer, since)
                    for answers, alt in _alternatives(start, asked, viewer):
                        assert shown_to(alt, viewer, since) == real, (seed, viewer, answers)
                        checked += 1
            index = gs.legal_actions()[rng.below(len(gs.legal_actions()))]
            if d.sealed and start is not None:
                asked.append((d.player, gs.legal_actions(), index))
            gs.apply(index)
    assert checked >= 8


def _unseen(gs, viewer: int) -> list[int]:
    """The cards nobody sees: the deck (stalls and tricks lie face up)."""
    return list(gs.state.contents(ZoneRef("deck")))


def _twin(gs, viewer: int):
    """A copy where the cards `viewer` cannot see carry each other's faces, the other way round."""
    twin = gs.clone()
    pids = _unseen(twin, viewer)
    faces = [dict(twin.state.attrs[p]) for p in pids]
    for pid, face in zip(pids, faces[::-1]):
        for k, v in face.items():
            twin.state.set_attr(pid, k, v)
    return twin, faces != faces[::-1]


@pytest.mark.parametrize("seed", SEEDS)
def test_views_and_narration_tell_nobody_the_cards_they_cannot_see(seed):
    gs = Game.load(GAME).new_initial_state(players=3, seed=seed, narrate=True)
    bot = RandomBot(seed)
    compared = 0
    while not gs.is_terminal():
        for viewer in range(3):
            if viewer != gs.current_player():  # another's options may name their cards
                assert set(gs.view(viewer)["decision"]) <= {"player", "prompt", "sealed"}
            twin, differs = _twin(gs, viewer)
            assert twin.view(viewer) == gs.view(viewer), (seed, viewer)
            assert twin.narration == gs.narration
            compared += differs
        before = gs.clone()
        gs.apply(bot.choose(gs))
        assert narrated(before, gs) == []
    assert compared > 0
