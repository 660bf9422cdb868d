"""Grid cell labels: column letters then the 1-based row (`c3`); row 1 is the bottom row.

Shared by the checker (which validates `cells:` labels) and the interpreter, so both
read labels the same way, including columns left of `a` and rows at or below 0.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any


def column_letters(x: int) -> str:
    """Column label: a..z, then aa, ab...; negative columns get a leading '-'."""
    if x < 0:
        return "-" + column_letters(-x - 1)
    out = ""
    x += 1
    while x:
        x, r = divmod(x - 1, 26)
        out = chr(97 + r) + out
    return out


@lru_cache(maxsize=1 << 16)  # menus label the same cells again and again
def cell_label(pos: Any) -> str:
    """A cell's label from its 0-based (x, y); graph nodes by name."""
    if isinstance(pos, tuple):
        x, y = pos
        return f"{column_letters(x)}{y + 1}"
    return str(pos)


def parse_cell_label(label: str) -> tuple[int, int] | None:
    """Inverse of cell_label for grid cells, or None if the text is not a cell label."""
    s = label.strip().lower()
    neg_x = s.startswith("-")
    if neg_x:
        s = s[1:]
    i = 0
    while i < len(s) and "a" <= s[i] <= "z":
        i += 1
    letters, digits = s[:i], s[i:]
    if not letters or not digits.lstrip("-").isdigit():
        return None
    x = 0
    for ch in letters:
        x = x * 26 + (ord(ch) - 96)
    x -= 1
    if neg_x:
        x = -x - 1
    return (x, int(digits) - 1)
