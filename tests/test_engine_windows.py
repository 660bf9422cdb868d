"""The constructs the next issues add fit the position model as it is (issue 17's first paragraph).

A made-up game plays the shapes `../shared/design/cards-and-reactions.md` proposes, written with today's
language: a reaction window (every other player, in turn order, answers a question inside the acting
player's move, and may pass), a secret commit (each player answers in seat order; the answers are
revealed together after the last), and a use limit.  The position must carry each of them as plain data:
the decider named by the pending decision is not the turn's player, a clone taken inside the window or the
commit continues on its own, `to_json`/`state_from_json` rebuilds the same position, and both engines
agree at every step.
"""

from __future__ import annotations

import json

import pytest

from conftest import make_game
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.engine.game import Game

WINDOWS = """
orrery: 1
game: {name: windows, players: {min: 3, max: 3}}
variables:
  blocked: {start: 0}
  pot: {start: 0}
  bids: {type: list, start: "[]"}
flow:
  phases:
    - name: play
      steps: [{actions: [attack, rest]}, {actions: [attack, rest]}]
actions:
  attack:
    limit: 1
    params:
      power: {from: "[1, 2, 3]"}
    effect: |
      say text(current) + " attacks with " + text(power)
      let reacted = []
      for p in players where p != current {
        choose answer from ["block", "boost"] by p optional prompt "React to the attack?"
        if answer == "block" { blocked += 1 }
        reacted += [answer]
      }
      let sealed = []
      for p in players {
        choose bid from [0, 1, 2] by p prompt "Your secret bid"
        sealed += [bid]
      }
      bids = sealed
      pot += power + sum(sealed)
      say "revealed " + text(sealed)
  rest:
    effect: |
      pot += 1
end:
  rich: {when: "pot >= 30", winners: "[]"}
"""


@pytest.fixture(scope="module")
def engines(tmp_path_factory) -> tuple[Game, Game]:
    fast = make_game(tmp_path_factory.mktemp("windows"), WINDOWS, name="windows.yaml")
    return fast, Game(fast.spec, mode="interpreted")


def _to_window(gs) -> None:
    """Answer the step menu with `attack` and its power: the first reaction is then pending."""
    gs.apply_label("attack")
    gs.apply_label("2")


def test_the_window_asks_the_other_players_in_turn_order_inside_the_move(engines):
    fast, _ = engines
    gs = fast.new_initial_state(seed=1)
    mover = gs.state.cursor.current
    _to_window(gs)
    asked = []
    while gs.decision.prompt == "React to the attack?":
        asked.append(gs.current_player())
        assert gs.state.cursor.current == mover  # still the mover's turn: the decider is someone else
        assert [o.label for o in gs.legal_options()] == ["block", "boost", "skip"]
        gs.apply_label("block" if len(asked) == 1 else "skip")  # pass is always there
    assert asked == [(mover + 1) % 3, (mover + 2) % 3]
    assert gs.state.vars["blocked"] == 1


def test_a_secret_commit_reveals_every_bid_together_after_the_last(engines):
    fast, _ = engines
    gs = fast.new_initial_state(seed=1)
    _to_window(gs)
    while gs.decision.prompt == "React to the attack?":
        gs.apply_label("skip")
    deciders = []
    for bid in ["2", "0", "1"]:
        assert gs.decision.prompt == "Your secret bid"
        deciders.append(gs.current_player())
        assert gs.state.vars["bids"] == []  # nothing revealed while bids are still open
        gs.apply_label(bid)
    assert deciders == [0, 1, 2]  # seat order, whoever moves
    assert gs.state.vars["bids"] == [2, 0, 1]
    assert gs.narration[-1] == "revealed 2, 0, 1"


def test_a_clone_inside_the_window_continues_alone_and_json_rebuilds_it(engines):
    fast, _ = engines
    gs = fast.new_initial_state(seed=4)
    _to_window(gs)
    gs.apply_label("boost")  # one reaction given, one still to come
    twin = gs.clone()
    again = fast.state_from_json(gs.to_json())
    assert twin.digest() == gs.digest() == again.digest()
    gs.apply_label("block")
    assert twin.state.vars["blocked"] == 0 and gs.state.vars["blocked"] == 1  # the copy did not move
    for other in (twin, again):
        other.apply_label("block")
        assert other.digest() == gs.digest() and other.narration == gs.narration


def test_the_use_limit_is_counted_per_turn_whoever_answers_inside_it(engines):
    fast, _ = engines
    gs = fast.new_initial_state(seed=2)
    mover = gs.current_player()
    _to_window(gs)
    for _ in range(5):  # two reactions and three bids, answered by all three players
        gs.apply(gs.legal_actions()[0])
    # the turn's second step offered `rest` alone (attack: once per turn), so it answered itself
    last = gs.steps[-1]
    assert (last.player, last.label, last.auto) == (mover, "rest", True)
    assert gs.current_player() != mover and "attack" in [o.label for o in gs.legal_options()]


@pytest.mark.parametrize("seed", range(6))
def test_both_engines_agree_through_windows_and_commits(engines, seed):
    fast, ref = engines
    a, b = fast.new_initial_state(seed=seed), ref.new_initial_state(seed=seed)
    rng = Rng(seed)
    steps = 0
    while not a.is_terminal() and steps < 200:
        assert a.legal_options() == b.legal_options() and a.current_player() == b.current_player()
        choice = a.legal_actions()[rng.below(len(a.legal_actions()))]
        a.apply(choice)
        b.apply(choice)
        assert a.digest() == b.digest() and a.narration == b.narration
        steps += 1
    assert a.is_terminal() and b.returns() == a.returns()
