"""Per-piece state that goes back to its default when a turn, phase or round ends (`state: {reset: ...}`).

A state field lives in the piece's attributes like any other value, so views (each zone's visibility),
digests, clones and saves carry it with no code of their own; only the reset is done here, called by both
flows (engine/flowframe.py, compiler/flowgen.py) when a scope ends, for specs that declare resets.
"""

from __future__ import annotations

from typing import Any

from .valueops import values_equal


def reset_state(it: Any, scope: str) -> None:
    """Put back the default of every `reset: scope` field of every piece whose value differs."""
    resets = it.r.state_resets.get(scope)
    if not resets:
        return
    s = it.s
    for pid, kind in enumerate(s.kinds):
        fields = resets.get(kind)
        if fields is None:
            continue
        attrs = s.attrs[pid]
        for name, default in fields.items():
            value = attrs.get(name)
            if not (value is default or values_equal(value, default)):
                s.set_attr(pid, name, default)
