"""Lantern Fair's generated flow written by hand (see ceiling_lantern_fair_code.py for what "by hand" keeps).

Two phases a round: `bidding` (no turns: its on_start is a sealed commit) and `market` (a turn each from the
lantern on, one step: buy, busk or play a trick).  The end conditions are written in: `four_rounds` (round > 4)
at every check, `sold_out` (market and deck empty) at the end of a turn, in the spec's order; no memo of the
conditions found false (each is one or two comparisons: remembering costs more than asking again) and no
swapping of the pure-function memo (nothing here calls a function).  The stages keep the frame's `sub` as the
generated flow writes it wherever a stage can stop (a decision, a block pushed, the game ending), so the
continuation and its digest are the same.
"""

from __future__ import annotations

# The names below that are not defined here (GAME_ENDED, RUN_BLOCK, LF_PHASE0, ...) are the generated flow's
# namespace's: these functions run with it as their globals (ceiling_lantern_fair.install).
# ruff: noqa: F821


def ends_immediate(it):  # the end conditions checked immediate: four_rounds
    if it.s.cursor.round > 4:
        raise GAME_ENDED("four_rounds")


def ends_end_of_turn(it):  # the end conditions checked end of turn: four_rounds, sold_out
    s = it.s
    if s.cursor.round > 4:
        raise GAME_ENDED("four_rounds")
    places = s.places
    if not places.get(LF_MARKET) and not places.get(LF_DECK):
        raise GAME_ENDED("sold_out")


def ends_end_of_phase(it):  # the end conditions checked end of phase: four_rounds
    if it.s.cursor.round > 4:
        raise GAME_ENDED("four_rounds")


def ends_end_of_round(it):  # the end conditions checked end of round: four_rounds
    if it.s.cursor.round > 4:
        raise GAME_ENDED("four_rounds")


def LF_turn_start(fr, pos):  # a turn starts (both phases: the same stage)
    c = pos.s.cursor
    if fr.sub == 0:
        if not c.pos < LEN(c.order):
            c.stage = "phase_end"
            return None
        c.current = c.turn_player = c.order[c.pos]
        c.turn += 1
        c.step = 0
        c.step_count = 0
        c.turn_actions = {}
        c.end_turn = False
    fr.sub = 3
    if c.round > 4:  # ends_immediate
        raise GAME_ENDED("four_rounds")
    c.stage = "step"
    fr.sub = 0


def turn_start_0(fr, pos):  # a turn of phase 0 starts (line 156)
    LF_turn_start(fr, pos)


def turn_start_1(fr, pos):  # a turn of phase 1 starts (line 169)
    LF_turn_start(fr, pos)


def step_0(fr, pos):  # a step of phase 0 (line 156): bidding has no steps
    s = pos.s
    c = s.cursor
    if fr.sub == 0 and (c.end_turn or c.step >= 0):
        c.stage = "turn_end"
        return None
    if fr.sub == 2:
        fr.sub = 3
        return None
    s.decisions += 1
    if c.round > 4:
        raise GAME_ENDED("four_rounds")
    fr.sub = 0
    fr.menus = {}
    return None


def menu_1_0(fr, pos):  # the menu of step 0 of phase 1 (line 169): buy, busk, play_trick
    it = pos.it
    s = pos.s
    c = s.cursor
    options = [OPTION("buy a card", "buy", 0), OPTION("busk", "busk", 1), OPTION("play a trick", "play_trick", 2)]
    reasons = {}
    rejected = []
    menus = PARAMETER_MENUS(it, options, reasons, rejected)
    if not options:
        s.msgs.append(it.r.seat_name(c.current) + " has no legal action at 'Buy a card, busk, or play a trick?'")
        c.step += 1
        c.step_count = 0
        return None
    fr.sub, fr.menus, fr.prompt = 1, menus, "'Buy a card, busk, or play a trick?'"
    return DECISION(c.current, "Buy a card, busk, or play a trick?", options, "action", LF_STEP_SPAN,
                    reasons=reasons, rejected=rejected, notes=None)


def step_1(fr, pos):  # a step of phase 1 (line 169)
    s = pos.s
    c = s.cursor
    sub = fr.sub
    if sub == 0:
        if c.end_turn or c.step >= 1:
            c.stage = "turn_end"
            return None
        if c.step == 0:
            return menu_1_0(fr, pos)
    elif sub == 2:
        fr.sub = 3
        return None
    s.decisions += 1
    if c.round > 4:  # ends_immediate
        raise GAME_ENDED("four_rounds")
    if c.step == 0 and fr.menus.get("__choice__") in LF_STEP_ACTIONS:
        c.step = 1
        c.step_count = 0
    fr.sub = 0
    fr.menus = {}
    return None


def LF_turn_end(fr, pos):  # a turn ends (both phases: turns once each)
    s = pos.s
    c = s.cursor
    fr.sub = 3
    if c.round > 4:  # ends_end_of_turn
        raise GAME_ENDED("four_rounds")
    places = s.places
    if not places.get(LF_MARKET) and not places.get(LF_DECK):
        raise GAME_ENDED("sold_out")
    c.pos += 1
    c.stage = "phase_end" if c.pos >= LEN(c.order) else "turn_start"
    fr.sub = 0


def turn_end_0(fr, pos):  # a turn of phase 0 ends (line 156)
    LF_turn_end(fr, pos)


def turn_end_1(fr, pos):  # a turn of phase 1 ends (line 169)
    LF_turn_end(fr, pos)


def phase_start_0(fr, pos):  # phase 0 starts (line 156): the sealed bids
    c = pos.s.cursor
    if fr.sub == 0:
        c.order = TURN_ORDER(pos.it, LF_PHASE0)
        c.pos = 0
        c.passed = SET()
    if fr.sub <= 1:
        fr.sub = 2
        if RUN_BLOCK(pos, LF_PHASE0.on_start, {}):
            return None
    fr.sub = 3
    if c.round > 4:  # ends_immediate
        raise GAME_ENDED("four_rounds")
    c.stage = "phase_end"
    fr.sub = 0


def phase_start_1(fr, pos):  # phase 1 starts (line 169): turns from the lantern on
    c = pos.s.cursor
    if fr.sub == 0:
        c.order = TURN_ORDER(pos.it, LF_PHASE1)
        c.pos = 0
        c.passed = SET()
    fr.sub = 3
    if c.round > 4:
        raise GAME_ENDED("four_rounds")
    c.stage = "turn_start"
    fr.sub = 0


def LF_phase_end(fr, pos):
    c = pos.s.cursor
    fr.sub = 3
    if c.round > 4:  # ends_end_of_phase
        raise GAME_ENDED("four_rounds")
    c.stage = "phase_next"
    fr.sub = 0


def phase_end_0(fr, pos):  # phase 0 ends (line 156)
    LF_phase_end(fr, pos)


def phase_end_1(fr, pos):  # phase 1 ends (line 169)
    LF_phase_end(fr, pos)


def FLOW(fr, pos):  # the flow's stages, run until somebody must decide
    s = pos.s
    c = s.cursor
    it = pos.it
    stack = pos.stack
    flow_limit = it.limits.flow
    while True:
        if fr.sub == 0:
            pos.flow_steps += 1
            if pos.flow_steps > flow_limit:
                FLOW_RUNAWAY(pos)
            if not pos.looking:
                it.loops = 0
        stage = c.stage
        if stage == "step":
            d = step_1(fr, pos) if c.phase == 1 else step_0(fr, pos)
            if d is not None:
                return d
        elif stage == "turn_start":
            LF_turn_start(fr, pos)
        elif stage == "turn_end":
            LF_turn_end(fr, pos)
        elif stage == "phase_start":
            if c.phase == 1:
                phase_start_1(fr, pos)
            else:
                phase_start_0(fr, pos)
        elif stage == "phase_end":
            LF_phase_end(fr, pos)
        else:  # game_start, round_start, round_end, phase_next: once a round at most
            GENERIC[stage](fr, pos)
        if stack[-1] is not fr or s.outcome is not None:
            return None


FLOW_FUNCTIONS = [ends_immediate, ends_end_of_turn, ends_end_of_phase, ends_end_of_round, turn_start_0,
                  turn_start_1, step_0, menu_1_0, step_1, turn_end_0, turn_end_1, phase_start_0, phase_start_1,
                  phase_end_0, phase_end_1, FLOW]
FLOW_HELPERS = [LF_turn_start, LF_turn_end, LF_phase_end]
