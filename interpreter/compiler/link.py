"""The one place where generated source becomes running code (docs/security.md §2.7).

Both generators (codegen.py for expressions and effects, flowgen.py for the flow) hand their source
here with the namespace it may use: the code object is compiled once per distinct source (cached by
its hash, a bounded cache) and run in that namespace, whose `__builtins__` the caller chooses (never
Python's whole set).  Constants `K<n>` (and `N<n>`, AST nodes) are bound by the caller too.
"""

from __future__ import annotations

import hashlib
from typing import Any

_CODE_CACHE: dict[str, Any] = {}  # source hash -> code object (one `compile()` per distinct source)
_CACHE_LIMIT = 128


def link(source: str, tag: str, namespace: dict[str, Any]) -> dict[str, Any]:
    """Compile `source` (cached by its hash; `tag` names it in tracebacks: `<orrery-TAG hash>`) and run it
    in `namespace`, which must hold `__builtins__`; returns the namespace with the generated names."""
    if "__builtins__" not in namespace:
        raise ValueError("generated code runs with the builtins its caller allows: pass __builtins__")
    key = hashlib.sha256(source.encode()).hexdigest()
    code = _CODE_CACHE.get(key)
    if code is None:
        code = compile(source, f"<orrery-{tag} {key[:12]}>", "exec")
        if len(_CODE_CACHE) >= _CACHE_LIMIT:
            _CODE_CACHE.pop(next(iter(_CODE_CACHE)))
        _CODE_CACHE[key] = code
    exec(code, namespace)  # noqa: S102 - source generated from the validated AST only (codegen, flowgen)
    return namespace


__all__ = ["link"]
