"""Can running a block refuse the move?  The statement analysis behind look-ahead.

Look-ahead ("can this option still be completed?") replays the game on a clone for every option of a
menu; it is only needed where something after the answer can refuse the move: a `require`, a `perform`
(its condition and cost), an empty mandatory `choose`, a full zone.  `Fallibility` answers that for a
block, following procedure calls, emitted events and the cascade to a fixed point.  `rules.may_fail`
(step menus) and `engine.fallible` (choice sites inside an action) both ask it.

A `choose` cannot come up empty when it is optional, when its domain always has items (core/guards.py: a
written list, a fixed board's cells, an adjacency's directions), or when it is the first statement of an
`if` or a `while` whose condition says its domain has an item (`len(D) > 0`, `size(D) > hand_limit`,
`any(C for x in D)` for `choose y from D where C`: core/guards.py).  Nothing runs between the test and the
choice, and the domain draws no random number, so it is the same domain.  An action's parameter likewise,
guarded by an earlier parameter's `where` (nothing runs between two parameters) or, for an action with no
cost paid before its parameters, by its `condition`.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A

from .guards import any_of, given, has_items, never_empty
from .suspends import solve_calls

FLOW_EVENTS = ("turn_end", "phase_end", "round_end", "round_start", "phase_start", "turn_start", "cascade_end")
_RANDOM = frozenset({"random_int", "shuffled"})


class Fallibility:
    """Per procedure, event and the cascade: can running it refuse the move?  Then per block and action."""

    def __init__(self, rules: Any):
        self.rules = rules
        self.capped = any(z.decl.capacity is not None for z in rules.zones.values())
        self.procs: dict[str, bool] = {name: False for name in rules.procedures}
        self.events: dict[str, bool] = {}
        self.cascade = False
        self.use = False  # can a `use` statement refuse the move (what a play runs)?
        self.safe_use: str | None = None  # a name whose `use NAME.play` is taken as safe (engine/fallible.py)
        self._plays: dict[int, bool] = {}
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
        # action's one parameter is not checked by the menu, rules.param_gated, so its menu may come up empty;
        # nor is the first of several parameters)
        params = action.params
        if self.capped or bool(action.late_cost) or self.block(action.effect) or self.tail:
            return True
        if len(params) == 1:
            return bool(action.cost) and not params[0].optional
        return any(self.param_may_be_empty(action, k) for k in range(len(params)))

    def param_may_be_empty(self, action: Any, k: int) -> bool:
        """Can the menu of the action's parameter k come up empty once the ones before it are chosen?"""
        p = action.params[k]
        if p.optional:
            return False
        if action.limit is not None and action.limit.each == p.name:
            return True  # (a limit counted for each value may leave the menu empty: `limit: {each: NAME}`)
        if never_empty(p.domain, p.where, self.rules):
            return False
        tests = [q.where for q in action.params[:k] if q.where is not None]
        if not action.cost and action.condition is not None:  # (a cost paid first changes the state)
            tests.append(action.condition)
        return not any(self.guards_items(t, p.name, p.domain, p.where) for t in tests)

    def block(self, block: A.Block | None) -> bool:
        """Can running this block refuse the move?"""
        return block is not None and self._stmts(block.body)

    def _stmts(self, body: tuple, prev: A.Stmt | None = None) -> bool:
        """Can running these statements (after `prev`) refuse the move?"""
        for s in body:
            if self.stmt(s) if not isinstance(s, A.If) else self._if_after(s, prev):
                return True
            prev = s
        return False

    def _if_after(self, node: A.If, prev: A.Stmt | None) -> bool:
        """An `if` right after a `choose X ... where W`: a branch whose condition is `X != none` knows that W held
        for X, and one whose condition is `X == K` knows the part of W that X == K leaves (core/guards.py
        `given`); nothing runs between the choice and the test, so either can guard the branch's first choice."""
        if not isinstance(prev, A.Choose) or prev.cond is None:
            return self.stmt(node)
        return (any(self._branch(c, b, given(c, prev.var, prev.cond)) for c, b in node.branches)
                or self.block(node.else_))

    def stmt(self, node: A.Stmt) -> bool:
        """Can running this statement refuse the move?"""
        if isinstance(node, (A.Require, A.Perform)):
            return True
        if isinstance(node, (A.Choose, A.Commit)):  # (a commit fails at its start when some menu is empty)
            return not node.optional and not never_empty(node.domain, node.cond, self.rules)
        if isinstance(node, A.While):
            return self._branch(node.cond, node.body)  # (the condition is tested before every round)
        if isinstance(node, (A.For, A.Repeat)):
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
            return self.use and not (isinstance(node.piece, A.Name) and node.piece.id == self.safe_use)
        if isinstance(node, (A.Move, A.Create, A.Draw)):
            return self.capped
        return False

    def _branch(self, cond: A.Expr, block: A.Block, known: A.Expr | None = None) -> bool:
        """A branch's block, whose first statement may be a choose that its condition (or what is `known` when
        the condition holds) guards."""
        body = block.body
        first = body[0] if body else None
        if isinstance(first, A.Choose) and (self.guards(cond, first) or known is not None and self.guards(known, first)):
            return self._stmts(body[1:], first)
        return self.block(block)

    def guards(self, cond: A.Expr, choose: A.Choose) -> bool:
        """Does `cond` holding mean that `choose` has a value to offer?"""
        return self.guards_items(cond, choose.var, choose.domain, choose.cond)

    def guards_items(self, cond: A.Expr, var: str, domain: A.Expr, where: A.Expr | None) -> bool:
        """Does `cond` holding mean that a choice of `var` from `domain` where `where` has a value to offer?"""
        if isinstance(cond, A.Binary) and cond.op == "and":
            return self.guards_items(cond.left, var, domain, where) or self.guards_items(cond.right, var, domain, where)
        if self.draws(domain) or (where is not None and self.draws(where)):
            return False
        if where is None:
            return has_items(cond, domain, self.rules)
        return any_of(cond, var, domain, where)

    def plays_safe(self, abilities: tuple) -> bool:
        """Does a piece carrying these abilities have a `play:` that `use` runs and none of whose parts
        (its calls, its empowered part) can refuse the move?"""
        found = self._plays.get(id(abilities))  # (the tuples are the Rules' own: core/abilities.py)
        if found is None:
            plays = [a for a in abilities if a.what == "play"]
            found = self._plays[id(abilities)] = bool(plays) and not any(
                self.block(a.do) or self.block(a.empowered_do) for a in plays)
        return found

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
