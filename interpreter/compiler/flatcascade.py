"""State triggers on the flat path (flatmodule.py): the cascade after each action, written over the flat layout.

`cascade(st)` is reference/effects.py's `_cascade` with `cascade_scan` written out for the spec's state
triggers (docs/dsl.md 6.2): each scan goes through every trigger in declaration order, its `for` domain
evaluated again, each binding whose `when` holds a candidate keyed (order key or 0, the trigger's position,
the binding's position in the domain); the smallest fires, one at a time, and the scans go on until none
matches.  `matched_at` (6.3b) is the scan in which a binding's match began, kept per (trigger, binding)
while it holds, forgotten when it stops holding or fires; `changed_at` reads the flat change stamps
(`st.ST`, kept where the spec reads them: flatstmts.stamp).  Each firing counts against the cascade limit
(past it the flat game stops: BAIL, and the general engine meets the limit and says so), and the scans
charge the loop count as the reference's evaluation does (counted high).

What this does not write the spec keeps on the general engine (FlatUnsupported, refused when the module is
made): triggers scoped to phases (`phase:`), `max_fires`, `caused_by`, `applies_when`, any spec that reads
causes (`cause`, `.cause`: the flat code keeps none), `settle` (flatstmts writes no such statement), listeners
of `cascade_end` (the flow refuses event triggers but game_start's), an effect that may ask (flatstmts writes
no statement that asks), order keys other than whole numbers or lists of them (and a mix of the two kinds,
which the reference cannot compare either), and a `for` domain whose items are not cells, pieces, seats,
numbers or texts (a binding is remembered by its value).
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A

from . import typepass as T
from .flatgen import FlatUnsupported
from .typepass import BPIECE, CELL, INT, PIECE, PLAYER, STR

_BINDINGS = (CELL, PIECE, BPIECE, PLAYER, INT, STR)  # items remembered by their flat value (one per general)


def _reads(node: Any, name: str) -> bool:
    return node is not None and any(isinstance(n, A.Name) and n.id == name for n in node.walk())


def reads_stamps(rules: Any) -> bool:
    """Whether any rule text calls the built-in `changed_at` (the flat code then stamps every change)."""
    if "changed_at" in rules.functions:
        return False
    roots = [*rules.spec.exprs.values(), *rules.spec.effects.values()]
    roots += [x for t in rules.triggers for x in (t.domain, t.when, t.order, t.effect) if x is not None]
    return any(isinstance(n, A.Call) and n.func == "changed_at" for root in roots for n in root.walk())


def refused(rules: Any) -> None:
    """Refuse the state triggers the flat cascade does not play (see the module doc)."""
    if rules.track_causes:
        raise FlatUnsupported("causes")
    for t in rules.state_triggers:
        if t.phases is not None or t.fires is not None or t.caused_by is not None or t.owner is not None:
            raise FlatUnsupported(f"the trigger '{t.name}''s scope, limit or cause")
        if t.when is None:
            raise FlatUnsupported(f"the trigger '{t.name}' without `when`")


def write_cascade(gen: Any) -> bool:
    """def trig_<i>(st[, binding][, matched_at]) per state trigger and def cascade(st); False: no state
    triggers (nothing written)."""
    triggers = gen.rules.state_triggers
    if not triggers:
        return False
    matched = any(_reads(t.order, "matched_at") or _reads(t.effect, "matched_at") for t in triggers)
    start = len(gen.lines)
    body: list[str] = []
    kinds: set[str] = set()
    calls = []
    for ti, t in enumerate(triggers):
        calls.append(_scan(gen, ti, t, matched, body, kinds))
    if len(kinds) > 1:  # (0 beside a list, or numbers beside lists: the reference's error, which it says)
        raise FlatUnsupported("order keys of different kinds")
    effects = gen.lines[start:]  # (the effects' functions were written there: kept, after the cascade)
    del gen.lines[start:]
    out = ["    st.cascade = 0", "    scan = 0"] + (["    first = {}"] if matched else []) + ["    while True:",
           "        scan += 1", "        best = None"] + (["        still = set()"] if matched else [])
    out += body
    if matched:  # (a match that stopped holding starts afresh if it comes back)
        out += ["        if len(first) > len(still):",
                "            first = {k: m for k, m in first.items() if k in still}"]
    out += ["        if best is None:", "            return",
            "        st.cascade += 1",
            "        if st.cascade > CASCADE_LIMIT or st.loops > LOOP_LIMIT:",
            "            raise BAIL",
            "        ti = best[1]"]
    if matched:
        out.append("        first.pop((ti, bv), None)  # (consumed: if it holds again later, it queues anew)")
    for ti, call in enumerate(calls):
        out.append(f"        {'if' if ti == 0 else 'elif'} ti == {ti}:")
        out.append(f"            {call}")
    gen.emit(0, "def cascade(st):")
    gen.prologue(out, 1)
    gen.lines.extend(out)
    gen.emit(0, "")
    gen.lines.extend(effects)
    return True


def _scan(gen: Any, ti: int, t: Any, matched: bool, body: list[str], kinds: set[str]) -> str:
    """One trigger's part of a scan (its candidates against `best`), written into `body`; the call that
    fires it."""
    frame: dict[str, tuple[str, str]] = {}
    params: list[tuple[str, str]] = []
    ind = "        "
    gen.scope = [frame]
    gen.take_charge()
    try:
        if t.var is not None:
            dom_t = gen.typeof(t.domain)
            if not T.is_list(T.strip(dom_t)) or T.optional(dom_t) or T.settled(T.elem(dom_t)) not in _BINDINGS:
                raise FlatUnsupported(f"the `for` of the trigger '{t.name}'")
            elem_t = T.elem(dom_t)
            dom = gen.expr(t.domain)
            dom_charge = gen.take_charge()
            v = f"l_{t.var}"
            frame[t.var] = (v, elem_t)
            params.append((t.var, T.settled(elem_t)))
        when = gen.cond(t.when)
        when_charge = gen.take_charge()
        if matched:
            frame["matched_at"] = ("m", INT)
            params.append(("matched_at", INT))
        key = "0"
        if t.order is not None:
            kt = gen.typeof(t.order)
            if kt == INT:
                kinds.add("int")
            elif T.is_list(kt) and T.elem(kt) == INT:
                kinds.add("list")
            else:
                raise FlatUnsupported(f"the order of the trigger '{t.name}'")
            key = gen.expr(t.order)
        else:
            kinds.add("int")
        order_charge = gen.take_charge()
    finally:
        gen.scope = []
    mkey = f"({ti}, {v})" if t.var is not None else f"({ti}, None)"
    if t.var is not None:
        charge = f"{dom_charge} + {when_charge} * len(dom)" if when_charge else f"{dom_charge}" if dom_charge else ""
        body.append(f"{ind}dom = {dom}")
        if charge:
            body.append(f"{ind}st.loops += {charge}")
        body.append(f"{ind}for i, {v} in enumerate(dom):")
        inner = ind + "    "
    else:
        if when_charge:
            body.append(f"{ind}st.loops += {when_charge}")
        inner = ind
    body.append(f"{inner}if {when}:")
    inner += "    "
    if matched:
        body.append(f"{inner}still.add({mkey})")
        body.append(f"{inner}m = first.setdefault({mkey}, scan)")
    if order_charge:
        body.append(f"{inner}st.loops += {order_charge}")
    body.append(f"{inner}k = ({key}, {ti}, {'i' if t.var is not None else 0})")
    body.append(f"{inner}if best is None or k < best:")
    bind = f"best, bv{', bm' if matched else ''} = k, {v if t.var is not None else 'None'}{', m' if matched else ''}"
    body.append(f"{inner}    {bind}")
    gen.function(f"trig_{ti}", t.effect, params)
    args = (["bv"] if t.var is not None else []) + (["bm"] if matched else [])
    return f"trig_{ti}(st{''.join(', ' + a for a in args)})"


__all__ = ["reads_stamps", "refused", "write_cascade"]
