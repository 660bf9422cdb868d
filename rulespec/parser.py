"""Parse conditions and effects with the Lark grammar into the AST.

The grammar ships as package data (`orrery.grammar/orrery.lark`).  Positions
reported by Lark are inside the YAML scalar; a `SpanMapper` turns them into
positions in the file, so every AST node and every syntax error points at the
right line and column of the spec.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Callable, Iterator

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import ast as A
from . import grammar_tables
from .errors import Finding, Span, SpecError
from .matchbuild import Built, Many, MatchBuilder, with_meta

# Maps (line, col, end_line, end_col) inside the parsed text to a file span.
SpanMapper = Callable[[int, int, int | None, int | None], Span]

# Token texts after which a newline cannot end a statement, so it is dropped.
_CONTINUE_AFTER = {",", "+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "=", "+=", "-=", "*=",
                   "and", "or", "not", "in", "where", "then", "{", "=>", "|"}
# Token texts before which a newline is dropped: words that never start a statement, so a
# clause may go on the next line (`}` newline `else {`, a long `choose` with `prompt` below).
_CONTINUE_BEFORE = {"else", "elif", "where", "by", "prompt", "optional", "order", "chosen", "then", "and", "or",
                    "to", "from", "as", "with", "at", "=>", "|"}
# Before a record's `{` comes an operator, an opening bracket, a comma or `create KIND`; before a
# block's `{` comes the end of an expression (`if x {`) or `else`.  Newlines inside records and
# brackets are dropped; inside blocks they separate statements.
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").fullmatch  # a keyword's shape (the grammar's NAME)
_RECORD_AFTER = {"=", "+=", "-=", "(", "[", ",", ":", "+", "-", "*", "==", "!=", "then", "in", "return"}


class _PostLex:
    """Drop newlines inside brackets and records, and around continuation tokens."""

    always_accept = ("_NL",)

    def __init__(self) -> None:
        # (line, col) of a token that a line ending in an operator joined to its line -> that operator; a
        # syntax error at such a token is the operator's fault (`n = n + 1 +` then `say "hi"` on the next line)
        self.joined: dict[tuple[int, int], Token] = {}
        self.last: Token | None = None  # the last token read: an operator there left the text unfinished

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        self.joined, self.last = {}, None
        stack: list[str] = []  # open brackets: "(", "[", "record", "block"
        joiner: Token | None = None  # the operator whose newline was just dropped
        prev: Token | None = None
        before_prev: Token | None = None
        pending_nl: Token | None = None
        for tok in stream:
            if tok.type == "_NL":
                inside = bool(stack) and stack[-1] != "block"
                if inside:
                    continue
                if prev is not None and prev.type != "STRING" and str(prev) in _CONTINUE_AFTER:
                    joiner = prev
                    continue
                pending_nl = tok
                continue
            text = str(tok) if tok.type != "STRING" else ""
            if prev is not None and tok.type != "NAME" and str(prev) == "." and _WORD(text):
                # an attribute may share a keyword's spelling (`w.open`): after `.` only a name can come
                tok = Token.new_borrow_pos("NAME", text, tok)
            if joiner is not None:
                self.joined[(tok.line, tok.column)] = joiner
                joiner = None
            if pending_nl is not None:
                if text not in _CONTINUE_BEFORE and not (text == "}" and stack and stack[-1] == "record"):
                    yield pending_nl
                pending_nl = None
            if text in ("(", "["):
                stack.append(text)
            elif text == "{":
                stack.append("record" if _opens_record(prev, before_prev) else "block")
            elif text in (")", "]", "}") and stack:
                stack.pop()
            before_prev, prev = prev, tok
            self.last = tok
            yield tok
        if pending_nl is not None:
            yield pending_nl


def _opens_record(prev: Token | None, before_prev: Token | None) -> bool:
    """Whether a `{` after these tokens starts a record (else a block)."""
    if prev is None:
        return False
    if prev.type == "NAME" and before_prev is not None and str(before_prev) == "create":
        return True
    return prev.type != "STRING" and str(prev) in _RECORD_AFTER


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The grammar source, read from package data."""
    return resources.files("orrery.grammar").joinpath("orrery.lark").read_text(encoding="utf-8")


STARTS = ("expr_start", "block_start")
_OPTIONS = {
    "parser": "lalr",
    "lexer": "basic",  # the post-lexer looks one token ahead, which a contextual lexer cannot allow
    "propagate_positions": True,
    "maybe_placeholders": True,
}


def build_parser(start: str) -> tuple[Lark, str]:
    """The parser of a start symbol built from the grammar (its LALR tables computed), and its tables' key."""
    parser = Lark(grammar_text(), start=start, postlex=_PostLex(), **_OPTIONS)
    return parser, grammar_tables.key(grammar_text(), start, _OPTIONS)


@lru_cache(maxsize=2)
def _parser(start: str) -> Lark:
    # the tables shipped with the grammar when they were built from this very grammar (grammar_tables.py)
    loaded = grammar_tables.load(start, grammar_tables.key(grammar_text(), start, _OPTIONS), _PostLex())
    return loaded if loaded is not None else build_parser(start)[0]


def _identity_mapper(file: str) -> SpanMapper:
    def mapper(line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
        return Span(file, line, col, end_line, end_col)

    return mapper


class _PositionError(Exception):
    """`move ... at X` with X other than top/bottom."""

    def __init__(self, tok: Token):
        super().__init__(str(tok))
        self.tok = tok


class _LiteralError(Exception):
    """A number or string literal that cannot be read: the message, and where in the token."""

    def __init__(self, tok: Token, offset: int, length: int, message: str):
        super().__init__(message)
        self.tok, self.offset, self.length, self.message = tok, offset, length, message


MAX_LITERAL_DIGITS = 4000  # as the engine's `digits` limit can go (interpreter.evaluator.MAX_DIGITS)


class _Builder(MatchBuilder):
    """Methods are named after grammar rules and build AST nodes."""

    def __init__(self, mapper: SpanMapper):
        super().__init__()
        self.mapper = mapper
        self.matches = 0  # `match`es built so far: each binds its value to a name of its own

    def transform(self, tree: Tree):
        """The AST of a parse tree, bottom up: each rule's method (looked up once per class) gets the built
        children; a rule without one stays a Tree. A method's failure comes out as Lark's VisitError, which
        `_parse` unwraps into a located finding."""
        table = _callbacks(type(self))

        def build(node: Tree):
            kids = [build(c) if isinstance(c, Tree) else c for c in node.children]
            entry = table.get(node.data)
            if entry is None:
                return Tree(node.data, kids, node.meta)
            func, wants_meta = entry
            try:
                return func(self, node.meta, kids) if wants_meta else func(self, kids)
            except Exception as exc:
                raise VisitError(node.data, node, exc) from exc

        return build(tree)

    # -- helpers
    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return self.mapper(1, 1, None, None)
        return self.mapper(meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, tok: Token) -> Span:
        return self.mapper(tok.line, tok.column, tok.end_line, tok.end_column)

    # -- entry points and blocks
    @with_meta
    def block_start(self, meta, children):
        stmts = children[0] if children and children[0] is not None else ()
        return A.Block(span=self._span(meta), body=tuple(stmts))

    def expr_start(self, children):
        return children[0]

    def stmts(self, children):
        out: list = []
        for child in children:
            out.extend(child) if isinstance(child, Many) else out.append(child)
        return tuple(out)

    @with_meta
    def block(self, meta, children):
        stmts = children[0] if children and children[0] is not None else ()
        return A.Block(span=self._span(meta), body=tuple(stmts))

    # -- statements
    @with_meta
    def let_stmt(self, meta, c):
        return A.Let(span=self._span(meta), name=str(c[0]), value=c[1])

    @with_meta
    def assign_stmt(self, meta, c):
        return A.Assign(span=self._span(meta), target=c[0], op=c[1], value=c[2])

    def assign_op(self, c):
        return str(c[0])

    @with_meta
    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        else_ = None
        for extra in c[2:]:
            if isinstance(extra, tuple) and extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            elif isinstance(extra, A.Block):
                else_ = extra
        return A.If(span=self._span(meta), branches=tuple(branches), else_=else_)

    def elif_clause(self, c):
        return ("elif", c[0], c[1])

    def else_clause(self, c):
        return c[0]

    @with_meta
    def for_stmt(self, meta, c):
        var, it, where, order, body = str(c[0]), c[1], c[2], c[3], c[4]
        key = desc = chooser = prompt = None
        if order is not None:
            kind, val, flag = order
            if kind == "by":
                key, desc = val, flag
            else:
                chooser, prompt = val, flag
        return A.For(
            span=self._span(meta), var=var, iter=it, cond=where, order_key=key,
            descending=bool(desc), chooser=chooser, body=body, prompt=prompt,
        )

    def where_clause(self, c):
        return c[0]

    def order_by(self, c):
        return ("by", c[0], c[1] is not None)

    def order_chosen(self, c):
        return ("chosen", c[0], c[1])  # (the prompt, or None)

    @with_meta
    def while_stmt(self, meta, c):
        return A.While(span=self._span(meta), cond=c[0], body=c[1])

    @with_meta
    def repeat_stmt(self, meta, c):
        return A.Repeat(span=self._span(meta), count=c[0], body=c[1])

    @with_meta
    def choose_stmt(self, meta, c):
        opts = {"chooser": None, "prompt": None, "optional": False, "reason": None}
        for kind, val in c[4:]:
            opts[kind] = val
        if c[0] == "commit":  # (one rule for both: the parser's tables stay the size they were)
            return A.Commit(span=self._span(meta), var=str(c[1]), domain=c[2], cond=c[3],
                            players=opts.pop("chooser"), **opts)
        return A.Choose(span=self._span(meta), var=str(c[1]), domain=c[2], cond=c[3], **opts)

    def choose_kw(self, c):
        return str(c[0])

    def chooser(self, c):
        return ("chooser", c[0])

    def prompt(self, c):
        return ("prompt", c[0])

    def optional(self, c):
        return ("optional", True)

    def reason(self, c):
        return ("reason", c[0])

    @with_meta
    def require_stmt(self, meta, c):
        return A.Require(span=self._span(meta), cond=c[0], message=c[1])

    @with_meta
    def move_stmt(self, meta, c):
        return A.Move(span=self._span(meta), what=c[0], dest=c[1], position=c[2])

    def position(self, c):
        where = str(c[0])
        if where not in ("top", "bottom"):
            raise _PositionError(c[0])
        return where

    @with_meta
    def create_stmt(self, meta, c):
        return A.Create(span=self._span(meta), kind=str(c[0]), attrs=c[1], dest=c[2],
                        bind=str(c[3]) if c[3] else None)

    @with_meta
    def destroy_stmt(self, meta, c):
        return A.Destroy(span=self._span(meta), what=c[0])

    @with_meta
    def draw_stmt(self, meta, c):
        return A.Draw(span=self._span(meta), count=c[0], source=c[1], dest=c[2],
                      bind=str(c[3]) if c[3] else None)

    @with_meta
    def shuffle_stmt(self, meta, c):
        return A.Shuffle(span=self._span(meta), zone=c[0])

    @with_meta
    def swap_stmt(self, meta, c):
        return A.Swap(span=self._span(meta), a=c[0], b=c[1])

    @with_meta
    def emit_stmt(self, meta, c):
        args, kwargs = _split_args(c[1])
        return A.Emit(span=self._span(meta), event=str(c[0]), args=args, kwargs=kwargs)

    @with_meta
    def end_game_stmt(self, meta, c):
        return A.EndGame(span=self._span(meta), name=str(c[0]))

    @with_meta
    def settle_stmt(self, meta, c):
        return A.Settle(span=self._span(meta))

    @with_meta
    def pass_stmt(self, meta, c):
        return A.Pass(span=self._span(meta))

    @with_meta
    def end_turn_stmt(self, meta, c):
        return A.EndTurn(span=self._span(meta))

    @with_meta
    def say_stmt(self, meta, c):
        return A.Say(span=self._span(meta), message=c[0])

    @with_meta
    def call_stmt(self, meta, c):
        args, kwargs = _split_args(c[1])
        return A.CallProc(span=self._span(meta), name=str(c[0]), args=args, kwargs=kwargs)

    @with_meta
    def open_stmt(self, meta, c):
        args, kwargs = _split_args(c[1])
        return A.Open(span=self._span(meta), window=str(c[0]), args=args, kwargs=kwargs)

    @with_meta
    def use_stmt(self, meta, c):
        node = c[0]
        if isinstance(node, A.Attr):
            return A.Use(span=self._span(meta), piece=node.obj, part=node.name)
        return A.Use(span=self._span(meta), piece=node, part="")

    @with_meta
    def perform_stmt(self, meta, c):
        return A.Perform(span=self._span(meta), action=str(c[0]), actor=c[1])

    # -- expressions
    @with_meta
    def cond_expr(self, meta, c):
        return A.Cond(span=self._span(meta), test=c[0], then=c[1], else_=c[2])

    @with_meta
    def or_op(self, meta, c):
        return A.Binary(span=self._span(meta), op="or", left=c[0], right=c[1])

    @with_meta
    def and_op(self, meta, c):
        return A.Binary(span=self._span(meta), op="and", left=c[0], right=c[1])

    @with_meta
    def not_op(self, meta, c):
        return A.Unary(span=self._span(meta), op="not", operand=c[0])

    @with_meta
    def compare(self, meta, c):
        return A.Binary(span=self._span(meta), op=str(c[1]), left=c[0], right=c[2])

    @with_meta
    def in_op(self, meta, c):
        return A.Binary(span=self._span(meta), op="in", left=c[0], right=c[1])

    @with_meta
    def not_in_op(self, meta, c):
        return A.Binary(span=self._span(meta), op="not in", left=c[0], right=c[1])

    def _arith(self, meta, op, c):
        return A.Binary(span=self._span(meta), op=op, left=c[0], right=c[1])

    @with_meta
    def add(self, meta, c):
        return self._arith(meta, "+", c)

    @with_meta
    def sub(self, meta, c):
        return self._arith(meta, "-", c)

    @with_meta
    def mul(self, meta, c):
        return self._arith(meta, "*", c)

    @with_meta
    def floordiv(self, meta, c):
        return self._arith(meta, "//", c)

    @with_meta
    def mod(self, meta, c):
        return self._arith(meta, "%", c)

    @with_meta
    def neg(self, meta, c):
        return A.Unary(span=self._span(meta), op="-", operand=c[0])

    @with_meta
    def attr(self, meta, c):
        return A.Attr(span=self._span(meta), obj=c[0], name=str(c[1]))

    @with_meta
    def index(self, meta, c):
        return A.Index(span=self._span(meta), obj=c[0], index=c[1])

    @with_meta
    def slice(self, meta, c):
        return A.Slice(span=self._span(meta), obj=c[0], start=c[1], stop=c[2])

    @with_meta
    def let_expr(self, meta, c):
        return A.LetIn(span=self._span(meta), name=str(c[0]), value=c[1], body=c[2])

    def int_lit(self, c):
        if len(c[0]) > MAX_LITERAL_DIGITS:
            raise _LiteralError(c[0], 0, len(c[0]), f"a number of {len(c[0])} digits: numbers have at most "
                                                    f"{MAX_LITERAL_DIGITS} digits")
        return A.Literal(span=self._tok_span(c[0]), value=int(c[0]))

    def str_lit(self, c):
        return A.Literal(span=self._tok_span(c[0]), value=_unquote(c[0]))

    @with_meta
    def true_lit(self, meta, c):
        return A.Literal(span=self._span(meta), value=True)

    @with_meta
    def false_lit(self, meta, c):
        return A.Literal(span=self._span(meta), value=False)

    @with_meta
    def none_lit(self, meta, c):
        return A.Literal(span=self._span(meta), value=None)

    def name(self, c):
        return A.Name(span=self._tok_span(c[0]), id=str(c[0]))

    @with_meta
    def call(self, meta, c):
        args, kwargs = _split_args(c[1])
        return A.Call(span=self._span(meta), func=str(c[0]), args=args, kwargs=kwargs)

    @with_meta
    def list_lit(self, meta, c):
        return A.ListLit(span=self._span(meta), items=tuple(x for x in c if x is not None))

    @with_meta
    def list_comp(self, meta, c):
        return A.Comprehension(span=self._span(meta), elt=c[0], clauses=tuple(c[1:]))

    @with_meta
    def record(self, meta, c):
        return A.Record(span=self._span(meta), items=tuple(x for x in c if x is not None))

    def field(self, c):
        return (str(c[0]), c[1])

    def args(self, c):
        return ("args", tuple(x for x in c if x is not None))

    @with_meta
    def gen_args(self, meta, c):
        comp = A.Comprehension(span=self._span(meta), elt=c[0], clauses=tuple(c[1:]))
        return ("args", (comp,))

    def kwarg(self, c):
        return ("kw", str(c[0]), c[1])

    @with_meta
    def comp_for(self, meta, c):
        return A.CompFor(span=self._span(meta), var=str(c[0]), iter=c[1], cond=c[2])


def _split_args(packed) -> tuple[tuple, tuple]:
    if packed is None:
        return (), ()
    _, items = packed
    args, kwargs = [], []
    for item in items:
        if isinstance(item, tuple) and item and item[0] == "kw":
            kwargs.append((item[1], item[2]))
        else:
            args.append(item)
    return tuple(args), tuple(kwargs)


# The escapes of the rule language's strings (docs/dsl.md, 3.2); anything else after a backslash is an error.
_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "t": "\t"}
_HEX = frozenset("0123456789abcdefABCDEF")


def _unquote(tok) -> str:
    """The text of a STRING token: the quotes removed and the escapes read.

    The grammar guarantees one quoted literal on one line in which every backslash is followed by a
    character.  Raises _LiteralError, located at the backslash, for an unknown escape.
    """
    body = str(tok)[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = body[i + 1]
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
            i += 2
            continue
        digits = body[i + 2:i + 6]
        if e == "u" and len(digits) == 4 and set(digits) <= _HEX:
            code = int(digits, 16)
            if 0xD800 <= code <= 0xDFFF:
                raise _LiteralError(tok, i + 1, 6, f"'\\u{digits}' is half of a UTF-16 surrogate pair, not a "
                                                   f"character; write the character itself")
            out.append(chr(code))
            i += 6
            continue
        shown = "\\u" + digits if e == "u" else "\\" + e
        raise _LiteralError(tok, i + 1, len(shown) if e == "u" else 2,
                            f"unknown escape '{shown}' in a string; the escapes are \\\\ \\\" \\' \\n \\t "
                            f"and \\u followed by 4 hex digits")
    return "".join(out)


_EXPECT_NAMES = {"NAME": "a name", "INT": "a number", "STRING": "a string", "_NL": "end of line", "$END": "end of text"}


def _describe_expected(expected: set[str], parser: Lark) -> str:
    """Turn terminal names into what a rule author would type: 'if', '(' , a name."""
    names = set()
    for name in expected:
        if name in _EXPECT_NAMES:
            names.add(_EXPECT_NAMES[name])
            continue
        try:
            pattern = parser.get_terminal(name).pattern
        except KeyError:
            names.add(name.lower())
            continue
        names.add(repr(pattern.value) if pattern.type == "str" else name.lower())
    shown = sorted(names, key=lambda n: (not n.startswith("a "), n))
    if len(shown) > 16:
        shown = shown[:16] + ["..."]
    return ", ".join(shown)


def _in_slice(text: str, pos: int) -> bool:
    """Whether `pos` is inside `[...]` after a `:` of that bracket (a slice's second colon)."""
    stack: list[bool] = []  # per open bracket: a `[` that holds a colon already
    for ch in text[:pos]:
        if ch in "([{":
            stack.append(False if ch == "[" else None)  # type: ignore[arg-type]
        elif ch in ")]}" and stack:
            stack.pop()
        elif ch == ":" and stack and stack[-1] is not None:
            stack[-1] = True
    return bool(stack) and stack[-1] is True


def _syntax_finding(err: UnexpectedInput, mapper: SpanMapper, what: str, parser: Lark, text: str = "") -> Finding:
    line = getattr(err, "line", 1) or 1
    col = getattr(err, "column", 1) or 1
    if isinstance(err, UnexpectedToken):
        tok = err.token
        shown = "end of text" if tok.type == "$END" else ("end of line" if tok.type == "_NL" else repr(str(tok)))
        msg = f"syntax error in {what}: unexpected {shown}; expected {_describe_expected(err.expected, parser)}"
        post = parser.options.postlex
        joiner = post.joined.get((tok.line, tok.column)) if tok.type != "$END" else None
        last = post.last if tok.type == "$END" else None
        if joiner is not None:  # the line before ends with an operator: that is what is missing its operand
            msg = (f"syntax error in {what}: the line ends with '{joiner}', which continues the {what} onto the next "
                   f"line, where {shown} cannot follow it; finish the {what} after '{joiner}' or remove it")
            tok = joiner
        elif last is not None and last.type != "STRING" and str(last) in _CONTINUE_AFTER:
            msg = (f"syntax error in {what}: unexpected end of text after '{last}', which needs something after it; "
                   f"expected {_describe_expected(err.expected, parser)}")
            line, col = last.line, last.column
        elif str(tok) == ":" and _in_slice(text, tok.start_pos or 0):  # (a step is left out of the grammar: its tables)
            msg = f"syntax error in {what}: a slice takes no step: write xs[a:b] (every item from a up to b)"
        elif "IN" in err.expected and (tok.type == "COMP_OP" or str(tok) in ("and", "or", "in", "not")):
            msg += ("; the value of `let NAME = VALUE in ...` is arithmetic: write a comparison, `and`, `or` or "
                    "`in` there in parentheses")
        elif "NAME" in err.expected and str(tok).isidentifier() and tok.type != "NAME":
            msg += f" ('{tok}' is a reserved word of the rule language: choose another name)"
        if tok.type != "$END":
            line, col = tok.line, tok.column
    elif isinstance(err, UnexpectedCharacters):
        msg = f"syntax error in {what}: unexpected character {err.char!r}"
    elif isinstance(err, UnexpectedEOF):
        msg = f"syntax error in {what}: unexpected end of text"
    else:  # pragma: no cover - lark has no other UnexpectedInput kinds today
        msg = f"syntax error in {what}"
    return Finding(mapper(line, col, None, None), msg)


@lru_cache(maxsize=None)
def _callbacks(cls: type) -> dict[str, tuple[Callable, bool]]:
    """A builder class's rule methods by rule name: (the function, whether it takes the rule's meta)."""
    table: dict[str, tuple[Callable, bool]] = {}
    for name in dir(cls):
        func = getattr(cls, name)
        if not name.startswith("_") and callable(func) and name != "transform":
            table[name] = (func, getattr(func, "wants_meta", False))
    return table


@lru_cache(maxsize=8192)
def _tree(text: str, start: str) -> Tree:
    """Lark's parse tree of a text (positions relative to the text): a pure function of the text, kept because
    rule texts repeat (a variant stack re-reads its base's texts; scenario files of one game share expectations)
    and the LALR parse is most of the cost of reading one; the spans are mapped afresh for each caller."""
    return _parser(start).parse(text)


def _parse(text: str, start: str, mapper: SpanMapper, what: str):
    try:
        tree = _tree(text, start)
    except UnexpectedInput as err:
        raise SpecError(_syntax_finding(err, mapper, what, _parser(start), text)) from None
    try:
        return _Builder(mapper).transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, _PositionError):
            tok = err.orig_exc.tok
            raise SpecError(Finding(mapper(tok.line, tok.column, tok.end_line, tok.end_column),
                                    f"'at {tok}': a position is 'at top' or 'at bottom'")) from None
        if isinstance(err.orig_exc, Built):
            raise SpecError(Finding(err.orig_exc.span, err.orig_exc.message)) from None
        if isinstance(err.orig_exc, _LiteralError):  # literals are on one line
            e = err.orig_exc
            col = e.tok.column + e.offset
            raise SpecError(Finding(mapper(e.tok.line, col, e.tok.line, col + e.length), e.message)) from None
        raise SpecError(Finding(mapper(1, 1, None, None), f"internal error building {what}: {err.orig_exc}")) from None


def parse_expr(text: str, mapper: SpanMapper | None = None, *, file: str = "<expr>") -> A.Expr:
    """Parse a condition or value expression; raise SpecError with a located finding."""
    # a YAML block scalar (`expr: |`) ends in a newline: nothing after the value, so no end of line to reject
    return _parse(text.rstrip(), "expr_start", mapper or _identity_mapper(file), "expression")


def parse_block(text: str, mapper: SpanMapper | None = None, *, file: str = "<effect>") -> A.Block:
    """Parse an effect (statements); raise SpecError with a located finding."""
    return _parse(text, "block_start", mapper or _identity_mapper(file), "effect")


def _write_tables() -> int:
    """Rewrite grammar/tables.json from the grammar (run from the checkout after editing orrery.lark)."""
    from pathlib import Path

    target = Path(__file__).resolve().parents[1] / "grammar" / grammar_tables.FILE
    grammar_tables.write(build_parser, STARTS, target)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":  # python -m orrery.rulespec.parser: the grammar's tables, written anew
    raise SystemExit(_write_tables())
