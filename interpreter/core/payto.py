"""Where an action's payments go (`pay_to:`): each cost entry named there adds its amount to a target.

A cost takes an amount away from the acting player; `pay_to: {coins: bank}` puts that same amount into the
target in the same step, so a quantity the rules conserve is never in nobody's hands, not even while the
player is still choosing the action's parameters (a cost reading no parameter is paid when the action
starts).  The target is an assignable expression (a variable, `PLAYER.var`, `PIECE.attr`, reading the
parameters a late cost may read); it is run as the statement `TARGET += __paid__`, with the amount bound to
`__paid__`, by the engine's own `run` (the reference runs the statement, the compiled path compiles it), so
the two engines assign, clamp and narrate it alike.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A
from orrery.rulespec.payto_check import PAID


def paid_to(spec: Any, at: tuple, targets: dict[str, Any], prelude: tuple = ()) -> dict[str, A.Block]:
    """Each `pay_to` entry at path `at` (an action's, an `activate:` ability's) as the block `TARGET +=
    __paid__`, after the statements of `prelude` when the target reads a name they bind (`owner`)."""
    out = {}
    for var in targets:
        target = spec.expr(*at, "pay_to", var)
        if target is None:
            continue
        span = target.span
        pay = A.Assign(span, target, "+=", A.Name(span, PAID))
        names = {n.id for n in target.walk() if isinstance(n, A.Name)}
        lets = tuple(s for s in prelude if isinstance(s, A.Let) and s.name in names)
        out[var] = A.Block(span, lets + (pay,))
    return out


__all__ = ["PAID", "paid_to"]
