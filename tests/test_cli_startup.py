"""The command line's parser (interpreter/cli/main.py) lists every command and imports none of them: a command's
module, and the engine, pydantic and rich, are imported when that command runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from orrery.interpreter.cli.main import main

COMMANDS = ["list", "validate", "new", "schema", "explain", "play", "simulate", "replay", "test", "bench", "compile",
            "compare", "coverage", "tune", "report", "serve", "docs"]


def test_help_lists_every_command(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    listed = re.findall(r"^    (\w+)  ", out, re.M)  # each command's line under COMMAND, with its help
    assert listed == COMMANDS, listed


@pytest.mark.parametrize("typed, meant", [("plya", "play"), ("simulat", "simulate"), ("sim", "simulate"),
                                          ("vaildate", "validate"), ("Play", "play")])
def test_a_mistyped_command_gets_did_you_mean(capsys, typed, meant):
    assert main([typed]) == 2
    err = capsys.readouterr().err
    assert f"invalid choice: '{typed}'" in err and err.rstrip().endswith(f"(did you mean '{meant}'?)"), err


def test_an_unknown_command_lists_the_commands(capsys):
    assert main(["zzzz"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'zzzz'" in err and "did you mean" not in err and "'simulate'" in err, err


def test_help_imports_no_command():
    """`orrery --help` builds the whole parser without importing the engine, pydantic, rich or a command's own
    implementation (a tenth of the CPU of a start that imports them; every CLI-running test pays it)."""
    heavy = ["pydantic", "rich", "ruamel.yaml", "orrery.rulespec.ast", "orrery.rulespec.models",
             "orrery.interpreter.engine.game", "orrery.interpreter.cli.play", "orrery.interpreter.cli.undo",
             "orrery.interpreter.workbench.compare", "orrery.interpreter.bots.factory"]
    code = ("import io, contextlib, sys\nfrom orrery.interpreter.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    assert main(['--help']) == 0\n"
            "print(','.join(m for m in %r if m in sys.modules))" % (heavy,))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "ORRERY_CACHE_DIR": "off"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"imported by --help: {done.stdout.strip()}"


def test_play_starts_with_the_collector_held_until_its_table_is_set():
    """`orrery play` (the process's own main()) runs its start-up with the cyclic collector off and freezes what
    start-up made once the table is set (cli/loading.collector_held, settled); the collector is on afterwards.
    A call of main() from Python (a test) leaves the collector as it was."""
    code = ("import gc, io, sys, contextlib\nfrom orrery.interpreter.cli.main import main\n"
            "sys.argv = ['orrery', 'play', 'tic-tac-toe', '--seats', 'human,random', '--no-save', '--seed', '1']\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    code = main()\n"
            "print(code, gc.isenabled(), gc.get_freeze_count() > 1000)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.stdout.split() == ["0", "True", "True"], (done.stdout, done.stderr)


def test_main_called_from_python_leaves_the_collector_alone(monkeypatch, capsys):
    import gc
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    frozen = gc.get_freeze_count()
    assert main(["play", "tic-tac-toe", "--seats", "human,random", "--no-save", "--seed", "1"]) == 0
    assert gc.isenabled() and gc.get_freeze_count() <= frozen  # (nothing frozen; what another test froze may die)
