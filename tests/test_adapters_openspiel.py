"""The OpenSpiel adapter (interpreter/adapters/openspiel.py): OpenSpiel's own conformance test on every bundled
game and variant, perft equal to OpenSpiel's native games, its MCTS bot and evaluate_bots through the adapter."""

from __future__ import annotations

import json

import pytest

np = pytest.importorskip("numpy")  # (an optional extra: `pip install orrery[adapters]`)

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

from orrery.interpreter.engine.gamefiles import bundled_games, bundled_variants  # noqa: E402

GAMES = bundled_games()
VARIANTS = [(g, v) for g in GAMES for v in bundled_variants(g)]
adapter = None  # orrery.adapters.openspiel: imported by the fixture below, when this module's first test runs


@pytest.fixture(scope="module", autouse=True)
def _adapter():
    """Import the adapter (which registers every bundled game with pyspiel) at the first test rather than at
    collection, when every worker did it at once on the test session's empty spec cache (10 spec loads each)."""
    global adapter
    from orrery.adapters import openspiel

    adapter = openspiel


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


def _past_chance(state, rng):
    """The state after random outcomes of the chance nodes ahead."""
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        state.apply_action(int(rng.choice(outcomes)))
    return state


def test_observations_never_show_another_players_hand():
    game = adapter.load_game("bubble-singularity")
    state = _past_chance(game.new_initial_state(), np.random.default_rng(3))  # the setup's shuffles
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
    game = adapter.load_game(name, max_game_length=15)
    bots = [_mcts(game, 0, 1)] + [uniform_random.UniformRandomBot(p, np.random.RandomState(p))
                                  for p in range(1, players)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(7))
    assert len(returns) == players and all(r in (-1.0, 0.0, 1.0) for r in returns)


DIE_RACE = """\
orrery: 1
game: {name: die-race, title: Die race, players: {min: 2, max: 2}}
components:
  tracks:
    position: {start: 0, min: 0}
  pieces:
    card: {attributes: {rank: int}, unlimited: true}
  zones:
    deck: {type: deck, visibility: public}
setup: |
  for r in range(1, 5) {
    create card {rank: r} in deck
  }
  shuffle deck
flow:
  first_player: 0
  phases:
    - name: race
      order: clockwise
      steps:
        - actions: [roll, rest]
actions:
  roll:
    rule: "Roll a die and move that many spaces."
    effect: |
      current.position += random_int(1, 6)
  rest:
    rule: "Stay where you are."
    effect: |
      current.position += 0
end:
  arrived:
    rule: "The first to reach 10 wins."
    when: current.position >= 10
    winners: "[current]"
"""


@pytest.fixture()
def die_race(tmp_path):
    path = tmp_path / "die-race.yaml"
    path.write_text(DIE_RACE, encoding="utf-8")
    return adapter.load_game(str(path))


def _positions(state) -> list[int]:
    return [p["position"] for p in state.gs.view()["players"]]


def test_every_draw_is_a_chance_node_of_its_outcomes(die_race):
    assert die_race.get_type().information.name == "PERFECT_INFORMATION"  # every draw is seen when made
    state = die_race.new_initial_state()
    sizes = []
    while state.is_chance_node():  # the setup's shuffle of 4 cards: a Fisher-Yates draw per card
        outcomes = state.chance_outcomes()
        sizes.append(len(outcomes))
        assert sum(p for _, p in outcomes) == pytest.approx(1.0) and len({p for _, p in outcomes}) == 1
        state.apply_action(0)
    assert sizes == [4, 3, 2] and state.current_player() == 0
    assert [c["rank"] for c in state.gs.view()["zones"]["deck"]["pieces"]] == [2, 3, 4, 1]
    state.apply_action(state.legal_actions()[0])  # roll
    assert state.is_chance_node() and [a for a, _ in state.chance_outcomes()] == list(range(6))
    assert _positions(state) == [0, 0]  # the position the roll was made from, until the die shows
    state.apply_action(3)  # the die shows 4
    assert state.current_player() == 1 and _positions(state) == [4, 0]


def test_chance_states_clone_and_serialize_with_their_outcomes(die_race):
    state = _past_chance(die_race.new_initial_state(), np.random.default_rng(0))
    state.apply_action(state.legal_actions()[0])
    a, b = state.clone(), state.clone()
    a.apply_action(0)
    b.apply_action(5)
    assert [_positions(a), _positions(b)] == [[1, 0], [6, 0]]
    again = die_race.deserialize_state(b.serialize())
    assert again.history() == b.history() and str(again) == str(b)
    pending = die_race.deserialize_state(state.serialize())
    assert pending.is_chance_node() and len(pending.chance_outcomes()) == 6
