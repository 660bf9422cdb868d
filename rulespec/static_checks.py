"""Expressions worked out once when the rules load: constants, `requires:`, a search bot's `heuristic_max`.

They read only what never changes (literals, zones and their sizes, cells, tables, constants), so one set of
checks serves them all (checknames.static_name_findings) and one evaluation, right after the constants
(interpreter/engine/constants.py), works them out for every game of the rules and both engines.

**Per-player zones.**  In such an expression there is no player, so a per-player zone is named alone:
`tray.width` and `tray.height` read the size it is declared with, the same for every player's copy.  Only those
two are read that way (its pieces belong to a game being played).
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .signatures import SPECIAL_NAMES
from .typing_rules import NUMERIC, Scope, describe

# Built-ins that read pieces or draw random numbers: a constant, evaluated once before the game, cannot use them.
STATE_BUILTINS = frozenset({"pieces", "empty", "size", "top", "bottom", "place_of", "zone_of", "changed_at", "count",
                            "random_int", "shuffled", "connected", "groups"})

SIZES = ("width", "height")


def static_scope(m: Any) -> Scope:
    """The names a static expression may use beyond the spec-level ones: every per-player zone, as a zone."""
    return Scope(None, {n: "zone" for n, z in m.components.zones.items() if z.per_player and z.per is None})


def per_player_zone_findings(c: Any, what: str, node: A.Node, scope: Scope) -> None:
    """A per-player zone named alone in a static expression reads only its `.width` or `.height`."""
    sized = {id(n.obj) for n in node.walk() if isinstance(n, A.Attr) and n.name in SIZES}
    for n in node.walk():
        if isinstance(n, A.Name) and scope.names.get(n.id) == "zone" and id(n) not in sized:
            c.error(n.span, f"{what} names the per-player zone '{n.id}' alone, which reads only its size here "
                            f"({n.id}.width, {n.id}.height): its pieces belong to a game being played")


def static_name_findings(c: Any, what: str, node: A.Node, later: set[str] | frozenset = frozenset()) -> None:
    """An expression worked out once from the rules alone (a constant's; `what` names it) reads only what never
    changes: no variable, track, special name, piece-reading built-in, spec function, player attribute, nor a
    constant declared after it (`later`)."""
    for n in node.walk():
        _static_name(c, what, n, later)


def _static_name(c: Any, what: str, n: A.Node, later: set[str] | frozenset) -> None:
    if isinstance(n, A.Name):
        kind = c.ix.globals.get(n.id, ("",))[0]
        if n.id in later:
            c.error(n.span, f"{what} uses '{n.id}', which is not declared above it",
                    "a constant may use only the constants above it")
        elif kind in ("track", "variable") or n.id in SPECIAL_NAMES:
            c.error(n.span, f"{what} reads '{n.id}', which belongs to a game being played, not to the "
                            f"rules; it is worked out once, from the rules alone",
                    "use a function or a variable instead")
    elif isinstance(n, A.Call) and (n.func in STATE_BUILTINS or n.func in c.m.functions):
        why = "draws random numbers or reads pieces" if n.func in STATE_BUILTINS else "is a spec function"
        c.error(n.span, f"{what} calls {n.func}(), which {why}; it is worked out once, before "
                        f"the game starts, from literals, zones, cells, tables and the constants above it",
                "use a function instead")
    elif isinstance(n, A.Attr) and n.name in c.ix.player_attrs:
        c.error(n.span, f"{what} reads '{n.name}', which belongs to a player and changes during the game")


def static_expr(c: Any, path: tuple, what: str) -> str | None:
    """Check the static expression at `path` (None when it is written as a plain value) and return its type."""
    node = c.spec.exprs.get(path)
    if node is None:
        return None
    scope = static_scope(c.m)
    static_name_findings(c, what, node)
    per_player_zone_findings(c, what, node, scope)
    return c.expr(node, scope)


def check_static(c: Any) -> None:
    """`requires:` conditions, and `bots.heuristic_max` written as an expression: worked out from the rules
    alone, a condition and a whole number."""
    for i, _ in enumerate(c.m.requires):
        what = f"requirement {i + 1}"
        t = static_expr(c, ("requires", i, "holds"), what)
        if t is not None and t not in ("bool", "any"):
            node = c.spec.exprs[("requires", i, "holds")]
            c.error(node.span, f"{what} must be true or false, but this is {describe(t)}",
                    "write a condition, e.g. `board.width == tray.width`")
    t = static_expr(c, ("bots", "heuristic_max"), "heuristic_max")
    if t is not None and t != "any" and t not in NUMERIC:
        node = c.spec.exprs[("bots", "heuristic_max")]
        c.error(node.span, f"heuristic_max must be a whole number, but this is {describe(t)}")
