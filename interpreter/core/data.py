"""YAML data as runtime values: mappings become records (at any depth), seat numbers typed `player` become
players, and a `{row: T}` value written as a key becomes that row of table T.

The spec's data (table entries, piece instances, attribute defaults, cell values, constants) is turned into
values once, when the rules are built, so a nested mapping reads with `.field` and `["field"]` on both
engines alike.  Values are never changed in place, so one record may be shared by every state.
"""

from __future__ import annotations

from typing import Any, Callable

from orrery.rulespec.records import TypeSpec

from .values import Player, Record


def as_value(v: Any) -> Any:
    """Untyped YAML data as a runtime value: every mapping a record, every list a list of such values."""
    if isinstance(v, dict):
        return Record((str(k), as_value(x)) for k, x in v.items())
    if isinstance(v, list):
        return [as_value(x) for x in v]
    return v


def typed_value(ts: TypeSpec | None, v: Any, row: Callable[[str, Any], Any]) -> Any:
    """YAML data of a declared type as a runtime value; `row(table, key)` gives a table's converted row."""
    if v is None or ts is None:
        return as_value(v)
    k = ts.kind
    if k == "player":
        return Player(v) if v.__class__ is int else v
    if k == "row":
        return row(ts.name, v)
    if k == "list" and isinstance(v, list):
        return [typed_value(ts.item, x, row) for x in v]
    if k == "record" and isinstance(v, dict) and ts.fields is not None:
        out = Record()
        for name, field in ts.fields:
            if name in v:
                out[name] = typed_value(field, v[name], row)
            elif field.has_default:
                out[name] = typed_value(field, field.default, row)
        for name, x in v.items():  # (a checked spec has no other fields; an unchecked one keeps them)
            if name not in out:
                out[str(name)] = as_value(x)
        return out
    return as_value(v)
