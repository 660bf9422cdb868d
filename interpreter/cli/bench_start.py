"""How long a game takes to start, from a new process: `orrery bench --report`'s start-up figures (issue 34).

- *first decision*: a new Python process imports orrery, loads the game (`orrery.load_game`) and asks for
  the first decision's legal actions;
- *first screen*: `orrery play GAME` with a human in the first seat, to its first question (its input is
  empty, so it stops there: the time is the screen's plus saying goodbye).

Each is measured with the disk cache warm (the run before filled it; rulespec/diskcache.py) and cold (a new,
empty cache folder each run; Python's own bytecode cache stays warm, as after any install).  The process's
CPU seconds (user + system) and its wall-clock seconds, each the median of `rounds` runs; the targets are judged
on the CPU seconds: on a shared machine the wall clock also counts the waits for a core (on an idle one the two
differ by the disk's reads).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

try:
    import resource
except ImportError:  # (not on Windows: the CPU figures are then the wall clock's)
    resource = None  # type: ignore[assignment]

_FIRST_DECISION = ("import sys, orrery; g = orrery.load_game(sys.argv[1], players=int(sys.argv[2])); "
                   "g.new_initial_state().legal_actions()")


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system, its own: the children's rusage) of one run of `argv`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN) if resource else None
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False, timeout=120)
    wall = time.perf_counter() - start
    if before is None:
        return wall, wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _median(argv: list[str], rounds: int, cold: bool) -> tuple[float, float]:
    """The median wall-clock and CPU seconds of `rounds` runs (warm: after one that fills the cache)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # (as a user runs it: Python's bytecode cache on)
    walls, cpus = [], []
    with tempfile.TemporaryDirectory(prefix="orrery-start-") as tmp:
        for r in range(rounds + (0 if cold else 1)):
            if cold:
                env["ORRERY_CACHE_DIR"] = os.path.join(tmp, f"cache{r}")
            wall, cpu = _timed(argv, env)
            if cold or r > 0:  # (warm: the first run fills the cache)
                walls.append(wall)
                cpus.append(cpu)
    return round(statistics.median(walls), 3), round(statistics.median(cpus), 3)


def start_times(game: str, players: int, rounds: int = 3) -> dict[str, Any]:
    """Seconds to the first decision and to `orrery play`'s first screen, warm and cold (see the module doc):
    CPU seconds (`*_s`) and wall-clock seconds (`*_wall_s`), each the median of `rounds` runs."""
    decision = [sys.executable, "-c", _FIRST_DECISION, game, str(players)]
    seats = ",".join(["human"] + ["random"] * (players - 1))
    screen = [sys.executable, "-m", "orrery", "play", game, "--players", str(players), "--seats", seats,
              "--no-save", "--seed", "1"]
    out: dict[str, Any] = {"game": game, "players": players, "rounds": rounds}
    for what, argv in (("first_decision", decision), ("first_screen", screen)):
        for cache in ("warm", "cold"):
            out[f"{what}_{cache}_wall_s"], out[f"{what}_{cache}_s"] = _median(argv, rounds, cold=cache == "cold")
    return out


__all__ = ["start_times"]
