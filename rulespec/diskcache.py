"""A disk cache for work that start-up would otherwise redo on every run: validated specs, compiled code.

Like `__pycache__`: safe to delete at any time, never trusted across code changes.  An entry lives in
`<cache>/<engine digest>-<python tag>/` where the engine digest hashes the source of the engine itself
(rulespec/, interpreter/, grammar/), so a cache made by other code (another checkout, an older install,
all of them version 0.1.0) is never read; the entry's own key (what it was made from) is written in its
header, so a file of another key under the same name is ignored, and a checksum of the payload catches a
torn or corrupted file.  Anything wrong with an entry makes it a miss: the work is done again and the entry
rewritten.  Entries are written whole or not at all (a temporary file renamed over the old one).

`ORRERY_CACHE_DIR` chooses the folder (`off` turns the cache off); else `$XDG_CACHE_HOME/orrery`, else
`~/.cache/orrery`.  The test suite points it at a temporary folder of its own (tests/conftest.py).
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

from .bounded import open_regular

FORMAT = b"orrery-cache/1"
_ENGINE_PARTS = ("rulespec", "interpreter", "grammar")  # beside each other, installed or in a checkout
_SOURCE_SUFFIXES = (".py", ".lark")
_engine_digest: str | None = None


def cache_root() -> Path | None:
    """The cache's base folder, or None when the cache is off (`ORRERY_CACHE_DIR=off`)."""
    chosen = os.environ.get("ORRERY_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "0", "no") else Path(chosen)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "orrery"


def engine_digest() -> str:
    """A hash of the engine's own source files (their paths inside the package and their bytes), once a process."""
    global _engine_digest
    if _engine_digest is None:
        top = Path(__file__).resolve().parents[1]
        files: list[tuple[str, str]] = []
        for part in _ENGINE_PARTS:
            _sources(top / part, part, files)
        h = hashlib.sha256()
        for rel, path in sorted(files):
            with open(path, "rb") as f:
                data = f.read()
            h.update(rel.encode())
            h.update(len(data).to_bytes(8, "little"))
            h.update(data)
        _engine_digest = h.hexdigest()
    return _engine_digest


def _sources(folder: Path, rel: str, out: list[tuple[str, str]]) -> None:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for e in entries:
        if e.is_dir():
            if e.name != "__pycache__":
                _sources(Path(e.path), f"{rel}/{e.name}", out)
        elif e.name.endswith(_SOURCE_SUFFIXES):
            out.append((f"{rel}/{e.name}", e.path))


def folder() -> Path | None:
    """This engine's folder inside the cache (not created here), or None when the cache is off."""
    root = cache_root()
    if root is None:
        return None
    return root / f"{engine_digest()[:20]}-{sys.implementation.cache_tag}"


def key_of(*parts: bytes | str) -> str:
    """A key (hex) for an entry made from these parts, in order."""
    h = hashlib.sha256()
    for p in parts:
        b = p.encode() if isinstance(p, str) else p
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def _path(kind: str, key: str) -> Path | None:
    base = folder()
    return None if base is None else base / f"{kind}-{key[:32]}"


def read(kind: str, key: str) -> bytes | None:
    """The payload stored for (kind, key), or None: missing, made for another key, torn or corrupted."""
    path = _path(kind, key)
    if path is None:
        return None
    try:
        with open_regular(path) as f:  # (a pipe or a device planted in the cache folder is no entry)
            blob = f.read()
    except OSError:
        return None
    head, sep, payload = blob.partition(b"\n\n")
    fields = head.split(b"\n")
    if not sep or len(fields) != 4 or fields[0] != FORMAT or fields[1] != kind.encode() or fields[2] != key.encode():
        return None
    if fields[3] != hashlib.sha256(payload).hexdigest().encode():
        return None
    return payload


def write(kind: str, key: str, payload: bytes) -> bool:
    """Store a payload for (kind, key), replacing any entry of that name at once; False when it could not be
    written (a read-only or full disk only costs the next run the work again)."""
    path = _path(kind, key)
    if path is None:
        return False
    head = b"\n".join([FORMAT, kind.encode(), key.encode(), hashlib.sha256(payload).hexdigest().encode()])
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(head + b"\n\n" + payload)
        os.replace(tmp, path)
        return True
    except OSError:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return False


__all__ = ["cache_root", "engine_digest", "folder", "key_of", "read", "write"]
