"""Simulations give the same games whatever plays them: one process, forked or spawned processes, Ray tasks."""

from __future__ import annotations

import os

import pytest

from orrery import load_game
from orrery.interpreter.bots.backends import NICENESS, start_local_ray
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
    assert NICENESS not in os.environ
    try:
        start_local_ray(ray, 2)  # the backend's local Ray instance of two workers
    except Exception as exc:  # noqa: BLE001 (Ray's own startup timeout is a plain Exception)
        pytest.skip(f"no local Ray instance could start here: {exc}")
    try:
        assert NICENESS not in os.environ  # set only while the raylet started
        # Ray's workers run at the driver's priority, not niced to 15 (where a busy machine starves them)
        assert ray.get(ray.remote(lambda: os.nice(0)).remote()) == os.nice(0)
        on_ray = _run(12, jobs=2, backend="ray", batch=5)  # tasks of 5 games: batches out of step with 12
    finally:
        ray.shutdown()
    assert on_ray["results"] == alone["results"] and on_ray["summary"] == alone["summary"]
