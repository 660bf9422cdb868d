"""Type declarations of data: records with typed fields, lists, rows of tables, closed sets of words.

One normal form, `TypeSpec`, stands for every way a spec writes a type (an attribute, a table's `row:`, a record's
field, a typed variable or parameter).  From it come

- the static type the checker works with (`static_type`, strings as in typing_rules: ``record:KEY`` names a
  schema of fields, ``str:SET`` a word of a set);
- the check of a YAML value against it (`check_value`: every problem with the path inside the value);
- the inferred type of untyped data (`infer`), so that a table's rows or a constant's record are checked too;
- the runtime value of YAML data (interpreter/core/data.py walks the same TypeSpec).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any, Callable

from .models import AttrDecl, Spec

SCALAR_TYPES = {"int": "int", "str": "str", "bool": "bool", "player": "player", "dir": "str", "list": "list",
                "record": "record", "any": "any"}
DIRECTIONS = frozenset({"N", "NE", "E", "SE", "S", "SW", "W", "NW"})
# Types a variable may also declare (its value at run time: a piece, a cell).
VARIABLE_ONLY = {"piece": "piece", "cell": "cell"}


@dataclass(frozen=True)
class TypeSpec:
    """A type in normal form; `kind` is a scalar type name, or list, record, words, enum or row."""

    kind: str
    item: "TypeSpec | None" = None  # list: the items' type (None: any)
    fields: tuple[tuple[str, "TypeSpec"], ...] | None = None  # record: its fields (None: any fields)
    words: tuple[str, ...] = ()  # words: the set's words
    values: tuple[Any, ...] = ()  # enum: the allowed values
    name: str = ""  # words: the set's name; enum: the attribute's name; row: the table
    default: Any = None
    has_default: bool = False

    def field(self, key: str) -> "TypeSpec | None":
        """A record field's type, or None."""
        return dict(self.fields or ()).get(key)


ANY = TypeSpec("any")
Problem = tuple[tuple, str]  # (path inside the declaration or value, message)


class Declarations:
    """Turns declarations into TypeSpecs, knowing the spec's `names:` sets and tables."""

    def __init__(self, m: Spec):
        self.sets = m.names
        self.tables = m.tables
        self.problems: list[Problem] = []

    def spec(self, decl: Any, path: tuple = (), label: str = "") -> TypeSpec:
        """The TypeSpec of a declaration; problems with the declaration are added to `problems` at `path`."""
        if isinstance(decl, str):
            return self._named(decl, path, label)
        if isinstance(decl, list):
            return TypeSpec("enum", values=tuple(decl), name=label)
        if not isinstance(decl, AttrDecl):
            return ANY
        d, dflt = decl.default, "default" in decl.model_fields_set
        if decl.record is not None:
            fields = tuple((k, self.spec(v, path + ("record", k), k)) for k, v in decl.record.items())
            return TypeSpec("record", fields=fields, name=label, default=d, has_default=dflt)
        if decl.list_ is not None:
            return TypeSpec("list", item=self.spec(decl.list_, path + ("list",), label), default=d, has_default=dflt)
        if decl.row is not None:
            table = self.tables.get(decl.row)
            if table is None:
                self.problems.append((path + ("row",), f"unknown table '{decl.row}'" + did_you_mean(decl.row, self.tables)))
            elif table.row is None:
                self.problems.append((path + ("row",), f"table '{decl.row}' declares no `row:` fields, so its "
                                                       f"entries are not records of a known shape"))
            return TypeSpec("row", name=decl.row, default=d, has_default=dflt)
        base = self._named(decl.type, path + ("type",), label)
        if decl.values is not None:
            return TypeSpec("enum", values=tuple(decl.values), name=label, default=d, has_default=dflt)
        return TypeSpec(base.kind, item=base.item, words=base.words, name=base.name, default=d, has_default=dflt)

    def _named(self, name: str, path: tuple, label: str = "") -> TypeSpec:
        if name in SCALAR_TYPES or name in VARIABLE_ONLY:
            return TypeSpec(name, name=label)
        if name in self.sets:
            return TypeSpec("words", words=tuple(self.sets[name]), name=name)
        known = list(SCALAR_TYPES) + list(self.sets)
        self.problems.append((path, f"unknown type '{name}'" + did_you_mean(name, known)
                              + f"; a type is one of {', '.join(SCALAR_TYPES)} or a `names:` set"))
        return ANY


# ------------------------------------------------------------------ values


def check_value(ts: TypeSpec, v: Any, rows: Callable[[str], Any], path: tuple = ()) -> list[Problem]:
    """Every way a YAML value does not fit a type, with its path inside the value (none fits everything).

    `rows(table)` gives a table's values, for `row` types (written as the row's key)."""
    if v is None or ts.kind == "any":
        return []
    k = ts.kind
    if k == "enum":
        if any(type(v) is type(x) and v == x for x in ts.values):
            return []
        words = [x for x in ts.values if isinstance(x, str)]
        return [(path, f"{v!r} is not a value of '{ts.name}' (one of: {', '.join(map(str, ts.values))})"
                 + (did_you_mean(v, words) if isinstance(v, str) else ""))]
    if k == "words":
        if isinstance(v, str) and v in ts.words:
            return []
        hint = did_you_mean(v, ts.words) if isinstance(v, str) else ""
        return [(path, f"{v!r} is not a {ts.name}{hint}; the words are {_listed(ts.words)}")]
    if k == "row":
        table = rows(ts.name)
        keys = list(table) if isinstance(table, dict) else list(range(len(table or [])))
        if isinstance(v, (str, int)) and not isinstance(v, bool) and (str(v) if isinstance(table, dict) else v) in keys:
            return []
        hint = did_you_mean(str(v), [str(x) for x in keys])
        return [(path, f"{v!r} is not a row of table '{ts.name}'{hint} (a row is written as its key)")]
    if k in ("int", "player"):
        ok = isinstance(v, int) and not isinstance(v, bool)
    elif k in ("str", "bool"):
        ok = type(v) is {"str": str, "bool": bool}[k]
    elif k == "dir":
        ok = v in DIRECTIONS
    elif k == "list":
        if not isinstance(v, list):
            return [(path, f"{_shown(v)} is not a list")]
        return [p for i, x in enumerate(v) if ts.item is not None for p in check_value(ts.item, x, rows, path + (i,))]
    elif k == "record":
        return _check_record(ts, v, rows, path)
    else:  # piece, cell: no YAML value can be one
        ok = False
    if ok:
        return []
    what = f"does not fit attribute '{ts.name}' ({_A.get(k, k)})" if ts.name else f"is not {_A.get(k, k)}"
    return [(path, f"{_shown(v)} {what}")]


def _check_record(ts: TypeSpec, v: Any, rows: Callable[[str], Any], path: tuple) -> list[Problem]:
    if not isinstance(v, dict):
        return [(path, f"{_shown(v)} is not a record (a mapping of fields)")]
    if ts.fields is None:
        return []
    fields = dict(ts.fields)
    out: list[Problem] = []
    for key in v:
        if key not in fields:
            out.append((path + (key, "__key__"), f"no field '{key}' in this record" + did_you_mean(str(key), fields)
                        + f" (its fields: {_listed(fields)})"))
    missing = [f for f, t in fields.items() if f not in v and not t.has_default]
    if missing:
        out.append((path, "missing field" + ("s " if len(missing) > 1 else " ") + ", ".join(f"'{f}'" for f in missing)))
    for key, x in v.items():
        if key in fields:
            out.extend(check_value(fields[key], x, rows, path + (key,)))
    return out


_A = {"int": "a whole number", "player": "a seat number", "str": "a text", "bool": "true or false",
      "dir": "a direction (N, NE, E, SE, S, SW, W, NW)", "piece": "a piece", "cell": "a cell"}


def _shown(v: Any) -> str:
    r = repr(v)
    return r if len(r) <= 40 else r[:37] + "..."


def _listed(words: Any) -> str:
    words = list(words)
    return ", ".join(map(str, words[:12])) + (", ..." if len(words) > 12 else "")


def did_you_mean(name: str, candidates: Any) -> str:
    """' (did you mean 'x'?)' for the closest candidate, or ''."""
    close = difflib.get_close_matches(str(name), sorted({str(c) for c in candidates}), n=1, cutoff=0.7)
    return f" (did you mean '{close[0]}'?)" if close else ""


# ------------------------------------------------------------------ inference


def infer(v: Any) -> TypeSpec:
    """The type of untyped YAML data: records by their keys, lists by their items (joined)."""
    if isinstance(v, bool):
        return TypeSpec("bool")
    if isinstance(v, int):
        return TypeSpec("int")
    if isinstance(v, str):
        return TypeSpec("str")
    if isinstance(v, list):
        item = None
        for x in v:
            if x is not None:
                item = infer(x) if item is None else join(item, infer(x))
        return TypeSpec("list", item=item)
    if isinstance(v, dict):
        return TypeSpec("record", fields=tuple((str(k), infer(x) if x is not None else ANY) for k, x in v.items()))
    return ANY


def join(a: TypeSpec | None, b: TypeSpec | None) -> TypeSpec:
    """A type both values have: records joined field by field (a field of either is a field of both)."""
    if a is None or b is None:
        return a or b or ANY
    if a == b:
        return a
    if a.kind == b.kind == "list":
        return TypeSpec("list", item=join(a.item, b.item) if a.item and b.item else None)
    if a.kind == b.kind == "record":
        if a.fields is None or b.fields is None:
            return TypeSpec("record")
        fa, fb = dict(a.fields), dict(b.fields)
        keys = list(fa) + [k for k in fb if k not in fa]
        return TypeSpec("record", fields=tuple((k, join(fa.get(k), fb.get(k))) for k in keys))
    if a.kind == b.kind and a.kind in SCALAR_TYPES:
        return TypeSpec(a.kind)
    return ANY


def infer_all(values: Any) -> TypeSpec | None:
    """The joined type of several values (None when there are none but nones)."""
    out = None
    for v in values:
        if v is not None:
            out = infer(v) if out is None else join(out, infer(v))
    return out


def holds_record(ts: TypeSpec | None) -> bool:
    """Whether a type is a record or a list (of lists...) of records."""
    while ts is not None and ts.kind == "list":
        ts = ts.item
    return ts is not None and ts.kind in ("record", "row")
