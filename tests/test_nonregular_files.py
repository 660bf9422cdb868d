"""Files that are not files (issue 39.1): named pipes, devices and link loops are refused by every reader with
a located message and exit 2, before anything is read; nothing waits on a pipe; a default save name taken by
one is skipped; a link loop never ends in an internal error."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from orrery.interpreter.cli.main import main
from orrery.interpreter.cli.scaffold import scaffold
from orrery.rulespec.bounded import NotAFile, open_regular, read_bounded, read_line

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")


class Hung(Exception):
    """A command waited longer than any refusal takes: it was waiting on a pipe."""


@pytest.fixture(autouse=True)
def no_waiting():
    """Every test here ends in seconds or fails: an open() that waits on a pipe is interrupted, not hung."""
    def hung(signum, frame):
        raise Hung("waited on a file that is not a regular file")
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)  # generous: a refusal takes milliseconds; the machine may be busy
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A small working game folder (orrery new) with a pipe and a link loop beside it."""
    folder = scaffold("mini", tmp_path)
    os.mkfifo(tmp_path / "pipe.yaml")
    os.symlink("loop-b", tmp_path / "loop-a")
    os.symlink("loop-a", tmp_path / "loop-b")
    return folder


def run(capsys, monkeypatch, folder: Path, *argv: str) -> tuple[int, str]:
    """(exit code, stdout + stderr) of `orrery ARGV` run in `folder`, with no input."""
    monkeypatch.chdir(folder)
    monkeypatch.setattr("sys.stdin", open(os.devnull))
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "internal error" not in out + err and "Traceback" not in out + err, out + err
    return code, out + err


PIPE = "is a named pipe, not a regular file"
LOOP = "is a symbolic link loop"

# (what is read, the command with the odd file in it, the location and message expected)
READERS = [
    ("spec", ["validate", "pipe.yaml"], "pipe.yaml:1:1", PIPE),
    ("spec looping", ["validate", "loop-a"], "loop-a:1:1", LOOP),
    ("spec to play", ["play", "pipe.yaml", "--seats", "random,random"], "pipe.yaml:1:1", PIPE),
    ("spec to explain", ["explain", "loop-a"], "loop-a:1:1", LOOP),
    ("spec to simulate", ["simulate", "pipe.yaml", "--games", "1"], "pipe.yaml:1:1", PIPE),
    ("variant", ["play", "mini", "--variant", "pipe.yaml", "--seats", "random,random"], "pipe.yaml:1:1", PIPE),
    ("variant looping", ["simulate", "mini", "--variant", "loop-a", "--games", "1"], "loop-a:1:1", LOOP),
    ("scenario file", ["test", "mini", "pipe.yaml"], "pipe.yaml:1:1", PIPE),
    ("save", ["play", "--resume", "pipe.yaml"], "pipe.yaml:1:1", PIPE),
    ("save looping", ["play", "--resume", "loop-a"], "loop-a:1:1", LOOP),
    ("log", ["replay", "pipe.yaml"], "pipe.yaml:1:1", PIPE),
    ("log looping", ["replay", "loop-a"], "loop-a:1:1", LOOP),
    ("log's game", ["replay", "mini.jsonl", "--game", "pipe.yaml"], "pipe.yaml:1:1", PIPE),
]


@pytest.mark.parametrize("what, argv, where, message", READERS, ids=[r[0] for r in READERS])
def test_every_reader_refuses_what_is_not_a_regular_file(game, capsys, monkeypatch, what, argv, where, message):
    if what == "log's game":  # a real log of the game, replayed against a pipe named as its game
        assert run(capsys, monkeypatch, game.parent, "play", "mini", "--seats", "random,random", "--seed", "1",
                   "--log", "mini.jsonl")[0] == 0
    code, out = run(capsys, monkeypatch, game.parent, *argv)
    assert code == 2 and f"{where}: error: {message}" in out, out


def test_a_pipe_or_a_loop_in_a_games_folders_is_a_located_error(game, capsys, monkeypatch):
    os.mkfifo(game / "scenarios" / "waiting.yaml")
    os.symlink("round.yaml", game / "variants" / "round.yaml")  # a link to itself
    os.symlink("..", game / "scenarios" / "up")  # a folder link back up: the walk does not follow it
    code, out = run(capsys, monkeypatch, game.parent, "validate", "mini")
    assert code == 2, out
    assert f"mini/scenarios/waiting.yaml:1:1: error: {PIPE}" in out, out
    assert f"mini/variants/round.yaml:1:1: error: {LOOP}" in out, out
    assert "ok: mini/rules.yaml (spec)" in out and "ok: mini/scenarios/basics.yaml (scenario)" in out, out
    code, out = run(capsys, monkeypatch, game.parent, "test", "mini")  # every scenario file of the game
    assert code == 2 and f"mini/scenarios/waiting.yaml:1:1: error: {PIPE}" in out, out


def test_a_variants_base_that_loops_is_located_at_the_base(game, capsys, monkeypatch):
    (game.parent / "v.yaml").write_text("variant:\n  name: v\n  base: loop-a\nchanges: []\n")
    code, out = run(capsys, monkeypatch, game.parent, "validate", "v.yaml")
    assert code == 2 and "v.yaml:3:9: error: the variant's base spec" in out and LOOP in out, out


def test_a_default_save_name_taken_by_a_pipe_is_skipped(game, capsys, monkeypatch):
    os.mkfifo(game.parent / "mini.orrery-save.json")
    monkeypatch.chdir(game.parent)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("q\n"))
    code = main(["play", "mini", "--seats", "human,random", "--seed", "1"])
    out = "".join(capsys.readouterr())
    assert code == 0, out
    assert "mini.orrery-save.json holds something that is not a save" in out, out
    assert (game.parent / "mini-2.orrery-save.json").is_file(), out


@pytest.mark.parametrize("target, message", [("pipe.yaml", PIPE), ("loop-a", LOOP)])
def test_an_explicit_save_that_is_not_a_file_is_refused(game, capsys, monkeypatch, target, message):
    code, out = run(capsys, monkeypatch, game.parent, "play", "mini", "--seats", "human,random", "--save", target)
    assert code == 2 and f"{target}: exists and is not an Orrery save ({message}" in out, out


def test_a_log_into_a_pipe_nobody_reads_is_an_error_not_a_wait(game, capsys, monkeypatch):
    code, out = run(capsys, monkeypatch, game.parent, "play", "mini", "--seats", "random,random", "--log",
                    "pipe.yaml")
    assert code == 2 and "cannot write the log pipe.yaml: is a named pipe that nobody reads" in out, out
    assert stat_is_fifo(game.parent / "pipe.yaml")  # still the pipe: never renamed over


def stat_is_fifo(path: Path) -> bool:
    import stat

    return stat.S_ISFIFO(os.lstat(path).st_mode)


def test_open_regular_names_what_it_refuses(tmp_path):
    os.mkfifo(tmp_path / "p")
    os.symlink("l", tmp_path / "l")
    (tmp_path / "f").write_bytes(b"x")
    cases = {"p": PIPE, "l": LOOP, ".": "is a directory, not a file"}
    if Path("/dev/null").exists():
        cases["/dev/null"] = "is a character device, not a regular file"
    for name, message in cases.items():
        with pytest.raises(NotAFile) as info:
            open_regular(tmp_path / name)
        assert message in str(info.value)
        assert read_line(tmp_path / name, 1) is None  # an error snippet never waits either
    with open_regular(tmp_path / "f") as fh:
        assert fh.read() == b"x"
    assert read_bounded(tmp_path / "f", 10) == b"x"
    with pytest.raises(FileNotFoundError):
        open_regular(tmp_path / "missing")
