"""Validated specs kept in the disk cache (diskcache.py), so that loading a spec seen before skips the YAML
reading, the rule-text parsing and the checks.

The key is made of everything a load depends on: the engine's source (through the cache folder), the path of
the spec and of each variant as given (spans name them), their bytes, the YAML limits and whether the checker
ran.  Only regular files are cached (a device or a pipe is read once, by the loader).  A spec that does not
load raises its findings as before and stores nothing.

An entry is a pickle of the `GameSpec`, read back by an unpickler that makes only the classes a spec is made
of (the AST, the spec models, spans, YAML nodes and marks) and refuses every other global, so an entry
cannot make the loader call anything else.  This module imports no parser, checker or YAML reader: a warm
load does not need them (`quickload.load_spec` is the loader's entry point through it that imports the
loader only on a miss).
"""

from __future__ import annotations

import io
import pickle
from pathlib import Path
from typing import Any, Callable

from . import diskcache
from .bounded import TooLarge, read_bounded
from .errors import remember_text

KIND = "spec"
# the modules whose classes a GameSpec is made of; anything else in an entry makes it a miss
_ALLOWED_MODULES = frozenset({
    "orrery.rulespec.ast", "orrery.rulespec.errors", "orrery.rulespec.gamespec", "orrery.rulespec.models",
    "orrery.rulespec.source", "orrery.rulespec.variants",
    "ruamel.yaml.nodes", "ruamel.yaml.error", "ruamel.yaml.tag", "ruamel.yaml.tokens",  # (comments ride on nodes)
})
_ALLOWED_BUILTINS = frozenset({"set", "frozenset", "slice", "complex"})


class _Refused(Exception):
    """An entry named a global a spec is not made of."""


class _SpecUnpickler(pickle.Unpickler):
    """Makes classes of the spec's own modules only (see the module doc)."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in _ALLOWED_BUILTINS:
            return super().find_class(module, name)
        if module in _ALLOWED_MODULES:
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise _Refused(f"{module}.{name}")


def _file_bytes(path: str | Path, limit: int) -> bytes | None:
    """The bytes of a regular file within the limit, else None (the loader reads it and says what is wrong)."""
    try:
        return read_bounded(path, limit)  # (NotAFile, an OSError, for anything but a regular file)
    except (OSError, TooLarge):
        return None


def _limits_key(limits: Any) -> str:
    """No limits means the default ones (source.load_yaml): keyed alike, so that a load through the API (none
    given) and one through the CLI (the defaults, given) share an entry."""
    try:
        default = limits is None or limits == type(limits)()
    except TypeError:  # (limits of a kind that has no defaults)
        default = False
    return "default limits" if default else repr(limits)


def spec_key(path: str | Path, variants: list[str | Path], limits: Any, check: bool) -> str | None:
    """The cache key of a load, or None when a file cannot take part in one."""
    limit = getattr(limits, "max_bytes", 5_000_000)
    parts: list[bytes | str] = ["spec", _limits_key(limits), "checked" if check else "unchecked"]
    for p in [path, *variants]:
        data = _file_bytes(p, limit)
        if data is None:
            return None
        parts += [str(p), data]
    return diskcache.key_of(*parts)


def load_cached(key: str | None) -> Any:
    """The GameSpec stored under `key`, or None."""
    if key is None:
        return None
    payload = diskcache.read(KIND, key)
    if payload is None:
        return None
    try:
        spec = _SpecUnpickler(io.BytesIO(payload)).load()
    except Exception:  # noqa: BLE001 - a foreign or damaged entry is a miss, whatever it raises
        return None
    from .gamespec import GameSpec

    if not isinstance(spec, GameSpec):
        return None
    merged = spec.merged
    for doc in [merged.base, *merged.variants]:
        remember_text(doc.path, doc.text)  # error snippets, as load_yaml does
    return spec


def store(key: str | None, spec: Any) -> None:
    """Keep a loaded GameSpec under `key` (nothing when it cannot be pickled or written)."""
    if key is None:
        return
    try:
        payload = pickle.dumps(spec, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - a spec that cannot be pickled is simply not cached
        return
    diskcache.write(KIND, key, payload)


def cached_load(path: str | Path, variants: list[str | Path], limits: Any, check: bool,
                build: Callable[[], Any]) -> Any:
    """The spec from the cache, else `build()`'s, stored for next time."""
    if diskcache.folder() is None:
        return build()
    key = spec_key(path, list(variants), limits, check)
    spec = load_cached(key)
    if spec is None:
        spec = build()
        store(key, spec)
    return spec





__all__ = ["cached_load", "spec_key", "load_cached", "store"]
