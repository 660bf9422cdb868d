"""Zones keyed by a list (`per:`) and graph edges as records: reading the declarations, and their checks.

The interpreter (core/rules.py) and the checker both read `per:` keys and edges through these functions, so
that what validation accepts is exactly what the engine builds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .errors import Finding, Span
from .models import EdgeDecl, Spec, ZoneDecl
from .suggest import did_you_mean

Locate = Callable[..., Span]


def instance_name(zone: str, key: Any) -> str:
    """The name of one zone of a keyed family: `stack[moons]` (also how views and the screen show it)."""
    return f"{zone}[{key}]"


def constant_value(m: Spec, name: str) -> tuple[bool, Any]:
    """(found, value) of a spec constant as plain data (constants are declared under `constants:`)."""
    constants = getattr(m, "constants", None) or {}
    if name not in constants:
        return False, None
    value = constants[name]
    return True, getattr(value, "value", value)


def per_keys(m: Spec, decl: ZoneDecl) -> list[Any] | None:
    """The keys of a `per:` zone (None for any other zone, or when `per:` names no list)."""
    if decl.per is None:
        return None
    if isinstance(decl.per, list):
        return list(decl.per)
    found, value = constant_value(m, decl.per)
    return list(value) if found and isinstance(value, list) else None


@dataclass(frozen=True)
class Edge:
    """One declared edge: its nodes, whether it is one-way, and its attribute values (as written)."""

    a: str
    b: str
    directed: bool
    attrs: dict[str, Any]


def edges_of(decl: ZoneDecl) -> list[Edge]:
    """The edges of a graph declaration, in order, whichever way each is written."""
    out: list[Edge] = []
    for e in decl.edges or []:
        if isinstance(e, EdgeDecl):
            directed = decl.directed if e.directed is None else e.directed
            out.append(Edge(e.from_, e.to, directed, dict(e.model_extra or {})))
        elif len(e) == 2:
            out.append(Edge(e[0], e[1], decl.directed, {}))
    return out


# ------------------------------------------------------------------ checks


def keyed_zone_findings(m: Spec, span: Locate, key: Locate) -> list[Finding]:
    """`per:` keys that are missing, not texts or numbers, or not distinct."""
    out: list[Finding] = []
    for zname, z in m.components.zones.items():
        if z.per is None:
            continue
        zp = ("components", "zones", zname, "per")
        if z.visibility == "owner":  # (a hand's default): nobody owns a zone of a family
            out.append(Finding(span(*zp), f"zone '{zname}': nobody owns a zone of a per: family, so visibility "
                                          f"'owner' shows its pieces to nobody", "warning",
                               "write visibility: hidden (or public) to say so"))
        if isinstance(z.per, str):
            found, value = constant_value(m, z.per)
            if not found:
                known = getattr(m, "constants", None) or {}
                out.append(Finding(span(*zp), f"zone '{zname}': per: '{z.per}' is not a constant"
                                   + did_you_mean(z.per, known),
                                   hint="write the keys as a list (per: [red, blue]) or name a constant that "
                                        "holds one"))
                continue
            if not isinstance(value, list):
                out.append(Finding(span(*zp), f"zone '{zname}': per: the constant '{z.per}' is not a list",
                                   hint="per: needs the list of keys, one zone each"))
                continue
            keys, where = value, span(*zp)
        else:
            keys, where = z.per, None
        if not keys:
            out.append(Finding(span(*zp), f"zone '{zname}': per: needs at least one key"))
        seen: dict[str, int] = {}
        for i, k in enumerate(keys):
            at = where or span(*zp, i)
            if isinstance(k, bool) or not isinstance(k, (str, int)):
                out.append(Finding(at, f"zone '{zname}': a key must be a text or a number, got {k!r}"))
                continue
            if str(k) in seen:
                out.append(Finding(at, f"zone '{zname}': key {k!r} is listed twice (keys must differ, also as "
                                       f"text: 1 and \"1\" name the same zone)", hint="list each key once"))
            seen.setdefault(str(k), i)
    return out


def edge_findings(zname: str, z: ZoneDecl, zp: tuple, span: Locate, key: Locate) -> list[Finding]:
    """A graph's edges: two known nodes each, declared attributes (their values: datacheck.py), no edge twice."""
    out: list[Finding] = []
    nodes = set(z.nodes or [])
    seen: dict[tuple, int] = {}
    for i, e in enumerate(z.edges or []):
        ep = zp + ("edges", i)
        if isinstance(e, list):
            if len(e) != 2:
                out.append(Finding(span(*ep), f"an edge joins two nodes, got {len(e)}"))
            ends = [(j, n) for j, n in enumerate(e)]
        else:
            ends = [("from", e.from_), ("to", e.to)]
            for attr in e.model_extra or {}:
                if attr not in z.edge_attributes:
                    out.append(Finding(key(*ep, attr), f"graph '{zname}' declares no edge attribute '{attr}'"
                                       + did_you_mean(attr, list(z.edge_attributes) + ["from", "to", "directed"]),
                                       hint="declare it under edge_attributes:"))
        for j, node in ends:
            if node not in nodes:
                out.append(Finding(span(*ep, j), f"graph '{zname}' has no node '{node}'"
                                   + did_you_mean(str(node), nodes)))
        if len(ends) != 2:
            continue
        a, b = ends[0][1], ends[1][1]
        one_way = z.directed if isinstance(e, list) or e.directed is None else e.directed
        both = ("both",) + tuple(sorted((str(a), str(b))))
        mine = ("one", a, b) if one_way else both
        clashes = [mine, both] if one_way else [both, ("one", a, b), ("one", b, a)]
        first = next((seen[c] for c in clashes if c in seen), None)
        if first is not None:
            out.append(Finding(span(*ep), f"graph '{zname}' joins '{a}' and '{b}' twice (edge {first + 1} "
                                          f"already does); give each pair one edge",
                               hint="two one-way arrows, one each way, are written with directed: true on each"))
        else:
            seen[mine] = i
    return out
