"""The bad-input corpus: every broken input gets a located, plain message, never a traceback.

Each case of `tests/bad_inputs/cases.yaml` runs `python -m orrery ARGS...` in a process of its own
from the repository root, with stdin on /dev/null, and checks the exit code, the location and a
fragment of the message (see the comment at the top of cases.yaml).  Cases marked `xfail` record how
the engine *should* answer an input it currently answers badly; they are strict expected failures.

Each process is forked from a server that has imported Orrery once (tests/cliserver.py): a fresh
interpreter would spend most of a case's CPU on its start and imports (235 cases: about 120 CPU s
started afresh; forked, about 64 when the server had imported only the parser, about 23 now that it imports
the commands' modules and freezes its objects).  tests/test_cli.py runs the real `python -m orrery` once.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml
from cliserver import CliServer

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "bad_inputs"
MANIFEST = CORPUS / "cases.yaml"
DIR = CORPUS.relative_to(REPO).as_posix()  # "tests/bad_inputs": paths in messages stay short
CPU_LIMIT = 60  # CPU seconds a case may use (a case that loops is stopped, and fails)
MIN_CASES = 70
KEYS = {"id", "args", "exit", "where", "message", "also", "forbid", "stream", "xfail"}
FOLDERS = ("spec", "variant", "scenario", "log", "save", "cli")


def _fill(text: str) -> str:
    return text.replace("{dir}", DIR)


def _load_cases() -> list[dict[str, Any]]:
    data = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    return list(data["cases"])


CASES = _load_cases()


@pytest.fixture(scope="session")
def cli() -> Iterator[CliServer]:
    """`python -m orrery` for the corpus: forked from one server per worker (tests/cliserver.py), so that each case
    is a process of its own without paying the interpreter's start and Orrery's imports again."""
    env = dict(os.environ)
    env.pop("ORRERY_DEBUG", None)  # a bug must show as a plain 'internal error', not re-raise
    env.setdefault("PYTHONIOENCODING", "utf-8")
    server = CliServer(env)
    yield server
    server.close()


def _param(case: dict[str, Any]) -> Any:
    marks = [pytest.mark.xfail(reason=case["xfail"], strict=True)] if case.get("xfail") else []
    return pytest.param(case, id=case["id"], marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_bad_input(case: dict[str, Any], cli: CliServer) -> None:
    out = cli.run([_fill(a) for a in case["args"]], cpu_limit=CPU_LIMIT)
    expected_exit = case.get("exit", 2)
    stream_name = case.get("stream", "stderr" if expected_exit == 2 else "stdout")
    text = out.stderr if stream_name == "stderr" else out.stdout
    shown = f"exit {out.code}\n--- stdout ---\n{out.stdout}\n--- stderr ---\n{out.stderr}"

    for name, stream in (("stdout", out.stdout), ("stderr", out.stderr)):
        assert "Traceback" not in stream, f"a traceback on {name}:\n{shown}"
    assert out.code == expected_exit, f"expected exit {expected_exit}, got {out.code}\n{shown}"
    if case.get("where"):
        where = _fill(case["where"])
        assert re.search(re.escape(where) + r"(?!\d)", text), f"no location {where!r} on {stream_name}\n{shown}"
    for fragment in [case["message"], *case.get("also", [])]:
        fragment = _fill(fragment)
        assert fragment in text, f"no {fragment!r} on {stream_name}\n{shown}"
    for fragment in case.get("forbid", []):
        fragment = _fill(fragment)
        assert fragment not in out.stdout + out.stderr, f"{fragment!r} should not appear\n{shown}"


# ------------------------------------------------------------------ the manifest itself


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= MIN_CASES, f"only {len(CASES)} cases; the corpus must have at least {MIN_CASES}"


def test_manifest_is_well_formed() -> None:
    ids = [c.get("id") for c in CASES]
    assert len(ids) == len(set(ids)), f"duplicate ids: {sorted(i for i in ids if ids.count(i) > 1)}"
    for c in CASES:
        assert set(c) <= KEYS, f"{c.get('id')}: unknown keys {sorted(set(c) - KEYS)}"
        assert isinstance(c.get("id"), str) and c["id"].split("/")[0] in FOLDERS, f"bad id {c.get('id')!r}"
        assert isinstance(c.get("args"), list) and all(isinstance(a, str) for a in c["args"]), c["id"]
        assert isinstance(c.get("message"), str) and c["message"], f"{c['id']}: no message fragment"
        assert c.get("exit", 2) in (1, 2), f"{c['id']}: exit must be 1 or 2"
        assert c.get("stream", "stderr") in ("stdout", "stderr"), c["id"]
        if not c["id"].startswith("cli/"):  # only argument errors may have no file location
            assert re.fullmatch(r".+:\d+(:\d+)?", c.get("where") or ""), f"{c['id']}: where must be FILE:LINE[:COL]"
        if "xfail" in c:
            assert isinstance(c["xfail"], str) and c["xfail"].strip(), f"{c['id']}: xfail needs a reason"


def test_every_folder_is_covered_and_every_file_is_used() -> None:
    used = " ".join(_fill(a) for c in CASES for a in c["args"])
    for folder in FOLDERS:
        assert (CORPUS / folder).is_dir(), f"missing folder {folder}/"
        assert any(c["id"].startswith(folder + "/") for c in CASES), f"no case in {folder}/"
    for path in sorted(CORPUS.glob("*/*")):
        rel = path.relative_to(REPO).as_posix()
        if path.name.startswith("_") or path.name == "README.md" or path.parent.name.startswith("_"):
            continue  # fixtures that cases use indirectly (bases, frozen games) and notes
        assert rel in used, f"{rel} is in the corpus but no case uses it"


@pytest.mark.parametrize("how", ["return", "exit-3", "exit-text", "raise", "interrupt"])
def test_a_forked_child_leaves_as_a_fresh_interpreter_does(how: str, cli: CliServer) -> None:
    """The fork server's children skip the modules' teardown (tests/cliserver.py): exit status, output, atexit and
    an uncaught exception's traceback are still a fresh `python -m`'s."""
    fresh = subprocess.run([sys.executable, "-m", "exit_probe", how], cwd=CORPUS.parent, capture_output=True,
                           text=True, env={**os.environ, "PYTHONPATH": str(CORPUS.parent)})
    forked = cli.run([how], module="exit_probe")
    assert forked.code == fresh.returncode  # (a negative one: killed by that signal)
    assert forked.stdout == fresh.stdout == "started\natexit ran\n"
    assert forked.stderr.strip().split("\n")[-1:] == fresh.stderr.strip().split("\n")[-1:]
    assert ("Traceback" in forked.stderr) == ("Traceback" in fresh.stderr) == (how in ("raise", "interrupt"))
