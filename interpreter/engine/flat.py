"""The flat flow: a spec's flat module (compiler/flatmodule.py) played from a prepared start position.

`FlatGame.of(game)` generates and links a game's flat module once (None when the spec is not supported);
`FlatGame.start(gs)` turns a GameState at its first decision into a `FlatState` (state.py's data, flat: see
compiler/flatlayout.py); `advance(st)` runs the flow from there to the next decision that needs a real
choice (a menu of one answers itself, as the driver answers it) or to the end, in the reference flow's order
(engine/flowframe.py): a turn starts (the current seat, the turn hook, the immediate end checks), each step
offers the actions whose conditions hold and the chosen action's parameter menu, the effect runs, its
cascade resolves (the state triggers: compiler/flatcascade.py; the change stamps `ST` and `clock` are kept
where the spec reads them), the decision is counted and the immediate end checks run, the turn ends (its hook, the end-of-turn checks), and
after the last seat the phase and the round end (their checks) and the next round starts.

Anything the flat code does not play the way the reference plays it stops the flat game (`Bail`, or any
Python error in the flat code): lean.py then plays the same answers again on the general engine, which goes
on from there.  `to_state(st)` turns a flat state back into a general one (the tests compare it with the
general engine's, digest for digest, and the end's scoring runs on it: flow.finish).
"""

from __future__ import annotations

from typing import Any

from ..compiler.flatgen import FlatUnsupported
from ..compiler.flatlayout import NoLayout
from ..compiler.flatmodule import FlatModule, flat_module
from ..compiler.link import link
from ..core.rng import Rng
from ..core.state import Cursor, Outcome, State
from ..core.values import PIECE_REFS, Player

_VALUES_SHARE = 1000  # a flat list longer than values/1000 stops the flat game (nested counts, counted high)


class Bail(Exception):
    """The flat game cannot go on the way the reference would: the general engine takes over."""


class EndGame(Exception):
    """`end_game NAME` in a flat effect."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


BAIL = Bail()


class Refused(Exception):
    """A `require` refused the move: raised by a look-ahead trial on a copy of the flat state (flatmodule.py
    `viable`); on the flat state itself it is never raised (its menus offer only options that complete)."""


REFUSED = Refused()
ABSENT = object()  # a column's value for a piece whose kind has no such attribute


class FlatState:
    """A position of the flat flow (see the module doc)."""

    __slots__ = ("P", "V", "PV", "KIND", "LOC", "A", "n", "current", "first", "round", "turn", "pos", "step",
                 "decisions", "loops", "menu", "action", "over", "box", "limits", "rng", "version", "checked",
                 "auto", "fversion", "acts", "ST", "clock", "cascade", "keep")

    def copy(self) -> "FlatState":
        c = FlatState.__new__(FlatState)
        copy = list.copy
        c.P = list(map(copy, self.P))  # (the loop in C: a search copies a position per iteration)
        c.V, c.PV = self.V[:], list(map(copy, self.PV))
        c.KIND, c.LOC, c.A = self.KIND[:], self.LOC[:], list(map(copy, self.A))
        c.n, c.current, c.first, c.round, c.turn, c.pos, c.step = (self.n, self.current, self.first, self.round,
                                                                   self.turn, self.pos, self.step)
        c.decisions, c.loops, c.menu, c.action, c.over, c.box = (self.decisions, self.loops, self.menu, self.action,
                                                                 self.over, self.box)
        c.limits, c.rng, c.version, c.auto, c.fversion = self.limits, self.rng, self.version, self.auto, self.fversion
        c.checked, c.acts = self.checked[:], self.acts[:]
        c.ST, c.clock, c.cascade = (self.ST[:] if self.ST is not None else None), self.clock, self.cascade
        c.keep = self.keep
        return c


# ------------------------------------------------------------------ runtime helpers of the generated code


def _nn(v: Any) -> Any:
    if v is None:
        raise BAIL
    return v


def _num(v: int) -> int:
    if -(1 << 60) < v < (1 << 60):
        return v
    raise BAIL


def _tick(st: FlatState, items: list) -> list:
    st.loops += len(items)
    return items


def _tickn(st: FlatState, items: list, n: int) -> list:
    st.loops += len(items) * n
    return items


def _sizers(cap: int) -> tuple[Any, Any]:
    """A game's SIZED and LST: a list longer than its values limit allows (counted high) stops the flat game
    (per game: two games with other limits in one process each keep their own)."""

    room = cap // 4  # (the generated `+=` of a list checks LIST_ROOM, the same)

    def sized(items: list) -> list:
        if len(items) > room:
            raise BAIL
        return items

    def lst(st: FlatState, items: list) -> list:
        st.loops += len(items)
        return sized(items)

    def numbers(st: FlatState, lo: int, hi: int) -> list:
        """range(lo, hi): its items charged (builtins.range_), a longer list than the room stops the flat game."""
        if hi <= lo:
            return []
        if hi - lo > room:
            raise BAIL
        st.loops += hi - lo
        return list(range(lo, hi))

    return sized, lst, numbers


def _drop(st: FlatState, old: list, drop: list) -> list:
    st.loops += len(old) * max(len(drop), 1)
    return [x for x in old if x not in drop]


def _txt(st: FlatState, s: str) -> str:
    st.loops += len(s)
    return s


def _ix(items: list, i: int) -> Any:
    if -len(items) <= i < len(items):
        return items[i]
    raise BAIL


def _div(a: int, b: int) -> int:
    if b == 0:
        raise BAIL
    return a // b


def _mod(a: int, b: int) -> int:
    if b == 0:
        raise BAIL
    return a % b


def _count(st: FlatState, n: int) -> int:
    st.loops += max(n, 0)
    return n


def _cell(labels: dict, label: str) -> Any:
    c = labels.get(label)
    if c is None:
        raise BAIL  # (a label off the board, or no label at all: the general engine's answer)
    return c


def _cell_at(st: FlatState, table: dict, prefix: str, ticks: int) -> Any:
    st.loops += len(prefix) + ticks
    c = table.get(prefix)
    if c is None:
        raise BAIL
    return c


def _clamp(v: int, lo: Any, hi: Any) -> int:
    if lo is not None and v < lo:
        v = lo
    if hi is not None and v > hi:
        v = hi
    return v


def _new_piece(st: FlatState, kind: int, values: tuple, dest: int) -> int:
    if len(st.KIND) >= st.limits.pieces:
        raise BAIL
    pid = len(st.KIND)
    st.KIND.append(kind)
    st.LOC.append(dest)
    for col, v in zip(st.A, values):
        col.append(v)
    st.P[dest].append(pid)
    return pid


def _move(st: FlatState, pid: Any, dest: Any) -> None:
    if dest is None:
        raise BAIL
    if pid is None:
        return
    src = st.LOC[pid]
    st.P[src].remove(pid)
    st.P[dest].append(pid)
    st.LOC[pid] = dest


def _move_bottom(st: FlatState, pid: Any, dest: Any) -> None:
    if dest is None:
        raise BAIL
    if pid is None:
        return
    src = st.LOC[pid]
    st.P[src].remove(pid)
    st.P[dest].insert(0, pid)
    st.LOC[pid] = dest


def _stamped(move: Any) -> Any:
    """`move` (_move or _move_bottom) where the spec reads change stamps (changed_at): both places stamped after
    it, as State.move's _touch stamps them."""

    def moved(st: FlatState, pid: Any, dest: Any) -> None:
        src = None if pid is None else st.LOC[pid]
        move(st, pid, dest)
        if src is not None:
            _stamp_both(st, src, dest)

    return moved


def _stamp_both(st: FlatState, src: int, dest: int) -> None:
    """A move's stamps: the place left, then the place entered (the clock ticks once for each)."""
    st.clock += 2
    st.ST[src] = st.clock - 1
    st.ST[dest] = st.clock
def _unique(st: FlatState, items: list) -> list:
    """unique() of items whose Python equality is the language's, charged as builtins.unique charges them: the
    list built, and the comparisons its scan makes (the items kept so far, at each item)."""
    out: list = []
    seen: set = set()
    compared = 0
    for x in items:
        compared += len(out)
        if x not in seen:
            seen.add(x)
            out.append(x)
    st.loops += len(items) + compared
    return out


def _moves(st: FlatState, ids: list, dest: Any, move: Any) -> None:
    """`move LIST to PLACE`: the place checked first (none stops the flat game, as the general engine's
    error, even for no piece), then each piece moved in turn (`move`: _move or _move_bottom)."""
    if dest is None or None in ids:
        raise BAIL
    for pid in ids:
        move(st, pid, dest)


def _occupied(st: FlatState, lo: int, hi: int) -> list:
    """The occupied cells lo..hi-1 (an unbounded grid's window), in order (row by row: evaluator.cells_of)."""
    return sorted({p for p in st.LOC if lo <= p < hi})


def _connected(st: FlatState, adj: list, rank: list, seeds: list, within: list) -> list:
    """connected(seeds, within) as builtins.connected floods it (breadth first, a tick per cell reached, in
    Cell's order); an edge cell of an unbounded grid's window has no neighbour list: the flat game stops."""
    unseen = set(within)
    seen = []
    for c in seeds:
        if c in unseen:
            unseen.remove(c)
            seen.append(c)
    for c in seen:
        for n in adj[c]:
            if n in unseen:
                unseen.remove(n)
                seen.append(n)
    st.loops += len(seen)
    if st.loops > st.limits.loop:
        raise BAIL
    return sorted(seen, key=rank.__getitem__)


def _distinct(st: FlatState, pieces: list) -> list:
    """A menu of pieces, where no two would merge (evaluator.options_for's key: kind, attributes, place); two
    that would stop the flat game (the general menu's option indices have a gap there)."""
    if len(pieces) > 1:
        kind, loc, cols = st.KIND, st.LOC, st.A
        keys = {(kind[p], loc[p], *[col[p] for col in cols]) for p in pieces}
        if len(keys) < len(pieces):
            raise BAIL
    return pieces


def _has(v: Any) -> Any:
    if v is ABSENT:
        raise BAIL
    return v


def _end_of(items: list, i: int) -> Any:
    return items[i] if items else None


def _top(ids: list) -> Any:
    return ids[-1] if ids else None


_RUNTIME = {"NN": _nn, "NUM": _num, "TICK": _tick, "TICKN": _tickn, "DROP": _drop, "TXT": _txt, "IX": _ix,
            "DIV": _div, "MOD": _mod, "COUNT": _count, "CELL": _cell, "CELL_AT": _cell_at,
            "CLAMP": _clamp, "NEW_PIECE": _new_piece, "TOPF": _top, "MOVE": _move, "MOVEB": _move_bottom,
            "MOVES": _stamped(_move), "MOVEBS": _stamped(_move_bottom),
            "ENDGAME": EndGame, "BAIL": BAIL, "REFUSED": REFUSED, "Refused": Refused, "UNIQUE": _unique,
            "ENDOF": _end_of, "HAS": _has, "MOVEL": _moves, "OCC": _occupied, "CONNECTED": _connected,
            "DISTINCT": _distinct,
            "ABSENT": ABSENT, "ANY": any, "ALL": all, "len": len, "list": list, "sorted": sorted, "abs": abs,
            "min": min, "max": max, "sum": sum, "range": range, "str": str, "set": set,
            "enumerate": enumerate}


# ------------------------------------------------------------------ the game


class FlatGame:
    """A game's flat module, linked; its prepared start positions by player count."""

    def __init__(self, game: Any, mod: FlatModule):
        self.game, self.mod, self.lay = game, mod, mod.layout
        ns: dict[str, Any] = {"__builtins__": {}}
        ns.update(_RUNTIME)
        cap = max(1, game.limits.values // _VALUES_SHARE)
        ns["SIZED"], ns["LST"], ns["RANGE"] = _sizers(cap)
        ns["LIST_ROOM"] = cap // 4
        ns["LOOP_LIMIT"], ns["AUTO_LIMIT"], ns["PIECE_LIMIT"] = game.limits.loop, game.limits.auto, game.limits.pieces
        ns["CASCADE_LIMIT"], ns["LOOKAHEAD_LIMIT"] = game.limits.cascade, game.limits.lookahead
        ns["PLAYERS"] = [list(range(n)) for n in range(game.rules.max_players + 1)]
        ns["KINDS"] = list(self.lay.kinds)
        ns["CX"] = [c.x for c in self.lay.cells]
        ns["CY"] = [c.y for c in self.lay.cells]
        ns["CLABEL"] = [c.label for c in self.lay.cells]
        ns.update(_distances(ns["CX"], ns["CY"]))
        ns["SEATS"] = [game.rules.seat_name(p) for p in range(game.rules.max_players)]
        for i, value in enumerate(mod.consts):
            ns[f"K{i}"] = value
        self.ns = link(mod.source, "flat", ns)
        self.actions = list(game.rules.actions)  # (the order of the generated PERFORM table)
        self.end_slots = 1 + max((i for i, _, _ in mod.ends), default=0)
        self._advance, self._perform, self._playout = self.ns["advance"], self.ns["PERFORM"], self.ns["playout"]
        self.winners = {name: self.ns[f"winners_{i}"] for name, i in mod.winners.items()}
        self.heuristic = self.ns["heuristic"] if mod.heuristic else None  # (seat -> bots.heuristic's value)
        self.order = {}  # players -> the clockwise order of seats from the first player
        self.prepared: dict[int, FlatState | None] = {}  # players -> the flat start at its first decision

    @staticmethod
    def of(game: Any) -> "FlatGame | None":
        """The game's flat module (made once per Game), or None when its spec is not supported."""
        found = game.__dict__.get("_flat", False)
        if found is False:
            found = None
            if game.mode == "compiled":
                from .flow import reads_flow

                try:
                    found = FlatGame(game, flat_module(game.rules, lambda e: reads_flow(game.rules, e)))
                except (FlatUnsupported, SyntaxError):  # (a SyntaxError: a form Python refuses, a generator bug)
                    found = None
            game.__dict__["_flat"] = found
        return found

    def new(self, players: int, seed: int) -> FlatState:
        """A new game's flat state at its first decision: a copy of the prepared one where the setup draws
        nothing random (Game.start_state), with this seed's generator; else made from this seed's start."""
        prepared = self.prepared.get(players, False)
        if prepared is False:
            gs = self.game.start_state(players, 0)
            prepared = None
            if self.game._prepared.get(players) is not None:
                prepared = self.start(gs)
                self.advance(prepared)
            self.prepared[players] = prepared
        if prepared is None:
            st = self.start(self.game.start_state(players, seed))
            self.advance(st)
            return st
        st = prepared.copy()
        st.rng = Rng(seed).state
        return st

    def returns(self, st: FlatState) -> list[float] | None:
        """A finished game's returns as flow.finish scores them, from its end's `winners` (the flat module
        has no final scoring); None where the general engine must score it (no flat `winners`, a value
        that is not a list of seats: the general engine's error)."""
        winners = self._winners(st)
        return None if winners is None else _returns(winners, st.n)

    def outcome(self, st: FlatState) -> Outcome | None:
        """A finished game's Outcome as flow.finish makes it (its end, winners, scores and returns), where the
        flat module writes its `winners` and its scores (FlatModule.score); else None: the general engine
        scores it (and meets any error where it does)."""
        how = self.mod.score
        winners = self._winners(st) if how else None
        if winners is None:
            return None
        winners = sorted(set(winners))
        n = st.n
        if how == "zero":
            scores: list[Any] = [0] * n
        elif how == "var":
            slot, t = self.lay.pvar_slot["score"], self.mod.types.pvars["score"]
            scores = [self.lay.to_general(v, t) for v in st.PV[slot][:n]]
        else:
            score = self.ns["score"]
            try:
                scores = [score(st, p) for p in range(n)]  # (after winners: its charge on the same count)
            except Exception:  # noqa: BLE001 - the general engine scores it (and meets the error where it does)
                return None
        return Outcome(st.over, winners, scores, _returns(winners, n))

    def _winners(self, st: FlatState) -> list[int] | None:
        """The seats a finished game's end names as its winners (its charge counted from 0, as finish's run),
        or None where the general engine must say (no flat `winners`, an error, not a list of seats)."""
        f = self.winners.get(st.over)
        if f is None:
            return None
        try:
            w = f(st)
        except Exception:  # noqa: BLE001 - the general engine scores it (and meets the error where it does)
            return None
        n = st.n
        winners = [w] if w.__class__ is int else [] if w is None else w
        if winners.__class__ is not list or any(p.__class__ is not int or not 0 <= p < n for p in winners):
            return None
        return winners

    def heuristic_returns(self, st: FlatState) -> list[float] | None:
        """Per seat, bots.heuristic scaled to -1..1 as rules.heuristic_returns scales it; None where the general
        engine must judge the position (no flat heuristic; a value that is not a whole number: its error; any
        error in the flat code)."""
        f = self.heuristic
        if f is None:
            return None
        top = self.game.rules.heuristic_top
        out = []
        try:
            for p in range(st.n):
                v = f(st, p)
                if v.__class__ is not int:
                    return None
                out.append(2.0 * min(max(v, 0), top) / top - 1.0)
        except Exception:  # noqa: BLE001 - the general engine judges it (and meets the error where it does)
            return None
        return out

    # ------------------------------------------------------------ between the layouts
    def start(self, gs: Any) -> FlatState:
        """A GameState waiting at its first decision, as a flat state at the same point (Bail: it cannot be)."""
        try:
            return self._start(gs)
        except (KeyError, ValueError, NoLayout):
            raise BAIL from None

    def _start(self, gs: Any) -> FlatState:
        s, lay, tp = gs.pos.s, self.lay, self.mod.types
        c = s.cursor
        if c.stage != "step" or c.phase != 0 or c.step_count != 0 or c.turn_actions or c.end_turn or c.passed:
            raise BAIL
        st = FlatState()
        st.n, st.box, st.limits = s.n, lay.box, self.game.limits
        st.P = [[] for _ in range(lay.box + 1)]
        for place, ids in s.places.items():
            st.P[lay.place_of(place)] = list(ids)
        st.KIND = [lay.kinds.index(k) for k in s.kinds]
        st.LOC = [lay.place_of(p) for p in s.loc]
        st.A = [[] for _ in lay.attr_col]
        for attrs in s.attrs:
            for a, col in lay.attr_col.items():
                st.A[col].append(lay.to_flat(attrs[a], tp.attrs[a]) if a in attrs else ABSENT)
        st.V = [None] * len(lay.var_slot)
        for name, slot in lay.var_slot.items():
            st.V[slot] = lay.to_flat(s.vars.get(name), tp.vars[name])
        st.PV = [[lay.to_flat(s.pvars[p].get(name), tp.pvars[name]) for p in range(s.n)] for name in lay.pvar_slot]
        st.current, st.first, st.round, st.turn = c.current, c.first_player, c.round, c.turn
        st.pos, st.step, st.decisions, st.loops = c.pos, c.step, s.decisions, 0
        st.menu, st.action, st.over, st.auto, st.keep = None, None, None, 0, None
        st.rng, st.version, st.fversion, st.checked = s.rng.state, 1, 1, [0] * self.end_slots
        st.acts = []  # the actions performed this turn (the cursor's turn_actions)
        st.clock, st.cascade, st.ST = s.clock, s.cascade, None
        if self.mod.stamps:  # (the change stamps, where the spec reads them: changed_at)
            st.ST = [0] * (lay.box + 1)
            for place, t in s.stamps.items():
                st.ST[lay.place_of(place)] = t
        if c.order != list(range(c.first_player, s.n)) + list(range(c.first_player)):
            raise BAIL
        return st

    def to_state(self, st: FlatState, template: State) -> State:
        """The general state of a flat one (`template`: the state the flat game started from)."""
        lay, tp = self.lay, self.mod.types
        s = template.clone()
        s.kinds = [lay.kinds[k] for k in st.KIND]
        s.attrs = []
        for pid, k in enumerate(st.KIND):
            attrs = {}
            for a in template.rules.kinds[lay.kinds[k]].defaults:
                attrs[a] = lay.to_general(st.A[lay.attr_col[a]][pid], tp.attrs[a])
            s.attrs.append(attrs)
        s.loc = [lay.general_place(p) for p in st.LOC]
        s.places = {lay.general_place(i): list(ids) for i, ids in enumerate(st.P) if ids}
        s._own = set()
        s.vars = {name: lay.to_general(st.V[slot], tp.vars[name]) for name, slot in lay.var_slot.items()}
        for name, value in tp.constants.items():
            s.vars[name] = template.vars[name]
        for name, slot in lay.pvar_slot.items():
            for p in range(st.n):
                s.pvars[p][name] = lay.to_general(st.PV[slot][p], tp.pvars[name])
        s.rng = Rng(0)
        s.rng.state = st.rng
        cur = s.cursor = Cursor()
        cur.stage = "step" if st.over is None else "over"
        cur.round, cur.phase, cur.pos, cur.step, cur.step_count = st.round, 0, st.pos, st.step, 0
        cur.order = self.order_of(st)
        cur.first_player, cur.current, cur.turn = st.first, st.current, st.turn
        if "turn_player" in Cursor.__dataclass_fields__:  # (where the cursor tells the turn's player apart from
            cur.turn_player = st.current  # the acting one: in a flat game nobody acts out of turn)
        if st.acts:
            acts = dict(cur.turn_actions)  # (replaced, never changed in place: clones share it)
            for k in st.acts:
                name = self.actions[k]
                acts[name] = acts.get(name, 0) + 1
            cur.turn_actions = acts
        s.decisions = st.decisions
        s.cascade = st.cascade
        if st.ST is not None:
            s.stamps = {lay.general_place(i): t for i, t in enumerate(st.ST) if t}
            s.clock = st.clock
        s.version += 1
        s.derived = {}
        return s

    def order_of(self, st: FlatState) -> list[int]:
        key = (st.n, st.first)
        order = self.order.get(key)
        if order is None:
            order = self.order[key] = [(st.first + i) % st.n for i in range(st.n)]
        return order

    # ------------------------------------------------------------ the flow
    def advance(self, st: FlatState) -> None:
        """From the step stage of the current turn to the next real choice (`st.menu`) or the end (`st.over`):
        the generated flow (compiler/flatmodule.py)."""
        try:
            self._advance(st)
        except EndGame as ended:
            st.over = ended.name

    def playout(self, st: FlatState, rng: Any, answers: list[int], limit: int) -> int:
        """Random answers (`rng.randrange`) to the end or for `limit` decisions, each recorded: the decisions."""
        before = len(answers)
        try:
            return self._playout(st, rng.randrange, answers, limit)
        except EndGame as ended:
            st.over = ended.name
            return len(answers) - before

    def play(self, st: FlatState, index: int) -> None:
        """Answer the pending menu with the value of that index and advance."""
        value = st.menu[index]
        action = st.action
        st.menu = st.action = None
        try:
            self._perform[action](st, value)
            if st.over is None:
                self._advance(st)
        except EndGame as ended:
            st.over = ended.name


def _distances(cx: list, cy: list) -> dict[str, Any]:
    """distance() between two cells by each metric (builtins.distance), over a game's coordinate tables."""

    def manhattan(a: int, b: int) -> int:
        return abs(cx[a] - cx[b]) + abs(cy[a] - cy[b])

    def king(a: int, b: int) -> int:
        return max(abs(cx[a] - cx[b]), abs(cy[a] - cy[b]))

    def hexes(a: int, b: int) -> int:
        dx, dy = cx[b] - cx[a], cy[b] - cy[a]
        return (abs(dx) + abs(dy) + abs(dx - dy)) // 2

    return {"DIST_MANHATTAN": manhattan, "DIST_KING": king, "DIST_HEX": hexes}


def _returns(winners: list[int], n: int) -> list[float]:
    """The returns of seats `winners` of n, as flow.finish gives them."""
    if n > 1 and (not winners or len(set(winners)) == n):  # nobody or everybody won: a draw
        return [0.0] * n
    return [1.0 if p in winners else -1.0 for p in range(n)]


__all__ = ["Bail", "FlatGame", "FlatState", "BAIL", "PIECE_REFS", "Player", "FlatUnsupported"]
