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


__all__ = ["check_commit", "REVEALED", "REVEALED_FIELDS"]
