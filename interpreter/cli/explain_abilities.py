"""`orrery explain`'s words for the abilities pieces carry (docs/dsl.md 2.23): each distinct ability once, in the
card's own words (`text`, else its description, else what it does), with how many pieces carry it.

Rows of a deck often share one ability (written once with a YAML anchor, or repeated): a reader wants the
ability and its count, not thirty copies.  The pieces table gives a kind's abilities in its details column,
and the glossary gives a quantity's `modify:` abilities among its modifiers (explain_quantities.py).
"""

from __future__ import annotations

from typing import Any, Callable

from orrery.rulespec.abilities_check import ability_sites

_KIND = (("on", "when {}"), ("modify", "changes {}"), ("play", "played: {}"))


def grouped(model: Any, kname: str | None, keep: Callable[[Any], bool], say: Callable[[tuple, Any], str]) -> list[tuple[str, str, int]]:
    """(kind, words, pieces) for each distinct ability kept, in order, `say(path, ability)` giving its words."""
    groups: dict[tuple[str, str], int] = {}
    for kind, path, a in ability_sites(model):
        if (kname is not None and kind != kname) or not keep(a):
            continue
        decl = model.components.pieces[kind]
        n = int((decl.instances or [])[path[4]].get("count", 1)) if "instances" in path else _pieces(decl)
        key = (kind, say(path, a))
        groups[key] = groups.get(key, 0) + n
    return [(kind, text, n) for (kind, text), n in groups.items()]


def _pieces(decl: Any) -> int:
    """How many pieces a kind's own abilities ride on."""
    if decl.instances:
        return sum(int(i.get("count", 1)) for i in decl.instances)
    return int(decl.count or 1)


def _words(path: tuple, a: Any) -> str:
    """The card's words, else the description, else the event or quantity it answers to."""
    said = a.text or a.description
    if said:
        return said.rstrip(".")
    if a.activate is not None:  # (an action its owner may take: core/activation.py's default label)
        when = f", during {' or '.join(a.during)}" if a.during else ""
        return f"its owner may {a.activate.label or 'use it'} {_how_often(a.limit)}{when}"
    for key, form in _KIND:
        value = getattr(a, key)
        if value is not None:
            return form.format(value if isinstance(value, str) else ", ".join(value))
    return "an ability"


def _how_often(limit: Any) -> str:
    """`at any time`, or how often each piece may be used (`once per round`, `2 times per game`)."""
    if limit is None:
        return "at any time"
    times = "once" if limit.times == 1 else f"{limit.times} times"
    return f"{times} per {limit.per}"


def abilities_text(model: Any, kname: str) -> str:
    """`Abilities: “...” (9 pieces); ...` for the pieces table, or '' for a kind whose pieces carry none."""
    found = grouped(model, kname, lambda a: True, _words)
    if not found:
        return ""
    return "Abilities: " + "; ".join(f"“{text}” ({n} piece{'' if n == 1 else 's'})" for _, text, n in found) + "."


__all__ = ["abilities_text", "grouped"]
