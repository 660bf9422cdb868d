"""Writes that never leave a torn or half-replaced file: a temporary file beside the target, fsync, rename.

Saves, logs and any report Orrery writes go through here.  If anything fails
(disk full, permission denied, a directory in the way, the folder removed),
the previous file is exactly as it was and the temporary file is removed; the
caller turns the OSError into a plain message.  A target that exists and is not
a regular file (`/dev/null`, `/dev/stdout`, a FIFO) is written in place and
never replaced: renaming over a device would destroy it (Orrery may run as root).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import IO


def _special(path: Path) -> bool:
    """True when `path` exists and is neither a regular file nor a directory (a device, a FIFO, a socket).

    A link loop is an OSError here: renaming over it would replace the link, which the user meant as a file."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(errno.ELOOP, "is a symbolic link loop: it never reaches a file",
                          str(path)) from None
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _open_in_place(path: Path) -> IO[str]:
    """Open a device or a named pipe for writing without waiting: a pipe nobody reads is an OSError now, where
    a plain `open` would wait for a reader for ever."""
    try:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "is a named pipe that nobody reads", str(path)) from None
        raise
    if getattr(os, "O_NONBLOCK", 0):  # (no such flag, nor set_blocking, on Windows)
        os.set_blocking(fd, True)
    return os.fdopen(fd, "w", encoding="utf-8")


class AtomicFile:
    """A text file written in full before it replaces `path` (commit), or not at all (discard)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.tmp: str | None = None
        if self.path.is_dir():
            raise IsADirectoryError(21, "Is a directory", str(path))
        if _special(self.path):
            self.fp: IO[str] = _open_in_place(self.path)
            return
        folder = self.path.parent if str(self.path.parent) else Path(".")
        fd, self.tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=folder)
        self.fp = os.fdopen(fd, "w", encoding="utf-8")

    def write(self, text: str) -> None:
        """Append text and flush it (a failure raises OSError now, not at close)."""
        self.fp.write(text)
        self.fp.flush()

    def commit(self) -> None:
        """fsync, then rename over the target (keeping its permissions); OSError leaves the target as it was."""
        try:
            self.fp.flush()
            if self.tmp is not None:
                os.fsync(self.fp.fileno())
            self.fp.close()
            if self.tmp is None:
                return
            try:
                mode = os.stat(self.path).st_mode & 0o777
            except OSError:
                mode = 0o644
            os.chmod(self.tmp, mode)
            os.replace(self.tmp, self.path)
            self.tmp = None
        except BaseException:
            self.discard()
            raise
        _fsync_dir(self.path.parent if str(self.path.parent) else Path("."))

    def discard(self) -> None:
        """Close and remove the temporary file, never raising (the target is untouched)."""
        try:
            self.fp.close()
        except OSError:
            pass
        if self.tmp is not None:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = None


def write_atomic(path: str | Path, data: str) -> None:
    """Replace `path` with `data` atomically (see AtomicFile); OSError if it cannot be done."""
    out = AtomicFile(path)
    try:
        out.write(data)
    except BaseException:
        out.discard()
        raise
    out.commit()


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX); harmless where folders cannot be opened."""
    try:
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


__all__ = ["AtomicFile", "write_atomic"]
