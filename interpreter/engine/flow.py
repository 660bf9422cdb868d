"""What the flow's stages share: turn orders, step menus, end checks, final scoring.

The stages themselves (rounds -> phases -> turns -> steps) are the resumable flow frame
(engine/flowframe.py); this module holds the rules they apply.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A
from orrery.rulespec.wording import titled

from ..core.decisions import GameEnded, Option, Refusal, RequireFailed, RuleError
from ..reference.costs import step_note
from ..reference.abilityrun import holders
from ..reference.effects import action_price, action_refusal, param_menu
from ..reference.evaluator import Interp
from ..core.state import Outcome
from ..core.values import Player

DONE = "done"
NOTHING_VIABLE = -1  # answer recorded when no option of a step menu can be completed


def init_var(it: Interp, name: str, per_player: bool, start: Any, path: tuple) -> None:
    expr = it.r.spec.expr(*path)
    if start is None and path[0] == "components":
        start = 0  # tracks count from 0 unless told otherwise
    if per_player:
        for p in it.s.players:
            it.s.pvars[p][name] = it.ev(expr, {"p": p}) if expr is not None else start
            it.s.version += 1
    else:
        it.s.vars[name] = it.ev(expr, {}) if expr is not None else start
        it.s.version += 1


def turn_order(it: Interp, ph: Any) -> list[int]:
    """The seats in the order this phase gives them turns."""
    n = it.s.n
    start = it.s.cursor.first_player
    if ph.start is not None:
        start = int(it.ev(ph.start, {}))
    cw = [(start + i) % n for i in range(n)]
    if ph.order == "clockwise":
        return cw
    if ph.order == "counterclockwise":
        return [start] + [(start - i) % n for i in range(1, n)]
    if ph.order == "snake":
        return cw + list(reversed(cw))
    keyed = [(it.ev(ph.order_by, {"p": Player(p)}), i, p) for i, p in enumerate(cw)]
    keyed.sort(key=lambda t: (t[0], t[1]))
    return [p for _, _, p in keyed]


def eligible(it: Interp, ph: Any, p: int) -> bool:
    if ph.turns == "until_pass" and p in it.s.cursor.passed:
        return False
    return it.truth(ph.players, {"p": Player(p)})


def step_candidates(it: Interp, ph: Any, st: Any) -> list[str]:
    """The actions a step offers, in menu order: its own, then the phase's free actions, then the actions
    free at any time (do not mutate)."""
    key = (id(ph), id(st))  # both live as long as the rules that cache the list
    names = it.r.step_menus.get(key)
    if names is None:
        names = list(st.actions)
        names.extend(a for a in ph.free_actions if a not in names)
        names.extend(a for a in it.r.anytime if a not in names)
        it.r.step_menus[key] = names
    return names


def action_options(it: Interp, names: list[str]) -> tuple[list[Option], dict[int, Any], list, dict | None]:
    """A menu of actions: those the acting player may start now (labelled, valued by name, indexed by their
    place in `names`), with the refusals of the others (by index, and as (label, refusal) pairs: written out
    when read, Decision.reasons) and the prices of those with a cost (Decision.notes: index -> note; None
    when none has one)."""
    options, reasons, rejected, notes = [], {}, [], None
    for i, name in enumerate(names):
        action = it.r.actions[name]
        why: Any = action_refusal(it, action)
        got = None
        if why is None and action.cost:
            try:
                got = action_price(it, action)
            except RequireFailed as failed:
                why = failed
        if why is not None:
            reasons[i] = why
            rejected.append((action.label, why))
            continue
        options.append(Option(action.label, name, i))
        if got:  # its price, shown with it
            notes = notes or {}
            notes[i] = step_note(got)
    return options, reasons, rejected, notes


def only_anytime(rules: Any, options: list[Option]) -> bool:
    """A step menu offering nothing but actions free at any time: the player may also move on (`skip`)."""
    return bool(options) and all(o.value in rules.anytime for o in options)


def parameter_menus(it: Interp, options: list[Option], reasons: dict[int, Any],
                    rejected: list) -> dict[str, tuple[list, list]]:
    """Drop from a real choice the actions whose one parameter has no legal value; their menus, by action.

    No look-ahead replays such an action (rules.param_gated), so its parameter's menu is computed here and
    kept for the action's own use.  A step with a single option does not need it: the option is taken
    anyway, and _step skips the step if its menu turns out empty.  A piece's ability of which the acting
    player holds no live carrier is refused before anything is evaluated (its menu would be empty), with
    the parameter's reason, made once (ActionInfo.refusal); every refusal is recorded, written out when read.
    """
    menus: dict[str, tuple[list, list]] = {}
    if len(options) < 2:
        return menus
    r = it.r
    gated, carried = r.param_gated, r.carried
    held = holders(it) if carried else None
    kept = []
    for opt in options:
        name = opt.value
        if name in gated:
            action = r.actions[name]
            menu = action.refusal("unheld") if held is not None and name in carried and name not in held else \
                param_menu(it, action)
            if menu.__class__ is Refusal:
                reasons[opt.index] = menu
                rejected.append((action.label, menu))
                continue
            menus[name] = menu
        kept.append(opt)
    if len(kept) < len(options):
        options[:] = kept  # (in place, as the caller reads it; not one `remove` each: Option equality is not cheap)
    return menus


def next_step(c: Any) -> None:
    """The cursor on the turn's next step."""
    c.step += 1
    c.step_count = 0


# ------------------------------------------------------------------ ending


_TIMINGS = TIMINGS = {"immediate": ("immediate",), "end_of_turn": ("immediate", "end_of_turn"),
            "end_of_phase": ("immediate", "end_of_phase"), "end_of_round": ("immediate", "end_of_round")}


def ends_of(rules: Any, timing: str) -> tuple[list[Any], bool]:
    """The end conditions a timing checks, in spec order, and whether any reads the flow (once per spec)."""
    at = rules.ends_at.get(timing)
    if at is None:
        allowed = _TIMINGS[timing]
        ends = [e for e in rules.ends.values() if e.when is not None and e.check in allowed]
        at = rules.ends_at[timing] = (ends, any(reads_flow(rules, e.when) for e in ends))
    return at


def check_ends(it: Interp, timing: str) -> None:
    """Raise GameEnded for the first end condition (in spec order) that applies now and holds."""
    ends, flow_read = ends_of(it.r, timing)
    if not ends:
        return
    s = it.s
    # An end condition found false is not checked again until something it can read has changed: the
    # state's version moves on every change of a place, piece or variable; the cascade count and the
    # RNG (a condition may draw) are in the key too, and the cursor when a condition reads the flow
    # (`current`, `round`, `passed`...).  The flow checks at every stage, most often with nothing
    # changed since the last check.
    if flow_read:
        c = s.cursor
        key: tuple = (s.version, s.cascade, s.rng.state, c.current, c.round, c.turn, c.phase, c.first_player,
                      tuple(sorted(c.passed)))
    else:
        key = (s.version, s.cascade, s.rng.state)
    memo = s.derived.get(_ENDS_FALSE)
    if memo is None or memo[0] != key:
        memo = s.derived[_ENDS_FALSE] = (key, set())
    known_false = memo[1]
    saved, it.memo = it.memo, {}  # only expressions run here: pure functions may remember results
    try:
        for end in ends:
            if end.name in known_false:
                continue
            if it.truth(end.when, {}):
                raise GameEnded(end.name)
            if s.rng.state == key[2]:  # (a condition that drew must be drawn again next time)
                known_false.add(end.name)
    finally:
        it.memo = saved


_ENDS_FALSE = ENDS_FALSE = ("__ends_false__",)  # the State.derived entry of the ends found false
_FIXED_SPECIALS = frozenset({"players", "num_players"})  # special names that never change during a game


def reads_flow(rules: Any, expr: Any) -> bool:
    """Whether an expression can read the flow's cursor: a special name that follows the turn (`current`,
    `round`, `turn`, `phase`...), a player's `passed`, or a function that does.  Anything else it reads
    is a place, a piece, a variable, the cascade count or the RNG, which the end checks' key covers."""
    seen: set[str] = set()
    todo: list[tuple[Any, tuple]] = [(expr, ())]
    while todo:
        node, params = todo.pop()
        if node is None:
            return True  # (a function without a body: assume the worst)
        local = set(params) | {n.var for n in node.walk() if isinstance(n, A.CompFor)}
        for n in node.walk():
            if isinstance(n, A.Name) and n.id not in local and n.id not in _FIXED_SPECIALS \
                    and rules.names.get(n.id, (None,))[0] == "special":
                return True
            if isinstance(n, A.Attr) and n.name == "passed":
                return True
            if isinstance(n, A.Call) and n.func in rules.functions and n.func not in seen:
                seen.add(n.func)
                todo.append((rules.functions[n.func][1], tuple(rules.functions[n.func][0])))
    return False  # State.derived key: (what the checks could read, the ends found false)


def finish(it: Interp, name: str) -> None:
    """Final scoring, winners, scores and returns; the game is over."""
    s, r = it.s, it.r
    if name not in r.ends:
        raise RuleError(f"end_game names '{name}', which is not an end condition", r.spec.span("end"))
    try:
        it.run(r.spec.effect("scoring", "final"))
    except GameEnded:
        pass  # already ending
    end = r.ends[name]
    players = s.players
    if end.winners is not None:
        w = it.ev(end.winners, {})
        winners = [w] if isinstance(w, int) and not isinstance(w, bool) else [] if w is None else w
        if not isinstance(winners, list) or any(isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < s.n
                                                for p in winners):
            raise RuleError(f"winners must be a list of players (seats 0 to {s.n - 1}), got {it.describe(w)}"
                            + (f": {it.label(w)}" if isinstance(w, list) else ""), end.winners.span)
        winners = sorted({int(p) for p in winners})
    else:
        winners = rank_winners(it)
    scores = [r.score_of(it, p) for p in players]
    if s.n > 1 and (not winners or len(winners) == s.n):  # nobody or everybody won: a draw
        returns = [0.0] * s.n
    else:
        returns = [1.0 if p in winners else -1.0 for p in range(s.n)]
    s.outcome = Outcome(name, winners, scores, returns)
    s.cursor.stage = "over"
    emit_safe(it)


def emit_safe(it: Interp) -> None:
    """Announce the end in the narration."""
    o = it.s.outcome
    if o is None:
        return
    who = ", ".join(it.r.seat_name(p) for p in o.winners) or "nobody"
    it.s.msgs.append(f"game over ({titled(it.r.spec.model, 'end', o.end)}): winner {who}")


def rank_winners(it: Interp) -> list[int]:
    """Players with the best ranking keys (compared largest first)."""
    keys = [it.r.rank_key(it, p) for p in it.s.players]
    best = max(keys)
    winners = [i for i, k in enumerate(keys) if k == best]
    if len(winners) > 1 and it.r.spec.model.ranking.ties == "nobody":
        return []
    return winners


__all__ = ["check_ends", "ends_of", "ENDS_FALSE", "TIMINGS", "finish", "turn_order", "eligible", "init_var", "next_step", "parameter_menus",
           "step_candidates", "DONE", "NOTHING_VIABLE"]
