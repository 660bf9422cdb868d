"""Static analyses of a spec for the code generator: which names an env may bind, which functions
are pure and worth remembering (memoisable, cheap), which depend only on places (placebound)."""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A
from orrery.rulespec.callgraph import RANDOM


def env_bound_names(rules: Any) -> set[str]:
    """Every name that some env may bind at run time (locals, parameters, engine-supplied names)."""
    names = {"event", "matched_at", "p", "it", "__rule__", "winners", "ended"}
    if rules.abilities is not None or rules.spec.model.effects:
        names |= {"self", "owner"}  # (bound for pieces' abilities: core/abilities.py env_of)
    spec = rules.spec
    for root in list(spec.exprs.values()) + list(spec.effects.values()):
        for n in root.walk():
            if isinstance(n, (A.Let, A.For, A.Choose)):
                names.add(n.name if isinstance(n, A.Let) else n.var)
            elif isinstance(n, A.Commit):
                names.add(n.var)
            elif isinstance(n, (A.Create, A.Draw)) and n.bind:
                names.add(n.bind)
            elif isinstance(n, A.CompFor):
                names.add(n.var)
    for params, _ in list(rules.functions.values()) + list(rules.procedures.values()):
        names.update(params)
    for action in rules.actions.values():
        names.update(p.name for p in action.params)
    for trig in rules.triggers:
        if trig.var:
            names.add(trig.var)
    return names


IMPURE = RANDOM  # built-ins that draw from the game's random numbers


def memoisable(rules: Any) -> dict[str, int]:
    """Spec functions whose result depends only on their arguments and the state: name -> call nesting.

    Excluded: functions that draw random numbers, recursive ones, and those calling either.
    """
    calls: dict[str, set[str]] = {}
    impure: set[str] = set()
    for name, (_, body) in rules.functions.items():
        calls[name] = set()
        for n in body.walk() if body is not None else ():
            if isinstance(n, A.Call):
                if n.func in rules.functions:
                    calls[name].add(n.func)
                elif n.func in IMPURE:
                    impure.add(name)
    depth: dict[str, int] = {}

    def visit(name: str, path: tuple) -> int | None:
        if name in path or name in impure:
            return None
        if name in depth:
            return depth[name]
        deepest = 0
        for callee in calls.get(name, ()):
            d = visit(callee, path + (name,))
            if d is None:
                return None
            deepest = max(deepest, d)
        depth[name] = deepest + 1
        return depth[name]

    for name in calls:
        visit(name, ())
    return depth


# Built-ins that do a fixed, small amount of work whatever the state holds.
_CONSTANT_TIME = frozenset({"empty", "top", "bottom", "neighbor", "cell", "owner_of", "next_player", "abs",
                            "direction", "opposite", "rotate", "in_bounds", "distance", "place_of", "zone_of",
                            "changed_at"})
# Operators that never count loop work whatever their operands (`+` copies texts and lists: it does).
_UNCOUNTED_OPS = frozenset({"==", "!=", "<", "<=", ">", ">=", "and", "or", "-", "*", "//", "%", "in", "not in"})


def counts_no_loops(node: A.Expr, shape: Any, functions: Any) -> bool:
    """Whether an expression can never count against the loop limit: no comprehension, no call of a spec
    function (`functions`: the spec's), no built-in but the constant-time ones (none of which counts), no
    list or record made (their nested items count), and `+` only between numbers (`shape(node)` gives a
    node's shape).
    A comprehension whose element and condition are such expressions counts exactly one tick per item
    of its domain, so its ticks can be counted at once (codegen.comprehension)."""
    for n in node.walk():
        if isinstance(n, (A.Comprehension, A.ListLit, A.Record, A.Index)):
            return False
        if isinstance(n, A.Call) and (n.func not in _CONSTANT_TIME or n.func in functions):
            return False
        if isinstance(n, A.Binary) and n.op not in _UNCOUNTED_OPS and not (
                n.op == "+" and shape(n.left) == "int" and shape(n.right) == "int"):
            return False
        if not isinstance(n, (A.Literal, A.Name, A.Attr, A.Call, A.Binary, A.Unary, A.Cond)):
            return False
    return True


_CHEAP_NODES = 80  # AST nodes, callees' bodies included: below this a lookup costs about as much as the work


def cheap(rules: Any) -> set[str]:
    """Spec functions not worth remembering: no loop, no built-in that walks a list or a place, only cheap
    callees, and small (their callees' bodies counted).  Remembering costs a key, a dictionary lookup and a
    store per call; a profile of a line-of-four test (24 such calls per move, none repeated) showed the
    memo slower than the work.  Not remembering is always safe: it is what the interpreter does."""
    size: dict[str, int | None] = {}

    def cost(name: str, path: tuple) -> int | None:
        if name in size:
            return size[name]
        if name in path:
            return None
        body = rules.functions[name][1]
        total = 0
        for n in body.walk() if body is not None else ():
            total += 1
            if isinstance(n, (A.Comprehension, A.CompFor)):
                total = None
                break
            if isinstance(n, A.Call):
                if n.func in rules.functions:
                    callee = cost(n.func, path + (name,))
                    if callee is None:
                        total = None
                        break
                    total += callee
                elif n.func not in _CONSTANT_TIME:
                    total = None
                    break
        size[name] = total if total is not None and total <= _CHEAP_NODES else None
        return size[name]

    return {name for name in rules.functions if cost(name, ()) is not None}


_FIXED_SPECIALS = {"players", "num_players"}  # special names that never change during a game


def placebound(rules: Any, memo: dict[str, int]) -> set[str]:
    """Memoisable functions whose result depends only on their arguments and on what the state's version
    covers: the pieces (where each one is, its attributes) and the variables (global and per player).
    They read no special name but `players` and `num_players` (the others follow the turn, which the
    version does not) and no `passed` of a player.

    The version moves whenever a piece moves or changes and whenever a variable is set, so their
    results can be remembered in the state, keyed by the version, across menus, end checks and effects.
    """
    reads_more: set[str] = set()
    calls: dict[str, set[str]] = {}
    for name, (params, body) in rules.functions.items():
        calls[name] = set()
        if name not in memo or body is None:
            reads_more.add(name)
            continue
        local = set(params) | {n.var for n in body.walk() if isinstance(n, A.CompFor)}
        for n in body.walk():
            if (isinstance(n, A.Name) and n.id not in local and n.id not in _FIXED_SPECIALS
                    and rules.names.get(n.id, (None,))[0] == "special"):
                reads_more.add(name)
            elif isinstance(n, A.Attr) and n.name == "passed":
                reads_more.add(name)
            elif isinstance(n, A.Call) and n.func in rules.functions:
                calls[name].add(n.func)
    changed = True
    while changed:  # a function calling one that reads more reads more too
        changed = False
        for name, callees in calls.items():
            if name not in reads_more and callees & reads_more:
                reads_more.add(name)
                changed = True
    return {n for n in memo if n not in reads_more}
