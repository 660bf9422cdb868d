"""One typed layer for the numbers given on the command line, in saves and in logs.

Every numeric option is read by a parser from here (argparse's `type=`), which
refuses anything that is not a finite number in its range with a plain message
(`--delay must be a number of seconds between 0 and 60, not 'nan'`) and exit
code 2.  The same bounds apply to `--limit NAME=N` and to the budgets of bots,
whether they come from `--seats`/`--bots` or from a save someone sent: a save is
untrusted, so it cannot make a bot think for hours.
"""

from __future__ import annotations

import argparse
import math
import re
from dataclasses import dataclass
from typing import Any

# Upper bounds of the options: large enough for any real use, small enough that no value can hang,
# overflow or exhaust memory.
MAX_SEED = 2**64 - 1  # the RNG keeps 64 bits of state; larger seeds only alias smaller ones
MAX_GAMES = 10_000_000
MAX_JOBS = 256
MAX_PLAYERS = 16  # as specs (players.max) and saves
MAX_DELAY = 60.0
MAX_BENCH_SECONDS = 3600.0
MAX_THINK = 600.0  # a search bot's time per decision at the table
MAX_LIMIT = 10**12  # any engine limit; past it a limit means nothing but "run out of memory"
MAX_YAML_BYTES = 1_000_000_000  # yaml_bytes: a spec of 1 GB could not be loaded anyway
# Bot budgets (mcts:N:Ts:playout=P:c=C:rave=K), from the command line or a save.
MAX_ITERATIONS = 1_000_000
MAX_BOT_SECONDS = 600.0
MAX_PLAYOUT = 1_000_000
MAX_EXPLORATION = 100.0  # c
MAX_RAVE = 1_000_000.0


@dataclass(frozen=True)
class Number:
    """An argparse `type=`: a finite int or float between `lo` and `hi`, or a message saying what is wanted."""

    option: str
    lo: float
    hi: float
    integer: bool = True
    unit: str = ""
    lo_open: bool = False  # lo itself is refused (a duration that must be positive)

    def __call__(self, text: str) -> int | float:
        value = parse_number(text, self.integer)
        if value is None or not self.fits(value):
            shown = text if len(text) <= 40 else text[:37] + "..."
            # argparse prints "argument --delay: " before this: the option is named once
            raise argparse.ArgumentTypeError(f"{self.wanted().removeprefix(self.option + ' ')}, not {shown!r}")
        return value

    def fits(self, value: int | float) -> bool:
        """Whether `value` is in range."""
        above = value > self.lo if self.lo_open else value >= self.lo
        return above and value <= self.hi

    def wanted(self) -> str:
        """What the option takes, as a sentence: `--delay must be a number of seconds between 0 and 60`."""
        what = "a whole number" if self.integer else "a number"
        unit = f" of {self.unit}" if self.unit else ""
        low = f"more than {_show(self.lo)}" if self.lo_open else f"between {_show(self.lo)}"
        high = f" and at most {_show(self.hi)}" if self.lo_open else f" and {_show(self.hi)}"
        return f"{self.option} must be {what}{unit} {low}{high}"


def parse_number(text: str, integer: bool) -> int | float | None:
    """`text` as a finite number (an int when `integer`), or None; never raises, never loops on huge text."""
    t = text.strip()
    if len(t) > 100 or not t:  # longer than any number in range; int() of 5000 digits would raise
        return None
    if integer:
        return int(t) if re.fullmatch(r"[-+]?\d+", t) else None
    try:
        value = float(t)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _show(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


# The options of the commands (argparse types); cli.py, play.py and cli_perf.py use these.
SEED = Number("--seed", 0, MAX_SEED)
PLAYERS = Number("--players", 1, MAX_PLAYERS)
GAMES = Number("--games", 0, MAX_GAMES)
JOBS = Number("--jobs", 1, MAX_JOBS, unit="processes")
DELAY = Number("--delay", 0, MAX_DELAY, integer=False, unit="seconds")
BENCH_SECONDS = Number("--seconds", 0, MAX_BENCH_SECONDS, integer=False, unit="seconds", lo_open=True)
THINK = Number("--think", 0, MAX_THINK, integer=False, unit="seconds", lo_open=True)


def limit_error(name: str, value: int) -> str | None:
    """Why `--limit NAME=value` is out of range, or None."""
    hi = MAX_YAML_BYTES if name == "yaml_bytes" else MAX_LIMIT
    if value > hi:
        return f"--limit {name} must be at most {hi}, not {value}"
    return None


def budget_error(params: dict[str, Any]) -> str | None:
    """Why a bot's parsed parameters (mcts.parse_budget) are out of range, or None."""
    checks = (("iterations", MAX_ITERATIONS, "iterations"), ("seconds", MAX_BOT_SECONDS, "seconds of thought"),
              ("playout", MAX_PLAYOUT, "decisions in a playout"), ("c", MAX_EXPLORATION, "exploration (c=)"),
              ("rave", MAX_RAVE, "RAVE weight (rave=)"))
    for key, hi, what in checks:
        value = params.get(key)
        if value is not None and not (isinstance(value, (int, float)) and math.isfinite(value) and value <= hi):
            return f"a bot may use at most {_show(hi)} {what}, not {value}"
    return None


def bot_bounds_error(name: str) -> str | None:
    """Why the budget of bot `name` (e.g. `mcts:999999999`) is out of range, or None (also for unknown bots)."""
    base, colon, params = name.partition(":")
    if not colon or base != "mcts":
        return None
    from ..bots.mcts import parse_budget

    try:
        parsed = parse_budget(params)
    except ValueError:
        return None  # unreadable: make_bot says why
    why = budget_error(parsed)
    return f"{why} (in '{name}')" if why else None


__all__ = ["Number", "parse_number", "SEED", "PLAYERS", "GAMES", "JOBS", "DELAY", "BENCH_SECONDS", "THINK", "limit_error",
           "budget_error", "bot_bounds_error"]
