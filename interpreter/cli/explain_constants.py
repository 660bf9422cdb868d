"""The "Constants" section of `orrery explain`: the named values the rules use, and what the rules require of
them (`requires:`), so that a rule reading `p.score >= end_points` can be looked up.

Kept apart from explain.py (near its size limit); it uses the same context (`_Ctx`: the spec and a phraser).
"""

from __future__ import annotations

from typing import Any


def constants_section(c: Any) -> list[str]:
    """One line of constants (name = value; an expression as written) and one of requirements, under a heading."""
    m = c.model
    if not m.constants and not m.requires:
        return []
    out = ["## Constants"]
    if m.constants:
        out.append("Named values the rules use (a variant changes each in one place): "
                   + "; ".join(f"{n} = {_shown(v)}" for n, v in m.constants.items()) + ".")
    if m.requires:
        out.append("The rules require that " + "; that ".join(r.message.rstrip(".") for r in m.requires)
                   + " (a variant that breaks this does not load).")
    return out


def _shown(v: Any) -> str:
    """A constant's value as a reader wants it: an expression as written, lists with slashes, a record's fields in
    parentheses."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, str):  # an expression, as written (quoted only where its operators would read as prose)
        return f"`{v}`" if any(op in v for op in ("==", "!=", "<=", ">=", "{", "}")) else v
    if isinstance(v, list):
        return "/".join(_shown(x) for x in v) if v else "none"
    if isinstance(v, dict):
        return "(" + ", ".join(f"{k} {_shown(x)}" for k, x in v.items()) + ")"
    return str(v)
