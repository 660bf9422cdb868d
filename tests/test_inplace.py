"""compiler/inplace.py: `empty`, `len`, `count`, `size`, `place_of` and `distance` written out in generated code
(and attributes read in place: a player's variable `who.gold` or zone `who.hand`, a piece's own attribute of a
value whose kind the generator cannot tell).

A made-up game whose functions call each of them; the source must hold the written-out form (no call of the
helper in the common case), and every value below, common or not, must give the same answer or the same
error on both engines, with the same loop count on success.
"""

from __future__ import annotations

import re

import pytest

from conftest import PUT_A_STONE, make_game, on_both_engines
from orrery.interpreter.compiler import codegen as compiler
from orrery.interpreter.engine.game import Game

SPEC = """
orrery: 1
game: {name: in-place-yard, players: {min: 2, max: 2}}
components:
  pieces:
    stone: {unlimited: true, attributes: {owner: player}}
  zones:
    board: {type: grid, width: 4, height: 3}
    comb: {type: grid, width: 3, height: 3, adjacency: hex}
    net: {type: graph, nodes: [a, b, c], edges: [[a, b], [b, c]]}
    pile: {}
    hand: {type: hand, per_player: true}
variables:
  gold: {per_player: true, start: "p.seat + 7"}
functions:
  purse:
    params: [x]
    expr: x.gold
  first_purse:
    expr: players[1].gold
  hand_of:
    params: [x]
    expr: x.hand
  first_hand:
    expr: players[1].hand
  owner_of_it:
    params: [x]
    expr: x.owner
  stones:
    params: [x]
    expr: count(x)
  height:
    params: [x]
    expr: size(x)
  length:
    params: [x]
    expr: len(x)
  far:
    params: [a, b]
    expr: distance(a, b)
  king:
    params: [a, b]
    expr: 'distance(a, b, metric: "king")'
  hexes:
    params: [a, b]
    expr: 'distance(a, b, metric: "hex")'
  free:
    params: [x]
    expr: empty(x)
  where:
    params: [x]
    expr: place_of(x)
""" + PUT_A_STONE

VALUES = ['top(cell(board, "b2"))', 'cell(board, "b2")', 'cell(board, "a1")', "[1, 2, 3]", "[]", '"abc"', "board", "pile", "none", "3",
          'cell(net, "a")', 'cell(comb, "c3")']


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    return make_game(tmp_path_factory.mktemp("inplace"), SPEC).spec


def test_the_common_cases_are_written_out(spec):
    # the general generator's forms (typedgen.py writes values of known types without the class checks)
    source = compiler.compile_rules(Game(spec, mode="compiled").rules).source
    assert re.search(r"LEN\(a\d+\) if \(a\d+ := a\d+\)\.__class__ is LIST else "
                     r"LEN\(it\.s\.places\.get\(a\d+\) or \(\)\) if a\d+\.__class__ is CELL else K\d+\(it, ", source)
    assert re.search(r"\(LEN\(it\.s\.places\.get\(a\d+\) or \(\)\) if \(a\d+ := a\d+\)\.__class__ is CELL else", source)
    assert re.search(r"\(LEN\(a\d+\) if \(a\d+ := a\d+\)\.__class__ is LIST else K\d+\(it, ", source)
    # distances without a call: the king metric's larger difference, the hex metric's halved sum
    assert re.search(r"\(a\d+ if \(a\d+ := \(a\d+ if \(a\d+ := a\d+\[0\] - a\d+\[0\]\) >= 0 else -a\d+\)\) >= "
                     r"\(a\d+ := \(a\d+ if \(a\d+ := a\d+\[1\] - a\d+\[1\]\) >= 0 else -a\d+\)\) else a\d+\)", source)
    assert ") // 2" in source and "ABS(" not in source and "MAX(" not in source
    assert re.search(r"\(\(not it\.s\.places\.get\(a\d+\)\) if a\d+\.__class__ is CELL else", source)
    assert re.search(r"\(it\.s\.pvars\[a\d+\]\.get\(K\d+\) if a\d+\.__class__ is PLAYER else GA\(it, a\d+", source)
    assert re.search(r"\(it\.s\.pvars\[a\d+\]\.get\(K\d+\) if \(a\d+ := IX\(", source)
    assert re.search(r"\(\(ZONE_REF\(\(K\d+, a\d+\)\) if a\d+\.__class__ is PLAYER else None\) or GA\(it, a\d+", source)
    assert re.search(r"\(\(ZONE_REF\(\(K\d+, a\d+\)\) if \(a\d+ := IX\(", source)
    assert re.search(r"\(a\d+\[K\d+\] if \(a\d+ := a\d+\)\.__class__ is PIECEREF and K\d+ in", source)
    assert re.search(r"\(it\.s\.loc\[a\d+\.id\] if \(a\d+ := a\d+\)\.__class__ is PIECEREF and 0 <= a\d+\.id < LEN", source)


@pytest.mark.parametrize("fn", ["stones", "height", "length", "free", "where"])
@pytest.mark.parametrize("value", VALUES)
def test_one_argument_built_ins_answer_as_the_interpreter(spec, fn, value):
    _same(spec, f"{fn}({value})")


@pytest.mark.parametrize("fn", ["far", "king", "hexes"])
@pytest.mark.parametrize("a, b", [
    ('cell(board, "a1")', 'cell(board, "d3")'), ('cell(board, "c1")', 'cell(board, "a3")'),
    ('cell(comb, "a1")', 'cell(comb, "c2")'), ('cell(comb, "c1")', 'cell(comb, "a3")'),
    ('cell(net, "a")', 'cell(net, "c")'), ('cell(board, "b2")', "none"), ("3", 'cell(board, "a1")'),
])
def test_distances_answer_as_the_interpreter(spec, fn, a, b):
    _same(spec, f"{fn}({a}, {b})")


@pytest.mark.parametrize("text", ["purse(current)", "purse(players[0])", "first_purse()", "purse(top(cell(board, \"b2\")))",
                                  'purse(cell(board, "a1"))', "purse(none)", "purse(3)"])
def test_player_variables_read_as_the_interpreter_reads_them(spec, text):
    _same(spec, text)


@pytest.mark.parametrize("fn", ["hand_of", "owner_of_it"])
@pytest.mark.parametrize("value", ["current", "players[0]", 'top(cell(board, "b2"))', 'cell(board, "b2")', "none", "3",
                                   "pile"])
def test_zones_and_attributes_of_unknown_values_read_as_the_interpreter_reads_them(spec, fn, value):
    _same(spec, f"{fn}({value})")


@pytest.mark.parametrize("square", ["b2", "a1", "c3"])
def test_each_piece_answers_with_its_own_attributes(spec, square):
    on_both_engines(spec, f'owner_of_it(top(cell(board, "{square}")))', moves=("b2", "a1"))


def test_a_players_zone_read_in_place_is_the_interned_reference(spec):
    _same(spec, "first_hand() == players[1].hand and first_hand() != players[0].hand")


def _same(spec, text: str) -> None:
    on_both_engines(spec, text, moves=("b2",))
