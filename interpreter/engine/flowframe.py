"""The flow (rounds -> phases -> turns -> steps) as the bottom frame of the resumable stack.

The stage is kept in the state's cursor (as flow.py keeps it); the frame adds `sub`, where inside the
stage it is, so that a stage whose hook, event or action suspends continues after it when the answer
comes.  Each stage does what flow.py's stage function does, in the same order, with the same messages:
flow.py stays the reference for what a stage means, this module for how it resumes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.decisions import Decision, Option, RequireFailed, RuleError, RunawayError
from ..core.piecestate import reset_state
from ..reference.costs import step_note
from ..reference.effects import check_action, param_values
from .flow import (DONE, NOTHING_VIABLE, action_options, check_ends, eligible, init_var, next_step, only_anytime,
                   parameter_menus, step_candidates, turn_order)
from ..core.values import BOX
from ..core.values import Player, Record
from .frames import emit, perform, run_block, settle

if TYPE_CHECKING:
    from .position import Position


class FlowFrame:
    """Where the flow is inside the current stage; the stage itself is `state.cursor.stage`."""

    __slots__ = ("sub", "menus", "prompt")
    is_flow = True  # the bottom frame (Position._end keeps it when the game ends)

    def __init__(self) -> None:
        self.sub = 0
        self.menus: dict = {}
        self.prompt = ""

    def copy(self, envs: dict) -> "FlowFrame":
        f = self.__class__.__new__(self.__class__)  # (the compiled flow's class too: engine/flowcompiled.py)
        f.sub, f.menus, f.prompt = self.sub, self.menus, self.prompt
        return f

    def step(self, pos: "Position") -> Decision | None:
        if self.sub == 0:
            pos.flow_steps += 1
            if pos.flow_steps > pos.it.limits.flow:
                raise RunawayError(
                    f"the flow went through {pos.it.limits.flow} stages without asking any player anything "
                    f"(limit flow); is an end condition missing? Raise it with --limit flow=N",
                    pos.it.r.spec.span("flow"))
            if not pos.looking:  # (a look-ahead run is charged to its menu's budget instead)
                pos.it.loops = 0  # the loop limit counts the iterations of one stage (one step: one action)
        return _STAGES[pos.s.cursor.stage](self, pos)

    def _goto(self, pos: "Position", stage: str) -> None:
        pos.s.cursor.stage = stage
        self.sub = 0

    def _hooks(self, pos: "Position", block: Any, event: str, record: Any) -> bool:
        """A stage's effect (sub 1), then its event's triggers (sub 2): True while one runs as a frame.

        The stage's own bookkeeping is done before (at sub 0); `record()` makes the event's record, only
        when a trigger listens."""
        if self.sub <= 1:
            self.sub = 2
            if run_block(pos, block, {}):
                return True
        if self.sub == 2:
            self.sub = 3
            if event in pos.it.r.listened and emit(pos, event, record()):
                return True
        return False

    # ------------------------------------------------------------ stages
    def game_start(self, pos: "Position") -> None:
        it, s, r = pos.it, pos.s, pos.it.r
        extra, replace = s.setup_override or (None, False)
        if self.sub == 0:
            self.sub = 1
            _make_pieces(pos)
            if not replace and run_block(pos, r.spec.effect("setup"), {}):
                return None
        if self.sub == 1:
            self.sub = 2
            if run_block(pos, extra, {}):  # a scenario's position, on top of (or instead of) the spec's setup
                return None
        if self.sub == 2:
            self.sub = 3
            if emit(pos, "game_start"):
                return None
        check_ends(it, "immediate")
        self._goto(pos, "round_start")
        return None

    def round_start(self, pos: "Position") -> None:
        it, s, c = pos.it, pos.s, pos.s.cursor
        if self.sub == 0:
            self.sub = 1
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
            c.current = c.turn_player = c.first_player
            c.phase = 0
        if self._hooks(pos, it.r.spec.effect("flow", "round_start"), "round_start", lambda: Record(round=c.round)):
            return None
        check_ends(it, "immediate")
        self._goto(pos, "phase_start")
        return None

    def phase_start(self, pos: "Position") -> None:
        it, c = pos.it, pos.s.cursor
        ph = it.r.phases[c.phase]
        if self.sub == 0:
            if not it.truth(ph.when, {}):
                self._goto(pos, "phase_next")
                return None
            self.sub = 1
            c.order = turn_order(it, ph)
            c.pos = 0
            c.passed = set()
        if self._hooks(pos, ph.on_start, "phase_start", lambda: Record(phase=ph.name)):
            return None
        check_ends(it, "immediate")
        self._goto(pos, "turn_start" if ph.steps else "phase_end")
        return None

    def turn_start(self, pos: "Position") -> None:
        it, c = pos.it, pos.s.cursor
        ph = it.r.phases[c.phase]
        if self.sub == 0:
            if not _next_turn(it, ph, c):
                self._goto(pos, "phase_end")
                return None
            self.sub = 1
            c.current = c.turn_player = c.order[c.pos]
            c.turn += 1
            c.step = 0
            c.step_count = 0
            c.turn_actions = {}
            c.end_turn = False
        if self._hooks(pos, ph.turn_start, "turn_start", lambda: Record(player=Player(c.current))):
            return None
        check_ends(it, "immediate")
        self._goto(pos, "step")
        return None

    def step_(self, pos: "Position") -> Decision | None:
        it, s, c = pos.it, pos.s, pos.s.cursor
        if self.sub == 0:
            return self._step_menu(pos)
        if self.sub == 2:  # the action and its effects are done: the cascade they set off
            self.sub = 3
            settle(pos, None, True)
            return None
        # sub 3: the step's bookkeeping, then the next menu of this stage
        s.decisions += 1
        check_ends(it, "immediate")
        ph = it.r.phases[c.phase]
        st = ph.steps[c.step]
        if self.menus.get("__choice__") in st.actions:
            c.step_count += 1
            if not st.repeat or (st.max is not None and c.step_count >= st.max):
                next_step(c)
        self.sub = 0
        self.menus = {}
        return None

    def _step_menu(self, pos: "Position") -> Decision | None:
        it, s, c = pos.it, pos.s, pos.s.cursor
        ph = it.r.phases[c.phase]
        if c.end_turn or c.step >= len(ph.steps):
            self._goto(pos, "turn_end")
            return None
        st = ph.steps[c.step]
        if not it.truth(st.when, {}):
            next_step(c)
            return None
        names = step_candidates(it, ph, st)
        options, reasons, rejected, notes = action_options(it, names)
        if st.optional or (st.repeat and c.step_count > 0):
            options.append(Option(DONE if st.repeat and c.step_count > 0 else "skip", DONE, len(names)))
        elif it.r.anytime and only_anytime(it.r, options):
            options.append(Option("skip", DONE, len(names)))
        menus = parameter_menus(it, options, reasons, rejected)
        prompt = st.prompt or (f"{ph.name}: {st.name}" if len(ph.steps) > 1 else ph.name)
        where = f"'{prompt}'" if st.prompt else prompt  # where narration says a player could do nothing
        if not options:
            s.msgs.append(f"{it.r.seat_name(c.current)} has no legal action at {where}")
            next_step(c)
            return None
        self.sub, self.menus, self.prompt = 1, menus, where
        return Decision(c.current, prompt, options, "action", ph.span, reasons=reasons, rejected=rejected,
                        notes=notes)

    def resume(self, pos: "Position", choice: Any) -> None:
        """The answer to the step menu: the action to perform (DONE: the step is over)."""
        it, s, c = pos.it, pos.s, pos.s.cursor
        menus, self.menus = self.menus, {"__choice__": choice}
        if choice == NOTHING_VIABLE or choice == DONE:
            if choice == NOTHING_VIABLE:  # the driver found no option that can be completed
                s.msgs.append(f"{it.r.seat_name(c.current)} has no legal action at {self.prompt}")
            next_step(c)
            self.sub = 0
            return
        first = menus.get(choice)
        if first is None and choice in it.r.param_gated:
            try:
                first = param_values(it, it.r.actions[choice])
            except RequireFailed:  # the step's only option, and it cannot be done: as if nothing were offered
                s.msgs.append(f"{it.r.seat_name(c.current)} has no legal action at {self.prompt}")
                next_step(c)
                self.sub = 0
                return
        self.sub = 2
        perform(pos, it.r.actions[choice], first=first)

    def turn_end(self, pos: "Position") -> None:
        it, c = pos.it, pos.s.cursor
        ph = it.r.phases[c.phase]
        if self._hooks(pos, ph.turn_end, "turn_end", lambda: Record(player=Player(c.current))):
            return None
        check_ends(it, "end_of_turn")
        if it.r.state_resets:
            reset_state(it, "turn")
        if ph.turns == "once":
            c.pos += 1
            self._goto(pos, "phase_end" if c.pos >= len(c.order) else "turn_start")
        else:
            c.pos = (c.pos + 1) % len(c.order)
            self._goto(pos, "turn_start")
        return None

    def phase_end(self, pos: "Position") -> None:
        it, c = pos.it, pos.s.cursor
        ph = it.r.phases[c.phase]
        if self._hooks(pos, ph.on_end, "phase_end", lambda: Record(phase=ph.name)):
            return None
        check_ends(it, "end_of_phase")
        if it.r.state_resets:
            reset_state(it, "phase")
        self._goto(pos, "phase_next")
        return None

    def phase_next(self, pos: "Position") -> None:
        c = pos.s.cursor
        c.phase += 1
        self._goto(pos, "round_end" if c.phase >= len(pos.it.r.phases) else "phase_start")
        return None

    def round_end(self, pos: "Position") -> None:
        it, c = pos.it, pos.s.cursor
        if self._hooks(pos, it.r.spec.effect("flow", "round_end"), "round_end", lambda: Record(round=c.round)):
            return None
        check_ends(it, "end_of_round")
        if it.r.state_resets:
            reset_state(it, "round")
        self._goto(pos, "round_start")
        return None


def _make_pieces(pos: "Position") -> None:
    """The components, tracks and variables the game starts with (flow._game_start's first part).

    The pieces and tracks depend on nothing but the rules and the player count when making them draws no
    random number, ticks no loop, remembers no derived value and says nothing: then they are made once per
    rules and player count and every new game starts from a copy of them (a game with hundreds of pieces no
    longer builds each one again).  The variables (whose start may draw) and the setup, shuffles included,
    run for each game as before."""
    it, s, r = pos.it, pos.s, pos.it.r
    counts = r.initial_counts()  # (checked at every start: the limit is the game's, the snapshot the rules')
    if sum(counts.values()) > it.limits.pieces:
        biggest = max(counts, key=counts.get)
        raise RunawayError(f"the components make {sum(counts.values())} pieces ({counts[biggest]} of '{biggest}'), "
                           f"more than {it.limits.pieces} (limit pieces); raise it with --limit pieces=N",
                           r.spec.span("components", "pieces", biggest))
    made = r.__dict__.setdefault("_made_pieces", {})
    snap = made.get(s.n)
    if snap is not None and s.origins is None and not s.kinds:
        _start_from(s, snap)
    else:
        rng, loops = s.rng.state, it.loops
        _build_pieces(pos)
        if s.n not in made:
            still = rng == s.rng.state and loops == it.loops and not s.derived and not s.msgs and s.origins is None
            made[s.n] = s.clone() if still else None
    for name, var in r.variables.items():
        init_var(it, name, var.per_player, var.start, ("variables", name, "start"))


def _start_from(s: Any, snap: Any) -> None:
    """A new state's pieces, places and variables as a snapshot has them (lists and dicts copied where a state
    changes them in place; piece attribute dicts are replaced when written, never changed)."""
    s.kinds, s.attrs, s.loc = snap.kinds, list(snap.attrs), list(snap.loc)
    s.places, s._own, s.stamps = dict(snap.places), set(), dict(snap.stamps)
    s.clock, s.version = snap.clock, snap.version
    s.vars, s.pvars = dict(snap.vars), [dict(d) for d in snap.pvars]


def _build_pieces(pos: "Position") -> None:
    """Make the components and tracks (no snapshot)."""
    it, s, r = pos.it, pos.s, pos.it.r
    for kind, attrs in r.initial_pieces():
        start = r.kinds[kind].start
        if start is not None and r.kinds[kind].start_reads_it:  # `it`: the piece, made first in the box
            ref = s.new_piece(kind, attrs, BOX)
            s.move(ref.id, it.as_place(it.ev(start, {"it": ref}), start.span))
            continue
        place = BOX if start is None else it.as_place(it.ev(start, {}), start.span)
        s.new_piece(kind, attrs, place)
    for name, track in r.tracks.items():
        init_var(it, name, track.per_player, track.start, ("components", "tracks", name, "start"))


def _next_turn(it: Any, ph: Any, c: Any) -> bool:
    """Move the cursor to the next eligible player of the phase's order (flow._turn_start); False if none."""
    if not c.order:
        return False
    if ph.turns == "once":
        while c.pos < len(c.order) and not eligible(it, ph, c.order[c.pos]):
            c.pos += 1
        return c.pos < len(c.order)
    for _ in range(len(c.order)):
        if eligible(it, ph, c.order[c.pos]):
            return True
        c.pos = (c.pos + 1) % len(c.order)
    return False


_STAGES: dict[str, Any] = {
    "game_start": FlowFrame.game_start,
    "round_start": FlowFrame.round_start,
    "phase_start": FlowFrame.phase_start,
    "turn_start": FlowFrame.turn_start,
    "step": FlowFrame.step_,
    "turn_end": FlowFrame.turn_end,
    "phase_end": FlowFrame.phase_end,
    "phase_next": FlowFrame.phase_next,
    "round_end": FlowFrame.round_end,
}
