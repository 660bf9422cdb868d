"""Menu filters on the compiled fast path (compiler.root_filter): the values a `where` keeps and drops, the
reasons, the errors and the limits are the interpreter's, on a made-up game."""

from __future__ import annotations

import pytest

from conftest import make_game, new_state
from orrery.interpreter.reference.evaluator import Limits
from orrery.interpreter.engine.game import Game

# A made-up "signal posts" row: `raise` puts a post on a free spot (a fixed reason); `tune` then asks for a
# channel three times: with a fixed `else` text, with a computed one and with none; `mode` 1 makes the spot
# condition a number on c1 (a broken rule both engines must refuse alike), `mode` 2 makes it loop.
SPEC = """
orrery: 1
game: {name: signal-posts, players: {min: 2, max: 2}}
components:
  pieces:
    post: {unlimited: true, attributes: {owner: player}}
  zones:
    row: {type: grid, width: 5, height: 1, adjacency: orthogonal}
variables:
  mode: {start: MODE}
  tuned: {start: 0}
functions:
  busy:
    params: [c]
    expr: count(x for x in cells(row) where not empty(x) and x.x <= c.x)
flow:
  phases:
    - name: main
      steps: [{actions: [raise]}, {actions: [tune]}]
actions:
  raise:
    params:
      spot:
        from: cells(row)
        where: "if mode == 1 and spot.x == 2 then 7 else empty(spot) and (mode != 2 or busy(spot) >= 0)"
        why: that spot already has a post
    effect: "create post {owner: current} in spot"
  tune:
    effect: |
      choose ch from [1, 2, 3, 4, 5] where ch > busy(cell(row, "e1")) else "no free channel"
      choose sub from [10, 11, 12, 13] where sub % 2 == tuned % 2 else text(sub) + " is on the other band"
      choose tag from [1, 2, 3] where tag != 2
      tuned += ch + sub
end:
  full:
    when: all(not empty(c) for c in cells(row))
    winners: "[]"
"""


def _game(tmp_path, mode: int = 0):
    return make_game(tmp_path, SPEC.replace("MODE", str(mode)))


def _menu(gs) -> tuple:
    d = gs.decision
    return (d.prompt, [o.label for o in d.options], [o.index for o in d.options], sorted(d.reasons.items()),
            [(str(v), why) for v, why in d.rejected])


def _play(spec, limits: Limits, mode: str, answers: tuple[str, ...]) -> list:
    """The menus met along `answers` on one engine, or the error that stopped it."""
    seen = []
    try:
        gs = new_state(Game(spec, limits, mode=mode))
        seen.append(_menu(gs))
        for label in answers:
            gs.apply_label(label)
            seen.append(_menu(gs) if gs.decision else ("over", gs.state.digest()))
        seen.append(("state", gs.state.digest(), gs.state.vars["tuned"], list(gs.narration)))
    except Exception as exc:  # noqa: BLE001 - both engines must fail alike
        seen.append((type(exc).__name__, str(exc)))
    return seen


def test_every_menu_condition_of_the_spec_has_a_compiled_filter(tmp_path):
    game = _game(tmp_path)
    module = game.rules.compiled
    conds = {var for (_, var) in module.filters}
    assert conds == {"spot", "ch", "sub", "tag"}
    source = module.source
    assert source.count("def w") == 4 and "dropped.append(" in source


ANSWERS = ("b1", "3", "10", "1", "d1", "4", "11", "3", "a1")


@pytest.mark.parametrize("limits", [Limits(), Limits(loop=30), Limits(loop=60)])
def test_compiled_filters_offer_and_refuse_as_the_interpreter(tmp_path, limits):
    spec = _game(tmp_path).spec
    compiled = _play(spec, limits, "compiled", ANSWERS)
    assert compiled == _play(spec, limits, "interpreted", ANSWERS)
    if limits == Limits():
        assert compiled[0][1] == ["a1", "b1", "c1", "d1", "e1"] and compiled[0][4] == []
        spots = [m for m in compiled if m[0] == "raise: choose spot"]
        assert spots[1][1] == ["a1", "c1", "d1", "e1"]  # b1 has a post: the fixed reason says so
        assert spots[1][4] == [("b1", "that spot already has a post")]
        channels = [m for m in compiled if m[0] == "choose ch"]
        assert channels[0][4] == [("1", "no free channel")]  # one post: channel 1 is taken (a fixed `else`)
        assert channels[1][4] == [("1", "no free channel"), ("2", "no free channel")]
        bands = [m for m in compiled if m[0] == "choose sub"]
        assert bands[0][4] == [("11", "11 is on the other band"), ("13", "13 is on the other band")]
        assert bands[1][1] == ["11", "13"]  # tuned is 13 now: the computed reason names each even value
        assert bands[1][4] == [("10", "10 is on the other band"), ("12", "12 is on the other band")]
        tags = [m for m in compiled if m[0] == "choose tag"]
        assert len(tags) == 2 and all(m[1] == ["1", "3"] for m in tags)
        assert tags[0][4] == [("2", f"it does not satisfy the rule at {spec.path}:32:39")]  # no `else`: where
        assert compiled[-1][:3] == ("state", compiled[-1][1], 28)
    else:
        assert any(step[0] == "RunawayError" and "limit loop" in step[1] for step in compiled)


def test_a_condition_that_is_not_true_or_false_fails_alike(tmp_path):
    spec = _game(tmp_path, mode=1).spec
    outcomes = [_play(spec, Limits(), mode, ("a1",)) for mode in ("compiled", "interpreted")]
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][-1][0] == "RuleError" and "must be true or false, got the number 7" in outcomes[0][-1][1]


@pytest.mark.parametrize("loop", [5, 6, 11, 40])
def test_the_loop_limit_is_met_at_the_same_value(tmp_path, loop):
    spec = _game(tmp_path, mode=2).spec
    outcomes = [_play(spec, Limits(loop=loop), mode, ("a1", "2")) for mode in ("compiled", "interpreted")]
    assert outcomes[0] == outcomes[1]
