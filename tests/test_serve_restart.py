"""Nothing lost (issue 38): `orrery serve` runs as its own process with two tables (one of them with a bot),
players answer over real WebSockets, the server is killed with SIGKILL (`kill -9`: no handler runs, nothing is
flushed), and `orrery serve --resume` serves every table again where it was: each seat's frame as before the
kill, the same links (tokens), every acknowledged decision in the save, and play goes on."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from contextlib import ExitStack, contextmanager
from typing import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_client = pytest.importorskip("websockets.sync.client")

from orrery.interpreter.files.save import read_save  # noqa: E402

LINK = re.compile(r"^\s+(?P<seat>[^:]+): http://[^/]+/t/(?P<tid>\w+)#(?P<token>\S+)$")


def _orrery(*argv: str) -> list[str]:
    return [sys.executable, "-m", "orrery.interpreter.cli.main", *argv]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _links(out: str) -> dict[str, dict[str, str]]:
    """table id -> seat name -> token, from the lines `orrery serve` prints."""
    tables: dict[str, dict[str, str]] = {}
    for line in out.splitlines():
        if m := LINK.match(line):
            tables.setdefault(m["tid"], {})[m["seat"]] = m["token"]
    return tables


def _serve(*argv: str) -> tuple[subprocess.Popen, str, int]:
    """Start `orrery serve ARGV --port P`; return the process, what it printed before serving, and P."""
    port = _free_port()
    proc = subprocess.Popen(_orrery("serve", *argv, "--port", str(port)), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    out = []
    while not (out and out[-1].startswith("serving on")):
        line = proc.stdout.readline()
        assert line, "orrery serve stopped: " + "".join(out)
        out.append(line)
    deadline = time.monotonic() + 60
    while True:  # uvicorn listens a moment after the line
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert time.monotonic() < deadline and proc.poll() is None, "the server did not start listening"
            time.sleep(0.05)
    return proc, "".join(out), port


@contextmanager
def _killed(proc: subprocess.Popen) -> Iterator[None]:
    """Kill the server with SIGKILL at the end (kill -9: no handler runs, nothing is flushed, no goodbye)."""
    try:
        yield
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        proc.stdout.close()


class Seat:
    """A seat's WebSocket: join with its token, then answer and read frames."""

    def __init__(self, stack: ExitStack, port: int, tid: str, token: str) -> None:
        self.ws = stack.enter_context(sync_client.connect(f"ws://127.0.0.1:{port}/t/{tid}/ws", open_timeout=30))
        self.ws.send(json.dumps({"type": "join", "token": token}))
        self.frame = self.read()

    def read(self) -> dict:
        msg = json.loads(self.ws.recv(timeout=60))
        assert msg["type"] == "frame", msg
        return msg

    def wait_turn(self) -> dict:
        """Frames until this seat is asked (or the game is over): a bot's moves come one by one."""
        while "decision" not in self.frame and "over" not in self.frame:
            self.frame = self.read()
        return self.frame

    def answer(self) -> None:
        """Answer the pending decision with its first option; read until the frame of the new position."""
        step = self.frame["step"]
        self.ws.send(json.dumps({"type": "act", "step": step, "option": self.frame["decision"]["options"][0]["index"]}))
        while self.frame["step"] == step:
            self.frame = self.read()


def test_kill_9_mid_game_then_resume_loses_no_decision(tmp_path):
    tables = tmp_path / "tables"
    made = subprocess.run(_orrery("serve", "tic-tac-toe", "--seats", "human,human", "--seed", "5", "--save-dir",
                                  str(tables), "--links-only"), capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    (ttt,) = _links(made.stdout)
    proc, out, port = _serve("bubble-singularity", "--seats", "human,random", "--seed", "6", "--think", "0.05",
                             "--save-dir", str(tables), "--resume")
    before: dict[str, tuple[int, dict]] = {}
    with ExitStack() as stack, _killed(proc):
        links = _links(out)
        (bs,) = set(links) - {ttt}
        assert links[ttt] == _links(made.stdout)[ttt]  # the saved table is served with the links it was made with
        x, o = (Seat(stack, port, ttt, links[ttt][name]) for name in ("X", "O"))
        for seat in (x, o, x):  # three moves of tic-tac-toe
            seat.wait_turn()
            seat.answer()
        o.frame = o.read()  # (o saw x's last move too)
        red = Seat(stack, port, bs, links[bs]["Red"])
        for _ in range(4):  # Red answers four times; the bot answers in between
            red.wait_turn()
            red.answer()
        red.wait_turn()
        before = {ttt: (x.frame["step"], x.frame["view"]), bs: (red.frame["step"], red.frame["view"])}
    assert proc.returncode == -signal.SIGKILL
    # every acknowledged decision is in the save: X's and O's three moves; Red's four and the bot's answers
    assert len(read_save(tables / f"{ttt}.orrery-save.json").decisions) == 3
    assert len(read_save(tables / f"{bs}.orrery-save.json").decisions) > 4

    proc, out, port = _serve("--resume", "--save-dir", str(tables))
    with ExitStack() as stack, _killed(proc):
        assert _links(out) == links
        o = Seat(stack, port, ttt, links[ttt]["O"])
        red = Seat(stack, port, bs, links[bs]["Red"])
        assert (o.frame["step"], red.frame["step"]) == (before[ttt][0], before[bs][0])
        assert red.frame["view"] == before[bs][1] and "decision" in red.frame
        x = Seat(stack, port, ttt, links[ttt]["X"])
        assert x.frame["view"] == before[ttt][1]
        o.wait_turn()
        o.answer()  # play goes on
        assert o.frame["step"] > before[ttt][0] and len(read_save(tables / f"{ttt}.orrery-save.json").decisions) == 4
