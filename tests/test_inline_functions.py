"""Spec functions written into their callers (compiler/inline.py): the fast path and the reference agree on
results, messages, locations and limits, and the generated source holds the inlined form."""

from __future__ import annotations

import re

import pytest

from conftest import make_game, new_state
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.engine.game import Game
from orrery.interpreter.reference.evaluator import Interp
from orrery.rulespec.parser import parse_expr

# A made-up "relay row".  Nesting of calls from an action's effect: `score_at` 3 (score_at > pair > held),
# `pair` 2, `held` 1; `row_score` walks the row (not small: remembered, called as a function);
# `countdown` is recursive (never inlined); `broken` fails at run time on its own line; `around` gives a
# list (a call in a comprehension's iterable).
SPEC = """
orrery: 1
game: {name: relay-row, players: {min: 2, max: 2}}
components:
  pieces:
    token: {unlimited: true, attributes: {owner: player}}
  zones:
    row: {type: grid, width: 5, height: 1, adjacency: orthogonal}
variables:
  tally: {start: 0}
  mode: {start: 0}
functions:
  held:
    params: [c, who]
    expr: c != none and not empty(c) and top(c).owner == who
  pair:
    params: [c, who]
    expr: held(c, who) and held(neighbor(c, "E"), who)
  score_at:
    params: [c]
    expr: if pair(c, current) then 2 else if held(c, current) then 1 else 0
  row_score:
    expr: sum([score_at(c) for c in cells(row)])
  countdown:
    params: [n]
    expr: if n <= 0 then 0 else 1 + countdown(n - 1)
  broken:
    params: [c]
    expr: c.x + "x"
  around:
    params: [c]
    expr: 'if c == none then [] else [c, neighbor(c, "E")]'
  first_of:
    params: [a, b]
    expr: if a >= 0 then a else b
flow:
  phases:
    - name: main
      steps: [{actions: [put]}]
actions:
  put:
    params:
      spot:
        from: cells(row)
        where: empty(spot) and not held(neighbor(spot, "W"), players[1])
        why: blocked
    effect: |
      create token {owner: current} in spot
      tally += score_at(spot)
      tally += first_of(count(x for x in [1, 2, 3]), count(y for y in [4, 5]))
      tally += count(z for z in around(neighbor(spot, "W")) where z != none)
      if mode == 1 {
        tally += countdown(3)
      }
      if mode == 2 {
        tally += row_score()
      }
      if mode == 3 {
        tally += broken(spot)
      }
      say text(score_at(spot)) + " " + text(held(c: spot, who: current))
end:
  paired:
    when: pair(cell(row, "a1"), players[0]) or tally >= 40
    winners: "[players[0]]"
"""

MOVES = ("a1", "c1", "b1", "d1", "e1")


@pytest.fixture(scope="module")
def specs(tmp_path_factory):
    """The spec with `mode` starting at 0..3 (0: the common calls; 1: recursion; 2: a remembered function;
    3: a run-time error)."""
    folder = tmp_path_factory.mktemp("inline")
    return [make_game(folder, SPEC.replace("mode: {start: 0}", f"mode: {{start: {m}}}")).spec for m in range(4)]


@pytest.fixture(scope="module")
def spec(specs):
    return specs[0]


def _play(spec, limits: Limits) -> list[tuple]:
    """The moves on each engine: (ok, digest, narration, tally, ended) or (error type, message)."""
    outcomes = []
    for engine in ("compiled", "interpreted"):
        try:
            gs = new_state(Game(spec, limits, mode=engine))
            for label in MOVES:
                if gs.is_terminal():
                    break
                gs.apply_label(label)
            outcomes.append(("ok", gs.state.digest(), list(gs.narration), gs.state.vars["tally"], gs.is_terminal()))
        except Exception as exc:  # noqa: BLE001 - both engines must fail alike
            outcomes.append((type(exc).__name__, str(exc)))
    return outcomes


@pytest.mark.parametrize("mode", [0, 1, 2])
@pytest.mark.parametrize("depth", range(1, 7))
def test_depth_limits_fail_where_the_reference_fails(specs, mode, depth):
    """Each emit_depth from too shallow for `held` to deeper than any call: the same result or message."""
    compiled, interpreted = _play(specs[mode], Limits(emit_depth=depth))
    assert compiled == interpreted
    deepest = {0: 3, 1: 4, 2: 4}[mode]  # score_at nests 3 calls; countdown(3) 4; row_score > score_at 4
    if depth >= deepest:
        assert compiled[0] == "ok"
    else:
        assert compiled[0] == "RunawayError" and "calls nested more than" in compiled[1]


@pytest.mark.parametrize("depth", [1, 3, 64])
def test_a_function_in_a_where_filter_and_an_end_condition(spec, depth):
    """The menu's `where` calls `held` (one level), the end condition `pair` (two), the effect `score_at`
    (three): the same menus, end and messages."""
    seen = []
    for engine in ("compiled", "interpreted"):
        try:
            gs = new_state(Game(spec, Limits(emit_depth=depth), mode=engine))
            gs.apply_label("a1")
            gs.apply_label("c1")
            menu = [o.label for o in gs.decision.options]
            gs.apply_label("b1")
            seen.append((menu, gs.is_terminal(), list(gs.narration)))
        except Exception as exc:  # noqa: BLE001 - both engines must fail alike
            seen.append((type(exc).__name__, str(exc)))
    assert seen[0] == seen[1]
    if depth >= 3:
        assert seen[0][0] == ["b1", "e1"] and seen[0][1]  # d1 lies east of the second player's c1; a1-b1 ends it
    else:
        assert "function 'held' calls nested more than 1 deep" in seen[0][1]  # pair's `held`: the first end check


def test_the_call_exactly_at_the_limit_and_one_past(spec):
    """score_at's innermost `held` is the third level: it runs at emit_depth 3 and stops at 2, in pair's body."""
    at_limit, _ = _play(spec, Limits(emit_depth=3))
    assert at_limit[0] == "ok"
    past, reference = _play(spec, Limits(emit_depth=2))
    assert past == reference
    assert f":{_line(spec, 'held(c, who) and')}:11: error: " in past[1]  # the first call of `held` in pair's body
    assert "function 'held' calls nested more than 2 deep" in past[1]


@pytest.mark.parametrize("loop", range(1, 30))
def test_loop_ticks_count_alike_in_argument_order(spec, loop):
    """Arguments are evaluated once each, in order: the tick that passes the loop limit is the same one."""
    compiled, interpreted = _play(spec, Limits(loop=loop))
    assert compiled == interpreted


def test_a_runtime_error_in_an_inlined_body_names_its_line(specs):
    spec = specs[3]
    compiled, interpreted = _play(spec, Limits())
    assert compiled == interpreted and compiled[0] == "RuleError"
    line = _line(spec, "c.x + ")
    assert f":{line}:" in compiled[1]


def test_recursion_is_not_inlined_and_agrees(specs):
    spec = specs[1]
    compiled, interpreted = _play(spec, Limits())
    assert compiled == interpreted and compiled[0] == "ok"
    source = Game(spec, mode="compiled").rules.compiled.source
    countdown = _function_source(source, _line(spec, "if n <= 0"), prefix="def f")
    name = countdown.split("(", 1)[0].removeprefix("def ")
    assert f"{name}(it, " in countdown.split("\n", 1)[1]  # calls itself, with its depth count
    assert "it.call_depth += 1" in countdown


@pytest.mark.parametrize("text", [
    'score_at(cell(row, "b1"))', 'pair(cell(row, "a1"), players[0])', "row_score()",
    'held(neighbor(cell(row, "a1"), "W"), players[0])', 'first_of(-1, count(x for x in [1, 2]))',
    '[score_at(c) for c in cells(row) where held(c, current)]', 'count(z for z in around(cell(row, "a1")))',
    '[count(z for z in around(c)) for c in cells(row)]', 'held(c: cell(row, "a1"), who: current)',
    'broken(cell(row, "b1"))', 'score_at(3)',
])
@pytest.mark.parametrize("limits", [Limits(), Limits(emit_depth=2), Limits(loop=3)])
def test_expressions_agree_after_moves(spec, text, limits):
    outcomes = []
    for engine in ("compiled", "interpreted"):
        gs = new_state(Game(spec, mode=engine))  # the moves under the default limits, the expression under these
        for label in ("a1", "c1", "b1"):
            gs.apply_label(label)
        it = Interp(gs.state, limits)
        try:
            value = it.ev(parse_expr(text), {})
            outcomes.append(("ok", it.label(value), it.loops, it.call_depth))
        except Exception as exc:  # noqa: BLE001 - both engines must fail alike
            outcomes.append((type(exc).__name__, str(exc), it.loops, it.call_depth))
    assert outcomes[0] == outcomes[1]


def test_the_source_holds_the_inlined_form(spec):
    source = Game(spec, mode="compiled").rules.compiled.source
    effect = _function_source(source, _line(spec, "create token"), prefix="def b")
    # score_at's three levels behind one guard, its argument bound once; the call of the function kept
    # only as the fallback where the guard fails
    assert "if it.call_depth + 3 <= it.limits.emit_depth else" in effect
    assert ":= " in effect
    where = _function_source(source, _line(spec, "where: empty(spot)"), prefix="def w")
    assert "it.call_depth + 1 <= it.limits.emit_depth" in where
    ends = [f for f in _functions(source) if f.startswith("def e") and f"line {_line(spec, 'when: pair')} " in f]
    assert ends and all("it.call_depth + 2 <= it.limits.emit_depth" in f for f in ends)
    # row_score is remembered (in it.memo: it reads `current`): still a function of its own, whose body
    # counts no depth below the guard
    row_score = _function_source(source, _line(spec, "expr: sum(["), prefix="def f")
    assert "MEMO_PUT" in row_score and "if it.call_depth + 4 <= it.limits.emit_depth:" in row_score


def test_a_label_calling_a_function_turns_inlining_off(tmp_path):
    text = SPEC.replace("token: {unlimited: true, attributes: {owner: player}}",
                        "token: {unlimited: true, attributes: {owner: player}, label: 'text(score_at(it.cell))'}")
    spec = make_game(tmp_path, text).spec
    # (no inlined region: none of its depth guards; `:=` alone no longer tells, piece attributes use it too)
    source = Game(spec, mode="compiled").rules.compiled.source
    assert not re.search(r"call_depth \+ \d+ <= it\.limits\.emit_depth else", source)
    for depth in (2, 3, 4):
        compiled, interpreted = _play(spec, Limits(emit_depth=depth))
        assert compiled == interpreted


# ---------------------------------------------------------------- helpers
def _line(spec, fragment: str) -> int:
    """The spec line holding a fragment of text."""
    text = open(spec.path, encoding="utf-8").read()
    return next(i + 1 for i, line in enumerate(text.splitlines()) if fragment in line)


def _functions(source: str) -> list[str]:
    """The generated functions, each as its source."""
    return [f if f.startswith("def ") else "def " + f for f in re.split(r"\n(?=def )", source) if "def " in f]


def _function_source(source: str, line: int, prefix: str = "def ") -> str:
    """The generated function whose header names a spec line."""
    return next(f for f in _functions(source) if f.startswith(prefix) and f.split("\n", 1)[0].count(f"line {line} "))
