"""Statements the typed generator (typedgen.py) writes out where the type pass knows the types: `create` of a
piece into a cell, assignments to spec variables.  Each writes what the reference's statement function does
(reference/effects.py) for those types, and leaves anything else (a value of unknown type, a track that
clamps, a piece past the limit) to the same helper the general code calls.
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A

from . import typepass as T
from .typepass import ANY, BOOL, CELL, INT, NONE, PIECE, PLAYER, STR, ZONE

_BIG = 1 << 60  # fastlib._BIG: smaller numbers need none of the interpreter's size checks


class TypedStatements:
    """The statements typedgen writes out where the types allow (mixed into TypedGen)."""

    def operands(self, node: A.Stmt, indent: int) -> bool:
        if isinstance(node, A.Create) and self.typed_create(node, indent):
            return True
        return super().operands(node, indent)  # type: ignore[misc]

    def typed_create(self, node: A.Create, indent: int) -> bool:
        """`create KIND {attrs} in CELL` of an unlimited kind into a board without capacities: the piece made at
        once (effects.create_with's checks written out); anything else, or a piece past the limit, as before."""
        kind = self.rules.kinds.get(node.kind)
        dest_t = self.typeof(node.dest)
        if (kind is None or not kind.decl.unlimited or T.strip(dest_t) != CELL or self.capacities
                or self.no_walrus):
            return False
        given = list(node.attrs.items) if node.attrs is not None else []
        values = []
        for k, v in given:
            t = self.typeof(v)
            coerce = k in self.rules.player_attrs.get(node.kind, ()) and T.strip(t) != PLAYER
            if coerce and t != INT and T.strip(t) not in (BOOL, STR, CELL, PIECE, T.BPIECE, ZONE, NONE):
                return False  # a value that may be a seat number: rules.coerce_attr decides at run time
            src = self.expr(v)
            if coerce and t == INT:
                src = f"PLAYER({src})"
            local = self.fresh("a")
            self.emit(indent, f"{local} = {src}", v)
            values.append((k, local))
        dest = self.fresh("a")
        self.emit(indent, f"{dest} = {self.expr(node.dest)}  # {_pos(node)}", node)
        attrs = dict((k, self.const(d) if not _plain(d) else repr(d)) for k, d in kind.defaults.items())
        attrs.update(values)
        made = f"it.s.new_piece({self.const(node.kind)}, {{{''.join(f'{self.const(k)}: {v}, ' for k, v in attrs.items())}}}, {dest})"
        general = f"XCREATE(it, {self.node_const(node)}, ({''.join(v + ', ' for _, v in values)}), {dest})"
        test = "LEN(it.s.kinds) < it.limits.pieces"
        if T.optional(dest_t):
            test = f"{dest} is not None and {test}"
        bind = f"env[{self.const(node.bind)}] = " if node.bind else ""
        self.emit(indent, f"if {test}:")
        self.emit(indent + 1, f"{bind}{made}")
        self.emit(indent, "else:")
        self.emit(indent + 1, f"{bind}{general}")
        if node.bind:
            self.bound.add(node.bind)
        return True

    def visit_Assign(self, node: A.Assign, indent: int) -> None:
        target = node.target
        if not isinstance(target, A.Name) or target.id in self.bound or not self.plain_var(target.id):
            return super().visit_Assign(node, indent)  # type: ignore[misc]
        key, n, value = self.const(target.id), self.node_const(node), self.fresh("val")
        self.emit(indent, f"{value} = {self.expr(node.value)}  # {_pos(node)}", node)
        if target.id in self.env_names or not self.strict_env:  # (else no env can hold the name: the variable)
            self.emit(indent, f"if {key} in env:")
            self.set_local(indent + 1, node, key, n, value)
            self.emit(indent, "else:")
        else:
            indent -= 1
        old_t, new_t = self.tp.vars.get(target.id, ANY), self.typeof(node.value)
        if node.op == "=":
            self.emit(indent + 1, f"it.s.vars[{key}] = {value}")
        elif node.op in ("+=", "-=") and old_t == INT and T.numeric(new_t):
            r = self.fresh("a")
            op = node.op[0]
            self.emit(indent + 1, f"{r} = it.s.vars[{key}] {op} {value}")
            self.emit(indent + 1, f"it.s.vars[{key}] = {r} if -{_BIG} < {r} < {_BIG} else "
                                  f"CMB(it, {n}, it.s.vars[{key}], {value})")
        else:
            self.emit(indent + 1, f"SETG(it, {n}, {value})")
            return
        self.emit(indent + 1, "it.s.version += 1")

    def plain_var(self, name: str) -> bool:
        """A spec variable that is not a track (no clamping)."""
        return self.rules.names.get(name, (None,))[0] == "var" and name not in self.rules.tracks


def _plain(v: Any) -> bool:
    return v is None or isinstance(v, bool) or (type(v) is int and abs(v) < _BIG)


def _pos(node: Any) -> str:
    span = getattr(node, "span", None)
    return "?" if span is None else f"line {int(span.line)} col {int(span.col)}"


__all__ = ["TypedStatements"]
