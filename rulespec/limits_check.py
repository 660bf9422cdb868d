"""Static checks of use limits (`limit:` on actions, `max_fires:` on triggers, `uses(key)` reads) and costs.

A limit's counter is named by its `key` (default: the action's or trigger's own name).  One key is one
counter, so every limit naming it must agree on `times` and `per`; an action's uses and a trigger's
firings are never the same counter.  `uses(KEY)` must name a counter that some limit declares.  A limit
counted for each value of a parameter (`each`) names one of its action's parameters, and is read with the
value, `uses(KEY, PLAYER, VALUE)`.  A cost's
amount may not draw random numbers: a menu shows the price it computes, and the price paid must be it.
"""

from __future__ import annotations

from typing import Any, Callable

from . import ast as A
from .errors import Finding, Span
from .suggest import did_you_mean

Locate = Callable[..., Span]


class _Source:
    """One `limit:`/`max_fires:` declaration: what declares it, its counter and where it is written."""

    def __init__(self, what: str, name: str, decl: Any, path: tuple):
        self.what, self.name, self.decl, self.path = what, name, decl, path
        self.key = decl.key or name


def limit_findings(spec: Any, span: Locate, key_span: Locate) -> list[Finding]:
    """Every problem of the spec's limits and `uses()` reads, located."""
    m = spec.model
    sources = [_Source("action", n, a.limit, ("actions", n, "limit")) for n, a in m.actions.items()
               if a.limit is not None]
    sources += [_Source("trigger", n, t.max_fires, ("triggers", n, "max_fires")) for n, t in m.triggers.items()
                if t.max_fires is not None]
    out: list[Finding] = _each_findings(m, sources, span)
    first: dict[str, _Source] = {}
    for src in sources:
        where = span(*src.path, "key") if src.decl.key else key_span(*src.path)
        seen = first.setdefault(src.key, src)
        if seen is src:
            continue
        if seen.what != src.what:
            out.append(Finding(where, f"the counter '{src.key}' would count both the uses of action(s) and the "
                                      f"firings of trigger(s) ({seen.what} '{seen.name}', {src.what} '{src.name}'); "
                                      f"a firing is never a use", "error",
                               "give the trigger's `max_fires` a key of its own"))
        elif (seen.decl.each is None) != (src.decl.each is None):
            out.append(Finding(where, f"the counter '{src.key}' is counted for each value of a parameter by one of "
                                      f"its actions and as one count by another ({seen.what} '{seen.name}')",
                               "error", "give both an `each`, or neither, or different keys"))
        elif (seen.decl.times, seen.decl.per) != (src.decl.times, src.decl.per):
            out.append(Finding(where, f"the counter '{src.key}' is {_shown(src.decl)} here but {_shown(seen.decl)} "
                                      f"for {seen.what} '{seen.name}': one key is one count, with one limit",
                               "error", "give both the same `times` and `per`, or different keys"))
    performed: set[str] = set()
    reads: list[A.Call] = []
    for root in [*spec.exprs.values(), *spec.effects.values()]:  # (one walk of the rule text for both)
        for n in root.walk():
            if n.__class__ is A.Perform:
                performed.add(n.action)
            elif n.__class__ is A.Call and n.func == "uses" and n.args:
                reads.append(n)
    if sources:
        out += _performed_only(spec, key_span, performed)
    out += _reads(spec, {s.key: s for s in sources}, reads)
    return out


def _each_findings(m: Any, sources: list[_Source], span: Locate) -> list[Finding]:
    """`each:` names a parameter of the limited action (a trigger has none)."""
    out = []
    for src in sources:
        each = src.decl.each
        if each is None:
            continue
        params = m.actions[src.name].params if src.what == "action" else {}
        if src.what != "action":
            out.append(Finding(span(*src.path, "each"), f"`each` counts an action's parameter, and trigger "
                                                        f"'{src.name}' has none", "error", "leave `each` out"))
        elif each not in params:
            known = ", ".join(params) or "none"
            out.append(Finding(span(*src.path, "each"), f"`each: {each}` names no parameter of action "
                                                        f"'{src.name}' (its parameters: {known})"
                               + did_you_mean(each, params), "error"))
    return out


def _shown(decl: Any) -> str:
    return f"{decl.times} per {decl.per}"


def _performed_only(spec: Any, key_span: Locate, performed: set[str]) -> list[Finding]:
    """A limit on an action that no step offers but some `perform` runs: a `perform` neither checks nor counts
    it (an action nothing runs is reported as never offered)."""
    m = spec.model
    offered = {a for ph in m.flow.phases for st in ph.steps for a in st.actions}
    offered |= {a for ph in m.flow.phases for a in ph.free_actions}
    return [Finding(key_span("actions", n, "limit"), f"action '{n}' is only ever performed, and a `perform` "
                                                     f"neither checks nor counts its limit", "warning",
                    "offer it at a step, or check `uses(...)` in its condition")
            for n, a in m.actions.items() if a.limit is not None and n in performed and n not in offered]


def _reads(spec: Any, keys: dict[str, _Source], reads: list[A.Call]) -> list[Finding]:
    """`uses(KEY)` with a literal key (or an action's name) that no limit counts."""
    out: list[Finding] = []
    actions = spec.model.actions
    for node in reads:
        arg = node.args[0]
        if isinstance(arg, A.Literal) and isinstance(arg.value, str):
            key = arg.value
        elif isinstance(arg, A.Name) and arg.id in actions:
            key = arg.id
            if key not in keys and actions[key].limit is not None:
                out.append(Finding(arg.span, f"action '{key}' counts its uses under "
                                             f"'{actions[key].limit.key}', not '{key}'", "error",
                                   f'write uses("{actions[key].limit.key}")'))
                continue
        elif isinstance(arg, A.Literal):
            out.append(Finding(arg.span, "uses() needs a counter's key, a text such as \"rest\" (or an "
                                         "action's name)", "error"))
            continue
        else:
            continue  # (a key computed at run time is checked when it is read)
        if key not in keys:
            out.append(Finding(arg.span, f"no limit counts uses under '{key}'" + did_you_mean(key, keys), "error",
                               "a counter is declared by `limit: {times: N, per: SCOPE, key: NAME}` on an action"))
        elif (keys[key].decl.each is not None) != (len(node.args) == 3):
            each = keys[key].decl.each
            out.append(Finding(node.span, f"the counter '{key}' is counted for each value of '{each}': name the "
                                          f"value, uses(\"{key}\", PLAYER, VALUE)" if each is not None else
                               f"the counter '{key}' is one count, not one per value: uses(\"{key}\", PLAYER)",
                               "error"))
    return out


def cost_findings(spec: Any, calls: Any) -> list[Finding]:
    """A random draw in a cost's amount (directly, or through the spec's functions: `calls` is the CallGraph)."""
    out = []
    for name, decl in spec.model.actions.items():
        for var in decl.cost:
            node = spec.expr("actions", name, "cost", var)
            for call in (n for n in node.walk() if isinstance(n, A.Call)) if node is not None else ():
                drawn = calls.draws(call.func)
                if drawn is not None:
                    through = "" if drawn == call.func else f" (through '{call.func}')"
                    out.append(Finding(call.span, f"a cost may not draw random numbers: {drawn}(){through}; the "
                                                  f"menu shows the price it computes", "error",
                                       "draw the number in the effect instead"))
    return out


__all__ = ["cost_findings", "limit_findings"]
