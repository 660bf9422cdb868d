"""What a spec declares for reactions, resolved once per Rules: windows, free actions, trigger owners.

The engine plays them (engine/windows.py); this module only reads the spec: the windows by name and by
the event they follow, and which events anything listens to (a trigger or a window), so that the flow
and the actions emit an event only when something will hear it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from orrery.rulespec import ast as A
from orrery.rulespec.errors import Span


@dataclass
class WindowInfo:
    """A reaction window, resolved (docs/dsl.md 2.19)."""

    name: str
    after: str | None
    when: A.Expr | None
    who: A.Expr | None
    actions: list[str]
    poll: str
    closes: str
    ask: str
    prompt: str
    span: Span


def windows_of(spec: Any) -> dict[str, WindowInfo]:
    """The spec's windows by name, in declaration order."""
    out = {}
    for name, decl in spec.model.windows.items():
        out[name] = WindowInfo(name, decl.after, spec.expr("windows", name, "when"), spec.expr("windows", name, "who"),
                               list(decl.actions), decl.poll, decl.closes, decl.ask,
                               decl.prompt or name.replace("_", " "), spec.span("windows", name))
    return out


def windows_after(windows: dict[str, WindowInfo]) -> dict[str, list[WindowInfo]]:
    """Per event, the windows that open right after it (declaration order)."""
    out: dict[str, list[WindowInfo]] = {}
    for w in windows.values():
        if w.after:
            out.setdefault(w.after, []).append(w)
    return out


def anytime_actions(spec: Any) -> tuple[list[str], list[str]]:
    """The actions a player may take at any time: (at every step menu and window of their own turn, and in
    other players' windows too), each in declaration order."""
    actions = spec.model.actions
    own = [n for n, a in actions.items() if a.anytime is not None]
    return own, [n for n in own if actions[n].anytime == "always"]


def owned_events(spec: Any, event_triggers: dict[str, list[Any]]) -> dict[str, str]:
    """The events some of whose triggers belong to a player (`owner:`), with their order (`events.E.order`)."""
    events = spec.model.events
    return {e: (events[e].order if e in events else "declared")
            for e, triggers in event_triggers.items() if any(t.owner is not None for t in triggers)}


__all__ = ["WindowInfo", "anytime_actions", "owned_events", "windows_of", "windows_after"]
