"""Can running a block refuse the move?  The statement analysis behind look-ahead.

Look-ahead ("can this option still be completed?") replays the game on a clone for every option of a
menu; it is only needed where something after the answer can refuse the move: a `require`, a `perform`
(its condition and cost), an empty mandatory `choose`, a full zone.  `Fallibility` answers that for a
block, following procedure calls, emitted events and the cascade to a fixed point.  `rules.may_fail`
(step menus) and `engine.fallible` (choice sites inside an action) both ask it.

A `choose` cannot come up empty when its domain is a written list with no filter, when it is optional,
or when it is the first statement of an `if` whose condition says its domain has an item: `len(D) > 0`
(also `>= 1`, `count`, `size`, `not empty(D)`) for a choose from D with no `where`, or
`any(C for x in D)` for `choose x from D where C`.  Nothing runs between the test and the choice, and the
domain draws no random number, so it is the same domain.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A

from .suspends import solve_calls

FLOW_EVENTS = ("turn_end", "phase_end", "round_end", "round_start", "phase_start", "turn_start", "cascade_end")
_RANDOM = frozenset({"random_int", "shuffled"})
_SIZES = frozenset({"len", "count", "size"})


class Fallibility:
    """Per procedure, event and the cascade: can running it refuse the move?  Then per block and action."""

    def __init__(self, rules: Any):
        self.rules = rules
        self.capped = any(z.decl.capacity is not None for z in rules.zones.values())
        self.procs: dict[str, bool] = {name: False for name in rules.procedures}
        self.events: dict[str, bool] = {}
        self.cascade = False
        self.use = False  # can a `use` statement refuse the move (what a play runs)?
        self._draws: dict[str, bool] = {}
        solve_calls(self, rules, self.block)
        hooks = [getattr(ph, k) for ph in rules.phases for k in ("on_start", "on_end", "turn_start", "turn_end")]
        hooks += [rules.spec.effect("flow", "round_start"), rules.spec.effect("flow", "round_end")]
        # what runs after any action before the next question: its `action` event, the cascade, and the
        # flow's hooks and events up to the next menu
        self.tail = (self.events.get("action", False) or self.cascade
                     or any(self.events.get(e, False) for e in FLOW_EVENTS) or any(self.block(h) for h in hooks))

    def action_fails(self, action: Any) -> bool:
        """Can this action, once chosen from a step menu, still be refused (a later parameter, its effect,
        what follows it)?"""
        # (a cost that reads a parameter is paid once they are all chosen: it may refuse the move then; a priced
        # action's one parameter is not checked by the menu, rules.param_gated, so its menu may come up empty)
        return (len(action.params) > 1 or self.capped or bool(action.late_cost) or self.block(action.effect)
                or self.tail or bool(action.cost) and len(action.params) == 1 and not action.params[0].optional)

    def block(self, block: A.Block | None) -> bool:
        """Can running this block refuse the move?"""
        return block is not None and any(self.stmt(s) for s in block.body)

    def stmt(self, node: A.Stmt) -> bool:
        """Can running this statement refuse the move?"""
        if isinstance(node, (A.Require, A.Perform)):
            return True
        if isinstance(node, (A.Choose, A.Commit)):  # (a commit fails at its start when some menu is empty)
            return not node.optional and not never_empty(node.domain, node.cond)
        if isinstance(node, (A.For, A.While, A.Repeat)):
            return self.block(node.body)
        if isinstance(node, A.If):
            return any(self._branch(c, b) for c, b in node.branches) or self.block(node.else_)
        if isinstance(node, A.CallProc):
            return self.procs.get(node.name, True)
        if isinstance(node, A.Emit):
            return self.events.get(node.event, False)
        if isinstance(node, A.Settle):
            return self.cascade
        if isinstance(node, A.Use):
            return self.use
        if isinstance(node, (A.Move, A.Create, A.Draw)):
            return self.capped
        return False

    def _branch(self, cond: A.Expr, block: A.Block) -> bool:
        """A branch's block, whose first statement may be a choose that its condition guards."""
        body = block.body
        if body and isinstance(body[0], A.Choose) and self.guards(cond, body[0]):
            return any(self.stmt(s) for s in body[1:])
        return self.block(block)

    def guards(self, cond: A.Expr, choose: A.Choose) -> bool:
        """Does `cond` holding mean that `choose` has a value to offer?"""
        if isinstance(cond, A.Binary) and cond.op == "and":
            return self.guards(cond.left, choose) or self.guards(cond.right, choose)
        if self.draws(choose.domain) or (choose.cond is not None and self.draws(choose.cond)):
            return False
        if choose.cond is None:
            return _has_items(cond, choose.domain)
        return _any_of(cond, choose)

    def draws(self, expr: A.Expr) -> bool:
        """Does evaluating `expr` draw random numbers (directly, or in a spec function it calls)?"""
        for node in expr.walk():
            if isinstance(node, A.Call):
                if node.func in _RANDOM or self._function_draws(node.func):
                    return True
        return False

    def _function_draws(self, name: str) -> bool:
        found = self._draws.get(name)
        if found is None:
            self._draws[name] = False  # (a function cannot call itself: the checker refuses it)
            body = self.rules.functions.get(name, (None, None))[1]
            found = self._draws[name] = body is not None and self.draws(body)
        return found


def never_empty(domain: A.Expr, cond: A.Expr | None) -> bool:
    """A domain written as a list of items with no filter always offers something."""
    return cond is None and isinstance(domain, A.ListLit) and len(domain.items) > 0


def _has_items(cond: A.Expr, domain: A.Expr) -> bool:
    """`len(D) > 0`, `len(D) >= n` (n >= 1), the same with `count` or `size`, or `not empty(D)`."""
    if isinstance(cond, A.Unary) and cond.op == "not":
        inner = cond.operand
        return isinstance(inner, A.Call) and inner.func == "empty" and inner.args == (domain,) and not inner.kwargs
    if not (isinstance(cond, A.Binary) and cond.op in (">", ">=")):
        return False
    left, right = cond.left, cond.right
    if not (isinstance(left, A.Call) and left.func in _SIZES and left.args == (domain,) and not left.kwargs):
        return False
    if not (isinstance(right, A.Literal) and type(right.value) is int):
        return False
    return right.value >= (0 if cond.op == ">" else 1)


def _any_of(cond: A.Expr, choose: A.Choose) -> bool:
    """`any(C for x in D)` guarding `choose x from D where C`."""
    if not (isinstance(cond, A.Call) and cond.func == "any" and len(cond.args) == 1 and not cond.kwargs):
        return False
    gen = cond.args[0]
    if not (isinstance(gen, A.Comprehension) and len(gen.clauses) == 1):
        return False
    clause = gen.clauses[0]
    return (clause.var == choose.var and clause.iter == choose.domain and clause.cond is None
            and gen.elt == choose.cond)
