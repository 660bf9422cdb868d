"""The types of a spec's data (attributes, tables, names, constants, typed variables and parameters) and the
located findings about the data written in it.

`DataTypes` holds one TypeSpec per declaration (records.py) and the static type strings the checker uses for
them; `data_findings` checks every declaration and every value written against its type: piece instances, cell
values, table rows, constants, `names:` sets.  A problem deep inside a value is located at that value.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from .errors import Finding, Span
from .models import Spec
from .records import ANY, Declarations, TypeSpec, check_value, holds_record, infer, infer_all, join

_DESCRIBED = {"words": "a word", "row": "a row"}


@dataclass
class TypeNames:
    """Static type strings of TypeSpecs, with the record schemas and word sets they name."""

    schemas: dict[str, tuple[str, dict[str, str]]] = field(default_factory=dict)  # key -> (shown as, fields)
    sets: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)  # key -> (shown as, words)
    _keys: dict[Any, str] = field(default_factory=dict)

    def of(self, ts: TypeSpec | None, rows: "dict[str, TypeSpec | None]") -> str:
        """The static type of a TypeSpec: ``record:KEY`` for a record with fields, ``str:SET`` for a word."""
        if ts is None:
            return "any"
        k = ts.kind
        if k == "list":
            inner = self.of(ts.item, rows) if ts.item is not None else "any"
            return "list" if inner == "any" else f"list:{inner}"
        if k == "record":
            return "record" if ts.fields is None else self._schema(ts, rows)
        if k == "row":
            return f"record:row {ts.name}" if rows.get(ts.name) is not None else "record"
        if k == "words":
            self.sets.setdefault(ts.name, (f"a {ts.name}", ts.words))
            return f"str:{ts.name}"
        if k == "enum":
            kinds = {type(v) for v in ts.values}
            if kinds == {str}:
                key = f"#{ts.name}:" + ",".join(ts.values)
                self.sets.setdefault(key, (f"a value of '{ts.name}'", tuple(ts.values)))
                return f"str:{key}"
            return "int" if kinds == {int} else "any"
        return {"dir": "str"}.get(k, k)

    def _schema(self, ts: TypeSpec, rows: "dict[str, TypeSpec | None]") -> str:
        key = self._keys.get((ts.name, ts.fields))
        if key is None:
            key = self._keys[(ts.name, ts.fields)] = f"#{len(self._keys) + 1}"
            self.schemas[key] = ("", {})  # registered first: a field of its own type terminates
            shown = f"a '{ts.name}' record" if ts.name else f"a record with fields {', '.join(f for f, _ in ts.fields)}"
            self.schemas[key] = (shown, {f: self.of(t, rows) for f, t in ts.fields})
        return f"record:{key}"

    def row_schema(self, table: str, ts: TypeSpec, rows: "dict[str, TypeSpec | None]") -> None:
        """The schema named ``row TABLE``: the fields of a table's rows."""
        self.schemas[f"row {table}"] = (f"a row of table '{table}'", {f: self.of(t, rows) for f, t in ts.fields or ()})

    def fields(self, t: str) -> dict[str, str] | None:
        """The fields of a record type with a schema (None for other types)."""
        if not t.startswith("record:"):
            return None
        found = self.schemas.get(t[len("record:"):])
        return found[1] if found else None

    def shown(self, t: str) -> str | None:
        """How a record type with a schema, or a word of a set, is described in messages."""
        for prefix, table in (("record:", self.schemas), ("str:", self.sets)):
            if t.startswith(prefix) and t[len(prefix):] in table:
                return table[t[len(prefix):]][0]
        return None

    def words(self, t: str) -> tuple[str, ...] | None:
        """The words of a word type ``str:SET`` (None for other types)."""
        found = self.sets.get(t[4:]) if t.startswith("str:") else None
        return found[1] if found else None


@dataclass
class DataTypes:
    """Every declared (or inferred) type of a spec's data."""

    decls: Declarations
    kind_attrs: dict[str, dict[str, TypeSpec]] = field(default_factory=dict)
    cell_attrs: dict[str, dict[str, TypeSpec]] = field(default_factory=dict)
    edge_attrs: dict[str, dict[str, TypeSpec]] = field(default_factory=dict)  # graph -> its edges' attributes
    rows: dict[str, TypeSpec | None] = field(default_factory=dict)  # table -> its entries' type
    variables: dict[str, TypeSpec] = field(default_factory=dict)
    params: dict[tuple[str, str], dict[str, TypeSpec]] = field(default_factory=dict)  # (kind, name) -> typed params
    constants: dict[str, TypeSpec] = field(default_factory=dict)  # the YAML-valued constants
    names: TypeNames = field(default_factory=TypeNames)

    def static(self, ts: TypeSpec | None) -> str:
        """The checker's type string of a TypeSpec."""
        return self.names.of(ts, self.rows)


def build_types(m: Spec) -> DataTypes:
    """The TypeSpecs of every declaration of a validated model (problems with them: `dt.decls.problems`)."""
    dt = DataTypes(Declarations(m))
    d = dt.decls
    for name, table in m.tables.items():  # rows first: attributes typed {row: T} refer to them
        if table.row is not None:
            dt.rows[name] = TypeSpec("record", fields=tuple(
                (f, d.spec(decl, ("tables", name, "row", f), f)) for f, decl in table.row.items()))
        else:
            values = table.values.values() if isinstance(table.values, dict) else table.values
            dt.rows[name] = infer_all([*values, table.default])
    for kname, kind in m.components.pieces.items():
        attrs = {a: d.spec(decl, ("components", "pieces", kname, "attributes", a), a)
                 for a, decl in kind.attributes.items()}
        attrs.update({a: d.spec(decl, ("components", "pieces", kname, "state", a), a)  # (an instance may set
                      for a, decl in kind.state.items() if a not in attrs})             # a state's start value)
        if not kind.unlimited:  # untyped records and lists: their shape is that of the data written
            for a, ts in attrs.items():
                if ts.kind in ("any", "record", "list") and ts.fields is None and ts.item is None:
                    seen = infer_all(inst.get(a) for inst in kind.instances or [])
                    if holds_record(seen) and (ts.kind == "any" or seen.kind == ts.kind):
                        attrs[a] = seen
        dt.kind_attrs[kname] = attrs
    for zname, zone in m.components.zones.items():
        dt.cell_attrs[zname] = {a: d.spec(decl, ("components", "zones", zname, "cell_attributes", a), a)
                                for a, decl in zone.cell_attributes.items()}
        dt.edge_attrs[zname] = {a: d.spec(decl, ("components", "zones", zname, "edge_attributes", a), a)
                                for a, decl in zone.edge_attributes.items()}
    for name, var in m.variables.items():
        dt.variables[name] = d.spec(var.type, ("variables", name, "type"), name)
    for group, decls in (("functions", m.functions), ("procedures", m.procedures)):
        for name, decl in decls.items():
            dt.params[(group, name)] = {p: d.spec(t, (group, name, "params", i, p), p)
                                        for i, (p, t) in enumerate(_typed(decl.params))}
    for name, value in m.constants.items():
        if not isinstance(value, str):  # a text is an expression, typed by the checker
            ts = infer(value)
            dt.constants[name] = replace(ts, name=name) if ts.kind == "record" else ts
    for name, ts in dt.rows.items():
        if ts is not None and ts.kind == "record" and m.tables[name].row is not None:
            dt.names.row_schema(name, ts, dt.rows)
    return dt


def _typed(params: list) -> list[tuple[str, Any]]:
    return [next(iter(p.items())) for p in params if isinstance(p, dict) and len(p) == 1]


def joined_attr(dt: DataTypes, attr: str, cells: bool = False) -> str | None:
    """The static type of an attribute over every kind (or zone) declaring it; None when none does."""
    out = None
    for attrs in (dt.cell_attrs if cells else dt.kind_attrs).values():
        if attr in attrs:
            t = dt.static(attrs[attr])
            out = t if out is None or out == t else ("list" if out.startswith("list") and t.startswith("list")
                                                      else "any")
    return out


# ------------------------------------------------------------------ findings


def data_findings(m: Spec, dt: DataTypes, span: Callable[..., Span], key: Callable[..., Span]) -> list[Finding]:
    """Problems with declarations and with the values written in the spec, each located."""
    out = [Finding(_where(path, span, key), msg) for path, msg in dt.decls.problems]
    rows = _rows_of(m)

    def check(ts: TypeSpec, value: Any, path: tuple) -> None:
        for sub, msg in check_value(ts, value, rows):
            out.append(Finding(_where(path + sub, span, key), msg))

    for name, words in m.names.items():
        seen: set[str] = set()
        if not words:
            out.append(Finding(span("names", name), f"the set '{name}' has no words"))
        for i, w in enumerate(words):
            if w in seen:
                out.append(Finding(span("names", name, i), f"'{w}' is twice in the set '{name}'"))
            seen.add(w)
    for kname, kind in m.components.pieces.items():
        attrs = dt.kind_attrs.get(kname, {})
        ids: dict[str, int] = {}
        for i, inst in enumerate(kind.instances or []):
            p = ("components", "pieces", kname, "instances", i)
            for attr, value in inst.items():
                if attr in ("count", "id", "abilities"):  # (abilities: abilities_check.py)
                    continue
                if attr not in attrs:
                    from .records import did_you_mean
                    out.append(Finding(key(*p, attr), f"piece kind '{kname}' declares no attribute '{attr}'"
                                       + did_you_mean(attr, list(attrs) + ["count", "id"])))
                else:
                    check(attrs[attr], value, p + (attr,))
            _unique_id(inst.get("id"), i, ids, p, f"piece kind '{kname}'", span, out)
        for attr, ts in attrs.items():
            if ts.has_default:
                check(ts, ts.default, ("components", "pieces", kname, "attributes", attr, "default"))
        out += _unvalued(kname, kind, attrs, key)
    for zname, zone in m.components.zones.items():
        attrs = dt.cell_attrs.get(zname, {})
        for label, values in zone.cells.items():
            for attr, value in values.items():
                if attr in attrs:
                    check(attrs[attr], value, ("components", "zones", zname, "cells", label, attr))
        eattrs = dt.edge_attrs.get(zname, {})
        for i, edge in enumerate(zone.edges or []):  # (edges written as records; unknown names: zonekeys.py)
            for attr, value in ({} if isinstance(edge, list) else edge.model_extra or {}).items():
                if attr in eattrs:
                    check(eattrs[attr], value, ("components", "zones", zname, "edges", i, attr))
    for name, table in m.tables.items():
        ts = dt.rows.get(name)
        if table.row is not None and ts is not None:
            entries = table.values.items() if isinstance(table.values, dict) else enumerate(table.values)
            for k, v in entries:
                check(ts, v, ("tables", name, "values", k))
        if isinstance(table.values, list):
            ids = {}
            for i, v in enumerate(table.values):
                if isinstance(v, dict):
                    _unique_id(v.get("id"), i, ids, ("tables", name, "values", i), f"table '{name}'", span, out)
    return out


# types whose none is surely a slip: arithmetic, tests and comparisons on them fail or mislead
_VALUED = frozenset({"int", "bool", "str", "words", "enum"})


def _unvalued(kname: str, kind: Any, attrs: dict[str, TypeSpec], key: Callable[..., Span]) -> list[Finding]:
    """A warning for each counted piece that starts with no value for an attribute typed int, bool, text or a set
    of words: an instance row that gives none while the declaration has no `default:` (the piece holds none)."""
    out = []
    for attr, ts in attrs.items():
        if ts.has_default or ts.kind not in _VALUED:
            continue
        for i, inst in enumerate(kind.instances or []):
            if attr not in inst:
                out.append(Finding(key("components", "pieces", kname, "instances", i),
                                   f"this '{kname}' gives no '{attr}' and the attribute has no default: "
                                   f"the piece holds none, not a {_NOUN.get(ts.kind, ts.kind)}", "warning",
                                   f"give '{attr}' here, or a `default:` in the kind's attributes"))
    return out


_NOUN = {"int": "number", "bool": "true/false", "str": "text", "words": "word", "enum": "value"}


def _unique_id(ident: Any, i: int, seen: dict[str, int], path: tuple, owner: str, span: Callable[..., Span],
               out: list[Finding]) -> None:
    """Row ids are unique within their list: a variant path names a row by it."""
    if ident is None:
        return
    if str(ident) in seen:
        out.append(Finding(span(*path, "id"), f"{owner} has two rows with id '{ident}' (items {seen[str(ident)]} "
                                              f"and {i}); ids name rows for variants and must be unique"))
    seen.setdefault(str(ident), i)


def _rows_of(m: Spec) -> Callable[[str], Any]:
    def rows(table: str) -> Any:
        t = m.tables.get(table)
        return t.values if t is not None else {}
    return rows


def _where(path: tuple, span: Callable[..., Span], key: Callable[..., Span]) -> Span:
    if path and path[-1] == "__key__":
        return key(*path[:-1])
    return span(*path)


__all__ = ["ANY", "DataTypes", "TypeNames", "build_types", "data_findings", "join", "joined_attr"]
