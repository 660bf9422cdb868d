"""Statements over the flat layout (flatgen.py): effects, hooks and procedures as Python functions.

An effect's names (`let`, loops, parameters) are Python locals of its function; spec variables are slots,
player variables and tracks lists by seat (a track clamped as effects._clamp clamps it), piece attributes
columns; a piece moves to a cell or to a pile written by its name, on top or `at bottom` (State.move's
order).  `say` writes nothing: nobody reads a playout's narration, and a `say` cannot change the game
(docs/dsl.md 4.21).  `end_game` stops the effect (EndGame, caught by the flat flow).
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A

from . import typepass as T
from .flatgen import FlatGen
from .typepass import BPIECE, CELL, INT, NEVER, PIECE, PLAYER


class FlatStatements(FlatGen):
    """FlatGen with statements."""

    def function(self, name: str, block: A.Block | None, params: list[tuple[str, str]]) -> None:
        """`def name(st, <params>)` running a block; params: (spec name, type)."""
        frame = {p: (f"l_{p}", t) for p, t in params}
        for n in _bound_names(block):
            if n not in frame:
                frame[n] = (f"l_{n}", self.tp.env.get(n, T.ANY) or T.ANY)
        saved = self.scope
        self.scope = [frame]
        start = len(self.lines)
        try:
            self.block(block, 1)
        finally:
            self.scope = saved
        body = self.lines[start:]
        del self.lines[start:]
        self.emit(0, f"def {name}(st{''.join(', ' + frame[p][0] for p, _ in params)}):")
        self.prologue(body, 1)
        self.lines.extend(body or ["    pass"])
        self.emit(0, "")

    def block(self, node: A.Block | None, indent: int) -> None:
        start = len(self.lines)
        for stmt in (node.body if node is not None else ()):
            visit = getattr(self, f"s_{type(stmt).__name__}", None)
            if visit is None:
                raise self.no(f"the statement {type(stmt).__name__}")
            self.charge = 0
            at = len(self.lines)
            visit(stmt, indent)
            charge = self.take_charge()  # (what the statement's own expressions charge, known now)
            if charge:
                self.lines.insert(at, "    " * indent + f"st.loops += {charge}")
        if len(self.lines) == start:
            self.emit(indent, "pass")

    def stamp(self, indent: int, place: str) -> None:
        """A place changed: where the spec reads change stamps (`changed_at`), the clock moves on and the place
        takes its value (State._touch)."""
        if self.stamps:
            self.emit(indent, "st.clock += 1")
            self.emit(indent, f"st.ST[{place}] = st.clock")

    def local(self, name: str) -> tuple[str, str]:
        found = self.lookup(name)
        if found is None:
            raise self.no(f"the name '{name}'")
        return found

    # ------------------------------------------------------------ statements
    def s_Let(self, node: A.Let, indent: int) -> None:
        self.emit(indent, f"{self.local(node.name)[0]} = {self.expr(node.value)}")

    def s_Say(self, node: A.Say, indent: int) -> None:
        pass  # (narration: nobody reads a playout's)

    def s_Require(self, node: A.Require, indent: int) -> None:
        """The move is refused (REFUSED: a look-ahead trial's verdict, engine/flat.FlatGame); its words are the
        general engine's to give (a refused answer is answered there), so only a written text is taken: working
        one out could charge the loop limit."""
        if node.message is not None and not isinstance(node.message, A.Literal):
            raise self.no("a require's worked-out message")
        self.emit(indent, f"if not {self.cond(node.cond)}:")
        self.emit(indent + 1, "raise REFUSED")

    def s_EndGame(self, node: A.EndGame, indent: int) -> None:
        if node.name not in self.rules.ends:
            raise self.no("end_game of an unknown end")
        self.emit(indent, f"raise ENDGAME({self.const(node.name)})")

    def s_If(self, node: A.If, indent: int) -> None:
        conds = [self.cond(cond) for cond, _ in node.branches]
        charge = self.take_charge()  # (every condition's, before the first: counted high)
        if charge:
            self.emit(indent, f"st.loops += {charge}")
        for i, ((cond, body), src) in enumerate(zip(node.branches, conds)):
            self.emit(indent, f"{'if' if i == 0 else 'elif'} {src}:")
            self.narrowed_block(cond, body, indent + 1)
        if node.else_ is not None:
            self.emit(indent, "else:")
            self.block(node.else_, indent + 1)

    def narrowed_block(self, cond: A.Expr, body: A.Block, indent: int) -> None:
        narrowed = T.narrowed(cond, self.local_types(), self.tp)
        frame = {k: (self.lookup(k)[0], t) for k, t in narrowed.items() if self.lookup(k) is not None}
        self.scope.append(frame)
        try:
            self.block(body, indent)
        finally:
            self.scope.pop()

    def s_While(self, node: A.While, indent: int) -> None:
        self.emit(indent, f"while {self.cond(node.cond)}:")
        self.emit(indent + 1, f"st.loops += {1 + self.take_charge()}")  # (the tick, and the condition's charge)
        self.emit(indent + 1, "if st.loops > LOOP_LIMIT:")
        self.emit(indent + 2, "raise BAIL")
        self.block(node.body, indent + 1)

    def s_Repeat(self, node: A.Repeat, indent: int) -> None:
        if self.typeof(node.count) != INT:
            raise self.no("repeat of a count not known to be a number")
        count = self.expr(node.count)
        charge = self.take_charge()
        if charge:
            self.emit(indent, f"st.loops += {charge}")
        self.emit(indent, f"for _ in range(COUNT(st, {count})):")
        self.block(node.body, indent + 1)

    def s_For(self, node: A.For, indent: int) -> None:
        if node.order_key is not None or node.chooser is not None:
            raise self.no("for ... order by / chosen by")
        dom_t = self.typeof(node.iter)
        if not T.is_list(T.strip(dom_t)):
            raise self.no("for over something else than a list")
        var, _ = self.local(node.var)
        dom = self.expr(node.iter)
        if T.optional(dom_t):
            dom = self.nn(dom)
        items = self.fresh("items")
        charge = self.take_charge()
        if charge:
            self.emit(indent, f"st.loops += {charge}")
        seq = self.fresh("seq")  # (TICK written out: the list charged by its length, then walked)
        self.emit(indent, f"{seq} = {dom}")
        self.emit(indent, f"st.loops += len({seq})")
        if node.cond is None:
            self.emit(indent, f"for {var} in {seq}:")
            self.block(node.body, indent + 1)
            return
        self.emit(indent, f"{items} = []")
        self.emit(indent, f"for {var} in {seq}:")
        keep = self.cond(node.cond)
        charge = self.take_charge()
        if charge:
            self.emit(indent + 1, f"st.loops += {charge}")
        self.emit(indent + 1, f"if {keep}:")
        self.emit(indent + 2, f"{items}.append({var})")
        self.emit(indent, f"for {var} in {items}:")
        self.narrowed_block(node.cond, node.body, indent + 1)

    def s_Assign(self, node: A.Assign, indent: int) -> None:
        target = node.target
        value = self.expr(node.value)
        vt = self.typeof(node.value)
        if isinstance(target, A.Name):
            found = self.lookup(target.id)
            if found is not None:
                if not self.list_added(node.op, found[0], found[1], value, vt, indent):
                    self.emit(indent, f"{found[0]} = {self.combined(node.op, found[0], found[1], value, vt)}")
                return
            if self.rules.names.get(target.id, (None,))[0] != "var":
                raise self.no(f"an assignment to '{target.id}'")
            slot = f"V[{self.lay.var_slot[target.id]}]"
            if target.id not in self.rules.tracks and self.list_added(node.op, slot, self.tp.vars[target.id], value,
                                                                      vt, indent):
                return
            new = self.combined(node.op, slot, self.tp.vars[target.id], value, vt)
            self.emit(indent, f"{slot} = {self.clamped(target.id, new)}")
            return
        if isinstance(target, A.Attr):
            obj_t = T.strip(self.typeof(target.obj))
            obj = self.expr(target.obj)
            if T.optional(self.typeof(target.obj)):
                obj = self.nn(obj)
            o = self.fresh()
            self.emit(indent, f"{o} = {obj}")
            if obj_t == PLAYER and target.name in self.lay.pvar_slot:
                slot = f"PV[{self.lay.pvar_slot[target.name]}][{o}]"
                new = self.combined(node.op, slot, self.tp.pvars[target.name], value, vt)
                self.emit(indent, f"{slot} = {self.clamped(target.name, new)}")
                return
            if obj_t in (PIECE, BPIECE) and target.name in self.lay.attr_col \
                    and target.name not in ("kind", "place", "cell", "id"):
                slot = f"A_{self.lay.attr_col[target.name]}[{o}]"
                if target.name not in self.lay.everywhere:  # (a piece of a kind without it: ABSENT, the flat game
                    self.emit(indent, f"if {slot} is ABSENT:")  # stops; the general engine gives it one, or fails)
                    self.emit(indent + 1, "raise BAIL")
                self.emit(indent, f"{slot} = {self.combined(node.op, slot, self.tp.attrs[target.name], value, vt)}")
                self.stamp(indent, f"LOC[{o}]")  # (State.set_attr touches the piece's place)
                return
        raise self.no("an assignment")

    def list_added(self, op: str, old: str, old_t: str, value: str, vt: str, indent: int) -> bool:
        """`old += value` on a list written out as statements (LST's charge and size check without its calls: a
        legal-move list is built this way in every turn of a playout); False for any other assignment."""
        if op != "+=" or not T.is_list(T.strip(old_t)):
            return False
        src = self.nn(old) if T.optional(old_t) else old
        new, n = self.fresh(), self.fresh("n")
        self.emit(indent, f"{new} = {src} + {value if T.is_list(vt) else f'[{value}]'}")
        self.emit(indent, f"{n} = len({new})")
        self.emit(indent, f"st.loops += {n}")
        self.emit(indent, f"if {n} > LIST_ROOM:")
        self.emit(indent + 1, "raise BAIL")
        self.emit(indent, f"{old} = {new}")
        return True

    def combined(self, op: str, old: str, old_t: str, value: str, vt: str) -> str:
        """The source of `old op= value` (effects._combine) for these types."""
        if op == "=":
            return value
        base = T.strip(old_t)
        if T.optional(old_t):
            old = self.nn(old)
        if T.numeric(base) and T.numeric(vt) and op in ("+=", "-=", "*="):
            return f"NUM({old} {op[0]} {value})"
        if T.is_list(base) and op == "+=":
            return f"LST(st, {old} + {value})" if T.is_list(vt) else f"LST(st, {old} + [{value}])"
        if T.is_list(base) and op == "-=" and T.scalar(T.elem(base)):
            drop = value if T.is_list(vt) else f"[{value}]"
            return f"DROP(st, {old}, {drop})"
        raise self.no(f"'{op}' on {old_t}")

    def clamped(self, name: str, src: str) -> str:
        track = self.rules.tracks.get(name)
        if track is None or (track.min is None and track.max is None):
            return src
        return f"CLAMP({src}, {track.min!r}, {track.max!r})"

    def s_Create(self, node: A.Create, indent: int) -> None:
        kind = self.rules.kinds.get(node.kind)
        if kind is None or not kind.decl.unlimited or any(z.decl.capacity is not None for z in self.rules.zones.values()):
            raise self.no("create")
        given = {k: self.expr(v) for k, v in node.attrs.items} if node.attrs is not None else {}
        dest_t = self.typeof(node.dest)
        if self.is_zone(node.dest) and node.dest.id in self.lay.piles:
            dest = str(self.lay.piles[node.dest.id])  # (a pile written by its name: its place)
        elif T.strip(dest_t) != CELL:
            raise self.no("create into something else than a cell or a pile named")
        else:
            dest = self.expr(node.dest)
            if T.optional(dest_t):
                dest = self.nn(dest)
        values = []
        for a, col in self.lay.attr_col.items():
            if a in kind.defaults:
                v = given.get(a)
                if v is None:
                    v = self.lay.default(node.kind, a, self)
                values.append(v)
            else:
                values.append("ABSENT")
        pid = self.fresh("pid")
        d = self.fresh()
        vals = [self.fresh() for _ in values]
        for v, src in zip(vals, values):  # (attributes first, then the place: effects._create's order)
            self.emit(indent, f"{v} = {src}")
        self.emit(indent, f"{d} = {dest}")
        self.emit(indent, f"{pid} = len(KIND)")
        self.emit(indent, f"if {pid} >= PIECE_LIMIT:")
        self.emit(indent + 1, "raise BAIL")
        self.emit(indent, f"KIND.append({self.lay.kinds.index(node.kind)})")
        self.emit(indent, f"LOC.append({d})")
        for col, v in zip(self.lay.attr_col.values(), vals):
            self.emit(indent, f"A_{col}.append({v})")
        self.emit(indent, f"P[{d}].append({pid})")
        self.stamp(indent, d)
        if node.bind:
            self.emit(indent, f"{self.local(node.bind)[0]} = {pid}")

    def s_Move(self, node: A.Move, indent: int) -> None:
        if node.position not in (None, "top", "bottom"):
            raise self.no(f"move to the {node.position}")
        what_t, dest_t = self.typeof(node.what), self.typeof(node.dest)
        many = T.is_list(T.strip(what_t)) and T.strip(T.elem(T.strip(what_t))) in (PIECE, BPIECE, NEVER)
        if T.strip(what_t) not in (PIECE, BPIECE) and not many:
            raise self.no("move of something else than a piece or a list of pieces")
        what = self.expr(node.what)
        if many:  # (the list first, then the place: effects._move's order; each piece in turn)
            what = self.nn(what) if T.optional(what_t) else what
            seq = self.fresh("seq")
            self.emit(indent, f"{seq} = {what}")
            what = seq
        if T.strip(dest_t) == CELL:
            dest = self.expr(node.dest)
        elif self.is_zone(node.dest) and node.dest.id in self.lay.piles:
            dest = str(self.lay.piles[node.dest.id])  # (a pile written by its name: its place)
        else:
            raise self.no("move of a piece to something else than a cell or a pile named")
        # (none: MOVE stops the flat game; at the bottom: first in the place's list, as State.move puts it)
        move = ("MOVEB" if node.position == "bottom" else "MOVE") + ("S" if self.stamps else "")
        if many:
            self.emit(indent, f"MOVEL(st, {what}, {dest}, {move})")
            return
        self.emit(indent, f"{move}(st, {what}, {dest})")

    def s_Destroy(self, node: A.Destroy, indent: int) -> None:
        what_t = self.typeof(node.what)
        if T.strip(what_t) not in (PIECE, BPIECE):
            raise self.no("destroy of something else than a piece")
        self.emit(indent, f"MOVE{'S' if self.stamps else ''}(st, {self.expr(node.what)}, st.box)")

    def s_CallProc(self, node: A.CallProc, indent: int) -> None:
        proc = self.rules.procedures.get(node.name)
        if proc is None or node.kwargs or len(node.args) != len(proc[0]):
            raise self.no(f"call {node.name}")
        self.emit(indent, "st.loops += 1")  # (enter_call's tick)
        self.emit(indent, f"proc_{node.name}(st{''.join(', ' + self.expr(a) for a in node.args)})")


def _bound_names(block: A.Block | None) -> list[str]:
    """The names a block binds (its Python locals)."""
    out: list[str] = []
    for n in (block.walk() if block is not None else ()):
        name = (n.name if isinstance(n, A.Let) else n.var if isinstance(n, A.For)
                else n.bind if isinstance(n, A.Create) and n.bind else None)
        if name is not None and name not in out:
            out.append(name)
        if isinstance(n, A.Assign) and isinstance(n.target, A.Name):
            pass  # (an assignment to a name the block binds writes that local; else the spec variable)
    return out


__all__ = ["FlatStatements"]
