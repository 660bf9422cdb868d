"""The fast path's geometry tables (compiler/geotables.py): `neighbor`, `adjacent`, `cell` and `direction`
answered from per-rules dictionaries give exactly the built-ins' results, errors and loop counts, on a grid,
a hex grid, a wrapping grid, an unbounded grid and a graph; constant directions and zones read their table
inline. Also `distance`, whose fast path (compiler/fastlib.py) reads grid positions directly."""

from __future__ import annotations

import re

import pytest

from conftest import PUT_A_STONE, make_game, new_state
from orrery.interpreter.compiler import codegen as compiler
from orrery.interpreter.compiler.geotables import tables
from orrery.interpreter.core.values import Cell
from orrery.interpreter.engine.game import Game
from orrery.interpreter.reference.evaluator import Interp
from orrery.rulespec.parser import parse_expr

# A made-up game of boards only: each function passes its arguments as Python locals (the inline reads),
# the expressions below pass them as expressions (the helpers' reads) or as comprehension variables.
SPEC = """
orrery: 1
game: {name: geometry-yard, players: {min: 2, max: 2}}
components:
  pieces:
    stone: {unlimited: true, attributes: {owner: player}}
  zones:
    board: {type: grid, width: 4, height: 3, adjacency: king}
    comb: {type: grid, width: 3, height: 3, adjacency: hex}
    ring: {type: grid, width: 3, height: 2, wrap: true}
    sky: {type: grid, unbounded: true}
    net: {type: graph, nodes: [a, b, c], edges: [[a, b], [b, c]]}
functions:
  nb:
    params: [c, d]
    expr: neighbor(c, d)
  nb2:
    params: [c, d]
    expr: neighbor(c, d, 2)
  north:
    params: [c]
    expr: neighbor(c, "N")
  north3:
    params: [c]
    expr: neighbor(c, "N", 3)
  east0:
    params: [c]
    expr: neighbor(c, "E", 0)
  back:
    params: [c]
    expr: neighbor(c, "SW", -1)
  odd:
    params: [c]
    expr: neighbor(c, "Q")
  adj:
    params: [c]
    expr: adjacent(c)
  way:
    params: [a, b]
    expr: direction(a, b)
  board_at:
    params: [l]
    expr: cell(board, l)
  at_in:
    params: [z, l]
    expr: cell(z, l)
  up_right:
    params: [c]
    expr: nb(neighbor(c, "E"), "N")
""" + PUT_A_STONE

ALL_DIRS = '["N", "NE", "E", "SE", "S", "SW", "W", "NW"]'
HEX_DIRS = '["E", "W", "NE", "NW", "SE", "SW"]'
ZONES = ["board", "comb", "ring", "net"]

CASES = [
    # every cell and direction, distance 1, 2 and 3 (off the board included), as locals and as expressions
    *(f"[nb(c, d) for c in cells({z}) for d in {ds}]" for z, ds in (("board", ALL_DIRS), ("comb", HEX_DIRS),
                                                                    ("ring", ALL_DIRS))),
    *(f"[nb2(c, d) for c in cells({z}) for d in {ds}]" for z, ds in (("board", ALL_DIRS), ("comb", HEX_DIRS),
                                                                     ("ring", ALL_DIRS))),
    *(f"[neighbor(c, d, 3) for c in cells({z}) for d in {ALL_DIRS}]" for z in ("board", "ring")),
    f"[neighbor(c, d) for c in cells(comb) for d in {HEX_DIRS}]",
    *(f"[[north(c), north3(c), east0(c), back(c)] for c in cells({z})]" for z in ("board", "ring")),
    "[[east0(c), back(c)] for c in cells(comb)]", f"[neighbor(c, d) for c in cells(board) for d in {ALL_DIRS}]",
    '[neighbor(c, "S") for c in cells(board)]', '[neighbor(c, "NE", 2) for c in cells(ring)]',
    'neighbor(cell(board, "a1"), "N")', 'neighbor(cell(board, "a3"), "N")', 'neighbor(cell(board, "b2"), "SW", 1)',
    'neighbor(cell(comb, "b2"), "NW")', 'neighbor(cell(sky, "a1"), "S", 5)', 'north(cell(sky, "c3"))',
    '[neighbor(cell(sky, "b2"), d) for d in ["N", "E"]]', 'north(cell(comb, "b2"))', 'nb(cell(comb, "a1"), "N")',
    # bad arguments: the built-in's own message
    "north(none)", "north(3)", "north([1])", 'north("a1")', "north(board)", 'north(cell(net, "a"))',
    'odd(cell(board, "a1"))', 'neighbor(cell(board, "a1"), "Q")', 'nb(cell(board, "a1"), 3)',
    'nb(cell(board, "a1"), none)', 'nb(cell(board, "a1"), [1])', 'nb(none, "N")', 'nb([1], "N")',
    'neighbor(cell(board, "a1"), "N", "x")', 'neighbor(cell(board, "a1"), "N", true)',
    '[neighbor(c, d) for c in [3] for d in ["N"]]', '[neighbor(c, "N") for c in [[2]]]',
    '[[north(c) for c in cells(board)], north(none)]', '[[nb(c, "E") for c in cells(board)], nb(none, "E")]',
    '[neighbor(c, d) for c in cells(board) for d in [none]]', '[neighbor(c, d) for c in cells(board) for d in [[1]]]',
    # adjacent
    *(f"[adj(c) for c in cells({z})]" for z in ZONES),
    *(f"[adjacent(c) for c in cells({z})]" for z in ZONES),
    'adjacent(cell(board, "b2"))', 'adj(cell(sky, "b2"))', "adj(none)", "adj(3)", "adjacent([1])",
    '[adjacent(c) for c in [none]]', '[[adj(c) for c in cells(board)], adj(none)]',
    'adjacent(cell(board, "b2"), adjacency: "orthogonal")',
    # direction
    *(f"[way(a, b) for a in cells({z}) for b in cells({z})]" for z in ("board", "comb", "ring")),
    '[direction(a, b) for a in cells(board) for b in cells(board)]', '[way(a, b) for a in cells(net) for b in [none]]',
    'direction(cell(board, "a1"), cell(board, "b2"))', 'way(cell(board, "a1"), none)', 'way(none, cell(board, "a1"))',
    'way(cell(board, "a1"), 3)', 'way(3, 4)', 'way(cell(board, "a1"), cell(comb, "b1"))',
    '[direction(a, b) for a in [cell(board, "a1")] for b in [[1]]]',
    # distance (fastlib: grid positions read directly), every metric, as keyword, positional and variable
    *(f"[distance(a, b{m}) for a in cells({z}) for b in cells({z})]" for z in ("board", "comb", "ring")
      for m in ("", ', metric: "manhattan"', ', metric: "king"', ', metric: "hex"')),
    '[distance(a, b, metric: m) for a in cells(board) for b in [cell(board, "c2")] for m in ["king", "hex"]]',
    '[distance(a, b) for a in cells(net) for b in cells(net)]', 'distance(cell(net, "a"), cell(board, "c3"))',
    'distance(cell(board, "a1"), cell(board, "d3"), "king")', 'distance(cell(board, "a1"), cell(board, "d3"), metric: "q")',
    'distance(cell(board, "a1"), cell(board, "d3"), metric: 7)', 'distance(cell(board, "a1"), none)',
    "distance(3, 4)", 'distance(cell(board, "a1"))', 'distance(cell(sky, "c9"), cell(sky, "-a1"), metric: "king")',
    '[distance(c, cell(board, "a1"), metric: none) for c in cells(board)]',
    # connected (reads each cell's neighbours where `adjacent` remembers them)
    *(f"connected(first(cells({z})), cells({z}))" for z in ZONES),
    'connected([cell(board, "a1"), cell(board, "d3")], [c for c in cells(board) where c.x != 1])',
    'connected(cell(comb, "a1"), cells(comb), adjacency: "orthogonal")', 'connected(cell(board, "b2"), [])',
    'connected(cell(sky, "b2"), [cell(sky, "b2"), cell(sky, "b3"), cell(sky, "c4")])', "connected(none, cells(board))",
    # cell by label, on each kind of zone, with a constant and a variable zone
    '[board_at(l) for l in ["a1", "d3", "e1", "a4", "a0", "zz9", "b2"]]', 'board_at("??")', "board_at(3)",
    "board_at(none)", "board_at([1])", '[board_at(l) for l in ["-a1"]]',
    'cell(board, "c2")', 'cell(board, "z9")', 'cell(board, "x")', "cell(board, 7)",
    *(f'[at_in({z}, l) for l in ["a1", "b2", "c3", "-a1", "b9"]]' for z in ("board", "comb", "ring", "sky")),
    '[at_in(net, l) for l in ["a", "b", "c", "d", "a1"]]', '[at_in(z, "a") for z in [board, comb, ring, sky]]',
    '[cell(z, l) for z in [board, comb, ring, sky] for l in ["a1", "-b2", "c9"]]', 'at_in(sky, "-c2")',
    'at_in(none, "a1")', 'at_in(3, "a1")', 'at_in(board, [1])', 'at_in([board], "a1")', 'cell(sky, "b7")',
    'cell(net, "b")', 'cell(net, "q")', "cell(board, 1, 2)", "cell(board, 9, 2)",
    '[cell(z, l) for z in [net] for l in [[1]]]',
    # cell by coordinates (a table per zone, kept for unbounded grids too), numbers and anything else
    *(f"[cell({z}, x, y) for x in range(-1, 5) for y in range(-1, 4)]" for z in ("board", "comb", "ring", "sky")),
    "[cell(z, 1, 1) for z in [board, comb, ring, sky, net]]", 'cell(net, "a", 0)', "cell(board, true, 1)",
    "cell(board, 1, false)", 'cell(board, "1", 1)', "cell(board, none, 1)", "cell(none, 1, 1)", "cell(3, 1, 1)",
    "cell(board, [1], 1)", "cell(sky, 100000, -100000)",
]


def _both(spec, text: str) -> list[tuple]:
    """`text` evaluated twice (the second time from the tables) on each engine: results or errors, loops."""
    outcomes = []
    for mode in ("compiled", "interpreted"):
        gs = new_state(Game(spec, mode=mode))
        gs.apply_label("b2")
        seen = []
        for _ in range(2):
            it = Interp(gs.state, gs.game.limits)
            try:
                value = it.ev(parse_expr(text), {})
                seen.append(("ok", it.label(value), type(value).__name__, it.loops))
            except Exception as exc:  # noqa: BLE001 - both engines must fail alike
                seen.append((type(exc).__name__, str(exc)))  # (the count after an error ends a step: not compared)
        outcomes.append(seen)
    assert outcomes[0] == outcomes[1], text
    return outcomes[0]


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    return make_game(tmp_path_factory.mktemp("geo"), SPEC).spec


@pytest.mark.parametrize("text", CASES)
def test_tables_match_the_builtins(spec, text):
    first, again = _both(spec, text)
    assert first == again


def test_bad_arguments_keep_the_builtins_messages(spec):
    """Located at the call in the spec, as the interpreter locates them."""
    assert ":34:11: error: neighbor(): unknown direction 'Q'" in _both(spec, 'odd(cell(board, "a1"))')[0][1]
    assert ":22:11: error: neighbor(): needs a cell, got none" in _both(spec, "north(none)")[0][1]
    assert "cell(): '??' is not a cell label" in _both(spec, 'board_at("??")')[0][1]


def test_tables_fill_with_fixed_geometry_only(spec):
    game = Game(spec, mode="compiled")
    gs = new_state(game)
    it = Interp(gs.state, game.limits)
    for text in ('[nb(c, "E") for c in cells(board)]', 'board_at("b2")', 'at_in(sky, "b2")', 'at_in(net, "b")',
                 'north(cell(board, "a1"))', "north(none)", 'odd(cell(board, "a1"))'):
        try:
            it.ev(parse_expr(text), {})
        except Exception:  # noqa: BLE001 - errors are never kept
            pass
    store = tables(game.rules)
    a1, a2, b2, d1 = (Cell("board", None, pos) for pos in ((0, 0), (0, 1), (1, 1), (3, 0)))
    east = store[("neighbor", 1)]["E"]
    assert len(east) == 12 and east[d1] is None and east[a1] is Cell("board", None, (1, 0))
    assert store[("neighbor", 1)]["N"] == {a1: a2}
    assert not store[("neighbor", 1)].get("Q")  # errors are not kept
    by_zone = {z.name: t for z, t in store[("cell",)].items()}
    assert by_zone["board"] == {"b2": b2, "a1": a1}
    assert not by_zone.get("sky")  # an unbounded zone's cells are not fixed
    assert by_zone["net"] == {"b": Cell("net", None, "b")}


def test_constant_directions_and_zones_read_their_table_inline(spec):
    game = Game(spec, mode="compiled")
    source = compiler.compile_rules(game.rules).source

    def body(fn: str) -> str:
        params = len(game.rules.functions[fn][0])
        bodies = re.findall(r"def f\d+\(it, span(?:, a\d+){%d}\):  # line (\d+) col \d+\n(.*?)\n\n" % params,
                            source, re.S)
        line = game.rules.functions[fn][1].span.line
        return next(text for at, text in bodies if int(at) == line)

    for fn in ("north", "north3", "adj"):
        assert re.search(r"\(K\d+\[a\d+\] if a\d+\.__class__ is CELL and a\d+ in K\d+ else K\d+\(it, ", body(fn)), fn
    assert re.search(r"\(K\d+\[a\d+\] if a\d+\.__class__ is STR and a\d+ in K\d+ else", body("board_at"))
    for fn in ("nb", "nb2", "way"):
        assert re.search(r"\(K\d+\[a\d+\]\[a\d+\] if ", body(fn)), fn
    assert "CB(" not in source  # no geometry call left on the generic built-in path


def test_a_constant_direction_passed_to_a_function_picks_its_table_in_the_source(spec):
    """`nb(x, "N")` written into its caller: the direction is a constant there, so the table for "N" is chosen
    at compile time and the cell, held in a local, is looked up in it inline (no table of tables read)."""
    from orrery.interpreter.compiler.analysis import cheap

    game = Game(spec, mode="compiled")
    gen = compiler.CodeGen(game.rules, compiler.env_bound_names(game.rules))
    gen.fn_ids = {name: f"f_{name}" for name in game.rules.functions}
    gen.set_inlining(cheap(game.rules))
    code = gen.expr(parse_expr('up_right(cell(board, "a1"))'))
    inlined = code[:code.index(" if it.call_depth")]
    north = tables(game.rules)[("neighbor", 1)]["N"]
    picked = re.findall(r"\(K(\d+)\[(a\d+)\] if \2\.__class__ is CELL and \2 in K\1 else K\d+\(it, ", inlined)
    assert any(gen.consts[int(k)] is north for k, _ in picked), inlined
    assert "][" not in inlined  # no lookup of the direction at run time
    assert _both(spec, 'up_right(cell(board, "a1"))')[0][1] == "b2"


def test_distance_with_a_metric_takes_the_fast_path(spec):
    game = Game(spec, mode="compiled")
    gen = compiler.CodeGen(game.rules, compiler.env_bound_names(game.rules))
    code = gen.expr(parse_expr('distance(cell(board, "a1"), cell(board, "c2"), metric: "king")'))
    assert "CB(" not in code and "metric=K" in code, code  # the built-in is reached only as its fallback


def test_the_benchmark_compiles_a_game_without_tables():
    """benchmarks/geometry_tables.py turns the tables off through call_source, and puts it back."""
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:  # `benchmarks/` sits beside the engine, outside the installed package
        sys.path.insert(0, root)
    from benchmarks import geometry_tables as bench
    from orrery.interpreter.compiler import geotables

    real = geotables.call_source
    old = bench.without_tables("connect-four").rules.compiled.source
    assert geotables.call_source is real
    assert "is STR and" not in old and "is STR and" in compiler.compile_rules(Game.load(
        Path(root) / "games" / "connect-four" / "rules.yaml", mode="compiled").rules).source
    seconds, gain = bench.measure("connect-four", 2, 1, 2)
    assert seconds > 0 and gain > 0
