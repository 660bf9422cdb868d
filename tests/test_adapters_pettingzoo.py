"""The PettingZoo and Gymnasium adapters: PettingZoo's api_test on every bundled multiplayer game, Gymnasium's
check_env on the solo games, action masks and views that never show more than the player may see."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")  # (an optional extra: `pip install orrery[adapters]`)

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from orrery.adapters import gymnasium as gym_adapter  # noqa: E402
from orrery.adapters import pettingzoo as pz_adapter  # noqa: E402
from orrery.interpreter.engine.gamefiles import bundled_games, resolve_game  # noqa: E402
from conftest import spec_data  # noqa: E402


def _seats(name: str) -> tuple[int, int]:
    """The game's player range as its rules.yaml writes it: read at collection by every worker, so the YAML only
    (building each game here cost every worker about a CPU second on an empty cache)."""
    players = spec_data(resolve_game(name))["game"]["players"]
    return players["min"], players.get("max", players["min"])


SEATS = {g: _seats(g) for g in bundled_games()}
MULTIPLAYER = [g for g, (_, most) in SEATS.items() if most > 1]
SOLO = [(g, ()) for g, seats in SEATS.items() if seats == (1, 1)] + [("ultramassive", ("solo",))]


@pytest.mark.parametrize("name", MULTIPLAYER)
def test_pettingzoo_api_test_passes(name):
    env = pz_adapter.env(name, render_mode="ansi", max_game_length=60)
    api_test(env, num_cycles=40, verbose_progress=False)


@pytest.mark.parametrize(("name", "variants"), SOLO)
def test_gymnasium_check_env_passes(name, variants):
    env = gym_adapter.env(name, variants, render_mode="ansi")
    check_env(env, skip_render_check=False)


def test_masked_random_play_reaches_the_end_with_the_engines_result():
    env = pz_adapter.env("connect-four")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    moves, results = [], {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            results[agent] = reward
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        moves.append(action)
        env.step(action)
    raw = env.unwrapped
    assert raw.gs.is_terminal()
    assert [results[a] for a in raw.possible_agents] == raw.gs.returns()
    assert len(moves) == len(raw.gs.history())


def test_an_action_not_offered_is_refused():
    env = pz_adapter.env("tic-tac-toe")
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    taken = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(taken)
    with pytest.raises(ValueError, match="may not play"):
        env.step(taken)  # the same cell again


def test_observations_hide_another_players_hand():
    env = pz_adapter.env("bubble-singularity")
    env.reset(seed=2)
    raw = env.unwrapped
    assert raw.agent_selection == "player_0"
    mine, theirs = env.observe("player_0")["observation"], env.observe("player_1")["observation"]
    at, kinds = raw.layout.piles["offer[0]"], len(raw.layout.kinds)
    assert mine[at] == theirs[at] > 0  # both may count player 0's offer
    assert mine[at + 1:at + 1 + kinds].sum() == mine[at]  # its owner sees what is in it
    assert theirs[at + 1:at + 1 + kinds].sum() == 0  # the other player does not
    assert env.observe("player_1")["action_mask"].sum() == 0  # not their turn: nothing to answer


def test_gymnasium_refuses_a_multiplayer_game():
    with pytest.raises(ValueError, match="one agent"):
        gym_adapter.env("connect-four")


def test_gymnasium_ends_an_episode_on_an_illegal_action():
    env = gym_adapter.env("burbuja")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated) == (-1.0, True) and "not offered" in info["illegal"]
