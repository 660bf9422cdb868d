"""Checks of `pay_to:` (where an action's payments go): each key is one of the action's cost entries, each
target a place the language can add a number to (a spec variable or track, `PLAYER.var`, `PIECE.attr`).

The target is checked as the statement the engine runs when the cost is paid, `TARGET += __paid__`
(interpreter/core/payto.py), in the scope of the action's parameters, so every error an effect's `+=`
would get (an unknown name, a table, a constant, a string attribute) is reported at the target's text.
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .suggest import did_you_mean

PAID = "__paid__"  # the local the paid amount is bound to while the target statement runs


def check_pay_to(c: Any, action: str, scope: Any) -> None:
    """Report a `pay_to` entry of an action naming no cost, a local target, or a target `+=` refuses (c: the
    Checker)."""
    check_payments(c, ("actions", action), c.m.actions[action], f"action '{action}'", scope)


def check_payments(c: Any, at: tuple, decl: Any, what: str, scope: Any) -> None:
    """The `pay_to` entries of `decl` (an action's, or an `activate:` ability's), at path `at`, in the scope
    of its parameters."""
    here = scope.child({PAID: "int"})
    for var in decl.pay_to:
        path = at + ("pay_to", var)
        if var not in decl.cost:
            c.error(c.key(*path), f"pay_to '{var}' names no cost of {what}" + did_you_mean(var, decl.cost),
                    "`pay_to` says where a cost's amount goes: its keys are keys of the `cost`")
            continue
        target = c.spec.expr(*path)
        if target is None:
            continue
        if isinstance(target, A.Name) and scope.get(target.id) is not None:
            c.error(target.span, f"pay_to '{var}' goes to '{target.id}', a parameter or local name: a payment goes "
                                 "to a variable, PLAYER.var or PIECE.attr")
            continue
        if not isinstance(target, (A.Name, A.Attr)):
            c.error(target.span, f"pay_to '{var}' must name a place to add the amount to: a variable, PLAYER.var "
                                 "or PIECE.attr")
            continue
        c._s_Assign(A.Assign(target.span, target, "+=", A.Name(target.span, PAID)), here)


__all__ = ["PAID", "check_pay_to", "check_payments"]
