"""Which choices need look-ahead: can anything that runs after this choice, inside its action, fail?

Look-ahead ("can this option still be completed?") runs the game forward on a clone for every option;
it is only needed where a later `require`, an empty mandatory choice, a full zone or a performed action
can refuse the move.  core.fallibility says what can (rules.may_fail asks it per action); this answers it
per choice site: a `choose` over a fixed list with nothing fallible after it (most chains of choices)
needs none.

Sites are the chooses and chosen-order loops written in an action's own effect, and its parameters.
A choose inside a procedure or a trigger has no entry (the driver falls back on the action's answer).
What runs after a site: the rest of every enclosing block, a whole enclosing loop body again (a loop
can come back to statements before the site), the later parameters, then the `action` event's
triggers and the cascade the action sets off.
"""

from __future__ import annotations

from typing import Any, Callable

from orrery.rulespec import ast as A

from .flow import DONE


class Fallible:
    """Per choice site (AST node id, or (action, parameter index)): (action, can something after it fail)."""

    def __init__(self, rules: Any):
        self.rules = rules
        self.base = base = rules.fallibility  # (core.fallibility: statements, calls, events, the cascade)
        self.stmt = base.stmt
        self.after: dict[Any, tuple[str, bool]] = {}
        tail = base.events.get("action", False) or base.cascade
        for name, action in rules.actions.items():
            effect_fails = base.block(action.effect)
            for k in range(len(action.params)):
                later = any(base.param_may_be_empty(action, j) for j in range(k + 1, len(action.params)))
                # (a cost reading a parameter is paid once they are all chosen, and may be refused)
                self.after[(name, k)] = (name, later or effect_fails or tail or bool(action.late_cost))
            self._walk(name, action.effect, tail)

    def block(self, block: A.Block | None) -> bool:
        """Can running this block refuse the move?"""
        return self.base.block(block)

    def _walk(self, action: str, block: A.Block | None, rest: bool) -> None:
        """Record the sites in `block`; `rest`: can something after the block (in its context) fail?"""
        if block is None:
            return
        body = block.body
        for i, node in enumerate(body):
            after = rest or any(self.stmt(s) for s in body[i + 1:])
            if isinstance(node, A.Choose):
                self.after[id(node)] = (action, after)
            elif isinstance(node, A.If):
                for _, b in node.branches:
                    self._walk(action, b, after)
                self._walk(action, node.else_, after)
            elif isinstance(node, (A.For, A.While, A.Repeat)):
                again = after or self.stmt(node)  # the body runs again after any of its statements
                if isinstance(node, A.For) and node.chooser is not None:
                    self.after[id(node)] = (action, again)
                self._walk(action, node.body, again)

    def sure(self, decision: Any) -> Callable[[Any], bool] | None:
        """For a menu that needs look-ahead: which of its answers are known to complete without a replay
        (None: none known).  At a step menu, an action that cannot fail once chosen (`rules.may_fail`: its
        menu, if any, was checked when the step was offered) and, when nothing after an action can fail
        (`tail`), the step's `done`/`skip`."""
        if decision.kind != "action":
            return None
        rules, done_sure = self.rules, not self.base.tail
        return lambda v: (not rules.may_fail(v)) if v in rules.actions else done_sure and v == DONE

    def needs_lookahead(self, site: Any, action: str | None) -> bool | None:
        """Whether a choice at `site` inside the top action `action` needs look-ahead (None: not known here)."""
        found = self.after.get(site)
        if found is None:
            return None
        if found[0] != action:  # an action answered inside another (a window's answer, a `perform`): its own rest
            return True if found[1] else None  # may fail even when the outer one cannot (else: the outer's answer)
        return found[1]


def fallible_of(rules: Any) -> Fallible:
    """The analysis of a Rules, made once and kept on it."""
    found = rules.__dict__.get("_fallible")
    if found is None:
        found = rules.__dict__["_fallible"] = Fallible(rules)
    return found
