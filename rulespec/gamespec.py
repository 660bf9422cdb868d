"""`GameSpec`: a validated spec, the model plus the AST of every condition and effect.

Its own module so that the loader (which builds it) and the checker (which reads it)
both import it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from . import ast as A
from .errors import Finding, Span
from .models import Spec

if TYPE_CHECKING:  # (a spec read back from the disk cache needs no YAML reader until `merged` is read)
    from .variants import Merged


@dataclass
class GameSpec:
    """A validated spec: the pydantic model plus the AST of every condition and effect."""

    model: Spec
    merged: Merged
    path: str
    digest: str
    variants: list[str]
    exprs: dict[tuple, A.Expr] = field(default_factory=dict)
    effects: dict[tuple, A.Block] = field(default_factory=dict)
    warnings: list[Finding] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The game's identifier."""
        return self.model.game.name

    def expr(self, *path: Any) -> A.Expr | None:
        """The parsed expression stored at a data path, or None."""
        return self.exprs.get(tuple(path))

    def effect(self, *path: Any) -> A.Block | None:
        """The parsed effect stored at a data path, or None."""
        return self.effects.get(tuple(path))

    def span(self, *path: Any) -> Span:
        """Where a value of the spec is written (base or variant file)."""
        known = self.__dict__.get("_spans")
        if known is not None and path in known:
            return known[path]
        return self.merged.span(tuple(path))

    def defer_merged(self, load: Callable[[], Merged], spans: dict[tuple, Span]) -> None:
        """`merged` made by `load()` when first read: a spec read back from the disk cache (speccache.py) leaves
        its YAML documents (four fifths of an entry, read only to locate a message) packed until then; `spans`
        (merged.span of every mapping and list: a declaration, as the rules read them) are known without them."""
        self.__dict__.pop("merged", None)
        self.__dict__["_load_merged"] = load
        self.__dict__["_spans"] = spans

    def __getattr__(self, name: str) -> Any:
        # (called only for an attribute the instance lacks: `merged` after defer_merged)
        load = self.__dict__.pop("_load_merged", None) if name == "merged" else None
        if load is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.merged = merged = load()
        return merged

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        if "_load_merged" in state:  # (pickled, copied: with its documents)
            del state["_load_merged"]
            state["merged"] = self.merged
        state.pop("_spans", None)
        return state
