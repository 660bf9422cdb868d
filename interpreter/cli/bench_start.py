"""How long a game takes to start, from a new process: `orrery bench --report`'s start-up figures (issue 34).

- *first decision*: a new Python process imports orrery, loads the game (`orrery.load_game`) and asks for
  the first decision's legal actions;
- *first screen*: `orrery play GAME` with a human in the first seat, to its first question (its input is
  empty, so it stops there: the time is the screen's plus saying goodbye).

Each is measured with the disk cache warm (the run before filled it; rulespec/diskcache.py) and cold (a new,
empty cache folder each run; Python's own bytecode cache stays warm, as after any install).  Wall-clock
seconds of the whole process, the median of `rounds` runs.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

_FIRST_DECISION = ("import sys, orrery; g = orrery.load_game(sys.argv[1], players=int(sys.argv[2])); "
                   "g.new_initial_state().legal_actions()")


def _timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False, timeout=120)
    return time.perf_counter() - start


def _median(argv: list[str], rounds: int, cold: bool) -> float:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # (as a user runs it: Python's bytecode cache on)
    times = []
    with tempfile.TemporaryDirectory(prefix="orrery-start-") as tmp:
        for r in range(rounds + (0 if cold else 1)):
            if cold:
                env["ORRERY_CACHE_DIR"] = os.path.join(tmp, f"cache{r}")
            t = _timed(argv, env)
            if cold or r > 0:  # (warm: the first run fills the cache)
                times.append(t)
    return round(statistics.median(times), 3)


def start_times(game: str, players: int, rounds: int = 3) -> dict[str, Any]:
    """Seconds to the first decision and to `orrery play`'s first screen, warm and cold (see the module doc)."""
    decision = [sys.executable, "-c", _FIRST_DECISION, game, str(players)]
    seats = ",".join(["human"] + ["random"] * (players - 1))
    screen = [sys.executable, "-m", "orrery", "play", game, "--players", str(players), "--seats", seats,
              "--no-save", "--seed", "1"]
    return {"game": game, "players": players, "rounds": rounds,
            "first_decision_warm_s": _median(decision, rounds, cold=False),
            "first_decision_cold_s": _median(decision, rounds, cold=True),
            "first_screen_warm_s": _median(screen, rounds, cold=False),
            "first_screen_cold_s": _median(screen, rounds, cold=True)}


__all__ = ["start_times"]
