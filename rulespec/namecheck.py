"""Names declared as mapping keys that rule text reads or messages quote (attributes, piece state, action
parameters, triggers, invariants, modifiers: issue 39.2), and the names `display:` refers to.

The checker's own pass covers the spec-level names (variables, zones, actions, ...); these are the names one
level further in.  Every one is matched in full against the identifier pattern, so a name with a trailing
newline, a control character or a space is a located error at its key (a `$` with `re.match` let "hp\\n" in).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .errors import Finding, Span, one_line
from .models import Spec
from .typing_rules import did_you_mean

Checker = Any  # checker._Checker; not imported: the checker imports this module

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # used with fullmatch only


def is_identifier(name: Any) -> bool:
    """Whether `name` is a name of the language: letters, digits and `_`, not starting with a digit, nothing else."""
    return isinstance(name, str) and IDENTIFIER.fullmatch(name) is not None


def _named_maps(m: Spec) -> list[tuple[str, tuple, dict]]:
    """(what, path, mapping) for every mapping whose keys are names, below the spec-level declarations."""
    out: list[tuple[str, tuple, dict]] = []
    for k, kind in m.components.pieces.items():
        out += [("attribute", ("components", "pieces", k, "attributes"), kind.attributes),
                ("state field", ("components", "pieces", k, "state"), kind.state)]
    for z, zone in m.components.zones.items():
        out += [("cell attribute", ("components", "zones", z, "cell_attributes"), zone.cell_attributes),
                ("edge attribute", ("components", "zones", z, "edge_attributes"), zone.edge_attributes)]
    for a, action in m.actions.items():
        out.append(("parameter", ("actions", a, "params"), action.params))
    out += [("trigger", ("triggers",), m.triggers), ("invariant", ("invariants",), m.invariants),
            ("modifier", ("modifiers",), m.modifiers)]
    return out


def name_findings(m: Spec, key: Callable[..., Span]) -> list[Finding]:
    """A located error for every name in those mappings that is not an identifier."""
    out = []
    for what, path, names in _named_maps(m):
        for name in names:
            if not is_identifier(name):
                out.append(Finding(key(*path, name), f"{what} '{one_line(str(name))}' is not a valid name (letters, "
                                   f"digits and _, not starting with a digit)"))
    return out


def display_checks(c: Checker) -> None:
    """`display:` names zones and player attributes: each must exist (a hook of the checker's flow pass)."""
    d = c.m.display
    for key in ("zones", "upside_down"):
        for i, item in enumerate(getattr(d, key) or []):
            _display_zone(c, key, i, item)
    for i, n in enumerate(d.player_info or []):
        if n not in c.ix.player_attrs:
            c.error(c.span("display", "player_info", i), f"'{n}' is not a per-player track, "
                    f"variable or zone" + did_you_mean(n, c.ix.player_attrs))


def _display_zone(c: Checker, key: str, i: int, item: str) -> None:
    """A display entry: a zone name, or `zone[k]` for seat k's copy of a per-player zone."""
    zones = c.m.components.zones
    name, _, rest = item.partition("[")
    keys = c.ix.families.get(name)
    if name not in zones:
        c.error(c.span("display", key, i), f"unknown zone '{name}'" + did_you_mean(name, zones))
    elif keys is not None:  # a `per:` family, or one of its zones
        if rest and (not rest.endswith("]") or rest[:-1] not in map(str, keys)):
            c.error(c.span("display", key, i), f"'{item}': zone '{name}' has no key '{rest[:-1]}'")
    elif rest and (not rest.endswith("]") or not rest[:-1].isdigit() or not zones[name].per_player):
        c.error(c.span("display", key, i),
                f"'{item}': use `zone[k]` with a seat number k, for a per-player zone only")
    elif key == "upside_down" and zones[name].type != "grid":
        c.error(c.span("display", key, i), f"'{name}' is not a grid: only grids can be drawn upside down")


__all__ = ["IDENTIFIER", "is_identifier", "name_findings", "display_checks"]
