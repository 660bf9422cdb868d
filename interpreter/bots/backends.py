"""Where a simulation's games are played: this process, a pool of processes, or Ray tasks (docs/scale.md).

Every game is played by `_Task.play(seed)` with bots seeded from the game's seed, so the records are the same
whatever plays them; they come back in seed order. A process pool forks where the system can (the workers
inherit the loaded game) and spawns elsewhere (each worker loads the game again from its files, which the disk
cache makes cheap). Ray runs tasks of a batch of games each, on a local Ray instance or on the cluster at
`address`; each worker process loads a game once and keeps it for the batches it is given.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Iterator

BACKENDS = ("local", "ray")
TASKS_PER_WORKER = 4  # Ray batches per worker: enough to balance uneven games, few enough to keep overhead low


@dataclass(frozen=True)
class TaskSpec:
    """A simulation's shared settings in a form another process can rebuild the task from."""

    path: str
    variants: tuple[str, ...]
    mode: str
    limits: Any
    players: int
    bot_names: tuple[str, ...]
    max_steps: int
    check: bool


Builder = Callable[[TaskSpec], Any]  # makes the task of a spec (bots/simulate.py: task_from_spec)
_TASKS: dict[TaskSpec, Any] = {}  # per process: the task of each spec, its game loaded once


def task_of(build: Builder, spec: TaskSpec) -> Any:
    """The task a spec describes, built once per process."""
    task = _TASKS.get(spec)
    if task is None:
        task = _TASKS[spec] = build(spec)
    return task


def play_batch(build: Builder, spec: TaskSpec, seeds: list[int]) -> list[Any]:
    """Play the games of these seeds (in a worker: a Ray task)."""
    task = task_of(build, spec)
    return [task.play(s) for s in seeds]


def _play_one(args: tuple[Builder, TaskSpec, int]) -> Any:
    build, spec, seed = args
    return task_of(build, spec).play(seed)


_FORKED: Any = None  # a forked worker's task (inherited: a Game holds compiled code)


def _play_forked(seed: int) -> Any:
    return _FORKED.play(seed)


def play_in_processes(task: Any, build: Builder, spec_of: Callable[[], TaskSpec], seeds: list[int], jobs: int,
                      method: str | None = None) -> Iterator[Any]:
    """The records in seed order, played by `jobs` processes started with `method` (default: fork where the
    system has it, else spawn; spawned workers build the task from `spec_of()`, a game loaded from files)."""
    global _FORKED
    import multiprocessing  # (here: `orrery play` reads bot seeds from simulate.py and starts no process)

    method = method or ("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    ctx = multiprocessing.get_context(method)
    chunk = max(1, len(seeds) // (jobs * 8))  # a few chunks per worker: balanced, without a message per game
    if method == "fork":
        _FORKED = task
        try:
            with ctx.Pool(min(jobs, len(seeds))) as pool:
                yield from pool.imap(_play_forked, seeds, chunksize=chunk)
        finally:
            _FORKED = None
        return
    spec = spec_of()
    with ctx.Pool(min(jobs, len(seeds))) as pool:
        yield from pool.imap(_play_one, [(build, spec, s) for s in seeds], chunksize=chunk)


NICENESS = "RAY_worker_niceness"  # Ray's own setting (its job manager sets it to 0 for the jobs it runs)


def start_local_ray(ray: Any, jobs: int) -> None:
    """A local Ray instance of `jobs` workers at normal priority.  Ray starts workers at niceness 15 (its work
    is meant to yield to the driver's), but here the workers are the whole simulation: on a busy machine a
    niced worker gets almost no CPU (2,000 short random games took 600 s instead of 22: docs/scale.md).
    The raylet reads the setting from its environment when ray.init starts it; a value the user set is kept."""
    mine = NICENESS not in os.environ
    if mine:
        os.environ[NICENESS] = "0"
    try:
        ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
    finally:
        if mine:
            del os.environ[NICENESS]


def play_on_ray(build: Builder, spec: TaskSpec, seeds: list[int], jobs: int, address: str | None = None,
                batch: int | None = None) -> Iterator[Any]:
    """The records in seed order, played as Ray tasks of `batch` games each: on a new local Ray instance of
    `jobs` workers, or on the running cluster at `address` ("auto": the one this machine belongs to)."""
    try:
        import ray
    except ImportError:
        from orrery.rulespec.errors import InputError

        raise InputError("--backend ray needs Ray: pip install 'orrery[ray]'") from None
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            start_local_ray(ray, jobs)
    try:
        workers = max(1, int(ray.cluster_resources().get("CPU", jobs)))
        size = batch or max(1, -(-len(seeds) // (workers * TASKS_PER_WORKER)))
        remote = ray.remote(play_batch)
        batches = [seeds[i:i + size] for i in range(0, len(seeds), size)]
        refs = [remote.remote(build, spec, b) for b in batches]
        for ref in refs:  # in order: a batch's records follow the previous batch's
            yield from ray.get(ref)
    finally:
        if started:
            ray.shutdown()
