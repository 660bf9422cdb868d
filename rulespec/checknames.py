"""Checked names and constants: the checker's part that knows `names:` sets and `constants:`.

A value typed by a set of words (a `names:` set, or an attribute's enumerated texts) can only ever equal one of
its words, so a text literal compared with it, looked for among such values, assigned or passed where one is
expected must be one of them: `has_power(p, "Nmae")` is a located error with a did-you-mean, not a condition
that is silently never true.  Constants are never assigned or shadowed; a constant's expression is evaluated
once, before the game starts, so it may read only what never changes.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from . import ast as A
from .records import did_you_mean
from .static_checks import per_player_zone_findings, static_name_findings, static_scope
from .signatures import FUNCTIONS, KEYWORDS
from .typing_rules import BUILTIN_ATTRS, NUMERIC, Scope, base, describe, elem, known


def literal_words(node: A.Expr) -> list[A.Literal]:
    """The text literals a value is written with: the literal itself, or a list literal's text items."""
    if isinstance(node, A.Literal) and isinstance(node.value, str):
        return [node]
    if isinstance(node, A.ListLit):
        return [x for x in node.items if isinstance(x, A.Literal) and isinstance(x.value, str)]
    return []


def check_words(c: Any, t: str | None, node: A.Expr, lists: bool = False) -> None:
    """Each text literal of `node` where a word of type `t` is expected must be one of its words.
    `lists`: `node` may be a list literal of such words (`x in ["a", "b"]`)."""
    if t is None or c.ix.dt is None:
        return
    words = c.ix.dt.names.words(t)
    if words is None:
        return
    found = literal_words(node) if lists else ([node] if isinstance(node, A.Literal)
                                               and isinstance(node.value, str) else [])
    shown = c.ix.dt.names.shown(t) or "a word"
    for lit in found:
        if lit.value not in words:
            c.error(lit.span, f"'{lit.value}' is not {shown}" + did_you_mean(lit.value, words),
                    "the words are " + ", ".join(words[:12]) + (", ..." if len(words) > 12 else ""))


def check_binary(c: Any, e: A.Binary, a: str, b: str) -> None:
    """`==`, `!=`, `in` and `not in` with a word on one side and a text literal on the other."""
    if e.op in ("==", "!=") and c.ix.dt is not None:
        for side, other in ((e.left, b), (e.right, a)):
            _infer_param(c, side, other)
    if e.op in ("==", "!="):
        check_words(c, a, e.right)
        check_words(c, b, e.left)
        wa, wb = c.ix.dt.names.words(a), c.ix.dt.names.words(b)
        if wa is not None and wb is not None and not set(wa) & set(wb):
            c.type_error(e.right.span, f"'{e.op}' compares {c.ix.dt.names.shown(a)} with {c.ix.dt.names.shown(b)}, "
                                       f"which are never equal (no word is in both)")
    elif e.op in ("in", "not in"):
        if base(b) == "list":
            check_words(c, elem(b), e.left)
        check_words(c, a, e.right, lists=True)


def record_key(c: Any, e: A.Index, t: str) -> str | None:
    """`r["field"]` on a record with known fields: the field's type; a field it lacks is an error."""
    fields = c.ix.dt.names.fields(t) if c.ix.dt is not None else None
    if fields is None or not (isinstance(e.index, A.Literal) and isinstance(e.index.value, str)):
        return None
    key = e.index.value
    if key not in fields:
        c.error(e.index.span, f"{c.ix.dt.names.shown(t)} has no field '{key}'" + did_you_mean(key, fields),
                "its fields are " + ", ".join(fields))
        return "any"
    return fields[key]


def table_key(c: Any, e: A.Index, name: str) -> str:
    """`T[key]`: the type of the table's entries; a literal key the table lacks is an error (unless a default
    or `above` answers it)."""
    decl = c.m.tables.get(name)
    dt = c.ix.dt
    entry = "any" if dt is None else f"record:row {name}" if decl is not None and decl.row is not None \
        else dt.static(dt.rows.get(name))
    if decl is None or decl.default is not None or decl.above == "default":
        return entry
    key = e.index.value if isinstance(e.index, A.Literal) else None
    vals = decl.values
    if isinstance(vals, dict) and isinstance(key, str) and key not in vals:
        c.error(e.index.span, f"table '{name}' has no entry '{key}'" + did_you_mean(key, vals),
                "its keys are " + ", ".join(list(vals)[:12]))
    elif (isinstance(vals, list) and isinstance(key, int) and not isinstance(key, bool)
          and not (0 <= key < len(vals) or key >= len(vals) and decl.above == "last" and vals)):
        c.error(e.index.span, f"table '{name}' has no entry {key} (its entries are 0 to {len(vals) - 1})")
    return entry


def param_types(c: Any, group: str, name: str, decl: Any) -> dict[str, str]:
    """A function's or procedure's parameters with their types (`any` unless declared)."""
    typed = c.ix.dt.params.get((group, name), {})
    return {p: c.ix.dt.static(typed[p]) if p in typed else "any" for p in decl.param_names}


@contextmanager
def inferring(c: Any, group: str, name: str, decl: Any) -> Iterator[None]:
    """While a body is checked: its untyped parameters compared with a word of a set take that set as type for
    the literal arguments of its calls (`has(p, "Nmae")` when the body says `a.name == what`)."""
    stack = c.__dict__.setdefault("inferring", [])
    typed = c.ix.dt.params.get((group, name), {})
    stack.append(((group, name), {p for p in decl.param_names if p not in typed}))
    try:
        yield
    finally:
        stack.pop()


def _infer_param(c: Any, side: A.Expr, other: str) -> None:
    stack = c.__dict__.get("inferring")
    if stack and isinstance(side, A.Name) and side.id in stack[-1][1] and c.ix.dt.names.words(other) is not None:
        c.__dict__.setdefault("inferred", {}).setdefault(stack[-1][0], {}).setdefault(side.id, other)


def call_types(c: Any, group: str, name: str, decl: Any) -> dict[str, str]:
    """The types arguments are checked against: declared, else inferred from the body (`inferring`)."""
    inferred = c.__dict__.get("inferred", {}).get((group, name), {})
    return {p: inferred.get(p, t) if t == "any" else t for p, t in param_types(c, group, name, decl).items()}


def typed_args(c: Any, group: str, name: str, args: tuple, kwargs: tuple, types: list[str]) -> None:
    """Arguments of typed parameters: a literal word must be one of the type's words, a value of a known type
    must fit (`types`: the positional arguments' types)."""
    decl = (c.m.functions if group == "functions" else c.m.procedures)[name]
    want, declared = call_types(c, group, name, decl), param_types(c, group, name, decl)
    for p, node in list(zip(decl.param_names, args)) + [(k, v) for k, v in kwargs if k in want]:
        check_words(c, want[p], node)
    for (p, node), t in zip(zip(decl.param_names, args), types):
        w = declared[p]
        if known(w) and known(t) and base(t) not in (base(w), "none") and not {base(t), base(w)} <= NUMERIC:
            c.type_error(node.span, f"parameter '{p}' of '{name}' holds {describe(w)}, but this is {describe(t)}")


# ------------------------------------------------------------------ names that clash with built-ins

_WORD = {"piece kind": "piece", "zone": "zone", "track": "track", "variable": "value", "table": "table",
         "function": "of", "procedure": "now", "action": "action", "end condition": "end", "constant": "value",
         "names set": "kinds"}


def suggested(c: Any, name: str, what: str) -> str:
    """A free name to suggest instead of one that clashes (`size` -> `size_track`)."""
    taken = set(c.ix.globals) | set(c.ix.player_attrs) | set(c.m.functions) | set(c.m.procedures)
    what = what.split(" '")[0]  # ("track 'size'" -> "track")
    for candidate in (f"{name}_{_WORD.get(what, 'value')}",
                      f"{name}_value", f"the_{name}", f"{name}2"):
        if candidate not in taken and candidate not in KEYWORDS and candidate not in FUNCTIONS:
            return candidate
    return f"{name}_{len(taken)}"


def player_attribute_free(c: Any, name: str, where: Any, what: str, hint: str) -> bool:
    """A per-player track, variable or zone is read as `p.NAME`: it may not hide a player's built-in attribute
    (a built-in function's name is fine there: `p.size` is no call)."""
    if name not in BUILTIN_ATTRS["player"]:
        return True
    c.error(where, f"{what} is read as `p.{name}`, which is every player's built-in '{name}' "
                   f"({_PLAYER_ATTRS[name]}); rename it", hint)
    return False


_PLAYER_ATTRS = {"seat": "the seat number", "name": "the seat's name", "passed": "whether the player passed",
                 "next": "the next player clockwise"}


def attribute_clashes(c: Any) -> None:
    """Piece and cell attributes named like a built-in attribute would hide it: `pieces(z, kind: "x")`, `.place`
    or a cell's `.label` would read the attribute instead, silently."""
    groups = (("piece", "piece kind", "pieces", "attributes", "an attribute"),
              ("cell", "zone", "zones", "cell_attributes", "a cell attribute"))
    for who, owner, section, field_, what in groups:
        for name, decl in getattr(c.m.components, section).items():
            for a in getattr(decl, field_):
                if a in BUILTIN_ATTRS[who]:
                    means = f" ({_PIECE_ATTRS[a]})" if who == "piece" and a in _PIECE_ATTRS else ""
                    c.error(c.key("components", section, name, field_, a),
                            f"{owner} '{name}' declares {what} '{a}', which would hide every {who}'s built-in "
                            f"'{a}'{means}; rename it", f"rename it, e.g. '{name}_{a}'")


_PIECE_ATTRS = {"kind": "its kind's name, which `pieces(..., kind: ...)` compares", "place": "where it is",
                "cell": "where it is", "id": "its number"}


# ------------------------------------------------------------------ let ... in, slices, match


def let_in(c: Any, e: A.LetIn, sc: Scope) -> str:
    """`let NAME = VALUE in BODY` (or a `match` expression built as one): the body's type."""
    t = c.expr(e.value, sc)
    inner = sc.child()
    if e.match is None:
        c._define(inner, e.name, t, c._word(e.span, "let", e.name))
    else:
        inner.names[e.name] = t
        check_match(c, e.match, t)
    return c.expr(e.body, inner)


def slice_type(c: Any, e: A.Slice, sc: Scope) -> str:
    """`xs[a:b]`: a list's or a text's type; bounds are numbers."""
    t = c.expr(e.obj, sc)
    for bound in (e.start, e.stop):
        if bound is not None:
            bt = c.expr(bound, sc)
            if known(bt) and base(bt) not in NUMERIC:
                c.type_error(bound.span, f"a slice's bounds are numbers, but this is {describe(bt)}")
    if known(t) and base(t) not in ("list", "str"):
        c.type_error(e.obj.span, f"cannot slice {describe(t)}: only a list or a text has items to take")
        return "any"
    return t


def check_match(c: Any, info: A.MatchInfo, t: str) -> None:
    """A `match` covers every value it can meet: `_`, or every word of the set its value is typed by."""
    if info.default:
        return
    words = c.ix.dt.names.words(t) if c.ix.dt is not None else None
    if words is None:
        c.error(info.span, f"this match has no `_` arm, so it must list every value, but its value is "
                           f"{describe(t)}, not a word of a `names:` set", "add `_ => ...` as the last arm")
        return
    written = {v for v, _ in info.patterns}
    missing = [w for w in words if w not in written]
    if missing:
        c.error(info.span, f"this match does not cover {', '.join(repr(w) for w in missing)} of "
                           f"{c.ix.dt.names.shown(t) or 'its set'}", "add an arm for each, or `_ => ...`")


# ------------------------------------------------------------------ constants


def check_constants(c: Any) -> None:
    """Constants written as expressions: typed in declaration order, reading only what never changes."""
    order = list(c.m.constants)
    scope = static_scope(c.m)
    for i, name in enumerate(order):
        node = c.spec.exprs.get(("constants", name))
        if node is None:
            continue
        static_name_findings(c, f"constant '{name}'", node, set(order[i:]))
        per_player_zone_findings(c, f"constant '{name}'", node, scope)
        t = c.expr(node, scope)
        c.ix.globals[name] = ("constant", t)


def assigned_constant(c: Any, target: A.Name) -> bool:
    """`NAME = ...` for a constant or a names set: a located error (they never change)."""
    what = c.ix.globals.get(target.id, ("",))[0]
    if what not in ("constant", "names set"):
        return False
    c.error(target.span, f"cannot assign to the {what} '{target.id}': it never changes",
            "declare a variable (variables:) for a value that changes")
    return True
