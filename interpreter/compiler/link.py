"""The one place where generated source becomes running code (docs/security.md §2.7).

Both generators (codegen.py for expressions and effects, flowgen.py for the flow) hand their source
here with the namespace it may use: the code object is compiled once per distinct source (cached by
its hash, a bounded cache, and on disk as `__pycache__` keeps modules: rulespec/diskcache.py, whose folder
belongs to this engine's source, so code compiled by other code is never run) and run in that namespace,
whose `__builtins__` the caller chooses (never Python's whole set).  Constants `K<n>` (and `N<n>`, AST
nodes) are bound by the caller too.
"""

from __future__ import annotations

import hashlib
import marshal
from types import CodeType
from typing import Any

from orrery.rulespec import diskcache

_CODE_CACHE: dict[str, Any] = {}  # source hash -> code object (one `compile()` per distinct source)
_CACHE_LIMIT = 128
_DISK_FROM = 4096  # sources at least this long are kept in the disk cache too


def link(source: str, tag: str, namespace: dict[str, Any]) -> dict[str, Any]:
    """Compile `source` (cached by its hash; `tag` names it in tracebacks: `<orrery-TAG hash>`) and run it
    in `namespace`, which must hold `__builtins__`; returns the namespace with the generated names."""
    if "__builtins__" not in namespace:
        raise ValueError("generated code runs with the builtins its caller allows: pass __builtins__")
    key = hashlib.sha256(source.encode()).hexdigest()
    code = _CODE_CACHE.get(key)
    if code is None:
        on_disk = len(source) >= _DISK_FROM  # (a small source compiles faster than a file is read)
        code = _from_disk(key, tag) if on_disk else None
        if code is None:
            code = compile(source, f"<orrery-{tag} {key[:12]}>", "exec")
            if on_disk:
                diskcache.write("code", diskcache.key_of("code", tag, key), marshal.dumps(code))
        if len(_CODE_CACHE) >= _CACHE_LIMIT:
            _CODE_CACHE.pop(next(iter(_CODE_CACHE)))
        _CODE_CACHE[key] = code
    exec(code, namespace)  # noqa: S102 - source generated from the validated AST only (codegen, flowgen)
    return namespace


def _from_disk(key: str, tag: str) -> Any:
    """The code object compiled earlier from the source of this hash, or None (no entry, or a damaged one)."""
    payload = diskcache.read("code", diskcache.key_of("code", tag, key))
    if payload is None:
        return None
    try:
        code = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(code, CodeType) or code.co_filename != f"<orrery-{tag} {key[:12]}>":
        return None
    return code


__all__ = ["link"]
