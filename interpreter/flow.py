"""The flow engine: rounds -> phases -> turns -> steps, as a stage machine over the cursor.

`run_flow` advances the cursor until a player must decide (a `Suspend` leaves
it) or the game ends.  Every stage re-checks end conditions; a flow that keeps
going without ever asking anyone anything is stopped by the flow limit.
"""

from __future__ import annotations

from typing import Any, Callable

from .decisions import Decision, GameEnded, Option, RequireFailed, RuleError, RunawayError
from .effects import check_action, emit, param_values, perform_action, settle
from .evaluator import Interp
from .state import BOX, Outcome
from .values import Player, Record, ZoneRef

DONE = "done"
NOTHING_VIABLE = -1  # answer recorded when no option of a step menu can be completed


def run_flow(it: Interp) -> None:
    """Advance until a decision is needed (Suspend propagates) or the game is over."""
    s = it.s
    steps = 0
    while s.outcome is None:
        steps += 1
        if steps > it.limits.flow:
            raise RunawayError(
                f"the flow went through {it.limits.flow} stages without asking any player anything "
                f"(limit flow); is an end condition missing? Raise it with --limit flow=N",
                it.r.spec.span("flow"))
        if (it.track_boundaries and it.pos >= len(it.answers) and s.cursor.stage in it.r.asking_stages
                and not _turn_over(it)):
            # a stage boundary is a resumable position: the driver may make it the new checkpoint,
            # so that replay re-runs only the current stage, not everything since the step menu.
            # Only boundaries past the last known answer are recorded: earlier ones would mostly be
            # superseded, and each costs a copy of the state (the driver keeps its old checkpoint
            # when none is recorded, which replays the same). Stages that cannot ask are skipped: a
            # run never stops in them, so a later boundary of the same run always supersedes theirs
            it.boundary = (s.clone(), it.pos, list(s.msgs))
            if it.replay is not None:  # menus from here on are remembered for replays from this boundary
                it.replay, it.replay_base, it.replay_seq = it.boundary[0].replay, it.pos, (it.pos, 0)
        try:
            _STAGES[s.cursor.stage](it)
        except GameEnded as ended:
            finish(it, ended.name)


def _turn_over(it: Interp) -> bool:
    """The step stage past the turn's last step (or after `end_turn`): it only moves on to turn_end, so it
    can ask nothing and its boundary would always be superseded (one state copy a turn saved)."""
    c = it.s.cursor
    return c.stage == "step" and (c.end_turn or c.step >= len(it.r.phases[c.phase].steps))


# ------------------------------------------------------------------ stages


def _game_start(it: Interp) -> None:
    s, r = it.s, it.r
    counts = r.initial_counts()
    if sum(counts.values()) > it.limits.pieces:
        biggest = max(counts, key=counts.get)
        raise RunawayError(f"the components make {sum(counts.values())} pieces ({counts[biggest]} of '{biggest}'), "
                           f"more than {it.limits.pieces} (limit pieces); raise it with --limit pieces=N",
                           r.spec.span("components", "pieces", biggest))
    for kind, attrs in r.initial_pieces():
        start = r.kinds[kind].start
        place = BOX if start is None else it.as_place(it.ev(start, {}), start.span)
        s.new_piece(kind, attrs, place)
    for name, track in r.tracks.items():
        _init_var(it, name, track.per_player, track.start, ("components", "tracks", name, "start"))
    for name, var in r.variables.items():
        _init_var(it, name, var.per_player, var.start, ("variables", name, "start"))
    extra, replace = s.setup_override or (None, False)
    if not replace:
        it.run(r.spec.effect("setup"))
    it.run(extra)  # a scenario's position, on top of (or instead of) the spec's setup
    emit(it, "game_start")
    check_ends(it, "immediate")
    s.cursor.stage = "round_start"


def _init_var(it: Interp, name: str, per_player: bool, start: Any, path: tuple) -> None:
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


def _round_start(it: Interp) -> None:
    s, c = it.s, it.s.cursor
    c.round += 1
    if c.round == 1:
        expr = it.r.spec.expr("flow", "first_player")
        first = 0 if expr is None else it.ev(expr, {})
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < s.n:
            raise RuleError(f"flow.first_player must be a player, got {it.describe(first)}",
                            it.r.spec.span("flow", "first_player"))
        c.first_player = int(first)
    elif it.r.spec.model.flow.rotate_first_player:
        c.first_player = (c.first_player + 1) % s.n
    c.current = c.first_player
    c.phase = 0
    it.run(it.r.spec.effect("flow", "round_start"))
    if "round_start" in it.r.event_triggers:  # (the record is built only for listeners)
        emit(it, "round_start", Record(round=c.round))
    check_ends(it, "immediate")
    c.stage = "phase_start"


def _phase_start(it: Interp) -> None:
    c = it.s.cursor
    ph = it.r.phases[c.phase]
    if not it.truth(ph.when, {}):
        c.stage = "phase_next"
        return
    c.order = turn_order(it, ph)
    c.pos = 0
    c.passed = set()
    it.run(ph.on_start)
    if "phase_start" in it.r.event_triggers:
        emit(it, "phase_start", Record(phase=ph.name))
    check_ends(it, "immediate")
    c.stage = "turn_start" if ph.steps else "phase_end"


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


def _eligible(it: Interp, ph: Any, p: int) -> bool:
    if ph.turns == "until_pass" and p in it.s.cursor.passed:
        return False
    return it.truth(ph.players, {"p": Player(p)})


def _turn_start(it: Interp) -> None:
    c = it.s.cursor
    ph = it.r.phases[c.phase]
    if not c.order:
        c.stage = "phase_end"
        return
    if ph.turns == "once":
        while c.pos < len(c.order) and not _eligible(it, ph, c.order[c.pos]):
            c.pos += 1
        if c.pos >= len(c.order):
            c.stage = "phase_end"
            return
    else:
        for _ in range(len(c.order)):
            if _eligible(it, ph, c.order[c.pos]):
                break
            c.pos = (c.pos + 1) % len(c.order)
        else:
            c.stage = "phase_end"
            return
    c.current = c.order[c.pos]
    c.turn += 1
    c.step = 0
    c.step_count = 0
    c.turn_actions = {}
    c.end_turn = False
    it.run(ph.turn_start)
    if "turn_start" in it.r.event_triggers:
        emit(it, "turn_start", Record(player=Player(c.current)))
    check_ends(it, "immediate")
    c.stage = "step"


def step_candidates(it: Interp, ph: Any, st: Any) -> list[str]:
    """The actions a step offers, in menu order: its own, then the phase's free actions (do not mutate)."""
    key = (id(ph), id(st))  # both live as long as the rules that cache the list
    names = it.r.step_menus.get(key)
    if names is None:
        names = list(st.actions)
        names.extend(a for a in ph.free_actions if a not in names)
        it.r.step_menus[key] = names
    return names


def _step(it: Interp) -> None:
    s, c = it.s, it.s.cursor
    ph = it.r.phases[c.phase]
    if c.end_turn or c.step >= len(ph.steps):
        c.stage = "turn_end"
        return
    st = ph.steps[c.step]
    if not it.truth(st.when, {}):
        _next_step(c)
        return
    names = step_candidates(it, ph, st)
    options, reasons, rejected = [], {}, []
    for i, name in enumerate(names):
        action = it.r.actions[name]
        try:
            check_action(it, action)
        except RequireFailed as why:
            reasons[i] = why.explain()
            rejected.append((action.label, reasons[i]))
            continue
        options.append(Option(action.label, name, i))
    can_stop = st.optional or (st.repeat and c.step_count > 0)
    if can_stop:
        options.append(Option(DONE if st.repeat and c.step_count > 0 else "skip", DONE, len(names)))
    # a replay that already knows this menu's answer (it was checked when given) skips the check
    menus = _parameter_menus(it, options, reasons, rejected) if it.pos >= len(it.answers) else {}
    prompt = f"{ph.name}: {st.name}" if len(ph.steps) > 1 else ph.name
    if not options:
        s.msgs.append(f"{it.r.seat_name(c.current)} has no legal action at {prompt}")
        _next_step(c)
        return
    decision = Decision(c.current, prompt, options, "action", it.r.phases[c.phase].span, reasons=reasons,
                        rejected=rejected)
    if it.pos < len(it.answers) and it.answers[it.pos] == NOTHING_VIABLE:
        it.pos += 1  # the driver found no option that can be completed: the step is skipped
        s.msgs.append(f"{it.r.seat_name(c.current)} has no legal action at {prompt}")
        _next_step(c)
        return
    choice = it.ask(decision)
    if choice == DONE:
        _next_step(c)
        return
    first = menus.get(choice)
    if first is None and choice in it.r.param_gated:
        try:
            first = param_values(it, it.r.actions[choice])
        except RequireFailed:  # the step's only option, and it cannot be done: as if nothing were offered
            s.msgs.append(f"{it.r.seat_name(c.current)} has no legal action at {prompt}")
            _next_step(c)
            return
    perform_action(it, it.r.actions[choice], first=first)
    settle(it)
    s.decisions += 1
    check_ends(it, "immediate")
    if choice in st.actions:
        c.step_count += 1
        if not st.repeat or (st.max is not None and c.step_count >= st.max):
            _next_step(c)


def _parameter_menus(it: Interp, options: list[Option], reasons: dict[int, str],
                     rejected: list) -> dict[str, tuple[list, list]]:
    """Drop from a real choice the actions whose one parameter has no legal value; their menus, by action.

    No look-ahead replays such an action (rules.param_gated), so its parameter's menu is computed here and
    kept for the action's own use.  A step with a single option does not need it: the option is taken
    anyway, and _step skips the step if its menu turns out empty.
    """
    menus: dict[str, tuple[list, list]] = {}
    if len(options) < 2:
        return menus
    for opt in list(options):
        if opt.value not in it.r.param_gated:
            continue
        action = it.r.actions[opt.value]
        try:
            menus[opt.value] = param_values(it, action)
        except RequireFailed as why:
            options.remove(opt)
            reasons[opt.index] = why.explain()
            rejected.append((action.label, reasons[opt.index]))
    return menus


def _next_step(c: Any) -> None:
    c.step += 1
    c.step_count = 0


def _turn_end(it: Interp) -> None:
    c = it.s.cursor
    ph = it.r.phases[c.phase]
    it.run(ph.turn_end)
    if "turn_end" in it.r.event_triggers:
        emit(it, "turn_end", Record(player=Player(c.current)))
    check_ends(it, "end_of_turn")
    if ph.turns == "once":
        c.pos += 1
        c.stage = "phase_end" if c.pos >= len(c.order) else "turn_start"
    else:
        c.pos = (c.pos + 1) % len(c.order)
        c.stage = "turn_start"


def _phase_end(it: Interp) -> None:
    c = it.s.cursor
    ph = it.r.phases[c.phase]
    it.run(ph.on_end)
    if "phase_end" in it.r.event_triggers:
        emit(it, "phase_end", Record(phase=ph.name))
    check_ends(it, "end_of_phase")
    c.stage = "phase_next"


def _phase_next(it: Interp) -> None:
    c = it.s.cursor
    c.phase += 1
    c.stage = "round_end" if c.phase >= len(it.r.phases) else "phase_start"


def _round_end(it: Interp) -> None:
    c = it.s.cursor
    it.run(it.r.spec.effect("flow", "round_end"))
    if "round_end" in it.r.event_triggers:
        emit(it, "round_end", Record(round=c.round))
    check_ends(it, "end_of_round")
    c.stage = "round_start"


def _over(it: Interp) -> None:  # pragma: no cover - run_flow stops before reaching it
    raise RuntimeError("the game is over")


_STAGES: dict[str, Callable[[Interp], None]] = {
    "game_start": _game_start,
    "round_start": _round_start,
    "phase_start": _phase_start,
    "turn_start": _turn_start,
    "step": _step,
    "turn_end": _turn_end,
    "phase_end": _phase_end,
    "phase_next": _phase_next,
    "round_end": _round_end,
    "over": _over,
}


# ------------------------------------------------------------------ ending


_TIMINGS = {"immediate": ("immediate",), "end_of_turn": ("immediate", "end_of_turn"),
            "end_of_phase": ("immediate", "end_of_phase"), "end_of_round": ("immediate", "end_of_round")}


def check_ends(it: Interp, timing: str) -> None:
    """Raise GameEnded for the first end condition (in spec order) that applies now and holds."""
    ends = it.r.ends_at.get(timing)
    if ends is None:  # the ends each timing checks, in spec order (worked out once per spec)
        allowed = _TIMINGS[timing]
        ends = it.r.ends_at[timing] = [e for e in it.r.ends.values() if e.when is not None and e.check in allowed]
    if not ends:
        return
    saved, it.memo = it.memo, {}  # only expressions run here: pure functions may remember results
    try:
        for end in ends:
            if it.truth(end.when, {}):
                raise GameEnded(end.name)
    finally:
        it.memo = saved


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
    it.s.msgs.append(f"game over ({o.end}): winner {who}")


def rank_winners(it: Interp) -> list[int]:
    """Players with the best ranking keys (compared largest first)."""
    keys = [it.r.rank_key(it, p) for p in it.s.players]
    best = max(keys)
    winners = [i for i, k in enumerate(keys) if k == best]
    if len(winners) > 1 and it.r.spec.model.ranking.ties == "nobody":
        return []
    return winners


__all__ = ["run_flow", "check_ends", "finish", "turn_order", "DONE", "ZoneRef"]
