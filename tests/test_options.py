"""Every numeric option of every command, given absurd numbers, ends with exit 0 or 2 and never "internal error".

The numeric options are found by walking the CLI's parser, so an option added later is covered (and must
be parsed by the typed layer of `interpreter/core/options.py`).  Budgets of bots get the same bounds wherever they
come from: `--seats`, `--bots`, a save.
"""

from __future__ import annotations

import argparse
import io
import math
import sys
import tempfile
from pathlib import Path

import pytest

from orrery.interpreter.core import options
from orrery.interpreter.bots.factory import bot_error
from orrery.interpreter.cli.main import LIMIT_NAMES, build_parser, main

ROOT = Path(__file__).resolve().parents[1]
TTT = str(ROOT / "games" / "tic-tac-toe" / "rules.yaml")
BAD = ["-1", "0", "nan", "inf", "1e308", "9" * 100]

# The smallest working command line of each command (bots only: nothing waits for input).
BASE: dict[str, list[str]] = {
    "list": ["list"],
    "validate": ["validate", TTT],
    "schema": ["schema"],
    "explain": ["explain", "tic-tac-toe"],
    "play": ["play", "tic-tac-toe", "--seats", "random,random", "--no-save", "--quiet-board"],
    "simulate": ["simulate", "tic-tac-toe", "--games", "1"],
    "bench": ["bench", "tic-tac-toe", "--seconds", "0.05", "--mode", "compiled"],
    "compile": ["compile", "tic-tac-toe"],
    "replay": None,  # type: ignore[dict-item]  # needs a log: made by the fixture below
    "test": ["test", "tic-tac-toe"],
    "compare": ["compare", "tic-tac-toe", "--variant", "misere", "--games", "1"],
    "report": ["report", "tic-tac-toe", "--games", "1", "--out", tempfile.mkdtemp(prefix="orrery-report-")],
    "coverage": ["coverage", "tic-tac-toe", "--games", "1"],
    "tune": ["tune", str(ROOT / "tests" / "workbench" / "duel.yaml"), "--param", "edge=4..5", "--trials", "1",
             "--games", "1", "--out", str(Path(tempfile.mkdtemp(prefix="orrery-tune-")) / "t.yaml")],
    "serve": ["serve", "tic-tac-toe", "--seats", "human,random", "--links-only", "--save-dir",
              tempfile.mkdtemp(prefix="orrery-serve-")],
    "docs": ["docs", "dsl", "1.1"],
    "new": ["new", "probe", "--dir", tempfile.mkdtemp(prefix="orrery-options-")],  # (a second run: 'exists', exit 2)
}


RUNS = {"play", "simulate", "replay", "test", "bench", "compare"}


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def numeric_options() -> list[tuple[str, str]]:
    """(command, option) for every option that takes a number."""
    out = []
    for name, sp in _subparsers().items():
        for action in sp._actions:
            if action.option_strings and (action.type in (int, float) or isinstance(action.type, options.Number)):
                out.append((name, action.option_strings[0]))
    return out


def cli(argv: list[str], capsys, monkeypatch) -> tuple[int, str]:
    """Run the CLI in-process (argparse's exit included); (exit code, stdout + stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture(scope="module")
def log_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    assert main(["play", "tic-tac-toe", "--seats", "random,random", "--no-save", "--quiet-board", "--log",
                 str(path)]) == 0
    return str(path)


def base(command: str, log_file: str) -> list[str]:
    return ["replay", log_file] if command == "replay" else list(BASE[command])


def test_every_command_has_a_base_command_line():
    assert set(_subparsers()) == set(BASE), "add the new command to BASE"


def test_every_numeric_option_is_parsed_by_the_typed_layer():
    found = numeric_options()
    assert len(found) >= 10
    for name, sp in _subparsers().items():
        for action in sp._actions:
            assert action.type not in (int, float), f"{name} {action.option_strings}: use a type from options.py"


@pytest.mark.parametrize("command,option", numeric_options())
@pytest.mark.parametrize("value", BAD)
def test_absurd_numbers_are_refused_or_work(command, option, value, capsys, monkeypatch, log_file):
    argv = base(command, log_file)
    if option in argv:  # replace the base value rather than repeating the option
        i = argv.index(option)
        del argv[i:i + 2]
    code, out = cli(argv + [f"{option}={value}"], capsys, monkeypatch)
    assert code in (0, 2), out
    assert "internal error" not in out and "Traceback" not in out


@pytest.mark.parametrize("command", sorted(BASE))
@pytest.mark.parametrize("value", BAD)
def test_absurd_limits_are_refused_or_work(command, value, capsys, monkeypatch, log_file):
    # every limit at 0 where a game runs; elsewhere, and for the values refused before anything runs, two
    names = LIMIT_NAMES if value == "0" and command in RUNS else ["loop", "yaml_bytes"]
    for name in names:
        code, out = cli(base(command, log_file) + ["--limit", f"{name}={value}"], capsys, monkeypatch)
        assert code in (0, 2), (name, out)
        assert "internal error" not in out and "Traceback" not in out, (name, out)


def test_a_refused_number_says_what_is_wanted(capsys, monkeypatch):
    code, out = cli(BASE["play"] + ["--delay", "nan"], capsys, monkeypatch)
    assert code == 2 and "--delay: must be a number of seconds between 0 and 60, not 'nan'" in out
    code, out = cli(["bench", "tic-tac-toe", "--seconds", "nan"], capsys, monkeypatch)
    assert code == 2 and "--seconds: must be a number of seconds more than 0" in out


@pytest.mark.parametrize("bot", ["mcts:999999999", "mcts:100000000s", "mcts:5:c=inf", "mcts:5:c=1e308",
                                 "mcts:5:playout=" + "9" * 100, "mcts:5:rave=1e308", "mcts:" + "9" * 5000])
def test_bot_budgets_are_bounded(bot, capsys, monkeypatch):
    assert bot_error(bot) is not None
    code, out = cli(["simulate", "tic-tac-toe", "--games", "1", "--bots", bot], capsys, monkeypatch)
    assert code == 2 and "internal error" not in out


def test_bot_budgets_in_range_are_accepted():
    for bot in ["mcts", "mcts:200", "mcts:2s", "mcts:500ms", "mcts:200:2s:playout=50:c=1.4:rave=300"]:
        assert bot_error(bot) is None, bot


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e308", "", "  ", "0x10", "1_000", "9" * 5000, "\u0661"])
def test_parse_number_never_raises(text):
    for integer in (True, False):
        value = options.parse_number(text, integer)
        assert value is None or (isinstance(value, (int, float)) and math.isfinite(value))


def test_a_save_cannot_give_a_bot_an_unbounded_budget_and_seats_override_it(tmp_path, capsys, monkeypatch):
    save = tmp_path / "s.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("b2\nquit\n"))
    assert main(["play", "tic-tac-toe", "--seats", "human,random", "--save", str(save)]) == 0
    save.write_text(save.read_text().replace('"random"', '"mcts:999999999"'))
    capsys.readouterr()
    code, out = cli(["play", "--resume", str(save)], capsys, monkeypatch)
    assert code == 2 and f"{save}:" in out and "at most 1000000 iterations" in out, out
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--resume", str(save), "--seats", "human,mcts:5"]) == 0
    assert '"mcts:5"' in save.read_text()  # the seats given replace the saved ones, in the save too


def test_every_help_page_prints(capsys):
    """`orrery --help` and each command's `--help` print their usage and exit 0 (argparse reads a lone `%` in a
    help text as a format: `95% interval` crashed `orrery --help` with a traceback)."""
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for args in [["--help"]] + [[name, "--help"] for name in sub.choices]:
        assert main(args) == 0, args
        out = capsys.readouterr().out
        assert "usage:" in out and "%%" not in out, args  # (a doubled % shows only where argparse formats none)
