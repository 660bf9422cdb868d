"""The compiled fast path: generated source is safe and inspectable, errors point at rules, caches are sound."""

from __future__ import annotations

import re

import pytest

from conftest import make_game, new_state, run_effect
from orrery.interpreter.compiler import codegen as compiler
from orrery.interpreter.cli.main import main
from orrery.interpreter.core.decisions import RuleError
from orrery.interpreter.reference.evaluator import Interp
from orrery.interpreter.core.values import Cell
from orrery.interpreter.engine.driver import GameState
from orrery.rulespec.parser import parse_expr

# A made-up "token line": strings and names chosen to look like Python to a careless code generator.
SPEC = """
orrery: 1
game: {name: token-line, players: {min: 2, max: 2}}
components:
  pieces:
    token: {unlimited: true, attributes: {owner: player}}
  zones:
    row: {type: grid, width: 4, height: 1, adjacency: orthogonal}
variables:
  note:
    start: >-
      "__import__('os').system('echo pwned')"
  __class__x: {start: 0}
functions:
  owned:
    params: [c]
    expr: not empty(c) and top(c).owner == current
flow:
  phases:
    - name: main
      steps: [{actions: [put]}]
actions:
  put:
    params:
      spot: {from: cells(row), where: empty(spot), why: taken}
    effect: |
      create token {owner: current} in spot
      say "'); import os; os.system('echo pwned'); ('" + text(spot)
      __class__x += 1
end:
  full:
    when: all(not empty(c) for c in cells(row))
    winners: "[]"
"""


@pytest.fixture()
def game(tmp_path):
    return make_game(tmp_path, SPEC)


def test_spec_text_never_enters_the_generated_source(game):
    source = game.rules.compiled.source
    for text in ("__import__", "os.system", "pwned", "__class__x", "owned", "token", "spot"):
        assert text not in source, text
    compile(source, "<check>", "exec")  # and it is plain, valid Python


def test_generated_code_has_no_python_builtins(game):
    fn = next(iter(game.rules.compiled.fns.values()))
    assert set(fn.__globals__["__builtins__"]) == {"list", "range", "enumerate", "TypeError"}


def test_hostile_strings_are_just_values(game):
    gs = new_state(game)
    gs.apply_label("a1")
    assert gs.narration[-1].startswith("'); import os")
    assert gs.state.vars["__class__x"] == 1


def test_every_line_maps_back_to_a_rule(game):
    module = game.rules.compiled
    defs = [i + 1 for i, line in enumerate(module.source.splitlines()) if line.startswith("def ")]
    assert defs
    for lineno in defs:
        span = module.where(lineno)
        assert span is not None and span.file.endswith(".yaml") and span.line > 0


def test_compiled_errors_name_the_rule_like_the_interpreter(tmp_path):
    text = SPEC.replace("__class__x += 1", 'let bad = current + "x"')
    messages = []
    g = make_game(tmp_path, text)
    for mode in ("compiled", "interpreted"):
        g2 = type(g)(g.spec, mode=mode)
        gs = new_state(g2)
        with pytest.raises(RuleError) as info:
            gs.apply_label("a1")
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "needs numbers" in messages[0] and ".yaml:" in messages[0]


def test_code_objects_are_cached_by_source(tmp_path):
    a = make_game(tmp_path, SPEC)
    b = make_game(tmp_path, SPEC)  # another file, same rules: same generated source, one compile()
    fa = next(iter(a.rules.compiled.fns.values()))
    fb = next(iter(b.rules.compiled.fns.values()))
    assert a.rules.compiled.source == b.rules.compiled.source
    assert fa.__code__ is fb.__code__ and fa is not fb


def test_late_nodes_are_compiled_and_kept(game):
    gs = new_state(game)
    node = parse_expr("count(x for x in [1, 2, 3] where x > 1)")
    assert Interp(gs.state, game.limits).ev(node, {}) == 2
    assert id(node) in game.rules.compiled.fns and node in game.rules.compiled.keep


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_any_and_all_stop_at_the_deciding_item(tmp_path, mode):
    g = make_game(tmp_path, SPEC)
    g = type(g)(g.spec, mode=mode)
    gs = new_state(g)
    it = Interp(gs.state, g.limits)
    assert it.ev(parse_expr('any(x > 0 for x in [1, "a"])'), {}) is True
    assert it.ev(parse_expr('all(x > 5 for x in [1, "a"])'), {}) is False
    with pytest.raises(RuleError):
        it.ev(parse_expr('any(x > 5 for x in [1, "a"])'), {})


def test_geometry_cache_results_are_shared_but_never_changed(game):
    gs = new_state(game)
    state, _ = run_effect(gs, "let a = lines(row, 2)\nlet b = a + [[cell(row, \"a1\")]]\nlet c = lines(row, 2)")
    it = Interp(gs.state, game.limits)
    first = it.ev(parse_expr("lines(row, 2)"), {})
    assert len(first) == 3 and it.ev(parse_expr("lines(row, 2)"), {}) is first


def test_compile_command_shows_the_source(capsys, tmp_path):
    assert main(["compile", "tic-tac-toe"]) == 0
    assert "lines of Python" in capsys.readouterr().out
    assert main(["compile", "bubble-singularity"]) == 0  # (its effects that may ask are generated steps)
    counts = re.search(r"(\d+) effect\(s\) that may ask, (\d+) loop\(s\) and (\d+) action\(s\) as resumable steps",
                       capsys.readouterr().out)
    assert counts and all(int(n) > 0 for n in counts.groups())  # the game's asking parts, counted (not exact: it changes)
    for flag in ("--source", "--show-source"):  # --source as issue 17 names it; --show-source as before
        assert main(["compile", "tic-tac-toe", flag]) == 0
        out = capsys.readouterr().out
        assert out.startswith("def ") and "# line" in out


def test_bench_command_reports_both_engines(capsys):
    import json

    assert main(["bench", "tic-tac-toe", "--seconds", "0.2", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["mode"] for r in rows] == ["compiled", "interpreted"]
    for r in rows:
        assert set(r) >= {"game", "mode", "playouts", "seconds", "playouts_per_s", "steps_per_s"}
        assert r["playouts"] >= 1 and r["playouts_per_s"] > 0


def test_bench_rejects_bad_seconds(capsys):
    assert main(["bench", "tic-tac-toe", "--seconds", "0"]) == 2
    assert "--seconds" in capsys.readouterr().err


def test_generated_source_is_run_in_one_place_only():
    """The one exec of generated source is compiler/link.py's; nothing in the engine calls eval."""
    import re
    from pathlib import Path

    root = Path(compiler.__file__).resolve().parents[1]
    calls = {}
    for path in sorted(root.rglob("*.py")):
        code = "\n".join(line.split("#")[0] for line in path.read_text(encoding="utf-8").splitlines())
        for name in ("eval", "exec", "compile"):
            n = len(re.findall(rf"(?<![\w.]){name}\(", code))
            if n:
                calls[(path.relative_to(root).as_posix(), name)] = n
    assert calls == {("compiler/link.py", "exec"): 1, ("compiler/link.py", "compile"): 1}


# A made-up "lamp row": a lamp lights when the shared check (a pure function, remembered during a
# cascade scan on the compiled path) says so; the check costs loop ticks, so a low loop limit must
# stop both engines at the same place with the same message.
LAMPS = """
orrery: 1
game: {name: lamp-row, players: {min: 1, max: 1}}
components:
  pieces:
    lamp: {unlimited: true}
  zones:
    row: {type: grid, width: 6, height: 1, adjacency: orthogonal}
functions:
  costly:
    params: [n]
    expr: count(x for x in range(n) where x >= 0) == n
variables:
  lit: {start: 0}
flow:
  phases:
    - name: main
      steps: [{actions: [go]}]
actions:
  go:
    effect: |
      lit += 1
      settle
triggers:
  light:
    for: c in cells(row)
    when: costly(5) and empty(c) and lit < 4
    effect: |
      create lamp in c
      lit += 1
end:
  done:
    when: lit >= 4
    winners: "[]"
"""


@pytest.mark.parametrize("loop", [10, 37, 61, 2_000_000])
def test_remembered_function_results_keep_loop_limit_errors_identical(tmp_path, loop):
    from orrery.interpreter.core.valueops import Limits
    from orrery.interpreter.engine.game import Game

    spec = make_game(tmp_path, LAMPS).spec
    outcomes = []
    for mode in ("compiled", "interpreted"):
        g = Game(spec, Limits(loop=loop), mode=mode)
        try:
            gs = new_state(g, players=1)
            outcomes.append(("ok", gs.state.digest(), gs.is_terminal()))
        except Exception as exc:  # noqa: BLE001 - the point is that both engines fail identically
            outcomes.append((type(exc).__name__, str(exc)))
    assert outcomes[0] == outcomes[1]
    if loop == 2_000_000:
        assert outcomes[0][0] == "ok" and outcomes[0][2] is True
    else:
        assert outcomes[0][0] != "ok" and "limit loop" in outcomes[0][1]


# A made-up "peg yard": `crowded` reads where pegs are and `with_bonus` also a variable, so the compiled path
# remembers both in the state until a peg moves or a variable is set (the state's version); `late` reads
# whose turn it is, which the version does not follow, so it is remembered only while a menu is filtered.
PEGS = """
orrery: 1
game: {name: peg-yard, players: {min: 1, max: 1}}
components:
  pieces:
    peg: {unlimited: true}
  zones:
    yard: {type: grid, width: 4, height: 4, adjacency: orthogonal}
    shed: {type: pile}
variables:
  bonus: {start: 0}
functions:
  crowded:
    params: [c]
    expr: count(n for n in adjacent(c) where not empty(n))
  with_bonus:
    params: [c]
    expr: crowded(c) + bonus
  late:
    params: [c]
    expr: with_bonus(c) + turn
flow:
  phases:
    - name: main
      steps: [{actions: [put, lift]}]
actions:
  put:
    params:
      spot: {from: cells(yard), where: "empty(spot) and with_bonus(spot) < 4 and crowded(spot) < 3 and late(spot) < 99", why: crowded}
    effect: |
      create peg in spot
      bonus += 1
  lift:
    condition: count(pieces(yard)) > 0
    params:
      spot: {from: "[c for c in cells(yard) where not empty(c)]", where: crowded(spot) < 4}
    effect: |
      move top(spot) to shed
      bonus -= 1
end:
  tired:
    when: "count(pieces(shed)) >= 5"
    winners: "[]"
"""


def test_functions_of_the_pieces_alone_are_remembered_by_clock(tmp_path):
    game = make_game(tmp_path, PEGS)
    assert compiler.placebound(game.rules, compiler.memoisable(game.rules)) == {"crowded", "with_bonus"}
    gs = GameState.start(game, 1, 1)  # (a fresh start: a copy of the prepared start keeps no remembered values)
    assert gs.game.mode == "compiled"
    kept = {k[0] for k in gs.state.derived if isinstance(k, tuple) and k and isinstance(k[0], str)}
    assert kept >= {"crowded", "with_bonus"} and "late" not in kept  # the first menu asked them
    clock = gs.state.version
    assert all(entry[0] == clock for key, entry in gs.state.derived.items() if key[0] == "crowded")
    b1 = Cell("yard", None, (1, 0))
    assert gs.state.derived[("crowded", b1)][1][0] == 0
    assert gs.state.derived[("with_bonus", b1)][1][0] == 0
    a1 = Cell("yard", None, (0, 0))
    gs.apply_label("a1")
    assert gs.state.version > clock  # the peg and the bonus moved the version: every entry is out of date
    # the next step menu (put or lift) works out put's menu at once; a1 now holds a peg, so `empty(spot)`
    # decides it and with_bonus(a1) is not asked at the new version (an entry from before, if the run
    # replayed the first menu, keeps the old version and is not used)
    entry = gs.state.derived.get(("with_bonus", a1))
    assert entry is None or entry[0] == clock < gs.state.version
    assert gs.state.derived[("crowded", b1)][0] == gs.state.version  # b1 is empty: asked again
    gs.apply_label("put")
    # the menu asked again and got the new values (an entry keeps the version it was computed at)
    clock_then, (value, _) = gs.state.derived[("crowded", b1)]
    assert clock_then == gs.state.version and value == 1
    assert gs.state.derived[("with_bonus", b1)] == (gs.state.version, (2, gs.state.derived[("with_bonus", b1)][1][1]))


@pytest.mark.parametrize("seed", range(4))
def test_remembered_by_clock_plays_like_the_interpreter(tmp_path, seed):
    """Whole games, answer by answer: menus, refusals and states agree between the engines."""
    from orrery.interpreter.engine.game import Game

    spec = make_game(tmp_path, PEGS).spec
    games = [Game(spec, mode=m).new_initial_state(players=1, seed=seed) for m in ("compiled", "interpreted")]
    for step in range(200):
        views = [(g.state.digest(), [o.label for o in g.legal_options()], sorted(g.decision.reasons.items())
                  if g.decision else None) for g in games]
        assert views[0] == views[1], step
        if games[0].is_terminal():
            break
        legal = games[0].legal_actions()
        for k in range(len(legal)):  # an answer refused by one engine must be refused by the other
            pick = legal[(seed * 7 + step * 5 + k) % len(legal)]
            refused = [_refusal(g, pick) for g in games]
            assert refused[0] == refused[1], step
            if refused[0] is None:
                break
    assert games[0].is_terminal() and games[0].state.version > 10  # pegs came and went: many out-of-date counts


def _refusal(gs, index: int) -> str | None:
    from orrery.interpreter.engine.game import IllegalMove

    try:
        gs.apply(index)
    except IllegalMove as refused:
        return str(refused)
    return None


@pytest.mark.parametrize("loop", [20, 90, 154, 155, 156, 157, 2_000_000])
def test_remembered_by_clock_keeps_loop_limit_errors_identical(tmp_path, loop):
    """Six answers need a loop limit of 156 on both engines (measured; ticks count per stage and nothing is
    replayed; the step menu works out both actions' parameter menus): the edge is where remembering matters."""
    from orrery.interpreter.core.valueops import Limits
    from orrery.interpreter.engine.game import Game

    spec = make_game(tmp_path, PEGS).spec
    outcomes = []
    for mode in ("compiled", "interpreted"):
        gs = None
        try:
            gs = Game(spec, Limits(loop=loop), mode=mode).new_initial_state(players=1, seed=2)
            for _ in range(6):
                gs.apply(gs.legal_actions()[0])
            outcomes.append(("ok", gs.state.digest()))
        except Exception as exc:  # noqa: BLE001 - the point is that both engines fail identically
            outcomes.append((type(exc).__name__, str(exc)))
    assert outcomes[0] == outcomes[1]
    assert (outcomes[0][0] == "ok") == (loop >= 156), outcomes[0]
