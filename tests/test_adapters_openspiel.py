"""The OpenSpiel adapter (interpreter/adapters/openspiel.py): OpenSpiel's own conformance test on every bundled
game and variant, perft equal to OpenSpiel's native games, its MCTS bot and evaluate_bots through the adapter."""

from __future__ import annotations

import json

import pytest

np = pytest.importorskip("numpy")  # (an optional extra: `pip install orrery[adapters]`)

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

from orrery.adapters import openspiel as adapter  # noqa: E402
from orrery.interpreter.engine.gamefiles import bundled_games, bundled_variants  # noqa: E402

GAMES = bundled_games()
VARIANTS = [(g, v) for g in GAMES for v in bundled_variants(g)]


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test_passes_on_every_bundled_game(name):
    # OpenSpiel's C++ conformance test (legal actions, clones, observations, serialization, returns)
    game = pyspiel.load_game(adapter.openspiel_name(name), {"max_game_length": 15})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "variant"), VARIANTS)
def test_random_sim_test_passes_on_every_variant(name, variant):
    # the reference engine (no code generation to wait for); the first 12 decisions of a game
    game = adapter.load_game(name, [variant], mode="interpreted", max_game_length=12)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four"])
def test_whole_games_pass_random_sim_test(name):
    pyspiel.random_sim_test(adapter.load_game(name), num_sims=3, serialize=True, verbose=False)


def _perft(state, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    return sum(_perft(state.child(a), depth - 1) for a in state.legal_actions())


@pytest.mark.parametrize(("name", "native", "depth"), [
    ("tic-tac-toe", "tic_tac_toe", 4), ("connect-four", "connect_four", 4),
    ("breakthrough", "breakthrough", 2), ("reversi", "othello", 4)])
def test_perft_equals_openspiels_native_game(name, native, depth):
    ours = _perft(adapter.load_game(name).new_initial_state(), depth)
    assert ours == _perft(pyspiel.load_game(native).new_initial_state(), depth)
    assert ours > 1


def test_registered_name_loads_with_parameters():
    game = pyspiel.load_game("orrery_connect_four(variants=8x7)")
    assert game.get_type().short_name == "orrery_connect_four"
    state = game.new_initial_state()
    assert len(state.legal_actions()) == 8


TYPES = {  # (chance, information) as the specs declare them
    "tic-tac-toe": ("DETERMINISTIC", "PERFECT_INFORMATION"),
    "breakthrough": ("DETERMINISTIC", "PERFECT_INFORMATION"),
    "burbuja": ("EXPLICIT_STOCHASTIC", "IMPERFECT_INFORMATION"),
    "bubble-singularity": ("EXPLICIT_STOCHASTIC", "IMPERFECT_INFORMATION"),
}


@pytest.mark.parametrize("name", sorted(TYPES))
def test_game_type_follows_the_spec(name):
    gtype = pyspiel.load_game(adapter.openspiel_name(name)).get_type()
    assert (gtype.chance_mode.name, gtype.information.name) == TYPES[name]


@pytest.mark.parametrize("name", [g for g in GAMES if TYPES.get(g, ("",))[0] == "DETERMINISTIC"])
def test_deterministic_games_do_not_depend_on_the_seed(name):
    # the adapter gives these games no chance node: check that two seeds really play the same
    from orrery import load_game

    game = load_game(name)
    a, b = game.new_initial_state(seed=1), game.new_initial_state(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(20):
        if a.is_terminal():
            break
        assert a.legal_actions() == b.legal_actions()
        index = int(rng.choice(a.legal_actions()))
        a.apply(index)
        b.apply(index)
    assert json.dumps(a.view()) == json.dumps(b.view())


def test_action_ids_are_the_same_move_everywhere():
    game = adapter.load_game("tic-tac-toe")
    state = game.new_initial_state()
    first = state.legal_actions()
    assert [state.action_to_string(a).split(": ")[1] for a in first] == \
        ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    state.apply_action(first[4])  # b2
    assert state.legal_actions() == first[:4] + first[5:]  # every other cell keeps its id


def test_observations_never_show_another_players_hand():
    game = adapter.load_game("bubble-singularity")
    state = game.new_initial_state()
    state.apply_action(3)  # the seed
    gs = state.gs
    mine = json.loads(state.observation_string(0))["zones"]["offer[0]"]
    theirs = json.loads(state.observation_string(1))["zones"]["offer[0]"]
    assert mine["count"] == theirs["count"] > 0
    assert "pieces" in mine and "pieces" not in theirs
    labels = [o.label for o in gs.decision.options]  # player 0's choice names the cards in that hand
    assert gs.decision.player == 0
    assert not any(label in state.information_state_string(1) for label in labels)
    assert all(label in state.information_state_string(0) for label in labels)


def _mcts(game, seat: int, seed: int):
    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(game, uct_c=2, max_simulations=6, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                        random_state=rng)


@pytest.mark.parametrize(("name", "players"), [("tic-tac-toe", 2), ("bubblee-pop", 2), ("burbuja", 1)])
def test_mcts_and_evaluate_bots_play_through_the_adapter(name, players):
    # perfect information; chance and hidden pieces in a two-player game; chance in a solitaire
    game = adapter.load_game(name, max_game_length=30)
    bots = [_mcts(game, 0, 1)] + [uniform_random.UniformRandomBot(p, np.random.RandomState(p))
                                  for p in range(1, players)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(7))
    assert len(returns) == players and all(r in (-1.0, 0.0, 1.0) for r in returns)
