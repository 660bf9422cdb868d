"""The play screen of every bundled game at a fixed mid-game moment, in-process and under tmux.

Each case seats one human (seat 0) and bots, with a fixed seed; the human answers `1`
(the first option) a few times, and the screen is taken at the human's next decision.
`screen_text` renders that screen in-process (what `orrery play` prints there);
`capture` plays the same game under tmux in a terminal of the case's size and returns
the pane.  The goldens in tests/golden/screens/ are such captures; to regenerate them:

    .venv/bin/python tests/screens.py            # every game
    .venv/bin/python tests/screens.py reversi    # one game
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from orrery.interpreter.bots.factory import apply_choice, make_bot
from orrery.interpreter.engine.game import GameState, load_game
from orrery.interpreter.cli.render import render_decision, render_state
from orrery.interpreter.bots.simulate import bot_seed

REPO = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "screens"
HUMAN = "human"


@dataclass(frozen=True)
class Case:
    """A bundled game, its seats and seed, how many answers the human gives first, and the terminal size."""

    game: str
    seats: tuple[str, ...]
    seed: int
    answers: int
    width: int
    height: int

    @property
    def golden(self) -> Path:
        """The committed capture of this case."""
        return GOLDEN / f"{self.game}.txt"


CLASSIC = (80, 24)  # the classic games and Burbuja fit a small terminal; the larger games 100×40
BIG = (100, 40)
CASES = [
    Case("tic-tac-toe", (HUMAN, "random"), 1, 2, *CLASSIC),
    Case("connect-four", (HUMAN, "random"), 1, 6, *CLASSIC),
    Case("breakthrough", (HUMAN, "random"), 1, 10, *CLASSIC),
    Case("reversi", (HUMAN, "random"), 1, 10, *CLASSIC),
    Case("burbuja", (HUMAN,), 1, 6, *CLASSIC),
    Case("bubble-singularity", (HUMAN, "random", "random", "random"), 1, 12, *BIG),
    Case("bubblee-pop", (HUMAN, "random"), 1, 12, *BIG),
]
BY_NAME = {c.game: c for c in CASES}


def _play_to(case: Case, answers: int) -> GameState:
    """The game after the human's first `answers` answers, at the human's next decision (as `orrery play` does)."""
    gs = load_game(case.game).new_initial_state(players=len(case.seats), seed=case.seed)
    bots = {i: make_bot(k, bot_seed(case.seed, i)) for i, k in enumerate(case.seats) if k != HUMAN}
    given = 0
    while not gs.is_terminal():
        p = gs.current_player()
        if p in bots:
            apply_choice(gs, bots[p].choose(gs))
            continue
        if given == answers:
            return gs
        gs.apply_label("1")
        given += 1
    raise AssertionError(f"{case.game}: the game ended before the human's answer {answers + 1}")


def screen_lines(gs: GameState, viewer: int, width: int) -> list[str]:
    """The human's screen as `orrery play` prints it at a terminal `width` wide: state, then menu."""
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    console.print(render_state(gs, viewer))
    console.print(render_decision(gs))
    return [line.rstrip() for line in console.export_text().rstrip("\n").split("\n")]


def screen_text(case: Case) -> list[str]:
    """The case's screen, rendered in-process."""
    return screen_lines(_play_to(case, case.answers), 0, case.width)


# ------------------------------------------------------------------ tmux


def tmux_available() -> bool:
    """Whether tmux can be run here."""
    return shutil.which("tmux") is not None


def _tmux(socket: str, *args: str) -> str:
    return subprocess.run(["tmux", "-u", "-L", socket, *args], check=True, capture_output=True, text=True).stdout


def _pane(socket: str) -> list[str]:
    lines = [line.rstrip() for line in _tmux(socket, "capture-pane", "-p", "-t", "screen").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _wait_for(socket: str, tail: list[str], timeout: float = 60.0) -> list[str]:
    """The pane once it shows `tail` (the expected screen's last lines, above the prompt) and has settled."""
    deadline = time.monotonic() + timeout
    last: list[str] = []
    while time.monotonic() < deadline:
        pane = _pane(socket)
        body = [line for line in pane if line.strip() not in (">", "")]
        if body[-len(tail):] == tail and pane == last:
            return pane
        last = pane
        time.sleep(0.2)
    raise TimeoutError(f"the pane never showed the expected screen; it shows:\n" + "\n".join(last))


def capture(case: Case) -> list[str]:
    """Play the case under tmux in a terminal of its size and return the pane at the case's moment."""
    socket = f"orrery-screens-{os.getpid()}-{case.game}"  # a private server: no other tmux session is touched
    command = [sys.executable, "-m", "orrery.interpreter.cli.main", "play", case.game, "--seats", ",".join(case.seats),
               "--seed", str(case.seed), "--no-save"]
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    for name in ("COLUMNS", "LINES", "NO_COLOR"):  # rich would take the size from these instead of the terminal
        env.pop(name, None)
    subprocess.run(["tmux", "-u", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "screen", "-x",
                    str(case.width), "-y", str(case.height), *command], check=True, cwd=REPO, env=env)
    try:
        for k in range(case.answers + 1):
            tail = screen_lines(_play_to(case, k), 0, case.width)[-2:]
            pane = _wait_for(socket, tail)
            if k < case.answers:
                _tmux(socket, "send-keys", "-t", "screen", "1", "Enter")
        return pane
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)


def main(names: list[str]) -> int:
    """Capture the named cases (default: all) and write them as goldens."""
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in [BY_NAME[n] for n in names] if names else CASES:
        lines = capture(case)
        case.golden.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{case.golden.relative_to(REPO)}: {len(lines)} lines, at most "
              f"{max(len(x) for x in lines)} wide ({case.width}×{case.height})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
