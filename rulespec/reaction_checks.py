"""Static checks of reactions: who acts (`perform ... by`), windows, free actions and trigger order; with
them, how players answer in secret (a `commit` inside a window, picks left where search bots read them).

The checker (checker.py) calls `acting_findings` and `window_findings` once per spec; the checks live here
so that the big checker only holds the hooks.  Like the checker, this module mirrors the engine's semantics
(engine/frames.py, engine/windows.py) without importing it.
"""

from __future__ import annotations

from typing import Any, Iterator

from . import ast as A
from .abilities_check import ability_events, ability_sites
from .commits import window_commit_findings
from .errors import Finding
from .gamespec import GameSpec
from .secret_picks import secret_pick_findings
from .typing_rules import BUILTIN_EVENTS, NUMERIC, Scope, base, describe, did_you_mean, elem, known


def reacting_actions(model: Any) -> set[str]:
    """Actions offered outside the steps: in a window's menu, or at any time."""
    return {a for w in model.windows.values() for a in w.actions} | {
        n for n, a in model.actions.items() if a.anytime is not None}


def window_answers(model: Any) -> set[str]:
    """Actions that can answer a window: its own, and (when the spec has windows) those free at any time."""
    if not model.windows:
        return set()
    return {a for w in model.windows.values() for a in w.actions} | {
        n for n, a in model.actions.items() if a.anytime is not None}


def activations(spec: Any) -> dict[str, A.Block]:
    """Each piece's `activate:` ability (an action free at any time), named for messages, as the block it runs."""
    out = {}
    for kind, path, a in ability_sites(spec.model):
        if a.activate is not None:
            body = tuple(s for part in ("do", "then") for s in (spec.effect(*path, part) or A.Block(None, ())).body)
            out[f"{kind}: {a.activate.label or 'activate'}"] = A.Block(spec.span(*path), body)
    return out


def window_events(model: Any) -> set[str]:
    """Events a window listens to (it opens after them)."""
    return {w.after for w in model.windows.values() if w.after}


def reaction_findings(ch: Any) -> None:
    """Every check of this module, with the checker `ch` (its findings gain them)."""
    window_findings(ch)
    order_findings(ch)
    anytime_findings(ch)
    ch.findings += acting_findings(ch.spec)
    # (a commit asks everyone: never in one player's reaction; a piece's `activate:` ability may answer one too)
    window_commit_findings(ch, window_answers(ch.m), activations(ch.spec) if ch.m.windows else None)
    ch.findings += secret_pick_findings(ch.spec)  # (picks kept where search bots read them: use commit)


def check_open(ch: Any, s: A.Open, sc: Scope) -> None:
    """`open NAME(args)`: its arguments' expressions, and a window of that name (the checker's `_s_Open`)."""
    for a in list(s.args) + [v for _, v in s.kwargs]:
        ch.expr(a, sc)
    if s.window not in ch.m.windows:
        ch.error(ch._word(s.span, "open", s.window),
                 f"unknown window '{s.window}'" + did_you_mean(s.window, ch.m.windows))


def window_findings(ch: Any) -> None:
    """Each window's names, expressions and menu, checked with the checker `ch` (its scopes, types, spans)."""
    m = ch.m
    zones = m.components.zones
    for name, w in m.windows.items():
        path = ("windows", name)
        ch._usable_name(name, ch.key(*path), f"window '{name}'", local=True)
        scope = Scope().child({"event": "record"})
        ch._expr(path + ("when",), scope, cond=True)
        t = ch._expr(path + ("who",), scope)
        if t is not None and known(t) and not (base(t) in NUMERIC or base(t) == "list" and (
                not known(elem(t)) or base(elem(t)) in NUMERIC)):
            ch.type_error(ch.spec.expr(*path, "who").span, f"a window's `who` must be a list of players, but this "
                                                           f"is {describe(t)}")
        for i, a in enumerate(w.actions):
            if a not in m.actions:
                ch.error(ch.span(*path, "actions", i), f"unknown action '{a}'" + did_you_mean(a, m.actions))
            elif w.ask == "when_able":
                secret = _secret_zone(ch.spec, a, zones)
                if secret:
                    ch.warning(ch.key(*path, "ask") if "ask" in w.model_fields_set else ch.key(*path),
                               f"window '{name}' does not ask a player who could only pass (ask: when_able), and "
                               f"action '{a}' reads the {zones[secret].visibility} zone '{secret}': whether a player "
                               f"is asked tells the others something about it",
                               "write `ask: always` to ask everyone (being asked then tells nothing)")
        if w.after and w.after not in BUILTIN_EVENTS and w.after not in ch.emitted:
            ch.warning(ch.span(*path, "after"), f"window '{name}' opens after '{w.after}', which is not a built-in "
                                                f"event and nothing emits"
                       + did_you_mean(w.after, set(BUILTIN_EVENTS) | set(ch.emitted)))


def anytime_findings(ch: Any) -> None:
    """An action free at any time that is also one of a step's actions: taken at that step, it counts as the
    step's action (a warning: it is seldom meant)."""
    m = ch.m
    for i, ph in enumerate(m.flow.phases):
        for j, st in enumerate(ph.steps):
            for k, a in enumerate(st.actions):
                decl = m.actions.get(a)
                if decl is not None and decl.anytime is not None:
                    ch.warning(ch.span("flow", "phases", i, "steps", j, "actions", k),
                               f"action '{a}' is free at any time (`anytime: {decl.anytime}`) and also one of this "
                               f"step's actions: taken here, it counts as the step's action",
                               "remove it from the step (it is offered there anyway), or drop `anytime`")


def order_findings(ch: Any) -> None:
    """Trigger owners (`owner:`, event triggers only, a player) and `events:` (an event some owned trigger
    listens to), with the checker `ch`."""
    m = ch.m
    for name, t in m.triggers.items():
        if t.owner is None:
            continue
        path = ("triggers", name)
        if not t.on:
            ch.error(ch.key(*path, "owner"), f"trigger '{name}' has an `owner` but no `on:`: only event triggers "
                                             f"have owners (a state trigger fires alone)")
            continue
        t_ = ch._expr(path + ("owner",), Scope().child({"event": "record"}))
        if t_ is not None and known(t_) and base(t_) not in NUMERIC:
            ch.type_error(ch.spec.expr(*path, "owner").span, f"a trigger's `owner` must be a player, but this is "
                                                             f"{describe(t_)}")
    carried = ability_events(m)  # (pieces' `on:` abilities belong to their owners: docs/dsl.md 2.23)
    listened = {t.on for t in m.triggers.values() if t.on} | carried
    for event, decl in m.events.items():
        owned = [n for n, t in m.triggers.items() if t.on == event and t.owner is not None]
        if event not in listened:
            ch.warning(ch.key("events", event), f"no trigger listens to event '{event}'" + did_you_mean(event, listened))
        elif decl.order == "owner_chooses" and not owned and event not in carried:
            ch.error(ch.span("events", event, "order"),
                     f"event '{event}' has `order: owner_chooses`, but none of its triggers has an `owner:`, so "
                     f"nobody is ever asked", "give the triggers of that event an `owner:` (the player each belongs to)")


def _secret_zone(spec: GameSpec, action: str, zones: dict) -> str | None:
    """A zone that players cannot all see, read by an action's condition, cost or parameters (what decides
    whether it is offered), or None."""
    decl = spec.model.actions[action]
    paths = [("condition",)] + [("cost", v) for v in decl.cost]
    paths += [("params", p, f) for p in decl.params for f in ("from", "where")]
    for path in paths:
        node = spec.expr("actions", action, *path)
        for n in (node.walk() if node is not None else ()):
            name = n.name if isinstance(n, A.Attr) else n.id if isinstance(n, A.Name) else None
            if name in zones and zones[name].visibility != "public":
                return name
    return None


def acting_findings(spec: GameSpec) -> list[Finding]:
    """`perform NAME` (no `by`) after a `choose ... by P` in the same effect: an error, since the action is
    done for the acting player (`current`), which is seldom who answered the `choose` (the reacting player of
    a hand-written window).  `perform NAME by P` says who acts; `by current` keeps the acting player."""
    out: list[Finding] = []
    for block in spec.effects.values():
        asked: list[A.Choose] = []
        for stmt in _in_order(block):
            if isinstance(stmt, A.Choose) and stmt.chooser is not None and not _is_current(stmt.chooser):
                asked.append(stmt)
            elif isinstance(stmt, A.Perform) and stmt.actor is None and asked:
                choose = asked[0]
                who = _short(choose.chooser)
                out.append(Finding(
                    stmt.span,
                    f"`perform {stmt.action}` acts for `current` (the acting player), not for the player who "
                    f"answered `choose {choose.var} ... by {who}` (line {choose.span.line})",
                    "error",
                    f"write `perform {stmt.action} by {who}` for that player to act (its pieces, costs and "
                    f"choices), or `perform {stmt.action} by current` to keep the acting player"))
    return out


def _in_order(block: A.Block | None) -> Iterator[A.Stmt]:
    """Every statement of a block, nested ones included, in the order they are written."""
    if block is None:
        return
    for stmt in block.body:
        yield stmt
        for child in stmt.children():
            if isinstance(child, A.Block):
                yield from _in_order(child)


def _is_current(node: A.Expr) -> bool:
    return isinstance(node, A.Name) and node.id == "current"


def _short(node: A.Expr) -> str:
    """Source-like text of a simple chooser (a name or attribute chain), else a placeholder."""
    if isinstance(node, A.Name):
        return node.id
    if isinstance(node, A.Attr):
        inner = _short(node.obj)
        return f"{inner}.{node.name}" if inner != "PLAYER" else inner
    return "PLAYER"


__all__ = ["acting_findings", "check_open", "reacting_actions", "reaction_findings", "window_events"]
