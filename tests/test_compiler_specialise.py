"""Specialised code in the compiled fast path: what the generator leaves out, and that leaving it out never
changes a result, a message or a limit (both engines on a made-up game)."""

from __future__ import annotations

import re

import pytest

from conftest import make_game, new_state, on_both_engines
from orrery.interpreter.compiler import codegen as compiler
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.engine.game import Game
from orrery.rulespec.parser import parse_expr

# A made-up "lantern row": `lit_at` is small and loop-free (cheap), `lit_count` walks the row, `glow` is
# true/false by construction, `level` is a number; `light` binds names in branches and loops.
SPEC = """
orrery: 1
game: {name: lantern-row, players: {min: 2, max: 2}}
components:
  pieces:
    lantern: {unlimited: true, attributes: {owner: player}}
  zones:
    row: {type: grid, width: 5, height: 1, adjacency: orthogonal}
    hand: {per_player: true}
    pile: {}
variables:
  flag: {start: false}
  label: {start: '"ab"'}
  total: {start: 0}
functions:
  lit_at:
    params: [c]
    expr: c != none and not empty(c)
  lit_pair:
    params: [c]
    expr: lit_at(c) and lit_at(neighbor(c, "E"))
  lit_count:
    expr: count(c for c in cells(row) where lit_at(c))
  glow:
    params: [c]
    expr: if lit_at(c) then true else lit_pair(c)
  level:
    params: [c]
    expr: if lit_at(c) then 1 else 0
setup: |
  create lantern {owner: 1} in players[1].hand
  create lantern {owner: 1} in players[1].hand
  create lantern {owner: 0} in pile
flow:
  phases:
    - name: main
      steps: [{actions: [light]}]
actions:
  light:
    params:
      spot: {from: cells(row), where: empty(spot), why: taken}
    effect: |
      create lantern {owner: current} in spot
      if flag {
        let seen = 1
      }
      if flag {
        total += seen
      }
      for c in cells(row) where glow(c) {
        let k = 2
        total += k
      }
      let n = lit_count()
      n += 1
      total = total + n
      say text(label) + text(n)
end:
  full:
    when: all(not empty(c) for c in cells(row))
    winners: "[]"
"""


@pytest.fixture()
def game(tmp_path):
    return make_game(tmp_path, SPEC)


def test_small_loop_free_functions_are_not_remembered(game):
    assert compiler.cheap(game.rules) == {"lit_at", "lit_pair", "glow", "level"}
    assert "lit_count" in compiler.memoisable(game.rules)


def test_true_false_functions_need_no_truth_check(game):
    source = compiler.compile_rules(game.rules).source
    gen = compiler.CodeGen(game.rules, set())
    assert gen.bool_function("lit_at") and gen.bool_function("glow") and gen.bool_function("lit_pair")
    assert not gen.bool_function("level") and not gen.bool_function("lit_count")
    assert "TB(" in source  # untyped, `if flag` still checks a variable's value
    # typed (typepass.py), `flag` holds true/false wherever it is set: no check
    assert "TB(" not in game.rules.compiled.source


def test_names_bound_above_are_read_directly(game):
    source = compiler.compile_rules(game.rules).source  # (the general generator's bookkeeping)
    start = next(i for i, line in enumerate(source.splitlines()) if line.startswith("def b"))
    lines = source.splitlines()[start:]
    lines = lines[:next(i for i, line in enumerate(lines) if not line.strip())]
    updates = [i for i, line in enumerate(lines) if "= CMB(it" in line]
    checked = [i for i in updates if lines[i - 1].strip().startswith("if ")]
    # `n += 1` (let above) direct; `total += k` and `total += seen` (a spec variable) checked
    assert len(updates) == 3 and len(checked) == 2
    say = next(line for line in lines if "SAY(" in line)
    assert "in env" not in say and "UNK(" not in say  # `n` read directly
    seen = next(line for line in lines if "= 1  #" in line and "val" not in line)
    assert seen.strip().startswith("env[")
    # `let seen` in one branch is bound there only: another branch reads it with the checked lookup
    assert any("UNK(" in line and line.strip().startswith("val") for line in lines)


@pytest.mark.parametrize("flag", ["false", "true"])
@pytest.mark.parametrize("limits", [Limits(), Limits(values=2), Limits(values=3), Limits(loop=6), Limits(loop=11),
                                    Limits(loop=12), Limits(emit_depth=1), Limits(emit_depth=2),
                                    Limits(emit_depth=3)])
def test_specialised_code_plays_like_the_interpreter(tmp_path, flag, limits):
    spec = make_game(tmp_path, SPEC.replace("flag: {start: false}", f"flag: {{start: {flag}}}")).spec
    outcomes = []
    for mode in ("compiled", "interpreted"):
        try:
            gs = new_state(Game(spec, limits, mode=mode))
            for label in ("b1", "c1", "a1"):
                gs.apply_label(label)
            outcomes.append(("ok", gs.state.digest(), list(gs.narration), gs.state.vars["total"]))
        except Exception as exc:  # noqa: BLE001 - both engines must fail alike
            outcomes.append((type(exc).__name__, str(exc)))
    assert outcomes[0] == outcomes[1]
    # (12 loop ticks in the longest stage, measured: ticks count per stage, nothing is replayed, and the
    # `say` counts against a budget of its own)
    if limits in (Limits(), Limits(values=3), Limits(loop=12), Limits(emit_depth=3)):
        assert outcomes[0][0] == "ok" and outcomes[0][3] == (24 if flag == "true" else 21)
        assert outcomes[0][2] == ["ab2", "ab3", "ab4"]
    elif limits == Limits(values=2):  # only the `say` makes a text of 3: the game goes on, the line tells why
        assert outcomes[0][0] == "ok" and outcomes[0][3] == (24 if flag == "true" else 21)
        assert all(line.startswith("(narration failed: ") and line.endswith("(limit values); raise it with "
                                                                             "--limit values=N)")
                   for line in outcomes[0][2]) and len(outcomes[0][2]) == 3
    else:
        assert "limit" in outcomes[0][1]


def _on_both_engines(game, text: str, limits: Limits = Limits(), moves: tuple[str, ...] = ()) -> list[tuple]:
    """`text` evaluated after `moves` on each engine (conftest.on_both_engines), the game played with `limits` too."""
    return on_both_engines(game.spec, text, moves, limits)


@pytest.mark.parametrize("loop", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("text", [
    "[c.x for c in cells(row)]", "[c for c in cells(row) where c.x < 2 or c.nope]",
    "[c.x + 1 for c in cells(row) where c.x != 3]", "[c for c in cells(row) where count(c) > 0]",
])
def test_ticks_counted_at_once_reach_the_limit_where_the_interpreter_does(game, text, loop):
    """A comprehension whose element and condition count no loop work (5 ticks over a 5-cell row; `cells`
    of a fixed board counts nothing) counts its ticks at once on the fast path; at and around the limit
    both engines fail or succeed alike, with the same count on success.  (`count` is not one of those
    built-ins: that comprehension ticks item by item, as before.)"""
    # (the game's own checks run with the default limits: only the expression has the small one)
    outcomes = on_both_engines(game.spec, text, ("b1",), Limits(loop=loop), play_limits=Limits())
    if "nope" in text:  # the third cell's condition fails unless the limit is met first, at its tick
        assert outcomes[0][0] == ("RunawayError" if loop < 3 else "RuleError")
    elif loop >= 5:
        assert outcomes[0][0] == "ok" and outcomes[0][3] == 5
    else:
        assert outcomes[0][0] == "RunawayError"


@pytest.mark.parametrize("loop", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("text, ticks, error", [
    ("any(c.x == 3 for c in cells(row))", 4, None), ("all(c.x < 2 for c in cells(row))", 3, None),
    ("any(c.x > 9 for c in cells(row))", 5, None), ("all(c.x < 9 for c in cells(row) where c.x != 1)", 5, None),
    ("any(c.nope for c in cells(row) where c.x > 1)", 3, "RuleError"),
])
def test_any_and_all_count_the_items_they_look_at_as_the_interpreter_does(game, text, ticks, error, loop):
    """any/all over a generator count one tick per item up to the one that decides, on both engines, and fail
    with the same error where the limit or the element fails first."""
    outcomes = on_both_engines(game.spec, text, ("b1",), Limits(loop=loop), play_limits=Limits())
    if loop < ticks:
        assert outcomes[0][0] == "RunawayError"
    elif error is not None:
        assert outcomes[0][0] == error
    else:
        assert outcomes[0][0] == "ok" and outcomes[0][3] == ticks


@pytest.mark.parametrize("text, limits", [
    ('text("abc")', Limits(values=2)), ('text("abc")', Limits(values=3)), ("text(12345)", Limits(loop=4)),
    ("text(12345)", Limits(loop=5)), ('text(cell(row, "a1"))', Limits()), ("text(level(none))", Limits()),
    ("text(flag)", Limits()), ("text(current)", Limits()), ('text([1, "a"])', Limits()),
])
def test_text_fast_path_matches_the_builtin(game, text, limits):
    _on_both_engines(game, text, limits)


@pytest.mark.parametrize("text", [
    'pieces(cell(row, "b1"))', 'pieces(cell(row, "b1"), kind: "lantern")', 'pieces(cell(row, "b1"), kind: "x")',
    'pieces(cell(row, "e1"), kind: "lantern")', "pieces(row)", 'pieces(row, kind: "lantern")',
    'pieces([cell(row, "b1"), cell(row, "c1")], kind: "lantern")', 'pieces(cell(row, "b1"), kind: 3)',
    'pieces(cell(row, "b1"), kind: none)', "pieces(3)",
])
def test_pieces_fast_path_matches_the_builtin(game, text):
    outcomes = _on_both_engines(game, text, moves=("b1", "c1"))
    if "b1" in text and "kind: \"lantern\"" in text:
        assert outcomes[0][0] == "ok" and outcomes[0][1]  # the lantern placed on b1 is listed


@pytest.mark.parametrize("text", [
    "count([1, 2, 3])", 'count(cell(row, "b1"))', 'count(cell(row, "e1"))', "count(row)", 'count("ab")', "count(3)",
    'size(cell(row, "b1"))', "size(row)", "size([1])",
    'place_of(top(cell(row, "b1")))', "place_of(3)", "place_of(none)",
    "first([])", "first([4, 5])", "first(row)", "last([4, 5])", "last([])",
    'len("abc")', "len([1, [2]])", "len(3)", "len(row)",
    "cells(row)", "cells(3)", 'zone_of(cell(row, "a1"))', 'zone_of(top(cell(row, "b1")))',
    "sum([1, 2, 3])", "sum([])", "sum([true])", "sum([current, 1])", "sum([1000000000000000000, 1000000000000000000])",
    "text(current)", "text(players[1])",
    # a player's zone (fastlib.get_attr), and sizes of zones that are not boards (fastlib._size)
    "current.hand", "players[1].hand", "[p.hand for p in players]", "size(players[1].hand)", "count(current.hand)",
    "size(pile)", "count(pile)", "size(players[1].hand) + size(pile) + size(row)", "current.hand == players[0].hand",
    "[size(p.hand) for p in players]", "first(players[1].hand).owner",
    'top(cell(row, "b1")).cell', 'top(cell(row, "b1")).place', 'top(cell(row, "b1")).kind',
    'top(cell(row, "b1")).owner', 'top(cell(row, "e1")).cell', "[m.cell for m in pieces(row)]",
])
def test_one_argument_fast_paths_match_the_builtins(game, text):
    _on_both_engines(game, text, moves=("b1",))


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_the_shared_players_list_is_never_changed(game, mode):
    from conftest import run_effect

    gs = new_state(Game(game.spec, mode=mode))
    shared = gs.state.players
    state, it = run_effect(gs, "let a = players\na += [players[0]]\na -= [players[1]]\nlet b = sorted(players)")
    assert shared == [0, 1] and state.players is shared and it.ev(parse_expr("count(players)"), {}) == 2


@pytest.mark.parametrize("text", [
    "count(cells(row)) >= 3", 'len("ab") == 2', "-count(cells(row)) < 0", "size(row) != 0",
    "count(cells(row)) * 1000000000000000000 * 1000000000000000000 > 1", "(1 // 0) < 2", "3 <= 1 // 0",
    "lit_count() + 1 > level(none)", 'cell(row, "a1").x == 0', "level(none) < none",
])
def test_comparisons_of_two_numbers_match_the_interpreter(game, text):
    _on_both_engines(game, text, moves=("b1",))


def test_two_numbers_compare_without_a_helper(game):
    """Counts, lengths, number literals and spec functions that always give a number (shapes.py "int")
    compare with Python's operators; a variable could hold anything and keeps the language's helper."""
    gen = compiler.CodeGen(game.rules, compiler.env_bound_names(game.rules))
    gen.fn_ids = {name: f"f_{name}" for name in game.rules.functions}
    for text in ("lit_count() >= 2", "count(cells(row)) >= 2", "level(none) + 1 != 2", "-len(\"ab\") < 0"):
        code = gen.expr(parse_expr(text))
        assert not any(h in code for h in ("GE(", "LT(", "EQ(")), (text, code)
    assert "EQ(" in gen.expr(parse_expr("level(none) == total"))
    assert "GE(" in gen.expr(parse_expr("total >= 2"))


@pytest.mark.parametrize("text", [
    "[empty(c) for c in cells(row)]", "[empty(z) for z in [row]]", "[empty(x) for x in [none]]",
    "[empty(x) for x in [3]]", '[empty(x) for x in ["b1"]]', "[empty(x) for x in [[]]]",
    "all(not empty(c) for c in cells(row))", "lit_at(none)", "lit_count()",
])
def test_empty_of_a_local_is_written_out_and_matches_the_builtin(game, text):
    """`empty(c)` of a comprehension variable or parameter: the cell case inline, anything else the built-in."""
    _on_both_engines(game, text, moves=("b1",))


def test_empty_of_a_local_is_inline_in_the_source(game):
    module = compiler.compile_rules(game.rules)
    assert "(not it.s.places.get(a" in module.source  # lit_at's parameter
    assert "(not it.s.places.get(v" in module.source  # the end condition's comprehension variable


@pytest.mark.parametrize("text", [
    'top(cell(row, "b1")).owner', 'top(cell(row, "e1")).owner', "top(row).owner", "top(none).owner", "top(3).owner",
    'top(cell(row, "b1")).nope', 'top(top(cell(row, "b1")).cell).owner', 'top(cell(row, "b1")).id',
    "[m.owner for m in pieces(row)]", "[m.kind for m in pieces(row)]", "[m.nope for m in pieces(row)]",
    "[m.cell for m in pieces(row)]", "[top(c).owner for c in cells(row) where not empty(c)]",
    "[top(c).owner for c in cells(row)]", '[x for x in [top(cell(row, "b1")).owner]]',
    "count(c for c in cells(row) where not empty(c) and top(c).owner == current)",
    '[m.owner for m in [top(cell(row, "b1")), none]]', '[m.owner for m in [top(cell(row, "b1")), 3]]',
])
def test_piece_attributes_read_in_place_match_the_builtins(game, text):
    """`top(c).name` and `m.name` of a piece-shaped value read the piece's own attribute dict in the
    generated code; every other case (an empty cell, a zone, none, an attribute the kind lacks, a built-in
    attribute) goes to the helpers and fails or answers as the interpreter does."""
    _on_both_engines(game, text, moves=("b1", "c1"))


def test_piece_attributes_are_read_in_place_in_the_source(game):
    gen = compiler.CodeGen(game.rules, compiler.env_bound_names(game.rules))
    gen.fn_ids = {name: f"f_{name}" for name in game.rules.functions}
    top = gen.expr(parse_expr('top(cell(row, "b1")).owner'))
    assert "it.s.attrs[" in top and top.index("it.s.attrs[") < top.index("GA(")  # the helper only as fallback
    each = gen.expr(parse_expr("[m.owner for m in pieces(row)]"))
    assert "it.s.attrs[" in each and "is PIECEREF" in each
    assert "it.s.attrs[" not in gen.expr(parse_expr("[x for x in [top(cell(row, \"b1\")).owner]]"))  # (no :=)


@pytest.mark.parametrize("text", [
    'empty(cell(row, "b1"))', 'empty(cell(row, "e1"))', "empty(row)", "empty(none)", "empty(3)", "empty([])",
    'empty("b1")', 'empty(top(cell(row, "b1")).cell)', '[x for x in [empty(cell(row, "b1"))]]',
    'count(c for c in cells(row) where empty(neighbor(c, "E")))',
])
def test_empty_of_any_argument_is_written_out_and_matches_the_builtin(game, text):
    """`empty(X)` of an expression that is not a local: X bound once to a local, the cell case inline."""
    _on_both_engines(game, text, moves=("b1",))


def test_empty_of_an_expression_binds_it_once_in_the_source(game):
    gen = compiler.CodeGen(game.rules, compiler.env_bound_names(game.rules))
    gen.fn_ids = {name: f"f_{name}" for name in game.rules.functions}
    code = gen.expr(parse_expr('empty(cell(row, "b1"))'))
    assert code.startswith("((not it.s.places.get(a") and code.count(":=") == 1


@pytest.mark.parametrize("name", ["current", "players", "num_players", "round", "turn", "first_player", "cascade",
                                  "phase", "[current, players[0], num_players + round + turn]"])
def test_special_names_read_in_place_match_the_interpreter(game, name):
    """`current`, `players` and the other names the engine supplies: the compiled path reads them from the
    state in place (rules.SPECIAL_SOURCE) instead of calling the rules' functions; same values, same types."""
    outcomes = _on_both_engines(game, name, moves=("b1", "c1", "d1"))
    assert outcomes[0][0] == "ok"


def test_special_names_compile_to_their_source(game):
    from orrery.interpreter.core.rules import SPECIAL_SOURCE

    gen = compiler.CodeGen(game.rules, compiler.env_bound_names(game.rules))
    assert SPECIAL_SOURCE["current"] in gen.expr(parse_expr("current"))
    assert SPECIAL_SOURCE.keys() <= {n for n, (kind, _) in game.rules.names.items() if kind == "special"}
