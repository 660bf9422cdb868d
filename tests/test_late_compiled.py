"""Code compiled late (met at run time, outside the spec's roots: the domain and the `where` of a `for` that
asks, which effects.for_items evaluates) calls the spec's functions as the spec module does, through their
compiled form."""

from __future__ import annotations

import pytest

from conftest import make_game
from orrery.interpreter.engine.game import Game

# `twice` is called in an `if` condition, a `while` condition and a quiet run, all after a `choose` (written
# into the block's generated step, compiler/effectgen.py), and in the domain and the `where` of a `for` that
# asks, which effects.for_items evaluates through the late compiler
SPEC = """
orrery: 1
game: {name: late-calls, players: {min: 1, max: 1}}
variables: {total: {start: 0}, rounds: {start: 0}}
functions:
  twice:
    params: [n]
    expr: n + n
flow:
  phases:
    - name: play
      steps: [{actions: [pick]}]
actions:
  pick:
    effect: |
      choose x from [1, 2, 3] prompt "how many?"
      if twice(x) > 2 {
        total += twice(x)
      } else {
        total += 1
      }
      while twice(rounds) < x {
        rounds += 1
      }
      for z in [twice(rounds), x] where twice(z) >= 0 {
        choose w from [1, 2] prompt "how far?"
        rounds += w
      }
      choose y from [0, 1] prompt "again?"
      total = total + twice(y)
end:
  done: {when: "total >= 12", winners: "[]"}
"""


def _play(game: Game, answers: list[int]) -> list[str]:
    gs = game.new_initial_state(seed=0)
    digests = [gs.digest()]
    for a in answers:
        if gs.is_terminal():
            break
        gs.apply(gs.legal_actions()[a % len(gs.legal_actions())])
        digests.append(gs.digest())
    return digests


@pytest.mark.parametrize("answers", [[0, 0, 1, 1, 2, 0, 2, 1], [2, 1, 2, 1, 2, 1], [1, 0] * 6])
def test_late_code_agrees_with_the_reference(tmp_path, answers):
    spec = make_game(tmp_path, SPEC).spec
    assert _play(Game(spec, mode="compiled"), answers) == _play(Game(spec, mode="interpreted"), answers)


def test_late_code_calls_the_compiled_function_not_the_general_helper(tmp_path):
    game = Game(make_game(tmp_path, SPEC).spec, mode="compiled")
    gs = game.new_initial_state(seed=0)
    gs.apply(gs.legal_actions()[2])  # x = 3: the if, the while, the for and a run after the first choose
    late = [fn for fn in gs.pos.it.fast.fns.values() if "CF" in fn.__code__.co_names or
            any(n.startswith("F") and n[1:].isdigit() for n in fn.__code__.co_names)]
    assert late, "no late-compiled code called a spec function"
    assert all("CF" not in fn.__code__.co_names for fn in late)
