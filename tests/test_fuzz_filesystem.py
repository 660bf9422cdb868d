"""An outside view of the file system (issue 39.8): hypothesis builds random situations around each command's
files (links, link loops, broken links, named pipes, folders, empty files, two roles for one file) and every
command must end with exit 0, 1 (a replay that diverges, a failing scenario) or 2, with no traceback and no
"internal error", without waiting (an alarm per case), and with every input file left as it was.

The default run is short; with CI set (as `.ci/run` does) it runs many more.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orrery.interpreter.cli.main import main

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")]

ROOT = Path(__file__).resolve().parents[1]
TTT = ROOT / "games" / "tic-tac-toe"
EXAMPLES = 60 if os.environ.get("CI") else 15  # (drawn afresh every CI run; 120 until session 7)
FS = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("CI"),
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# what a path a command reads or writes can be instead of the file it expects
SHAPES = ["file", "missing", "pipe", "loop", "broken link", "link to pipe", "folder", "empty", "link to file",
          "hard link to rules"]
# (command line with {spec} {variant} {scenario} {save} {log} {out} placeholders, the paths it touches)
COMMANDS = [
    ["validate", "{spec}", "{variant}", "{scenario}"],
    ["validate", "{game}"],
    ["test", "{spec}", "{scenario}"],
    ["play", "--resume", "{save}", "--no-save"],
    ["play", "--resume", "{save}", "--log", "{out}"],
    ["play", "{spec}", "--seats", "random,random", "--save", "{out}", "--log", "{log}"],
    ["play", "{spec}", "--variant", "{variant}", "--seats", "random,random", "--no-save"],
    ["replay", "{log}"],
    ["replay", "{log}", "--game", "{spec}"],
    ["simulate", "{spec}", "--variant", "{variant}", "--games", "1"],
    ["explain", "{spec}"],
]
ROLES = ["spec", "variant", "scenario", "save", "log", "out"]


class Hung(Exception):
    """The command waited on something: a pipe, most likely."""


def _originals(root: Path) -> dict[str, Path]:
    """A real game folder, a save and a log of it, made by the engine: the files in their expected shape."""
    game = root / "game"
    shutil.copytree(TTT, game)
    save, log = root / "real.orrery-save.json", root / "real.jsonl"
    old = sys.stdin
    sys.stdin = io.StringIO("b2\na1\nquit\n")
    try:
        assert main(["play", str(game / "rules.yaml"), "--seats", "human,random", "--seed", "2", "--save", str(save),
                     "--log", str(log)]) == 0
    finally:
        sys.stdin = old
    return {"spec": game / "rules.yaml", "variant": game / "variants" / "misere.yaml",
            "scenario": game / "scenarios" / "basics.yaml", "save": save, "log": log}


def _shape(path: Path, shape: str, real: Path, rules: Path) -> None:
    """Put `shape` at `path` (whose expected content is `real`)."""
    if shape == "file":
        shutil.copyfile(real, path)
    elif shape == "pipe":
        os.mkfifo(path)
    elif shape == "loop":
        os.symlink(path.name, path)
    elif shape == "broken link":
        os.symlink("nowhere", path)
    elif shape == "link to pipe":
        os.mkfifo(path.with_suffix(".fifo"))
        os.symlink(path.with_suffix(".fifo").name, path)
    elif shape == "folder":
        path.mkdir()
    elif shape == "empty":
        path.write_bytes(b"")
    elif shape == "link to file":
        shutil.copyfile(real, path.with_suffix(".target"))
        os.symlink(path.with_suffix(".target").name, path)
    elif shape == "hard link to rules":
        os.link(rules, path)


def _inputs(root: Path) -> dict[str, str]:
    """Every regular file under `root` (links followed only to regular files) with a hash of its bytes."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture(scope="module")
def originals(tmp_path_factory) -> dict[str, Path]:
    return _originals(tmp_path_factory.mktemp("fs"))


@FS
@given(argv=st.sampled_from(COMMANDS), shapes=st.fixed_dictionaries({r: st.sampled_from(SHAPES) for r in ROLES}))
def test_no_file_system_situation_hangs_crashes_or_changes_an_input(originals, argv, shapes):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        game = root / "g"
        shutil.copytree(originals["spec"].parent, game)  # the spec's folder: variants/, scenarios/
        paths = {"game": game, "spec": game / "rules.yaml"}
        for role in ROLES:
            if role == "spec":
                continue
            p = root / f"{role}.x"
            _shape(p, shapes[role], originals.get(role, originals["log"]), paths["spec"])
            paths[role] = p
        os.unlink(paths["spec"])  # the spec itself takes a shape too (its folder stays a game folder)
        _shape(paths["spec"], shapes["spec"] if shapes["spec"] != "hard link to rules" else "file",
               originals["spec"], originals["spec"])
        before = _inputs(root)
        line = [a.format(**{k: str(v) for k, v in paths.items()}) for a in argv]
        old_handler = signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(Hung(" ".join(line))))
        old_out, old_err, old_in = sys.stdout, sys.stderr, sys.stdin
        sys.stdout, sys.stderr, sys.stdin = io.StringIO(), io.StringIO(), io.StringIO("")
        signal.alarm(60)  # generous: every case takes a fraction of a second alone
        try:
            code = main(line)
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old_handler)
            out, err = sys.stdout.getvalue(), sys.stderr.getvalue()
            sys.stdout, sys.stderr, sys.stdin = old_out, old_err, old_in
        assert code in (0, 1, 2), (line, shapes, code, out + err)
        assert "internal error" not in out + err and "Traceback" not in out + err, (line, shapes, err)
        after = _inputs(root)
        written = {str(paths[a.strip("{}")]) for flag, a in zip(argv, argv[1:]) if flag in ("--save", "--log")}
        if "--resume" in argv and "--no-save" not in argv:  # a resumed game is saved again where it was
            written.add(str(paths["save"]))
        changed = [p for p, h in before.items() if after.get(p) != h and p not in written]
        assert not changed, (line, shapes, changed)
