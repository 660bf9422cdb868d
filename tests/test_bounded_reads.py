"""Every file is read within a bound known before reading: endless devices, huge sparse files and long logs
are refused (or replayed) fast, in bounded memory, with a located message; line numbers come from an index."""

from __future__ import annotations

import json
import os
import time
import tracemalloc
from pathlib import Path

import pytest

from orrery.interpreter.cli.main import main
from orrery.rulespec.bounded import LineIndex, TooLarge, iter_lines, read_bounded, read_line

PLAY = ["play", "tic-tac-toe", "--seats", "random,random", "--quiet-board"]


def cli(capsys, *argv: str) -> tuple[int, str, float, int]:
    """(exit code, output, CPU seconds, peak traced memory in bytes).

    CPU time, not wall time: reading gigabytes costs seconds of CPU however idle the machine is, while
    wall time also counts the other processes of a busy machine (14 s measured at load 18)."""
    tracemalloc.start()
    start = time.process_time()
    try:
        code = main(list(argv))
    finally:
        took = time.process_time() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    out, err = capsys.readouterr()
    return code, out + err, took, peak


def refused(result: tuple[int, str, float, int], path: Path | str, what: str = "larger than") -> None:
    code, out, took, peak = result
    assert code == 2, out
    assert f"{path}:1:1:" in out and what in out, out
    assert "internal error" not in out and "Traceback" not in out
    assert peak < 100_000_000, f"{peak} bytes"  # the limits are a few MB; nothing near the file's size
    assert took < 5, took  # CPU seconds: a fraction of a second; reading the file would take far more


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_validating_an_endless_device_is_refused_before_it_is_read(capsys):
    # (issue 39: only regular files are read; a device is refused by what it is, before any byte is read)
    refused(cli(capsys, "validate", "/dev/zero"), "/dev/zero", "is a character device, not a regular file")


@pytest.fixture
def sparse(tmp_path):
    def make(name: str, head: bytes = b"") -> Path:
        path = tmp_path / name
        with open(path, "wb") as fh:
            fh.write(head)
            fh.truncate(3 * 10**9)  # 3 GB that take no disk space
        return path
    return make


def test_huge_spec_save_and_log_are_refused_before_reading(sparse, capsys):
    spec = sparse("rules.yaml", b"orrery: 1\n")
    refused(cli(capsys, "validate", str(spec)), spec)
    save = sparse("s.orrery-save.json", b"{")
    refused(cli(capsys, "play", "--resume", str(save)), save)
    log = sparse("g.jsonl", b"{")
    refused(cli(capsys, "replay", str(log)), log)


def test_a_log_that_goes_wrong_early_is_refused_without_reading_the_rest(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    assert main([*PLAY, "--no-save", "--log", str(log), "--seed", "2"]) == 0
    lines = log.read_text().splitlines()
    step = json.loads(lines[3])
    step["digest"] = "0" * 16  # the state after step 3 differs from the log
    lines[3] = json.dumps(step)
    # then 300 000 lines that are not even JSON: they are never read
    log.write_text("\n".join(lines[:4]) + "\n" + "not json\n" * 300_000)
    capsys.readouterr()
    code, out, took, peak = cli(capsys, "replay", str(log))
    assert code == 1 and f"{log}:4: step 3: state differs" in out, out
    assert took < 10 and peak < 50_000_000


def test_a_bad_line_is_located_when_it_is_reached(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    assert main([*PLAY, "--no-save", "--log", str(log), "--seed", "2"]) == 0
    lines = log.read_text().splitlines()
    lines[2] = lines[2][:20]
    log.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    code, out, _, _ = cli(capsys, "replay", str(log))
    assert code == 2 and f"{log}:3:" in out and "not valid JSON" in out


def test_read_bounded_counts_what_it_reads(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_bounded(path, 100) == b"x" * 100
    with pytest.raises(TooLarge):
        read_bounded(path, 99)
    r, w = os.pipe()  # a pipe has no size to stat: the bound is enforced while reading
    os.write(w, b"y" * 5000)
    os.close(w)
    with open(r, "rb") as fh, pytest.raises(TooLarge):
        from orrery.rulespec.bounded import read_stream
        read_stream(fh, 4096)


def test_line_reads_stop_at_their_bounds(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"one\n" + b"z" * 3_000_000 + b"\nthree\n")
    assert read_line(path, 1) == "one" and read_line(path, 3) == "three" and read_line(path, 4) is None
    with open(path, "rb") as fh:
        with pytest.raises(TooLarge) as info:
            list(iter_lines(fh, 10**8, 1_000_000))
    assert info.value.line == 2


def test_line_index_is_exact():
    text = "ab\ncde\n\nf"
    index = LineIndex(text)
    for offset in range(len(text)):
        line = text.count("\n", 0, offset) + 1
        col = offset - (text.rfind("\n", 0, offset) + 1) + 1
        assert index.line_col(offset) == (line, col)
