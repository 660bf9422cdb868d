"""Menus with one option answered in the run that meets them (GameState._take_lone, game.TAKE_LONE).

The driver answers a menu with one option itself when nothing needs checking, and used to run again from
the checkpoint to get past it.  The answer is now given inside the first run.  These tests play seeded
random games of every bundled game both ways, in lockstep, and check that nothing a player, a log or the
`auto` limit can see differs; and that a run is saved.
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
STEPS = {"bubble-singularity": 40}  # its look-ahead makes a step cost seconds; the others play 150 steps


def _switch(monkeypatch, on: bool) -> None:
    monkeypatch.setattr(game_module, "TAKE_LONE", on)


_view = position_view


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.parent.name)
def test_same_games_either_way(path: Path, monkeypatch):
    game = Game(load_spec(path))
    for seed in (1, 2):
        play_both_ways(game, seed, STEPS.get(path.parent.name, 150), (game_module, "TAKE_LONE"), _view, monkeypatch)


# A made-up "bell tower": each turn rings one bell (a step menu with one action), then a free choice of
# how hard; `quiet` turns offer nothing at all for a while, so runs of lone menus are long.
BELLS = """
orrery: 1
game: {name: bell-tower, players: {min: 2, max: 2}}
variables:
  rung: {start: 0}
  quiet: {start: 0}
flow:
  phases:
    - name: main
      steps:
        - actions: [ring]
        - actions: [rest]
          when: quiet > 0
actions:
  ring:
    params:
      force: {from: "if quiet > 0 then [1] else [1, 2, 3]"}
    effect: |
      rung += force
      if rung % 5 == 0 {
        quiet = 6
      }
  rest:
    effect: quiet -= 1
end:
  loud: {when: "rung >= 40", winners: "[]"}
"""


def _play(game: Game, answers: list[int]) -> tuple:
    try:
        gs = game.new_initial_state(seed=3)
        for a in answers:
            if gs.is_terminal():
                break
            options = gs.legal_actions()
            gs.apply(options[a % len(options)])
        return ("ok", gs.digest(), [(s.index, s.auto) for s in gs.history], list(gs.narration))
    except Exception as exc:  # noqa: BLE001 - both ways must fail alike
        return (type(exc).__name__, str(exc))


@pytest.mark.parametrize("auto", [1, 2, 3, 13, 70, 71, 5_000])
def test_the_auto_limit_is_met_at_the_same_answer(tmp_path, monkeypatch, auto):
    spec = make_game(tmp_path, BELLS).spec
    game = Game(spec, Limits(auto=auto))
    answers = [1, 2, 0, 1, 2, 2, 1, 0, 1, 2] * 4
    _switch(monkeypatch, True)
    inline = _play(game, answers)
    _switch(monkeypatch, False)
    rerun = _play(game, answers)
    assert inline == rerun
    if auto >= 71:  # once the bells go quiet, every menu has one option: 71 of them in a row to the end
        assert inline[0] == "ok" and sum(a for _, a in inline[2]) >= 71
    else:
        assert inline[0] == "RunawayError" and "limit auto" in inline[1]


def test_a_lone_menu_costs_no_second_run(tmp_path, monkeypatch):
    game = make_game(tmp_path, BELLS)
    runs = {True: 0, False: 0}
    real = game_module.GameState._run

    for on in (True, False):
        _switch(monkeypatch, on)

        def counted(self, answers, boundaries=False, _on=on):
            runs[_on] += 1
            return real(self, answers, boundaries)

        monkeypatch.setattr(game_module.GameState, "_run", counted)
        gs = game.new_initial_state(seed=3)
        for _ in range(4):
            gs.apply(gs.legal_actions()[0])
        assert not gs.is_terminal()
    # every turn's step menu has one action: the re-run way pays one run more per turn
    assert runs[False] - runs[True] >= 4
