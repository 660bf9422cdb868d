"""Look-ahead tries an optional choice's `skip` first (engine/driver.py `_dead_end`): the same menus and the
same reasons as a search in menu order, found in fewer runs where optional steps can go deep."""

from __future__ import annotations

import pytest

from conftest import make_game, new_state

# Steps of 2 or 3 while under 4, each optional; the walk must come to exactly 4. A search in menu order goes
# as deep as the steps allow before it tries to stop; stopping first completes (or fails) in one run.
SPEC = """
orrery: 1
game: {name: walk-yard, players: {min: 2, max: 2}}
variables:
  total: {type: int, start: 0}
flow:
  phases:
    - name: main
      steps: [{actions: [walk]}]
actions:
  walk:
    effect: |
      let n = 0
      let going = true
      while going and n < LIMIT {
        choose step from [2, 3] optional prompt "step"
        if step == none { going = false } else { n += step }
      }
      require REQUIRE else "the walk ends at " + text(n)
      total += 1
end:
  enough:
    when: total >= 3
    winners: "[]"
"""


def _game(tmp_path, limit: int, require: str = "n == 0 or n == 4 or n >= 12"):
    return make_game(tmp_path, SPEC.replace("LIMIT", str(limit)).replace("REQUIRE", require))


def _menu(gs) -> list[str]:
    return [o.label for o in gs.legal_options()]


def test_menus_are_those_of_a_search_in_menu_order(tmp_path, engine):
    gs = new_state(_game(tmp_path, 4))
    assert gs.decision.prompt == "step" and _menu(gs) == ["2", "skip"]
    gs.apply(0)  # a step of 2 (n = 2): 2 more makes 4; 3 makes 5 (the loop ends there, and 5 fails); stopping fails
    # so the only option left, 2, was answered by itself, and the walk came to 4
    assert [s.label for s in gs.steps][-3:] == ["2", "2", "walk"] and gs.state.vars["total"] == 1
    assert _menu(gs) == ["2", "skip"]


def test_a_dead_option_whose_every_completion_fails_keeps_the_skip_reason(tmp_path, engine):
    """From 0, a step of 3 leads to a menu where stopping (3), 2 (5) and 3 (6) all fail. `skip` is tried first
    and 3 last, but the reason kept is that of the last option in menu order, `skip`: as before the change."""
    gs = new_state(_game(tmp_path, 4))
    assert _menu(gs) == ["2", "skip"]
    assert gs.why_not_index(1).startswith("the walk ends at 3 (")


def test_a_deep_optional_walk_is_checked_in_few_runs(tmp_path, engine):
    """A walk of up to six steps that may stop anywhere (n is never 1): each option's completion is found by
    stopping right after it (two runs), not by walking on to the limit first (a search in menu order
    tries a step of 2 at every depth before it tries to stop: 13 runs for this menu)."""
    gs = new_state(_game(tmp_path, 12, require="n != 1"))
    assert _menu(gs) == ["2", "3", "skip"]
    assert gs.lookahead_used == 5, gs.lookahead_used


@pytest.mark.parametrize("seed", range(6))
def test_both_engines_play_the_same_random_walks(tmp_path, seed):
    from orrery.interpreter.core.rng import Rng
    from orrery.interpreter.engine.game import Game

    spec = _game(tmp_path, 12, require="n != 1 and n != 5").spec
    seen = []
    for mode in ("compiled", "interpreted"):
        gs = Game(spec, mode=mode).new_initial_state(players=2, seed=seed)
        rng, trace = Rng(seed), []
        while not gs.is_terminal():
            menu = _menu(gs)
            trace.append(menu)
            gs.apply(gs.legal_actions()[rng.below(len(menu))])
        seen.append((trace, gs.state.digest()))
    assert seen[0] == seen[1]
