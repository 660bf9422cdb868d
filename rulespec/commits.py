"""Static checks of `commit` (secret simultaneous choices, docs/dsl.md 4.24), called by the checker.

A commit's `by` must be a list of players; `p` is bound to each committing player in its domain, filter,
prompt and reason, so a local `p` around it would be hidden; and its menus are made before anybody
answers, so its domain and prompt may not read its own name (the answers still sealed: the only answers
pending while a commit's menus are made are its own, since nothing else runs until its reveal).  After
the statement the name is a list with one entry per seat.
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .errors import Span
from .typing_rules import Scope, base, describe, elem, known, list_of

REVEALED = "revealed"  # the event every commit emits after its reveal (interpreter/engine/commit.py)
REVEALED_FIELDS = frozenset({"values", "players"})  # its fields besides `name` and `player`


def check_commit(ck: Any, s: A.Commit, sc: Scope) -> None:
    """Check one `commit` statement in scope `sc` and define its name there (`ck` is the Checker)."""
    ck.commits.append(s.span)
    word = ck._word(s.span, "commit", s.var)
    if s.players is not None:
        t = ck.expr(s.players, sc)
        if known(t) and (base(t) != "list" or elem(t) not in ("player", "int", "any")):
            one = s.players.id if isinstance(s.players, A.Name) else "p"
            hint = f"write [{one}] for one player" if base(t) in ("player", "int") else None
            what = describe(t) if base(t) != "list" else f"a list of {describe(elem(t))}"
            ck.error(s.players.span, f"the `by` of a commit needs a list of players, but this is {what}", hint)
    if sc.get("p") is not None:
        ck.error(word, f"`commit {s.var}` binds `p` to each committing player in its domain and prompt, which "
                       f"would hide the local name 'p' here", "rename the local 'p' (for q in players ...)")
    sealed = {what for part, what in ((s.domain, "domain"), (s.prompt, "prompt")) if _sealed(ck, s, part, what)}
    inner = sc.child({"p": "player"})
    t = "any"
    if "domain" not in sealed:  # (one error for a domain that reads the answers, not a second about the name)
        t = ck.expr(s.domain, inner)
        ck._want_iterable(s.domain, t)
    if s.prompt is not None and "prompt" not in sealed:
        ck.expr(s.prompt, inner)  # any value: it is shown as text
    vt = "any" if s.optional else ck._elem(s.domain, t)  # skipping an optional commit gives none
    if s.cond is not None:
        ck._want_bool(s.cond, ck.expr(s.cond, inner.child({s.var: vt})), "condition must be true/false")
    if s.reason is not None:
        ck.expr(s.reason, inner.child({s.var: vt}))  # evaluated for each rejected value: it sees the value
    ck._define(sc, s.var, list_of(vt), word)


def commits_reached(spec: Any, actions: set[str], extra: dict[str, Any] | None = None) -> list[tuple[str, A.Commit]]:
    """(action, commit) for every `commit` that running one of `actions` can reach: in its effect, or through the
    procedures it calls, the actions it performs, the triggers of the events it emits (the built-in `action`
    included) and the state triggers of a `settle` (each commit once, with the first action found to reach it).  A window's answers are actions: a commit among them would ask every
    player while one player reacts (reaction windows, dsl.md 4.24)."""
    m = spec.model
    bodies: dict[tuple[str, str], Any] = {("action", n): spec.effect("actions", n, "effect") for n in m.actions}
    bodies.update({("proc", n): spec.effect("procedures", n, "effect") for n in m.procedures})
    bodies.update({("proc", n): spec.effect("effects", n, "effect") for n in m.effects})  # (templates: called too)
    bodies.update({("action", n): b for n, b in (extra or {}).items()})  # (pieces' `activate:` abilities)
    actions = set(actions) | set(extra or {})
    listeners: dict[str, list[tuple[str, str]]] = {}
    for name, t in m.triggers.items():
        # (a state trigger runs in a `settle` cascade, where `cascade_end` follows)
        listeners.setdefault(t.on or "cascade_end", []).append(("trigger", name))
        bodies[("trigger", name)] = spec.effect("triggers", name, "effect")
    found: dict[int, tuple[str, A.Commit]] = {}
    for action in sorted(actions):
        todo, seen = [("action", action)], set()
        while todo:
            key = todo.pop()
            if key in seen or bodies.get(key) is None:
                continue
            seen.add(key)
            if key[0] == "action":  # (every action done emits the built-in event `action`)
                todo += listeners.get("action", [])
            for node in bodies[key].walk():
                if isinstance(node, A.Commit):
                    found.setdefault(id(node), (action, node))
                elif isinstance(node, A.CallProc):
                    todo.append(("proc", node.name))
                elif isinstance(node, A.Perform):
                    todo.append(("action", node.action))
                elif isinstance(node, A.Emit):
                    todo += listeners.get(node.event, [])
                elif isinstance(node, A.Settle):
                    todo += listeners.get("cascade_end", [])
    return list(found.values())


def window_commit_findings(ck: Any, actions: set[str], extra: dict[str, Any] | None = None) -> None:
    """Refuse every `commit` that an action a window offers can reach (`ck` is the Checker; `extra`: more
    answers by name, as blocks)."""
    for action, node in commits_reached(ck.spec, actions, extra):
        ck.error(ck._word(node.span, "commit", node.var),
                 f"`commit {node.var}` can run while a window is open (action '{action}' answers a window): a "
                 f"commit asks every player at once and cannot run inside another player's reaction",
                 "commit before the window opens, or after it closes")


def _sealed(ck: Any, s: A.Commit, part: A.Expr | None, what: str) -> bool:
    """Report the domain or prompt of `s` if it reads the commit's own name; whether it does."""
    read = _reads(part, s.var)
    if read is not None:
        ck.error(read, f"the {what} of `commit {s.var}` reads '{s.var}', the answers being committed: they "
                       f"are sealed until every player has answered, so no menu may depend on them",
                 f"keep earlier answers under another name (let earlier = {s.var}) before committing again")
    return read is not None


def _reads(node: A.Expr | None, name: str) -> Span | None:
    """Where an expression reads `name` (not a comprehension's own variable of that name), or None."""
    if node is None:
        return None
    bound = {c.var for c in node.walk() if isinstance(c, A.CompFor)}
    if name in bound:
        return None
    return next((n.span for n in node.walk() if isinstance(n, A.Name) and n.id == name), None)


__all__ = ["check_commit", "commits_reached", "window_commit_findings", "REVEALED", "REVEALED_FIELDS"]
