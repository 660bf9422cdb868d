"""A hypothesis strategy for small random but valid rule specs (used by tests/test_generated_games.py).

`specs()` draws a spec as YAML text.  Every spec has the same skeleton, so that validity is cheap to
guarantee by construction, and random contents drawn from a small grammar of constructs:

- 1-3 players; a 3x3 grid `board` (random adjacency, sometimes a cell capacity), a `bag` of counted
  `chip`s (random draws), a public `pile`, a per-player `hand`; an unlimited `token` kind.  Both kinds
  have an `owner` (player) and an int `power`, so every piece has the same attributes.
- variables: `turns` (the turn counter that ends the game), `g` (a global int), `log` (a global list of
  ints), `armed` (the counter a state trigger consumes), `score` (per player).
- a phase with 1-2 steps (some optional, some repeating with a max, some with a `when`), 1-3 actions
  `act0..` with 0-2 params (`from` a list literal, `range(n)` or `cells(board)` with a `where`; some
  optional, some with a prompt), sometimes a `condition`, a `cost` (a number, a parameter's price, the
  quantity `fee(g)`) or a `limit` (per turn, phase, round or game, maybe a shared key read by `uses()` in
  the condition); often a `rest` action;
  sometimes a free action, a second phase (`until_pass` with a `pass` action, `order: by`, `when`,
  `players`, `on_start`), round hooks, a rotating first player, a spec function `twice(k)`, a table
  `pts`, a quantity `fee(k)` with modifiers, `scoring` and `ranking`.
- a procedure `proc(n)`, an event trigger on `ping` (sometimes with `max_fires`), a state trigger that consumes
  `armed`, a state trigger `for c in cells(board)` that clears crowded cells (with a random `order`); the state
  triggers sometimes read their causes.
- reactions (docs/dsl.md 2.19, 2.11, 4.23): sometimes a window `w` (its action `react`, once a turn; random
  `who`, `closes`, `ask`, `poll`), opened by `open w()` in actions and sometimes after `ping`; `perform ...
  by` a player (always with `by` after a `choose ... by` another player); the free action as `anytime`;
  triggers on `ping` that belong to players, with `events.ping.order` declared or chosen by the owner.
- effects from a grammar of statements (let, assignments, if/elif/else, for .. where .. order by,
  for .. chosen by, repeat, bounded while, choose (optional, by, prompt, else), commit (every player's
  sealed answer from a menu of numbers that may depend on `p`, a filter, a prompt), require, create, move,
  destroy, draw, shuffle, say, call, emit, settle, perform, end_turn, end_game) over typed expressions
  (arithmetic, comparisons, and/or/not, count, size, len, empty, sum, min/max, any/all comprehensions,
  list literals and comprehensions, in / not in, conditionals, random_int, shuffled, sorted, reversed,
  `reachable` walks with a per-edge `cost:`, `let ... in`, `match` in expressions and as a statement,
  slices `xs[a:b]`); sometimes `constants` (a number and a record holding a list, read with `.field`,
  `["field"]` and slices).

Termination is guaranteed by construction: `turns` goes up in every `turn_end` and the end condition
`timeout` holds once it reaches a small bound; steps repeat at most twice; loops are over literal
ranges or bounded counters; `perform` only goes to a later action; the event trigger neither emits,
calls nor performs; state triggers each consume their own condition and cannot feed each other
without bound (the `for` trigger only removes pieces from the board; the `armed` trigger only lowers
`armed`).

Each construct can be switched off through EXCLUDED (a construct excluded because of a recorded
disagreement between the two engines points at tests/GENERATED_FINDINGS.md).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable

import yaml
from hypothesis import strategies as st

from specgen_pieces import add_abilities

# Constructs left out of generated specs, each with the reason (see tests/GENERATED_FINDINGS.md).
EXCLUDED: dict[str, str] = {}

LABELS = [f"{c}{r}" for r in (1, 2, 3) for c in "abc"]

# Capabilities of an effect context: which statements may appear in it.
ALL_CAPS = frozenset({"board", "choose", "commit", "settle", "perform", "call", "emit", "require", "end", "armed",
                      "rng", "end_turn"})


@dataclass
class Scope:
    """Local names visible at a point of an effect, by type (int, mint = a mutable int local, cell, piece,
    player, list, ocell/oint = optional params that may be none)."""

    names: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, name: str) -> "Scope":
        new = Scope({k: list(v) for k, v in self.names.items()})
        new.names.setdefault(kind, []).append(name)
        return new

    def get(self, kind: str) -> list[str]:
        return self.names.get(kind, [])


class Gen:
    """Draws the pieces of one spec with hypothesis's `draw`."""

    def __init__(self, draw: Callable[[Any], Any]):
        self.draw = draw
        self.counter = itertools.count(1)
        self.int_atoms_extra: list[str] = []  # e.g. event.n in an event trigger
        self.n_actions = 1
        self.action_index = 0  # the action whose effect is being drawn (perform goes to later ones)
        self.emits = False  # some effect emits `ping`
        self.used_end_game = False
        self.has_fn = False  # the spec declares the function twice(k)
        self.has_table = False  # the spec declares the table pts
        self.has_consts = False  # the spec declares the constants base (int) and rec ({a: int, b: [int]})
        self.has_quantity = False  # the spec declares the quantity fee(k)
        self.risky = False  # may draw expressions that fail at run time (not in setup: the game would not start)
        self.saying = False  # drawing a `say`'s text: no random draws there (dsl.md 4.21)
        self.asked_other = False  # this effect has a `choose ... by` another player: a `perform` needs `by`
        self.window = False  # the spec declares the window `w` (actions may `open w()`)

    # ------------------------------------------------------------------ helpers
    def pick(self, options):
        return self.draw(st.sampled_from(options))

    def chance(self, p: float = 0.5) -> bool:
        """True with about probability p; false for hypothesis's simplest draw (so a shrunk spec has the least)."""
        return self.draw(st.integers(0, 99)) >= 100 - int(p * 100)

    def num(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))

    def fresh(self) -> str:
        return f"v{next(self.counter)}"

    def on(self, construct: str) -> bool:
        return construct not in EXCLUDED and not (construct == "rng" and self.saying)

    # ------------------------------------------------------------------ expressions
    def int_atom(self, sc: Scope) -> str:
        if self.risky and self.on("risky") and self.chance(0.02):  # an error (no attribute of none) when the cell is empty
            return f"top({self.cell_expr(sc)}).power"
        opts = ["lit", "g", "turns", "score", "round"]
        if sc.get("int") or sc.get("mint"):
            opts += ["local", "local"]
        if sc.get("oint"):
            opts.append("oint")
        if self.int_atoms_extra:
            opts.append("extra")
        if self.has_consts:
            opts.append("const")
        k = self.pick(opts)
        if k == "lit":
            return str(self.num(0, 5))
        if k == "local":
            return self.pick(sc.get("int") + sc.get("mint"))
        if k == "oint":
            return f"(if {self.pick(sc.get('oint'))} == none then 0 else {self.pick(sc.get('oint'))})"
        if k == "extra":
            return self.pick(self.int_atoms_extra)
        if k == "const":
            return self.pick(["base", "rec.a", 'rec["a"]', "len(rec.b)"])
        if k == "score":
            return self.pick(["current.score", "next_player(current).score"])
        return k

    def int_expr(self, sc: Scope, d: int = 2) -> str:
        if d <= 0 or self.chance(0.35):
            return self.int_atom(sc)
        k = self.pick(["add", "sub", "mul", "div", "mod", "count", "size", "len", "sum", "minmax", "cond",
                       "piece", "neg", "abs", "random", "index", "ncells", "fn", "table", "walk", "let",
                       "match"])
        a = lambda: self.int_expr(sc, d - 1)  # noqa: E731
        if k == "add":
            return f"({a()} + {a()})"
        if k == "sub":
            return f"({a()} - {a()})"
        if k == "mul":
            return f"({a()} * {self.num(0, 3)})"
        if k == "div":
            return f"({a()} // {self.num(1, 3)})"
        if k == "mod":
            return f"({a()} % {self.num(1, 4)})"
        if k == "neg":
            return f"(-{self.int_atom(sc)})"
        if k == "abs":
            return f"abs({a()})"
        if k == "count":
            c = self.fresh()
            return f"count({c} for {c} in cells(board) where {self.bool_expr(sc.add('cell', c), d - 1)})"
        if k == "ncells":
            return f"count(pieces({self.cell_expr(sc)}))"
        if k == "size":
            return f"size({self.place_expr(sc)})"
        if k == "len":
            return f"len({self.list_expr(sc, d - 1)})"
        if k == "sum":
            return f"sum({self.list_expr(sc, d - 1)})"
        if k == "minmax":
            if self.chance():
                return f"{self.pick(['min', 'max'])}({a()}, {a()})"
            return f"{self.pick(['min', 'max'])}({self.list_expr(sc, d - 1)}, default: {self.num(0, 3)})"
        if k == "cond":
            return f"(if {self.bool_expr(sc, d - 1)} then {a()} else {a()})"
        if k == "piece":
            if sc.get("piece"):
                return f"{self.pick(sc.get('piece'))}.power"
            m = self.fresh()
            return f"sum({m}.power for {m} in pieces({self.pick(['board', 'pile', 'current.hand'])}))"
        if k == "random" and self.on("rng"):
            lo = self.num(0, 2)
            return f"random_int({lo}, {lo + self.num(0, 3)})"
        if k == "fn" and self.has_fn:
            return f"twice({a()})" if self.chance() else f"twice(k: {a()})"
        if k == "table" and self.has_table:
            return f"pts[{a()}]"
        if k == "walk":  # a walk with a per-edge cost that may refuse the edge (none)
            start, budget = self.cell_expr(sc), self.num(0, 3)
            if self.chance():
                return f"len(reachable({start}, {budget}))"
            cost = f"(if {self.bool_expr(sc.add('cell', 'edge.target'), d - 1)} then {self.num(0, 2)} else none)"
            return f"len(reachable({start}, {budget}, cost: {cost}))"
        if k == "index":
            xs = self.list_expr(sc, d - 1)
            return f"(if len({xs}) > 0 then {xs}[{self.pick(['0', '-1'])}] else 0)"
        if k == "let" and self.on("let_in"):
            x = self.fresh()
            return f"(let {x} = {a()} in {self.int_expr(sc.add('int', x), d - 1)})"
        if k == "match" and self.on("match"):
            return f"(match {a()} {{ {self.match_arms(a)} }})"
        return self.int_atom(sc)

    def match_patterns(self) -> list[str]:
        """The patterns of a match's arms over small numbers (some with alternatives), ending with `_`."""
        values = sorted(set(self.draw(st.lists(st.integers(0, 4), min_size=1, max_size=4))))
        arms, i = [], 0
        while i < len(values):
            take = self.num(1, 2)
            arms.append(" | ".join(map(str, values[i:i + take])))
            i += take
        return arms + ["_"]

    def match_arms(self, result: Callable[[], str]) -> str:
        """A match expression's arms."""
        return ", ".join(f"{pattern} => {result()}" for pattern in self.match_patterns())

    def bool_expr(self, sc: Scope, d: int = 2) -> str:
        if d <= 0 or self.chance(0.2):
            opts = ["lit", "cmp", "cmp", "empty"]
            if sc.get("ocell"):
                opts.append("ocell")
            k = self.pick(opts)
        else:
            k = self.pick(["lit", "cmp", "cmp", "and", "or", "not", "empty", "anyall", "in", "notin", "top", "cellin",
                           "piecein", "owner", "cond", "player"])
        b = lambda: self.bool_expr(sc, d - 1)  # noqa: E731
        if k == "lit":
            return self.pick(["true", "false"])
        if k == "cmp":
            return f"{self.int_expr(sc, d - 1)} {self.pick(['<=', '==', '>=', '<', '!=', '>'])} {self.int_expr(sc, d - 1)}"
        if k == "and":
            return f"({b()} and {b()})"
        if k == "or":
            return f"({b()} or {b()})"
        if k == "not":
            return f"(not {b()})"
        if k == "empty":
            return f"empty({self.place_expr(sc)})"
        if k == "ocell":
            o = self.pick(sc.get("ocell"))
            return f"({o} != none and empty({o}))"
        if k == "anyall":
            c = self.fresh()
            dom = self.pick(["cells(board)", "range(3)", "players"])
            kind = {"cells(board)": "cell", "range(3)": "int", "players": "player"}[dom]
            body = self.bool_expr(sc.add(kind, c), d - 1)
            return f"{self.pick(['any', 'all'])}({body} for {c} in {dom})"
        if k in ("in", "notin"):
            op = "in" if k == "in" else "not in"
            return f"{self.int_expr(sc, d - 1)} {op} {self.list_expr(sc, d - 1)}"
        if k == "top":
            c = self.cell_expr(sc)
            return f"(not empty({c}) and top({c}).power >= {self.int_expr(sc, d - 1)})"
        if k == "cellin":
            return f"{self.cell_expr(sc)} in adjacent({self.cell_expr(sc)})"
        if k == "piecein" and sc.get("piece"):
            return f"{self.pick(sc.get('piece'))} in {self.pick(['board', 'pile', 'current.hand'])}"
        if k == "owner" and sc.get("piece"):
            return f"{self.pick(sc.get('piece'))}.owner == {self.player_expr(sc)}"
        if k == "player":
            return f"{self.player_expr(sc)} {self.pick(['==', '!='])} {self.player_expr(sc)}"
        if k == "cond":
            return f"(if {b()} then {b()} else {b()})"
        return f"{self.int_expr(sc, d - 1)} > {self.int_expr(sc, d - 1)}"

    def list_expr(self, sc: Scope, d: int = 2) -> str:
        opts = ["lit", "range", "log"]
        if d > 0:
            opts += ["comp", "concat", "sorted", "reversed", "powers", "shuffled", "adjsizes", "slice"]
        if self.has_consts:
            opts.append("const")
        k = self.pick(opts)
        if k == "lit":
            return "[" + ", ".join(self.int_expr(sc, d - 1) for _ in range(self.num(0, 3))) + "]"
        if k == "range":
            return f"range({self.num(0, 4)})"
        if k == "log":
            return "log"
        if k == "comp":
            x = self.fresh()
            inner = sc.add("int", x)
            return f"[{self.int_expr(inner, d - 1)} for {x} in {self.list_expr(sc, d - 1)} where {self.bool_expr(inner, d - 1)}]"
        if k == "concat":
            return f"({self.list_expr(sc, d - 1)} + {self.list_expr(sc, d - 1)})"
        if k == "sorted":
            rev = ", reverse: true" if self.chance() else ""
            return f"sorted({self.list_expr(sc, d - 1)}{rev})"
        if k == "reversed":
            return f"reversed({self.list_expr(sc, d - 1)})"
        if k == "shuffled" and self.on("rng"):
            return f"shuffled({self.list_expr(sc, d - 1)})"
        if k == "adjsizes":
            n = self.fresh()
            return f"[size({n}) for {n} in adjacent({self.cell_expr(sc)})]"
        if k == "const":
            return self.pick(["rec.b", 'rec["b"]'])
        if k == "slice" and self.on("slice"):
            lo, hi = (self.pick(["", "0", "1", "-1", "-2", "3", self.int_atom(sc)]) for _ in range(2))
            return f"{self.list_expr(sc, d - 1)}[{lo}:{hi}]"
        m = self.fresh()
        return f"[{m}.power for {m} in pieces({self.pick(['board', 'pile', 'bag'])})]"

    def cell_expr(self, sc: Scope) -> str:
        if sc.get("cell") and self.chance(0.6):
            return self.pick(sc.get("cell"))
        return f'cell(board, "{self.pick(LABELS)}")'

    def place_expr(self, sc: Scope) -> str:
        return self.pick(["pile", "bag", "current.hand", "cell"]).replace("cell", self.cell_expr(sc))

    def player_expr(self, sc: Scope) -> str:
        opts = ["current", "next_player(current)"] + sc.get("player")
        return self.pick(opts)

    def text_expr(self, sc: Scope) -> str:
        """A text for `say` (never a random draw: narration may not change the game)."""
        self.saying = True
        try:
            return self._text_expr(sc)
        finally:
            self.saying = False

    def _text_expr(self, sc: Scope) -> str:
        k = self.pick(["int", "bool", "list", "cell", "player", "lit"])
        if k == "int":
            return f'"n " + text({self.int_expr(sc, 1)})'
        if k == "bool":
            return f"text({self.bool_expr(sc, 1)})"
        if k == "list":
            return f'"l " + text({self.list_expr(sc, 1)})'
        if k == "cell":
            return f"text({self.cell_expr(sc)})"
        if k == "player":
            return f'text({self.player_expr(sc)}) + " acts"'
        return f'"{self.pick(["hello", "tick", "tock", "boom"])}"'

    # ------------------------------------------------------------------ statements
    def block(self, sc: Scope, caps: frozenset, d: int, n: tuple[int, int] = (1, 3)) -> list[str]:
        out: list[str] = []
        for _ in range(self.num(*n)):
            lines, sc = self.stmt(sc, caps, d)
            out += lines
        return out

    @staticmethod
    def braces(head: str, body: list[str]) -> list[str]:
        return [head + " {"] + ["  " + line for line in body] + ["}"]

    def stmt(self, sc: Scope, caps: frozenset, d: int) -> tuple[list[str], Scope]:
        """One statement (maybe several lines) and the scope after it."""
        kinds = ["let", "assign", "assign", "say", "log"]
        if d > 0:
            kinds += ["if", "for_int", "for_cell", "for_piece", "repeat", "while", "match"]
            if "choose" in caps:
                kinds += ["chosen_by"]
        if "choose" in caps:
            kinds += ["choose", "choose"] + (["commit"] if "commit" in caps else [])
        if "board" in caps:
            kinds += ["create", "move", "destroy", "draw"]
        else:
            kinds += ["create_pile"]
        if "rng" in caps:
            kinds += ["shuffle"]
        for cap in ("require", "call", "emit", "settle", "perform", "end_turn", "armed"):
            if cap in caps:
                kinds.append(cap)
        if "perform" in caps and self.window:  # (actions only: an answer in the window never opens it again)
            kinds.append("open")
        if "end" in caps and self.chance(0.3):
            kinds.append("end")
        if sc.get("piece"):
            kinds += ["piece_attr"]
        kinds = [k for k in kinds if self.on(k)]
        k = self.pick(kinds)
        ie = lambda: self.int_expr(sc, 2)  # noqa: E731
        be = lambda s=sc: self.bool_expr(s, 2)  # noqa: E731
        if k == "let":
            v = self.fresh()
            kind = self.pick(["int", "int", "list", "cell", "bool"])
            if kind == "int":
                return [f"let {v} = {ie()}"], sc.add("mint", v)
            if kind == "list":
                return [f"let {v} = {self.list_expr(sc)}"], sc.add("list", v)
            if kind == "cell":
                return [f"let {v} = {self.cell_expr(sc)}"], sc.add("cell", v)
            return [f"let {v} = {be()}"], sc
        if k == "assign":
            targets = ["g", "current.score", "next_player(current).score"] + sc.get("mint")
            t = self.pick(targets)
            op = self.pick(["=", "+=", "-=", "*="])
            rhs = str(self.num(0, 2)) if op == "*=" else ie()
            return [f"{t} {op} {rhs}"], sc
        if k == "log":
            op = self.pick(["+=", "+=", "-=", "="])
            rhs = self.list_expr(sc, 1) if op == "=" else ie()
            if op == "=":
                rhs = f"[{ie()}]"
            return [f"log {op} {rhs}"], sc
        if k == "say":
            return [f"say {self.text_expr(sc)}"], sc
        if k == "if":
            lines = self.braces(f"if {be()}", self.block(sc, caps, d - 1))
            if self.chance(0.3):
                lines[-1] = "} elif " + be() + " {"
                lines += ["  " + x for x in self.block(sc, caps, d - 1)] + ["}"]
            if self.chance():
                lines[-1] = "} else {"
                lines += ["  " + x for x in self.block(sc, caps, d - 1)] + ["}"]
            return lines, sc
        if k == "match":  # arms of statements, one per line
            lines = [f"match {ie()} {{"]
            for pattern in self.match_patterns():
                lines += ["  " + x for x in self.braces(f"{pattern} =>", self.block(sc, caps, d - 1, (1, 2)))]
            return lines + ["}"], sc
        if k == "for_int":
            x = self.fresh()
            inner = sc.add("int", x)
            head = f"for {x} in {self.list_expr(sc, 1)}"
            if self.chance():
                head += f" where {self.bool_expr(inner, 1)}"
            if self.chance() and self.on("order_by"):
                head += f" order by {self.int_expr(inner, 1)}" + (" desc" if self.chance() else "")
            return self.braces(head, self.block(inner, caps, d - 1)), sc
        if k == "for_cell":
            x = self.fresh()
            inner = sc.add("cell", x)
            dom = self.pick(["cells(board)", f"adjacent({self.cell_expr(sc)})"])
            head = f"for {x} in {dom}"
            if self.chance(0.7):
                head += f" where {self.bool_expr(inner, 1)}"
            if self.chance() and self.on("order_by"):
                key = self.pick([f"changed_at({x})", f"{x}.x", f"-{x}.y", f"size({x})", self.int_expr(inner, 1)])
                head += f" order by {key}" + (" desc" if self.chance() else "")
            return self.braces(head, self.block(inner, caps, d - 1, (1, 2))), sc
        if k == "for_piece":
            x = self.fresh()
            inner = sc.add("piece", x)
            head = f"for {x} in pieces({self.pick(['board', 'pile', 'current.hand', self.cell_expr(sc)])})"
            if self.chance():
                head += f" where {self.bool_expr(inner, 1)}"
            if self.chance() and self.on("order_by"):
                head += f" order by {x}.power" + (" desc" if self.chance() else "")
            return self.braces(head, self.block(inner, caps, d - 1, (1, 2))), sc
        if k == "chosen_by":
            x = self.fresh()
            kind, dom = self.pick([("int", f"[{self.num(0, 2)}, {self.num(3, 5)}, {self.num(6, 9)}]"),
                                   ("cell", "cells(board)"), ("int", "range(3)")])
            inner = sc.add(kind, x)
            head = f"for {x} in {dom} where {self.bool_expr(inner, 1)} chosen by {self.player_expr(sc)}"
            if int(x[1:]) % 2:  # (a question of its own in every other loop; decided without a draw, so the
                head += ' prompt "which next, of " + text(len(players)) + "?"'  # games drawn before stay)
            return self.braces(head, self.block(inner, caps, d - 1, (1, 2))), sc
        if k == "repeat":
            n = self.pick([str(self.num(0, 3)), f"min({self.int_expr(sc, 1)}, 2)"])
            return self.braces(f"repeat {n}", self.block(sc, caps, d - 1, (1, 2))), sc
        if k == "while":
            w = self.fresh()
            body = self.block(sc, caps, d - 1, (1, 2)) + [f"{w} += 1"]
            return [f"let {w} = 0"] + self.braces(f"while {w} < {self.num(1, 3)} and {be()}", body), sc
        if k == "choose":
            return self.choose(sc, caps, d)
        if k == "commit":
            return self.commit(sc)
        if k == "require":
            msg = self.pick(['"not now"', '"the rule says no"', f'"need " + text({self.int_expr(sc, 1)})'])
            return [f"require {self.bool_expr(sc, 1)} else {msg}"], sc
        if k == "create":
            rec = f"{{owner: {self.player_expr(sc)}, power: {self.int_expr(sc, 1)}}}"
            where = self.pick([self.cell_expr(sc), "pile", "current.hand"])
            if self.chance(0.3):
                v = self.fresh()
                return [f"create token {rec} in {where} as {v}"], sc.add("piece", v)
            return [f"create token {rec} in {where}"], sc
        if k == "create_pile":
            return [f"create token {{owner: current, power: {self.int_expr(sc, 1)}}} in pile"], sc
        if k == "move":
            src = self.pick([f"top({self.place_expr(sc)})", f"pieces({self.cell_expr(sc)})",
                             f"bottom({self.pick(['pile', 'current.hand'])})"]
                            + ([self.pick(sc.get("piece"))] if sc.get("piece") else []))
            dst = self.pick([self.cell_expr(sc), "pile", "current.hand"])
            at = self.pick(["", "", " at bottom", " at top"])
            return [f"move {src} to {dst}{at}"], sc
        if k == "destroy":
            what = self.pick([f"pieces({self.cell_expr(sc)})", "pieces(pile)",
                              f"[m for m in pieces(board) where m.power > {self.num(0, 4)}]"]
                             + ([self.pick(sc.get("piece"))] if sc.get("piece") else []))
            if what.startswith("[m for"):  # fresh names only
                m = self.fresh()
                what = what.replace("[m for m in", f"[{m} for {m} in").replace("where m.", f"where {m}.")
            return [f"destroy {what}"], sc
        if k == "draw":
            dst = self.pick([self.cell_expr(sc), "pile", "current.hand"])
            if self.chance(0.3):
                v = self.fresh()
                return [f"draw {self.num(0, 2)} from bag to {dst} as {v}",
                        f"say text(len({v})) + \" drawn\""], sc
            return [f"draw {self.num(0, 2)} from {self.pick(['bag', 'bag', 'pile'])} to {dst}"], sc
        if k == "shuffle":
            return [f"shuffle {self.pick(['bag', 'pile', 'current.hand'])}"], sc
        if k == "call":
            return [f"call proc({ie()})"], sc
        if k == "emit":
            self.emits = True
            return [f"emit ping(n: {ie()})"], sc
        if k == "settle":
            return ["settle"], sc
        if k == "perform":
            later = [f"act{j}" for j in range(self.action_index + 1, self.n_actions)]
            if later:
                by = "" if not self.asked_other and self.chance(0.6) else f" by {self.player_expr(sc)}"
                return [f"perform {self.pick(later)}{by}"], sc
            return [f"g += {self.num(1, 2)}"], sc
        if k == "open":
            return ["open w()"], sc
        if k == "end_turn":
            return (["end_turn"] if self.chance(0.5) else self.braces(f"if {be()}", ["end_turn"])), sc
        if k == "end":
            self.used_end_game = True
            return self.braces(f"if {be()}", ["end_game stop"]), sc
        if k == "armed":
            return [f"armed += {self.num(1, 2)}"], sc
        if k == "piece_attr":
            m = self.pick(sc.get("piece"))
            op = self.pick(["=", "+=", "-="])
            return [f"{m}.power {op} {self.int_expr(sc, 1)}"], sc
        return [f"say {self.text_expr(sc)}"], sc

    def choose(self, sc: Scope, caps: frozenset, d: int) -> tuple[list[str], Scope]:
        x = self.fresh()
        kind, dom = self.pick([("cell", "cells(board)"), ("int", "range(4)"), ("int", "[1, 2, 3]"),
                               ("piece", "pile"), ("piece", "pieces(board)"), ("player", "players"),
                               ("cell", f"adjacent({self.cell_expr(sc)})")])
        inner = sc.add(kind, x)
        parts = [f"choose {x} from {dom}"]
        if self.chance(0.7):
            parts.append(f"where {self.bool_expr(inner, 1)}")
        if self.chance(0.3):
            who = self.player_expr(sc)
            parts.append(f"by {who}")
            self.asked_other = self.asked_other or who != "current"
        if self.chance() and self.on("prompt"):
            parts.append(f'prompt "pick {x}"' if self.chance() else f'prompt "pick " + text({self.int_expr(sc, 1)})')
        optional = self.chance(0.35) and self.on("choose_optional")
        if optional:
            parts.append("optional")
        elif self.chance():
            parts.append(self.pick(['else "nothing to pick"', f'else "no " + text({x})']
                                   if kind != "piece" else ['else "nothing to pick"']))
        line = " ".join(parts)
        if optional:
            return [line] + self.braces(f"if {x} != none", self.block(inner, caps, max(0, d - 1), (1, 2))), sc
        return [line], inner


    def commit(self, sc: Scope) -> tuple[list[str], Scope]:
        """Every player answers a sealed menu of numbers (one per seat after the reveal: a list of ints)."""
        x = self.fresh()
        parts = [f"commit {x} from {self.pick(['range(3)', '[1, 2, 3]', '[p.seat, p.seat + 2, 4]'])}"]
        if self.chance():
            parts.append(self.pick([f"where {x} != p.seat", f"where {x} > {self.num(0, 1)}",
                                    f"where {x} + {self.int_expr(sc, 1)} > 0"]))
            parts.append('else "not that one"')
        if self.chance() and self.on("prompt"):
            parts.append(self.pick([f'prompt "seal {x}"', 'prompt "seal for " + text(p)']))
        return [" ".join(parts), f"say text({x})"], sc.add("list", x)


def _str_presenter(dumper: yaml.Dumper, data: str) -> yaml.Node:
    if "\n" in data:
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", data)


class _Dumper(yaml.CSafeDumper):
    """libyaml's emitter (PyYAML's pure-Python one was about a tenth of test_generated_games' CPU)."""


_Dumper.add_representer(str, _str_presenter)


def effect(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


@st.composite
def specs(draw) -> str:
    """A random valid spec, as YAML text."""
    g = Gen(draw)
    g.risky = g.chance(0.15)
    n_actions = g.num(1, 3)
    g.n_actions = n_actions
    max_players = g.num(1, 3)
    board: dict[str, Any] = {"type": "grid", "width": 3, "height": 3,
                             "adjacency": g.pick(["orthogonal", "king", "diagonal", "hex"])}
    if g.chance(0.3):  # (sometimes a bound written as an expression, read at each move: dsl.md 2.3.3)
        board["capacity"] = "2 + g % 2" if g.on("bound_expr") and g.chance(0.3) else g.num(2, 3)
    spec: dict[str, Any] = {
        "orrery": 1,
        "game": {"name": "generated", "players": {"min": 1, "max": max_players}},
        "components": {
            "pieces": {
                "token": {"attributes": {"owner": "player", "power": {"type": "int", "default": 0}},
                          "unlimited": True},
                "chip": {"attributes": {"owner": "player", "power": {"type": "int", "default": 0}},
                         "instances": [{"power": 1, "count": 2}, {"power": 2}, {"power": 3}],
                         "start": "bag"},
            },
            "zones": {"board": board, "bag": {"type": "bag"}, "pile": {"type": "pile"},
                      "hand": {"type": "hand", "per_player": True}},
        },
        "variables": {
            "turns": {"type": "int", "start": 0},
            "g": {"type": "int", "start": g.num(0, 3)},
            "log": {"type": "list", "start": "[]"},
            "armed": {"type": "int", "start": 0},
            "score": {"type": "int", "per_player": True, "start": "p.seat + 3"},
        },
    }
    top = Scope()
    if g.chance(0.5) and g.on("function"):
        spec["functions"] = {"twice": {"params": ["k"], "expr": g.int_expr(Scope().add("int", "k"), 2)}}
        g.has_fn = True
    if g.chance(0.4) and g.on("constants"):
        spec["constants"] = {"base": g.num(0, 4),
                             "rec": {"a": g.num(0, 3), "b": [g.num(0, 5) for _ in range(g.num(0, 3))]}}
        g.has_consts = True
    if g.chance(0.4) and g.on("table"):
        spec["tables"] = {"pts": {"values": [0, 1, 3, 6], "default": 0}}
        g.has_table = True
    if g.chance(0.3) and g.on("quantity"):  # a quantity and its modifiers (dsl.md 2.10.3)
        spec["quantities"] = {"fee": {"params": ["k"], "base": "k % 4 + 1", "min": 0,
                                      "round": g.pick(["down", "up", "nearest"])}}
        if g.chance(0.3):
            spec["quantities"]["fee"]["layers"] = ["set", "scale", "add"]
        mods = {}
        for i in range(g.num(1, 3)):
            kind = g.pick(["set", "add", "scale"])
            value = g.pick(["1/2", "3/2", "2"]) if kind == "scale" else str(g.num(-2, 3))
            mods[f"m{i}"] = {"modify": "fee", "when": g.pick(["g > 2", "k % 2 == 0", "turns > 3", "true"]),
                             kind: value}
        spec["modifiers"] = mods
        g.has_quantity = True
    # procedures: may choose and emit; no call, perform, settle, end_turn, armed
    proc_caps = frozenset({"board", "choose", "commit", "emit", "require", "rng", "end"})
    g.int_atoms_extra = ["n"]
    proc_body = g.block(top.add("int", "n"), proc_caps, 2)
    g.int_atoms_extra = []
    spec["procedures"] = {"proc": {"params": ["n"], "effect": effect(proc_body)}}
    # setup: no decisions, no failures
    setup_caps = frozenset({"board", "rng", "settle", "armed"})
    risky, g.risky = g.risky, False
    material = ["shuffle bag", "draw 2 from bag to pile", f'create token {{owner: current, power: 1}} in cell(board, "{g.pick(LABELS)}")']
    spec["setup"] = effect(material + g.block(top, setup_caps, 1, (0, 2)))
    g.risky = risky
    # actions
    actions: dict[str, Any] = {}
    action_caps = ALL_CAPS
    g.window = g.chance(0.3) and g.on("window")
    for i in range(n_actions):
        g.action_index = i
        g.asked_other = False
        act: dict[str, Any] = {}
        sc = top
        params: dict[str, Any] = {}
        for j in range(g.num(0, 2)):
            name = f"a{i}p{j}"
            kind = g.pick(["list", "range", "cells"])
            p: dict[str, Any] = {}
            if kind == "list":
                p["from"] = f"[{g.num(0, 2)}, {g.num(3, 5)}, {g.num(6, 9)}]"
                t = "int"
            elif kind == "range":
                p["from"] = f"range({g.num(1, 4)})"
                t = "int"
            else:
                p["from"] = "cells(board)"
                t = "cell"
            if g.chance(0.6):
                p["where"] = g.bool_expr(sc.add(t, name), 1)
                if g.chance():
                    p["why"] = "not that one"
            if g.chance(0.4):
                p["prompt"] = f"Which {name}?"
            optional = g.chance(0.25)
            if optional:
                p["optional"] = True
            params[name] = p
            sc = sc.add(("o" + t) if optional else t, name)
        if params:
            act["params"] = params
        if g.chance(0.3):
            act["condition"] = g.bool_expr(top, 1)
            if g.chance():
                act["why"] = "not allowed now"
        if g.chance(0.2):
            ints = [n for n, p in params.items() if not p.get("optional") and not p["from"].startswith("cells")]
            if ints and g.on("late_cost") and g.chance():  # a price read from a parameter: paid once they are chosen
                act["cost"] = {"score": f"{ints[-1]} % 3"}
            elif g.has_quantity and g.chance():
                act["cost"] = {"score": "fee(g)"}
            else:
                act["cost"] = {"score": g.num(0, 2)}
        if g.chance(0.2):
            act["limit"] = g.num(1, 2)
            if g.on("limit_scope") and g.chance(0.6):  # per turn, phase, round or game; maybe a shared counter
                act["limit"] = ({"times": 2, "per": "round", "key": "shared"} if g.chance(0.3) else
                                {"times": g.num(1, 2), "per": g.pick(["turn", "phase", "round", "game"])})
                if "condition" not in act and g.chance(0.4):
                    act["condition"] = f"uses({act['limit'].get('key', f'act{i}')!r}) < 2 or g > 5"
        if g.chance(0.3):
            act["rule"] = f"Rule of act{i}."
        act["effect"] = effect(g.block(sc, action_caps, 2, (1, 4)))
        actions[f"act{i}"] = act
    # flow
    steps = []
    names = list(actions)
    for s in range(g.num(1, 2)):
        chosen = draw(st.lists(st.sampled_from(names), min_size=1, max_size=len(names), unique=True))
        if g.chance(0.7):  # a move that is always possible, so that most steps offer a real choice
            chosen.append("rest")
            actions["rest"] = {"effect": effect(['say "rest"'])}
        step: dict[str, Any] = {"actions": chosen}
        if g.chance(0.3):
            step["optional"] = True
        if g.chance(0.3):
            step["repeat"] = True
            step["max"] = 2
        if g.chance(0.15):
            step["when"] = g.bool_expr(top, 1)
        steps.append(step)
    phase: dict[str, Any] = {"name": "main", "order": g.pick(["clockwise", "counterclockwise", "snake"]),
                             "steps": steps, "turn_end": effect(["turns += 1"] + (
                                 [f"say {g.text_expr(top)}"] if g.chance(0.3) else []))}
    if g.chance(0.3):
        phase["turn_start"] = effect(g.block(top, frozenset({"rng", "armed"}), 1, (1, 1)))
    if g.chance(0.25) and g.on("free_action"):  # a free action: offered at every step, once a turn
        actions["tip"] = {"limit": 1, "effect": effect(["g += 1", f"say {g.text_expr(top)}"])}
        if g.chance(0.5) and g.on("anytime"):  # at any time: every step menu of the turn, and windows
            actions["tip"]["anytime"] = g.pick(["own_turn", "always"])
        else:
            phase["free_actions"] = ["tip"]
    phases = [phase]
    if g.chance(0.35) and g.on("second_phase"):  # until_pass: ends when everyone passed (or the game ends)
        chosen = draw(st.lists(st.sampled_from(names), min_size=0, max_size=len(names), unique=True))
        extra: dict[str, Any] = {"name": "extra", "turns": g.pick(["once", "until_pass"]),
                                 "steps": [{"actions": chosen + ["quit"]}], "turn_end": effect(["turns += 1"])}
        actions["quit"] = {"effect": effect(["pass"])}
        if g.chance():
            extra["order"], extra["order_by"] = "by", "-p.score"
        if g.chance(0.3):
            extra["when"] = "round % 2 == 1"
        if g.chance(0.3):
            extra["on_start"] = effect([f"say {g.text_expr(top)}"])
        if g.chance(0.3):
            extra["players"] = "p.score >= 0"
        phases.append(extra)
    spec["flow"] = {"first_player": 0, "phases": phases}
    if g.chance(0.3):
        spec["flow"]["rotate_first_player"] = True
    if g.chance(0.3):
        spec["flow"]["round_start"] = effect([f"say {g.text_expr(top)}"])
    if g.chance(0.2):
        spec["flow"]["round_end"] = effect(["g += 1"])
    if g.window:  # a reaction window, opened by `open w()` in actions (and after `ping` when it is emitted)
        # (its answer never commits: a commit cannot run inside one player's reaction, dsl.md 4.24)
        actions["react"] = {"limit": 1, "effect": effect(g.block(top, frozenset({"board", "choose", "require", "rng"}),
                                                                 1, (1, 2)))}
        window: dict[str, Any] = {"actions": ["react"], "who": g.pick(["players", "[p for p in players where p != current]"]),
                                  "closes": g.pick(["all_passed", "first_taken", "each_once"]),
                                  "ask": g.pick(["when_able", "always"]), "poll": g.pick(["turn_order", "as_listed"])}
        if g.emits and g.chance(0.5):
            window["after"] = "ping"
        spec["windows"] = {"w": window}
    spec["actions"] = actions
    # triggers
    triggers: dict[str, Any] = {}
    # the event trigger: no emit, call, perform, settle, armed; it may choose
    g.int_atoms_extra = ["event.n"]
    ev: dict[str, Any] = {"on": "ping"}
    if g.chance():
        ev["when"] = g.bool_expr(top, 1)
    ev["effect"] = effect(g.block(top, frozenset({"board", "choose", "commit", "require", "rng"}), 1, (1, 2)))
    g.int_atoms_extra = []
    if not g.emits:  # no effect emits ping: listen to the built-in action event instead
        ev["on"] = "action"
        ev.pop("when", None)
        ev["effect"] = effect(["say \"after \" + event.action"])
    if g.on("max_fires") and g.chance(0.3):  # fires at most once per scope instance
        ev["max_fires"] = {"times": 1, "per": g.pick(["turn", "phase", "round", "game"])}
    if g.emits and g.chance(0.3) and g.on("owner"):  # triggers that belong to players, maybe ordered by them
        ev["owner"] = g.pick(["current", "next_player(current)", "event.player"])
        triggers["on_ping"] = ev
        triggers["on_ping_too"] = {"on": "ping", "owner": g.pick(["current", "players[0]"]),
                                   "effect": effect(["g += 1", f"say {g.text_expr(top)}"])}
        spec["events"] = {"ping": {"order": g.pick(["declared", "owner_chooses"])}}
    triggers["on_ping"] = ev
    if g.on("state_trigger"):
        # consumes `armed`: fires `armed` times; may put pieces on the board, choose, require
        body = g.block(top, frozenset({"board", "choose", "commit", "require", "rng"}), 1, (0, 2))
        causal = ["g += len(cause.chain) + cause.origin"] if g.chance(0.3) else []  # causes (dsl.md 6.5)
        triggers["fire"] = {"when": "armed > 0", "effect": effect(["armed -= 1"] + causal + body)}
        if g.chance(0.3):
            triggers["fire"]["order"] = str(g.num(-2, 2))
    if g.on("for_trigger"):
        cc = Scope().add("cell", "c")
        crowd: dict[str, Any] = {"for": "c in cells(board)", "when": f"size(c) >= {g.num(2, 3)}"}
        key = g.pick(["", "changed_at(c)", "-changed_at(c)", "c.x + c.y", "matched_at"])
        if key:
            crowd["order"] = key
        # only removes pieces from the board (so the cascade ends); may change variables and the pile
        body = g.block(cc, frozenset({"rng"}), 1, (0, 2))
        # each firing removes at least one piece of c, and nothing in a firing adds any to the board
        first = g.pick(["destroy pieces(c)", "move pieces(c) to pile", "destroy top(c)", "move top(c) to pile"])
        causal = ["log += [cause.id, len(cause.chain)]"] if g.chance(0.3) else []
        crowd["effect"] = effect([first] + causal + body)
        triggers["crowd"] = crowd
    spec["triggers"] = triggers
    add_abilities(g, spec)  # pieces' abilities (tests/specgen_pieces.py)
    # end
    limit = g.num(4, 10)
    end: dict[str, Any] = {"timeout": {"when": f"turns >= {limit}"}}
    if g.chance(0.5):
        end["big"] = {"when": f"g >= {g.num(8, 20)}", "winners": "[current]",
                      "check": g.pick(["immediate", "end_of_turn", "end_of_phase", "end_of_round"])}
    end["stop"] = {"winners": g.pick(["[current]", "[]", "[p for p in players where p.score > 1]"])}
    if not g.used_end_game:
        del end["stop"]
    spec["end"] = end
    scoring: dict[str, Any] = {}
    if g.chance(0.3):
        scoring["final"] = effect(["for p in players {", f"  p.score += {g.num(0, 2)}", "}"])
    if g.chance(0.3):
        scoring["score"] = "p.score + size(p.hand)"
    if scoring:
        spec["scoring"] = scoring
    if g.chance(0.3):
        spec["ranking"] = {"by": ["p.score", "-p.seat"] if g.chance() else ["p.score"],
                           "ties": g.pick(["share", "nobody"])}
    return yaml.dump(spec, Dumper=_Dumper, sort_keys=False, width=10_000, allow_unicode=True)
