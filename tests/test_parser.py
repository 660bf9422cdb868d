"""Parser tests: every statement form and operator parses to the expected AST; precedence,
newline rules, comments, and located syntax errors with a helpful 'expected' list."""

from __future__ import annotations

import textwrap

import pytest

from orrery.rulespec import ast as A
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec
from orrery.rulespec.parser import parse_block, parse_expr


def one(text: str) -> A.Stmt:
    """The single statement of an effect."""
    block = parse_block(text)
    assert isinstance(block, A.Block)
    assert len(block.body) == 1, block.body
    return block.body[0]


def syntax_error(text: str, expr: bool = True) -> SpecError:
    with pytest.raises(SpecError) as info:
        (parse_expr if expr else parse_block)(text)
    return info.value


def shape(node):
    """A compact structural picture of an expression: nested tuples of ops and leaves."""
    if isinstance(node, A.Literal):
        return node.value
    if isinstance(node, A.Name):
        return node.id
    if isinstance(node, A.Binary):
        return (node.op, shape(node.left), shape(node.right))
    if isinstance(node, A.Unary):
        return (node.op, shape(node.operand))
    if isinstance(node, A.Cond):
        return ("if", shape(node.test), shape(node.then), shape(node.else_))
    if isinstance(node, A.Attr):
        return (".", shape(node.obj), node.name)
    if isinstance(node, A.Index):
        return ("[]", shape(node.obj), shape(node.index))
    if isinstance(node, A.Call):
        return ("call", node.func, tuple(shape(a) for a in node.args),
                tuple((k, shape(v)) for k, v in node.kwargs))
    if isinstance(node, A.ListLit):
        return ("list",) + tuple(shape(x) for x in node.items)
    if isinstance(node, A.Record):
        return ("rec",) + tuple((k, shape(v)) for k, v in node.items)
    if isinstance(node, A.Comprehension):
        return ("comp", shape(node.elt),
                tuple((c.var, shape(c.iter), None if c.cond is None else shape(c.cond)) for c in node.clauses))
    raise AssertionError(f"unexpected node {node!r}")


# --------------------------------------------------------------- literals and atoms

@pytest.mark.parametrize("text, value", [
    ("0", 0),
    ("42", 42),
    ('"hello"', "hello"),
    ("'single'", "single"),
    (r'"say \"hi\""', 'say "hi"'),
    (r'"tab\there"', "tab\there"),
    ("true", True),
    ("false", False),
    ("none", None),
])
def test_literals(text, value):
    node = parse_expr(text)
    assert isinstance(node, A.Literal)
    assert node.value == value and type(node.value) is type(value)


@pytest.mark.parametrize("text, expected", [
    ("x", "x"),
    ("current", "current"),
    ("a.b", (".", "a", "b")),
    ("a.b.c", (".", (".", "a", "b"), "c")),
    ("xs[0]", ("[]", "xs", 0)),
    ("xs[i + 1]", ("[]", "xs", ("+", "i", 1))),
    ("t[a][b]", ("[]", ("[]", "t", "a"), "b")),
    ("p.hand[0].rank", (".", ("[]", (".", "p", "hand"), 0), "rank")),
    ("f()", ("call", "f", (), ())),
    ("f(1, 2)", ("call", "f", (1, 2), ())),
    ("f(1, 2,)", ("call", "f", (1, 2), ())),
    ("top(c)", ("call", "top", ("c",), ())),
    ("bottom(deck).rank", (".", ("call", "bottom", ("deck",), ()), "rank")),
    ('pieces(c, kind: "bead")', ("call", "pieces", ("c",), (("kind", "bead"),))),
    ("min(xs, default: 0)", ("call", "min", ("xs",), (("default", 0),))),
    ("f(a: 1, b: 2)", ("call", "f", (), (("a", 1), ("b", 2)))),
    ("[]", ("list",)),
    ("[1, 2, 3]", ("list", 1, 2, 3)),
    ("[1, 2,]", ("list", 1, 2)),
    ("[[1], []]", ("list", ("list", 1), ("list",))),
    ("{}", ("rec",)),
    ("{a: 1, b: x}", ("rec", ("a", 1), ("b", "x"))),
    ("{a: 1,}", ("rec", ("a", 1))),
    ("{a: {b: 2}}", ("rec", ("a", ("rec", ("b", 2))))),
    ("(1)", 1),
    ("((x))", "x"),
])
def test_atoms_and_postfix(text, expected):
    assert shape(parse_expr(text)) == expected


# --------------------------------------------------------------- operators

@pytest.mark.parametrize("op", ["+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or"])
def test_every_binary_operator(op):
    node = parse_expr(f"a {op} b")
    assert isinstance(node, A.Binary)
    assert (node.op, shape(node.left), shape(node.right)) == (op, "a", "b")


@pytest.mark.parametrize("text, expected", [
    ("a in b", ("in", "a", "b")),
    ("a not in b", ("not in", "a", "b")),
    ("-a", ("-", "a")),
    ("not a", ("not", "a")),
    ("--a", ("-", ("-", "a"))),
    ("not not a", ("not", ("not", "a"))),
])
def test_unary_and_membership(text, expected):
    assert shape(parse_expr(text)) == expected


@pytest.mark.parametrize("text, expected", [
    # left associativity
    ("a - b - c", ("-", ("-", "a", "b"), "c")),
    ("a // b // c", ("//", ("//", "a", "b"), "c")),
    ("a % b * c", ("*", ("%", "a", "b"), "c")),
    ("a or b or c", ("or", ("or", "a", "b"), "c")),
    ("a and b and c", ("and", ("and", "a", "b"), "c")),
    # multiplication binds tighter than addition
    ("a + b * c", ("+", "a", ("*", "b", "c"))),
    ("a * b + c", ("+", ("*", "a", "b"), "c")),
    ("a - b % c", ("-", "a", ("%", "b", "c"))),
    ("(a + b) * c", ("*", ("+", "a", "b"), "c")),
    # unary minus binds tighter than * and postfix tighter than unary minus
    ("-a * b", ("*", ("-", "a"), "b")),
    ("-a.b", ("-", (".", "a", "b"))),
    ("a - -b", ("-", "a", ("-", "b"))),
    # not binds looser than comparison but tighter than and/or
    ("not a and b", ("and", ("not", "a"), "b")),
    ("not a or b", ("or", ("not", "a"), "b")),
    ("not a == b", ("not", ("==", "a", "b"))),
    ("not a in b", ("not", ("in", "a", "b"))),
    ("a or b and c", ("or", "a", ("and", "b", "c"))),
    ("a and b or c", ("or", ("and", "a", "b"), "c")),
    # arithmetic binds tighter than comparison and membership
    ("a + 1 < b * 2", ("<", ("+", "a", 1), ("*", "b", 2))),
    ("a + 1 in xs", ("in", ("+", "a", 1), "xs")),
    ("a in xs + ys", ("in", "a", ("+", "xs", "ys"))),
    ("a - 1 not in xs", ("not in", ("-", "a", 1), "xs")),
    ("a == b and c != d", ("and", ("==", "a", "b"), ("!=", "c", "d"))),
    ("x in xs and y not in ys", ("and", ("in", "x", "xs"), ("not in", "y", "ys"))),
    # the ternary has the lowest precedence and nests to the right
    ("if a then b else c", ("if", "a", "b", "c")),
    ("if a > 1 then b + 1 else c or d", ("if", (">", "a", 1), ("+", "b", 1), ("or", "c", "d"))),
    ("if a then b else if c then d else e", ("if", "a", "b", ("if", "c", "d", "e"))),
    ("if a then if b then c else d else e", ("if", "a", ("if", "b", "c", "d"), "e")),
    ("(if a then 1 else 2) + 3", ("+", ("if", "a", 1, 2), 3)),
    ("f(if a then 1 else 2)", ("call", "f", (("if", "a", 1, 2),), ())),
])
def test_precedence(text, expected):
    assert shape(parse_expr(text)) == expected


@pytest.mark.parametrize("text", ["a == b == c", "a < b < c", "a == b in c", "a in b in c"])
def test_comparisons_do_not_chain(text):
    err = syntax_error(text)
    assert "syntax error in expression" in str(err)


# --------------------------------------------------------------- comprehensions

@pytest.mark.parametrize("text, expected", [
    ("[x for x in xs]", ("comp", "x", (("x", "xs", None),))),
    ("[x * 2 for x in xs where x > 1]", ("comp", ("*", "x", 2), (("x", "xs", (">", "x", 1)),))),
    ("[[a, b] for a in xs for b in ys where a != b]",
     ("comp", ("list", "a", "b"), (("a", "xs", None), ("b", "ys", ("!=", "a", "b"))))),
    ("[c for r in rows where r > 0 for c in r where c in ok]",
     ("comp", "c", (("r", "rows", (">", "r", 0)), ("c", "r", ("in", "c", "ok"))))),
    ("[x for x in xs where x in ys and x not in zs]",
     ("comp", "x", (("x", "xs", ("and", ("in", "x", "ys"), ("not in", "x", "zs"))),))),
    ("[x for x in range(1, 4)]", ("comp", "x", (("x", ("call", "range", (1, 4), ()), None),))),
])
def test_list_comprehensions(text, expected):
    node = parse_expr(text)
    assert isinstance(node, A.Comprehension)
    assert all(isinstance(c, A.CompFor) for c in node.clauses)
    assert shape(node) == expected


@pytest.mark.parametrize("text, func, expected_arg", [
    ("count(x for x in xs where c)", "count", ("comp", "x", (("x", "xs", "c"),))),
    ("sum(p.score for p in players)", "sum", ("comp", (".", "p", "score"), (("p", "players", None),))),
    ("any(empty(c) for c in cells(board))", "any",
     ("comp", ("call", "empty", ("c",), ()), (("c", ("call", "cells", ("board",), ()), None),))),
    ("all(a != b for a in xs for b in ys)", "all",
     ("comp", ("!=", "a", "b"), (("a", "xs", None), ("b", "ys", None)))),
])
def test_generator_arguments(text, func, expected_arg):
    node = parse_expr(text)
    assert isinstance(node, A.Call) and node.func == func
    assert len(node.args) == 1 and node.kwargs == ()
    assert isinstance(node.args[0], A.Comprehension)
    assert shape(node.args[0]) == expected_arg


def test_walk_and_children_visit_every_node():
    node = parse_expr("count(x for x in xs where x > limit)")
    names = {n.id for n in node.walk() if isinstance(n, A.Name)}
    assert names == {"x", "xs", "limit"}
    assert any(isinstance(n, A.CompFor) for n in node.walk())
    assert list(parse_expr("a + b").children()) == [A.Name(span=None, id="a"), A.Name(span=None, id="b")]


# --------------------------------------------------------------- statements

def test_let_and_assign_forms():
    s = one("let total = a + 1")
    assert isinstance(s, A.Let) and s.name == "total" and shape(s.value) == ("+", "a", 1)
    for op in ("=", "+=", "-=", "*="):
        s = one(f"score {op} 3")
        assert isinstance(s, A.Assign) and s.op == op
        assert shape(s.target) == "score" and shape(s.value) == 3
    s = one("current.coins += 2")
    assert isinstance(s.target, A.Attr) and shape(s.target) == (".", "current", "coins")
    s = one("t.lit = true")
    assert shape(s.target) == (".", "t", "lit")
    s = one("grid[2] = 5")
    assert isinstance(s.target, A.Index) and shape(s.target) == ("[]", "grid", 2)
    s = one("p.stack[0].height -= 1")
    assert shape(s.target) == (".", ("[]", (".", "p", "stack"), 0), "height")


def test_if_elif_else():
    s = one("if a { x = 1 } elif b { x = 2 } elif c { x = 3 } else { x = 4 }")
    assert isinstance(s, A.If)
    assert [shape(c) for c, _ in s.branches] == ["a", "b", "c"]
    assert all(isinstance(b, A.Block) and len(b.body) == 1 for _, b in s.branches)
    assert isinstance(s.else_, A.Block) and shape(s.else_.body[0].value) == 4
    s = one("if a { }")
    assert s.else_ is None and s.branches[0][1].body == ()


def test_for_forms():
    s = one("for c in cells(board) { say c }")
    assert isinstance(s, A.For)
    assert (s.var, s.cond, s.order_key, s.descending, s.chooser) == ("c", None, None, False, None)
    s = one("for p in players where p.score > 0 order by p.score desc { say p }")
    assert shape(s.cond) == (">", (".", "p", "score"), 0)
    assert shape(s.order_key) == (".", "p", "score") and s.descending is True and s.chooser is None
    s = one("for p in players order by p.seat { say p }")
    assert s.descending is False and shape(s.order_key) == (".", "p", "seat")
    s = one("for t in tiles where t.ready chosen by current { move t to pile }")
    assert shape(s.chooser) == "current" and s.order_key is None and shape(s.cond) == (".", "t", "ready")
    assert isinstance(s.body.body[0], A.Move)


def test_while_and_repeat():
    s = one("while n < 3 { n += 1 }")
    assert isinstance(s, A.While) and shape(s.cond) == ("<", "n", 3)
    s = one("repeat 2 + 1 { draw 1 from deck to pile }")
    assert isinstance(s, A.Repeat) and shape(s.count) == ("+", 2, 1) and isinstance(s.body.body[0], A.Draw)


@pytest.mark.parametrize("text, fields", [
    ("choose x from xs", dict(var="x", cond=None, chooser=None, prompt=None, optional=False, reason=None)),
    ("choose x from xs where x > 1", dict(cond=(">", "x", 1))),
    ("choose x from xs by next_player(current)", dict(chooser=("call", "next_player", ("current",), ()))),
    ('choose x from xs prompt "Pick one"', dict(prompt="Pick one")),
    ("choose x from xs optional", dict(optional=True)),
    ('choose x from xs else "nothing to pick"', dict(reason="nothing to pick")),
    ('choose c from cells(board) where empty(c) by p prompt "Where?" optional else "full"',
     dict(var="c", cond=("call", "empty", ("c",), ()), chooser="p", prompt="Where?", optional=True,
          reason="full")),
    # options in any order
    ('choose x from xs optional prompt "P" by q', dict(chooser="q", prompt="P", optional=True)),
])
def test_choose_forms(text, fields):
    s = one(text)
    assert isinstance(s, A.Choose)
    for name, want in fields.items():
        got = getattr(s, name)
        if isinstance(got, A.Expr):
            got = shape(got)
        assert got == want, name


def test_require_forms():
    s = one("require size(pile) > 0")
    assert isinstance(s, A.Require) and s.message is None and shape(s.cond) == (">", ("call", "size", ("pile",), ()), 0)
    s = one('require empty(c) else "that spot is taken"')
    assert isinstance(s.message, A.Literal) and s.message.value == "that spot is taken"
    s = one('require empty(c) else "taken by " + text(top(c).owner)')  # messages may be computed
    assert isinstance(s.message, A.Binary) and s.message.op == "+"


@pytest.mark.parametrize("text, position", [
    ("move t to pile", None),
    ("move t to pile at top", "top"),
    ("move t to pile at bottom", "bottom"),
])
def test_move_forms(text, position):
    s = one(text)
    assert isinstance(s, A.Move) and s.position == position
    assert (shape(s.what), shape(s.dest)) == ("t", "pile")


def test_move_at_middle_is_a_located_error():
    err = syntax_error("say 1\nmove t to pile at middle", expr=False)
    msg = str(err)
    assert "'at middle'" in msg and "'at top' or 'at bottom'" in msg
    span = err.findings[0].span
    assert (span.line, span.col) == (2, 19)


def test_create_destroy_draw_shuffle_swap():
    s = one("create bead in c")
    assert isinstance(s, A.Create) and (s.kind, s.attrs, s.bind) == ("bead", None, None)
    s = one("create bead {color: \"red\", size: 2} in cell(board, 0, 0) as b")
    assert isinstance(s.attrs, A.Record) and shape(s.attrs) == ("rec", ("color", "red"), ("size", 2))
    assert s.bind == "b" and shape(s.dest) == ("call", "cell", ("board", 0, 0), ())
    s = one("destroy pieces(c)")
    assert isinstance(s, A.Destroy) and shape(s.what) == ("call", "pieces", ("c",), ())
    s = one("draw 2 from deck to current.hand")
    assert isinstance(s, A.Draw) and s.bind is None and shape(s.count) == 2
    assert shape(s.dest) == (".", "current", "hand")
    s = one("draw n + 1 from bag to pile as got")
    assert s.bind == "got" and shape(s.count) == ("+", "n", 1)
    s = one("shuffle deck")
    assert isinstance(s, A.Shuffle) and shape(s.zone) == "deck"
    s = one("swap a.hand with b.hand")
    assert isinstance(s, A.Swap) and shape(s.a) == (".", "a", "hand") and shape(s.b) == (".", "b", "hand")


def test_emit_forms():
    s = one("emit ping")
    assert isinstance(s, A.Emit) and (s.event, s.args, s.kwargs) == ("ping", (), ())
    s = one("emit ping()")
    assert (s.args, s.kwargs) == ((), ())
    s = one("emit boom(1, x, power: 3, who: current)")
    assert [shape(a) for a in s.args] == [1, "x"]
    assert [(k, shape(v)) for k, v in s.kwargs] == [("power", 3), ("who", "current")]


@pytest.mark.parametrize("text, cls", [
    ("end_game exhausted", A.EndGame),
    ("settle", A.Settle),
    ("pass", A.Pass),
    ("end_turn", A.EndTurn),
    ("perform draw_card", A.Perform),
])
def test_keyword_statements(text, cls):
    s = one(text)
    assert type(s) is cls
    if cls is A.EndGame:
        assert s.name == "exhausted"
    if cls is A.Perform:
        assert s.action == "draw_card"


def test_say_and_call():
    s = one('say text(current) + " wins"')
    assert isinstance(s, A.Say) and shape(s.message) == ("+", ("call", "text", ("current",), ()), " wins")
    s = one("call score_line(c, 3, bonus: true)")
    assert isinstance(s, A.CallProc) and s.name == "score_line"
    assert [shape(a) for a in s.args] == ["c", 3] and [(k, shape(v)) for k, v in s.kwargs] == [("bonus", True)]
    s = one("call reset()")
    assert (s.args, s.kwargs) == ((), ())


def test_every_statement_node_type_is_reachable():
    text = textwrap.dedent("""\
        let a = 1
        a += 1
        if a > 1 { say a } else { say 0 }
        for x in xs { say x }
        while false { say 1 }
        repeat 1 { say 2 }
        choose y from xs
        require true
        move y to pile
        create bead in pile
        destroy y
        draw 1 from deck to pile
        shuffle deck
        swap pile with deck
        emit ping
        settle
        pass
        end_turn
        say "done"
        call proc()
        perform act
        end_game over
    """)
    kinds = [type(s) for s in parse_block(text).body]
    assert kinds == [A.Let, A.Assign, A.If, A.For, A.While, A.Repeat, A.Choose, A.Require, A.Move, A.Create,
                     A.Destroy, A.Draw, A.Shuffle, A.Swap, A.Emit, A.Settle, A.Pass, A.EndTurn, A.Say,
                     A.CallProc, A.Perform, A.EndGame]


# --------------------------------------------------------------- separators, newlines, comments

@pytest.mark.parametrize("text, count", [
    ("", 0),
    ("\n\n", 0),
    ("say 1", 1),
    ("say 1; say 2", 2),
    ("say 1;; say 2;", 2),
    ("say 1\nsay 2\n", 2),
    ("\n\n  say 1\n\n\n  say 2\n\n", 2),
    ("say 1 # trailing comment\n# a whole comment line\nsay 2", 2),
    ("# only a comment", 0),
    ('say "and"\nsay "or"', 2),           # a string that looks like an operator does not continue a line
    ('say "#not a comment"', 1),
])
def test_statement_separators(text, count):
    assert len(parse_block(text).body) == count


def test_comment_text_is_not_code():
    s = one('say "a#b" # say "ignored"')
    assert shape(s.message) == "a#b"


@pytest.mark.parametrize("text, expected", [
    # newlines inside brackets are dropped
    ("f(1,\n  2)", ("call", "f", (1, 2), ())),
    ("f(\n  1\n)", ("call", "f", (1,), ())),
    ("[1,\n 2,\n 3\n]", ("list", 1, 2, 3)),
    ("[x\n for x in xs\n where x > 0]", ("comp", "x", (("x", "xs", (">", "x", 0)),))),
    ("(a\n + b)", ("+", "a", "b")),
    # after a binary operator, a comma, 'where' or 'then'
    ("a +\n b", ("+", "a", "b")),
    ("a and\n b", ("and", "a", "b")),
    ("a or\n\n b", ("or", "a", "b")),
    ("a ==\n b", ("==", "a", "b")),
    ("x in\n xs", ("in", "x", "xs")),
    ("if a then\n 1 else 2", ("if", "a", 1, 2)),
    ("if a then 1\n else 2", ("if", "a", 1, 2)),
    ("{a: 1,\n b: 2}", ("rec", ("a", 1), ("b", 2))),
    ("{\n a: 1,\n b: 2,\n}", ("rec", ("a", 1), ("b", 2))),
])
def test_newlines_that_continue_an_expression(text, expected):
    assert shape(parse_expr(text)) == expected


def test_newline_rules_in_effects():
    s = one("total = a +\n    b *\n    c")
    assert shape(s.value) == ("+", "a", ("*", "b", "c"))
    s = one("if a {\n  x = 1\n}\nelse {\n  x = 2\n}")
    assert isinstance(s, A.If) and s.else_ is not None
    s = one("if a {\n  x = 1\n}\n# why not\nelif b {\n  x = 2\n}\n\nelse {\n  x = 3\n}")
    assert len(s.branches) == 2 and s.else_ is not None
    s = one("for c in cells(board)\n    where empty(c) {\n  say c\n}")
    assert isinstance(s, A.For) and shape(s.cond) == ("call", "empty", ("c",), ())
    s = one("let xs = [\n  1,\n  2\n]")
    assert shape(s.value) == ("list", 1, 2)
    s = one("create bead {\n  color: \"red\",\n  size: 1,\n} in pile")
    assert shape(s.attrs) == ("rec", ("color", "red"), ("size", 1))
    block = parse_block("if a { say 1 }\nsay 2")
    assert [type(x) for x in block.body] == [A.If, A.Say]
    block = parse_block("if a {\n}\nelse {\n}")
    assert len(block.body) == 1 and block.body[0].else_.body == ()


def test_multiline_record_without_trailing_comma():
    s = one("create bead {\n  color: \"red\",\n  size: 1\n} in pile")
    assert shape(s.attrs) == ("rec", ("color", "red"), ("size", 1))


def test_newline_ends_a_statement_outside_brackets():
    # a leading '-' does not continue the previous line: '- b' alone is not a statement
    err = syntax_error("x = a\n- b", expr=False)
    assert err.findings[0].span.line == 2
    block = parse_block("x = a\ny = -b")
    assert [shape(st.value) for st in block.body] == ["a", ("-", "b")]


# --------------------------------------------------------------- spans and errors

def test_spans_point_into_the_text():
    node = parse_expr("a +\n  bb * 3")
    assert (node.span.line, node.span.col) == (1, 1)
    right = node.right
    assert (right.span.line, right.span.col) == (2, 3)
    assert (right.left.span.line, right.left.span.col, right.left.span.end_col) == (2, 3, 5)
    s = parse_block("say 1\n  let x = 2").body[1]
    assert (s.span.line, s.span.col) == (2, 3)
    assert parse_expr("x", file="rules.yaml").span.file == "rules.yaml"


@pytest.mark.parametrize("text, expr, line, col, unexpected, expected_any", [
    ("1 +", True, 1, 3, "unexpected end of text", ["a name", "a number", "'('"]),
    ("a b", True, 1, 3, "unexpected 'b'", ["'+'", "'.'"]),
    ("f(1,,2)", True, 1, 5, "unexpected ','", ["a name", "')'"]),
    ("if a then b", True, 1, 11, "unexpected end of text", ["'else'"]),
    ("a == b == c", True, 1, 8, "unexpected '=='", ["'and'", "'or'"]),
    ("say 1\nlet = 2", False, 2, 5, "unexpected '='", ["a name"]),
    ("x = 1\nif x > 1 {\n  say x", False, 3, 7, "unexpected end of text", ["'}'"]),
    ("for x in xs {", False, 1, 13, "unexpected end of text", ["'call'", "'choose'", "a name"]),
    ("create bead {color: 1\n  shape: 2} in pile", False, 2, 3, "unexpected 'shape'", ["','"]),
])
def test_syntax_errors_are_located_and_say_what_was_expected(text, expr, line, col, unexpected, expected_any):
    err = syntax_error(text, expr=expr)
    assert len(err.findings) == 1
    f = err.findings[0]
    assert (f.span.line, f.span.col) == (line, col), str(err)
    assert unexpected in f.message
    assert "expected" in f.message
    tail = f.message.split("; expected", 1)[1]
    for want in expected_any:
        assert want in tail, (want, f.message)
    assert f"{f.span.file}:{line}:{col}" in str(err)
    assert ("expression" if expr else "effect") in f.message


@pytest.mark.parametrize("text, char, col", [("x @ y", "@", 3), ("a & b", "&", 3), ('"open', '"', 1)])
def test_unexpected_characters(text, char, col):
    err = syntax_error(text)
    f = err.findings[0]
    assert f"unexpected character {char!r}" in f.message and f.span.col == col


def test_expected_list_is_capped_and_readable():
    msg = syntax_error("a b").findings[0].message
    assert msg.endswith("...")  # long lists are cut at ten entries
    assert "_NL" not in msg and "$END" not in msg and "RPAR" not in msg


@pytest.mark.parametrize("text", ["let 1 = 2", "move to pile", "choose from xs", "draw from a to b",
                                  "emit", "end_game", "perform", "if { }", "x +=", "for in xs { }"])
def test_malformed_statements_are_rejected(text):
    err = syntax_error(text, expr=False)
    assert "syntax error in effect" in str(err)


def test_keywords_are_not_names():
    syntax_error("let if = 1", expr=False)
    syntax_error("order + 1")
    syntax_error("[a for a in as]")


@pytest.mark.parametrize("text", ["w.open", "not w.open and x.if", "[w for w in ws where w.open]"])
def test_an_attribute_may_share_a_keywords_spelling(text):
    # after `.` only a name can come, so a keyword there is the attribute's name (`open` became a keyword
    # after games had named attributes so)
    assert isinstance(parse_expr(text), A.Expr)


def test_an_attribute_named_like_a_keyword_can_be_assigned():
    s = one("w.open = true")
    assert isinstance(s, A.Assign) and isinstance(s.target, A.Attr) and s.target.name == "open"


def test_assignment_targets_may_start_with_a_call():
    # `top(c).lit = true` writes an attribute of the piece the call returns
    s = one("top(c).lit = true")
    assert isinstance(s, A.Assign) and isinstance(s.target, A.Attr)
    assert isinstance(s.target.obj, A.Call) and s.target.obj.func == "top" and s.target.name == "lit"
    # a call alone is not a statement
    err = syntax_error("top(c)", expr=False)
    assert "unexpected end of text" in str(err) and "'='" in str(err)


def test_errors_in_a_spec_file_point_at_the_file_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(textwrap.dedent("""\
        orrery: 1
        game: {name: bad-sum}
        flow:
          first_player: 0
          phases:
            - name: main
              steps: [{actions: [tally]}]
        actions:
          tally:
            effect: |
              say 1
              say 2 +
              let = 3
        end:
          never: {when: "1 +"}
    """))
    with pytest.raises(SpecError) as info:
        load_spec(path, check=False)
    # 'say 2 +' continues onto the next line, where 'let' cannot follow: the error is the dangling '+'
    # (12:13), not 'let' (13:7); the end condition's error is at the dangling '+' inside the flow mapping (15:20).
    found = sorted(((f.span.line, f.span.col), f.message) for f in info.value.findings)
    assert [w for w, _ in found] == [(12, 13), (15, 20)], found
    assert "the line ends with '+'" in found[0][1] and "'let' cannot follow it" in found[0][1]
    assert "syntax error in effect" in found[0][1]
    assert "syntax error in expression" in found[1][1] and "after '+'" in found[1][1]
    text = str(info.value)
    assert f"{path}:12:13" in text and f"{path}:15:20" in text
    assert "^" in text  # a caret under the offending column


def test_a_text_read_twice_gets_each_callers_spans() -> None:
    """Parse trees are kept per text (rulespec/parser._tree); spans are mapped for each caller anew."""
    first = parse_expr("a + b", file="one.yaml")
    shifted = parse_expr("a + b", lambda line, col, el=None, ec=None: A.Span("two.yaml", line + 9, col, el, ec))
    assert first == shifted  # (spans are not compared)
    assert (first.span.file, first.span.line) == ("one.yaml", 1)
    assert (shifted.span.file, shifted.span.line) == ("two.yaml", 10)
    assert shifted.right.span.col == first.right.span.col == 5


def test_a_bad_text_read_twice_is_refused_twice() -> None:
    for file in ("one.yaml", "two.yaml"):
        with pytest.raises(SpecError) as err:
            parse_expr("a +", file=file)
        assert err.value.findings[0].span.file == file
