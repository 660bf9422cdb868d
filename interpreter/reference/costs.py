"""Action costs: each amount computed once per check-and-pay, refused (never clamped) when it cannot be paid.

An action's `cost` entries that read none of its parameters are checked and paid when the action starts,
before the parameters are chosen (the step menu checks them too, and shows them); those that read a
parameter (a card's own price) are checked and paid once every parameter is chosen, before the effect.
Either way the number is computed once, then checked, paid and told in the narration; a player who cannot
pay is refused with the rule's reason ("'buy' costs 9 coins; you have 4"), located at the amount.  The
parameter menu at which the last parameter read by a cost is chosen shows each option's price
(`late_notes`): computed only when someone reads it, on the state of that menu, without changing it.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from orrery.rulespec import ast as A

from ..core.decisions import Decision, RequireFailed, RuleError
from ..core.payto import PAID
from ..core.values import Player
from .bounds import track_bounds

if TYPE_CHECKING:
    from ..core.rules import ActionInfo

Interp = Any  # the evaluator's Interp (it imports this module's importers)


def amounts(it: "Interp", entries: list[tuple[str, A.Expr]], env: dict) -> list[tuple[str, int, A.Expr]]:
    """Each cost entry's amount, computed once: (what is paid, how much, where the amount is written)."""
    out = []
    for var, expr in entries:
        v = it.ev(expr, env)
        if v.__class__ is not int:
            if v.__class__ is bool or not isinstance(v, int):
                raise RuleError(f"a cost must be a number, got {it.describe(v)}", expr.span)
            v = int(v)
        if v < 0:
            raise RuleError(f"a cost must not be negative, got {v}", expr.span)
        out.append((var, v, expr))
    return out


def floor_of(it: "Interp", var: str, seat: int) -> int:
    """The lowest value a cost may leave: the track's `min` when it has one (for the payer), else 0."""
    track = it.r.tracks.get(var)
    low = None if track is None else track.min
    if low is not None and low.__class__ is not int:
        low = track_bounds(it, var, track, Player(seat))[0]
    return 0 if low is None else low


def check_amounts(it: "Interp", action: "ActionInfo", got: list[tuple[str, int, A.Expr]], seat: int) -> None:
    """Refuse (RequireFailed, with the action's rule) the first amount the player cannot pay."""
    pv = it.s.pvars[seat]
    for var, amount, expr in got:
        have = pv.get(var, 0) or 0
        low = floor_of(it, var, seat)
        if have - amount < low:
            below = f" and may not go below {low}" if low else ""
            raise RequireFailed(f"'{action.label}' costs {amount} {words(var)}; you have {have}{below}", expr.span,
                                action.rule)


def pay(it: "Interp", action: "ActionInfo", entries: list[tuple[str, A.Expr]], env: dict, seat: int) -> None:
    """Compute the amounts once, check them all, then pay them (and tell it)."""
    got = amounts(it, entries, env)
    check_amounts(it, action, got, seat)
    s = it.s
    pv = s.pvars[seat]
    for var, amount, _ in got:
        pv[var] = (pv.get(var, 0) or 0) - amount
    s.version += 1
    if it.narrate and got:
        s.msgs.append(f"{it.r.seat_name(seat)} pays {cost_text(got)} for '{action.label}'")
    if action.pay_to:  # where the payments go, in the same step (core/payto.py)
        for var, amount, _ in got:
            block = action.pay_to.get(var)
            if block is not None:
                it.run(block, {**env, PAID: amount})


def cost_text(got: list[tuple[str, int, Any]]) -> str:
    """`3 coins, 1 energy`."""
    return ", ".join(f"{amount} {words(var)}" for var, amount, _ in got)


def words(var: str) -> str:
    """A track's name as words (`time_tokens` -> `time tokens`)."""
    return var.replace("_", " ")


# ------------------------------------------------------------------ prices in menus


def step_note(got: list[tuple[str, int, Any]]) -> Any:
    """The note of a step menu's option: its cost (made into text when read)."""
    return lambda: f"costs {cost_text(got)}"


def late_notes(it: "Interp", action: "ActionInfo", env: dict, var: str, decision: Decision) -> None:
    """Give the options of the parameter menu at which the last parameter a cost reads is chosen their price
    (`decision.notes`), each computed when first read, on this menu's state, by an interpreter of its own
    (its own loop count; the random state put back), so reading it changes nothing; a note read once the
    state has moved on, or whose amount cannot be computed, is none."""
    s = it.s
    base = dict(env)
    decision.notes = {opt.index: partial(_late_note, it, s, s.version, action, base, var, opt.value)
                      for opt in decision.options if not (opt.value is None and opt.label == "skip")}


def reader(it: "Interp", s: Any) -> "Interp":
    """An interpreter of its own over the menu's state `s` (its own counters), for reading prices and menus
    without changing anything (engine/fallible.py judges a step menu's priced action with one)."""
    it = it.fork(s)
    it.loops, it.call_depth, it.memo, it.narrate = 0, 0, None, False
    return it


def _late_note(menu_it: "Interp", s: Any, version: int, action: "ActionInfo", env: dict, var: str,
               value: Any) -> str | None:
    if s.version != version:
        return None
    it = reader(menu_it, s)
    rng = s.rng.state
    try:
        got = amounts(it, action.late_cost, {**env, var: value})
    except Exception:  # noqa: BLE001 - a price that cannot be shown is not shown; paying it reports the error
        return None
    finally:
        s.rng.state = rng
    return f"costs {cost_text(got)}"


def price_check(it: "Interp", action: "ActionInfo", env: dict, var: str, seat: int) -> Any:
    """For the menu at which the last parameter a late cost reads is chosen, when nothing after it but that
    cost can refuse the move (engine/fallible.py `priced`): a judge of each option by its price, on this
    menu's state, as the payment will find it (nothing runs between the menu and the payment but the later
    parameters' menus, and no late amount draws a random number).  It gives True (the price can be paid),
    the refusal's reason (it cannot), or None (the amount cannot be worked out: the option is replayed, and
    the replay reports the error)."""
    judge = price_judge(reader(it, it.s), action, env, var, seat)

    def explained(value: Any) -> bool | str | None:
        got = judge(value)
        return got.explain() if got.__class__ is RequireFailed else got

    return explained


def price_judge(it: "Interp", action: "ActionInfo", env: dict, var: str, seat: int) -> Any:
    """price_check's judge on an interpreter of its own (`reader`), the refusal kept as the RequireFailed the
    payment would raise (not written out)."""
    s = it.s

    def judge(value: Any) -> bool | RequireFailed | None:
        rng = s.rng.state
        try:
            got = amounts(it, action.late_cost, {**env, var: value})
            check_amounts(it, action, got, seat)
        except RequireFailed as refused:
            return refused
        except Exception:  # noqa: BLE001 - not judged here: the replay raises it where the rules run
            return None
        finally:
            s.rng.state = rng
        return True

    return judge


__all__ = ["amounts", "check_amounts", "cost_text", "late_notes", "pay", "price_check", "price_judge", "reader",
           "step_note"]
