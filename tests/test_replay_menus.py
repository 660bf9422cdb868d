"""Menus remembered for replays (effects._filter, game.REPLAY_MENUS): the same games with and without.

Every answer re-runs the current stage from its checkpoint, and look-ahead re-runs it once per option;
a parameter or `choose` menu worked out at the same point of the same answers is taken as it was.
These tests play seeded random games of every bundled game both ways, in lockstep, and check that
nothing a player or a log can see differs; and that the memo is really used.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import play_both_ways
from orrery.interpreter import game as game_module
from orrery.interpreter.bots import RandomBot
from orrery.interpreter.evaluator import Interp
from orrery.interpreter.game import Game
from orrery.rulespec.loader import load_spec

ROOT = Path(__file__).resolve().parents[1]
SPECS = sorted((ROOT / "games").glob("*/rules.yaml"))
STEPS = {"bubble-singularity": 40}  # its look-ahead makes a step cost seconds; the others play 150 steps


def _started(game: Game, seed: int, memo: bool, monkeypatch):
    monkeypatch.setattr(game_module, "REPLAY_MENUS", memo)
    return game.new_initial_state(seed=seed)


def _apply(gs, choice: int, memo: bool, monkeypatch) -> None:
    monkeypatch.setattr(game_module, "REPLAY_MENUS", memo)
    gs.apply(choice)


def _view(gs) -> tuple:
    menu = [(o.index, o.label) for o in gs.legal_options()] if not gs.is_terminal() else []
    reasons = sorted(gs.decision.reasons.items()) if gs.decision else []
    return gs.state.digest(), menu, reasons, list(gs.narration), gs.outcome()


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.parent.name)
def test_same_games_with_and_without_the_memo(path: Path, monkeypatch):
    game = Game(load_spec(path))
    for seed in (1, 2):
        play_both_ways(game, seed, STEPS.get(path.parent.name, 150), (game_module, "REPLAY_MENUS"), _view,
                       monkeypatch)


# A made-up game whose menus draw random numbers (never remembered: a replay must draw them again) and
# whose second menu depends on the first answer.
DICE_MENU = """
orrery: 1
game: {name: dice-menu, players: {min: 1, max: 1}}
variables:
  total: {start: 0}
  rolls: {start: 0}
flow:
  phases:
    - name: main
      steps: [{actions: [pick]}]
actions:
  pick:
    params:
      a: {from: "[1, 2, 3, 4, 5, 6]", where: "a != random_int(1, 6)"}
    effect: |
      choose b from [1, 2, 3] where b != a and b <= total % 3 + 2
      total += a + b
      rolls += 1
end:
  done: {when: "rolls >= 8", winners: players}
"""


def test_menus_that_draw_random_numbers_replay_the_same(game_from, monkeypatch):
    game = game_from(DICE_MENU)
    for seed in range(6):
        runs = []
        for memo in (True, False):
            gs = _started(game, seed, memo, monkeypatch)
            bot, seen = RandomBot(seed), []
            while not gs.is_terminal():
                seen.append(_view(gs))
                _apply(gs, bot.choose(gs), memo, monkeypatch)
            runs.append((seen, _view(gs)))
        assert runs[0] == runs[1], seed


def test_the_memo_saves_menu_work(monkeypatch):
    """Connect four's column menu is worked out when shown; the replay of the answer takes it as it was."""
    counted = {"tests": 0}
    original = Interp.tester

    def counting(self, node):
        counted["tests"] += 1
        return original(self, node)

    monkeypatch.setattr(Interp, "tester", counting)
    game = Game(load_spec(ROOT / "games" / "connect-four" / "rules.yaml"))
    work = {}
    for memo in (True, False):
        counted["tests"] = 0
        gs = _started(game, 3, memo, monkeypatch)
        bot = RandomBot(3)
        for _ in range(10):
            _apply(gs, bot.choose(gs), memo, monkeypatch)
        work[memo] = counted["tests"]
    assert work[True] * 2 <= work[False] + 2, work  # about half: each menu once, not twice
