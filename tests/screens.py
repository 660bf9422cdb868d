"""The play screen of every bundled game at a fixed mid-game moment, in-process and under tmux.

Each case seats one human (seat 0) and bots, with a fixed seed; the human answers `1`
(the first option) a few times, and the screen is taken at the human's next decision.
`screen_text` renders that screen in-process (what `orrery play` prints there);
`capture` plays the same game under tmux in a terminal of the case's size (the answers typed
ahead once the first screen shows) and returns the pane.  The goldens in tests/golden/screens/ are such captures; to regenerate them:

    .venv/bin/python tests/screens.py            # every game
    .venv/bin/python tests/screens.py reversi    # one case (a game, or `burbuja-late`)
"""

from __future__ import annotations

import functools
import io
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from proctime import wait_until
from rich.console import Console

from orrery.interpreter.bots.factory import apply_choice, make_bot
from orrery.interpreter.engine.game import GameState, load_game
from orrery.interpreter.cli.narrate import Watch
from orrery.interpreter.cli.play import visible_pieces
from orrery.interpreter.cli.screen import PlayScreen
from orrery.interpreter.cli.table import hidden_information
from orrery.interpreter.bots.simulate import bot_seed

REPO = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "screens"
HUMAN = "human"


@dataclass(frozen=True)
class Case:
    """A bundled game, its seats and seed, how many answers the human gives first, and the terminal size;
    `moment` names a second case of one game (its golden is `<game>-<moment>.txt`)."""

    game: str
    seats: tuple[str, ...]
    seed: int
    answers: int
    width: int
    height: int
    moment: str = ""

    @property
    def name(self) -> str:
        """The case's name: the game's, and its moment's when it has one."""
        return f"{self.game}-{self.moment}" if self.moment else self.game

    @property
    def golden(self) -> Path:
        """The committed capture of this case."""
        return GOLDEN / f"{self.name}.txt"


CLASSIC = (80, 24)  # the classic games and Burbuja fit a small terminal; the larger games 100×40
BIG = (100, 40)
CASES = [
    Case("tic-tac-toe", (HUMAN, "random"), 1, 2, *CLASSIC),
    Case("connect-four", (HUMAN, "random"), 1, 6, *CLASSIC),
    Case("breakthrough", (HUMAN, "random"), 1, 10, *CLASSIC),
    Case("reversi", (HUMAN, "random"), 1, 10, *CLASSIC),
    Case("burbuja", (HUMAN,), 1, 6, *CLASSIC),
    # late in the game: a wide table of tiles and a menu of 50 cells, paged to fit 24 lines
    Case("burbuja", (HUMAN,), 1, 35, *CLASSIC, moment="late"),
    Case("bubble-singularity", (HUMAN, "random", "random", "random"), 1, 12, *BIG),
    Case("bubblee-pop", (HUMAN, "random"), 1, 12, *BIG),
    # a small terminal: three boards, and still the bot's last move told above the menu (issue 35 item 4)
    Case("bubblee-pop", (HUMAN, "random"), 1, 12, *CLASSIC, moment="small"),
    Case("aqua-sphere", (HUMAN, "random", "random", "random"), 1, 12, *BIG),
    Case("ultramassive", (HUMAN, "random", "random", "random"), 1, 30, *BIG),
]
BY_NAME = {c.name: c for c in CASES}


class Table:
    """A case's game as `orrery play` plays it, with what the table tells of each move (the play screen's
    narration shows its last lines)."""

    def __init__(self, case: Case):
        self.case = case
        self.gs = load_game(case.game).new_initial_state(players=len(case.seats), seed=case.seed)
        self.bots = {i: make_bot(k, bot_seed(case.seed, i)) for i, k in enumerate(case.seats) if k != HUMAN}
        self.humans = [i for i, k in enumerate(case.seats) if k == HUMAN]
        self.secret = hidden_information(self.gs.game.rules)
        self.told = list(self.gs.narration) + self.watch(steps=0).autos(self.gs, self.humans)

    def watch(self, steps: int | None = None) -> Watch:
        return Watch(self.gs, self.humans, visible_pieces, self.secret, steps)

    def to_human(self) -> bool:
        """Let the bots play up to a human's decision; False when the game ended first."""
        gs = self.gs
        while not gs.is_terminal() and gs.current_player() in self.bots:
            p, d, w = gs.current_player(), gs.decision, self.watch()
            index = apply_choice(gs, self.bots[p].choose(gs))
            opt = next(o for o in d.options if o.index == index)
            self.told += w.move(gs, p, self.case.seats[p], d.prompt, opt.label, d.sealed, opt.value, self.humans)
            self.told += w.autos(gs, self.humans)
        return not gs.is_terminal()

    def answer(self, text: str = "1") -> None:
        """The human's answer, told as the table tells it."""
        gs, w = self.gs, self.watch()
        p, d = gs.current_player(), gs.decision
        gs.apply_label(text)
        self.told += w.move(gs, p, None, d.prompt, text, d.sealed, None, self.humans) + w.autos(gs, self.humans)

    def screen(self) -> list[str]:
        """The human's screen now."""
        return screen_lines(self.gs, self.gs.current_player(), self.case.width, self.case.height, self.told)


def _play_to(case: Case, answers: int) -> Table:
    """The game after the human's first `answers` answers, at the human's next decision (as `orrery play` does)."""
    table = Table(case)
    for _ in range(answers):
        if not table.to_human():
            break
        table.answer()
    else:
        if table.to_human():
            return table
    raise AssertionError(f"{case.game}: the game ended before the human's answer {answers + 1}")


def screen_lines(gs: GameState, viewer: int, width: int, height: int | None = None,
                 told: list[str] | None = None) -> list[str]:
    """The human's screen as `orrery play` prints it in a terminal `width` wide and `height` high (None: not a
    terminal): state, narration (the lines `told`, else the rules' own) and menu, fitted to the height with the
    prompt's line below."""
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    console.print(PlayScreen(gs, viewer, console, height=height, told=told).render())
    return [line.rstrip() for line in console.export_text().rstrip("\n").split("\n")]


def full_game_screens(case: Case, most: int | None = None) -> list[list[str]]:
    """Every screen the human sees in a whole game (answering `1` each time), rendered in-process; the first
    `most` only, when given."""
    table = Table(case)
    screens: list[list[str]] = []
    while table.to_human() and (most is None or len(screens) < most):
        screens.append(table.screen())
        table.answer()
    return screens


@functools.lru_cache(maxsize=None)
def at_moment(case: Case) -> Table:
    """The case's game at its moment, played once per process and shared by the tests, which only read it
    (a game of Aqua Sphere or Ultramassive to its moment takes about a CPU second)."""
    return _play_to(case, case.answers)


@functools.lru_cache(maxsize=None)
def _screen_at_moment(case: Case) -> tuple[str, ...]:
    return tuple(at_moment(case).screen())


def screen_text(case: Case) -> list[str]:
    """The case's screen, rendered in-process."""
    return list(_screen_at_moment(case))


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


def _pane_pid(socket: str) -> int | None:
    try:
        return int(_tmux(socket, "display-message", "-p", "-t", "screen", "#{pane_pid}").strip())
    except (subprocess.CalledProcessError, ValueError):
        return None


def _await(socket: str, ready, what: str) -> list[str]:
    """The pane once `ready(pane, last_pane)`, waited for by the game's CPU time, not the wall clock (a loaded
    machine, or a paused test, runs past any wall-clock limit): see proctime.wait_until."""
    last: list[str] = []

    def check() -> list[str] | None:
        nonlocal last
        pane = _pane(socket)
        found = pane if ready(pane, last) else None
        last = pane
        return found

    try:
        return wait_until(check, lambda: _pane_pid(socket), what)
    except TimeoutError as exc:
        raise TimeoutError(f"{exc}; the pane shows:\n" + "\n".join(last)) from None


def _wait_for(socket: str, tail: list[str]) -> list[str]:
    """The pane once it shows `tail` (the expected screen's last lines, above the prompt) and has settled."""
    def ready(pane: list[str], last: list[str]) -> bool:
        body = [line for line in pane if line.strip() not in (">", "")]
        return body[-len(tail):] == tail and pane == last

    return _await(socket, ready, "the expected screen")


def capture(case: Case) -> list[str]:
    """Play the case under tmux in a terminal of its size and return the pane at the case's moment."""
    socket = f"orrery-screens-{os.getpid()}-{case.name}"  # a private server: no other tmux session is touched
    command = [sys.executable, "-m", "orrery.interpreter.cli.main", "play", case.game, "--seats", ",".join(case.seats),
               "--seed", str(case.seed), "--no-save"]
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    for name in ("COLUMNS", "LINES", "NO_COLOR"):  # rich would take the size from these instead of the terminal
        env.pop(name, None)
    subprocess.run(["tmux", "-u", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "screen", "-x",
                    str(case.width), "-y", str(case.height), *command], check=True, cwd=REPO, env=env)
    try:
        _wait_for(socket, _play_to(case, 0).screen()[-2:])
        for _ in range(case.answers):  # typed ahead: the prompt keeps what it has not read yet for the next one
            _tmux(socket, "send-keys", "-t", "screen", "1", "Enter")
        return _wait_for(socket, screen_text(case)[-2:])
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)


class TmuxPlay:
    """`orrery play ARGS` under a private tmux server in a terminal of this size: type keys, wait for text,
    read the pane or its whole history (the scrollback a player could scroll back to)."""

    def __init__(self, args: list[str], width: int = 100, height: int = 40, name: str = "play"):
        self.socket = f"orrery-{name}-{os.getpid()}"  # a private server: no other tmux session is touched
        env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        for var in ("COLUMNS", "LINES", "NO_COLOR"):  # rich would take the size from these instead of the terminal
            env.pop(var, None)
        command = [sys.executable, "-m", "orrery.interpreter.cli.main", "play", *args]
        subprocess.run(["tmux", "-u", "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "screen",
                        "-x", str(width), "-y", str(height), *command], check=True, cwd=REPO, env=env)

    def keys(self, *keys: str) -> None:
        _tmux(self.socket, "send-keys", "-t", "screen", *keys)

    def history(self) -> list[str]:
        """Every line the terminal keeps: its scrollback, then the screen."""
        return _tmux(self.socket, "capture-pane", "-p", "-S", "-", "-E", "-", "-t", "screen").split("\n")

    def wait_for(self, text: str) -> list[str]:
        """The screen once it shows `text` (TimeoutError with the screen if it never does: see `_await`)."""
        return _await(self.socket, lambda pane, last: any(text in line for line in pane), repr(text))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


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
