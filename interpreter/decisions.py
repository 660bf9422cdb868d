"""Decisions (menus a player answers) and the exceptions the interpreter uses for control flow."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from orrery.rulespec.errors import Finding, LimitError, OrreryError, Span


class Option(NamedTuple):
    """One answer to a decision: a label people type and the value the rules see.

    A named tuple, not a frozen dataclass: every menu makes one per value, and a frozen dataclass's
    `__init__` (one `object.__setattr__` per field) was a visible share of a step in profiles."""

    label: str
    value: Any
    index: int  # position in the raw option list (what logs record)


@dataclass
class Decision:
    """A question the engine asks one player: pick one of `options`."""

    player: int
    prompt: str
    options: list[Option]
    kind: str  # "action" (a step menu) or "choose" (inside an effect)
    span: Span | None = None
    var: str | None = None
    reasons: dict[int, str] = field(default_factory=dict)  # raw index -> why that option is not offered
    action: str | None = None  # the action chosen at the step menu, while it runs (also during a `perform`)
    rejected: list[tuple[Any, str]] = field(default_factory=list)  # domain values filtered out, with why

    def find(self, text: str) -> Option | None:
        """The offered option whose label (case-insensitive) or 1-based number is `text`."""
        t = text.strip().lower()
        for opt in self.options:  # labels first: an option may be labelled "3"
            if opt.label.lower() == t:
                return opt
        if t.isdigit():
            i = int(t)
            if 1 <= i <= len(self.options):
                return self.options[i - 1]
        return None


class Suspend(Exception):
    """Raised when an effect needs an answer that has not been given yet."""

    def __init__(self, decision: Decision):
        super().__init__(decision.prompt)
        self.decision = decision


class RequireFailed(Exception):
    """A rule forbids this move: carries the reason and where the rule is written."""

    def __init__(self, message: str, span: Span | None = None, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.rule = rule

    def explain(self) -> str:
        """The reason, the rule's location and its rulebook passage."""
        out = self.message
        if self.span:
            out += f" ({self.span})"
        if self.rule:
            out += f"\n  rule: {self.rule}"
        return out


class GameEnded(Exception):
    """Raised by `end_game NAME` or an end condition to stop the flow."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class RuleError(OrreryError):
    """A spec did something impossible at run time (wrong type, unknown attribute...)."""

    def __init__(self, message: str, span: Span | None):
        super().__init__(Finding(span, message))


class RunawayError(LimitError):
    """A limit on loops, cascades, events or flow was exceeded."""

    def __init__(self, message: str, span: Span | None):
        super().__init__(Finding(span, message))


class BadAnswer(OrreryError):
    """An answer index that is not one of the decision's options (a corrupt log or save)."""
