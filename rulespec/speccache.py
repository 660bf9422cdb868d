"""Validated specs kept in the disk cache (diskcache.py), so that loading a spec seen before skips the YAML
reading, the rule-text parsing and the checks.

The key is made of everything a load depends on: the engine's source (through the cache folder), the path of
the spec and of each variant as given (spans name them), their bytes, the YAML limits and whether the checker
ran.  Only regular files are cached (a device or a pipe is read once, by the loader).  A spec that does not
load raises its findings as before and stores nothing.

An entry is a pickle of the `GameSpec`, read back by an unpickler that makes only the classes a spec is made
of (the AST, the spec models, spans, YAML nodes and marks) and refuses every other global, so an entry
cannot make the loader call anything else.  The spec's `merged` (the YAML documents and where each merged value
comes from: about four fifths of an entry, read only to locate a message) is pickled apart inside the entry and
unpickled, by the same unpickler, when first read (`GameSpec.defer_merged`): a warm start reads the rest.  This module imports no parser, checker or YAML reader: a warm
load does not need them (`quickload.load_spec` is the loader's entry point through it that imports the
loader only on a miss).
"""

from __future__ import annotations

import copy
import io
import pickle
from pathlib import Path
from typing import Any, Callable, Iterator

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


def load_cached(key: str | None, reload: Callable[[], Any] | None = None) -> Any:
    """The GameSpec stored under `key`, or None.  Its `merged` (the YAML documents) is unpickled when first read;
    should that part of the entry not read back, it is taken from `reload()` (a load of the files)."""
    if key is None:
        return None
    payload = diskcache.read(KIND, key)
    if payload is None:
        return None
    try:
        entry = _SpecUnpickler(io.BytesIO(payload)).load()
    except Exception:  # noqa: BLE001 - a foreign or damaged entry is a miss, whatever it raises
        return None
    from .gamespec import GameSpec

    if not (type(entry) is tuple and len(entry) == 4 and isinstance(entry[0], GameSpec)
            and type(entry[1]) is bytes and type(entry[2]) is list and type(entry[3]) is dict):
        return None
    spec, packed, texts, spans = entry
    for path, text in texts:
        remember_text(path, text)  # error snippets, as load_yaml does
    spec.defer_merged(lambda: _unpack_merged(packed, reload), spans)
    return spec


def _containers(value: Any, path: tuple) -> Iterator[tuple]:
    """The path of every mapping and list inside `value` (the spec's declarations and their parts)."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, sub in items:
        if isinstance(sub, (dict, list)):
            yield path + (key,)
            yield from _containers(sub, path + (key,))


def _unpack_merged(packed: bytes, reload: Callable[[], Any] | None) -> Any:
    from .variants import Merged

    try:
        merged = _SpecUnpickler(io.BytesIO(packed)).load()
    except Exception:  # noqa: BLE001 - (the entry's checksum held: only a planted entry gets here)
        merged = None
    if not isinstance(merged, Merged):
        if reload is None:
            raise RuntimeError("a cached spec's YAML documents cannot be read back")
        merged = reload().merged
    return merged


def store(key: str | None, spec: Any) -> None:
    """Keep a loaded GameSpec under `key` (nothing when it cannot be pickled or written): the spec without its
    YAML documents, those packed apart (read back when a message needs a place), and the files' texts."""
    if key is None:
        return
    try:
        merged = spec.merged
        head = copy.copy(spec)
        del head.__dict__["merged"]
        texts = [(doc.path, doc.text) for doc in [merged.base, *merged.variants]]
        packed = pickle.dumps(merged, protocol=pickle.HIGHEST_PROTOCOL)
        spans = {path: merged.span(path) for path in _containers(merged.data, ())}
        payload = pickle.dumps((head, packed, texts, spans), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - a spec that cannot be pickled is simply not cached
        return
    diskcache.write(KIND, key, payload)


def cached_load(path: str | Path, variants: list[str | Path], limits: Any, check: bool,
                build: Callable[[], Any]) -> Any:
    """The spec from the cache, else `build()`'s, stored for next time.  An unchecked load may be served by a
    checked entry of the same files: the checker only adds findings (it changes nothing in the spec), so that
    spec is the same, its warnings the checker's too."""
    if diskcache.folder() is None:
        return build()
    key = spec_key(path, list(variants), limits, check)
    spec = load_cached(key, build)
    if spec is None and not check:
        spec = load_cached(spec_key(path, list(variants), limits, True), build)
    if spec is None:
        spec = build()
        store(key, spec)
    return spec


__all__ = ["cached_load", "spec_key", "load_cached", "store"]
