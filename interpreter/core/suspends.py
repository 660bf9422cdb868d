"""Which statements and blocks may suspend (ask a player something), worked out once per spec.

A statement that cannot suspend runs straight through the ordinary statement functions (compiled or
interpreted); only those that may suspend become frames of the resumable stack.  The analysis is a
fixpoint over procedures (`call`), events (`emit` and the events the engine raises itself) and
cascades (`settle`): a call may suspend when the procedure's body may, and so on.
"""

from __future__ import annotations

from typing import Any, Callable

from orrery.rulespec import ast as A

_ENGINE_EVENTS = ("action", "cascade_end", "game_start", "round_start", "round_end", "phase_start", "phase_end",
                  "turn_start", "turn_end")


def solve_calls(owner: Any, rules: Any, block: Callable[[A.Block | None], bool], windows: bool = False) -> None:
    """Set `owner.procs` (per procedure), `owner.events` (per event), `owner.cascade` and `owner.use` (a `use`
    statement) to `block` of their bodies, growing them until nothing changes: a call, an emit or a settle
    reads the others (through `owner`, as `block` does while they grow).  `windows`: the question is "may it
    ask?", so an event a reaction window follows counts as true (it asks its players), and so do an event
    whose owners choose the order of their triggers or of their pieces' abilities and a `use` that may offer
    an empowered part."""
    ab = rules.abilities
    chosen = {e for e in ab.on_blocks if _owner_chooses(rules, e)} if ab is not None and windows else set()
    while True:
        before = (dict(owner.procs), dict(owner.events), owner.cascade, owner.use)
        for name, (_, body) in rules.procedures.items():
            owner.procs[name] = block(body)
        for event, triggers in rules.event_triggers.items():
            owner.events[event] = any(block(t.effect) for t in triggers)
        if windows:  # a window asks its players; an owner may be asked which trigger resolves next
            for event in rules.windows_after:
                owner.events[event] = True
            for event, order in rules.owned_events.items():
                owned = sum(t.owner is not None for t in rules.event_triggers[event])
                owner.events[event] = owner.events[event] or (order == "owner_chooses" and owned > 1)
        if ab is not None:  # pieces' abilities run after the triggers (core/abilities.py)
            for event, bodies in ab.on_blocks.items():
                owner.events[event] = owner.events.get(event, False) or event in chosen or any(map(block, bodies))
            owner.use = (windows and ab.empowered) or any(map(block, ab.play_blocks))
        owner.cascade = (any(block(t.effect) for t in rules.state_triggers)
                         or owner.events.get("cascade_end", False))
        if (owner.procs, owner.events, owner.cascade, owner.use) == before:
            return


def _owner_chooses(rules: Any, event: str) -> bool:
    decl = rules.spec.model.events.get(event)
    return decl is not None and decl.order == "owner_chooses"


class Suspends:
    """The ids of the AST statements and blocks that may suspend, for one Rules."""

    def __init__(self, rules: Any):
        self.rules = rules
        self.procs: dict[str, bool] = {name: False for name in rules.procedures}
        self.events: dict[str, bool] = {}
        self.cascade = False
        self.use = False  # may a `use` statement ask (an empowered part, or a play that asks)?
        self.ids: set[int] = set()
        self.no: set[int] = set()  # blocks found not to suspend (outside the roots)
        self._solve()

    def _solve(self) -> None:
        """Grow the sets until nothing changes (calls, events and cascades refer to each other)."""
        r = self.rules
        solve_calls(self, r, self._block, windows=True)
        self.ids = set()
        roots = [body for _, body in r.procedures.values()] + [t.effect for t in r.triggers]
        roots += [a.effect for a in r.actions.values()]
        for block in roots:
            self._mark(block)

    def _block(self, block: A.Block | None) -> bool:
        return block is not None and any(self._stmt(s) for s in block.body)

    def _stmt(self, node: A.Stmt) -> bool:
        if isinstance(node, (A.Choose, A.Commit, A.Perform, A.Open)):
            return True
        if isinstance(node, A.For):
            return node.chooser is not None or self._block(node.body)
        if isinstance(node, A.If):
            return any(self._block(b) for _, b in node.branches) or self._block(node.else_)
        if isinstance(node, (A.While, A.Repeat)):
            return self._block(node.body)
        if isinstance(node, A.CallProc):
            return self.procs.get(node.name, False)
        if isinstance(node, A.Emit):
            return self.events.get(node.event, False)
        if isinstance(node, A.Settle):
            return self.cascade
        if isinstance(node, A.Use):
            return self.use
        return False

    def _mark(self, block: A.Block | None) -> bool:
        """Record the statements and blocks under `block` that may suspend; whether `block` may."""
        if block is None:
            return False
        any_ = False
        for stmt in block.body:
            inner = False
            if isinstance(stmt, A.If):
                for _, b in stmt.branches:
                    inner = self._mark(b) or inner
                inner = self._mark(stmt.else_) or inner
            elif isinstance(stmt, (A.For, A.While, A.Repeat)):
                inner = self._mark(stmt.body)
            if inner or self._stmt(stmt):
                self.ids.add(id(stmt))
                any_ = True
        if any_:
            self.ids.add(id(block))
        return any_

    def block(self, block: A.Block | None) -> bool:
        """May running this block ask a player something? (Blocks outside the spec's roots are analysed here.)"""
        if block is None:
            return False
        key = id(block)
        if key in self.ids:
            return True
        if key in self.no:
            return False
        if self._block(block):
            self._mark(block)
            return True
        self.no.add(key)
        return False

    def event(self, name: str) -> bool:
        """May emitting this event ask a player something?"""
        return self.events.get(name, False)


def suspends_of(rules: Any) -> Suspends:
    """The analysis of a Rules, made once and kept on it."""
    found = rules.__dict__.get("_suspends")
    if found is None:
        found = rules.__dict__["_suspends"] = Suspends(rules)
    return found
