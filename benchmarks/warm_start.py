#!/usr/bin/env python3
"""CPU seconds of a new process that loads a bundled game and reaches its first decision, disk cache warm.

    benchmarks/warm_start.py [ROUNDS] [GAME ...]

Each round starts `python -c 'import orrery; load_game(GAME).new_initial_state(seed=1).legal_actions()'` and
reads the child's user + system CPU time from `resource.getrusage` (the interpreter's own start included).  The
first run of a game fills the disk caches (specs, compiled code: rulespec/diskcache.py) and is shown apart;
the others are the warm starts issue 34 bounds by 0.5 s.  Where the environment sets PYTHONDONTWRITEBYTECODE,
Python compiles every module from source at every start (about 0.5 s more on this machine): run it with
`PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=/tmp/pyc` to measure what an installed package (pip writes its
bytecode) costs.  CPU time, because the machine is shared.
"""

from __future__ import annotations

import subprocess
import sys

GAMES = ["tic-tac-toe", "connect-four", "breakthrough", "reversi", "lantern-fair", "bubble-singularity",
         "bubblee-pop", "burbuja", "aqua-sphere", "ultramassive"]
CHILD = """
import resource, sys
import orrery
orrery.load_game(sys.argv[1]).new_initial_state(seed=1).legal_actions()
r = resource.getrusage(resource.RUSAGE_SELF)
print(f"{r.ru_utime + r.ru_stime:.3f}")
"""


def main(argv: list[str]) -> int:
    """Print each game's first run and its warm runs."""
    rounds = int(argv[0]) if argv else 3
    for game in argv[1:] or GAMES:
        runs = []
        for _ in range(rounds + 1):
            out = subprocess.run([sys.executable, "-c", CHILD, game], capture_output=True, text=True, check=True)
            runs.append(float(out.stdout.strip()))
        warm = " ".join(f"{x:.3f}" for x in runs[1:])
        print(f"{game:20} warm: {warm}  max {max(runs[1:]):.3f} s  (first run {runs[0]:.3f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
