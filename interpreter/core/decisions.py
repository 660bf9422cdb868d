"""Decisions (menus a player answers) and the exceptions the engine uses for control flow."""

from __future__ import annotations

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


class Decision:
    """A question the engine asks one player: pick one of `options`.

    The reasons of the options not offered (`reasons`, and `rejected` as (label or value, reason) pairs) may
    be given as refusals (RequireFailed or Refusal) instead of texts: they are written out (`explain()`) the
    first time somebody reads either, so a menu whose refusals nobody reads (a random playout's, a bot's)
    builds no text for them.  A refusal holds its words when made, so the texts do not depend on when they
    are read.
    """

    __slots__ = ("player", "prompt", "options", "kind", "span", "var", "_reasons", "action", "_rejected", "site",
                 "sealed", "must_ask", "notes", "_told")

    def __init__(self, player: int, prompt: str, options: list[Option], kind: str, span: Span | None = None,
                 var: str | None = None, reasons: dict[int, Any] | None = None, action: str | None = None,
                 rejected: list[tuple[Any, Any]] | None = None, site: Any = None, sealed: bool = False,
                 must_ask: bool = False, notes: Any = None) -> None:
        self.player = player
        self.prompt = prompt
        self.options = options
        self.kind = kind  # "action" (a step menu), "choose" (inside an effect) or "window" (a reaction window's menu)
        self.span = span
        self.var = var
        self._reasons = {} if reasons is None else reasons  # raw index -> why that option is not offered
        self.action = action  # the action chosen at the step menu, while it runs (also during a `perform`)
        self._rejected = [] if rejected is None else rejected  # domain values filtered out, with why
        self.site = site  # where it is asked: a choose's AST node id, or (action, parameter index); engine/fallible
        self.sealed = sealed  # a `commit`'s question: the answer stays hidden from the others until the reveal
        self.must_ask = must_ask  # asked even with one option (a window with `ask: always`: being asked tells nothing)
        # option index -> a short text shown after its label (an action's price), or a function making it when first
        # read; None: no option has one (most menus)
        self.notes = notes
        self._told = not self._reasons and not self._rejected  # (True: every reason is a text already)

    def _tell(self) -> None:
        """Write out the refusals given as objects (once)."""
        reasons = self._reasons
        for k, why in reasons.items():
            if why.__class__ is not str:
                reasons[k] = why.explain()
        self._rejected[:] = [(v, why if why.__class__ is str else why.explain()) for v, why in self._rejected]
        self._told = True

    @property
    def reasons(self) -> dict[int, str]:
        """Raw option index -> why that option is not offered."""
        if not self._told:
            self._tell()
        return self._reasons

    @reasons.setter
    def reasons(self, value: dict[int, Any]) -> None:
        self._reasons, self._told = value, False

    @property
    def rejected(self) -> list[tuple[Any, str]]:
        """The options (labels) or domain values not offered, with why."""
        if not self._told:
            self._tell()
        return self._rejected

    @rejected.setter
    def rejected(self, value: list[tuple[Any, Any]]) -> None:
        self._rejected, self._told = value, False

    def refuse(self, option: Option, why: Any) -> None:
        """An offered option found not to be possible (look-ahead): why (a text or a refusal), not written out."""
        self._reasons[option.index] = why
        self._rejected.append((option.label, why))
        self._told = False

    def _fields(self) -> tuple:
        return (self.player, self.prompt, self.options, self.kind, self.span, self.var, self.reasons, self.action,
                self.rejected, self.site, self.sealed, self.must_ask, self.notes)

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Decision and self._fields() == other._fields()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  (mutable, as the dataclass it was)

    def __repr__(self) -> str:
        return (f"Decision(player={self.player!r}, prompt={self.prompt!r}, options={self.options!r}, "
                f"kind={self.kind!r}, action={self.action!r}, site={self.site!r})")

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


def told(message: str, span: Span | None, rule: str | None) -> str:
    """A refusal's text: the reason, the rule's location and its rulebook passage."""
    out = message
    if span:
        out += f" ({span})"
    if rule:
        out += f"\n  rule: {rule}"
    return out


class Refusal:
    """Why a rule refuses an option, kept as its parts and written out only when read (`explain`, as
    RequireFailed's): what a menu records for an option it does not offer, without raising anything.  The
    refusals that do not depend on the state (an action's condition or limit, a piece ability nobody holds)
    are made once per action and shared by every menu."""

    __slots__ = ("message", "span", "rule", "_text")

    def __init__(self, message: str, span: Span | None = None, rule: str | None = None) -> None:
        self.message = message
        self.span = span
        self.rule = rule
        self._text: str | None = None

    def explain(self) -> str:
        """The reason, the rule's location and its rulebook passage (written once)."""
        text = self._text
        if text is None:
            text = self._text = told(self.message, self.span, self.rule)
        return text

    def failed(self) -> "RequireFailed":
        """The refusal as the exception a move refused by it raises."""
        return RequireFailed(self.message, self.span, self.rule)

    def __repr__(self) -> str:
        return f"Refusal({self.message!r})"


class RequireFailed(Exception):
    """A rule forbids this move: carries the reason and where the rule is written."""

    def __init__(self, message: str, span: Span | None = None, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.rule = rule

    def explain(self) -> str:
        """The reason, the rule's location and its rulebook passage."""
        return told(self.message, self.span, self.rule)


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
