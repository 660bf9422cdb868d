"""Static value shapes (interpreter/compiler/shapes.py): what they infer, what code they let the compiler skip, and that
the nested-items count and its loop charge stay the interpreter's exactly."""

from __future__ import annotations

import pytest

from conftest import make_game, new_state
from orrery.interpreter.reference.evaluator import Interp, Limits
from orrery.interpreter.engine.game import Game
from orrery.interpreter.compiler.shapes import Shapes, element, is_scalar, join
from orrery.rulespec.parser import parse_expr

# A made-up "bead tray": beads with a declared `cell` attribute (which shadows the built-in one), a table of
# rows, and functions that build flat lists, lists of pairs and lists of unknown values.
SPEC = """
orrery: 1
game: {name: bead-tray, players: {min: 2, max: 2}}
components:
  pieces:
    bead: {unlimited: true, attributes: {owner: player, cell: any}}
    pin: {unlimited: true, attributes: {owner: player}}
  zones:
    tray: {type: grid, width: 3, height: 3, adjacency: king}
tables:
  rows: {values: [[1, 2], [3], []]}
variables:
  bag: {start: "[[1, 2], [3, 4]]"}
functions:
  spots:
    expr: "[c for c in cells(tray) where c.x > 0]"
  steps:
    params: [n]
    expr: "[[a, b] for a in range(n) for b in [a, a + 1]]"
  copies:
    params: [v]
    expr: "[v, v]"
flow:
  phases:
    - name: main
      steps: [{actions: [put]}]
actions:
  put:
    params:
      spot: {from: cells(tray), where: empty(spot), why: taken}
    effect: "create pin {owner: current} in spot"
end:
  full:
    when: all(not empty(c) for c in cells(tray))
    winners: "[]"
"""


@pytest.fixture()
def game(tmp_path):
    return make_game(tmp_path, SPEC)


@pytest.mark.parametrize("text, local, shape", [
    ("3", {}, "int"),
    ("-3", {}, "int"),
    ("-x", {}, "flat"),                                     # x could be anything: a number or an error
    ("true", {}, "flat"),
    ("count(cells(tray)) + 1", {}, "int"),
    ('2 * len("ab") // 1 - size(tray) % 2', {}, "int"),
    ('1 + "a"', {}, "flat"),
    ("c.x", {"c": "cell"}, "int"),
    ("if t then 1 else 2", {}, "int"),
    ("if t then 1 else none", {}, "flat"),
    ('"a" + "b"', {}, "flat"),
    ("none", {}, "flat"),
    ("x", {}, None),                                        # a variable or parameter: anything
    ("x", {"x": "cell"}, "cell"),
    ("cells(tray)", {}, "list:cell"),
    ("pieces(tray)", {}, "list:piece"),
    ('pieces(c, kind: "pin")', {}, "list:piece"),
    ("lines(tray, 2)", {}, "list:list:cell"),
    ("groups(cells(tray))", {}, "list:list:?"),             # items of its argument, not by construction
    ("connected(c, cells(tray))", {}, None),
    ("[c.x for c in cells(tray)]", {}, "list:int"),
    ("[c for c in cells(tray) where not empty(c)]", {}, "list:cell"),
    ("[[c, neighbor(c, \"N\")] for c in cells(tray)]", {}, "list:list:cell"),
    ("[p.cell for p in pieces(tray)]", {}, "list:?"),       # declared by a kind: can hold anything
    ("[p.owner for p in pieces(tray)]", {}, "list:?"),      # a spec attribute
    ("[p.kind for p in pieces(tray)]", {}, "list:flat"),    # a built-in attribute nobody declares
    ("[q.next for q in players_from(current)]", {}, "list:player"),
    ("[top(c) for c in cells(tray)]", {}, "list:piece"),
    ("first(lines(tray, 2))", {}, "list:cell"),
    ("sorted(cells(tray))", {}, "list:cell"),
    ("max(cells(tray), default: [])", {}, None),            # the default could be anything
    ("max(1, 2)", {}, "int"),
    ("rows[0]", {}, None),                                  # table rows and records: anything
    ("if t then 1 else \"a\"", {}, "flat"),
    ("if t then [1] else cells(tray)", {}, "list:flat"),
    ("if t then 1 else [1]", {}, None),
    ("[]", {}, "list:flat"),
    ("spots()", {}, "list:cell"),                           # a spec function: its body, arguments unknown
    ("copies(3)", {}, "list:?"),                            # [v, v]: its parameter could be anything
    ("x + y", {}, None),                                    # lists add up to lists
    ("x < y", {}, "flat"),
])
def test_shapes_of_expressions(game, text, local, shape):
    assert Shapes(game.rules).of(parse_expr(text), local) == shape


def test_shape_helpers():
    assert element("list:list:cell") == "list:cell" and element("list:?") is None and element("cell") is None
    assert join("cell", "piece") == "flat" and join("list:cell", "list:flat") == "list:flat"
    assert join("cell", "list:cell") is None and is_scalar("zone") and not is_scalar("list:cell")


def test_generated_code_skips_the_count_only_where_no_item_can_be_a_list(game):
    lines = game.rules.compiled.source.splitlines()
    spec_lines = SPEC.splitlines()

    def body(name: str) -> str:
        """The generated line computing spec function `name`'s result (found by its rule's line number)."""
        at = spec_lines.index(f"  {name}:") + 1
        line_no = next(n for n in range(at, len(spec_lines)) if "expr:" in spec_lines[n]) + 1
        start = next(i for i, line in enumerate(lines) if line.startswith("def f") and f"# line {line_no} " in line)
        return next(line for line in lines[start:] if line.strip().startswith("r = "))

    spots, steps, copies = body("spots"), body("steps"), body("copies")
    assert "NEST" not in spots                       # cells: never lists
    assert "NESTF(" in steps and "NEST(" not in steps  # pairs of numbers: counted without a walk
    assert "NEST(" in copies                          # a parameter could be a list: the full walk


@pytest.mark.parametrize("limits", [
    Limits(), Limits(values=59), Limits(values=60),
    Limits(loop=39), Limits(loop=40), Limits(loop=41), Limits(loop=79), Limits(loop=80), Limits(loop=100),
    Limits(loop=101),
])
def test_counted_lists_keep_the_interpreters_limits_and_charges(game, limits):
    """`steps(10)` makes 20 pairs: 20 + 40 = 60 items, the pairs' 40 charged to the loop limit after the
    40 ticks of building them; the whole expression costs 101."""
    outcomes = []
    for mode in ("compiled", "interpreted"):
        g = Game(game.spec, limits, mode=mode)
        gs = new_state(g)
        it = Interp(gs.state, limits)
        try:
            value = it.ev(parse_expr("count(steps(10)) + count(copies(bag)) + count(spots())"), {})
            outcomes.append(("ok", value, it.loops))
        except Exception as exc:  # noqa: BLE001 - both engines must fail alike
            outcomes.append((type(exc).__name__, str(exc), it.loops))
    assert outcomes[0] == outcomes[1]
    if limits == Limits() or limits.values == 60 or limits.loop == 101:
        assert outcomes[0] == ("ok", 20 + 2 + 6, 101)
    elif limits.values == 59:
        assert "limit values" in outcomes[0][1]
    else:
        assert "limit loop" in outcomes[0][1]
