"""Reads that are bounded before they happen, and line/column mapping in linear time.

Every file Orrery reads comes from someone else (specs, variants, scenarios,
saves, logs), and a path can name a device that never ends (`/dev/zero`), a
sparse file of gigabytes, or a file that grows while it is read.  So a size is
checked with `fstat` before reading and enforced again while reading, in chunks:
nothing larger than the limit is ever held in memory.  Error snippets read only
the line they show.  `LineIndex` turns offsets into (line, column) with one
pass over the text and a binary search per lookup (counting newlines from the
start for every value made loading quadratic).
"""

from __future__ import annotations

import bisect
import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterator

_CHUNK = 1 << 20


@dataclass(frozen=True)
class YamlLimits:
    """Resource limits for reading one YAML file (here, not in source.py: the command line reads them without
    importing the YAML reader; source.YamlLimits is this class)."""

    max_bytes: int = 5_000_000
    max_nodes: int = 1_000_000  # after alias expansion
    max_depth: int = 100


class TooLarge(Exception):
    """A file is larger than the limit it is read with; `limit` is that limit in bytes."""

    def __init__(self, limit: int):
        super().__init__(f"larger than {size_text(limit)}")
        self.limit = limit


def size_text(limit: int) -> str:
    """A limit in bytes as people say it: `5 MB`, `300 KB` or `12 bytes`."""
    for unit, n in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if limit >= n and limit % (n // 10) == 0:
            value = limit / n
            return f"{value:g} {unit}"
    return f"{limit} bytes"


class NotAFile(OSError):
    """A path that names something other than a regular file, or a link loop: refused before anything is read.

    `str(exc)` and `exc.strerror` are the plain reason ("is a named pipe, not a regular file")."""

    def __init__(self, reason: str, path: str | Path = ""):
        super().__init__(errno.EINVAL, reason)
        self.path = str(path)

    def __str__(self) -> str:
        return self.strerror or "not a regular file"


_KINDS = ((stat.S_ISDIR, "is a directory, not a file"), (stat.S_ISFIFO, "is a named pipe, not a regular file"),
          (stat.S_ISCHR, "is a character device, not a regular file"),
          (stat.S_ISBLK, "is a block device, not a regular file"), (stat.S_ISSOCK, "is a socket, not a regular file"))
_LOOP = "is a symbolic link loop: it never reaches a file"


def regular_stat(path: str | Path) -> os.stat_result:
    """`os.stat` of a path that must be a regular file: NotAFile for a pipe, device, socket, directory or link
    loop; FileNotFoundError (and other OSErrors) as raised."""
    try:
        st = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotAFile(_LOOP, path) from None
        raise
    _require_regular(st, path)
    return st


def _require_regular(st: os.stat_result, path: str | Path) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise NotAFile(next((text for test, text in _KINDS if test(st.st_mode)), "is not a regular file"), path)


_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


def open_regular(path: str | Path) -> BinaryIO:
    """Open a file for reading, only if it is a regular file: the one function every reader of the user's files
    uses (specs, variants, scenarios, saves, logs, error snippets, cached specs).

    A named pipe would make `open` wait for a writer for ever, and a device never ends, so the path is checked
    with `stat` (links followed, a loop reported) before it is opened, then opened without blocking and checked
    again on the open descriptor (the file read is the file checked).  NotAFile says what the path is instead.
    """
    regular_stat(path)
    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotAFile(_LOOP, path) from None
        if exc.errno == errno.ENXIO:  # (a socket, or a device with no driver)
            raise NotAFile("is not a regular file", path) from None
        raise
    try:
        _require_regular(os.fstat(fd), path)
        if _FLAGS & getattr(os, "O_NONBLOCK", 0):  # (no such flag, nor set_blocking, on Windows)
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file; TooLarge past `limit` bytes (checked before and while reading); NotAFile
    for anything else (open_regular); OSError as raised."""
    with open_regular(path) as fh:
        return read_stream(fh, limit)


def read_stream(fh: BinaryIO, limit: int) -> bytes:
    """Read an open binary file to its end, refusing (TooLarge) more than `limit` bytes, in bounded memory."""
    check_size(fh, limit)
    chunks: list[bytes] = []
    total = 0
    while True:  # a device or a growing file can slip past fstat: count what is read
        chunk = fh.read(min(_CHUNK, limit + 1 - total))
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > limit:
            raise TooLarge(limit)
        chunks.append(chunk)


def check_size(fh: BinaryIO, limit: int) -> None:
    """TooLarge if an open file is a regular file of more than `limit` bytes (the fstat half of the check)."""
    st = os.fstat(fh.fileno())
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(21, "Is a directory")
    if stat.S_ISREG(st.st_mode) and st.st_size > limit:
        raise TooLarge(limit)


def iter_lines(fh: BinaryIO, limit: int, line_limit: int) -> Iterator[tuple[int, bytes]]:
    """(1-based number, bytes without the newline) of each line of an open file, streamed.

    TooLarge when the file passes `limit` bytes in all, or one line passes `line_limit` (then the
    exception's `line` attribute is that line's number).
    """
    check_size(fh, limit)
    total = 0
    number = 0
    while True:
        line = fh.readline(line_limit + 1)
        if not line:
            return
        number += 1
        total += len(line)
        if total > limit:
            raise TooLarge(limit)
        if len(line) > line_limit and not line.endswith(b"\n"):
            exc = TooLarge(line_limit)
            exc.line = number  # type: ignore[attr-defined]
            raise exc
        yield number, line.rstrip(b"\r\n")


_SCAN_LIMIT = 64_000_000  # a snippet gives up rather than read further into a file
_LINE_LIMIT = 1_000_000  # the part of one line a snippet may read (it shows a window of it)


def read_line(path: str | Path, number: int) -> str | None:
    """Line `number` (1-based) of a file as text, reading only up to it and at most a bounded amount; None
    when it cannot be read (missing, not UTF-8, past the bounds)."""
    if number < 1:
        return None
    try:
        with open_regular(path) as fh:  # (a snippet of a named pipe would wait for ever)
            return _nth_line(fh, number)
    except (OSError, ValueError):
        return None


def _nth_line(fh: BinaryIO, number: int) -> str | None:
    read = 0
    current = 1
    while read <= _SCAN_LIMIT:
        part = fh.readline(_LINE_LIMIT)
        if not part:
            return None
        read += len(part)
        if current == number:
            return part.rstrip(b"\r\n").decode("utf-8", "replace")
        while not part.endswith(b"\n"):  # the rest of an overlong line, skipped in bounded pieces
            part = fh.readline(_LINE_LIMIT)
            read += len(part)
            if not part or read > _SCAN_LIMIT:
                return None
        current += 1
    return None


class LineIndex:
    """Offsets of the starts of a text's lines: (line, column) of any offset by binary search."""

    __slots__ = ("starts",)

    def __init__(self, text: str, newline: str = "\n"):
        starts = [0]
        find = text.find
        i = find(newline)
        while i >= 0:  # str.find runs in C: one pass over the text
            starts.append(i + len(newline))
            i = find(newline, i + len(newline))
        self.starts = starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1


__all__ = ["YamlLimits", "TooLarge", "NotAFile", "regular_stat", "open_regular", "size_text", "read_bounded", "read_stream", "check_size", "iter_lines", "read_line",
           "LineIndex"]
