"""Lantern Fair's generated frame steps written by hand: its blocks and actions that may ask a player.

See ceiling_lantern_fair_code.py for what "by hand" keeps and leaves out.  These are the steps of the frames the
engine pushes (engine/framescompiled.py makes the frame classes from them): the buy and play_trick effects, the
bidding phase's on_start (a sealed commit, then the lantern's price) and the four actions; they keep the
frames' program counters (`i`, `k`, `phase`) as the generated steps write them wherever a frame can wait, so a
position's data and digest are the same.  Moves are `State.move` at once: none of the zones has a capacity
(ceiling_lantern_fair.check_spec checks it).
"""

from __future__ import annotations

# The names below that are not defined here (FR_ASK, LF_BUY, LF_track_add, ...) are the generated namespace's:
# these functions run with it as their globals (ceiling_lantern_fair.install).
# ruff: noqa: F821


def st185(self, pos):  # line 185 col 7: buy's effect
    it = pos.it
    env = self.env
    i = self.i
    if i == 0:
        self.i = 2
        s = it.s
        cur = s.cursor.current
        card = env["c"]
        attrs = s.attrs[card.id]
        if it.narrate:  # line 185 col 7: say text(current) + " buys " + c.name
            sv_ = it.loops
            it.loops = 0
            try:
                SAY(it, ADD(it, LF_SAY_BUYS, T_JOIN(it, LF_SAY_BUYS.left, T_TEXT_PLAYER(it, LF_SAY_BUYS_SPAN,
                                                                                     PLAYER(cur)), " buys "),
                            attrs["name"]))
            except OERR as failed_:
                SAYX(it, failed_)
            finally:
                it.loops = sv_
        if attrs["ware"] == "trick":  # line 186 col 10
            s.move(card.id, LF_TRICKS[cur])
        else:
            s.move(card.id, LF_STALLS[cur])  # line 187 col 9
            LF_track_add(it, cur, "fame", attrs["fame"], LF_BUY_GAIN_FAME)  # line 188 col 9
        i = 2
    if i == 2:
        self.i = 3
        return FR_START_Emit(pos, LF_EMIT_BOUGHT, env)  # line 190 col 7
    if i == 3:
        pos.stack.pop()
        return None
    return FR_MIDRUN(self, pos)  # (entered inside a run: the reference's stepping)


def st193(self, pos):  # line 202 col 7: play_trick's effect
    it = pos.it
    env = self.env
    i = self.i
    if i == 0:
        self.i = 2
        s = it.s
        trick = env["t"]
        if it.narrate:  # line 202 col 7: say text(current) + " plays " + t.name
            sv_ = it.loops
            it.loops = 0
            try:
                SAY(it, ADD(it, LF_SAY_PLAYS, T_JOIN(it, LF_SAY_PLAYS.left, T_TEXT_PLAYER(
                    it, LF_SAY_PLAYS_SPAN, PLAYER(s.cursor.current)), " plays "), s.attrs[trick.id]["name"]))
            except OERR as failed_:
                SAYX(it, failed_)
            finally:
                it.loops = sv_
        s.move(trick.id, LF_DISCARD)  # line 203 col 7
        i = 2
    if i == 2:
        self.i = 3
        return FR_START_Use(pos, LF_USE_PLAY, env)  # line 204 col 7
    if i == 3:
        pos.stack.pop()
        return None
    return FR_MIDRUN(self, pos)


def st196(self, pos):  # line 159 col 9: the bidding phase's on_start
    it = pos.it
    env = self.env
    i = self.i
    if i == 0:
        self.i = 1
        return FR_START_Commit(pos, LF_COMMIT_BID, env)  # line 159 col 9
    if i == 1:
        self.i = 4
        s = it.s
        bid = env["bid"]  # a list of ints, one a seat
        try:
            top = LF_MAX(bid)  # line 160 col 9
        except LF_MAX_ERRORS:
            top = CB(it, LF_MAXIMUM, "max", LF_MAX_SPAN, (bid,), {})  # (its error)
        players = s.players
        n = it.loops + LEN(players)  # line 161 col 9: one tick an item, charged at once
        if n > it.limits.loop:
            for _ in players:
                TK(it, LF_HIGH_SPAN)
        it.loops = n
        high = [q for q in players if bid[q] == top]
        if top > 0 and LEN(high) == 1:  # line 162 col 12
            first = high[0]
            d = s.pvars[first]  # line 163 col 11: high[0].coins -= top
            r = d["coins"] - top
            if not -LF_SMALL < r < LF_SMALL:
                r = CMB(it, LF_PAY_BID, d["coins"], top)
            d["coins"] = r if r >= 0 else 0
            s.version += 1
            s.vars["lantern"] = first  # line 164 col 11
            s.version += 1
            if it.narrate:  # line 165 col 11
                sv_ = it.loops
                it.loops = 0
                try:
                    SAY(it, T_JOIN(it, LF_SAY_TAKES, T_JOIN(it, LF_SAY_TAKES.left, T_TEXT_PLAYER(
                        it, LF_SAY_TAKES_SPAN, first), " takes the lantern for "), LF_TEXT(it, LF_TEXT_SPAN, top)))
                except OERR as failed_:
                    SAYX(it, failed_)
                finally:
                    it.loops = sv_
        elif it.narrate:  # line 167 col 11
            sv_ = it.loops
            it.loops = 0
            try:
                SAY(it, T_JOIN(it, LF_SAY_KEEPS, T_JOIN(it, LF_SAY_KEEPS.left, "nobody takes the lantern: ",
                                                        T_TEXT_PLAYER(it, LF_SAY_KEEPS_SPAN, s.vars.get("lantern"))),
                               " keeps it"))
            except OERR as failed_:
                SAYX(it, failed_)
            finally:
                it.loops = sv_
        i = 4
    if i == 4:
        pos.stack.pop()
        return None
    return FR_MIDRUN(self, pos)


def act203(self, pos):  # line 192 col 5: busk
    it = pos.it
    if self.phase == 0:
        self.me = it.current()
        self.phase = 1
    if self.phase == 1:
        s = it.s
        cur = s.cursor.current
        if self.count_limit:  # chosen from a menu: a use (a perform is none)
            c_ = s.cursor  # (its turn_actions are replaced, never changed in place: clones share them)
            c_.turn_actions = {**c_.turn_actions, "busk": c_.turn_actions.get("busk", 0) + 1}
        self.phase = 2
        LF_track_add(it, cur, "coins", 2, LF_BUSK_ASSIGN)  # line 194 col 7
        if it.narrate:  # line 195 col 7
            sv_ = it.loops
            it.loops = 0
            try:
                SAY(it, T_JOIN(it, LF_SAY_BUSKS, T_TEXT_PLAYER(it, LF_SAY_BUSKS_SPAN, PLAYER(cur)), " busks"))
            except OERR as failed_:
                SAYX(it, failed_)
            finally:
                it.loops = sv_
    if self.phase == 2:
        self.phase = 3
    it.current_action, it.top_action = self.outer
    pos.stack.pop()
    return None


def act204(self, pos):  # line 179 col 5: buy
    it = pos.it
    env = self.env
    if self.phase == 0:
        self.me = it.current()
        self.phase = 1
    if self.phase == 1:
        if self.k == 0:
            if self.first is not None:
                vals_, rej_ = self.first
            else:  # c from market: its cards
                vals_, rej_ = [PIECE_REFS[p] for p in it.s.places.get(LF_MARKET, ())], []
            done_, got_ = FR_ASK(pos, "c", vals_, FR_INT(self.me), "Which card?", False, LF_BUY_C_SPAN, None, rej_,
                                 LF_BUY_C_SITE)
            if not done_:
                FR_NOTES(it, LF_BUY, env, "c", got_)
                return got_
            env["c"] = got_
            self.k = 1
        FR_PAY(it, LF_BUY, LF_BUY.late_cost, env, self.me)
        if self.count_limit:
            c_ = it.s.cursor  # (its turn_actions are replaced, never changed in place: clones share them)
            c_.turn_actions = {**c_.turn_actions, "buy": c_.turn_actions.get("buy", 0) + 1}
        self.phase = 2
        FR_PUSH(pos, LF_BUY_EFFECT, env)
        return None
    if self.phase == 2:
        self.phase = 3
    it.current_action, it.top_action = self.outer
    pos.stack.pop()
    return None


def act205(self, pos):  # line 206 col 5: cheer
    it = pos.it
    env = self.env
    if self.phase == 0:
        FR_CHECK(it, LF_CHEER, self.count_limit, False)
        me = self.me = it.current()
        FR_PAY(it, LF_CHEER, LF_CHEER.cost, env, me)
        self.phase = 1
    if self.phase == 1:
        s = it.s
        cur = s.cursor.current
        if self.count_limit:
            c_ = s.cursor  # (its turn_actions are replaced, never changed in place: clones share them)
            c_.turn_actions = {**c_.turn_actions, "cheer": c_.turn_actions.get("cheer", 0) + 1}
            FR_USE(s, LF_CHEER_LIMIT, self.me)
        self.phase = 2
        LF_track_add(it, cur, "fame", 1, LF_CHEER_ASSIGN)  # line 210 col 7
        if it.narrate:  # line 211 col 7
            sv_ = it.loops
            it.loops = 0
            try:
                SAY(it, T_JOIN(it, LF_SAY_CHEERS, T_TEXT_PLAYER(it, LF_SAY_CHEERS_SPAN, PLAYER(cur)), " cheers"))
            except OERR as failed_:
                SAYX(it, failed_)
            finally:
                it.loops = sv_
    if self.phase == 2:
        self.phase = 3
    it.current_action, it.top_action = self.outer
    pos.stack.pop()
    return None


def act206(self, pos):  # line 197 col 5: play_trick
    it = pos.it
    env = self.env
    if self.phase == 0:
        self.me = it.current()
        self.phase = 1
    if self.phase == 1:
        if self.k == 0:
            if self.first is not None:
                vals_, rej_ = self.first
            else:  # t from current.tricks: its cards
                vals_, rej_ = [PIECE_REFS[p] for p in it.s.places.get(LF_TRICKS[it.s.cursor.current], ())], []
            done_, got_ = FR_ASK(pos, "t", vals_, FR_INT(self.me), "Which trick?", False, LF_TRICK_T_SPAN, None, rej_,
                                 LF_TRICK_T_SITE)
            if not done_:
                return got_
            env["t"] = got_
            self.k = 1
        if self.count_limit:
            c_ = it.s.cursor  # (its turn_actions are replaced, never changed in place: clones share them)
            c_.turn_actions = {**c_.turn_actions, "play_trick": c_.turn_actions.get("play_trick", 0) + 1}
        self.phase = 2
        FR_PUSH(pos, LF_TRICK_EFFECT, env)
        return None
    if self.phase == 2:
        self.phase = 3
    it.current_action, it.top_action = self.outer
    pos.stack.pop()
    return None


FRAMES = [st185, st193, st196, act203, act204, act205, act206]
