"""The public API at the package's top level (docs/api.md): load, play, clone, history, JSON."""

from __future__ import annotations

import pytest

import orrery
from orrery.interpreter.bots.factory import RandomBot
from orrery.interpreter.core.decisions import BadAnswer


def test_load_play_and_returns():
    game = orrery.load_game("connect-four")
    assert game.num_players() == 2
    state = game.new_initial_state(seed=7)
    bot = RandomBot(3)
    while not state.is_terminal():
        assert state.current_player() in (0, 1)
        state.apply(bot.choose(state))
    assert state.current_player() == orrery.TERMINAL and state.legal_actions() == []
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_players_and_variants_by_name():
    game = orrery.load_game("bubble-singularity", players=3)
    assert game.new_initial_state(seed=1).num_players == 3
    with pytest.raises(orrery.IllegalMove, match="not 9"):
        orrery.load_game("bubble-singularity", players=9)
    variant = orrery.load_game("tic-tac-toe", variants=["misere"])
    assert variant.spec.digest != orrery.load_game("tic-tac-toe").spec.digest


def test_history_replays_to_the_same_position_and_json_round_trips():
    game = orrery.load_game("bubble-singularity")
    state = game.new_initial_state(seed=5)
    bot = RandomBot(9)
    for _ in range(40):
        if state.is_terminal():
            break
        state.apply(bot.choose(state))
    again = game.new_initial_state(seed=5)
    for index in state.history():
        again.apply(index)
    assert again.digest() == state.digest() and again.narration == state.narration
    back = game.state_from_json(state.to_json())
    assert back.digest() == state.digest()
    assert [(s.label, s.auto) for s in back.steps] == [(s.label, s.auto) for s in state.steps]


@pytest.mark.parametrize("change", [
    {"format": "other"}, {"spec_digest": "0"}, {"history": ["x"]}, {"seed": "1"}, {"history": [99999]},
])
def test_state_from_json_refuses_what_does_not_fit(change):
    game = orrery.load_game("tic-tac-toe")
    data = {**game.new_initial_state(seed=0).to_json(), **change}
    with pytest.raises(BadAnswer):
        game.state_from_json(data)


def test_a_clone_is_independent():
    game = orrery.load_game("tic-tac-toe")
    state = game.new_initial_state(seed=0)
    twin = state.clone()
    state.apply(state.legal_actions()[0])
    assert twin.history() == [] and state.history() == [state.steps[1].index]
    assert twin.digest() != state.digest()
