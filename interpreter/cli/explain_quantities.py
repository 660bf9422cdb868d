"""`orrery explain`'s glossary entries for declared quantities and their modifiers (docs/dsl.md 2.10.3).

A quantity is read like a function (`toll(current, gate)`), so the glossary explains each one the rules
above name: its base, then every modifier of it in the order they apply (the author's description when
there is one), the rounding and the bounds.
"""

from __future__ import annotations

from typing import Any

_LAYER = {"set": "replaced", "add": "added to", "scale": "multiplied"}


def quantity_entries(c: Any, above: str) -> list[str]:
    """One glossary line per quantity named in the text above (`c` is explain's context)."""
    m = c.model
    out = []
    for name, q in m.quantities.items():
        if f"{name}(" not in above:
            continue
        base = c.value("quantities", name, "base", current="the current player")
        text = q.description.rstrip(".") + f": {base}" if q.description else base
        mods = [_modifier(c, n, d) for n, d in m.modifiers.items() if d.modify == name]
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


def _modifier(c: Any, name: str, d: Any) -> str:
    """`locks cost nothing` or `set to 0 when g.lock`."""
    if d.description:
        return d.description.rstrip(".")
    change = (f"set to {c.value('modifiers', name, 'set')}" if d.set is not None else
              f"add {c.value('modifiers', name, 'add')}" if d.add is not None else f"times {d.scale}")
    when = c.cond("modifiers", name, "when", current="the current player")
    return change + (f" when {when}" if when else "")


__all__ = ["quantity_entries"]
