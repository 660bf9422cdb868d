"""Simulations give the same games whatever plays them: one process, forked or spawned processes, Ray tasks."""

from __future__ import annotations

import pytest

from orrery import load_game
from orrery.interpreter.bots.simulate import simulate


def _run(games: int, **kw):
    game = load_game("connect-four")
    return simulate(game, games, 2, 11, ["random"], **kw)


def test_spawned_processes_play_the_same_games():
    alone = _run(8)
    spawned = _run(8, jobs=2, start_method="spawn")
    assert spawned["results"] == alone["results"] and spawned["summary"] == alone["summary"]


def test_ctrl_c_keeps_the_games_already_played():
    def tick(done: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    result = _run(10, progress=tick)
    assert result["interrupted"] is True
    assert len(result["results"]) == 3 and result["summary"]["games"] == 3
    assert result["results"] == _run(3)["results"]


def test_ray_plays_the_same_games_as_one_process():
    ray = pytest.importorskip("ray")
    alone = _run(12)
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)  # a local Ray instance of two workers
    except Exception as exc:  # noqa: BLE001 (Ray's own startup timeout is a plain Exception)
        pytest.skip(f"no local Ray instance could start here: {exc}")
    try:
        on_ray = _run(12, jobs=2, backend="ray", batch=5)  # tasks of 5 games: batches out of step with 12
    finally:
        ray.shutdown()
    assert on_ray["results"] == alone["results"] and on_ray["summary"] == alone["summary"]
