"""One typed layer for the numbers given on the command line, in saves and in logs.

Every numeric option is read by a parser from here (argparse's `type=`), which
refuses anything that is not a finite number in its range with a plain message
(`--delay must be a number of seconds between 0 and 60, not 'nan'`) and exit
code 2.  The same bounds apply to `--limit NAME=N` and to the budgets of bots,
whether they come from `--seats`/`--bots` or from a save someone sent: a save is
untrusted, so it cannot make a bot think for hours.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

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
MAX_DIGITS = 4000  # the `digits` limit cannot go higher: Python turns at most 4300 digits into text
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
            import argparse  # (here: the engine reads MAX_DIGITS from this module without the command line)

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
        low = f"more than {show_number(self.lo)}" if self.lo_open else f"between {show_number(self.lo)}"
        high = f" and at most {show_number(self.hi)}" if self.lo_open else f" and {show_number(self.hi)}"
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


def show_number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


# The options of the commands (argparse types); cli.py, play.py and cli_perf.py use these.
SEED = Number("--seed", 0, MAX_SEED)
PLAYERS = Number("--players", 1, MAX_PLAYERS)
GAMES = Number("--games", 0, MAX_GAMES)
JOBS = Number("--jobs", 1, MAX_JOBS, unit="processes")
DELAY = Number("--delay", 0, MAX_DELAY, integer=False, unit="seconds")
BENCH_SECONDS = Number("--seconds", 0, MAX_BENCH_SECONDS, integer=False, unit="seconds", lo_open=True)
THINK = Number("--think", 0, MAX_THINK, integer=False, unit="seconds", lo_open=True)
ROUNDS = Number("--rounds", 1, 100, unit="rounds")  # orrery bench --report: medians of this many


def limit_error(name: str, value: int) -> str | None:
    """Why `--limit NAME=value` is out of range, or None."""
    hi = MAX_YAML_BYTES if name == "yaml_bytes" else MAX_LIMIT
    if value > hi:
        return f"--limit {name} must be at most {hi}, not {value}"
    return None


__all__ = ["Number", "parse_number", "SEED", "PLAYERS", "GAMES", "JOBS", "DELAY", "BENCH_SECONDS", "THINK", "ROUNDS",
           "limit_error", "show_number"]
