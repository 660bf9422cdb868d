"""Use limits per scope (`limit: {times, per, key}` on actions, `max_fires` on triggers).

A counter is keyed by (player, key) and holds (scope instance, count).  The flow numbers the scope
instances (`instance`): a new instance simply has no count yet, so nothing is ever reset and no hook
order at a boundary can matter (a use in `turn_end` counts in the turn that is ending).  The counters
are part of the state (`State.uses`), so a refused move takes its counts back with everything else,
clones and look-ahead copies carry them, and the digest covers them.  The dict is never changed in
place: each count writes a new one, so clones share it for free (most games count nothing).

Anything that may be used a limited number of times (actions today, abilities carried by pieces later)
describes its limit with a `Limit` and calls `used`/`count_use` with the player who acts.  A limit counted
for each value of an action parameter (`each`) counts each value under a key of its own, `KEY@value`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .values import PieceRef

SCOPES = ("turn", "phase", "round", "game")
# the flow's stages inside a turn, and inside a phase (state.cursor.stage while their hooks and actions run)
_IN_TURN = frozenset({"turn_start", "step", "turn_end"})
_IN_PHASE = _IN_TURN | {"phase_start", "phase_end"}


@dataclass(frozen=True)
class Limit:
    """At most `times` per instance of the scope `per`, counted under `key` for each player."""

    times: int
    per: str
    key: str
    each: str | None = None  # an action parameter: its values are counted apart (`limit: {each: NAME}`)
    noun: str | None = field(default=None, compare=False)  # what messages call `each`'s values (else its name)

    def describe(self) -> str:
        """`2 times per round` (`... for each c`), for messages."""
        each = f" for each {self.noun or self.each}" if self.each is not None else ""
        return f"{self.times} time{'s' if self.times != 1 else ''} per {self.per}{each}"


def limit_of(decl: Any, default_key: str) -> Limit | None:
    """The Limit of a `limit:`/`max_fires:` declaration (a number: that many per turn), or None."""
    if decl is None:
        return None
    if isinstance(decl, int):
        return Limit(decl, "turn", default_key)
    return Limit(decl.times, decl.per, decl.key or default_key, getattr(decl, "each", None))


def for_value(limit: Limit, value: Any) -> Limit:
    """The counter of one value of a limit counted per value (`each`): the key `KEY@value`, a piece by its
    id (`#7`: pieces keep their id wherever they go), anything else by its text."""
    return Limit(limit.times, limit.per, value_key(limit, value))


def value_key(limit: Limit, value: Any) -> str:
    """for_value's key, without making its Limit (menus test every value of a parameter)."""
    return f"{limit.key}@#{value.id}" if value.__class__ is PieceRef else f"{limit.key}@{value}"


def use_of(limit: Limit, env: dict) -> Limit:
    """The counter an action's use counts under: its key, or with `each` the chosen value's (`env` binds the
    action's parameters)."""
    return limit if limit.each is None else for_value(limit, env[limit.each])


def instance(state: Any, per: str) -> Any:
    """The scope instance the flow is in now: the turn in progress, this entry into the phase, the round,
    the game.  Outside any turn (a phase's or a round's hooks) the turn instance is the gap after the last
    turn, and outside any phase the phase instance is the gap where the round is (a tuple: never a turn's
    or a phase's number)."""
    c = state.cursor
    if per == "turn":
        return c.turn if c.stage in _IN_TURN else (c.turn,)
    if per == "round":
        return c.round
    if per == "phase":
        return (c.round, c.phase) if c.stage in _IN_PHASE else (c.round, c.phase, "between")
    return 0


def used(state: Any, limit: Limit, seat: int, key: str | None = None) -> int:
    """How many times `seat` used `limit`'s key (or `key`, one of its values': value_key) in the scope instance
    in progress."""
    got = state.uses.get((seat, limit.key if key is None else key))
    if got is None or got[0] != instance(state, limit.per):
        return 0
    return got[1]


def count_use(state: Any, limit: Limit, seat: int) -> None:
    """One more use of `limit`'s key by `seat` in the scope instance in progress (a new dict: never in place)."""
    now = instance(state, limit.per)
    key = (seat, limit.key)
    got = state.uses.get(key)
    uses = dict(state.uses)
    uses[key] = (now, got[1] + 1 if got is not None and got[0] == now else 1)
    state.uses = uses
    state.version += 1  # (conditions read counts through `uses()`: the end checks' memo must see the change)


__all__ = ["Limit", "SCOPES", "count_use", "for_value", "instance", "limit_of", "use_of", "used", "value_key"]
