"""`GameSpec`: a validated spec, the model plus the AST of every condition and effect.

Its own module so that the loader (which builds it) and the checker (which reads it)
both import it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import ast as A
from .errors import Finding, Span
from .models import Spec
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
        return self.merged.span(tuple(path))
