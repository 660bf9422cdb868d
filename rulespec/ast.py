"""The one AST for conditions and effects: small frozen dataclasses with spans.

Both the tree-walking interpreter and the compiler work from these nodes only;
nothing downstream ever looks at spec text again.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Iterator

from .errors import Span


@dataclass(frozen=True, slots=True)
class Node:
    """Base of every AST node; `span` locates it in the YAML file."""

    span: Span = field(compare=False, repr=False)

    def children(self) -> Iterator["Node"]:
        """Direct child nodes, in source order."""
        return iter(_kids(self))

    def walk(self) -> Iterator["Node"]:
        """This node and all its descendants, depth first (without recursion: deep trees and many walks, as the
        checker, the code generators and the rules' analyses at every start make, stay cheap)."""
        todo: list[Node] = [self]
        while todo:
            node = todo.pop()
            yield node
            kids = _kids(node)
            if kids:
                kids.reverse()
                todo += kids

    def __reduce__(self) -> tuple:
        # pickled as a constructor call with the fields in order: a dataclass's own slots pickling reads
        # `fields()` for every node, which made loading a cached spec (rulespec/speccache.py) slow
        return type(self), tuple(getattr(self, name) for name in _all_fields(type(self)))


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _all_fields(cls: type) -> tuple[str, ...]:
    """A node class's field names, in order (span first), computed once per class."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields that can hold child nodes: all but the span."""
    return _all_fields(cls)[1:]


def _kids(node: Node) -> list[Node]:
    """A node's direct children, in source order, as a new list (a loop, not nested generators: walks of every
    tree are a part of each game's start)."""
    out: list[Node] = []
    cls = type(node)
    names = _FIELD_NAMES.get(cls) or _all_fields(cls)
    for i in range(1, len(names)):
        value = getattr(node, names[i])
        if isinstance(value, Node):
            out.append(value)
        elif isinstance(value, tuple) and value:
            _nodes_in(value, out)
    return out


def _nodes_in(value: tuple, out: list[Node]) -> None:
    for item in value:
        if isinstance(item, Node):
            out.append(item)
        elif isinstance(item, tuple):
            _nodes_in(item, out)


# ------------------------------------------------------------------ expressions


class Expr(Node):
    """Base of expressions."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Literal(Expr):
    """An int, string, bool or none literal."""

    value: Any


@dataclass(frozen=True, slots=True)
class Name(Expr):
    """A name: a local, a parameter, a global variable, zone, table or built-in constant."""

    id: str


@dataclass(frozen=True, slots=True)
class Attr(Expr):
    """`obj.name`: a player's variable or zone, a piece's or cell's attribute."""

    obj: Expr
    name: str


@dataclass(frozen=True, slots=True)
class Index(Expr):
    """`obj[index]`: list element or table lookup."""

    obj: Expr
    index: Expr


@dataclass(frozen=True, slots=True)
class Call(Expr):
    """`func(args, key: value)`: a built-in or a spec-defined function."""

    func: str
    args: tuple[Expr, ...]
    kwargs: tuple[tuple[str, Expr], ...] = ()


@dataclass(frozen=True, slots=True)
class Unary(Expr):
    """`-x` or `not x`."""

    op: str
    operand: Expr


@dataclass(frozen=True, slots=True)
class Binary(Expr):
    """Arithmetic, comparison, membership and boolean operators."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Cond(Expr):
    """`if test then a else b`."""

    test: Expr
    then: Expr
    else_: Expr


@dataclass(frozen=True, slots=True)
class ListLit(Expr):
    """`[a, b, c]`."""

    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Record(Expr):
    """`{key: value, ...}`: attributes of a created piece, or a small map."""

    items: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True, slots=True)
class Slice(Expr):
    """`obj[start:stop]`: the items (or characters) from start up to stop, Python's bounds, clamped."""

    obj: Expr
    start: Expr | None
    stop: Expr | None


@dataclass(frozen=True)
class MatchInfo:
    """What a `match` was written as, for the checker: its arms' patterns and whether it has `_` (the engines
    run the `let` and conditionals it is parsed into)."""

    span: Span
    name: str  # the name the match's value is bound to
    patterns: tuple[tuple[Any, Span], ...]  # every pattern's value, in order
    default: bool


@dataclass(frozen=True, slots=True)
class LetIn(Expr):
    """`let name = value in body`; also what a `match` expression is parsed into (`match` is then set)."""

    name: str
    value: Expr
    body: Expr
    match: MatchInfo | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class NoMatch(Expr):
    """The value of a `match` that fits none of its arms: a located error at run time."""

    subject: Expr


@dataclass(frozen=True, slots=True)
class CompFor(Node):
    """One `for var in iter where cond` clause of a comprehension."""

    var: str
    iter: Expr
    cond: Expr | None


@dataclass(frozen=True, slots=True)
class Comprehension(Expr):
    """`[elt for x in xs where c]`, also a generator argument `count(x for x in xs)`."""

    elt: Expr
    clauses: tuple[CompFor, ...]


# ------------------------------------------------------------------- statements


class Stmt(Node):
    """Base of statements."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Block(Node):
    """A sequence of statements."""

    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Let(Stmt):
    """`let x = value`: a local name for the rest of the block."""

    name: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Assign(Stmt):
    """`target op value` with op in = += -= *=."""

    target: Expr
    op: str
    value: Expr


@dataclass(frozen=True, slots=True)
class If(Stmt):
    """`if c {..} elif c {..} else {..}`; also what a `match` statement is parsed into (`match` is then set)."""

    branches: tuple[tuple[Expr, Block], ...]
    else_: Block | None
    match: MatchInfo | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class For(Stmt):
    """`for x in xs where c order by key [desc] {..}` or `... chosen by player [prompt "..."] {..}`."""

    var: str
    iter: Expr
    cond: Expr | None
    order_key: Expr | None
    descending: bool
    chooser: Expr | None
    body: Block
    prompt: Expr | None = None  # with `chosen by`: the question before each item (evaluated each time)


@dataclass(frozen=True, slots=True)
class While(Stmt):
    """`while c {..}`, bounded by the loop limit."""

    cond: Expr
    body: Block


@dataclass(frozen=True, slots=True)
class Repeat(Stmt):
    """`repeat n {..}`."""

    count: Expr
    body: Block


@dataclass(frozen=True, slots=True)
class Choose(Stmt):
    """`choose x from domain where c by p prompt "..." optional else "..."`: a decision."""

    var: str
    domain: Expr
    cond: Expr | None
    chooser: Expr | None
    prompt: Expr | None
    optional: bool
    reason: Expr | None


@dataclass(frozen=True, slots=True)
class Commit(Stmt):
    """`commit x from domain where c by players prompt "..." optional else "..."`: sealed answers, revealed together.

    `players` (the `by` clause) is None for every player; `p` is bound to each committing player in the
    domain, the filter, the prompt and the reason."""

    var: str
    domain: Expr
    cond: Expr | None
    players: Expr | None
    prompt: Expr | None
    optional: bool
    reason: Expr | None


@dataclass(frozen=True, slots=True)
class Require(Stmt):
    """`require c else "why"`: the move is illegal unless c holds."""

    cond: Expr
    message: Expr | None


@dataclass(frozen=True, slots=True)
class Move(Stmt):
    """`move pieces to place [at top|bottom]`."""

    what: Expr
    dest: Expr
    position: str | None


@dataclass(frozen=True, slots=True)
class Create(Stmt):
    """`create kind {attrs} in place [as name]`."""

    kind: str
    attrs: Record | None
    dest: Expr
    bind: str | None


@dataclass(frozen=True, slots=True)
class Destroy(Stmt):
    """`destroy pieces`: out of the game."""

    what: Expr


@dataclass(frozen=True, slots=True)
class Draw(Stmt):
    """`draw n from source to dest [as name]`."""

    count: Expr
    source: Expr
    dest: Expr
    bind: str | None


@dataclass(frozen=True, slots=True)
class Shuffle(Stmt):
    """`shuffle zone`."""

    zone: Expr


@dataclass(frozen=True, slots=True)
class Swap(Stmt):
    """`swap a with b`: exchange everything two places hold."""

    a: Expr
    b: Expr


@dataclass(frozen=True, slots=True)
class Emit(Stmt):
    """`emit event(args)`: fire event triggers."""

    event: str
    args: tuple[Expr, ...]
    kwargs: tuple[tuple[str, Expr], ...] = ()


@dataclass(frozen=True, slots=True)
class EndGame(Stmt):
    """`end_game name`: end now, by the named end condition."""

    name: str


@dataclass(frozen=True, slots=True)
class Settle(Stmt):
    """`settle`: resolve state triggers (the cascade) now."""


@dataclass(frozen=True, slots=True)
class Pass(Stmt):
    """`pass`: the current player passes for the rest of the phase."""


@dataclass(frozen=True, slots=True)
class EndTurn(Stmt):
    """`end_turn`: the current turn ends after this action."""


@dataclass(frozen=True, slots=True)
class Say(Stmt):
    """`say message`: a line in the game's narration."""

    message: Expr


@dataclass(frozen=True, slots=True)
class CallProc(Stmt):
    """`call procedure(args)`: run a named effect from the spec's procedures."""

    name: str
    args: tuple[Expr, ...]
    kwargs: tuple[tuple[str, Expr], ...] = ()


@dataclass(frozen=True, slots=True)
class Use(Stmt):
    """`use PIECE.play`: run what the piece's `play:` abilities do (then maybe their empowered part)."""

    piece: Expr
    part: str  # the attribute written after the piece: `play` (the checker refuses any other)


@dataclass(frozen=True, slots=True)
class Perform(Stmt):
    """`perform action [by player]`: run another action (choosing its parameters) as part of this one, for
    the acting player or the one `by` names."""

    action: str
    actor: Expr | None = None


@dataclass(frozen=True, slots=True)
class Open(Stmt):
    """`open window(args)`: a reaction window (docs/dsl.md 2.19) opens now; its answers are part of this move."""

    window: str
    args: tuple[Expr, ...]
    kwargs: tuple[tuple[str, Expr], ...] = ()
