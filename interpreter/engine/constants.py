"""Constants written as expressions, worked out once per loaded spec, before any game starts.

A constant's expression reads only what never changes (literals, zones and their cells, tables, the constants
above it: the checker sees to it), so one evaluation, on an empty state, serves every game of the rules and
both engines: the compiled path then holds the values as constants.  An expression that fails (an index out of
range, a limit) is a located error in the spec.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A
from orrery.rulespec.errors import Finding, SpecError

from ..core.decisions import RuleError, RunawayError
from ..core.rules import Rules
from ..core.state import State
from ..core.valueops import Limits
from ..core.values import ZoneRef
from ..reference.evaluator import Interp


def evaluate_constants(rules: Rules, limits: Limits) -> None:
    """Work out the spec's expression constants, in declaration order, into the rules' names; then a search
    bot's `heuristic_max` when it is written as an expression."""
    spec = rules.spec
    pending = [(n, spec.expr("constants", n)) for n, v in spec.model.constants.items() if isinstance(v, str)]
    top = spec.model.bots.heuristic_max
    if not worked_out_at_load(spec.model):
        return
    it = Interp(State(rules, rules.default_players, 0), limits)
    env = static_env(rules)
    for name, node in pending:
        if node is None:  # (a spec loaded unparsed: nothing to evaluate)
            continue
        rules.names[name] = ("const", _work_out(it, node, env, ("constants", name), f"constant '{name}'"))
    for i, req in enumerate(spec.model.requires):
        _require(it, env, i, req.message)
    node = spec.expr("bots", "heuristic_max") if isinstance(top, str) else None
    if node is not None:
        value = _work_out(it, node, env, ("bots", "heuristic_max"), "heuristic_max")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise SpecError(Finding(node.span,
                                    f"heuristic_max must be a whole number of 1 or more, got {it.describe(value)}"))
        rules.heuristic_top = value


def worked_out_at_load(model: Any) -> bool:
    """Whether the spec has expressions worked out when a game is built (constants written as expressions,
    requirements, an expression heuristic_max): `orrery validate` builds one to report their failures."""
    return (any(isinstance(v, str) for v in model.constants.values()) or bool(model.requires)
            or isinstance(model.bots.heuristic_max, str))


def _require(it: Interp, env: dict, i: int, message: str) -> None:
    """Requirement i holds, or the rules do not load: its message, located at its condition, with the values
    compared when it is a comparison (what a variant changed)."""
    node = it.r.spec.expr("requires", i, "holds")
    if node is None:
        return
    what = f"requirement {i + 1}"
    if _work_out(it, node, env, ("requires", i, "holds"), what) is True:
        return
    sides = ""
    if isinstance(node, A.Binary) and node.op in ("==", "!=", "<", "<=", ">", ">="):
        shown = [f"{_source(n.span) or 'it'} is {it.label(_work_out(it, n, env, ('requires', i, 'holds'), what))}"
                 for n in (node.left, node.right) if not isinstance(n, A.Literal)]
        sides = f" ({', '.join(shown)})" if shown else ""
    raise SpecError(Finding(node.span, f"the rules require that {message.rstrip('.')}{sides}",
                            "error", "a variant changed a size or constant the rules depend on; change the "
                                     "others with it, or drop the change"))


def static_env(rules: Rules) -> dict[str, Any]:
    """Per-player zones named alone in a static expression: the zone as declared (its width and height are the
    same for every player's copy; the checker lets such a name read nothing else)."""
    return {n: ZoneRef(n, 0) for n, z in rules.zones.items() if z.decl.per_player and z.decl.per is None}


def _work_out(it: Interp, node: Any, env: dict, path: tuple, what: str) -> Any:
    """The value of a static expression; a failure is a located error in the spec."""
    try:
        return it.ev(node, dict(env))
    except (RuleError, RunawayError) as err:
        spec = it.r.spec
        finding = err.findings[0] if err.findings else Finding(spec.span(*path), str(err))
        raise SpecError(Finding(finding.span or spec.span(*path),
                                f"{what} cannot be worked out: {finding.message}")) from None


def _source(span: Any) -> str | None:
    """The text a one-line span covers in its file (None when it cannot be read): for messages only."""
    if span is None or span.end_line not in (None, span.line) or span.end_col is None:
        return None
    try:
        with open(span.file, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if n == span.line:
                    return line[span.col - 1:span.end_col - 1] or None
    except (OSError, UnicodeDecodeError):
        return None
    return None
