"""Paths the user gives and paths written inside files: resolved without surprises, compared as files.

Three rules, one place each:
- `real_path` resolves links as far as they go and never raises: a link loop stays in the path, and the
  reader that opens it says so (`bounded.open_regular`); `Path.resolve()` raised RuntimeError on a loop.
- `same_file` says whether two paths name one file (links and hard links included), and `refuse_overwrite`
  uses it so that a command never writes an output over one of its own inputs (`orrery play --resume F
  --log F` wrote the log over the save being resumed: the game was lost).
- `relative_to_file` resolves a path written inside a file (a scenario's `game:` and `variants:`, a
  variant's `base:`) against that file's folder, never against the current folder (docs/dsl.md 7.3).
"""

from __future__ import annotations

import os
from pathlib import Path


def real_path(path: str | Path) -> Path:
    """The absolute path with every link resolved that can be; a loop or a missing part is left as written."""
    return Path(os.path.realpath(path))


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name the same file: the same resolved path, or (both existing) the same inode."""
    if real_path(a) == real_path(b):
        return True
    try:
        sa, sb = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


Named = tuple[str, "str | Path"]  # (how the command names it, the path)


def refuse_overwrite(outputs: list[Named], inputs: list[Named], allowed: set[tuple[str, str]] = frozenset()) -> None:
    """InputError before anything is written when an output names the same file as an input or another output.

    `allowed` lists (output, input) pairs that are meant to be one file (a resumed save written again)."""
    from .errors import InputError, one_line

    for i, (out_name, out_path) in enumerate(outputs):
        others = [(n, p) for n, p in inputs if (out_name, n) not in allowed] + list(outputs[i + 1:])
        for in_name, in_path in others:
            if same_file(out_path, in_path):
                raise InputError(f"{out_name} {one_line(str(out_path))} is the same file as {in_name} "
                                 f"{one_line(str(in_path))}: writing it would replace that; choose another file")


def relative_to_file(written: str | Path, file: str | Path) -> Path:
    """A path written inside `file`, resolved against the folder of `file` (absolute paths stay as they are)."""
    p = Path(written)
    return p if p.is_absolute() else Path(file).parent / p


__all__ = ["real_path", "same_file", "refuse_overwrite", "relative_to_file"]
