"""The checker's flow part: phases, steps, end conditions, display entries and events (split from checker.py).

Each function takes the running checker (`c`: its spec, model, index, findings and what the rule text
showed: which actions are performed, which ends are named, which events are emitted).
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .commits import REVEALED
from .errors import Span
from .abilities_check import ability_events
from .reaction_checks import reacting_actions, window_events
from .namecheck import display_checks
from .typing_rules import BUILTIN_EVENTS, did_you_mean

def flow(c: Any) -> None:
    """Phases, steps and their actions, end conditions nothing can reach, and display entries."""
    m = c.m
    offered: set[str] = reacting_actions(m)
    phase_seen: dict[str, Span] = {}
    for i, ph in enumerate(m.flow.phases):
        p = ("flow", "phases", i)
        if ph.name in phase_seen:
            c.error(c.span(*p, "name"),
                    f"phase name '{ph.name}' is used twice (first at line {phase_seen[ph.name].line})")
        phase_seen.setdefault(ph.name, c.span(*p, "name"))
        lists = [(p + ("steps", j, "actions"), st.actions) for j, st in enumerate(ph.steps)]
        for lpath, names in lists + [(p + ("free_actions",), ph.free_actions)]:
            for k, a in enumerate(names):
                offered.add(a)
                if a not in m.actions:
                    c.error(c.span(*lpath, k), f"unknown action '{a}'" + did_you_mean(a, m.actions))
        if ph.order == "by" and ph.order_by is None:
            c.error(c.span(*p, "order"), f"phase '{ph.name}' has `order: by` but no `order_by`")
        if ph.order != "by" and ph.order_by is not None:
            c.error(c.key(*p, "order_by"), f"phase '{ph.name}' has `order_by` but its order is "
                                           f"'{ph.order}', not `by`")
        when = c.spec.expr(*p, "when")
        if isinstance(when, A.Literal) and when.value is False:
            c.error(when.span, f"phase '{ph.name}' can never do anything: its `when` is false")
        elif idle(c, p, ph):
            c.error(c.span(*p, "name"), f"phase '{ph.name}' can never do anything: "
                                        f"it offers no action and runs no effect")
        if ph.turns == "until_pass" and ph.steps and not c.passes:
            c.warning(c.span(*p, "turns"), f"phase '{ph.name}' runs until everyone passes, "
                                           f"but no effect ever says `pass`")
    for a in m.actions:
        if a not in offered and a not in c.performed:
            c.warning(c.key("actions", a), f"action '{a}' is never offered: no step or free_actions "
                                           f"lists it and no `perform` names it")
    for name, end in m.end.items():
        if end.when is None and name not in c.ended:
            c.error(c.key("end", name), f"end condition '{name}' can never happen: "
                                        f"it has no `when` and no `end_game {name}` names it")
    display_checks(c)


def idle(c: Any, p: tuple, ph: Any) -> bool:
    """True when a phase offers no action, runs no effect and no trigger listens to its events."""
    turns = bool(ph.steps)  # turn effects and events only happen when the phase has steps
    events = {"phase_start", "phase_end"} | ({"turn_start", "turn_end"} if turns else set())
    if any(t.on in events for t in c.m.triggers.values()):
        return False
    if any(st.actions for st in ph.steps) or (turns and ph.free_actions):
        return False
    fields = ("on_start", "on_end") + (("turn_start", "turn_end") if turns else ())
    return not any((b := c.spec.effect(*p, f)) is not None and b.body for f in fields)


def events(c: Any) -> None:
    """Events emitted that no trigger listens to, and triggers listening to events nothing emits (warnings)."""
    listened = {t.on for t in c.m.triggers.values() if t.on} | window_events(c.m) | ability_events(c.m)
    for event, spans in c.emitted.items():
        if event not in listened:
            for sp in spans:
                c.warning(sp, f"no trigger listens to event '{event}'" + did_you_mean(event, listened))
    for name, t in c.m.triggers.items():
        if t.on and t.on not in BUILTIN_EVENTS and t.on not in c.emitted and not (t.on == REVEALED and c.commits):
            c.warning(c.span("triggers", name, "on"),
                      f"trigger '{name}' listens to '{t.on}', which is not a built-in event and "
                      f"nothing emits" + did_you_mean(t.on, set(BUILTIN_EVENTS) | set(c.emitted)))
