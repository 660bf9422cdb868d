"""Rule text in words: sentences generated from the AST of conditions and effects, for `orrery explain`.

`Phraser` phrases the language's constructs and built-ins (docs/dsl.md §3-4), never a game's words:
`for c in cells(board) where empty(c)` reads "for each empty cell c of the board", `count(x) >= 3`
"there are at least 3 x", `choose b from ...` "you choose b from ...", `require X` "only if X".
A construct without a phrase (a spec's own function, an unusual index) is quoted as written, in
backticks, so nothing is ever lost; `say` lines are narration, not rules, and are left out.
Output is Markdown: effects are lists of sentences, nested two spaces per level.
"""

from __future__ import annotations

import re
from dataclasses import fields, replace
from typing import Any, Callable

from orrery.rulespec import ast as A
from orrery.rulespec.gamespec import GameSpec
from .explain_forms import code_form, is_match_value, match_lines

_COMPARE = {"==": "is", "!=": "is not", ">=": "is at least", "<=": "is at most", ">": "is more than",
            "<": "is less than", "in": "is in", "not in": "is not in"}
_COUNT_COMPARE = {">=": "at least", "<=": "at most", ">": "more than", "<": "fewer than", "==": "exactly",
                  "!=": "other than"}
_PRECEDENCE = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4,
               "not in": 4, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6}
_ARITH = {"+": "+", "-": "−", "*": "×", "//": "÷", "%": "mod"}
MAX_INLINE = 130
MAX_INLINE_DEPTH = 3  # a spec function's body is phrased in place of a call at most this deep
MAX_INLINE_PHRASE = 100  # ... and only when its phrase is at most this long  # a one-statement body longer than this goes on its own line


def words(name: str) -> str:
    """An identifier as words: `card_stack` -> `card stack`."""
    return name.replace("_", " ").strip() or name


def _zone_words(name: str, label: str | None) -> str:
    """A zone in prose: its label (without a bracketed remark) or its name, with `the`."""
    text = re.sub(r"\s*\(.*?\)", "", label or "").strip() or words(name)
    return text if text.lower().startswith(("the ", "a ", "an ")) else "the " + text


def _cap(text: str) -> str:
    """The sentence with its first letter capitalised (a backticked start is left alone)."""
    return text[:1].upper() + text[1:] if text and text[0].isalpha() else text


def _lower(text: str) -> str:
    """The sentence with its first letter in lower case (for joining clauses)."""
    return text[:1].lower() + text[1:] if text[:1].isupper() and not text[1:2].isupper() else text


def _sentence(text: str) -> str:
    """A capitalised sentence ending in a full stop."""
    text = _cap(text.strip())
    return text if text.endswith((".", ":", "!", "?")) else text + "."


# ------------------------------------------------------------------ source text


def code(e: A.Node | None) -> str:
    """An expression written back as source text (one line), for quoting what has no phrase."""
    if e is None:
        return ""
    if isinstance(e, A.Literal):
        return _literal_code(e.value)
    if isinstance(e, A.Name):
        return e.id
    if isinstance(e, A.Attr):
        return f"{_paren(e.obj, 9)}.{e.name}"
    if isinstance(e, A.Index):
        return f"{_paren(e.obj, 9)}[{code(e.index)}]"
    if isinstance(e, A.Call):
        args = [code(a) for a in e.args] + [f"{k}: {code(v)}" for k, v in e.kwargs]
        return f"{e.func}({', '.join(args)})"
    if isinstance(e, A.Unary):
        return f"not {_paren(e.operand, 3)}" if e.op == "not" else f"-{_paren(e.operand, 7)}"
    if isinstance(e, A.Binary):
        p = _PRECEDENCE.get(e.op, 4)
        return f"{_paren(e.left, p)} {e.op} {_paren(e.right, p + 1)}"
    if isinstance(e, A.Cond):
        return f"if {code(e.test)} then {code(e.then)} else {code(e.else_)}"
    if isinstance(e, A.ListLit):
        return "[" + ", ".join(code(i) for i in e.items) + "]"
    if isinstance(e, A.Record):
        return "{" + ", ".join(f"{k}: {code(v)}" for k, v in e.items) + "}"
    if isinstance(e, A.Comprehension):
        clauses = " ".join(f"for {c.var} in {code(c.iter)}" + (f" where {code(c.cond)}" if c.cond else "")
                           for c in e.clauses)
        return f"[{code(e.elt)} {clauses}]"
    return code_form(e, code, _paren) or type(e).__name__.lower()


def _literal_code(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


def _paren(e: A.Node, level: int) -> str:
    """Source text of a sub-expression, in brackets when it binds more loosely than its place."""
    own = (_PRECEDENCE.get(e.op, 4) if isinstance(e, A.Binary) else 3 if isinstance(e, A.Unary) and e.op == "not"
           else 0 if isinstance(e, (A.Cond, A.LetIn)) else 10)
    text = code(e)
    return f"({text})" if own < level else text


def substitute(e: Any, names: dict[str, A.Expr]) -> Any:
    """A copy of an AST with the given names replaced (a function's parameters by the arguments)."""
    if isinstance(e, A.Name):
        return names.get(e.id, e)
    if isinstance(e, A.Node):
        changes = {f.name: substitute(getattr(e, f.name), names) for f in fields(e) if f.name != "span"}
        return replace(e, **changes)
    if isinstance(e, tuple):
        return tuple(substitute(x, names) for x in e)
    return e


def quoted(e: A.Node) -> str:
    """The fallback: the expression as written, in backticks."""
    return "`" + code(e).replace("`", "'") + "`"


# ------------------------------------------------------------------ the phraser


class Phraser:
    """Phrases a spec's expressions and effects in words, knowing its zones, pieces and names."""

    def __init__(self, spec: GameSpec) -> None:
        m = spec.model
        self.spec = spec
        self.zones = {name: _zone_words(name, z.label) for name, z in m.components.zones.items()}
        self.player_zones = {name for name, z in m.components.zones.items() if z.per_player}
        self.kinds = set(m.components.pieces)
        self.tables = set(m.tables)
        self.actions = {name: a.label or words(name) for name, a in m.actions.items()}
        self.procedures = set(m.procedures)
        self.ends = {name: e.description for name, e in m.end.items()}
        self._depth = 0
        self.current = "you"  # how `current` reads: "you" in actions, "the current player" elsewhere

    def speaking_of(self, current: str) -> "Phraser":
        """This phraser with `current` read as the given words (e.g. "the current player")."""
        self.current = current
        return self

    # -- values

    def expr(self, e: A.Node | None) -> str:
        """A value in words (a noun phrase), or the expression quoted when it has no phrase."""
        if e is None:
            return "nothing"
        fn: Callable[[Any], str | None] | None = getattr(self, "_x_" + type(e).__name__, None)
        try:
            text = fn(e) if fn else None
        except (IndexError, KeyError, TypeError, AttributeError):  # an unusual argument list: quoted instead
            text = None
        return text if text is not None else quoted(e)

    def _x_Literal(self, e: A.Literal) -> str:
        return "nothing" if e.value is None else _literal_code(e.value)

    def _x_Name(self, e: A.Name) -> str:
        if e.id == "current":
            return self.current
        if e.id == "turn_player":
            return "the player whose turn it is"
        if e.id == "players":
            return "the players"
        if e.id in self.zones:
            return self.zones[e.id]
        if e.id in self.tables:
            return "the " + words(e.id) + " table"
        if e.id in self.spec.model.variables:
            return words(e.id)
        return e.id

    def _x_Attr(self, e: A.Attr) -> str:
        owner = self.expr(e.obj)
        if owner == "you":
            return "your " + words(e.name)
        if owner == "the current player":
            return "the current player's " + words(e.name)
        if isinstance(e.obj, (A.Name, A.Attr)) and not owner.startswith("`"):
            return f"{owner}'s {words(e.name)}"
        if not owner.startswith("`"):
            return f"the {words(e.name)} of {owner}"
        return None

    def _x_Index(self, e: A.Index) -> str | None:
        if isinstance(e.obj, A.Name) and e.obj.id in self.tables:
            return f"the {words(e.obj.id)} entry for {self.expr(e.index)}"
        zone = self.spec.model.components.zones.get(e.obj.id) if isinstance(e.obj, A.Name) else None
        if zone is not None and zone.per is not None:  # one zone of a `per:` family
            return f"{self.expr(e.obj)} of {self.expr(e.index)}"
        if isinstance(e.obj, A.Name) and e.obj.id == "players" and isinstance(e.index, A.Literal) \
                and isinstance(e.index.value, int) and e.index.value >= 0:
            names = self.spec.model.game.seat_names or []
            n = e.index.value
            return f"{names[n]} (seat {n + 1})" if n < len(names) else f"the player in seat {n + 1}"
        obj = self.expr(e.obj)
        if obj.startswith("`") or not isinstance(e.obj, (A.Name, A.Attr)):
            return None
        if isinstance(e.index, A.Literal) and isinstance(e.index.value, int) and not isinstance(e.index.value, bool):
            n = e.index.value
            return f"item {n + 1} of {obj}" if n >= 0 else "the last item of " + obj if n == -1 else None
        return f"the item of {obj} at index {self.expr(e.index)}"

    def _x_Unary(self, e: A.Unary) -> str | None:
        return self.cond(e) if e.op == "not" else f"−{self.expr(e.operand)}"

    def _x_Binary(self, e: A.Binary) -> str:
        if e.op in _ARITH:
            p = _PRECEDENCE[e.op]
            return f"{self._operand(e.left, p)} {_ARITH[e.op]} {self._operand(e.right, p + 1)}"
        return self.cond(e)

    def _operand(self, e: A.Node, level: int) -> str:
        text = self.expr(e)
        loose = isinstance(e, A.Cond) or isinstance(e, A.Binary) and _PRECEDENCE.get(e.op, 4) < level
        return f"({text})" if loose and not text.startswith("`") else text

    def _x_Cond(self, e: A.Cond) -> str:
        return f"{self.expr(e.then)} if {self.cond(e.test)}, otherwise {self.expr(e.else_)}"

    def _x_ListLit(self, e: A.ListLit) -> str:
        return "an empty list" if not e.items else "the list of " + self.items(e)

    def items(self, e: A.ListLit) -> str:
        """The items of a list literal: `a, b and c`."""
        parts = [self.expr(i) for i in e.items]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    def _x_Record(self, e: A.Record) -> str:
        return ", ".join(f"{words(k)}: {self.expr(v)}" for k, v in e.items)

    def _x_Comprehension(self, e: A.Comprehension) -> str | None:
        if len(e.clauses) != 1:
            return None
        c = e.clauses[0]
        each = self.each(c.var, c.iter, c.cond, article="every")
        if isinstance(e.elt, A.Name) and e.elt.id == c.var:
            return each
        return f"{self.expr(e.elt)} for {each}"

    def _x_Call(self, e: A.Call) -> str | None:
        if e.func in self.spec.model.functions:
            return self._inline(e)
        fn = getattr(self, "_call_" + e.func, None)
        return None if fn is None else fn(e.args, dict(e.kwargs))

    def unfold(self, e: A.Node) -> A.Node:
        """A call of an undescribed spec function as its body with the arguments put in; else e itself."""
        for _ in range(MAX_INLINE_DEPTH):
            if not (isinstance(e, A.Call) and e.func in self.spec.model.functions):
                return e
            decl = self.spec.model.functions[e.func]
            body = self.spec.expr("functions", e.func, "expr")
            if decl.description or body is None or e.kwargs or len(e.args) != len(decl.param_names):
                return e
            e = substitute(body, dict(zip(decl.param_names, e.args)))
        return e

    def _inline(self, e: A.Call, as_cond: bool = False) -> str | None:
        """A call of a spec's own undescribed function, phrased as its body with the arguments put in.

        Only short phrases, two levels deep at most; otherwise (or when the author described the
        function, which the glossary then shows) the call is quoted as written.
        """
        decl = self.spec.model.functions[e.func]
        body = self.spec.expr("functions", e.func, "expr")
        if decl.description or body is None or self._depth >= MAX_INLINE_DEPTH or e.kwargs \
                or len(e.args) != len(decl.param_names):
            return None
        self._depth += 1
        try:
            put = substitute(body, dict(zip(decl.param_names, e.args)))
            text = self.cond(put) if as_cond else self.expr(put)
        finally:
            self._depth -= 1
        return text if len(text) <= MAX_INLINE_PHRASE and text.count("`") <= 2 else None

    # -- built-in calls (docs/dsl.md §3.11)

    def _call_count(self, args, kw) -> str | None:
        return f"the number of {self.plural(args[0])}" if len(args) == 1 else None

    def _call_len(self, args, kw) -> str | None:
        return f"the length of {self.expr(args[0])}" if len(args) == 1 else None

    def _call_size(self, args, kw) -> str | None:
        return f"the number of pieces in {self.expr(args[0])}" if len(args) == 1 else None

    def _call_sum(self, args, kw) -> str | None:
        return self._over("the total", args)

    def _call_max(self, args, kw) -> str | None:
        if len(args) == 2:
            return f"the larger of {self.expr(args[0])} and {self.expr(args[1])}"
        return self._over("the largest", args)

    def _call_min(self, args, kw) -> str | None:
        if len(args) == 2:
            return f"the smaller of {self.expr(args[0])} and {self.expr(args[1])}"
        return self._over("the smallest", args)

    def _over(self, what: str, args) -> str | None:
        if len(args) != 1:
            return None
        g = args[0]
        if isinstance(g, A.Comprehension) and len(g.clauses) == 1:
            c = g.clauses[0]
            return f"{what} of {self.expr(g.elt)} over {self.each(c.var, c.iter, c.cond)}"
        return f"{what} of {self.expr(g)}"

    def _call_any(self, args, kw) -> str | None:
        return self._quantified("some", args)

    def _call_all(self, args, kw) -> str | None:
        return self._quantified("every", args)

    def _quantified(self, word: str, args) -> str | None:
        if len(args) != 1:
            return None
        g = args[0]
        if isinstance(g, A.Comprehension) and len(g.clauses) == 1:
            c = g.clauses[0]
            return f"for {self.each(c.var, c.iter, c.cond, article=word)}, {self.cond(g.elt)}"
        return f"{'any' if word == 'some' else 'all'} of {self.expr(g)} hold"

    def _call_cells(self, args, kw) -> str:
        return f"the cells of {self.expr(args[0])}" if args else None

    def _call_pieces(self, args, kw) -> str | None:
        kind = kw.get("kind")
        noun = (words(kind.value) + "s") if isinstance(kind, A.Literal) and isinstance(kind.value, str) else "pieces"
        return f"the {noun} {self._in(args[0])} {self.expr(args[0])}" if len(args) == 1 else None

    def _call_empty(self, args, kw) -> str:
        return f"{self.expr(args[0])} is empty"

    def _call_adjacent(self, args, kw) -> str:
        return f"the cells next to {self.expr(args[0])}"

    def _call_neighbor(self, args, kw) -> str | None:
        if len(args) == 2:
            return f"the cell next to {self.expr(args[0])} towards {self.expr(args[1])}"
        if len(args) == 3:
            return f"the cell {self.expr(args[2])} steps from {self.expr(args[0])} towards {self.expr(args[1])}"
        return None

    def _call_first(self, args, kw) -> str:
        g = args[0]
        if isinstance(g, A.Comprehension) and len(g.clauses) == 1 and isinstance(g.elt, A.Name) \
                and g.elt.id == g.clauses[0].var:
            c = g.clauses[0]
            return self.each(c.var, c.iter, c.cond, article="the first")
        return f"the first of {self.expr(g)}"

    def _call_last(self, args, kw) -> str:
        return f"the last of {self.expr(args[0])}"

    def _call_top(self, args, kw) -> str:
        return f"the top piece of {self.expr(args[0])}"

    def _call_bottom(self, args, kw) -> str:
        return f"the bottom piece of {self.expr(args[0])}"

    def _call_place_of(self, args, kw) -> str:
        return f"the place of {self.expr(args[0])}"

    def _call_zone_of(self, args, kw) -> str:
        return f"the zone of {self.expr(args[0])}"

    def _call_owner_of(self, args, kw) -> str:
        return f"the owner of {self.expr(args[0])}"

    def _call_text(self, args, kw) -> str:
        return self.expr(args[0])

    def _call_unique(self, args, kw) -> str:
        return f"the {self._distinct(args[0])}"

    def _distinct(self, g: A.Node) -> str:
        if isinstance(g, A.Comprehension) and len(g.clauses) == 1 and not (
                isinstance(g.elt, A.Name) and g.elt.id == g.clauses[0].var):
            c = g.clauses[0]
            return f"different values of {self.expr(g.elt)} for {self.each(c.var, c.iter, c.cond)}"
        return f"different {self.plural(g)}"

    def _call_players_from(self, args, kw) -> str:
        return f"every player clockwise from {self.expr(args[0])}"

    def _call_next_player(self, args, kw) -> str | None:
        if len(args) == 1:
            return f"the player after {self.expr(args[0])}"
        return None

    def _call_range(self, args, kw) -> str | None:
        if len(args) == 1:
            return f"the numbers below {self.expr(args[0])}"
        return f"the numbers from {self.expr(args[0])} up to (not including) {self.expr(args[1])}"

    def _call_lines(self, args, kw) -> str | None:
        return f"the lines of {self.expr(args[1])} cells of {self.expr(args[0])}" if len(args) == 2 else None

    def _call_line(self, args, kw) -> str | None:
        if len(args) != 3:
            return None
        return f"the {self.expr(args[2])} cells from {self.expr(args[0])} towards {self.expr(args[1])}"

    def _call_dirs(self, args, kw) -> str:
        kind = args[0].value if args and isinstance(args[0], A.Literal) else "orthogonal"
        return f"the {kind} directions" if isinstance(kind, str) else None

    def _call_rotate(self, args, kw) -> str:
        return f"{self.expr(args[0])} turned {self.expr(args[1])} quarter turns clockwise"

    def _call_opposite(self, args, kw) -> str:
        return f"the direction opposite {self.expr(args[0])}"

    def _call_direction(self, args, kw) -> str:
        return f"the direction from {self.expr(args[0])} to {self.expr(args[1])}"

    def _call_distance(self, args, kw) -> str:
        return f"the distance from {self.expr(args[0])} to {self.expr(args[1])}"

    def _call_cell(self, args, kw) -> str | None:
        if len(args) == 2 and isinstance(args[1], A.Literal):
            return f"cell {args[1].value} of {self.expr(args[0])}"
        if len(args) == 2:
            return f"the cell labelled {self.expr(args[1])} of {self.expr(args[0])}"
        if len(args) == 3:
            return f"the cell at ({self.expr(args[1])}, {self.expr(args[2])}) of {self.expr(args[0])}"
        return None

    def _call_abs(self, args, kw) -> str:
        return f"the size of {self.expr(args[0])}"

    def _call_random_int(self, args, kw) -> str:
        return f"a random number from {self.expr(args[0])} to {self.expr(args[1])}"

    def _call_shuffled(self, args, kw) -> str:
        return f"{self.expr(args[0])} in random order"

    def _call_reversed(self, args, kw) -> str:
        return f"{self.expr(args[0])} in reverse order"

    def _call_sorted(self, args, kw) -> str:
        return f"{self.expr(args[0])} in increasing order"

    def _call_connected(self, args, kw) -> str | None:
        return f"the cells connected to {self.expr(args[0])} through {self.expr(args[1])}" if len(args) == 2 else None

    def _call_changed_at(self, args, kw) -> str:
        return f"the time {self.expr(args[0])} last changed"

    def _call_groups(self, args, kw) -> str:
        return f"the connected groups of {self.expr(args[0])}"

    # -- collections

    def _noun(self, e: A.Node) -> tuple[str, str] | None:
        """(singular noun, what follows it) of a collection, e.g. ("cell", "of the board"); None if unknown."""
        if isinstance(e, A.Name) and e.id == "players":
            return "player", ""
        if isinstance(e, A.Name) and e.id in self.zones or isinstance(e, A.Attr) and e.name in self.player_zones:
            return "piece", "in " + self.expr(e)
        if not isinstance(e, A.Call) or e.func in self.spec.model.functions:
            return None
        a = e.args
        if e.func == "cells" and len(a) == 1:
            return "cell", "of " + self.expr(a[0])
        if e.func == "pieces" and len(a) == 1:
            kind = dict(e.kwargs).get("kind")
            noun = words(kind.value) if isinstance(kind, A.Literal) and isinstance(kind.value, str) else "piece"
            return noun, self._in(a[0]) + " " + self.expr(a[0])
        if e.func == "adjacent" and len(a) == 1:
            return "cell", "next to " + self.expr(a[0])
        if e.func == "lines" and len(a) == 2:
            return "line", f"of {self.expr(a[1])} cells of {self.expr(a[0])}"
        if e.func == "dirs":
            return "direction", "" if not a else f"({self.expr(a[0])})"
        if e.func == "players_from" and len(a) == 1:
            return "player", "clockwise from " + self.expr(a[0])
        if e.func == "range":
            return "number", self.expr(e)[len("the numbers "):]
        return None

    def _in(self, place: A.Node) -> str:
        """`on` for a grid zone (pieces on the board), else `in`."""
        z = self.spec.model.components.zones.get(place.id) if isinstance(place, A.Name) else None
        return "on" if z is not None and z.type == "grid" else "in"

    def plural(self, e: A.Node, one: bool = False) -> str:
        """A collection as a plural noun phrase: `cells(board)` -> `cells of the board` (singular if one)."""
        e = self.unfold(e)
        if isinstance(e, A.Call) and e.func == "unique" and len(e.args) == 1 and e.func not in self.spec.model.functions:
            return self._distinct(e.args[0])
        if isinstance(e, A.Comprehension) and len(e.clauses) == 1 and isinstance(e.elt, A.Name) \
                and e.elt.id == e.clauses[0].var:
            c = e.clauses[0]
            return self.each(c.var, c.iter, c.cond, article="", plural=not one)
        noun = self._noun(e)
        if noun is None:
            text = self.expr(e)
            return text[4:] if text.startswith("the ") else text
        return " ".join(x for x in (noun[0] + ("" if one else "s"), noun[1]) if x)

    def each(self, var: str, it: A.Node, cond: A.Node | None = None, *, article: str = "each",
             plural: bool = False) -> str:
        """`each empty cell c of the board`, `each player p`, or `each x in <list>` with its filter."""
        it = self.unfold(it)
        if isinstance(it, A.Comprehension) and len(it.clauses) == 1 and isinstance(it.elt, A.Name) \
                and it.elt.id == it.clauses[0].var == var and cond is None:
            inner = it.clauses[0]
            return self.each(var, inner.iter, inner.cond, article=article, plural=plural)
        noun = self._noun(it)
        adjective = ""
        if cond is not None and isinstance(cond, A.Call) and cond.func == "empty" and len(cond.args) == 1 \
                and isinstance(cond.args[0], A.Name) and cond.args[0].id == var:
            adjective, cond = "empty ", None
        if isinstance(it, A.ListLit) and it.items:
            head = f"{article} {var} of {self.items(it)}".strip()
        elif noun is None:
            head = f"{article} {var} in {self.expr(it)}".strip()
        else:
            word = noun[0] + ("s" if plural else "")
            head = " ".join(x for x in (article, adjective + word, var, noun[1]) if x)
        if cond is not None:
            if isinstance(cond, A.Binary) and cond.op == "!=" and isinstance(cond.left, A.Name) \
                    and cond.left.id == var:
                head += f" other than {self.expr(cond.right)}"
            else:
                head += f" where {self.cond(cond)}"
        return head

    # -- conditions

    def cond(self, e: A.Node) -> str:
        """A condition as a clause: `size(bag) == 0` -> `the bag is empty`."""
        if isinstance(e, A.Binary):
            if e.op in ("and", "or"):
                return f"{self._clause(e.left, e.op)} {e.op} {self._clause(e.right, e.op)}"
            counted = self._count_compare(e)
            if counted is not None:
                return counted
            if e.op in _COMPARE:
                if isinstance(e.right, A.Literal) and e.right.value is None and e.op in ("==", "!="):
                    return f"{self.expr(e.left)} is {'' if e.op == '==' else 'not '}nothing"
                if e.op in ("in", "not in") and isinstance(e.right, A.ListLit) and e.right.items:
                    alts = [self.expr(i) for i in e.right.items]
                    alts = alts[0] if len(alts) == 1 else ", ".join(alts[:-1]) + " or " + alts[-1]
                    return f"{self.expr(e.left)} is {'not ' if e.op == 'not in' else ''}{alts}"
                return f"{self.expr(e.left)} {_COMPARE[e.op]} {self.expr(e.right)}"
        if isinstance(e, A.Unary) and e.op == "not":
            return self._negate(e.operand)
        if isinstance(e, A.Name) and e.id not in ("current", "players"):
            return f"{words(e.id)} is true" if e.id not in self.zones else self.expr(e)
        if isinstance(e, A.Attr) and not isinstance(e.obj, A.Call):
            return f"{self.expr(e)} is true"
        if isinstance(e, A.Call) and e.func in self.spec.model.functions:
            return self._inline(e, as_cond=True) or quoted(e)
        return self.expr(e)

    def _clause(self, e: A.Node, op: str) -> str:
        text = self.cond(e)
        mixed = isinstance(e, A.Binary) and e.op in ("and", "or") and e.op != op
        return f"({text})" if mixed else text

    def _negate(self, e: A.Node) -> str:
        if isinstance(e, A.Call) and e.func == "empty" and len(e.args) == 1:
            return f"{self.expr(e.args[0])} is not empty"
        if isinstance(e, A.Binary) and e.op in ("==", "in"):
            return self.cond(A.Binary(e.span, "!=" if e.op == "==" else "not in", e.left, e.right))
        if isinstance(e, A.Call) and e.func == "any" and len(e.args) == 1 and isinstance(e.args[0], A.Comprehension) \
                and len(e.args[0].clauses) == 1:
            g = e.args[0]
            c = g.clauses[0]
            return f"for no {self.each(c.var, c.iter, c.cond, article='')}, {self.cond(g.elt)}"
        if isinstance(e, (A.Name, A.Attr)) and e.id not in self.zones if isinstance(e, A.Name) else \
                isinstance(e, A.Attr) and not isinstance(e.obj, A.Call):
            return f"{self.expr(e) if isinstance(e, A.Attr) else words(e.id)} is false"
        text = self.cond(e)
        return f"not {text}" if text.startswith("`") else f"not ({text})"

    def _count_compare(self, e: A.Binary) -> str | None:
        """`count(x) >= 3` -> `there are at least 3 x`; `size(z) == 0` -> `z is empty`."""
        left, right = e.left, e.right
        if not (isinstance(left, A.Call) and left.func in ("count", "size") and len(left.args) == 1
                and left.func not in self.spec.model.functions and e.op in _COUNT_COMPARE):
            return None
        n = right.value if isinstance(right, A.Literal) and isinstance(right.value, int) else None
        if n is None:
            return None
        arg = left.args[0]
        if left.func == "size":
            where = self.expr(arg)
            if n == 0 and e.op in ("==", "<="):
                return f"{where} is empty"
            if (n == 0 and e.op in (">", "!=")) or (n == 1 and e.op == ">="):
                return f"{where} is not empty"
            return f"{where} holds {_COUNT_COMPARE[e.op]} {self.expr(right)} pieces"
        what = self.plural(arg, one=n == 1 and e.op in ("==", "<=", ">="))
        if n == 0 and e.op in ("==", "<="):
            return f"{what} is empty" if what.startswith("`") else f"there are no {what}"
        if (n == 0 and e.op in (">", "!=")) or (n == 1 and e.op == ">="):
            return f"{what} is not empty" if what.startswith("`") else f"there are some {what}"
        verb = "is" if n == 1 and e.op in ("==", "<=", ">=") else "are"
        return f"there {verb} {_COUNT_COMPARE[e.op]} {self.expr(right)} {what}"

    # -- effects

    def block(self, block: A.Block | None, depth: int = 0) -> list[str]:
        """An effect as Markdown list items, one sentence each, nested two spaces per level."""
        if block is None:
            return []
        out: list[str] = []
        for i, s in enumerate(block.body):
            if is_match_value(s) and i + 1 < len(block.body) and getattr(block.body[i + 1], "match", None):
                out += match_lines(self, s.value, block.body[i + 1], depth)  # the `if` it is parsed into: skipped
            elif not (isinstance(s, A.If) and s.match is not None and i > 0 and is_match_value(block.body[i - 1])):
                out += self.stmt(s, depth)
        return out

    def stmt(self, s: A.Stmt, depth: int = 0) -> list[str]:
        """One statement as list items (a loop or `if` with its body nested under it)."""
        if isinstance(s, A.If) and (len(s.branches) > 1 or s.else_ is not None):
            return self.if_lines(s, depth)
        pad = "  " * depth
        fn = getattr(self, "_s_" + type(s).__name__, None)
        said = fn(s) if fn else None
        if said is None:
            return []
        if isinstance(said, str):
            return [f"{pad}- {_sentence(said)}"]
        head, body = said  # a header and a nested block
        inner = self.block(body, depth + 1)
        if len(inner) == 1 and len(head) + len(inner[0]) < MAX_INLINE:
            return [f"{pad}- {_sentence(_cap(head) + ', ' + _lower(inner[0].strip()[2:]))}"]
        if not inner:
            return [f"{pad}- {_sentence(_cap(head) + ', nothing happens')}"]
        return [f"{pad}- {_cap(head)}:"] + inner

    def _s_Let(self, s: A.Let) -> str:
        return f"let {s.name} be {self.expr(s.value)}"

    def _s_Assign(self, s: A.Assign) -> str:
        target, value = self.expr(s.target), self.expr(s.value)
        if s.op == "=":
            return f"set {target} to {value}"
        if s.op == "+=":
            if isinstance(s.value, A.ListLit) and s.value.items:
                value = self.items(s.value)
            return f"add {value} to {target}"
        if s.op == "-=":
            numeric = isinstance(s.value, A.Literal) or isinstance(s.value, A.Binary) and s.value.op in _ARITH \
                or self._numeric(s.target)
            return f"{'subtract' if numeric else 'take'} {value} {'from' if numeric else 'out of'} {target}"
        return f"multiply {target} by {value}"

    def _numeric(self, target: A.Node) -> bool:
        """Whether an assignment target is a track or a number variable (so `-=` subtracts)."""
        name = target.name if isinstance(target, A.Attr) else target.id if isinstance(target, A.Name) else None
        var = self.spec.model.variables.get(name or "")
        return name in self.spec.model.components.tracks or var is not None and var.type == "int"

    def _s_If(self, s: A.If):
        cond, body = s.branches[0]
        return f"if {self.cond(cond)}", body

    def _s_For(self, s: A.For):
        head = "for " + self.each(s.var, s.iter, s.cond)
        if s.order_key is not None:
            head += f" (in order of {self.expr(s.order_key)}{', largest first' if s.descending else ''})"
        if s.chooser is not None:
            who = self.expr(s.chooser)
            head += f", in the order {who} {'choose' if who == 'you' else 'chooses'}"
        return head, s.body

    def _s_While(self, s: A.While):
        return f"as long as {self.cond(s.cond)}", s.body

    def _s_Repeat(self, s: A.Repeat):
        n = self.expr(s.count)
        return (f"{n} times" if isinstance(s.count, A.Literal) else f"repeat ({n} times)"), s.body

    def _s_Choose(self, s: A.Choose) -> str:
        chooser = "you" if s.chooser is None else self.expr(s.chooser)
        who = "you choose" if chooser == "you" else (
            f"player {chooser} chooses" if isinstance(s.chooser, A.Name) else f"{chooser} chooses")
        noun = self._noun(s.domain)
        text = f"{who} {s.var}, one of the {self.plural(s.domain)}" if noun else \
            f"{who} {s.var} from {self.expr(s.domain)}"
        if s.cond is not None:
            text += f" where {self.cond(s.cond)}"
        if isinstance(s.prompt, A.Literal) and isinstance(s.prompt.value, str):
            text += f" (“{s.prompt.value}”)"
        return text + ("; this may be skipped" if s.optional else "")

    def _s_Commit(self, s: A.Commit) -> str:
        who = "each player p" if s.players is None else f"each player p of {self.expr(s.players)}"
        noun = self._noun(s.domain)
        what = f"one of the {self.plural(s.domain)}" if noun else f"from {self.expr(s.domain)}"
        text = f"{who} secretly chooses {s.var}, {what}"
        if s.cond is not None:
            text += f" where {self.cond(s.cond)}"
        if isinstance(s.prompt, A.Literal) and isinstance(s.prompt.value, str):
            text += f" (“{s.prompt.value}”)"
        text += "; the choices are revealed together once everyone has chosen"
        return text + (" (a choice may be skipped)" if s.optional else "")

    def _s_Require(self, s: A.Require) -> str:
        why = f" (otherwise: {s.message.value})" if isinstance(s.message, A.Literal) and s.message.value else ""
        return f"this is allowed only if {self.cond(s.cond)}{why}"

    def _s_Move(self, s: A.Move) -> str:
        at = f" (at the {s.position})" if s.position else ""
        return f"move {self.expr(s.what)} to {self.expr(s.dest)}{at}"

    def _s_Create(self, s: A.Create) -> str:
        attrs = f" ({self.expr(s.attrs)})" if s.attrs is not None and s.attrs.items else ""
        return f"put a new {words(s.kind)}{attrs} in {self.expr(s.dest)}"

    def _s_Destroy(self, s: A.Destroy) -> str:
        return f"remove {self.expr(s.what)} from the game"

    def _s_Draw(self, s: A.Draw) -> str:
        n = self.expr(s.count)
        noun = "piece" if isinstance(s.count, A.Literal) and s.count.value == 1 else "pieces"
        if not isinstance(s.count, A.Literal):
            n = f"({n})"
        return f"draw {n} {noun} from {self.expr(s.source)} to {self.expr(s.dest)}"

    def _s_Shuffle(self, s: A.Shuffle) -> str:
        return f"shuffle {self.expr(s.zone)}"

    def _s_Swap(self, s: A.Swap) -> str:
        return f"swap the contents of {self.expr(s.a)} and {self.expr(s.b)}"

    def _s_Emit(self, s: A.Emit) -> str:
        args = f" ({', '.join(self.expr(a) for a in s.args)})" if s.args else ""
        return f"announce the event “{words(s.event)}”{args}"

    def _s_EndGame(self, s: A.EndGame) -> str:
        return f"the game ends: {words(s.name)}"

    def _s_Settle(self, s: A.Settle) -> str:
        return "resolve the automatic rules now, until none applies"

    def _s_Pass(self, s: A.Pass) -> str:
        return "you pass for the rest of the phase"

    def _s_EndTurn(self, s: A.EndTurn) -> str:
        return "your turn ends"

    def _s_Say(self, s: A.Say) -> None:
        return None  # narration, not a rule

    def _s_CallProc(self, s: A.CallProc) -> str:
        args = [self.expr(a) for a in s.args]
        return f"do “{words(s.name)}”" + (f" for {', '.join(args)}" if args else "")

    def _s_Open(self, s: A.Open) -> str:
        return f"other players may answer (reaction window “{words(s.window)}”)"

    def _s_Perform(self, s: A.Perform) -> str:
        who = "" if s.actor is None else f" (done by {self.expr(s.actor)})"
        return f"perform the action “{self.actions.get(s.action, words(s.action))}”{who}"

    def _s_Use(self, s: A.Use) -> str:
        return f"play {self.expr(s.piece)}: do what it says"

    def if_lines(self, s: A.If, depth: int) -> list[str]:
        """An `if` with `elif`/`else` branches: one item per branch."""
        pad = "  " * depth
        out: list[str] = []
        for i, (cond, body) in enumerate(s.branches):
            head = ("if " if i == 0 else "otherwise, if ") + self.cond(cond)
            out += self._branch(pad, head, body, depth)
        if s.else_ is not None:
            out += self._branch(pad, "otherwise", s.else_, depth)
        return out

    def _branch(self, pad: str, head: str, body: A.Block, depth: int) -> list[str]:
        inner = self.block(body, depth + 1)
        if len(inner) == 1 and len(head) + len(inner[0]) < MAX_INLINE:
            return [f"{pad}- {_sentence(_cap(head) + ', ' + _lower(inner[0].strip()[2:]))}"]
        return [f"{pad}- {_cap(head)}:"] + (inner or [f"{pad}  - Nothing happens."])

