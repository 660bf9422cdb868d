"""Static checks of the effect catalogue (`effects:`) and of pieces' abilities (docs/dsl.md 2.22), run by the
checker (`c`: its expression and effect checks, `error`, `key`, `span`, and the events it saw emitted).

A template sees only its parameters; its parameters' types are checked where a call passes a value whose
type is known.  A template may not call itself, directly or through other templates and procedures.  An
ability is checked in the scope it runs in: `self` (its piece) and `owner` (whose it is), plus `event` for
an `on:` ability and the quantity's parameters for a `modify:` one; its `do:` calls templates only.
"""

from __future__ import annotations

from typing import Any, Iterator

from . import ast as A
from . import checknames
from .callgraph import cycle_from
from .commits import REVEALED
from .payto_check import check_payments
from .suggest import did_you_mean
from .typing_rules import BUILTIN_EVENTS, NUMERIC, Scope, base, describe, known

BASIC_TYPES = {"int": "int", "str": "str", "bool": "bool", "player": "player", "piece": "piece", "cell": "cell",
               "list": "list", "dir": "str", "record": "record", "any": "any"}
_PIECE_SCOPE = {"self": "piece", "owner": "player"}


def ability_sites(m: Any) -> Iterator[tuple[str, tuple, Any]]:
    """(kind, path, ability) of every ability: each kind's own, then each instance row's."""
    for kname, decl in m.components.pieces.items():
        base_path = ("components", "pieces", kname)
        for i, a in enumerate(decl.abilities):
            yield kname, base_path + ("abilities", i), a
        for r, inst in enumerate(decl.instances or []):
            for i, a in enumerate(inst.get("abilities") or []):
                yield kname, base_path + ("instances", r, "abilities", i), a


def ability_events(m: Any) -> set[str]:
    """The events some piece's `on:` ability listens to."""
    return {a.on for _, _, a in ability_sites(m) if a.on is not None}


def check_effects(c: Any) -> None:
    """The catalogue: names, parameter types, bodies (seeing only their parameters), recursion."""
    m = c.m
    for name, decl in m.effects.items():
        where = c.key("effects", name)
        if c._usable_name(name, where, f"effect template '{name}'"):
            for other, what in ((m.procedures, "procedure"), (m.functions, "function")):
                if name in other:
                    c.error(where, f"effect template '{name}' has the name of the {what} '{name}'; both are called "
                                   f"by name")
        types = {}
        for p, t in decl.params.items():
            sp = c.key("effects", name, "params", p)
            if c._usable_name(p, sp, f"parameter '{p}'", local=True):
                c._no_shadow(p, sp)
            types[p] = _param_type(c, t, c.span("effects", name, "params", p))
        c._effect(("effects", name, "effect"), Scope(None, types))
    _recursion(c)


def check_proc_call(c: Any, s: A.CallProc, sc: Scope, types: list[str]) -> None:
    """`call NAME(args)` (or a `do:` item): a known procedure or template, its arguments in number, by name
    and by type (a procedure's typed parameters, a template's); `types` are the arguments' static types."""
    if s.name in c.m.procedures:
        c._arity(s, f"procedure '{s.name}'", c.m.procedures[s.name].param_names, s.args, s.kwargs)
        checknames.typed_args(c, "procedures", s.name, s.args, s.kwargs, types)
        return
    proc = c.m.effects.get(s.name)
    if proc is None:
        c.error(c._word(s.span, "call", s.name), f"unknown procedure '{s.name}'"
                + did_you_mean(s.name, set(c.m.procedures) | set(c.m.effects)))
        return
    c._arity(s, f"effect '{s.name}'", list(proc.params), s.args, s.kwargs)
    check_call_types(c, s, sc)


def check_call_types(c: Any, s: A.CallProc, sc: Scope) -> None:
    """A call of a template: each argument whose type is known fits the parameter's declared type."""
    decl = c.m.effects[s.name]
    params = list(decl.params)
    given = list(zip(params, s.args)) + [(k, v) for k, v in s.kwargs if k in decl.params]
    for p, arg in given:
        want = _param_type(c, decl.params[p], None)
        got = c.expr(arg, sc)
        if not known(want) or not known(got) or base(got) == "none":
            continue
        if base(got) != base(want) and not {base(got), base(want)} <= NUMERIC:
            c.type_error(arg.span, f"effect '{s.name}': parameter '{p}' is {describe(want)}, but this is "
                                   f"{describe(got)}")
        elif isinstance(arg, A.Literal) and isinstance(decl.params[p], str) and decl.params[p] in _names(c):
            words = _names(c)[decl.params[p]]
            if arg.value not in words:
                c.error(arg.span, f"effect '{s.name}': '{arg.value}' is not a word of '{decl.params[p]}'"
                                  + did_you_mean(str(arg.value), words))


def check_abilities(c: Any) -> None:
    """Every kind's `active_in`/`owner` and every ability, in the scope it runs in."""
    m = c.m
    for kname, decl in m.components.pieces.items():
        _kind(c, kname, decl)
    for kname, path, a in ability_sites(m):
        _ability(c, kname, path, a)


def check_events(c: Any) -> None:
    """An `on:` ability listens to an event something emits (after every rule text was checked)."""
    emitted = set(c.emitted) | set(BUILTIN_EVENTS) | ({REVEALED} if c.commits else set())
    for _, path, a in ability_sites(c.m):
        if a.on is not None and a.on not in emitted:
            c.error(c.span(*path, "on"), f"no rule emits '{a.on}' and it is not a built-in event: this ability "
                                         f"would never run" + did_you_mean(a.on, emitted),
                    "emit it with `emit NAME(...)` where it happens")


def check_pieces(c: Any) -> None:
    """The catalogue, every kind's abilities, then the events they listen to (once every rule text is seen)."""
    check_effects(c)
    check_abilities(c)
    check_events(c)


def check_use(c: Any, s: A.Use, sc: Scope) -> None:
    """`use PIECE.play`: the piece is a piece, the part is `play`, and some kind carries a `play:`."""
    t = c.expr(s.piece, sc)
    if s.part != "play":
        c.error(s.span, "`use` runs a piece's play: write `use PIECE.play`")
        return
    if known(t) and base(t) != "piece":
        c.type_error(s.piece.span, f"`use` needs a piece, but this is {describe(t)}")
    if not any(a.play is not None for _, _, a in ability_sites(c.m)):
        c.error(s.span, "no piece carries a `play:` ability: there is nothing to use",
                "give the pieces `abilities: [{play: [...]}]`")


def _kind(c: Any, kname: str, decl: Any) -> None:
    kp = ("components", "pieces", kname)
    needs_zone = [a for a in list(decl.abilities) + [x for i in decl.instances or [] for x in i.get("abilities") or []]
                  if a.play is None]
    zones = c.m.components.zones
    if needs_zone and not decl.active_in:
        c.error(c.key(*kp), f"piece kind '{kname}' carries abilities but no `active_in`: they would never be live",
                "list the zones where they work, e.g. `active_in: [tableau]`")
    shared = []
    for i, z in enumerate(decl.active_in or []):
        if z not in zones:
            c.error(c.span(*kp, "active_in", i), f"unknown zone '{z}'" + did_you_mean(z, zones))
        elif not zones[z].per_player:
            shared.append(z)
    if shared and decl.owner is None:
        c.error(c.key(*kp, "active_in"), f"'{shared[0]}' is shared: say whose a live '{kname}' is with `owner:` "
                                         f"(`self` bound)", "for example `owner: self.owner`")
    t = c._expr(kp + ("owner",), Scope(None, {"self": "piece"}))
    if t is not None and known(t) and base(t) not in NUMERIC:
        c.type_error(c.spec.expr(*kp, "owner").span, f"`owner` must be a player, but this is {describe(t)}")


def _ability(c: Any, kname: str, path: tuple, a: Any) -> None:
    scope = Scope(None, dict(_PIECE_SCOPE))
    if a.on is not None:
        here = scope.child({"event": "record"})
        c._expr(path + ("when",), here, cond=True)
        _calls(c, path + ("do",), here)
    elif a.modify is not None:
        q = c.m.quantities.get(a.modify)
        if q is None:
            c.error(c.span(*path, "modify"), f"unknown quantity '{a.modify}'" + did_you_mean(a.modify, c.m.quantities),
                    None if c.m.quantities else "declare it under `quantities:`")
            return
        here = scope.child({p: "any" for p in q.params})
        c._expr(path + ("when",), here, cond=True)
        for field in ("set", "add"):
            c._want(c._expr(path + (field,), here), NUMERIC, path + (field,), f"a modifier's `{field}` must be a number")
    elif a.activate is not None:
        _activate(c, path, a, scope)
    elif a.play is not None:
        _calls(c, path + ("play",), scope)
        if a.empowered is not None:
            c._expr(path + ("empowered", "if"), scope, cond=True)
            _calls(c, path + ("empowered", "do"), scope)


def _activate(c: Any, path: tuple, a: Any, scope: Scope) -> None:
    """An `activate:` ability: its condition, parameters and costs as an action's (`self` and `owner` bound,
    `self` first), its `do:` and `then:` with the parameters bound, its phases and its limit (per piece)."""
    at = path + ("activate",)
    c._expr(at + ("condition",), scope, cond=True)
    for p in a.activate.params:
        if p in _PIECE_SCOPE:
            c.error(c.key(*at, "params", p), f"parameter '{p}' hides the ability's own `{p}`",
                    "rename the parameter")
    scope = c.params(at, a.activate.params, scope.child())
    c.costs(at, a.activate.cost, scope)
    check_payments(c, at, a.activate, "this ability", scope)
    _calls(c, path + ("do",), scope)
    c._effect(path + ("then",), scope)
    phases = [ph.name for ph in c.m.flow.phases]
    for i, ph in enumerate(a.during or []):
        if ph not in phases:
            c.error(c.span(*path, "during", i), f"unknown phase '{ph}'" + did_you_mean(ph, phases))
    for k in ("key", "each"):
        if a.limit is not None and getattr(a.limit, k) is not None:
            c.error(c.span(*path, "limit", k), f"an ability's limit counts uses of each piece apart: it takes no "
                                               f"`{k}`", "write `limit: {times: N, per: SCOPE}`")


def _calls(c: Any, path: tuple, scope: Scope) -> None:
    """A `do:` calls effect templates only (its calls' arguments are checked as any call's)."""
    block = c.spec.effect(*path)
    if block is None:
        return
    for s in block.body:
        if isinstance(s, A.CallProc) and s.name in c.m.procedures:  # (unknown names: the checker's call check)
            c.error(s.span, f"'{s.name}' is a procedure, not an effect template: a `do:` calls templates only",
                    "declare it under `effects:` (with typed parameters) to call it from a piece")
    c._effect(path, scope)


def _param_type(c: Any, t: Any, span: Any) -> str:
    """The checker's type for a template parameter's declared type (errors reported when `span` is given)."""
    if isinstance(t, str):
        if t in BASIC_TYPES:
            return BASIC_TYPES[t]
        if t in _names(c):
            return "str"
    elif isinstance(t, dict) and set(t) == {"row"}:
        if t["row"] in c.m.tables:
            return "any"
        if span is not None:
            c.error(span, f"unknown table '{t['row']}'" + did_you_mean(str(t["row"]), c.m.tables))
        return "any"
    if span is not None:
        c.error(span, f"unknown type {t!r}" + did_you_mean(str(t), list(BASIC_TYPES) + list(_names(c))),
                "a type is one of " + ", ".join(BASIC_TYPES) + ", a `names:` set, or {row: TABLE}")
    return "any"


def _names(c: Any) -> dict[str, list[str]]:
    return getattr(c.m, "names", None) or {}


def _recursion(c: Any) -> None:
    """A template calling itself, directly or through templates and procedures, is refused."""
    bodies = {n: c.spec.effect("effects", n, "effect") for n in c.m.effects}
    bodies.update({n: c.spec.effect("procedures", n, "effect") for n in c.m.procedures})
    calls = {n: [s.name for s in b.walk() if isinstance(s, A.CallProc)] if b is not None else [] for n, b in bodies.items()}
    reported: set[str] = set()
    for start in c.m.effects:
        path = cycle_from(start, calls) if start not in reported else None
        if path is not None:
            reported.update(path)
            c.error(c.key("effects", start), f"effect template '{start}' is recursive ({' -> '.join(path)}); "
                                             f"templates may not call themselves, directly or through others")


__all__ = ["ability_events", "ability_sites", "check_abilities", "check_call_types", "check_effects", "check_events",
           "check_pieces", "check_proc_call", "check_use"]
