"""A spec's flat module (flatgen.py): its actions, hooks, procedures, functions and end checks over the flat
layout, for the flat flow of engine/flat.py.

`flat_module(rules)` returns the generated source with its constants and what the flow needs (the steps'
actions, which have a parameter, the hooks and end checks that exist), or raises FlatUnsupported when the spec
holds something the flat code does not play.  The flat flow plays the flow shape most abstract games have:
rounds of one phase in seat order (`clockwise`, a turn each), steps of actions without limits or costs, state
triggers whose cascade asks nothing and reads no causes (flatcascade.py: after each action, before its end
checks), look-ahead only where an action itself may be refused (each option tried on a copy: `_look`), no events but `game_start` (which the prepared start
has already run).  Everything else is left to the general engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from orrery.rulespec import ast as A

from . import flatcascade
from . import typepass as T
from .flatgen import FlatUnsupported
from .flatlayout import FlatLayout, NoLayout
from .flatstmts import FlatStatements
from .typepass import TypePass

_CALLS = re.compile(r"\b[a-z]+_?\d*\(")  # a call in generated flat code (a function, a helper: maybe a charge)
_BINDING = re.compile(r"    (P|V|PV|KIND|LOC|A_\d+) = st\.(P|V|PV|KIND|LOC|A\[\d+\])")  # a prologue line (gen.prologue)
TIMING_NAMES = ("immediate", "end_of_turn", "end_of_phase", "end_of_round")
# the end conditions each timing checks (engine/flow.TIMINGS; tests/test_flat.py keeps them equal)
TIMING_CHECKS = {"immediate": ("immediate",), "end_of_turn": ("immediate", "end_of_turn"),
                 "end_of_phase": ("immediate", "end_of_phase"), "end_of_round": ("immediate", "end_of_round")}


@dataclass
class FlatModule:
    """The generated source and what the flat flow needs to run it."""

    source: str
    consts: list[Any]
    layout: FlatLayout
    types: TypePass
    steps: list[list[str]]  # per step of the phase: its actions, in menu order
    params: dict[str, bool] = field(default_factory=dict)  # action -> whether it has its one parameter
    param_types: dict[str, str] = field(default_factory=dict)  # action -> its parameter's value type (typepass)
    conditions: set[str] = field(default_factory=set)  # the actions with a condition
    hooks: set[str] = field(default_factory=set)  # "turn_start", "turn_end" when the phase has them
    ends: list[tuple[int, str, str]] = field(default_factory=list)  # (index, name, check timing), spec order
    winners: dict[str, int] = field(default_factory=dict)  # end -> i where winners_<i>(st) gives its `winners`
    heuristic: bool = False  # heuristic(st, p) gives bots.heuristic's value for seat p
    score: str = ""  # a finished game's scores: "expr" score(st, p), "var" the `score` slot, "zero"; "": general
    end_charge: dict[int, int] = field(default_factory=dict)  # end -> its loop charge, where it is all static
    end_inline: dict[int, tuple[int, str]] = field(default_factory=dict)  # end -> (static charge, condition source)
    stamps: bool = False  # the spec reads change stamps: the flat state keeps them (st.ST, st.clock)
    cascade: bool = False  # the spec has state triggers: cascade(st) runs after each action (flatcascade.py)
    look: set[str] = field(default_factory=set)  # the actions that may be refused once chosen (look-ahead)


# The spec keys the flat flow plays (every key a spec sets, defaults left out, must be here; `*` a named entry,
# `[]` a list's items): a key the language gains later (a new construct) is refused until the flat flow plays
# it and the tests cover it.  What lies below a path not listed (setup, ranking, invariants, assumptions, a
# table's values...) is read by the general engine or is expressions the type pass has seen.
_KNOWN_KEYS = {
    "": {"actions", "assumptions", "bots", "components", "end", "flow", "functions", "game", "invariants",
         "procedures", "ranking", "scoring", "setup", "tables", "triggers", "variables", "description",
         "constants", "names", "requires", "display"},  # (values fixed when the game is built; load checks; drawing)
    "bots": {"heuristic", "heuristic_max", "iterations", "playout"},  # (hints: the flat state judges by heuristic())
    "actions.*": {"condition", "description", "effect", "label", "params", "rule", "why"},
    "actions.*.params.*": {"from_", "prompt", "where", "why", "description"},
    "components": {"pieces", "tracks", "zones"},
    "components.pieces.*": {"attributes", "description", "style", "symbol", "unlimited", "label", "start"},
    "components.tracks.*": {"description"},
    "components.zones.*": {"adjacency", "description", "height", "type", "visibility", "width", "label",
                           "cell_attributes", "cells", "unbounded"},
    "flow": {"first_player", "phases"},
    "flow.phases[]": {"name", "steps", "turn_start", "description"},
    "flow.phases[].steps[]": {"actions"},
    "functions.*": {"description", "expr", "params"},
    "procedures.*": {"description", "effect", "params"},
    "tables.*": {"description", "values"},
    "end.*": {"description", "rule", "when", "winners", "check"},
    "triggers.*": {"description", "effect", "on", "for_", "when", "order"},
    "variables.*": {"description", "internal", "start", "type"},
    "game": {"name", "players", "seat_names", "source", "title", "description"},
}


def _known_keys(data: Any, path: str = "") -> None:
    """Refuse a key outside _KNOWN_KEYS (see there)."""
    known = _KNOWN_KEYS.get(path)
    if known is None or not isinstance(data, dict):
        return
    for key, value in data.items():
        if key not in known:
            raise FlatUnsupported(f"the key '{key}'" + (f" of {path}" if path else ""))
        sub = f"{path}.{key}" if path else key
        if isinstance(value, list):
            for item in value:
                _known_keys(item, sub + "[]")
        elif f"{sub}.*" in _KNOWN_KEYS and isinstance(value, dict):
            for item in value.values():
                _known_keys(item, sub + ".*")
        else:
            _known_keys(value, sub)


def _flow_shape(rules: Any) -> None:
    """Refuse a flow the flat flow does not play."""
    m = rules.spec.model
    if len(rules.phases) != 1:
        raise FlatUnsupported("several phases")
    ph = rules.phases[0]
    if (ph.order != "clockwise" or ph.turns != "once" or ph.when is not None or ph.players is not None
            or ph.start is not None or ph.on_start is not None or ph.on_end is not None or ph.free_actions):
        raise FlatUnsupported("the phase's shape")
    if rules.spec.effect("flow", "round_start") or rules.spec.effect("flow", "round_end") \
            or m.flow.rotate_first_player:
        raise FlatUnsupported("round hooks")
    if set(rules.event_triggers) - {"game_start"}:
        raise FlatUnsupported("triggers")
    flatcascade.refused(rules)  # (the state triggers the flat cascade does not play)
    if rules.outside_may_fail or rules.some_may_fail and rules.fallibility.tail:
        raise FlatUnsupported("look-ahead")  # (only an action itself may be refused: see `_look`)
    for st in ph.steps:
        if st.optional or st.repeat or st.max is not None or st.when is not None:
            raise FlatUnsupported("the steps' shape")
    for a in rules.actions.values():
        if a.limit is not None or a.cost or len(a.params) > 1 or any(p.optional for p in a.params):
            raise FlatUnsupported(f"the action '{a.name}'")
    if rules.spec.effect("scoring", "final") is not None:
        raise FlatUnsupported("final scoring")
    _known_keys(_set_fields(m))


def _set_fields(value: Any) -> Any:
    """`model.model_dump(exclude_defaults=True)`'s keys, read off the models: pydantic's dump would first build
    the serializers of every spec model (they are built when first used: models.py), a tenth of a second."""
    if isinstance(value, BaseModel):
        out = {name: _set_fields(getattr(value, name)) for name, f in type(value).model_fields.items()
               if f.is_required() or getattr(value, name) != f.get_default(call_default_factory=True)}
        out.update((k, _set_fields(v)) for k, v in (value.__pydantic_extra__ or {}).items())
        return out
    if isinstance(value, dict):
        return {k: _set_fields(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_set_fields(v) for v in value]
    return value


def flat_module(rules: Any, reads_flow: Any, tp: TypePass | None = None) -> FlatModule:
    """Generate the flat module of a spec (FlatUnsupported when it cannot be); `reads_flow(expr)`: whether an
    end condition can read the flow's cursor (engine/flow.reads_flow: it is remembered false only while the
    cursor stays put too)."""
    _flow_shape(rules)  # (first: most specs not of this shape end here, before a second type pass)
    tp = tp or TypePass(rules)
    if not tp.sound:
        raise FlatUnsupported("a construct the type pass does not know")
    try:
        lay = FlatLayout(rules, tp)
    except NoLayout as why:
        raise FlatUnsupported(str(why)) from None
    gen = FlatStatements(rules, tp, lay)
    gen.stamps = flatcascade.reads_stamps(rules)
    ph = rules.phases[0]
    mod = FlatModule("", gen.consts, lay, tp, [list(st.actions) for st in ph.steps], stamps=gen.stamps)
    mod.cascade = flatcascade.write_cascade(gen)
    mod.look = {name for name in rules.actions if rules.some_may_fail and rules.may_fail(name)}
    for name, a in rules.actions.items():
        _action(gen, name, a, mod)
    for hook in ("turn_start", "turn_end"):
        block = getattr(ph, hook)
        if block is not None:
            mod.hooks.add(hook)
            gen.function(f"hook_{hook}", block, [])
    for name, (params, body) in rules.procedures.items():
        types = [gen.tp.env.get(p, T.ANY) or T.ANY for p in params]
        gen.function(f"proc_{name}", body, list(zip(params, types)))
    _ends(gen, mod)
    _heuristic(gen, mod)
    _score(gen, mod)
    _flow(gen, mod, reads_flow)
    gen.write_functions()
    mod.source = "\n".join(gen.lines) + "\n"
    return mod


def _action(gen: FlatStatements, name: str, a: Any, mod: FlatModule) -> None:
    """ok_<a>(st): the action's condition; menu_<a>(st): its parameter's values; eff_<a>(st[, value])."""
    if a.condition is not None:
        mod.conditions.add(name)
    gen.emit(0, f"def ok_{name}(st):")
    gen.scope = [{}]
    gen.take_charge()
    cond = "True" if a.condition is None else gen.cond(a.condition)
    charge = gen.take_charge()
    body = ([f"    st.loops += {charge}"] if charge else []) + [f"    return {cond}"]
    gen.prologue(body, 1)
    gen.lines.extend(body)
    gen.emit(0, "")
    params: list[tuple[str, str]] = []
    if a.params:
        p = a.params[0]
        if p.why is not None and not (isinstance(p.why, str) or getattr(p.why, "value", None).__class__ is str):
            raise FlatUnsupported(f"the reason of '{name}''s parameter")  # (worked out per value it rejects)
        dom_t = gen.typeof(p.domain)
        if not T.is_list(T.strip(dom_t)):
            raise FlatUnsupported(f"the parameter of '{name}'")
        value_t = T.settled(T.elem(dom_t))
        # a menu of pieces merges identical ones (evaluator.options_for: same kind, attributes and place), which
        # leaves gaps in the options' indices: the flat menu stops the flat game when two would merge
        distinct = T.strip(value_t) in (T.PIECE, T.BPIECE)
        v = "l_" + p.name
        gen.scope = [{p.name: (v, value_t)}]
        dom = gen.expr(p.domain)
        if T.optional(dom_t):
            dom = gen.nn(dom)
        gen.take_charge()
        among = _member_of(gen, p)
        kept = "DISTINCT(st, [{v} for {v} in dom if {keep}])" if distinct else "[{v} for {v} in dom if {keep}]"
        if among is not None:  # `where: x in LIST`: the list worked out once, as a set (the same answers)
            body = [f"    dom = {dom}", "    if not dom:", "        return []", f"    among = set({among})",
                    "    return " + kept.format(v=v, keep=f"{v} in among")]
        else:
            keep = "True" if p.where is None else gen.cond(p.where)
            per = gen.take_charge()
            body = [f"    dom = {dom}", f"    st.loops += {per} * len(dom)" if per else "",
                    "    return " + kept.format(v=v, keep=keep)]
            body = [b for b in body if b]
        gen.emit(0, f"def menu_{name}(st):")
        gen.prologue(body, 1)
        gen.lines.extend(body)
        gen.emit(0, "")
        params = [(p.name, value_t)]
        mod.params[name] = True
        mod.param_types[name] = value_t
    else:
        mod.params[name] = False
    gen.scope = []
    gen.function(f"eff_{name}", a.effect, params)


def _dead_end(gen: FlatStatements, indent: int) -> None:
    """No option of the step's action completes: the driver answers the step menu with NOTHING_VIABLE (one
    automatic answer) and the step is skipped."""
    gen.emit(indent, "st.auto += 1")
    gen.emit(indent, "if st.auto >= AUTO_LIMIT - 2:")
    gen.emit(indent + 1, "raise BAIL")
    gen.emit(indent, "st.step += 1")
    gen.emit(indent, "continue")


def _look(gen: FlatStatements) -> None:
    """Look-ahead (engine/driver.py `_viable`, `_dead_end`) where only an action itself may be refused (a
    `require` in its effect, or what it calls; nothing after it can: `_flow_shape`): each option is tried on a
    copy of the state; it completes unless REFUSED.  The driver's runs for the step menu and for the parameter
    menu share the loop limit with the position (and the look-ahead budget): the flat code stops (BAIL) unless
    every trial together stays within both, so a budget never runs out where the flat code decides."""
    gen.emit(0, "def viable(st, a, values):")
    gen.emit(1, "if len(values) >= LOOKAHEAD_LIMIT:")
    gen.emit(2, "raise BAIL")
    gen.emit(1, "perform, keep, spent, base = PERFORM[a], [], 0, st.loops")
    gen.emit(1, "for i, v in enumerate(values):")
    gen.emit(2, "c = st.copy()")
    gen.emit(2, "try:")
    gen.emit(3, "perform(c, v)")
    gen.emit(3, "keep.append(i)")
    gen.emit(2, "except Refused:")
    gen.emit(3, "pass")
    gen.emit(2, "except ENDGAME:")
    gen.emit(3, "keep.append(i)")
    gen.emit(2, "spent += c.loops - base")
    gen.emit(2, "if base + 2 * spent > LOOP_LIMIT:")
    gen.emit(3, "raise BAIL")
    gen.emit(1, "return keep")
    gen.emit(0, "")
    gen.emit(0, "def completes(st, a):")
    gen.emit(1, "if LOOKAHEAD_LIMIT < 1:")  # (no budget: the driver offers the action untried)
    gen.emit(2, "raise BAIL")
    gen.emit(1, "c = st.copy()")
    gen.emit(1, "try:")
    gen.emit(2, "PERFORM[a](c)")
    gen.emit(1, "except Refused:")
    gen.emit(2, "ok = False")
    gen.emit(1, "except ENDGAME:")
    gen.emit(2, "ok = True")
    gen.emit(1, "else:")
    gen.emit(2, "ok = True")
    gen.emit(1, "if st.loops + 2 * (c.loops - st.loops) > LOOP_LIMIT:")
    gen.emit(2, "raise BAIL")
    gen.emit(1, "return ok")
    gen.emit(0, "")


def _member_of(gen: FlatStatements, p: Any) -> str | None:
    """The source of LIST where a parameter's `where` is `param in LIST`, LIST reads neither the parameter nor
    anything that charges a loop, and its items are values a set tells apart as `in` does (cells, seats, whole
    numbers, texts); else None (and nothing generated)."""
    w = p.where
    if not (isinstance(w, A.Binary) and w.op == "in" and isinstance(w.left, A.Name) and w.left.id == p.name):
        return None
    if any(isinstance(n, A.Name) and n.id == p.name for n in w.right.walk()):
        return None
    lt = gen.typeof(w.right)
    if not T.is_list(T.strip(lt)) or T.strip(T.elem(T.strip(lt))) not in (T.CELL, T.PLAYER, T.INT, T.STR):
        return None
    mark = len(gen.lines)
    src = gen.expr(w.right)
    if gen.take_charge() or len(gen.lines) != mark:
        del gen.lines[mark:]
        return None
    return gen.nn(src) if T.optional(lt) else src


def _ends(gen: FlatStatements, mod: FlatModule) -> None:
    """end_<i>(st): whether the i-th end condition (spec order) holds now; winners_<i>(st): its `winners` where
    the flat layout holds them as the general one does (seats: `_seats`)."""
    for i, e in enumerate(gen.rules.ends.values()):
        if e.when is None:
            continue
        charge = _expr_function(gen, f"end_{i}", e.when, winners=False)
        if charge is not None:
            mod.end_charge[i] = charge
            mod.end_inline[i] = (charge, gen.last_condition)
        mod.ends.append((i, e.name, e.check))
    for i, e in enumerate(gen.rules.ends.values()):
        if e.winners is not None and _seats(gen.typeof(e.winners)):
            try:
                _expr_function(gen, f"winners_{i}", e.winners, winners=True)
            except FlatUnsupported:  # (the general engine scores this end: flatapi.flat_ended)
                continue
            mod.winners[e.name] = i
    gen.scope = []


def _heuristic(gen: FlatStatements, mod: FlatModule) -> None:
    """heuristic(st, l_p): bots.heuristic for seat l_p (its loop charge added to the position's, as the
    reference's run adds its ticks to the position's count: rules.heuristic_returns), where the flat code
    can write it; else the general engine judges the flat game's positions (engine/flat.py)."""
    expr = gen.rules.heuristic
    if expr is not None and gen.typeof(expr) == T.INT:  # (a value of another type: the general engine's error)
        mod.heuristic = _seat_function(gen, "heuristic", expr)


def _score(gen: FlatStatements, mod: FlatModule) -> None:
    """How a finished flat game's scores are read as flow.finish reads them (rules.score_of): score(st, l_p)
    for `scoring.score` where the flat code can write it (its charge added to the winners' run, as finish
    runs both on one count), the `score` player variable's slot, or 0; else the general engine scores."""
    r, lay = gen.rules, gen.lay
    if r.score is not None:
        if gen.typeof(r.score) == T.INT and _seat_function(gen, "score", r.score):
            mod.score = "expr"
    elif "score" in r.player_var_names:
        mod.score = "var" if "score" in lay.pvar_slot else ""
    else:
        mod.score = "zero"


def _seat_function(gen: FlatStatements, name: str, expr: Any) -> bool:
    """def NAME(st, l_p): the value of `expr` for seat l_p, its loop charge added to st.loops (the general
    engine's limit met: BAIL); False (nothing written) where the flat code cannot write it."""
    gen.write_functions()  # (the rules' own first: one they need and the flat code cannot write stops the module)
    start, fns = len(gen.lines), dict(gen.fns)
    gen.scope = [{"p": ("l_p", T.PLAYER)}]
    gen.take_charge()
    try:
        src = gen.expr(expr)
        charge = gen.take_charge()
        body = [f"    st.loops += {charge}", "    if st.loops > LOOP_LIMIT:", "        raise BAIL"] if charge else []
        body.append(f"    return {src}")
        gen.emit(0, f"def {name}(st, l_p):")
        gen.prologue(body, 1)
        gen.lines.extend(body)
        gen.emit(0, "")
        gen.write_functions()  # (the functions only this one calls)
    except FlatUnsupported:  # (only this function: its lines and functions go, the general engine does it)
        gen.take_charge()
        del gen.lines[start:]
        gen.fns, gen.pending = fns, []
        return False
    finally:
        gen.scope = []
    return True


def _seats(t: str) -> bool:
    """Whether a value of type t is, in the flat layout, what the general one is: seats as numbers or none."""
    s = T.strip(t)
    return s in (T.PLAYER, T.INT, T.NONE) or (T.is_list(s) and T.strip(T.elem(s)) in (T.PLAYER, T.INT, T.NONE, T.NEVER))


def _expr_function(gen: FlatStatements, name: str, expr: Any, winners: bool) -> int | None:
    """def NAME(st): an end's condition (its loop charge added to the turn's), or the value of its `winners`
    for a finished game (engine/flat.FlatGame.returns: the charge counted from 0, as flow.finish's run).
    Returns the charge when it is all static (no loop charged by its length, no function called), else None."""
    gen.scope = [{}]
    gen.take_charge()
    src = gen.expr(expr) if winners else gen.cond(expr)
    charge = gen.take_charge()
    if winners:
        body = [f"    st.loops = {charge}"] + (["    if st.loops > LOOP_LIMIT:", "        raise BAIL"] if charge else [])
    else:
        body = [f"    st.loops += {charge}"] if charge else []
    body.append(f"    return {src}")
    gen.emit(0, f"def {name}(st):")
    gen.prologue(body, 1)
    gen.lines.extend(body)
    gen.emit(0, "")
    gen.last_condition = src
    return None if "TICK" in src or _CALLS.search(src) else charge


def _check(gen: FlatStatements, mod: FlatModule, timing: str, reads: dict[int, bool], indent: int,
           ret: str = "return", known: set[int] | None = None, changed: bool = False) -> None:
    """The end checks of a timing written out: each condition in spec order, skipped while it is known false
    (its memo slot holds the version it was found false at: `fversion` when it reads the cursor).

    `known`: the ends whose memo slot is known to hold the current `version` here (checked earlier in the same
    straight-line code, no `version` change since): their checks would be no-ops and are left out; the ends
    keyed by `version` that this check leaves checked are added to it.  `changed`: both stamps have just moved
    on, so no memo slot can hold them: each condition is checked without testing its slot."""
    todo = [(i, name) for i, name, check in mod.ends if check in TIMING_CHECKS[timing]
            and not (known is not None and i in known)]
    for i, name in todo:
        key = "st.fversion" if reads[i] else "st.version"
        inner = indent if changed else indent + 1
        if not changed:
            gen.emit(indent, f"if seen[{i}] != {key}:")
        if changed and i in mod.end_inline:  # (written into the perform function: no call)
            charge, cond = mod.end_inline[i]
            if charge:
                gen.emit(inner, f"st.loops += {charge}")
            gen.emit(inner, f"if {cond}:")
        else:
            gen.emit(inner, f"if end_{i}(st):")
        gen.emit(inner + 1, f"st.over = {gen.const(name)}")
        gen.emit(inner + 1, ret)
        gen.emit(inner, f"seen[{i}] = {key}")
        if known is not None and not reads[i]:
            known.add(i)
    if todo:
        gen.emit(indent, "if st.loops > LOOP_LIMIT:")
        gen.emit(indent + 1, "raise BAIL")


def _flow(gen: FlatStatements, mod: FlatModule, reads_flow: Any) -> None:
    """advance(st): the flow from the current step to the next real choice or the end; perform_<a>(st[, v]): an
    action with its value, its bookkeeping and the end checks after it (engine/flowframe.py's order)."""
    rules = gen.rules
    reads = {i: bool(reads_flow(rules.ends[name].when)) for i, name, _ in mod.ends}
    actions = list(rules.actions)
    for k, name in enumerate(actions):
        param = mod.params[name]
        gen.emit(0, f"def perform_{name}(st{', v' if param else ''}):")
        start = len(gen.lines)
        _effect_inline(gen, name, param)
        if mod.cascade:  # (the cascade the action set off, before the step's bookkeeping: flowframe.step_)
            gen.emit(1, "cascade(st)")
        gen.emit(1, "if st.loops > LOOP_LIMIT:")
        gen.emit(2, "raise BAIL")
        gen.emit(1, "st.decisions += 1")
        gen.emit(1, f"st.acts.append({k})")
        gen.emit(1, "st.version += 1")
        gen.emit(1, "st.fversion += 1")
        gen.emit(1, "seen = st.checked")
        _check(gen, mod, "immediate", reads, 1, changed=True)
        gen.emit(1, "st.step += 1")
        body = gen.lines[start:]
        del gen.lines[start:]
        gen.prologue(body, 1)  # (the state's lists the effect and the inlined end checks read)
        gen.lines.extend(body)
        gen.emit(0, "")
    gen.emit(0, f"PERFORM = ({''.join(f'perform_{a}, ' for a in actions)})")
    gen.emit(0, f"MENU = ({''.join((f'menu_{a}, ' if mod.params[a] else 'None, ') for a in actions)})")
    gen.emit(0, "")
    gen.emit(0, "def playout(st, randrange, answers, limit):")
    gen.emit(1, "n = 0")
    gen.emit(1, "while st.menu is not None and n < limit:")
    gen.emit(2, "values = st.menu")
    if mod.look:  # (the options look-ahead kept: LeanState.playout draws among them)
        gen.emit(2, "k = st.keep")
        gen.emit(2, "i = randrange(len(values)) if k is None else k[randrange(len(k))]")
    else:
        gen.emit(2, "i = randrange(len(values))")
    gen.emit(2, "answers.append(i)")
    gen.emit(2, "a = st.action")
    gen.emit(2, "st.menu = st.action = None")
    gen.emit(2, "PERFORM[a](st, values[i])")
    gen.emit(2, "if st.over is None:")
    gen.emit(3, "advance(st)")
    gen.emit(2, "n += 1")
    gen.emit(1, "return n")
    gen.emit(0, "")
    if mod.look:
        _look(gen)
    gen.emit(0, "def advance(st):")
    gen.emit(1, "seen = st.checked")
    gen.emit(1, "while True:")
    gen.emit(2, f"if st.step >= {len(mod.steps)}:")
    _turn_change(gen, mod, reads)
    gen.emit(3, "continue")
    for j, names in enumerate(mod.steps):
        gen.emit(2, f"if st.step == {j}:")
        _step(gen, mod, names, actions)
    gen.emit(0, "")


def _effect_inline(gen: FlatStatements, name: str, param: bool) -> None:
    """The action's effect written into its perform function (the generated eff_<a>'s body, its parameter `v`)."""
    start = gen.lines.index(f"def eff_{name}(st{', l_' + gen.rules.actions[name].params[0].name if param else ''}):")
    end = gen.lines.index("", start)
    body = [line for line in gen.lines[start + 1:end] if not _BINDING.fullmatch(line)]  # (its prologue: redone)
    if param:
        gen.emit(1, f"l_{gen.rules.actions[name].params[0].name} = v")
    gen.lines.extend(body)


def _turn_change(gen: FlatStatements, mod: FlatModule, reads: dict[int, bool]) -> None:
    """The turn ends (its hook, the end-of-turn checks), the phase and round after the last seat, and the next
    turn starts (the seat, its hook, the immediate checks)."""
    gen.emit(3, "st.loops = 0")
    if "turn_end" in mod.hooks:
        gen.emit(3, "hook_turn_end(st)")
        gen.emit(3, "st.version += 1")
        gen.emit(3, "st.fversion += 1")
    # the ends keyed by `version` checked so far in this straight-line code (nothing below changes `version`
    # before the turn-start hook: the later checks of those ends would be no-ops, so they are left out)
    known: set[int] = set()
    _check(gen, mod, "end_of_turn", reads, 3, known=known)
    gen.emit(3, "st.pos += 1")
    gen.emit(3, "if st.pos >= st.n:")
    inner = set(known)  # (what the branch checks is not known after it: it may not run)
    _check(gen, mod, "end_of_phase", reads, 4, known=inner)
    _check(gen, mod, "end_of_round", reads, 4, known=inner)
    gen.emit(4, "st.round += 1")
    gen.emit(4, "st.current = st.first")
    gen.emit(4, "st.pos = 0")
    gen.emit(4, "st.fversion += 1")
    _check(gen, mod, "immediate", reads, 4, known=inner)
    gen.emit(3, "st.loops = 0")
    gen.emit(3, "st.current = (st.first + st.pos) % st.n")
    gen.emit(3, "st.turn += 1")
    gen.emit(3, "st.step = 0")
    gen.emit(3, "st.acts = []")
    gen.emit(3, "st.fversion += 1")
    if "turn_start" in mod.hooks:
        gen.emit(3, "hook_turn_start(st)")
        gen.emit(3, "st.version += 1")
        gen.emit(3, "st.fversion += 1")
        untouched = _untouched(gen.rules, gen.rules.phases[0].turn_start, mod, known)
        for i in untouched:  # (found false before the hook, which cannot change what it reads: its charge only)
            if mod.end_charge[i]:
                gen.emit(3, f"st.loops += {mod.end_charge[i]}")
            gen.emit(3, f"seen[{i}] = st.version")
        gen.emit(3, "if st.loops > LOOP_LIMIT:")
        gen.emit(4, "raise BAIL")
        known.intersection_update(untouched)
    _check(gen, mod, "immediate", reads, 3, known=known)


def _untouched(rules: Any, hook: Any, mod: FlatModule, known: set[int]) -> list[int]:
    """The ends of `known` (found false at this `version`) that a hook cannot make true: the hook only assigns
    variables, none of which the end's condition reads (itself or through the functions it calls), and the
    end's loop charge is static (the flat code adds it instead of checking: the reference's count)."""
    written = set()
    for stmt in hook.body:
        if not (isinstance(stmt, A.Assign) and isinstance(stmt.target, A.Name)
                and rules.names.get(stmt.target.id, (None,))[0] == "var"):
            return []
        written.add(stmt.target.id)
    ends = {i: rules.ends[name].when for i, name, _ in mod.ends}
    return [i for i in sorted(known) if i in mod.end_charge and not written & _names_read(rules, ends[i])]


def _names_read(rules: Any, expr: Any) -> set[str]:
    """Every name an expression reads, through the bodies of the spec functions it calls."""
    out: set[str] = set()
    todo, seen = [expr], set()
    while todo:
        for n in todo.pop().walk():
            if isinstance(n, A.Name):
                out.add(n.id)
            elif isinstance(n, A.Call) and n.func in rules.functions and n.func not in seen:
                seen.add(n.func)
                if rules.functions[n.func][1] is not None:
                    todo.append(rules.functions[n.func][1])
    return out


def _step(gen: FlatStatements, mod: FlatModule, names: list[str], actions: list[str]) -> None:
    """A step: the actions whose conditions hold (one: its menu; none: the step is skipped; several: the
    general engine asks); a menu of one answers itself (both menus count against the `auto` limit)."""
    fixed = len(names) == 1 and names[0] not in mod.conditions  # (one action that is always offered)
    if fixed:
        gen.emit(3, f"a = {actions.index(names[0])}")
    elif len(names) == 1:
        gen.emit(3, f"a = {actions.index(names[0])} if ok_{names[0]}(st) else -1")
    else:
        gen.emit(3, "a = -1")
        for name in names:
            gen.emit(3, f"if ok_{name}(st):")
            gen.emit(4, "if a >= 0:")
            gen.emit(5, "raise BAIL  # (a real step menu: the general engine asks it)")
            gen.emit(4, f"a = {actions.index(name)}")
    if not fixed:
        gen.emit(3, "if a < 0:")
        gen.emit(4, "st.step += 1")
        gen.emit(4, "continue")
    with_param = [actions.index(n) for n in names if mod.params[n]]
    look = tuple(actions.index(n) for n in names if n in mod.look)
    plain = tuple(actions.index(n) for n in names if n in mod.look and not mod.params[n])
    if plain:  # (an action without a parameter that may be refused: tried first; refused, the step is skipped)
        gen.emit(3, f"if a in {plain!r} and not completes(st, a):")
        _dead_end(gen, 4)
    if with_param:
        inner = 3 if fixed else 4
        if not fixed:
            gen.emit(3, f"if a in {tuple(with_param)!r}:")
        gen.emit(inner, f"values = menu_{names[0]}(st)" if fixed else "values = MENU[a](st)")
        gen.emit(inner, "if not values:")
        if set(look) & set(with_param):  # (an empty menu of an action that may be refused: not written)
            gen.emit(inner + 1, f"if a in {look!r}:")
            gen.emit(inner + 2, "raise BAIL")
        gen.emit(inner + 1, "st.step += 1")
        gen.emit(inner + 1, "continue")
        if mod.look:
            gen.emit(inner, "keep = None")
        if set(look) & set(with_param):
            gen.emit(inner, f"if a in {look!r}:")
            gen.emit(inner + 1, "keep = viable(st, a, values)")
            gen.emit(inner + 1, "if not keep:")
            _dead_end(gen, inner + 2)
            gen.emit(inner + 1, "if len(keep) == len(values):")
            gen.emit(inner + 2, "keep = None")
            gen.emit(inner + 1, "elif len(keep) == 1:")
            gen.emit(inner + 2, "values = [values[keep[0]]]")
        gen.emit(inner, "if len(values) > 1:")
        if mod.look:
            gen.emit(inner + 1, "st.menu, st.action, st.auto, st.keep = values, a, 0, keep")
        else:
            gen.emit(inner + 1, "st.menu, st.action, st.auto = values, a, 0")
        gen.emit(inner + 1, "return")
        gen.emit(inner, "v = values[0]")
    gen.emit(3, "st.auto += 2")
    gen.emit(3, "if st.auto >= AUTO_LIMIT - 2:")
    gen.emit(4, "raise BAIL")
    if fixed:
        gen.emit(3, f"perform_{names[0]}(st{', v' if with_param else ''})")
    elif with_param and len(with_param) == len(names):
        gen.emit(3, "PERFORM[a](st, v)")
    elif not with_param:
        gen.emit(3, "PERFORM[a](st)")
    else:
        gen.emit(3, f"PERFORM[a](st, v) if a in {tuple(with_param)!r} else PERFORM[a](st)")
    gen.emit(3, "if st.over is not None:")
    gen.emit(4, "return")


__all__ = ["FlatModule", "flat_module", "TIMING_NAMES", "TIMING_CHECKS"]
