"""`load_spec` through the disk cache, for start-up: the loader (YAML reading, the rule-text parser, the
checker) is imported only when the spec is not in the cache (speccache.py).  The engine and the CLI load
games through it; `loader.load_spec` gives the same specs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .speccache import cached_load


def load_spec(path: str | Path, variants: list[str | Path] = (), *, limits: Any = None, check: bool = True) -> Any:
    """`loader.load_spec`: a spec loaded before with the same files, limits and checks comes back from the disk
    cache; else it is loaded (raising its findings as ever) and stored."""
    def build() -> Any:
        from .loader import load_spec_uncached

        return load_spec_uncached(path, list(variants), limits=limits, check=check)

    return cached_load(path, list(variants), limits, check, build)


__all__ = ["load_spec"]
