"""A progress bar on stderr for commands that play many games (rich), only when stderr is a terminal."""

from __future__ import annotations

import os
import sys
from typing import Any, Callable


class _NoProgress:
    def __enter__(self) -> Callable[[int], None] | None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


class _RichProgress:
    """A progress bar on stderr (rich), only when stderr is a terminal."""

    def __init__(self, total: int):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        self.progress = Progress("games", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                                 console=Console(stderr=True), transient=True)
        self.task = self.progress.add_task("games", total=total)

    def __enter__(self) -> Callable[[int], None]:
        self.progress.__enter__()
        return lambda done: self.progress.update(self.task, completed=done)

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(*exc)


def progress(total: int, quiet: bool = False) -> Any:
    """A context manager giving a `tick(done)` callback (None when no bar is shown: quiet, CI, not a terminal)."""
    if quiet or not sys.stderr.isatty() or os.environ.get("CI"):
        return _NoProgress()
    return _RichProgress(total)
