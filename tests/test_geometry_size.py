"""A grid's shape in rule text: `ZONE.width`/`ZONE.height`, `ray`, wrap-around neighbours, and the check that
rule text depending on a fixed size fails validation instead of playing wrong (made-up game
tests/specs/lighthouse.yaml and its variants), on both engines."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS, evaluate, new_state, seeded_trace

from orrery.interpreter.cli.main import main
from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

GAME = SPECS / "lighthouse.yaml"
WIDE = SPECS / "variants" / "lighthouse-wide.yaml"
STALE = SPECS / "variants" / "lighthouse-stale.yaml"


@pytest.mark.parametrize("variants, columns", [([], 5), ([WIDE], 7)])
def test_a_resized_board_plays_right_on_both_engines(variants, columns):
    spec = load_spec(GAME, variants)
    gs = Game(spec).new_initial_state(players=2, seed=0)
    assert [o.label for o in gs.decision.options] == [f"{c}1" for c in "abcdefg"[:columns]]
    for seed in range(3):
        traces = [seeded_trace(Game(spec, mode=mode), seed, 2, 40) for mode in ("compiled", "interpreted")]
        assert traces[0] == traces[1]
        assert traces[0][-1][1] is not None  # played to the end: the board full
    assert any(f"of {columns}" in line for line in traces[0][-2][5])


def test_a_variant_that_leaves_a_bare_size_behind_fails_validation(capsys):
    assert main(["validate", str(STALE)]) == 2
    err = capsys.readouterr()
    out = err.out + err.err
    assert "lighthouse-stale.yaml:8:26: error: 'board' is 7 wide here (a variant changed it from 5), but `x` " \
           "still goes through the 5 columns of range(5)" in out
    assert "hint: write range(board.width)" in out


def test_shape_reads_on_both_engines(engine):
    gs = new_state(Game(load_spec(GAME)), players=2)
    assert evaluate(gs, "[board.width, board.height]") == [5, 4]
    assert [c.label for c in evaluate(gs, 'ray(cell(board, "b1"), "N")')] == ["b2", "b3", "b4"]
    assert [c.label for c in evaluate(gs, 'adjacent(cell(board, "e2"), wrap: true)')] == ["e3", "a2", "e1", "d2"]


SIZES = """
orrery: 1
game: {name: sizes, players: {min: 1, max: 1}}
components:
  pieces:
    dot: {unlimited: true}
  zones:
    board: {type: grid, width: 5, height: 4}
    net: {type: graph, nodes: [a, b], edges: [[a, b]]}
    far: {type: grid, unbounded: true}
functions:
  spot_at:
    params: [col]
    expr: 'cell(board, col, 0)'
procedures:
  fill:
    params: [row]
    effect: |
      create dot in cell(board, 0, row)
flow:
  phases: [{name: main, steps: [{actions: [go]}]}]
actions:
  go:
    effect: |
      create dot in cell(board, "f9")
      create dot in cell(board, 5, -1)
      create dot in cell(net, "c")
      for x in range(6) { create dot in cell(board, x, 0) }
      let spots = [spot_at(x) for x in range(1, 7)]
      for y in range(5) { call fill(y) }
      create dot in cell(far, 99, -99)
      for x in range(3) { create dot in cell(board, x, 3) }
end:
  never: {when: "false", winners: "[]"}
"""


@pytest.mark.parametrize("fragment, line", [
    ("cell 'f9' is outside grid 'board' (5x4): cell() would give none", 25),
    ("x = 5 is off 'board', which is 5 wide (x = 0 to 4)", 26),
    ("y = -1 is off 'board', which is 4 high (y = 0 to 3)", 26),
    ("graph 'net' has no node 'c'", 27),
    ("`x` goes through 0 to 5 as the x of 'board', which is 5 wide", 28),
    ("`col` goes through 1 to 6 as the x of 'board', which is 5 wide", 14),   # through the function
    ("`row` goes through 0 to 4 as the y of 'board', which is 4 high", 19),   # through the procedure
])
def test_fixed_sizes_are_located_errors(tmp_path: Path, fragment: str, line: int):
    path = tmp_path / "sizes.yaml"
    path.write_text(SIZES, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    found = [f for f in err.value.findings if fragment in f.message]
    assert found, [f.message for f in err.value.findings]
    assert found[0].span.line == line
    assert len(err.value.findings) == 7  # an unbounded grid and a range inside the board are fine


def test_width_of_what_has_none_is_a_located_error(engine):
    gs = new_state(Game(load_spec(SPECS / "sampler.yaml", check=False)))  # has an unbounded grid `inf`
    with pytest.raises(Exception, match="zone 'inf' has no width: only a bounded grid has one"):
        evaluate(gs, "inf.width")
    with pytest.raises(Exception, match="zone 'net' has no height"):
        evaluate(gs, "net.height")
    with pytest.raises(Exception, match="wrap: must be true or false, got the number 1"):
        evaluate(gs, 'neighbor(cell(sq, "a1"), "W", wrap: 1)')
    with pytest.raises(Exception, match="ray\\(\\): needs a cell of a bounded grid"):
        evaluate(gs, 'ray(cell(inf, 0, 0), "N")')
