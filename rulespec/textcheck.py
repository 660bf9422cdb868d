"""Checking rule text written outside a spec (a scenario's `expect` and `setup`, a document's examples)
against the spec's names and types, with the spec's index built once per spec."""

from __future__ import annotations

import weakref

from . import ast as A
from .callgraph import CallGraph
from .checker import _Checker
from .errors import Finding
from .gamespec import GameSpec
from .typing_rules import Scope, SpecIndex


def check_rule_text(spec: GameSpec, exprs: list[A.Expr], effects: list[A.Block], names: dict[str, str],
                    what: str = "condition") -> list[Finding]:
    """Static problems of rule text written outside the spec (a scenario's `expect` and `setup`), checked
    against the spec's names: `exprs` must be true/false (`what` names them in messages), `names` are the
    extra local names (with their types) the text may use."""
    c = _Checker(spec, _prepared(spec))
    top = Scope(None, dict(names))
    for node in exprs:
        c._want_bool(node, c.expr(node, top), f"{what} must be true/false")
    for block in effects:
        c.reassigned = {n.target.id for n in block.walk() if isinstance(n, A.Assign) and isinstance(n.target, A.Name)}
        c.block(block, top.child())
    return c.findings


_PREPARED: dict[int, tuple[SpecIndex, CallGraph, dict[str, list[str]]]] = {}  # id(spec) -> what _Checker builds


def _prepared(spec: GameSpec) -> tuple[SpecIndex, CallGraph, dict[str, list[str]]]:
    """The index, call graph and source lines of a spec, built once per spec: checking rule text from many
    scenario files of one game (`orrery validate` of a folder) would otherwise rebuild them for every file."""
    key = id(spec)
    if key not in _PREPARED:
        c = _Checker(spec)
        _PREPARED[key] = (c.ix, c.calls, c.lines)
        weakref.finalize(spec, _PREPARED.pop, key, None)  # (an id is reused once its object is gone)
    return _PREPARED[key]
