"""Decisions (menus a player answers) and the exceptions the engine uses for control flow."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from orrery.rulespec.errors import Finding, LimitError, OrreryError, Span


class Option:
    """One answer to a decision: a label people type and the value the rules see.

    A small slotted class, not a frozen dataclass: every menu makes one per value, and a frozen dataclass's
    `__init__` (one `object.__setattr__` per field) was a visible share of a step in profiles.  The label
    may be given as a function of the value, called the first time somebody reads it: only for values
    whose label cannot change with the state (texts, numbers, cells, players...), because a bot reads one
    label per menu (the answer's, for the history) and building every label was a sixth of a step.
    """

    __slots__ = ("_label", "value", "index", "_labeller")

    def __init__(self, label: str | None, value: Any, index: int,
                 labeller: Callable[[Any], str] | None = None) -> None:
        self._label = label
        self.value = value
        self.index = index  # position in the raw option list (what logs record)
        self._labeller = labeller

    @property
    def label(self) -> str:
        """The option's name in menus and logs."""
        lab = self._label
        if lab is None:
            lab = self._label = self._labeller(self.value)  # type: ignore[misc]
            self._labeller = None
        return lab

    def _key(self) -> tuple:
        return (self.label, self.value, self.index)

    def __iter__(self) -> Iterator[Any]:  # unpacks as (label, value, index), as the named tuple it was
        return iter(self._key())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Option) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Option(label={self.label!r}, value={self.value!r}, index={self.index!r})"


@dataclass
class Decision:
    """A question the engine asks one player: pick one of `options`."""

    player: int
    prompt: str
    options: list[Option]
    kind: str  # "action" (a step menu), "choose" (inside an effect) or "window" (a reaction window's menu)
    span: Span | None = None
    var: str | None = None
    reasons: dict[int, str] = field(default_factory=dict)  # raw index -> why that option is not offered
    action: str | None = None  # the action chosen at the step menu, while it runs (also during a `perform`)
    rejected: list[tuple[Any, str]] = field(default_factory=list)  # domain values filtered out, with why
    site: Any = None  # where it is asked: a choose's AST node id, or (action, parameter index); see engine/fallible
    sealed: bool = False  # a `commit`'s question: the answer stays hidden from the others until the reveal
    must_ask: bool = False  # asked even with one option (a window with `ask: always`: being asked tells nothing)
    # option index -> a short text shown after its label (an action's price), or a function making it when first
    # read; None: no option has one (most menus)
    notes: Any = None

    def note(self, index: int) -> str | None:
        """The note of the option with this index (its price...), or None."""
        notes = self.notes
        if not notes:
            return None
        n = notes.get(index)
        if n is not None and n.__class__ is not str:
            n = notes[index] = n()
        return n

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


def untold(error: OrreryError) -> str:
    """The narration line that stands for a `say` whose text could not be built: where and why.

    Narration is built only when someone reads it (dsl.md 4.21), so building it may not change the game:
    an error while building one line is told in that line, and the game goes on."""
    f = error.findings[0] if error.findings else None
    where = f"{f.span}: " if f is not None and f.span else ""
    return f"(narration failed: {where}{f.message if f is not None else error})"
