"""The flow (rounds -> phases -> turns -> steps) of one spec, generated as Python (issue 17, item 2).

The reference flow is engine/flowframe.py: one stage machine for every spec, which looks up at each
stage what the spec has there (a hook? a trigger on the event? end conditions of this timing? which
actions does the step offer, can each be refused?).  Here those questions are answered once per spec,
and the answers become code: per phase, a `turn_start`, `step` menu, `turn_end`, `phase_start` and
`phase_end` function holding only what that phase has, with its constants (actions, labels, prompts,
spans) bound as `K<n>` names; and one `FLOW` loop that runs stage after stage until a decision is asked,
a frame is pushed or the game ends (the reference returns to `Position.run` after every stage).

The generated functions keep the reference's continuation exactly: the same `sub` values where a stage
can suspend, the same cursor changes, the same checks and messages in the same order, so a position's
data (and its digest) is the same on both engines; tests/test_differential.py compares them step by
step on every bundled game and variant, tests/test_generated_games.py on random specs.

Like codegen.py, nothing from the spec enters the source but through constants (comments carry
only numbers: phase and step indices, spec line numbers), and the source names
only the runtime helpers the engine links in (engine/flowcompiled.py): `flow_source` returns the text
and the constants; linking, and the frame class that runs it, belong to the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# the runtime names the generated source uses, which the engine must link (checked by flowcompiled.py)
RUNTIME = ("RUN_BLOCK", "EMIT", "SETTLE", "CHECK_ACTION", "PARAMETER_MENUS", "NEXT_TURN",
           "TURN_ORDER", "OPTION", "DECISION", "RECORD", "PLAYER", "REQUIRE_FAILED", "DONE", "FLOW_RUNAWAY",
           "GENERIC", "LEN", "SET", "GAME_ENDED", "ENDS_FALSE", "TUPLE", "SORTED", "NOT_BOOL", "RESET_STATE",
           "ONLY_ANYTIME", "STEP_NOTE", "ACTION_REFUSAL")


@dataclass
class FlowSource:
    """The generated flow of a spec: its source, constants and which rule each line comes from."""

    source: str
    consts: list[Any]
    line_spans: dict[int, Any] = field(default_factory=dict)
    conds: list[Any] = field(default_factory=list)  # condition C<i>: the engine links its compiled function


class _Gen:
    """Accumulates lines and constants."""

    def __init__(self, rules: Any, ends_at: dict[str, tuple[list[Any], bool]]):
        self.r = rules
        self.ends_at = ends_at  # timing -> (the end conditions it checks, whether one reads the flow)
        self.lines: list[str] = []
        self.consts: list[Any] = []
        self.ids: dict[int, str] = {}
        self.line_spans: dict[int, Any] = {}
        self.conds: list[Any] = []

    def k(self, value: Any) -> str:
        """A constant's generated name (one per object)."""
        name = self.ids.get(id(value))
        if name is None:
            name = self.ids[id(value)] = f"K{len(self.consts)}"
            self.consts.append(value)
        return name

    def truth(self, indent: int, node: Any) -> None:
        """`v = <the condition>` (Interp.truth: true or false, else the reference's error), calling the
        condition's compiled function directly (linked in as C<i>) instead of through `it.truth`/`it.ev`."""
        name = f"C{len(self.conds)}"
        self.conds.append(node)
        self.line(indent, f"v = {name}(it, {{}})", node.span)
        self.line(indent, "if v is not True and v is not False:")
        self.line(indent + 1, f"NOT_BOOL(it, v, {self.k(node)})")

    def line(self, indent: int, text: str, span: Any = None) -> None:
        self.lines.append("    " * indent + text)
        if span is not None:
            self.line_spans[len(self.lines)] = span

    # ------------------------------------------------------------ pieces
    def ends(self, indent: int, timing: str) -> None:
        """The end check of a timing, only where some end condition applies then."""
        if self.ends_at[timing][0]:
            self.line(indent, f"ends_{timing}(it)")

    def end_check(self, timing: str) -> None:
        """`ends_<timing>(it)`: engine/flow.py check_ends for one timing, its conditions written out.

        The same memo as the reference (one State.derived entry, the same key), so both engines evaluate
        the same conditions at the same moments (a condition may tick the loop counter or draw)."""
        ends, flow_read = self.ends_at[timing]
        if not ends:
            return
        self.line(0, "")
        self.line(0, f"def ends_{timing}(it):  # the end conditions checked {timing.replace('_', ' ')}")
        self.line(1, "s = it.s")
        if flow_read:
            self.line(1, "c = s.cursor")
            self.line(1, "key = (s.version, s.cascade, s.rng.state, c.current, c.round, c.turn, c.phase, "
                         "c.first_player, TUPLE(SORTED(c.passed)))")
        else:
            self.line(1, "key = (s.version, s.cascade, s.rng.state)")
        self.line(1, "memo = s.derived.get(ENDS_FALSE)")
        self.line(1, "if memo is None or memo[0] != key:")
        self.line(2, "memo = s.derived[ENDS_FALSE] = (key, SET())")
        self.line(1, "known = memo[1]")
        self.line(1, "saved = it.memo")
        self.line(1, "it.memo = {}  # only expressions run here: pure functions may remember results")
        self.line(1, "try:")
        for end in ends:
            self.line(2, f"if {self.k(end.name)} not in known:", end.when.span)
            self.truth(3, end.when)
            self.line(3, "if v:")
            self.line(4, f"raise GAME_ENDED({self.k(end.name)})")
            self.line(3, "if s.rng.state == key[2]:  # (a condition that drew must be drawn again next time)")
            self.line(4, f"known.add({self.k(end.name)})")
        self.line(1, "finally:")
        self.line(2, "it.memo = saved")

    def hooks(self, indent: int, block: Any, event: str, record: str) -> None:
        """FlowFrame._hooks for one stage: the stage's effect at sub 1, its event's triggers at sub 2.

        A part the spec does not have is left out; the sub values a suspension can leave are the
        reference's."""
        has_block = block is not None
        has_event = event in self.r.listened  # (a trigger or a window hears it)
        if not has_block and not has_event:
            self.line(indent, "fr.sub = 3")  # (where the reference leaves it: a game ending here keeps it)
            return
        self.line(indent, "if fr.sub <= 1:")
        self.line(indent + 1, "fr.sub = 2")
        if has_block:
            self.line(indent + 1, f"if RUN_BLOCK(pos, {self.k(block)}, {{}}):", getattr(block, "span", None))
            self.line(indent + 2, "return None")
        self.line(indent, "if fr.sub == 2:")
        self.line(indent + 1, "fr.sub = 3")
        if has_event:
            self.line(indent + 1, f"if EMIT(pos, {event!r}, {record}):")
            self.line(indent + 2, "return None")

    def goto(self, indent: int, stage: str) -> None:
        self.line(indent, f"c.stage = {stage!r}")
        self.line(indent, "fr.sub = 0")

    def head(self, name: str, span: Any, what: str) -> None:
        self.line(0, "")
        self.line(0, f"def {name}(fr, pos):  # {what}{_where(span)}", span)
        self.line(1, "it = pos.it")
        self.line(1, "s = pos.s")
        self.line(1, "c = s.cursor")

    # ------------------------------------------------------------ stages of one phase
    def phase_start(self, i: int, ph: Any) -> str:
        name = f"phase_start_{i}"
        self.head(name, ph.span, f"phase {i} starts")
        self.line(1, "if fr.sub == 0:")
        if ph.when is not None:
            self.truth(2, ph.when)
            self.line(2, "if not v:", ph.when.span)
            self.line(3, "c.stage = 'phase_next'")
            self.line(3, "return None")
        self.line(2, "fr.sub = 1")
        self.line(2, f"c.order = TURN_ORDER(it, {self.k(ph)})")
        self.line(2, "c.pos = 0")
        self.line(2, "c.passed = SET()")
        self.hooks(1, ph.on_start, "phase_start", f"RECORD(phase={self.k(ph.name)})")
        self.ends(1, "immediate")
        self.goto(1, "turn_start" if ph.steps else "phase_end")
        return name

    def turn_start(self, i: int, ph: Any) -> str:
        name = f"turn_start_{i}"
        self.head(name, ph.span, f"a turn of phase {i} starts")
        self.line(1, "if fr.sub == 0:")
        always = ph.players is None and ph.turns != "until_pass"  # every seat of the order is eligible
        if always and ph.turns == "once":
            found = "c.pos < LEN(c.order)"
        elif always:
            found = "LEN(c.order) > 0"
        else:
            found = f"NEXT_TURN(it, {self.k(ph)}, c)"
        self.line(2, f"if not {found}:")
        self.goto(3, "phase_end")
        self.line(3, "return None")
        self.line(2, "fr.sub = 1")
        self.line(2, "c.current = c.turn_player = c.order[c.pos]")
        self.line(2, "c.turn += 1")
        self.line(2, "c.step = 0")
        self.line(2, "c.step_count = 0")
        self.line(2, "c.turn_actions = {}")
        self.line(2, "c.end_turn = False")
        self.hooks(1, ph.turn_start, "turn_start", "RECORD(player=PLAYER(c.current))")
        self.ends(1, "immediate")
        self.goto(1, "step")
        return name

    def step(self, i: int, ph: Any) -> str:
        """The step stage: its menu (sub 0), the cascade after the action (sub 2), the bookkeeping (sub 3)."""
        menus = [self.menu(i, j, ph, st) for j, st in enumerate(ph.steps)]
        name = f"step_{i}"
        self.head(name, ph.span, f"a step of phase {i}")
        self.line(1, "if fr.sub == 0:")
        self.line(2, f"if c.end_turn or c.step >= {len(ph.steps)}:")
        self.goto(3, "turn_end")
        self.line(3, "return None")
        for j, menu in enumerate(menus):
            self.line(2, f"if c.step == {j}:")
            self.line(3, f"return {menu}(fr, pos)")
        self.line(1, "if fr.sub == 2:")
        self.line(2, "fr.sub = 3")
        if self.r.state_triggers:
            self.line(2, "SETTLE(pos, None, True)")  # the cascade after the action (its root)
        self.line(2, "return None")
        self.line(1, "s.decisions += 1")
        self.ends(1, "immediate")
        self.line(1, "chosen = fr.menus.get('__choice__')")
        self.line(1, "j = c.step")  # (read once: the step may move on below)
        for j, st in enumerate(ph.steps):
            self.line(1, f"{'el' if j else ''}if j == {j} and chosen in {self.k(st.actions)}:")
            self.line(2, "c.step_count += 1")
            if not st.repeat:
                self.line(2, "c.step += 1")
                self.line(2, "c.step_count = 0")
            elif st.max is not None:
                self.line(2, f"if c.step_count >= {int(st.max)}:")
                self.line(3, "c.step += 1")
                self.line(3, "c.step_count = 0")
        self.line(1, "fr.sub = 0")
        self.line(1, "fr.menus = {}")
        self.line(1, "return None")
        return name

    def menu(self, i: int, j: int, ph: Any, st: Any) -> str:
        """One step's menu (FlowFrame._step_menu with this step's actions and checks written out)."""
        r = self.r
        name = f"menu_{i}_{j}"
        self.head(name, ph.span, f"the menu of step {j} of phase {i}")
        if st.when is not None:
            self.truth(1, st.when)
            self.line(1, "if not v:", st.when.span)
            self.line(2, "c.step += 1")
            self.line(2, "c.step_count = 0")
            self.line(2, "return None")
        names = list(st.actions)  # then the phase's free actions not yet offered (flow.step_candidates)
        for a in list(ph.free_actions) + list(r.anytime):
            if a not in names:
                names.append(a)
        self.line(1, "options = []")
        self.line(1, "reasons = {}")
        self.line(1, "rejected = []")
        priced = any(r.actions[a].cost for a in names)
        self.line(1, "notes = {}" if priced else "notes = None")
        for n, action_name in enumerate(names):
            action = r.actions[action_name]
            opt = f"OPTION({self.k(action.label)}, {self.k(action.name)}, {n})"
            if action.limit is None and action.condition is None and not action.cost:
                self.line(1, f"options.append({opt})")  # nothing can refuse it here (check_action)
                continue
            if action.during is not None and not action.cost and (action.limit is None or action.limit.each):
                # a piece's ability limited to phases (`during:`): this step's phase decides it here
                if ph.name in action.during:
                    self.line(1, f"options.append({opt})")
                else:
                    why = self.k(action.refusal("condition"))
                    self.line(1, f"reasons[{n}] = {why}")
                    self.line(1, f"rejected.append(({self.k(action.label)}, {why}))")
                continue
            if not action.cost:  # its limit or condition: a refusal recorded, not raised nor written out
                self.line(1, f"why = ACTION_REFUSAL(it, {self.k(action)})", action.span)
                self.line(1, "if why is None:")
                self.line(2, f"options.append({opt})")
                self.line(1, "else:")
                self.line(2, f"reasons[{n}] = why")
                self.line(2, f"rejected.append(({self.k(action.label)}, why))")
                continue
            self.line(1, "try:")
            self.line(2, f"got = CHECK_ACTION(it, {self.k(action)})", action.span)
            self.line(1, "except REQUIRE_FAILED as why:")
            self.line(2, f"reasons[{n}] = why")  # (written out when somebody reads it: Decision.reasons)
            self.line(2, f"rejected.append(({self.k(action.label)}, why))")
            self.line(1, "else:")
            self.line(2, f"options.append({opt})")
            self.line(2, f"notes[{n}] = STEP_NOTE(got)")  # its price, shown with it
        if st.optional or st.repeat:
            more = "c.step_count > 0"
            cond = "True" if st.optional else more
            label = f"(DONE if {more} else 'skip')" if st.repeat else "'skip'"
            self.line(1, f"if {cond}:")
            self.line(2, f"options.append(OPTION({label}, DONE, {len(names)}))")
        if r.anytime and not st.optional:  # a menu of actions free at any time only may be left
            self.line(1, f"{'el' if st.repeat else ''}if ONLY_ANYTIME(it.r, options):")
            self.line(2, f"options.append(OPTION('skip', DONE, {len(names)}))")
        most = len(names) + (1 if st.optional or st.repeat else 0)  # (parameter_menus needs two options)
        if most >= 2 and any(n in r.param_gated for n in names):
            self.line(1, "menus = PARAMETER_MENUS(it, options, reasons, rejected)")
        else:
            self.line(1, "menus = {}")
        prompt = st.prompt or (f"{ph.name}: {st.name}" if len(ph.steps) > 1 else ph.name)
        where = f"'{prompt}'" if st.prompt else prompt
        self.line(1, "if not options:")
        self.line(2, f"s.msgs.append(it.r.seat_name(c.current) + {self.k(' has no legal action at ' + where)})")
        self.line(2, "c.step += 1")
        self.line(2, "c.step_count = 0")
        self.line(2, "return None")
        self.line(1, f"fr.sub, fr.menus, fr.prompt = 1, menus, {self.k(where)}")
        self.line(1, f"return DECISION(c.current, {self.k(prompt)}, options, 'action', {self.k(ph.span)}, "
                     "reasons=reasons, rejected=rejected, notes=notes or None)")
        return name

    def turn_end(self, i: int, ph: Any) -> str:
        name = f"turn_end_{i}"
        self.head(name, ph.span, f"a turn of phase {i} ends")
        self.hooks(1, ph.turn_end, "turn_end", "RECORD(player=PLAYER(c.current))")
        self.ends(1, "end_of_turn")
        if "turn" in self.r.state_resets:  # piece state with `reset: turn` (core/piecestate.py)
            self.line(1, "RESET_STATE(it, 'turn')")
        if ph.turns == "once":
            self.line(1, "c.pos += 1")
            self.line(1, "c.stage = 'phase_end' if c.pos >= LEN(c.order) else 'turn_start'")
        else:
            self.line(1, "c.pos = (c.pos + 1) % LEN(c.order)")
            self.line(1, "c.stage = 'turn_start'")
        self.line(1, "fr.sub = 0")
        return name

    def phase_end(self, i: int, ph: Any) -> str:
        name = f"phase_end_{i}"
        self.head(name, ph.span, f"phase {i} ends")
        self.hooks(1, ph.on_end, "phase_end", f"RECORD(phase={self.k(ph.name)})")
        self.ends(1, "end_of_phase")
        if "phase" in self.r.state_resets:
            self.line(1, "RESET_STATE(it, 'phase')")
        self.goto(1, "phase_next")
        return name

    # ------------------------------------------------------------ the loop
    def flow(self) -> None:
        """FLOW: stage after stage until a decision is asked, a frame pushed or the game over."""
        phases = self.r.phases
        tables = {}
        for stage, make in (("turn_start", self.turn_start), ("step", self.step), ("turn_end", self.turn_end),
                            ("phase_start", self.phase_start), ("phase_end", self.phase_end)):
            tables[stage] = [make(i, ph) for i, ph in enumerate(phases)]
        self.line(0, "")
        for stage, fns in tables.items():
            self.line(0, f"{stage.upper()} = ({', '.join(fns)}{',' if len(fns) == 1 else ''})")
        self.line(0, "")
        self.line(0, "def FLOW(fr, pos):  # the flow's stages, run until somebody must decide")
        self.line(1, "s = pos.s")
        self.line(1, "c = s.cursor")
        self.line(1, "it = pos.it")
        self.line(1, "stack = pos.stack")
        self.line(1, "while True:")
        self.line(2, "if fr.sub == 0:")
        self.line(3, "pos.flow_steps += 1")
        self.line(3, "if pos.flow_steps > it.limits.flow:")
        self.line(4, "FLOW_RUNAWAY(pos)")
        self.line(3, "if not pos.looking:")
        self.line(4, "it.loops = 0")
        self.line(2, "stage = c.stage")
        self.line(2, "if stage == 'step':")
        self.line(3, "d = STEP[c.phase](fr, pos)")
        self.line(3, "if d is not None:")
        self.line(4, "return d")
        for stage in ("turn_start", "turn_end", "phase_start", "phase_end"):
            self.line(2, f"elif stage == {stage!r}:")
            self.line(3, f"{stage.upper()}[c.phase](fr, pos)")
        self.line(2, "else:  # game_start, round_start, round_end, phase_next: once a round at most")
        self.line(3, "GENERIC[stage](fr, pos)")
        self.line(2, "if stack[-1] is not fr or s.outcome is not None:")
        self.line(3, "return None")


def _where(span: Any) -> str:
    line = getattr(span, "line", None)
    return f" (line {int(line)})" if line else ""


def flow_source(rules: Any, ends_at: dict[str, tuple[list[Any], bool]]) -> FlowSource:
    """The generated flow of a spec (not yet linked: engine/flowcompiled.py does that); `ends_at` gives,
    per timing (immediate, end_of_turn, end_of_phase, end_of_round), the end conditions it checks in
    spec order and whether one of them reads the flow's cursor (engine/flow.py ends_of)."""
    gen = _Gen(rules, ends_at)
    gen.line(0, f"# the flow of {len(rules.phases)} phase(s), generated per spec (compiler/flowgen.py)")
    for timing in ends_at:
        gen.end_check(timing)
    gen.flow()
    return FlowSource("\n".join(gen.lines) + "\n", gen.consts, gen.line_spans, gen.conds)


__all__ = ["FlowSource", "RUNTIME", "flow_source"]
