"""Values that hold lists and records, end to end on both engines (the made-up game tests/specs/stall.yaml):
identical pieces whose attributes are lists or records are one menu entry (core/values.frozen makes the
merge key), a structured type takes a default however the long form is spelt (rulespec/models.AttrDecl),
and an expression written as a YAML block scalar (`expr: |`, ending in a newline) parses."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS, spec_findings
from test_differential import play_lockstep

from orrery.interpreter.core.values import PieceRef, Record, frozen
from orrery.interpreter.engine.game import Game
from orrery.rulespec.loader import load_spec
from orrery.rulespec.parser import parse_expr

STALL = SPECS / "stall.yaml"


@pytest.fixture(scope="module")
def stall():
    return load_spec(STALL)


@pytest.fixture(params=["compiled", "interpreted"])
def game(request, stall) -> Game:
    return Game(stall, mode=request.param)


def _menu(gs) -> list[str]:
    return [o.label for o in gs.legal_options()]


def test_identical_pieces_with_list_and_record_attributes_are_one_entry(game):
    gs = game.new_initial_state(players=2, seed=1)
    gs.apply_label("stamp")
    assert _menu(gs) == ["crate of 2 (2)", "crate of 1 (3)", "crate of 0 (1)"]  # 7 crates, 3 kinds of contents
    kept = [o.value for o in gs.legal_options()]
    assert all(isinstance(v, PieceRef) for v in kept) and len({gs.state.attrs[v.id]["goods"].__len__() for v in kept}) == 3


def test_a_piece_whose_list_changed_is_an_entry_of_its_own(game):
    gs = game.new_initial_state(players=2, seed=1)
    gs.apply_label("stamp")
    gs.apply_label("crate of 2 (2)")  # one of the three plums crates gets a third good
    gs.apply_label("stamp")
    assert _menu(gs) == ["crate of 3 (2)", "crate of 2 (2)", "crate of 1 (3)", "crate of 0 (1)"]


def test_the_stall_plays_the_same_on_both_engines(stall):
    fast, ref = Game(stall, mode="compiled"), Game(stall, mode="interpreted")
    steps = sum(play_lockstep(fast, ref, players, seed) for players in (2, 3) for seed in range(3))
    assert steps > 30


@pytest.mark.parametrize(("a", "b", "same"), [
    ([1, [2]], [1, [2]], True),
    (Record(a=[1], b=2), Record(b=2, a=[1]), True),       # fields in any order
    ([1], (1,), False),                                   # a list is not a tuple
    ([], Record(), False),                                # nor an empty list a record
    ({1, 2}, {2, 1}, True),
    (("kind", (("goods", [1, 1]),), 3), ("kind", (("goods", [1, 1]),), 3), True),   # a merge key
    (("kind", (("goods", [1, 1]),), 3), ("kind", (("goods", [1]),), 3), False),
])
def test_frozen_values_are_hashable_and_equal_for_equal_values(a, b, same):
    fa, fb = frozen(a), frozen(b)
    assert hash(fa) is not None and (fa == fb) is same
    assert frozen(5) == 5 and frozen("x") == "x"


def test_a_structured_type_in_type_is_the_same_declaration(stall):
    s = Game(stall, mode="interpreted").new_initial_state(players=2, seed=1).state
    husks = [i for i, k in enumerate(s.kinds) if k == "crate" and s.attrs[i]["tag"]["price"] == 1]
    assert husks and all(s.attrs[i]["goods"] == [] for i in husks)  # the default of {type: {list: int}, default: []}


def _with_goods(decl: str) -> str:
    return STALL.read_text(encoding="utf-8").replace("goods: {type: {list: int}, default: []}", f"goods: {decl}")


@pytest.mark.parametrize(("decl", "message"), [
    ("{type: {list: int}, default: [x]}", "'x' does not fit attribute 'goods' (a whole number)"),
    ("{type: {list: int}, default: 3}", "3 is not a list"),
    ("{type: {list: int, default: []}, default: []}", "'default' is given both inside `type:` and beside it"),
    ("{type: [1, 2], default: 3}", "3 is not a value of 'goods' (one of: 1, 2)"),
])
def test_a_structured_default_is_checked_against_its_type(tmp_path: Path, decl: str, message: str):
    found = spec_findings(tmp_path, _with_goods(decl))
    assert any(message in msg and sev == "error" for sev, _, msg, _ in found), found


def test_the_long_form_spelt_either_way_loads_the_same(tmp_path: Path):
    lifted = tmp_path / "a.yaml"
    lifted.write_text(_with_goods("{list: int, default: []}"), encoding="utf-8")
    a, b = load_spec(lifted), load_spec(STALL)
    ga, gb = (Game(x, mode="interpreted").new_initial_state(players=2, seed=4) for x in (a, b))
    assert ga.state.digest() == gb.state.digest()


@pytest.mark.parametrize("text", ["1 +\n  2\n", "match 3 {\n  3 => 1\n  _ => 2\n}\n", "x\n\n  \n"])
def test_an_expression_may_end_in_newlines(text: str):
    assert parse_expr(text) == parse_expr(text.rstrip())


def test_an_error_in_a_block_scalar_expression_keeps_its_place(tmp_path: Path):
    text = STALL.read_text(encoding="utf-8").replace("sum(c.goods) + len(c.tag.extras)", "sum(c.goods) +")
    found = spec_findings(tmp_path, text)
    assert [(sev, where) for sev, where, _, _ in found][:1] == [("error", "34:27")], found
