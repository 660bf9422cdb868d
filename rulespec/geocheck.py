"""Checks of geometry and keyed zones in rule text: `ZONE[KEY]` of a `per:` family, per-edge `cost:`
expressions of the walks (`path`, `reachable`), and rule text that depends on a grid's fixed size.

Hooks called by the checker (checker.py) so that its module stays small; they use its `expr`, `error` and
`type_error`, and mirror the interpreter (core/valueops.ZoneFamily, reference/walks.py).
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .errors import Finding, Span
from .labels import parse_cell_label
from .signatures import CLOSURES
from .typing_rules import NUMERIC, Scope, base, describe, did_you_mean, known

Checker = Any  # checker._Checker; not imported: the checker imports this module


def keyed_index(c: Checker, e: A.Index, ti: str) -> str:
    """`ZONE[KEY]` of a `per:` family: a literal key must be one of its keys; the result is a zone."""
    name = e.obj.id if isinstance(e.obj, A.Name) else None
    keys = c.ix.families.get(name) if name else None
    literal = isinstance(e.index, A.Literal) and e.index.value.__class__ in (str, int)
    if literal and keys is not None:
        key = e.index.value
        if not any(k.__class__ is key.__class__ and k == key for k in keys):
            shown = ", ".join(repr(k) for k in keys)
            c.error(e.index.span, f"zone '{name}' has no key {key!r} (its keys: {shown})"
                    + did_you_mean(str(key), [str(k) for k in keys]),
                    f"a key is one of the texts or numbers of the zone's per: list, as written there")
    elif known(ti) and base(ti) not in NUMERIC | {"str"}:
        c.error(e.index.span, f"type error: a zone's key is a text or a number, but this is {describe(ti)}",
                f"pick a zone with {name or 'ZONE'}[KEY], KEY one of its per: list")
    return "zone"


def closure_kwarg(c: Checker, func: str, key: str, value: A.Expr, sc: Scope) -> None:
    """A keyword argument; one evaluated per item (`cost:` of a walk) sees its item's name, and a cost is a
    number or none."""
    bound = CLOSURES.get(func)
    if bound is None or bound[0] != key:
        c.expr(value, sc)
        return
    t = c.expr(value, sc.child({bound[1]: "record"}))
    if known(t) and base(t) not in NUMERIC | {"none"}:
        c.error(value.span, f"type error: a cost must be a whole number (or none: that {bound[1]} cannot be "
                            f"taken), but this is {describe(t)}",
                "to refuse some edges, write `cost: if CONDITION then N else none`")


# ------------------------------------------------------------ fixed sizes


def fixed_size_findings(spec: Any) -> list[Finding]:
    """Rule text that depends on a grid's size without reading it: a literal cell off a bounded grid (or a
    node a graph lacks), and a loop over `range(N)` used as a coordinate of `cell(ZONE, x, y)` that goes past
    the grid, or that still walks the size a variant changed.  (A variant that resizes a grid must then
    fail validation rather than play wrong; `ZONE.width` and `ZONE.height` read the size.)"""
    walker = _SizeWalk(spec)
    for root in [*spec.exprs.values(), *spec.effects.values()]:
        walker.visit(root, {})
    return walker.findings


_AXES = (("x", "width", "wide", "column"), ("y", "height", "high", "row"))


class _SizeWalk:
    """Walks rule text with the loop variables bound to literal ranges in scope (name -> (low, high))."""

    def __init__(self, spec: Any):
        self.m = spec.model
        base = spec.merged.base.data if isinstance(spec.merged.base.data, dict) else {}
        self.base_zones = ((base.get("components") or {}).get("zones") or {}) if isinstance(base, dict) else {}
        self.findings: list[Finding] = []
        self.exprs, self.effects = spec.exprs, spec.effects
        self.walked: set[tuple] = set()  # (callee, its bound parameters) already walked
        self.seen: set[tuple] = set()  # findings already made (a body walked for two call sites)

    def visit(self, node: Any, env: dict) -> None:
        if isinstance(node, A.Comprehension):
            inner = dict(env)
            for clause in node.clauses:
                self.visit(clause.iter, inner)
                self._bind(inner, clause.var, clause.iter)
                if clause.cond is not None:
                    self.visit(clause.cond, inner)
            self.visit(node.elt, inner)
            return
        if isinstance(node, A.Block):
            env = dict(env)
            for stmt in node.body:
                if isinstance(stmt, A.Let):
                    self.visit(stmt.value, env)
                    env.pop(stmt.name, None)
                else:
                    self.visit(stmt, env)
            return
        if isinstance(node, A.For):
            self.visit(node.iter, env)
            inner = dict(env)
            self._bind(inner, node.var, node.iter)
            for part in (node.cond, node.order_key, node.chooser, node.body):
                if part is not None:
                    self.visit(part, inner)
            return
        if isinstance(node, A.Call) and node.func == "cell" and node.args:
            self._cell(node, env)
        if isinstance(node, (A.Call, A.CallProc)):
            self._callee(node, env)
        for child in node.children():
            self.visit(child, env)

    def _callee(self, node: Any, env: dict) -> None:
        """A spec function or procedure called with a loop variable of a literal range (or a literal number):
        its body is walked with the parameter bound alike, once per binding."""
        name = node.func if isinstance(node, A.Call) else node.name
        decl = self.m.functions.get(name) if isinstance(node, A.Call) else self.m.procedures.get(name)
        if decl is None:
            return
        bound = {}
        for param, arg in zip(decl.params, node.args):
            if isinstance(arg, A.Name) and arg.id in env:
                bound[param] = env[arg.id]
            elif _literal_int(arg) is not None:
                bound[param] = (_literal_int(arg), _literal_int(arg) + 1)
        key = (name, tuple(sorted(bound.items())))
        if not bound or key in self.walked:
            return
        self.walked.add(key)
        path = ("functions", name, "expr") if isinstance(node, A.Call) else ("procedures", name, "effect")
        body = self.exprs.get(path) if isinstance(node, A.Call) else self.effects.get(path)
        if body is not None:
            self.visit(body, bound)

    @staticmethod
    def _bind(env: dict, var: str, iterable: A.Expr) -> None:
        bounds = _literal_range(iterable)
        if bounds is None:
            env.pop(var, None)
        else:
            env[var] = bounds

    def _zone(self, node: A.Expr) -> tuple[str, Any] | None:
        zones = self.m.components.zones
        if isinstance(node, A.Name) and node.id in zones and not zones[node.id].per_player:
            return node.id, zones[node.id]
        if isinstance(node, A.Attr) and node.name in zones and zones[node.name].per_player:
            return node.name, zones[node.name]
        if isinstance(node, A.Index) and isinstance(node.obj, A.Name) and node.obj.id in zones:
            return node.obj.id, zones[node.obj.id]
        return None

    def _cell(self, node: A.Call, env: dict) -> None:
        found = self._zone(node.args[0])
        if found is None:
            return
        name, z = found
        if len(node.args) == 2 and isinstance(node.args[1], A.Literal) and isinstance(node.args[1].value, str):
            self._label(name, z, node.args[1])
        if len(node.args) != 3 or z.type != "grid" or z.unbounded:
            return
        for (axis, size_name, adjective, unit), arg in zip(_AXES, node.args[1:]):
            size = getattr(z, size_name)
            value = _literal_int(arg)
            if value is not None and not 0 <= value < size:
                self._error(arg.span, f"{axis} = {value} is off '{name}', which is {size} {adjective} ({axis} = 0 "
                                      f"to {size - 1}): cell() would give none",
                            f"ask in_bounds() first, or count from {_zone_text(node.args[0])}.{size_name}")
            if isinstance(arg, A.Name) and arg.id in env:
                self._range(name, node.args[0], arg, env[arg.id], axis, size_name, adjective, unit, size)

    def _range(self, name: str, zone: A.Expr, arg: A.Name, bounds: tuple[int, int], axis: str, size_name: str,
               adjective: str, unit: str, size: int) -> None:
        low, high = bounds
        hint = f"write range({_zone_text(zone)}.{size_name}), so that the rule follows the size"
        if high > size or low < 0:
            self._error(arg.span, f"`{arg.id}` goes through {low} to {high - 1} as the {axis} of '{name}', which is "
                                  f"{size} {adjective}: cell() gives none past the edge", hint)
            return
        base = self.base_zones.get(name) if isinstance(self.base_zones, dict) else None
        was = base.get(size_name) if isinstance(base, dict) else None
        if isinstance(was, int) and was != size and high == was:
            self._error(arg.span, f"'{name}' is {size} {adjective} here (a variant changed it from {was}), but "
                                  f"`{arg.id}` still goes through the {was} {unit}s of range({high})", hint)

    def _label(self, name: str, z: Any, arg: A.Literal) -> None:
        label = arg.value
        if z.type == "graph":
            if label not in (z.nodes or []):
                self._error(arg.span, f"graph '{name}' has no node '{label}'" + did_you_mean(label, z.nodes or []))
            return
        pos = parse_cell_label(label)
        if pos is not None and not z.unbounded and not (0 <= pos[0] < z.width and 0 <= pos[1] < z.height):
            self._error(arg.span, f"cell '{label}' is outside grid '{name}' ({z.width}x{z.height}): cell() would "
                                  f"give none", "a variant that shrinks a grid must also change the cells it names")

    def _error(self, span: Span, message: str, hint: str | None = None) -> None:
        key = (span.file, span.line, span.col, message)
        if key not in self.seen:
            self.seen.add(key)
            self.findings.append(Finding(span, message, "error", hint))


def _literal_int(node: A.Expr) -> int | None:
    if isinstance(node, A.Literal) and node.value.__class__ is int:
        return node.value
    if isinstance(node, A.Unary) and node.op == "-" and isinstance(node.operand, A.Literal) \
            and node.operand.value.__class__ is int:
        return -node.operand.value
    return None


def _literal_range(node: A.Expr) -> tuple[int, int] | None:
    """(low, high) of `range(N)` or `range(A, B)` with literal numbers, else None."""
    if not (isinstance(node, A.Call) and node.func == "range" and not node.kwargs and 1 <= len(node.args) <= 2):
        return None
    values = [_literal_int(a) for a in node.args]
    if any(v is None for v in values):
        return None
    return (0, values[0]) if len(values) == 1 else (values[0], values[1])


def _zone_text(node: A.Expr) -> str:
    if isinstance(node, A.Name):
        return node.id
    if isinstance(node, A.Attr) and isinstance(node.obj, A.Name):
        return f"{node.obj.id}.{node.name}"
    return "ZONE"


# ------------------------------------------------------------ causes and phase scopes


def trigger_scope(c: Checker, name: str, decl: Any, scope: Scope) -> Scope:
    """A trigger's `caused_by:` and `phase:`, checked; the scope of its effect (a state trigger's effect sees
    `cause`, its firing's cause: docs/dsl.md 6.5)."""
    tp = ("triggers", name)
    phases = [decl.phase] if isinstance(decl.phase, str) else decl.phase or []
    known_phases = [ph.name for ph in c.m.flow.phases]
    for i, ph in enumerate(phases):
        if ph not in known_phases:
            where = c.span(*tp, "phase") if isinstance(decl.phase, str) else c.span(*tp, "phase", i)
            c.error(where, f"trigger '{name}' is scoped to phase '{ph}', which the flow does not have"
                    + did_you_mean(ph, known_phases), "the flow's phases: " + ", ".join(known_phases))
    if decl.caused_by is not None:
        if decl.on is not None:
            c.error(c.key(*tp, "caused_by"), "`caused_by` only works on state triggers: an event trigger's cause "
                                             "is its event's (event.cause)", "remove it, and read event.cause")
        else:
            c._expr(tp + ("caused_by",), scope)
    if decl.on is not None:
        return scope
    if "cause" in c.ix.globals:
        c.error(c.key(*tp), f"trigger '{name}': a state trigger's effect names its firing's cause `cause`, which "
                            f"the spec also declares; rename the spec's 'cause'")
    return scope.child({"cause": "cause"})


def emit_fields(c: Checker, s: A.Emit) -> None:
    """An `emit`'s keyword arguments: `cause` is the engine's field (what made the event happen)."""
    for k, v in s.kwargs:
        if k == "cause":
            c.error(c._kw(v.span, k), "an event's `cause` is what made it happen, which the engine records: give "
                                      "the field another name")
