"""`activate:` abilities (docs/dsl.md 2.23) as actions their pieces' owners may take at any time.

An `activate:` ability is an action carried by a piece: offered to the piece's owner while it is live, as
an action free at any time is (`anytime: own_turn`, the default, or `always`), at every step menu and in the
windows that ask its owner.  Each such ability becomes one action, named by the ability (`kind#i`,
`kind[row]#i`), whose first parameter `self` is the piece: its menu holds the acting player's live pieces
carrying the ability, and the ability's `condition` is that parameter's `where`.  The ability's own
parameters follow, its costs are the action's (those reading `self` or a parameter are paid once all are
chosen; `pay_to:` says where the payments go), its `limit` counts per piece (`each: self`), and its effect
is `do:` then `then:`.  `owner` is the acting player: an expression that reads it is run under
`let owner = current`.  Everything else (menus, look-ahead, refusals with their reasons, limits, costs,
windows, both engines) is the actions' own.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A

from .abilities import Abilities, AbilityInfo
from .actioninfo import ActionInfo, ParamInfo, split_costs
from .payto import paid_to
from .uses import Limit

CARRIERS = "@carriers"  # the built-in listing an ability's live carriers (reference/abilityrun.py); no spec can name it


def activate_actions(spec: Any, abilities: Abilities) -> dict[str, tuple[ActionInfo, bool]]:
    """Every `activate:` ability as an action, by name (its ability's ident), with whether it is offered in
    other players' windows too (`anytime: always`), in declaration order."""
    found = [a for k in abilities.kinds.values() for a in _declared(k) if a.what == "activate"]
    labels: dict[str, int] = {}
    out: dict[str, tuple[ActionInfo, bool]] = {}
    for ab in found:
        decl = _decl(spec.model, ab.path)
        label = decl.activate.label or _default_label(ab, labels)
        out[ab.ident] = (_action(spec, ab, decl, label), decl.anytime == "always")
    return out


def _declared(k: Any) -> list[AbilityInfo]:
    """A kind's abilities, each once: the kind's own, then each row's own."""
    n = len(k.common)
    return list(k.common) + [a for row in k.rows for a in row[n:]]


def _decl(model: Any, path: tuple) -> Any:
    """The AbilityDecl at a path of `ability_sites` (a kind's list or an instance row's)."""
    kind = model.components.pieces[path[2]]
    if path[3] == "instances":
        return kind.instances[path[4]]["abilities"][path[6]]
    return kind.abilities[path[4]]


def _default_label(ab: AbilityInfo, seen: dict[str, int]) -> str:
    """`use KIND` (a row's own ability: `use ROW`), numbered when another default label is the same."""
    head, _, _ = ab.ident.rpartition("#")
    row = head[head.index("[") + 1:-1] if "[" in head else head
    base = f"use {row.replace('_', ' ')}"
    seen[base] = seen.get(base, 0) + 1
    return base if seen[base] == 1 else f"{base} {seen[base]}"


def _action(spec: Any, ab: AbilityInfo, decl: Any, label: str) -> ActionInfo:
    act, path, span = decl.activate, ab.path, ab.span
    at = path + ("activate",)
    kind = path[2].replace("_", " ")
    carriers = A.Call(span=span, func=CARRIERS, args=(A.Literal(span=span, value=ab.ident),))
    why = act.why or f"no {kind} of yours can '{label}' now"
    params = [ParamInfo("self", carriers, _as_owner(spec.expr(*at, "condition")), why, f"{label}: which {kind}?",
                        False, span)]
    params += [ParamInfo(p, _as_owner(spec.expr(*at, "params", p, "from")), _as_owner(spec.expr(*at, "params", p,
                                                                                                   "where")),
                         pd.why, pd.prompt, pd.optional, spec.span(*at, "params", p)) for p, pd in act.params.items()]
    cost = [(var, _as_owner(spec.expr(*at, "cost", var))) for var in act.cost]
    early, late, site = split_costs(params, cost, {var: spec.expr(*at, "pay_to", var) for var in act.pay_to})
    # (a target reading `owner`, the acting player, is run after `let owner = current`)
    pay_to = paid_to(spec, at, act.pay_to, (A.Let(span=span, name="owner", value=A.Name(span=span, id="current")),))
    body = tuple(s for part in ("do", "then") for s in (spec.effect(*path, part) or A.Block(span=span, body=())).body)
    if any(isinstance(n, A.Name) and n.id == "owner" for s in body for n in s.walk()):
        body = (A.Let(span=span, name="owner", value=A.Name(span=span, id="current")),) + body
    condition = cond_why = None
    if decl.during:
        condition = A.Binary(span=span, op="in", left=A.Name(span=span, id="phase"),
                             right=A.ListLit(span=span, items=tuple(A.Literal(span=span, value=p)
                                                                    for p in decl.during)))
        cond_why = f"'{label}' can be done only during {' or '.join(decl.during)}"
    limit = None if decl.limit is None else Limit(decl.limit.times, decl.limit.per, ab.ident, "self", kind)
    return ActionInfo(ab.ident, label, act.rule or ab.text, condition, cond_why, params, early,
                      A.Block(span=span, body=body), limit, span, late, site, pay_to, decl.description,
                      during=frozenset(decl.during) if decl.during else None)


def _as_owner(e: A.Expr | None) -> A.Expr | None:
    """An expression of the ability, with `owner` (the acting player) bound when it reads it."""
    if e is None or not any(isinstance(n, A.Name) and n.id == "owner" for n in e.walk()):
        return e
    return A.LetIn(span=e.span, name="owner", value=A.Name(span=e.span, id="current"), body=e)


__all__ = ["CARRIERS", "activate_actions"]
