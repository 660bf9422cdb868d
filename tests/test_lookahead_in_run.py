"""Look-ahead walking each branch inside one run (GameState._dead_end_in_run, game.LOOKAHEAD_IN_RUN).

The run-per-menu search replays the answers from the checkpoint for every menu it meets inside the action
it checks; the in-run search answers those menus where the run meets them and starts again only after a
failing branch.  Both must offer the same options with the same reasons, spend the `lookahead` and `loop`
budgets alike and fail alike: every bundled game and a made-up maze, both ways.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import make_game, play_both_ways, position_view
from orrery.interpreter import game as game_module
from orrery.interpreter.evaluator import Limits
from orrery.interpreter.game import Game
from orrery.rulespec.loader import load_spec

ROOT = Path(__file__).resolve().parents[1]
SPECS = sorted((ROOT / "games").glob("*/rules.yaml"))
STEPS = {"bubble-singularity": 30}  # its look-ahead is the costly part being compared


def _view(gs) -> tuple:
    """position_view, with the options refused and the look-ahead budget used (menu and reasons at 2, 3)."""
    rejected = [(str(v), why) for v, why in gs.decision.rejected] if gs.decision else []
    return position_view(gs) + (rejected, gs.lookahead_used)


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.parent.name)
def test_bundled_games_offer_the_same_menus(path: Path, monkeypatch):
    game = Game(load_spec(path))
    for seed in (1, 2):
        play_both_ways(game, seed, STEPS.get(path.parent.name, 120), (game_module, "LOOKAHEAD_IN_RUN"), _view,
                       monkeypatch)


# A made-up hedge maze: `walk` asks three things in a row; some first answers can never reach the goal
# (each with its own reason), and every filter burns loop ticks, so small budgets run out part-way.
MAZE = """
orrery: 1
game: {name: hedge-maze, players: {min: 2, max: 2}}
variables:
  goal: {start: 5}
  walked: {start: 0}
functions:
  burn:
    params: [k]
    expr: count(x for x in [1, 2, 3, 4, 5, 6, 7, 8] where x > k) >= 0
flow:
  phases:
    - name: main
      steps: [{actions: [walk, wait]}]
actions:
  walk:
    effect: |
      choose a from [1, 2, 3] where burn(a)
      choose b from [1, 2, 3] where burn(b)
      require a + b <= goal else "the path from " + text(a) + " ends short of " + text(goal)
      choose c from [1, 2] where burn(c)
      require a != 3 or c > 5 else "a dead end after " + text(a)
      walked += a + b + c
      goal = if goal == 5 then 4 else if goal == 4 then 6 else 5
  wait:
    effect: |
      walked += 1
      goal = if goal == 5 then 4 else if goal == 4 then 6 else 5
end:
  far: {when: "walked >= 40", winners: "[]"}
"""

ANSWERS = [0, 0, 1, 0, 1, 2, 0, 1, 0, 0, 2, 1, 0, 1, 1, 0, 0, 2, 0, 1, 0, 0, 1, 2, 1, 0, 0, 1]


def _play(game: Game, answers: list[int]) -> list:
    seen = []
    try:
        gs = game.new_initial_state(seed=2)
        seen.append(_view(gs))
        for a in answers:
            if gs.is_terminal():
                break
            options = gs.legal_actions()
            gs.apply(options[a % len(options)])
            seen.append(_view(gs))
    except Exception as exc:  # noqa: BLE001 - both ways must fail alike
        seen.append((type(exc).__name__, str(exc)))
    return seen


def _both_ways(tmp_path, monkeypatch, limits: Limits) -> list:
    game = make_game(tmp_path, MAZE, limits=limits)
    outcomes = []
    for on in (True, False):
        monkeypatch.setattr(game_module, "LOOKAHEAD_IN_RUN", on)
        outcomes.append(_play(game, ANSWERS))
    assert outcomes[0] == outcomes[1]
    return outcomes[0]


@pytest.mark.parametrize("lookahead", [1, 2, 3, 4, 5, 6, 8, 11, 16, 5_000])
def test_the_lookahead_budget_runs_out_at_the_same_option(tmp_path, monkeypatch, lookahead):
    seen = _both_ways(tmp_path, monkeypatch, Limits(lookahead=lookahead))
    if lookahead == 5_000:  # the full search: the dead ends are found, with their reasons
        reasons = {why for step in seen if len(step) > 3 for _, why in step[3]}
        assert any("ends short of" in why for why in reasons)
        assert any("a dead end after 3" in why for why in reasons)


@pytest.mark.parametrize("loop", [60, 120, 200, 300, 450, 700, 1_000, 2_000])
def test_the_loop_budget_runs_out_at_the_same_option(tmp_path, monkeypatch, loop):
    _both_ways(tmp_path, monkeypatch, Limits(loop=loop))


def test_the_budgets_do_change_what_is_offered(tmp_path, monkeypatch):
    """Not vacuous: the budgets above cut the search short somewhere (fewer options refused)."""
    full = _both_ways(tmp_path, monkeypatch, Limits())
    refused = sum(len(step[3]) for step in full if len(step) > 3)
    for limits in (Limits(lookahead=3), Limits(loop=200)):
        cut = _both_ways(tmp_path, monkeypatch, limits)
        assert sum(len(step[3]) for step in cut if len(step) > 3) < refused


def test_a_branch_is_walked_in_one_run(tmp_path, monkeypatch):
    """The point of it: checking the maze's first menus costs fewer runs (interpreters made) than a run
    per menu met."""
    from orrery.interpreter import evaluator

    game = make_game(tmp_path, MAZE)
    original = evaluator.Interp.__init__
    runs = {}
    for on in (True, False):
        monkeypatch.setattr(game_module, "LOOKAHEAD_IN_RUN", on)
        count = [0]

        def counting(self, *args, _count=count, **kwargs):
            _count[0] += 1
            original(self, *args, **kwargs)

        monkeypatch.setattr(evaluator.Interp, "__init__", counting)
        gs = game.new_initial_state(seed=2)
        gs.apply(gs.legal_actions()[0])  # walk: the menu of its first step is checked
        monkeypatch.setattr(evaluator.Interp, "__init__", original)
        runs[on] = count[0]
    assert runs[True] < runs[False]
