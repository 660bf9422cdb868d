"""Piece and call statements on the compiled fast path (CodeGen.operands): `move`, `destroy`, `create`,
`call` and attribute assignments compile their operands and hand the values to the interpreter's own
functions; results, errors, their order and the limits must be the interpreter's (made-up game)."""

from __future__ import annotations

import pytest

from conftest import make_game, new_state, run_effect
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.engine.game import Game

# A made-up "seed trays" game: a capped row of trays, a counted kind of marker, planting procedures (one
# calls itself down a count), player and piece attributes to write.
SPEC = """
orrery: 1
game: {name: seed-trays, players: {min: 2, max: 2}}
components:
  pieces:
    seed: {unlimited: true, attributes: {owner: player, size: {type: int, default: 1}}}
    marker: {count: 2, start: shed}
  zones:
    tray: {type: grid, width: 3, height: 1, capacity: 2}
    shed: {type: pile}
  tracks:
    grown: {}
variables:
  planted: {start: 0}
procedures:
  plant:
    params: [c, n]
    effect: |
      create seed {owner: current, size: n} in c
      planted += n
  plant_down:
    params: [c, n]
    effect: |
      if n > 0 {
        create seed {owner: current, size: n} in c
        call plant_down(c, n - 1)
      }
setup: |
  call plant(cell(tray, "a1"), 2)
flow:
  phases:
    - name: main
      steps: [{actions: [wait, rest]}]
actions:
  wait: {effect: "planted += 0"}
  rest: {effect: "planted += 0"}
end:
  never: {when: "false", winners: "[]"}
"""

EFFECTS = [
    'move top(cell(tray, "a1")) to cell(tray, "b1")',
    'move top(cell(tray, "a1")) to cell(tray, "a1")',
    'move pieces(shed) to cell(tray, "c1")',
    'move pieces(shed) to cell(tray, "a1")',  # over capacity: refused
    'move 3 to cell(tray, "b1")',  # not pieces: before the destination is looked at
    "move top(cell(tray, \"a1\")) to 7",
    'move 3 to 1 // 0',  # both operands wrong: the pieces are checked before the destination is evaluated
    'destroy top(cell(tray, "a1"))',
    "destroy pieces(shed)",
    "destroy 4",
    'create seed {owner: players[1], size: 5} in cell(tray, "b1") as s\nplanted = s.size',
    'create seed in cell(tray, "c1")',
    'create seed {size: 1 // 0} in 5',  # the attribute fails before the place is looked at
    'create seed {size: 3} in 5',
    'create seed in cell(tray, "a1")\ncreate seed in cell(tray, "a1")',  # capacity 2: the second is refused
    'create marker in shed',  # counted: refused before anything is evaluated
    'create ghost {size: 1 // 0} in shed',  # unknown kind: named before the attribute fails
    'call plant(cell(tray, "b1"), 4)',
    'call plant(c: cell(tray, "c1"), n: 2)',
    'call plant(cell(tray, "b1"), 1 // 0)',
    'call plant_down(cell(tray, "b1"), 2)',
    'call plant_down(shed, 30)',  # nests past emit_depth with small limits
    'call nowhere(1 // 0)',
    'current.grown += 3',
    'current.grown = "tall"',
    'top(cell(tray, "a1")).size += 4',
    'top(cell(tray, "a1")).owner = 1',
    'top(cell(tray, "a1")).size += "x"',
    'players.grown = 1 // 0',  # the value fails before the object is looked at
    'players[5].grown = 1 // 0',  # both fail: the value is evaluated (and fails) before the object
    'cell(tray, "a1").size = 2',
    # `for ... order by` written out (compiler/ordergen.py): keys in the domain's order, a stable sort
    'for s in pieces(tray) order by s.size desc { planted = planted * 10 + s.size }',
    'for x in [3, 1, 2, 1, 4] order by x % 2 { planted = planted * 10 + x }',
    'for x in [3, 1, 2, 1, 4] where x > 1 order by x % 2 desc { planted = planted * 10 + x }',
    'for c in cells(tray) where not empty(c) order by count(c) desc { planted += count(c) }',
    'for x in [2, 1, 3] order by 10 // (x - 1) { planted += x }',  # a key fails on the second item
    'for x in [1, "a", 2] order by x { planted += 1 }',  # keys that do not compare: a located error
    'for x in [5, 1, 4, 2, 3, 6] order by [y for y in [1, 2] where y < x] { planted = planted * 10 + x }',
]


def _run(spec, mode: str, text: str, limits: Limits) -> tuple:
    gs = new_state(Game(spec, limits, mode=mode))
    try:
        state, it = run_effect(gs, text)
        return ("ok", state.digest(), state.vars.get("planted"), it.loops, it.call_depth)
    except Exception as exc:  # noqa: BLE001 - both engines must fail alike
        return (type(exc).__name__, str(exc))


@pytest.mark.parametrize("limits", [Limits(), Limits(emit_depth=3), Limits(loop=3), Limits(pieces=4)])
@pytest.mark.parametrize("text", EFFECTS)
def test_statements_run_as_the_interpreter_runs_them(tmp_path, text, limits):
    spec = make_game(tmp_path, SPEC).spec
    compiled = _run(spec, "compiled", text, limits)
    assert compiled == _run(spec, "interpreted", text, limits)


def test_the_table_meets_each_kind_of_outcome(tmp_path):
    """Not vacuous: the effects above succeed, are refused, break a rule and meet each limit."""
    spec = make_game(tmp_path, SPEC).spec
    kinds = {_run(spec, "compiled", text, limits)[0] for text in EFFECTS
             for limits in (Limits(), Limits(emit_depth=3), Limits(pieces=4))}
    assert {"ok", "RequireFailed", "RuleError", "RunawayError"} <= kinds
    messages = " ".join(_run(spec, "compiled", t, Limits(emit_depth=3))[-1] for t in EFFECTS
                        if _run(spec, "compiled", t, Limits(emit_depth=3))[0] != "ok")
    assert "limit emit_depth" in messages and "can hold at most 2" in messages


def test_the_statements_are_compiled_not_handed_over(tmp_path):
    game = make_game(tmp_path, SPEC.replace('rest: {effect: "planted += 0"}',
                                            'rest: {effect: "for x in [2, 1] order by x { planted += x }"}'))
    source = game.rules.compiled.source
    assert "CALLW(it," in source and "CREATE(it," in source
    assert "for x in [2, 1] order by x" not in source and "keyed" in source  # (written out, not handed over)
