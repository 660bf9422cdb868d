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

from ..core.decisions import Refusal
from ..core.values import PieceRef
from ..reference.costs import price_check, price_judge, reader
from .flow import DONE


class Fallible:
    """Per choice site (AST node id, or (action, parameter index)): (action, can something after it fail)."""

    def __init__(self, rules: Any):
        self.rules = rules
        self.base = base = rules.fallibility  # (core.fallibility: statements, calls, events, the cascade)
        self.stmt = base.stmt
        self.after: dict[Any, tuple[str, bool]] = {}
        # sites after which only a `use NAME.play` of the name the site chose can fail: NAME, by site
        self.plays_only: dict[Any, str] = {}
        self._names: dict[Any, str] = {}  # each site's name (parameter or choose variable), bound once, in no loop
        # parameter menus after which only the action's late cost can fail: the action, by site (`sure`
        # judges each option by its price instead of replaying it)
        self.priced: dict[Any, Any] = {}
        tail = base.events.get("action", False) or base.cascade
        for name, action in rules.actions.items():
            self._sites(name, action, tail, self.after, ())
            if base.use:
                self._through_use(name, action, tail)
            if action.cost_site is not None and self._only_price(action, tail):
                self.priced[(name, action.cost_site)] = action
        # step-menu actions judged by their one parameter's menu and its prices, not replayed (`step_verdict`)
        self.price_gated = {name for (name, k), action in self.priced.items() if self._menu_judged(action)}

    def _sites(self, name: str, action: Any, tail: bool, into: dict, loops: tuple) -> None:
        """Record every choice site of the action (its parameters, its effect's chooses) in `into`."""
        effect_fails = self.base.block(action.effect)
        for k in range(len(action.params)):
            later = any(self.base.param_may_be_empty(action, j) for j in range(k + 1, len(action.params)))
            # (a cost reading a parameter is paid once they are all chosen, and may be refused)
            into[(name, k)] = (name, later or effect_fails or tail or bool(action.late_cost))
            self._names.setdefault((name, k), action.params[k].name)
        self._walk(name, action.effect, tail, into, loops)

    def _only_price(self, action: Any, tail: bool) -> bool:
        """Is the late cost the only thing that can refuse the action once its cost site's parameter is chosen,
        and is its price then what the payment will find?  Nothing else runs before the payment but the later
        parameters' menus: they must not come up empty, nor draw a random number (nor read a quantity, whose
        modifiers are not followed here), so the random state at the payment is the menu's."""
        base, k = self.base, action.cost_site
        later = action.params[k + 1:]
        if tail or base.block(action.effect) or any(base.block(b) for b in action.pay_to.values()):
            return False
        if any(base.param_may_be_empty(action, j) for j in range(k + 1, len(action.params))):
            return False
        quantities = self.rules.quantities
        for p in later:
            for e in (p.domain, p.where):
                if e is not None and (base.draws(e) or any(
                        isinstance(n, A.Call) and n.func in quantities for n in e.walk())):
                    return False
        return True

    def _menu_judged(self, action: Any) -> bool:
        """Can a step menu judge this priced action by its parameter's menu and prices?  Its one parameter is
        the cost's (mandatory), no cost is paid before it and no limit is counted per value (nothing runs
        between the step menu's answer and the parameter's menu but the checks the step menu made), and the
        menu draws no random number nor reads a quantity (it is worked out once, on the step menu's state)."""
        params = action.params
        if len(params) != 1 or params[0].optional or action.cost or action.cost_site != 0:
            return False
        if action.limit is not None and action.limit.each is not None:
            return False
        p, quantities = params[0], self.rules.quantities
        return not any(e is not None and (self.base.draws(e) or any(
            isinstance(n, A.Call) and n.func in quantities for n in e.walk())) for e in (p.domain, p.where))

    def _through_use(self, name: str, action: Any, tail: bool) -> None:
        """Which sites could fail only through a `use` of the piece they chose: worked out again with each
        such name's plays taken as safe (the menu then checks each piece's own plays: `sure`)."""
        bound = _binders(action)
        sites = {site: var for site, var in self._names.items()
                 if self.after[site][0] == name and self.after[site][1] and bound.count(var) == 1}
        for var in set(sites.values()):
            self.base.safe_use = var
            try:
                safe: dict[Any, tuple[str, bool]] = {}
                self._sites(name, action, tail, safe, ())
            finally:
                self.base.safe_use = None
            self.plays_only.update({site: var for site, v in sites.items() if v == var and not safe[site][1]})

    def block(self, block: A.Block | None) -> bool:
        """Can running this block refuse the move?"""
        return self.base.block(block)

    def _walk(self, action: str, block: A.Block | None, rest: bool, into: dict, loops: tuple) -> None:
        """Record the sites in `block`; `rest`: can something after the block (in its context) fail?"""
        if block is None:
            return
        body = block.body
        for i, node in enumerate(body):
            after = rest or any(self.stmt(s) for s in body[i + 1:])
            if isinstance(node, A.Choose):
                into[id(node)] = (action, after)
                if not loops:  # (a choice in a loop binds its name again each round)
                    self._names.setdefault(id(node), node.var)
            elif isinstance(node, A.If):
                for _, b in node.branches:
                    self._walk(action, b, after, into, loops)
                self._walk(action, node.else_, after, into, loops)
            elif isinstance(node, (A.For, A.While, A.Repeat)):
                again = after or self.stmt(node)  # the body runs again after any of its statements
                if isinstance(node, A.For) and node.chooser is not None:
                    into[id(node)] = (action, again)
                self._walk(action, node.body, again, into, loops + (node,))

    def sure(self, decision: Any, pos: Any) -> Callable[[Any], bool | str | None] | None:
        """For a menu that needs look-ahead (at position `pos`): a judge of its answers without a replay, giving
        True (known to complete), a reason (known to be refused: the reason a replay would give) or a false
        value (not known: replayed); None: nothing known.  At a step menu, an action that cannot fail once
        chosen (`rules.may_fail`: its menu, if any, was checked when the step was offered), a priced action
        judged by its menu (`price_gated`: `step_verdict`, whose refusal is a Refusal) and, when nothing
        after an action can fail (`tail`), the step's `done`/`skip`.  At a choice after which only a `use` of
        the chosen piece can fail, a piece none of whose `play:` abilities can (core/fallibility.plays_fail).
        At the menu of a late cost's last parameter after which only that cost can fail (`priced`), every
        option, by its price (reference/costs.price_check)."""
        rules = self.rules
        if decision.kind == "action":
            done_sure = not self.base.tail
            plain = lambda v: (not rules.may_fail(v)) if v in rules.actions else done_sure and v == DONE  # noqa: E731
            gated = self.price_gated
            if not gated:
                return plain
            return lambda v: step_verdict(pos, rules.actions[v]) if v in gated else plain(v)
        site = decision.site
        if decision.kind != "choose" or site not in self.after or self.after[site][0] != decision.action:
            return None
        if site in self.plays_only:
            state, abilities, plays_safe = pos.s, rules.abilities, self.base.plays_safe
            return lambda v: v.__class__ is PieceRef and plays_safe(abilities.of(state.origin(v.id), state.kinds[v.id]))
        action = self.priced.get(site)
        if action is None or not pos.stack:
            return None
        frame = pos.stack[-1]
        if getattr(frame, "action", None) is not action or frame.k != site[1] or frame.me is None:
            return None  # (not the action's own frame asking: not judged)
        return price_check(pos.it, action, frame.env, action.params[site[1]].name, frame.me)

    def needs_lookahead(self, site: Any, action: str | None) -> bool | None:
        """Whether a choice at `site` inside the top action `action` needs look-ahead (None: not known here)."""
        found = self.after.get(site)
        if found is None:
            return None
        if found[0] != action:  # an action answered inside another (a window's answer, a `perform`): its own rest
            return True if found[1] else None  # may fail even when the outer one cannot (else: the outer's answer)
        return found[1]


def step_verdict(pos: Any, action: Any) -> bool | Refusal | None:
    """A step menu's priced action (Fallible.price_gated) judged as its replay would find it, without one, on the
    menu's state by an interpreter of its own.  True as soon as a value of its parameter's menu can be paid
    for (values are tried in the domain's order: any one that can be paid makes the replay complete); else,
    its whole menu known, the refusal the replay reports: the empty menu's (frames.ask_value's) or the last
    option's price (identical pieces merged, as the replay's menu is).  None: not known here (the option is
    replayed, and the replay raises any error; an error the `where` would raise past the first value that
    can be paid is met when the action is chosen, where its own menu is worked out).  The menu is not handed
    to the action: worked out in the action's own frame, its `where` leaves the parameter's name bound there
    as before (the frame's locals are in the position's digest, which a log checks at every step)."""
    s = pos.s
    look = reader(pos.it, s)
    p = action.params[0]
    env: dict[str, Any] = {"__rule__": action.rule}
    judge = price_judge(look, action, env, p.name, pos.it.current())
    rng = s.rng.state
    look.memo = {}  # (only expressions run here: pure functions may remember results, as a menu's filter does)
    values = []
    try:
        domain = look.iterate(look.ev(p.domain, env), p.domain.span)
        test = look.tester(p.where) if p.where is not None else None
        for value in domain:
            env[p.name] = value
            if test is None or test(env):
                got = judge(value)
                if got is True or got is None:
                    return got
                values.append(value)
    except Exception:  # noqa: BLE001 - not judged here: the replay raises it where the rules run
        return None
    finally:
        s.rng.state = rng
    if not values:
        return Refusal(p.why or f"there is no legal choice for '{p.name}'", p.span)
    last = values[-1]
    if len(values) > 1:
        last = look.options_for(values, False, False)[-1].value
    got = judge(last)
    return Refusal(got.message, got.span, got.rule)


def _binders(action: Any) -> list[str]:
    """Every name the action binds (parameters, and in its effect lets, loops, chooses, commits), as often as
    it is bound: a name bound once is the same value wherever the effect reads it."""
    names = [p.name for p in action.params]
    for node in action.effect.walk():
        if isinstance(node, (A.Choose, A.Commit, A.For)):
            names.append(node.var)
        elif isinstance(node, A.Let):
            names.append(node.name)
        elif isinstance(node, A.Assign) and isinstance(node.target, A.Name):
            names.append(node.target.id)
    return names


def fallible_of(rules: Any) -> Fallible:
    """The analysis of a Rules, made once and kept on it."""
    found = rules.__dict__.get("_fallible")
    if found is None:
        found = rules.__dict__["_fallible"] = Fallible(rules)
    return found
