"""An action as the engines run it (docs/dsl.md 2.10): its parameters, costs, limit and effect, resolved.

Built by core/rules.py from the spec's `actions:` and by core/activation.py from pieces' `activate:`
abilities; both engines run every one the same way (engine/frames.py ActionFrame, its generated steps).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from orrery.rulespec import ast as A
from orrery.rulespec.errors import Span

from .decisions import Refusal
from .uses import Limit


@dataclass
class ParamInfo:
    """An action parameter."""

    name: str
    domain: A.Expr
    where: A.Expr | None
    why: str | None
    prompt: str | None
    optional: bool
    span: Span


@dataclass
class ActionInfo:
    """An action, resolved."""

    name: str
    label: str
    rule: str | None
    condition: A.Expr | None
    why: str | None
    params: list[ParamInfo]
    cost: list[tuple[str, A.Expr]]  # the entries reading no parameter: checked and paid when the action starts
    effect: A.Block
    limit: Limit | None  # (a `perform` neither checks nor counts it)
    span: Span
    late_cost: list[tuple[str, A.Expr]] = field(default_factory=list)  # reading a parameter: paid once all are chosen
    cost_site: int | None = None  # the last parameter a late cost reads: its menu shows the prices
    pay_to: dict[str, A.Block] = field(default_factory=dict)  # cost entry -> `TARGET += __paid__` (costs.pay)
    description: str | None = None  # free text (a player's `why`, explain)
    # the phases a piece's `activate:` ability is limited to (`during:`), which its `condition` tests: checked as
    # a set by menus (reference/effects.action_refusal), not evaluated as the expression (core/activation.py)
    during: frozenset[str] | None = None
    # the refusals that do not depend on the state (its limit, its condition, no carrier of its ability), made
    # the first time a menu needs one and shared by every menu after (reference/effects.action_refusal)
    refusals: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


    def refusal(self, what: str) -> Refusal:
        """A refusal of this action that does not depend on the state, made once: `limit` (its limit is used
        up), `condition` (it does not hold) or `unheld` (a piece's ability whose acting player holds no
        carrier: what its first parameter's empty menu says, reference/effects.param_menu)."""
        found = self.refusals.get(what)
        if found is None:
            if what == "limit":
                limit = self.limit
                assert limit is not None
                shared = f" (counted as '{limit.key}')" if limit.key != self.name else ""
                found = Refusal(f"'{self.label}' can be done at most {limit.describe()}{shared}", self.span, self.rule)
            elif what == "condition":
                assert self.condition is not None
                found = Refusal(self.why or f"'{self.label}' is not allowed now", self.condition.span, self.rule)
            else:
                p = self.params[0]
                found = Refusal(p.why or f"there is no legal choice for '{p.name}'", p.span, self.rule)
            self.refusals[what] = found
        return found


def split_costs(params: list[ParamInfo], cost: list[tuple[str, A.Expr]], to: dict[str, A.Expr | None]
                ) -> tuple[list[tuple[str, A.Expr]], list[tuple[str, A.Expr]], int | None]:
    """An action's cost entries as (those reading no parameter, paid first; those reading one, paid once every
    parameter is chosen; the last parameter a late entry reads, whose menu shows the prices).  An entry reads a
    parameter through its amount or its `pay_to` target (`to`)."""
    order = {p.name: k for k, p in enumerate(params)}
    reads = [max((order[n.id] for e in (amount, to.get(var)) if e is not None for n in e.walk()
                  if isinstance(n, A.Name) and n.id in order), default=None) for var, amount in cost]
    return ([c for c, k in zip(cost, reads) if k is None], [c for c, k in zip(cost, reads) if k is not None],
            max((k for k in reads if k is not None), default=None))


__all__ = ["ActionInfo", "ParamInfo", "split_costs"]
