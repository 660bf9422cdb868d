"""Reaction windows (docs/dsl.md 2.19): who is asked, in which order, with which menu, until when.

A window is played by a frame of the resumable stack (engine/frames.py WindowFrame), the same on both
engines; this module holds the rules it applies.  A window's menu is an ordinary decision whose player is
the one asked (`current_player()` is that seat), so bots, hot-seat play, views and saves need nothing
special: its options are the window's actions the player may take now, checked as that player (they are
the acting player while it is checked and while the action runs), and `pass`, which is always there.
"""

from __future__ import annotations

from typing import Any

from ..core.decisions import Decision, Option, RuleError, RunawayError
from ..core.reactions import WindowInfo
from ..core.values import Player, Record
from .flow import action_options, parameter_menus

PASS = None  # the value of a window's `pass` option (last in the menu, like an optional choice's `skip`)


def open_record(it: Any, name: str, data: Record) -> Record:
    """The `event` record a window opened by `open NAME(...)` sees (as `emit` makes one)."""
    record = Record(data)
    record.setdefault("name", name)
    record.setdefault("player", it.current())
    return record


def enter(it: Any, win: WindowInfo, span: Any) -> None:
    """A window opens: one level deeper in the nesting of events and windows (limit emit_depth)."""
    it.emit_depth += 1
    if it.emit_depth > it.limits.emit_depth:
        raise RunawayError(f"events and windows nested more than {it.limits.emit_depth} deep while opening "
                           f"window '{win.name}' (limit emit_depth); raise it with --limit emit_depth=N", span)


def poll_order(it: Any, win: WindowInfo, record: Record) -> list[int]:
    """The seats asked, in poll order (empty when the window's `when` is false)."""
    env = {"event": record}
    if not it.truth(win.when, env):
        return []
    n = it.s.n
    opener = record.get("player")
    opener = int(opener) if opener.__class__ in (int, Player) and 0 <= opener < n else it.s.cursor.turn_player
    if win.who is None:
        listed = [p for p in range(n) if p != opener]
    else:
        value = it.ev(win.who, env)
        if value.__class__ is Player or value.__class__ is int:
            value = [value]
        if not isinstance(value, list) or any(p.__class__ not in (int, Player) or not 0 <= p < n for p in value):
            raise RuleError(f"a window's `who` must be a list of players, got {it.describe(value)}", win.who.span)
        listed = list(dict.fromkeys(int(p) for p in value))
    if win.poll == "as_listed":
        return listed
    return [p for p in ((opener + i) % n for i in range(1, n + 1)) if p in listed]


def answers(it: Any, win: WindowInfo, seat: int) -> list[str]:
    """What a window may offer `seat` besides `pass`, in menu order: its actions, then those free at any time
    (in the player's own turn, `anytime: own_turn` and `always`; in another's turn, `always`).  (Abilities
    carried by cards would join here, as answers of their own.)"""
    extra = it.r.anytime if seat == it.s.cursor.turn_player else it.r.anytime_always
    return list(win.actions) + [a for a in extra if a not in win.actions]


def window_menu(it: Any, win: WindowInfo, seat: int) -> tuple[list[Option], dict, list, dict, dict | None]:
    """The options `seat` has in a window: its answers (see `answers`) allowed to them now (checked as the
    acting player, the first parameter's menu worked out as a step menu does), then `pass`; with the reasons
    of the refused ones, the parameter menus kept for the action chosen and the options' prices."""
    c = it.s.cursor
    names = answers(it, win, seat)
    saved, c.current = c.current, seat
    try:
        options, reasons, rejected, notes = action_options(it, names)
        options.append(Option("pass", PASS, len(names)))
        menus = parameter_menus(it, options, reasons, rejected)
    finally:
        c.current = saved
    return options, reasons, rejected, menus, notes


def decision(it: Any, win: WindowInfo, seat: int, options: list[Option], reasons: dict, rejected: list,
             notes: dict | None) -> Decision:
    """The question a window asks `seat`."""
    return Decision(seat, win.prompt, options, "window", win.span, reasons=reasons, rejected=rejected,
                    action=it.top_action, site=("window", win.name), must_ask=win.ask == "always", notes=notes)


def closed(win: WindowInfo, n: int, passes: int, answered: int, taken: int) -> bool:
    """Whether a window with `n` players asked is over."""
    if n == 0:
        return True
    if win.closes == "each_once":
        return answered >= n
    if win.closes == "first_taken" and taken:
        return True
    return passes >= n


__all__ = ["PASS", "answers", "closed", "decision", "enter", "open_record", "poll_order", "window_menu"]
