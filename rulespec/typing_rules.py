"""Static types of the rule language, local scopes and an index of what a spec declares, for the checker.

Types are plain strings: int, bool, str, none, player, piece, cell, zone, list,
record, table, any.  A list may carry its element type after a colon
(``list:cell``, ``list:list:cell``) so that `for c in cells(board)` knows `c` is a
cell.  'any' means "unknown": the checker never reports an error about it.
"""

from __future__ import annotations

from .labels import parse_cell_label

import difflib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from . import ast as A
from .errors import Finding, Span, one_line
from .datacheck import DataTypes, build_types, joined_attr
from .models import AttrDecl, Spec, attr_values
from .signatures import FUNCTIONS, SPECIAL_NAMES
from .zonekeys import edge_findings, keyed_zone_findings, per_keys

# A player is a seat number at runtime (interpreter Player subclasses int), so
# arithmetic and `<` accept players as numbers; flagging them would be a false alarm.
NUMERIC = frozenset({"int", "player"})
# Types that can never hold pieces: `move x to 3` is always wrong.
NOT_PLACE = frozenset({"int", "bool", "str", "none", "list", "player", "piece", "table", "record", "zones", "cause"})
NOT_ITERABLE = frozenset({"int", "bool", "str", "none", "player", "piece", "table", "record", "cause"})

_DESCRIBE = {
    "int": "a number", "bool": "true/false", "str": "text", "none": "none", "player": "a player",
    "piece": "a piece", "cell": "a cell", "zone": "a zone", "list": "a list", "record": "a record",
    "table": "a table", "zones": "a family of zones (one per key)", "cause": "a cause", "any": "a value",
}

# Built-in attributes per runtime value type (interpreter Interp.get_attr).
BUILTIN_ATTRS: dict[str, dict[str, str]] = {
    "player": {"seat": "int", "name": "str", "passed": "bool", "next": "player"},
    "piece": {"kind": "str", "place": "any", "cell": "any", "id": "int"},
    "cell": {"x": "int", "y": "int", "label": "str", "pieces": "list:piece", "size": "int", "owner": "player",
             "zone": "zone"},
    "zone": {"size": "int", "pieces": "list:piece", "owner": "player", "name": "str", "key": "any", "width": "int",
             "height": "int"},
    # a cause record (docs/dsl.md 6.5): `cause` in a state trigger's effect, `event.cause`
    "cause": {"player": "player", "action": "str", "trigger": "str", "event": "str", "source": "any",
              "parent": "cause", "chain": "list:str", "id": "int", "origin": "int"},
}

_PIECE_BUILTINS = frozenset(BUILTIN_ATTRS["piece"])

# Events the flow engine emits itself; listening to them needs no `emit`.
BUILTIN_EVENTS = frozenset({"game_start", "round_start", "round_end", "phase_start", "phase_end", "turn_start",
                            "turn_end", "action", "cascade_end"})
# Fields of the `event` record that the engine fills in (emit adds its keyword arguments and `args`).
EVENT_FIELDS = frozenset({"name", "player", "args", "action", "round", "phase", "count", "values", "players",
                          "cause"})

# Sig.returns says only 'list'; these element types let loops over the result be checked precisely.
_RETURNS = {
    "cells": "list:cell", "adjacent": "list:cell", "line": "list:cell", "ray": "list:cell", "connected": "list:cell",
    "pieces": "list:piece", "players_from": "list:player", "range": "list:int", "dirs": "list:str",
    "lines": "list:list:cell", "groups": "list:list:cell", "top": "piece", "bottom": "piece",
    "path": "list:cell", "reachable": "list:cell", "edges_of": "list:record",
}
_SAME_LIST = frozenset({"sorted", "reversed", "shuffled", "unique"})
_ELEMENT = frozenset({"first", "last"})



def base(t: str) -> str:
    """The type without its element type: 'list:cell' -> 'list'."""
    return t.split(":", 1)[0]


def elem(t: str) -> str:
    """The element type of a list type, 'any' when unknown."""
    return t.split(":", 1)[1] if t.startswith("list:") else "any"


def list_of(t: str) -> str:
    """The type of a list whose items have type t."""
    return "list" if t == "any" else f"list:{t}"


def join(a: str, b: str) -> str:
    """The type of a value that is either a or b (a value or none has the value's type, so that the words it
    is compared with are still checked)."""
    if a == b or b == "none":
        return a
    if a == "none":
        return b
    if base(a) == base(b):
        return base(a)  # two lists, records or words of different sets
    return "any"


def describe(t: str) -> str:
    """A type in words, for messages: 'a number', 'text'."""
    return _DESCRIBE.get(base(t), "a value")


def known(t: str) -> bool:
    """True unless the type is unknown."""
    return base(t) != "any"


def value_type(v: Any) -> str:
    """The type of a literal or YAML value."""
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, str):
        return "str"
    if v is None:
        return "none"
    if isinstance(v, list):
        return "list"
    return "any"


def call_returns(func: str, arg_types: list[str]) -> str:
    """The result type of a built-in call given its argument types."""
    if func in _RETURNS:
        return _RETURNS[func]
    if func in _SAME_LIST and arg_types:
        return arg_types[0] if base(arg_types[0]) == "list" else "list"
    if func in _ELEMENT and arg_types:
        return elem(arg_types[0])
    if func in ("min", "max"):
        if len(arg_types) == 1:
            return elem(arg_types[0])
        if len(arg_types) == 2:
            return join(*arg_types)
    return FUNCTIONS[func].returns if func in FUNCTIONS else "any"


# Non-number operand types an operator accepts when both sides have it, and how to say what it needs.
_PAIRS: dict[str, tuple[tuple[str, ...], str]] = {
    "+": (("str", "list"), "numbers, two texts or two lists"),
    **{op: (("str",), "numbers or two texts") for op in ("<", "<=", ">", ">=")},
}
_NOT_CONTAINER = NOT_ITERABLE - {"str", "record"}


def binary_problems(op: str, a: str, b: str) -> list[tuple[int, str]]:
    """Why `a op b` must fail at runtime, per operand (0 left, 1 right); empty when it may work."""
    if op in ("and", "or"):
        return [(i, f"'{op}' needs true/false, but this is {describe(t)}")
                for i, t in enumerate((a, b)) if known(t) and base(t) != "bool"]
    if op in ("==", "!="):
        # a number or a player never equals a text: `current == "X"` is always false (compare p.name instead)
        ba, bb = base(a), base(b)
        if {ba, bb} & NUMERIC and "str" in (ba, bb):
            num = a if ba in NUMERIC else b
            hint = "; compare its name (p.name) with a seat name" if base(num) == "player" else ""
            return [(1 if ba in NUMERIC else 0, f"'{op}' compares {describe(num)} with text, which are never "
                                                f"equal{hint}")]
        return []
    if op in ("in", "not in"):
        return [(1, f"'{op}' needs a list, text or place, but this is {describe(b)}")] if base(b) in _NOT_CONTAINER else []
    pairs, needs = _PAIRS.get(op, ((), "numbers"))
    alone = NUMERIC | set(pairs)
    ba, bb = base(a), base(b)
    if known(a) and ba not in alone:
        return [(0, f"'{op}' needs {needs}, but this is {describe(a)}")]
    if known(b) and bb not in alone:
        return [(1, f"'{op}' needs {needs}, but this is {describe(b)}")]
    if known(a) and known(b) and not ({ba, bb} <= NUMERIC or (ba == bb and ba in pairs)):
        return [(1, f"'{op}' needs {needs}, but this is {describe(b)}")]
    return []


def binary_type(op: str, a: str, b: str) -> str:
    """The result type of `a op b`."""
    if op == "+":
        ba, bb = base(a), base(b)
        if "list" in (ba, bb):
            return join(a, b) if ba == bb else "list"
        if "str" in (ba, bb):
            return "str"
        return "int" if {ba, bb} & NUMERIC else "any"  # two unknowns may be texts or lists as well
    return "int" if op in ("-", "*", "//", "%") else "bool"


def assign_problem(op: str, target: str, tt: str, value: str) -> tuple[int, str] | None:
    """Why `target op value` must fail or breaks the target's declared type: (0 target / 1 value, message)."""
    bt, bv = base(tt), base(value)
    if op == "=":
        if known(tt) and known(value) and bv != "none" and bt != bv and not {bt, bv} <= NUMERIC:
            return 1, f"'{target}' holds {describe(tt)}, but this is {describe(value)}"
    elif bt == "list" and op != "*=":
        return None  # list += item / list -= item
    elif known(tt) and bt not in NUMERIC:
        return 0, f"'{op}' needs a number or a list, but this is {describe(tt)}"
    elif bt in NUMERIC and known(value) and bv not in NUMERIC:  # an unknown target may be a list: anything goes
        return 1, f"'{op}' needs a number, but this is {describe(value)}"
    return None


parse_label = parse_cell_label  # one reading of labels for checker and interpreter


@dataclass
class SpecIndex:
    """What a spec declares, by name: the names expressions can use and the attributes values have."""

    globals: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (what it is, type)
    player_attrs: dict[str, str] = field(default_factory=dict)  # per-player vars, tracks, zones
    player_vars: set[str] = field(default_factory=set)  # the assignable ones
    piece_attrs: dict[str, str] = field(default_factory=dict)
    cell_attrs: dict[str, str] = field(default_factory=dict)
    record_fields: set[str] = field(default_factory=set)
    boards: set[str] = field(default_factory=set)  # grid and graph zones: pieces go into their cells
    families: dict[str, list] = field(default_factory=dict)  # `per:` zones -> their keys (None: unknown)
    dt: DataTypes | None = None  # the declared and inferred types of the spec's data (datacheck.py)

    @classmethod
    def build(cls, m: Spec) -> "SpecIndex":
        """Index a validated spec model (same name resolution as the interpreter's _global_names)."""
        ix = cls()
        ix.dt = dt = build_types(m)
        c = m.components
        ix.globals.update({n: ("piece kind", "str") for n in c.pieces})
        ix.globals.update({n: ("action", "str") for n in m.actions})
        ix.globals.update({n: ("end condition", "str") for n in m.end})
        ix.globals.update({n: ("table", f"table:{n}") for n in m.tables})
        ix.globals.update({n: ("names set", f"list:str:{n}") for n in m.names})
        ix.globals.update({n: ("constant", dt.static(t)) for n, t in dt.constants.items()})
        ix.globals.update({n: ("constant", "any") for n, v in m.constants.items() if isinstance(v, str)})
        for n, z in c.zones.items():
            if z.type in ("grid", "graph"):
                ix.boards.add(n)
            if z.per is not None:
                ix.families[n] = per_keys(m, z)
                ix.globals[n] = ("zone family", "zones")
            elif z.per_player:
                ix.player_attrs[n] = "zone"
            else:
                ix.globals[n] = ("zone", "zone")
        for n, t in c.tracks.items():
            ix._var(n, t.per_player, "int", "track")
        for n, v in m.variables.items():
            ix._var(n, v.per_player, dt.static(dt.variables[n]), "variable")
        ix.globals.update({n: ("special name", t) for n, (t, _) in SPECIAL_NAMES.items()})
        for k in c.pieces.values():
            for a in {**k.attributes, **k.state}:  # (state fields are typed with the attributes: datacheck)
                ix.piece_attrs[a] = joined_attr(dt, a) or "any"
        for z in c.zones.values():
            for a in z.cell_attributes:
                ix.cell_attrs[a] = joined_attr(dt, a, cells=True) or "any"
        for _, fields in dt.names.schemas.values():
            ix.record_fields |= set(fields)
        ix.record_fields |= EVENT_FIELDS
        ix.record_fields |= {"source", "target"}  # edges read as records (edge, edges_of, a walk's `edge`)
        for z in c.zones.values():
            ix.record_fields |= set(z.edge_attributes)
        for t in m.tables.values():  # rows that are mappings read as records: their keys are fields
            rows = t.values.values() if isinstance(t.values, dict) else t.values
            for row in rows:
                if isinstance(row, dict):
                    ix.record_fields |= {str(k) for k in row}
        return ix

    def add_record_fields(self, nodes: Iterable[A.Node]) -> None:
        """Fields records can have: keys of record literals and emit keywords (`create` keys are piece attributes)."""
        nodes = list(nodes)
        created = {id(n.attrs) for n in nodes if isinstance(n, A.Create) and n.attrs is not None}
        for n in nodes:
            if isinstance(n, A.Record) and id(n) not in created:
                self.record_fields |= {k for k, _ in n.items}
            elif isinstance(n, A.Emit):
                self.record_fields |= {k for k, _ in n.kwargs}

    def _var(self, name: str, per_player: bool, t: str, what: str) -> None:
        if per_player:
            self.player_attrs[name] = t
            self.player_vars.add(name)
        else:
            self.globals[name] = (what, t)

    def attrs_of(self, t: str) -> dict[str, str]:
        """Every attribute a value of known type t has, with its type."""
        fields = self.dt.names.fields(t) if self.dt is not None else None
        if fields is not None:
            return fields
        b = base(t)
        extra = {"player": self.player_attrs, "piece": self.piece_attrs, "cell": self.cell_attrs}.get(b, {})
        return {**BUILTIN_ATTRS.get(b, {}), **extra}

    def attr_type(self, t: str, name: str) -> str | None:
        """The type of `x.name` for x of type t, or None when no such attribute can exist."""
        b = base(t)
        if b == "record":
            if name == "cause":  # an event's cause (docs/dsl.md: causes)
                return "cause"
            fields = self.dt.names.fields(t) if self.dt is not None else None
            # a record with a schema has its fields; others come from emit arguments and literals: not tracked
            return "any" if fields is None else fields.get(name)
        if b != "any":
            return self.attrs_of(t).get(name)
        found = [self.attrs_of(k)[name] for k in BUILTIN_ATTRS if name in self.attrs_of(k)]
        if name in self.record_fields:
            found.append("any")
        if not found:
            return None
        return found[0] if all(f == found[0] for f in found) else "any"

    def all_attr_names(self) -> set[str]:
        """Every attribute name anything in this spec has (for did-you-mean hints)."""
        out = set(self.record_fields)
        for k in BUILTIN_ATTRS:
            out |= set(self.attrs_of(k))
        return out


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """' (did you mean 'x'?)' for the closest candidate, or ''."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.7)
    return f" (did you mean '{one_line(close[0])}'?)" if close else ""  # (a declared name may hold a newline)


class Scope:
    """Local names (with their types) visible at one point; blocks nest."""

    def __init__(self, parent: "Scope | None" = None, names: dict[str, str] | None = None):
        self.parent = parent
        self.names: dict[str, str] = dict(names or {})

    def child(self, names: dict[str, str] | None = None) -> "Scope":
        """A nested scope."""
        return Scope(self, names)

    def get(self, name: str) -> str | None:
        """The type of a visible local, or None."""
        s: Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all(self) -> set[str]:
        """Every visible local name."""
        return set(self.names) | (self.parent.all() if self.parent else set())


# ------------------------------------------------------- declared attribute values


def component_findings(m: Spec, span: Callable[..., Span], key: Callable[..., Span]) -> list[Finding]:
    """Values written in components: piece instances, grid/graph cells and graph edges fit their declarations."""
    out: list[Finding] = []  # (the values of instances and cells: datacheck.data_findings)
    for kname, kind in m.components.pieces.items():
        for name in kind.state:
            if name in kind.attributes:
                out.append(Finding(key("components", "pieces", kname, "state", name),
                                   f"piece kind '{kname}': state field '{name}' has the name of one of its "
                                   f"attributes; rename one of them",
                                   hint="attributes are what a piece is; state is what changes on it in play"))
            elif name in _PIECE_BUILTINS:
                out.append(Finding(key("components", "pieces", kname, "state", name),
                                   f"piece kind '{kname}': state field '{name}' has the name of a piece's "
                                   f"built-in attribute; rename it"))
    for zname, z in m.components.zones.items():
        zp = ("components", "zones", zname)
        if z.cells and z.type not in ("grid", "graph"):
            out.append(Finding(key(*zp, "cells"), f"zone '{zname}' is a {z.type}: only grids and graphs have cells"))
        for label, attrs in z.cells.items():
            out += _cell_entry(zname, z, label, attrs, zp + ("cells", label), span, key)
        out += edge_findings(zname, z, zp, span, key)
    out += keyed_zone_findings(m, span, key)
    return out


def _cell_entry(zname: str, z: Any, label: str, attrs: dict, path: tuple, span: Callable[..., Span],
                key: Callable[..., Span]) -> list[Finding]:
    out: list[Finding] = []
    if z.type == "graph" and label not in (z.nodes or []):
        out.append(Finding(key(*path), f"graph '{zname}' has no node '{label}'" + did_you_mean(label, z.nodes or [])))
    elif z.type == "grid":
        pos = parse_label(label)
        if pos is None:
            out.append(Finding(key(*path), f"'{label}' is not a cell label (column letters then row, e.g. 'c3')"))
        elif not z.unbounded and not (0 <= pos[0] < z.width and 0 <= pos[1] < z.height):
            out.append(Finding(key(*path), f"cell '{label}' is outside grid '{zname}' ({z.width}x{z.height})"))
    for attr in attrs:
        if attr not in z.cell_attributes:
            out.append(Finding(key(*path, attr), f"zone '{zname}' declares no cell attribute '{attr}'"
                               + did_you_mean(attr, z.cell_attributes)))
    return out
