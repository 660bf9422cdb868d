"""The order in which an event's triggers resolve when some belong to players (docs/dsl.md 2.11).

Triggers without `owner:` run first, in declaration order (as for every event).  Those with one are
grouped by owner, evaluated once when the event is emitted: the acting player's group first, then the
others clockwise from them; within a group, declaration order, or with `events.E.order: owner_chooses`
the owner picks the next one each time two or more are pending (engine/frames.py OrderedEmitFrame).
A trigger's `when` is read just before it runs, so one that an earlier trigger made false is skipped.
"""

from __future__ import annotations

from typing import Any

from ..core.decisions import Decision, Option, RuleError
from ..core.values import Player, Record


def owner_groups(it: Any, triggers: list[Any], record: Record) -> tuple[list[Any], list[tuple[int, list[Any]]]]:
    """(the triggers without owner, [(owner, their triggers)] in resolution order)."""
    env = {"event": record}
    n = it.s.n
    first: list[Any] = []
    groups: dict[int, list[Any]] = {}
    for trig in triggers:
        if trig.owner is None:
            first.append(trig)
            continue
        who = it.ev(trig.owner, env)
        if who.__class__ not in (int, Player) or not 0 <= who < n:
            raise RuleError(f"trigger '{trig.name}': `owner` must be a player, got {it.describe(who)}", trig.owner.span)
        groups.setdefault(int(who), []).append(trig)
    start = it.s.cursor.current
    return first, [(p, groups[p]) for p in sorted(groups, key=lambda p: (p - start) % n)]


def in_order(it: Any, triggers: list[Any], record: Record) -> list[Any]:
    """Every trigger in resolution order when no owner chooses (declared order within each owner)."""
    first, groups = owner_groups(it, triggers, record)
    return first + [t for _, group in groups for t in group]


def choice(it: Any, record: Record, owner: int, live: list[Any]) -> Decision:
    """The question of `events.E.order: owner_chooses`: which of the owner's pending triggers resolves next."""
    event = record.get("name")
    decl = it.r.spec.model.events.get(event)
    prompt = decl.prompt if decl is not None and decl.prompt else f"Which of your '{event}' triggers resolves next?"
    options = [Option(t.name.replace("_", " "), t.name, i) for i, t in enumerate(live)]
    return Decision(owner, prompt, options, "choose", live[0].span, action=it.top_action, site=("order", event))


__all__ = ["choice", "in_order", "owner_groups"]
