"""`orrery explain`'s glossary entries for declared quantities and their modifiers (docs/dsl.md 2.10.3).

A quantity is read like a function (`toll(current, gate)`), so the glossary explains each one the rules
above read: named in the text itself, or read inside a function, procedure or quantity that text names
(a fare read by `travel_cost(p, s)` counts: a reader of the glossary meets it there). Each entry gives
its base, then every modifier of it in the order they apply: the spec's own `modifiers:` and the
`modify:` abilities pieces carry (docs/dsl.md 2.23), with the pieces that carry them; then the rounding
and the bounds.
"""

from __future__ import annotations

import re
from typing import Any

from .explain_abilities import grouped
from .explain_prose import words

_LAYER = {"set": "replaced", "add": "added to", "scale": "multiplied"}
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def quantity_entries(c: Any, above: str) -> list[str]:
    """One glossary line per quantity read by the text above (`c` is explain's context)."""
    m = c.model
    read = _read_by(m, above)
    out = []
    for name, q in m.quantities.items():
        if name not in read:
            continue
        base = c.value("quantities", name, "base", current="the current player")
        text = q.description.rstrip(".") + f": {base}" if q.description else base
        mods = [_modifier(c, ("modifiers", n), d) for n, d in m.modifiers.items() if d.modify == name]
        mods += _carried(c, name)
        if mods:
            order = ", then ".join(_LAYER[layer] for layer in q.layers)
            text += f"; it is {order} by the modifiers in force ({'; '.join(mods)})"
        rounding = {"down": "rounded down", "up": "rounded up", "nearest": "rounded to the nearest (halves up)"}
        text += f", {rounding[q.round]} once"
        bounds = [f"at least {c.value('quantities', name, 'min')}" if q.min is not None else None,
                  f"at most {c.value('quantities', name, 'max')}" if q.max is not None else None]
        text += "".join(f", {b}" for b in bounds if b)
        out.append(f"- `{name}({', '.join(q.params)})`: {text}.")
    return out


def _read_by(m: Any, above: str) -> set[str]:
    """The functions and quantities the text names, and every one read inside them or the procedures it names."""
    bodies: dict[str, str] = {n: f.expr or "" for n, f in m.functions.items()}
    bodies.update({n: " ".join(str(x) for x in (q.base, q.min, q.max) if x is not None)
                   for n, q in m.quantities.items()})
    todo = [n for n in bodies if f"{n}(" in above]
    todo += [n for n, p in m.procedures.items() if f"“{words(n)}”" in above]
    bodies.update({n: p.effect or "" for n, p in m.procedures.items()})
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += [n for n in _CALL.findall(bodies.get(name, "")) if n in bodies and n not in seen]
    return seen


def _carried(c: Any, quantity: str) -> list[str]:
    """The `modify:` abilities of pieces that change the quantity, alike ones once, with their pieces' count."""
    found = grouped(c.model, None, lambda a: a.modify == quantity, lambda path, a: _modifier(c, path, a))
    return [f"{text} (carried by {n} {words(kind)} piece{'' if n == 1 else 's'})" for kind, text, n in found]


def _modifier(c: Any, path: tuple, d: Any) -> str:
    """`locks cost nothing` or `set to 0 when g.lock`: the author's words (a card's text) when there are some."""
    said = getattr(d, "text", None) or d.description
    if said:
        return said.rstrip(".")
    change = (f"set to {c.value(*path, 'set')}" if d.set is not None else
              f"add {c.value(*path, 'add')}" if d.add is not None else f"times {d.scale}")
    when = c.cond(*path, "when", current="the current player")
    return change + (f" when {when}" if when else "")


__all__ = ["quantity_entries"]
