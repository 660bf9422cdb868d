"""Evaluator tests: arithmetic, equality, lists, records, tables, spec functions, every built-in,
attribute errors; plus the basic statements of effects run on a cloned state.

Most expressions are evaluated against the made-up "bead sampler" (tests/specs/sampler.yaml):
3 players; sq (3x3 orthogonal) holds discs at a1, b1 and a stack of two at c3; inf (unbounded)
holds discs at (5,-2) and (-3,4); the pile holds one gem; the bag holds 4 beads.
"""

from __future__ import annotations

import pytest

from conftest import SAMPLER, evaluate, load_game, new_state, run_effect
from orrery.interpreter.core.decisions import RequireFailed, RuleError, RunawayError
from orrery.interpreter.reference.evaluator import Interp
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.core.values import Cell, PieceRef, Player, Record, ZoneRef
from orrery.rulespec import ast as A
from orrery.rulespec.errors import LimitError
from orrery.rulespec.parser import parse_expr
from orrery.rulespec.signatures import FUNCTIONS


@pytest.fixture(scope="module")
def game(module_engine):
    return load_game(SAMPLER)


@pytest.fixture()
def gs(game):
    return new_state(game, players=3, seed=7)


def ev(gs, text, **env):
    return evaluate(gs, text, env)


def rule_error(gs, text, **env) -> RuleError:
    with pytest.raises(RuleError) as info:
        ev(gs, text, **env)
    return info.value


def sq(label):
    return Cell("sq", None, _pos(label))


def _pos(label):
    from orrery.interpreter.core.values import parse_cell_label
    return parse_cell_label(label)


# ===================================================================== arithmetic

@pytest.mark.parametrize("text, value", [
    ("1 + 2", 3),
    ("10 - 3 - 2", 5),
    ("2 + 3 * 4", 14),
    ("(2 + 3) * 4", 20),
    ("7 // 2", 3),
    ("-7 // 2", -4),       # floor division
    ("7 % 3", 1),
    ("-7 % 3", 2),         # the result has the divisor's sign
    ("7 % -3", -2),
    ("-(3 - 5)", 2),
    ("--4", 4),
    ("2 * -3", -6),
    ("100 // 7 % 5", 4),
    ("3 < 4", True),
    ("4 <= 4", True),
    ("5 > 6", False),
    ("5 >= 6", False),
    ("1 != 2", True),
    ('"apple" < "banana"', True),
    ('"b" >= "a"', True),
    ('"ab" + "c"', "abc"),
    ('"" + ""', ""),
    ("if 2 > 1 then \"yes\" else \"no\"", "yes"),
    ("if 2 < 1 then 1 else if 2 == 2 then 2 else 3", 2),
])
def test_arithmetic_and_comparison(gs, text, value):
    got = ev(gs, text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("text, col", [("7 // 0", 1), ("1 + 7 % 0", 5), ("3 // (2 - 2)", 1)])
def test_division_by_zero_is_a_located_rule_error(gs, text, col):
    err = rule_error(gs, text)
    assert "division by zero" in str(err)
    span = err.findings[0].span
    assert span is not None and (span.line, span.col) == (1, col)


@pytest.mark.parametrize("text, fragment", [
    ("1 + \"a\"", "'+' needs numbers, got the text 'a'"),
    ("true + 1", "'+' needs numbers, got the truth value true"),
    ("[1] - [1]", "'-' needs numbers, got a list of 1"),
    ("[1] + 1", "'+' needs numbers, got a list of 1"),
    ("none * 2", "'*' needs numbers, got none"),
    ("1 < \"a\"", "'<' needs numbers"),
    ("-true", "'-' needs a number, got the truth value true"),
    ("not 1", "'not' needs true or false, got the number 1"),
    ("1 and true", "condition must be true or false, got the number 1"),
    ("if 1 then 2 else 3", "condition must be true or false"),
])
def test_type_errors_name_the_value(gs, text, fragment):
    assert fragment in str(rule_error(gs, text))


def test_and_or_short_circuit(gs):
    assert ev(gs, "false and 1 // 0 == 0") is False
    assert ev(gs, "true or 1 // 0 == 0") is True
    assert "division by zero" in str(rule_error(gs, "true and 1 // 0 == 0"))


# ===================================================================== equality

@pytest.mark.parametrize("text, value", [
    ("true == 1", False),
    ("false == 0", False),
    ("1 == true", False),
    ("true != 1", True),
    ("true == true", True),
    ("none == 0", False),
    ("none == false", False),
    ("none == none", True),
    ('"1" == 1', False),
    ("[1, 2] == [1, 2]", True),
    ("{a: 1} == {a: 1}", True),
    ("current == 0", True),          # a player is its seat number
    ("players[1] == 1", True),
])
def test_equality(gs, text, value):
    assert ev(gs, text) is value


@pytest.mark.parametrize("text, value", [
    ("true in [1, 2]", False),
    ("1 in [true]", False),
    ("0 in [false]", False),
    ("[true] == [1]", False),
    ("index_of([true, 1], 1)", 1),
])
def test_truth_values_never_equal_numbers_inside_lists(gs, text, value):
    assert ev(gs, text) == value


# ===================================================================== lists, text, records

@pytest.mark.parametrize("text, value", [
    ("[1, 2] + [3]", [1, 2, 3]),
    ("[] + []", []),
    ("2 in [1, 2, 3]", True),
    ("4 not in [1, 2, 3]", True),
    ("[1, 2, 3][0]", 1),
    ("[1, 2, 3][2]", 3),
    ("[1, 2, 3][-1]", 3),
    ("[1, 2, 3][-3]", 1),
    ('"abc"[1]', "b"),
    ('"b" in "abc"', True),
    ('"z" not in "abc"', True),
    ("[[1, 2], [3]][0][1]", 2),
    ("[x * x for x in [1, 2, 3]]", [1, 4, 9]),
    ("[x for x in range(10) where x % 3 == 0]", [0, 3, 6, 9]),
    ("[x + y for x in [1, 2] for y in [10, 20] where y > x * 5]", [11, 21, 22]),
    ("[[x, y] for x in [1, 2] where x > 1 for y in [x, 3]]", [[2, 2], [2, 3]]),
    ("{a: 1, b: 2}.b", 2),
    ('{a: 1}["a"]', 1),
    ('{a: 1}["zz"]', None),
    ('"a" in {a: 1}', True),
    # membership in places
    ('cell(sq, "a1") in sq', True),
    ('cell(board, "a1") in sq', False),
    ("top(pile) in pile", True),
    ("top(pile) in sq", False),
    ('top(cell(sq, "a1")) in sq', True),
    ('top(cell(sq, "a1")) in cell(sq, "a1")', True),
    ('top(cell(sq, "a1")) in cell(sq, "b1")', False),
    ('top(cell(sq, "a1")) not in pile', True),
])
def test_lists_text_and_records(gs, text, value):
    assert ev(gs, text) == value


def test_comprehension_variables_do_not_leak(gs):
    assert ev(gs, "[x for x in [1, 2]] + [x]", x=9) == [1, 2, 9]


@pytest.mark.parametrize("text, fragment", [
    ("[1, 2, 3][3]", "index 3 is outside a list of 3"),
    ("[1, 2, 3][-4]", "index -4 is outside a list of 3"),
    ("[][0]", "index 0 is outside a list of 0"),
    ('[1, 2]["a"]', "list index must be a number, got the text 'a'"),
    ("[1, 2][true]", "list index must be a number, got the truth value true"),
    ("5[0]", "cannot index the number 5"),
    ("3 in 4", "'in' needs a list, text or place, got the number 4"),
    ("[x for x in 5]", "cannot go through the number 5"),
    ("5 in pile", "cannot look for the number 5 in a place"),
])
def test_list_errors(gs, text, fragment):
    err = rule_error(gs, text)
    assert fragment in str(err)
    assert err.findings[0].span is not None


# ===================================================================== names, attributes

@pytest.mark.parametrize("text, value", [
    ("num_players", 3),
    ("round", 1),
    ("turn", 1),
    ('phase', "main"),
    ("first_player", 0),
    ("cascade", 0),
    ("current", 0),
    ("len(players)", 3),
    ("heat", 5),              # a global track
    ("counter", 3),           # a global variable with a start value
    ("log", []),
    ("players[2].secret", 20),  # per-player start expression with p bound
    ("current.score", 0),     # per-player track
    ("current.seat", 0),
    ("current.name", "Amber"),
    ("players[1].next.name", "Coral"),
    ("players[2].next", 0),
    ("current.passed", False),
    ("current.hand.owner", 0),
    ("bag.name", "bag"),
    ("size(bag)", 4),
    ("bag.size", 4),
    ("count(bag.pieces)", 4),
    ("cell(sq, \"b3\").x", 1),
    ("cell(sq, \"b3\").y", 2),
    ("cell(sq, \"b3\").label", "b3"),
    ("cell(sq, \"c3\").size", 2),
    ("count(cell(sq, \"c3\").pieces)", 2),
    ("cell(sq, \"c3\").zone == sq", True),
    ("cell(sq, \"c3\").owner", None),
    ("top(cell(sq, \"c3\")).height", 3),
    ("bottom(cell(sq, \"c3\")).height", 2),
    ("top(cell(sq, \"a1\")).height", 1),       # attribute default from the kind
    ("top(cell(sq, \"a1\")).kind", "disc"),
    ("top(cell(sq, \"a1\")).cell == cell(sq, \"a1\")", True),
    ("top(cell(sq, \"a1\")).place == cell(sq, \"a1\")", True),
    ("top(pile).hue", "green"),
    ('cell(field, "b2").terrain', "hill"),   # per-cell attribute
    ('cell(field, "a1").terrain', "plain"),  # cell attribute default
])
def test_names_and_attributes(gs, text, value):
    got = ev(gs, text)
    assert got == value
    if isinstance(value, bool) or value is None:
        assert got is value


def test_runtime_value_types(gs):
    assert isinstance(ev(gs, "current"), Player)
    assert isinstance(ev(gs, "players[1]"), Player)
    assert ev(gs, "bag") == ZoneRef("bag")
    assert ev(gs, "current.hand") == ZoneRef("hand", 0)
    assert isinstance(ev(gs, "top(pile)"), PieceRef)
    assert isinstance(ev(gs, "{a: 1}"), Record)
    assert ev(gs, "cell(sq, 0, 0)") == sq("a1")


@pytest.mark.parametrize("text, fragment", [
    ("current.wings", "player Amber has no attribute 'wings'"),
    ("top(pile).wings", "piece 'gem of green' has no attribute 'wings'"),
    ('cell(sq, "a1").wings', "cell a1 has no attribute 'wings'"),
    ("bag.wings", "zone 'bag' has no attribute 'wings'"),
    ("(3).wings", "the number 3 has no attribute 'wings'"),
    ('"txt".wings', "the text 'txt' has no attribute 'wings'"),
    ("none.wings", "none has no attribute 'wings'"),
    ("[1, 2].wings", "a list of 2 has no attribute 'wings'"),
    ("true.wings", "the truth value true has no attribute 'wings'"),
    ("nowhere", "unknown name 'nowhere'"),
    ("frobnicate(1)", "unknown function 'frobnicate'"),
])
def test_attribute_and_name_errors_name_the_value(gs, text, fragment):
    err = rule_error(gs, text)
    assert fragment in str(err)
    assert err.findings[0].span is not None and err.findings[0].span.line == 1


def test_environment_binds_local_names(gs):
    assert ev(gs, "n * 2 + heat", n=4) == 13
    assert ev(gs, "heat", heat=100) == 100  # locals shadow globals


# ===================================================================== tables

@pytest.mark.parametrize("text, value", [
    ("pts[0]", 0),
    ("pts[3]", 6),
    ("pts[4]", 6),        # above: last
    ("pts[99]", 6),
    ("steps[1]", 1),
    ("steps[5]", 9),
    ("steps[6]", 9),      # past the largest integer key: the last entry
    ("bonus[2]", 20),
    ("bonus[3]", 0),      # default
    ('bonus["x"]', 0),
    ("tail[1]", 2),
    ("tail[2]", -1),      # above: default
    ("strict[1]", 10),
    ('names["blue"]', 2),
])
def test_table_lookups(gs, text, value):
    assert ev(gs, text) == value


@pytest.mark.parametrize("text, fragment", [
    ("strict[2]", "table 'strict' has no entry 2"),
    ("steps[4]", "table 'steps' has no entry 4"),   # between keys: not 'above'
    ("pts[-1]", "table 'pts' has no entry -1"),
    ('names["green"]', "table 'names' has no entry 'green'"),
])
def test_table_misses_are_errors(gs, text, fragment):
    assert fragment in str(rule_error(gs, text))


def test_table_lookup_with_truth_value_is_not_an_index(gs):
    with pytest.raises(RuleError):
        ev(gs, "pts[true]")


# ===================================================================== spec functions

@pytest.mark.parametrize("text, value", [
    ("double(4)", 8),
    ("add(2, 3)", 5),
    ("add(1, b: 10)", 11),
    ("add(b: 1, a: 20)", 21),
    ("quad(3)", 12),            # functions call functions
    ("heat_plus(1)", 6),        # functions see globals
    ("occupied(sq)", [sq("a1"), sq("b1"), sq("c3")]),
    ("double(n)", 14),          # the argument is evaluated in the caller's scope
])
def test_spec_functions(gs, text, value):
    assert ev(gs, text, n=7) == value


def test_spec_function_bodies_do_not_see_caller_locals(gs):
    # double() without an argument: its parameter n is unbound in the body even though the caller has an n
    with pytest.raises(RuleError, match="unknown name 'n'"):
        ev(gs, "double()", n=5)


# ===================================================================== built-ins

BUILTIN_CASES = [
    # collections
    ("count([1, 2, 3])", 3),
    ("count(x for x in range(10) where x > 6)", 3),
    ("count(bag)", 4),
    ('count(cell(sq, "c3"))', 2),
    ("count(sq)", 4),                             # pieces in all cells of a board
    ("len([1, 2])", 2),
    ('len("hello")', 5),
    ("sum([1, 2, 3])", 6),
    ("sum([])", 0),
    ("sum(x * 2 for x in [1, 2])", 6),
    ("min([4, 2, 8])", 2),
    ("min(3, 1)", 1),
    ("min([], default: 7)", 7),
    ("max([4, 2, 8])", 8),
    ("max(3, 9)", 9),
    ("max(p.secret for p in players)", 20),
    ("max([], default: none)", None),
    ("any([false, true])", True),
    ("any([])", False),
    ("any([1, 2])", False),                       # numbers are not true
    ("all([true, true])", True),
    ("all([])", True),
    ("all([true, false])", False),
    ("range(3)", [0, 1, 2]),
    ("range(1, 4)", [1, 2, 3]),
    ("range(5, 2)", []),
    ("sorted([3, 1, 2])", [1, 2, 3]),
    ("sorted([3, 1, 2], reverse: true)", [3, 2, 1]),
    ('sorted(["b", "a"])', ["a", "b"]),
    ("reversed([1, 2, 3])", [3, 2, 1]),
    ("unique([1, 2, 1, 3, 2])", [1, 2, 3]),
    ("first([5, 6])", 5),
    ("first([])", None),
    ("last([5, 6])", 6),
    ("last([])", None),
    ("index_of([5, 6, 7], 7)", 2),
    ("index_of([5, 6, 7], 9)", -1),
    ("index_of(players, players[2])", 2),
    ("abs(-4)", 4),
    ("abs(4)", 4),
    ("text(current)", "Amber"),
    ("text(players)", "Amber, Blue, Coral"),
    ("text(true)", "yes"),
    ("text(false)", "no"),
    ("text(none)", "none"),
    ("text(12)", "12"),
    ('text(cell(sq, "b2"))', "b2"),
    ("text(top(pile))", "gem of green"),          # the kind's label expression
    ("text(current.hand)", "hand of Amber"),
    ("text({a: 1, b: true})", "a=1, b=yes"),
    # places and pieces
    ("count(cells(sq))", 9),
    ('cells(net)', [Cell("net", None, n) for n in "abcd"]),
    ("cells(inf)", [Cell("inf", None, (5, -2)), Cell("inf", None, (-3, 4))]),  # occupied, by row
    ('count(pieces(cell(sq, "c3")))', 2),
    ("count(pieces(sq))", 4),
    ('count(pieces(sq, kind: "disc"))', 4),
    ('count(pieces(sq, kind: "bead"))', 0),
    ('count(pieces([cell(sq, "a1"), cell(sq, "c3")]))', 3),
    ('empty(cell(sq, "b2"))', True),
    ('empty(cell(sq, "a1"))', False),
    ("empty(vault)", True),
    ("empty(sq)", False),
    ("size(bag)", 4),
    ('size(cell(sq, "c3"))', 2),
    ("size(vault)", 0),
    ("size(sq)", 4),                              # counted over a board's cells, without a piece list
    ("size(inf) == count(pieces(inf))", True),    # an unbounded grid: its occupied cells
    ("size(net) == count(pieces(net))", True),
    ("size(current.hand) == count(pieces(current.hand))", True),
    ("count(inf) == size(inf) and not empty(inf)", True),
    ("top(vault)", None),
    ("bottom(vault)", None),
    ('top(cell(sq, "c3")) != bottom(cell(sq, "c3"))', True),
    ("place_of(top(pile)) == pile", True),
    ('place_of(top(cell(sq, "a1"))) == cell(sq, "a1")', True),
    ('zone_of(cell(sq, "a1")) == sq', True),
    ('zone_of(top(cell(sq, "c3"))) == sq', True),
    ("zone_of(pile) == pile", True),
    ('changed_at(cell(sq, "b2"))', 0),            # never changed
    ('changed_at(cell(sq, "c3")) > changed_at(cell(sq, "a1"))', True),
    ('cell(sq, "b2") == cell(sq, 1, 1)', True),
    ('cell(sq, "B2") == cell(sq, 1, 1)', True),
    ('cell(sq, "d1")', None),
    ("cell(sq, 3, 0)", None),
    ("cell(sq, -1, 0)", None),
    ('cell(net, "c").label', "c"),
    ('cell(net, "zz")', None),
    ("cell(inf, -50, 70).x", -50),
    ("owner_of(current.hand)", 0),
    ("owner_of(players[2].hand)", 2),
    ("owner_of(bag)", None),
    ('owner_of(cell(sq, "a1"))', None),
    # geometry
    ('adjacent(cell(sq, "b2"))', [sq("b3"), sq("c2"), sq("b1"), sq("a2")]),       # N E S W
    ('adjacent(cell(sq, "a1"))', [sq("a2"), sq("b1")]),
    ('count(adjacent(cell(board, "b2")))', 8),
    ('count(adjacent(cell(board, "a1")))', 3),
    ('adjacent(cell(sq, "b2"), adjacency: "diagonal")', [sq("c3"), sq("c1"), sq("a1"), sq("a3")]),
    ('count(adjacent(cell(sq, "b2"), adjacency: "king"))', 8),
    ('adjacent(cell(hexb, "c3"))',
     [Cell("hexb", None, p) for p in [(3, 2), (1, 2), (3, 3), (2, 3), (2, 1), (1, 1)]]),
    ('count(adjacent(cell(hexb, "a1")))', 3),
    ('adjacent(cell(torus, "a1"))', [Cell("torus", None, p) for p in [(0, 1), (1, 0), (0, 2), (2, 0)]]),
    ('adjacent(cell(net, "b"))', [Cell("net", None, "a"), Cell("net", None, "c")]),
    ('adjacent(cell(net, "d"))', []),
    ('neighbor(cell(sq, "a1"), "N")', sq("a2")),
    ('neighbor(cell(sq, "a1"), "NE")', sq("b2")),
    ('neighbor(cell(sq, "a1"), "N", 2)', sq("a3")),
    ('neighbor(cell(sq, "a1"), "W")', None),       # off the board
    ('neighbor(cell(sq, "a1"), "N", 3)', None),
    ('neighbor(cell(torus, "a1"), "W")', Cell("torus", None, (2, 0))),  # wraps
    ('neighbor(cell(torus, "a1"), "S", 4)', Cell("torus", None, (0, 2))),
    ('neighbor(cell(inf, 0, 0), "W", 100)', Cell("inf", None, (-100, 0))),
    ('neighbor(cell(hexb, "c3"), "NW")', Cell("hexb", None, (2, 3))),
    ("dirs()", ["N", "E", "S", "W"]),
    ('dirs("diagonal")', ["NE", "SE", "SW", "NW"]),
    ('dirs("king")', ["N", "E", "S", "W", "NE", "SE", "SW", "NW"]),
    ('dirs("hex")', ["E", "W", "NE", "NW", "SE", "SW"]),
    ('rotate("N", 1)', "E"),
    ('rotate("N", 2)', "S"),
    ('rotate("N", -1)', "W"),
    ('rotate("NE", 1)', "SE"),
    ('rotate("W", 5)', "N"),
    ('opposite("N")', "S"),
    ('opposite("NE")', "SW"),
    ('opposite("W")', "E"),
    ('direction(cell(sq, "b2"), cell(sq, "b3"))', "N"),
    ('direction(cell(sq, "b2"), cell(sq, "a1"))', "SW"),
    ('direction(cell(sq, "a1"), cell(sq, "c3"))', None),
    ('direction(cell(torus, "a1"), cell(torus, "c1"))', "W"),
    ('line(cell(sq, "a1"), "E", 3)', [sq("a1"), sq("b1"), sq("c1")]),
    ('line(cell(sq, "a1"), "NE", 3)', [sq("a1"), sq("b2"), sq("c3")]),
    ('line(cell(sq, "b1"), "E", 3)', []),         # leaves the board
    ('line(cell(sq, "c3"), "S", 1)', [sq("c3")]),
    ("count(lines(board, 3))", 8),                # 3 rows, 3 columns, 2 diagonals (king)
    ("count(lines(sq, 3))", 6),                   # orthogonal: rows and columns only
    ('count(lines(sq, 3, adjacency: "king"))', 8),
    ('count(lines(sq, 3, adjacency: "diagonal"))', 2),
    ("count(lines(board, 2))", 20),
    ("count(lines(board, 4))", 0),
    ("count(lines(torus, 3))", 18),               # every rotation of every row and column
    ('distance(cell(sq, "a1"), cell(sq, "c3"))', 4),
    ('distance(cell(sq, "a1"), cell(sq, "c3"), metric: "manhattan")', 4),
    ('distance(cell(sq, "a1"), cell(sq, "c3"), metric: "king")', 2),
    ('distance(cell(sq, "a1"), cell(sq, "c2"), metric: "king")', 2),
    ('distance(cell(hexb, "a1"), cell(hexb, "c2"), metric: "hex")', 2),
    ('distance(cell(hexb, "a1"), cell(hexb, "c3"), metric: "hex")', 2),
    ('distance(cell(hexb, "c1"), cell(hexb, "a3"), metric: "hex")', 4),
    ('distance(cell(sq, "b2"), cell(sq, "b2"))', 0),
    ('connected([cell(sq, "a1")], occupied(sq))', [sq("a1"), sq("b1")]),
    ('connected(cell(sq, "a1"), occupied(sq))', [sq("a1"), sq("b1")]),
    ('connected([cell(sq, "c3")], occupied(sq))', [sq("c3")]),
    ('connected([cell(sq, "b2")], occupied(sq))', []),       # the start must be inside
    ('count(connected([cell(sq, "a1")], cells(sq)))', 9),
    ('connected([cell(sq, "a1")], [cell(sq, "a1"), cell(sq, "b2")])', [sq("a1")]),
    ('connected([cell(sq, "a1")], [cell(sq, "a1"), cell(sq, "b2")], adjacency: "king")', [sq("a1"), sq("b2")]),
    ('connected([cell(net, "a")], cells(net))', [Cell("net", None, n) for n in "abc"]),
    ("groups(occupied(sq))", [[sq("a1"), sq("b1")], [sq("c3")]]),
    ("groups([])", []),
    ('count(groups([cell(sq, "a1"), cell(sq, "b2"), cell(sq, "c3")]))', 3),
    ('count(groups([cell(sq, "a1"), cell(sq, "b2"), cell(sq, "c3")], adjacency: "king"))', 1),
    ("in_bounds(sq, 0, 0)", True),
    ("in_bounds(sq, 2, 2)", True),
    ("in_bounds(sq, 0, 5)", False),
    # a grid's shape, rays and wrap-around neighbours (tests/test_geometry_size.py has the made-up game)
    ("[sq.width, sq.height, hexb.width]", [3, 3, 5]),
    ('[c.label for c in ray(cell(sq, "a1"), "NE")]', ["b2", "c3"]),
    ('[c.label for c in ray(cell(torus, "b1"), "E")]', ["c1", "a1"]),
    ('ray(cell(sq, "c1"), "E")', []),
    ('neighbor(cell(sq, "a1"), "W", wrap: true).label', "c1"),
    ('neighbor(cell(torus, "a1"), "W", wrap: false)', None),
    ('[c.label for c in adjacent(cell(sq, "a1"), wrap: true)]', ["a2", "b1", "a3", "c1"]),
    ('[c.label for c in line(cell(sq, "b1"), "E", 3, wrap: true)]', ["b1", "c1", "a1"]),
    # edges and walks (tests/test_walks.py has the made-up game with tolls)
    ('edge(cell(net, "b"), cell(net, "a")).target == cell(net, "a")', True),
    ('edge(cell(net, "a"), cell(net, "c"))', None),
    ('len(edges_of(cell(net, "b")))', 2),
    ('[c.label for c in path(cell(net, "a"), cell(net, "c"))]', ["a", "b", "c"]),
    ('path_cost(cell(net, "a"), cell(net, "d"))', None),
    ('[c.label for c in reachable(cell(sq, "a1"), 1)]', ["a1", "b1", "a2"]),
    ("in_bounds(sq, -1, 0)", False),
    ('in_bounds(sq, "c3")', True),
    ('in_bounds(sq, "c4")', False),
    ("in_bounds(inf, 1000, -1000)", True),
    # players
    ("next_player(current)", 1),
    ("next_player(players[2])", 0),
    ("next_player(current, 2)", 2),
    ("next_player(current, 4)", 1),
    ("next_player(current, -1)", 2),
    ("players_from(current)", [0, 1, 2]),
    ("players_from(players[2])", [2, 0, 1]),
    ("players_from(1)", [1, 2, 0]),
]


@pytest.mark.parametrize("text, value", BUILTIN_CASES, ids=[c[0] for c in BUILTIN_CASES])
def test_builtins(gs, text, value):
    got = ev(gs, text)
    assert got == value
    if isinstance(value, bool) or value is None:
        assert got is value


def test_builtin_result_types(gs):
    assert isinstance(ev(gs, "next_player(current)"), Player)
    assert all(isinstance(p, Player) for p in ev(gs, "players_from(current)"))
    assert ev(gs, "owner_of(current.hand)").__class__ is Player
    assert all(isinstance(c, Cell) for c in ev(gs, "cells(sq)"))
    # cells of a bounded grid: row by row from the bottom, left to right
    assert [c.label for c in ev(gs, "cells(sq)")] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]


def test_random_int_and_shuffled_are_seeded(game):
    def draws(seed):
        g = new_state(game, players=2, seed=seed)
        return [evaluate(g, "random_int(1, 6)") for _ in range(30)], evaluate(g, "shuffled(range(10))")

    a, b, c = draws(11), draws(11), draws(12)
    assert a == b
    assert a != c
    assert all(1 <= x <= 6 for x in a[0]) and set(a[0]) == {1, 2, 3, 4, 5, 6}
    assert sorted(a[1]) == list(range(10)) and a[1] != list(range(10))


def test_random_int_advances_the_state_rng_only(gs):
    before = gs.state.rng.state
    ev(gs, "random_int(1, 6)")
    assert gs.state.rng.state != before
    assert ev(gs, "random_int(3, 3)") == 3


@pytest.mark.parametrize("text, fragment", [
    ("random_int(5, 1)", "random_int(): empty range 5..1"),
    ("min([])", "min(): empty list"),
    ('rotate("UP", 1)', "unknown direction 'UP'"),
    ('neighbor(cell(sq, "a1"), "UP")', "unknown direction 'UP'"),
    ('neighbor(5, "N")', "neighbor(): needs a cell, got the number 5"),
    ("adjacent(bag)", "adjacent(): needs a cell, got zone 'bag'"),
    ('adjacent(cell(sq, "a1"), adjacency: "spiral")', "unknown adjacency 'spiral'"),
    ('dirs("spiral")', "unknown adjacency 'spiral'"),
    ('distance(cell(sq, "a1"), cell(sq, "b1"), metric: "crow")', "unknown metric 'crow'"),
    ("cells(bag)", "cells(): needs a grid or graph zone, got zone 'bag'"),
    ('cell(sq, "zz")', "'zz' is not a cell label"),
    ("zone_of(3)", "zone_of(): needs a cell or piece, got the number 3"),
])
def test_builtin_errors(gs, text, fragment):
    err = rule_error(gs, text)
    assert fragment in str(err)
    assert err.findings[0].span is not None


def test_every_builtin_is_exercised():
    used = set()
    for text, _ in BUILTIN_CASES:
        used |= {n.func for n in parse_expr(text).walk() if isinstance(n, A.Call)}
    used |= {"random_int", "shuffled"}  # test_random_int_and_shuffled_are_seeded
    used |= {"uses"}  # tests/test_limits.py (the sampler declares no limit)
    assert set(FUNCTIONS) <= used, sorted(set(FUNCTIONS) - used)


# ---------------------------------------------------------------- geometry bugs

def test_direction_on_a_hex_grid(gs):
    assert ev(gs, 'direction(cell(hexb, "c3"), cell(hexb, "d3"))') == "E"
    assert ev(gs, 'direction(cell(hexb, "c3"), cell(hexb, "c4"))') == "NW"


def test_lines_on_a_hex_grid(gs):
    # 3-in-a-row runs on a 5x5 axial hex board, one way per axis: E (1,0): 15, NW (0,1): 15, NE (1,1): 9
    assert ev(gs, "count(lines(hexb, 3))") == 39


def test_hex_adjacency_keyword_on_a_square_grid_matches_a_hex_grid(gs):
    on_square = {c.pos for c in ev(gs, 'adjacent(cell(sq, "b2"), adjacency: "hex")')}
    on_hex = {c.pos for c in ev(gs, 'adjacent(cell(hexb, "b2"))')}
    assert on_square == on_hex == {(2, 1), (0, 1), (2, 2), (1, 2), (1, 0), (0, 0)}


@pytest.mark.parametrize("text, value", [
    ('cell(sq, "a0")', None),
    ('cell(inf, "a0") == cell(inf, 0, -1)', True),
    ('cell(inf, text(cell(inf, 5, -2))) == cell(inf, 5, -2)', True),
])
def test_cell_labels_round_trip(gs, text, value):
    assert ev(gs, text) is value


def test_line_of_zero_cells(gs):
    assert ev(gs, 'line(cell(sq, "a1"), "E", 0)') == []


@pytest.mark.parametrize("text, fragment", [
    ("1 + count([top(sq)])", "'sq' is a board"),
    ("count(5)", "cannot go through the number 5"),
    ("len(5)", "cannot go through the number 5"),
    ("first(5) == none", "cannot go through the number 5"),
])
def test_builtin_errors_from_helpers_are_located(gs, text, fragment):
    err = rule_error(gs, text)
    assert fragment in str(err)
    assert err.findings[0].span is not None


def test_sum_refuses_truth_values(gs):
    assert "needs numbers" in str(rule_error(gs, "true + true"))
    with pytest.raises(RuleError):
        ev(gs, "sum([true, true])")


# ===================================================================== statements (effects)

def test_let_assign_and_list_updates(gs):
    state, _ = run_effect(gs, """
        let n = 2
        n *= 5
        n -= 3
        counter = n
        log += 1
        log += [2, 3]
        log -= 2
        log += [[9]]
    """)
    assert state.vars["counter"] == 7
    assert state.vars["log"] == [1, 3, [9]]
    assert gs.state.vars["counter"] == 3  # the original state is untouched


def test_tracks_are_clamped(gs):
    state, _ = run_effect(gs, "heat += 100\ncurrent.score -= 4\nplayers[1].score = 25")
    assert state.vars["heat"] == 9
    assert state.pvars[0]["score"] == 0
    assert state.pvars[1]["score"] == 10


@pytest.mark.parametrize("text, fragment", [
    ("nothing = 1", "cannot assign to 'nothing'"),
    ("bag.size = 3", "cannot assign to attribute 'size' of zone 'bag'"),
    ('counter += "x"', "'+=' needs numbers"),
    ("repeat true { say 1 }", "repeat needs a number"),
    ("draw none from bag to pile", "draw needs a number"),
    ("create dragon in pile", "unknown piece kind 'dragon'"),
    ("create disc in sq", "'sq' is a board: pieces go into its cells"),
    ("move top(pile) to 5", "expected a place (a zone or a cell), got the number 5"),
    ("destroy 5", "expected a piece or a list of pieces, got the number 5"),
    ("call nosuch()", "unknown procedure 'nosuch'"),
])
def test_statement_errors(gs, text, fragment):
    with pytest.raises(RuleError) as info:
        run_effect(gs, text)
    assert fragment in str(info.value)


def test_if_elif_else_and_loops(gs):
    state, _ = run_effect(gs, """
        for x in range(6) where x % 2 == 1 {
          if x == 1 { log += "one" } elif x == 3 { log += "three" } else { log += "other" }
        }
        let i = 0
        while i < 3 { i += 1 }
        repeat i { counter += 10 }
        for p in players order by p.secret desc { log += p.seat }
    """)
    assert state.vars["log"] == ["one", "three", "other", 2, 1, 0]
    assert state.vars["counter"] == 33


def test_for_order_by_is_stable(gs):
    state, _ = run_effect(gs, "for x in [5, 1, 4, 2] order by x % 2 { log += x }")
    assert state.vars["log"] == [4, 2, 5, 1]


def test_procedures_and_say(gs):
    state, _ = run_effect(gs, 'call bump(4)\ncall bump(n: 1)\nsay "hello"\nsay current\nsay [1, 2]')
    assert state.vars["counter"] == 8
    assert state.msgs == ["hello", "Amber", "1, 2"]


def test_piece_statements(gs):
    state, _ = run_effect(gs, """
        create gem {hue: "red"} in pile as r
        create gem {hue: "blue"} in pile as b
        move b to pile at bottom
        log += [text(p) for p in pile.pieces]
        move r to vault
        draw 2 from bag to current.hand as got
        log += count(got)
        swap current.hand with players[1].hand
        destroy top(vault)
        let c = cell(sq, "b2")
        move pieces(cell(sq, "c3")) to c
        r.hue = "pink"
    """)
    assert state.vars["log"] == ["gem of blue", "gem of green", "gem of red", 2]
    view = Interp(state)
    assert view.ev(parse_expr("size(vault)"), {}) == 0
    assert view.ev(parse_expr("size(players[0].hand)"), {}) == 0
    assert view.ev(parse_expr("size(players[1].hand)"), {}) == 2
    assert view.ev(parse_expr("size(bag)"), {}) == 2
    assert view.ev(parse_expr('size(cell(sq, "b2"))'), {}) == 2
    assert view.ev(parse_expr('empty(cell(sq, "c3"))'), {}) is True
    # the moved stack keeps its order: bottom height 2, top height 3
    assert view.ev(parse_expr('top(cell(sq, "b2")).height'), {}) == 3
    assert len(state.contents(ZoneRef("__box__"))) == 1


def test_draw_stops_when_the_source_runs_out(gs):
    state, _ = run_effect(gs, "draw 10 from bag to pile as got\nlog += count(got)")
    assert state.vars["log"] == [4]
    assert len(state.contents(ZoneRef("pile"))) == 5


def test_while_loop_limit(game):
    g = new_state(type(game)(game.spec, Limits(loop=50)), players=2)
    with pytest.raises(RunawayError) as info:
        run_effect(g, "while true { counter += 1 }")
    assert isinstance(info.value, LimitError)
    assert "limit loop" in str(info.value)


def test_require_failure_carries_message(gs):
    with pytest.raises(RequireFailed) as info:
        run_effect(gs, 'require size(bag) > 10 else "the bag is too light"')
    assert info.value.message == "the bag is too light"
    with pytest.raises(RequireFailed) as info:
        run_effect(gs, "require false")
    assert "requirement" in info.value.message


# ===================================================================== work counted the same, cached or not

def _spent(gs, text):
    it = Interp(gs.state, gs.game.limits)
    before = it.loops
    value = it.ev(parse_expr(text), {})
    return value, it.loops - before


@pytest.mark.parametrize("text, expected, compared", [
    ('unique([cell(sq, "a1"), cell(sq, "a1"), cell(sq, "b1")])', [sq("a1"), sq("b1")], 0 + 1 + 1),  # a set
    ("unique([[1], [1], [2]])", [[1], [2]], 0 + 1 + 1),  # lists: compared one by one
    ("unique([1, true, 1, false, 0])", [1, True, False, 0], 0 + 1 + 2 + 2 + 3),  # true is not 1 either way
])
def test_unique_charges_its_comparisons_either_way(gs, text, expected, compared):
    """unique() is charged its items plus the comparisons a list scan makes, however it finds repeats."""
    value, spent = _spent(gs, text)
    assert value == expected and [type(v) for v in value] == [type(v) for v in expected]
    items, literal_cost = _spent(gs, text[len("unique("):-1])
    assert spent == literal_cost + len(items) + compared


def test_lines_charge_the_same_when_remembered(gs):
    first = _spent(gs, "lines(sq, 2)")
    second = _spent(gs, "lines(sq, 2)")
    assert first == second and first[1] > 0  # the second call is answered from the cache, and still paid for


def test_neighbours_on_an_unbounded_grid_are_remembered(gs):
    it = Interp(gs.state, gs.game.limits)
    a = it.ev(parse_expr("adjacent(cell(inf, 5, -2))"), {})
    assert sorted((c.x, c.y) for c in a) == [(4, -2), (5, -3), (5, -1), (6, -2)]
    assert it.ev(parse_expr("adjacent(cell(inf, 5, -2))"), {}) is a  # a cell's neighbours never change
    cells = it.ev(parse_expr("cells(inf)"), {})
    assert sorted((c.x, c.y) for c in cells) == [(-3, 4), (5, -2)]  # the occupied cells are never cached


@pytest.mark.parametrize("loop", [0, 5, 8, 9, 10])
def test_a_flood_counts_one_tick_per_cell_and_stops_at_the_limit(gs, loop):
    """connected() counts each cell it visits once (9 on the 3x3 board, whatever the seeds), charged as it goes:
    a limit below that stops it with the loop limit's message; with the neighbours remembered or not."""
    text = 'connected([cell(sq, "a1"), cell(sq, "b2"), cell(sq, "a1")], cells(sq))'
    cells_cost = _spent(gs, "cells(sq)")[1]
    for _ in range(2):  # the second flood reads the neighbours the first one kept
        it = Interp(gs.state, Limits(loop=cells_cost + loop))
        if loop < 9:
            with pytest.raises(RunawayError, match="loop iterations in one step") as info:
                it.ev(parse_expr(text), {})
            assert it.loops == cells_cost + loop + 1 and "limit loop" in str(info.value)
        else:
            assert len(it.ev(parse_expr(text), {})) == 9 and it.loops == cells_cost + 9


@pytest.mark.parametrize("text, expected", [
    ('cell(sq, "a1") in [1, "a1", [cell(sq, "a1")], cell(sq, "a1")]', True),
    ('cell(sq, "a1") in [1, "a1", [cell(sq, "a1")], cell(sq, "b1")]', False),  # not inside a nested list
    ('"a1" in [cell(sq, "a1"), ["a1"], true]', False),
    ('"a1" in [cell(sq, "a1"), "a1"]', True),
    ("1 in [true]", False),  # numbers take the careful path: true is not 1
    ("true in [1]", False),
    ("[1] in [[true], [1]]", True),
])
def test_membership_fast_and_careful_paths_agree(gs, text, expected):
    assert ev(gs, text) is expected


@pytest.mark.parametrize("text, x, expected", [
    ("x == 2", True, False),
    ("x != 2", True, True),
    ("x == 1", True, False),  # 0 and 1 take the careful path: true is not 1
    ("x != 0", False, True),
    ('x == "a"', ["a"], False),
    ('x == "a"', "a", True),
    ('x != "a"', None, True),
    ("x == 3", 3, True),
])
def test_comparing_with_a_literal(gs, text, x, expected):
    assert ev(gs, text, x=x) is expected
