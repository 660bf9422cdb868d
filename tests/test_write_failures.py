"""A write that fails is a plain message and exit 2, and the file that was there before is left as it was.

Failures are real where the machine allows (`/dev/full`, a directory in the way, a folder that does not
exist) and injected otherwise (permission denied and a vanishing target cannot be produced as root).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from orrery.interpreter.files import atomic
from orrery.interpreter.files.atomic import AtomicFile, write_atomic
from orrery.interpreter.cli.main import main

PLAY = ["play", "tic-tac-toe", "--seats", "random,random", "--quiet-board"]


def cli(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


def clean_exit(code: int, out: str) -> None:
    assert code == 2, out
    assert "internal error" not in out and "Traceback" not in out, out


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_log_on_a_full_disk_is_a_clean_exit(capsys):
    code, out = cli(capsys, *PLAY, "--no-save", "--log", "/dev/full")
    clean_exit(code, out)
    assert "cannot write the log /dev/full: No space left on device" in out
    assert not Path("/dev/full").is_file()  # a device is written in place, never replaced


def test_a_directory_in_the_way_of_a_log_or_a_save(tmp_path, capsys):
    (tmp_path / "g.jsonl").mkdir()
    clean_exit(*cli(capsys, *PLAY, "--no-save", "--log", str(tmp_path / "g.jsonl")))
    (tmp_path / "s.json").mkdir()
    clean_exit(*cli(capsys, *PLAY, "--save", str(tmp_path / "s.json")))
    clean_exit(*cli(capsys, *PLAY, "--no-save", "--log", str(tmp_path / "missing" / "g.jsonl")))


@pytest.mark.parametrize("where", ["mkstemp", "fsync", "replace"])
@pytest.mark.parametrize("error", [errno.ENOSPC, errno.EACCES, errno.ENOENT])
def test_a_failed_log_write_leaves_the_previous_log(where, error, tmp_path, capsys, monkeypatch):
    log = tmp_path / "g.jsonl"
    log.write_text("the previous log\n")
    before = sorted(os.listdir(tmp_path))

    def fail(*args, **kwargs):
        raise OSError(error, os.strerror(error))

    target = {"mkstemp": (atomic.tempfile, "mkstemp"), "fsync": (atomic.os, "fsync"),
              "replace": (atomic.os, "replace")}[where]
    monkeypatch.setattr(*target, fail)
    code, out = cli(capsys, *PLAY, "--no-save", "--log", str(log))
    clean_exit(code, out)
    assert os.strerror(error) in out
    assert log.read_text() == "the previous log\n"
    assert sorted(os.listdir(tmp_path)) == before  # no temporary file left behind


def test_a_failed_save_write_leaves_the_previous_save(tmp_path, capsys, monkeypatch):
    save = tmp_path / "s.json"
    code, _ = cli(capsys, *PLAY, "--save", str(save))
    assert code == 0
    previous = save.read_bytes()

    def fail(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, "replace", fail)
    code, out = cli(capsys, *PLAY, "--save", str(save), "--seed", "3")
    clean_exit(code, out)
    assert save.read_bytes() == previous
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_write_atomic_replaces_whole_or_not_at_all(tmp_path, monkeypatch):
    path = tmp_path / "f.txt"
    write_atomic(path, "one\n")
    assert path.read_text() == "one\n"
    out = AtomicFile(path)
    out.write("two\n")
    assert path.read_text() == "one\n"  # nothing shows until commit
    out.commit()
    assert path.read_text() == "two\n"
    out = AtomicFile(path)
    out.write("three\n")
    out.discard()
    assert path.read_text() == "two\n" and [p.name for p in tmp_path.iterdir()] == ["f.txt"]
