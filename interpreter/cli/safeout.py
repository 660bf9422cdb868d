"""Everything the `orrery` command prints goes through one escaping function (issue 39.3).

Spec texts, seat names, labels, narration and messages that quote input are data: a control character in
them (ESC clears screens and retitles windows, a right-to-left override reorders a line) is written as an
escape by `rulespec.errors.printable`, never sent to the terminal.  Rather than trusting every `print` of
every command to remember it (`simulate`'s summary forgot), `main` runs each command with `sys.stdout` and
`sys.stderr` wrapped in `SafeStream`, which passes every write through `printable`.  Rich consoles
(`render.SafeConsole`; the progress bar shows no input) escape their text segments themselves and write their
own colours and cursor controls to the stream underneath (rich unwraps it by `rich_proxied_file`).
"""

from __future__ import annotations

import io
import sys
from contextlib import contextmanager
from typing import Any, Iterator, TextIO

from orrery.rulespec.errors import printable


class SafeStream(io.TextIOBase):
    """A text stream that writes through `printable` to the stream it wraps (tab and newline pass)."""

    def __init__(self, raw: TextIO):
        self.raw_stream = raw

    def write(self, text: str) -> int:  # type: ignore[override]
        """Write `text` with its control characters escaped; the length of `text` (as a stream's write says)."""
        self.raw_stream.write(printable(text))
        return len(text)

    def flush(self) -> None:
        """Flush the stream underneath."""
        self.raw_stream.flush()

    def isatty(self) -> bool:
        """Whether the stream underneath is a terminal (rich and the table ask)."""
        return self.raw_stream.isatty()

    def fileno(self) -> int:
        """The descriptor underneath (terminal size, raw reads)."""
        return self.raw_stream.fileno()

    def writable(self) -> bool:
        """A SafeStream is for writing."""
        return True

    @property
    def rich_proxied_file(self) -> TextIO:
        """What rich's consoles write to (rich unwraps streams by this name): the stream underneath."""
        return self.raw_stream

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The encoding underneath."""
        return getattr(self.raw_stream, "encoding", None) or "utf-8"


def raw(stream: Any) -> Any:
    """The stream a SafeStream wraps (for a writer that escapes its own text and adds its own controls)."""
    return getattr(stream, "raw_stream", stream)


@contextmanager
def escaped_output() -> Iterator[None]:
    """Run a command with stdout and stderr escaping every control character written to them."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(raw(out)), SafeStream(raw(err))
    try:
        yield
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            sys.stdout, sys.stderr = out, err


__all__ = ["SafeStream", "raw", "escaped_output"]
