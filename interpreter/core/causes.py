"""Causes of triggered events (docs/dsl.md §6.5): which firing, event trigger or action made each one happen.

A cause is a record: `player` and `action` of the root (the answer that set everything off), `trigger` (the
trigger whose run this is; none at the root), `event` (the event an event trigger answered), `source` (a
state trigger's binding), `parent` (the cause of what made it happen; none at the root), `chain` (the
trigger names from the root down to this one), `id` (0 for the root, then 1, 2... in the order the runs
start) and `origin` (the id of the chain's first run below the root).

The interpreter holds the cause in force (`it.cause`, None for the root) and a log of when it changed,
as clock values of the state (`it.cause_log`: the latest (clock, cause, older entries) link, None when
empty: links are never changed, so forks share them).  A state trigger's firing knows which earlier run made
its condition true from the scan in which its match began (`matched_at`): the run fired just before that
scan.  With `caused_by:` it is the run in force when the named places last changed: a place's change stamp
(State.stamps) is the clock value the change moved it to, so that run is the last log entry set before it.
All of it runs only for specs that read causes (`Rules.track_causes`): the others pay nothing.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A

from .values import Cell, PieceRef, Player, Record, ZoneRef


def reads_causes(roots: list[A.Node], trigger_effects: list[A.Node]) -> bool:
    """Whether rule text reads a cause: a `.cause` field anywhere (`event.cause`), or `cause` in a state
    trigger's effect, the one place that name is a cause (elsewhere it is whatever the spec binds)."""
    for root in roots:
        for n in root.walk():
            if isinstance(n, A.Attr) and n.name == "cause":
                return True
            if isinstance(n, A.Index) and isinstance(n.index, A.Literal) and n.index.value == "cause":
                return True
    return any(isinstance(n, A.Name) and n.id == "cause" for root in trigger_effects for n in root.walk())


def new_root(it: Any) -> None:
    """A new root (a player's answer starts an action, or a cascade starts outside any action): the log starts
    afresh, so a place changed before it counts as changed by the root."""
    it.cause, it.cause_log, it.cause_ids = None, None, 0
    it.cause_root = _root_record(it)


def root(it: Any) -> Record:
    """The root's cause: the player and action that set everything off (action: none outside actions)."""
    if it.cause_root is None:  # (before any root: the events of game start and of hooks)
        return _root_record(it)
    return it.cause_root


def _root_record(it: Any) -> Record:
    return Record(player=Player(it.s.cursor.current), action=it.top_action, trigger=None, event=None, source=None,
                  parent=None, chain=[], id=0, origin=0)


def current(it: Any) -> Record:
    """The cause in force."""
    return it.cause if it.cause is not None else root(it)


def enter(it: Any, cause: Record | None) -> None:
    """Make `cause` the one in force from the state's clock on (None: the root)."""
    it.cause = cause
    it.cause_log = (it.s.clock, cause, it.cause_log)


def child(it: Any, parent: Record, trigger: str, event: str | None, source: Any) -> Record:
    """The cause of a run of `trigger` that `parent` made happen."""
    it.cause_ids += 1
    n = it.cause_ids
    return Record(player=parent["player"], action=parent["action"], trigger=trigger, event=event, source=source,
                  parent=parent, chain=parent["chain"] + [trigger], id=n, origin=parent["origin"] or n)


def of_event_trigger(it: Any, record: Record, trig: Any) -> Record:
    """The cause of an event trigger's run: the event's cause is its parent."""
    parent = record.get("cause")
    return child(it, parent if parent is not None else current(it), trig.name, record.get("name"), None)


def of_firing(it: Any, trig: Any, env: dict, fired: list, outer: Record | None) -> Record:
    """The cause of a state trigger's firing: what made its condition true.

    By default that is the run that fired just before the scan in which the match began (`matched_at`):
    a match first seen in scan k > 1 began to hold through the effect of scan k-1's firing (`fired` lists
    this cascade's firings' causes, one per scan), and one seen in the first scan held before the cascade
    (`outer`: the cause in force when it started, None for the root).  With `caused_by:`, it is the cause in
    force when the places it names (cells, zones, pieces for the place they are in, or lists of them) last
    changed, the one changed last among them; a change before this root's log, or none, counts as the
    root's."""
    if trig.caused_by is not None:
        parent = _last_change(it, _places(it, it.ev(trig.caused_by, env)))
    else:
        began = env.get("matched_at", 1)
        parent = fired[began - 2] if began >= 2 else outer
    source = env.get(trig.var) if trig.var else None
    return child(it, parent if parent is not None else root(it), trig.name, None, source)


def _last_change(it: Any, places: list[Any]) -> Record | None:
    stamp = max((it.s.stamps.get(p, 0) for p in places), default=0)
    if not stamp:
        return None
    link = it.cause_log
    while link is not None and link[0] >= stamp:  # back to the last entry set before the change
        link = link[2]
    return link[1] if link is not None else None


def _places(it: Any, v: Any) -> list[Any]:
    if v.__class__ is Cell or v.__class__ is ZoneRef:
        return [v]
    if v.__class__ is PieceRef:
        return [it.s.loc[v.id]]
    if isinstance(v, list):
        return [p for x in v for p in _places(it, x)]
    return []
