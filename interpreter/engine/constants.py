"""Constants written as expressions, worked out once per loaded spec, before any game starts.

A constant's expression reads only what never changes (literals, zones and their cells, tables, the constants
above it: the checker sees to it), so one evaluation, on an empty state, serves every game of the rules and
both engines: the compiled path then holds the values as constants.  An expression that fails (an index out of
range, a limit) is a located error in the spec.
"""

from __future__ import annotations

from orrery.rulespec.errors import Finding, SpecError

from ..core.decisions import RuleError, RunawayError
from ..core.rules import Rules
from ..core.state import State
from ..core.valueops import Limits
from ..reference.evaluator import Interp


def evaluate_constants(rules: Rules, limits: Limits) -> None:
    """Work out the spec's expression constants, in declaration order, into the rules' names."""
    spec = rules.spec
    pending = [(n, spec.expr("constants", n)) for n, v in spec.model.constants.items() if isinstance(v, str)]
    if not pending:
        return
    it = Interp(State(rules, rules.default_players, 0), limits)
    for name, node in pending:
        if node is None:  # (a spec loaded unparsed: nothing to evaluate)
            continue
        try:
            value = it.ev(node, {})
        except (RuleError, RunawayError) as err:
            finding = err.findings[0] if err.findings else Finding(spec.span("constants", name), str(err))
            raise SpecError(Finding(finding.span or spec.span("constants", name),
                                    f"constant '{name}' cannot be worked out: {finding.message}")) from None
        rules.names[name] = ("const", value)
