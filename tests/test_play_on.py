"""Bots that answer from the menu alone play on within one run (GameState.play_on, bots.play_choices).

The driver used to run again from the checkpoint for every answer.  A random bot needs nothing but the menu,
so `simulate` and `bench` let it answer each menu where the run meets it.  These tests play seeded games
both ways and check that the position, the history, the narration, the refusals, the errors and the step
limit are exactly those of one apply per answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import position_view
from orrery.interpreter import game as game_module
from orrery.interpreter.bots import FirstBot, RandomBot, answers_by_menu, apply_choice, make_bot, play_choices
from orrery.interpreter.game import Game
from orrery.interpreter.simulate import bot_seed, play_game
from orrery.rulespec.loader import load_spec

ROOT = Path(__file__).resolve().parents[1]
SPECS = sorted((ROOT / "games").glob("*/rules.yaml"))
SEEDS = {"bubble-singularity": (1,)}  # its look-ahead makes a game cost seconds


_view = position_view


def _bots(seed: int, n: int, kind=RandomBot) -> list:
    return [kind(bot_seed(seed, k)) for k in range(n)]


def _lockstep(game: Game, seed: int, players: int, budget: int = 10**6, kind=RandomBot) -> int:
    """Play one game with play_choices, and beside it one apply_choice per answer with bots of the same seeds;
    compare both positions after every play_choices call.  The number of answers played."""
    on = game.new_initial_state(players=players, seed=seed)
    off = game.new_initial_state(players=players, seed=seed)
    bots_on, bots_off = _bots(seed, players, kind), _bots(seed, players, kind)
    played = 0
    while not on.is_terminal() and played < budget:
        n = play_choices(on, bots_on[on.current_player()].choose(on), bots_on, budget - played - 1)
        for _ in range(n):
            apply_choice(off, bots_off[off.current_player()].choose(off))
        played += n
        assert _view(on) == _view(off), (game.name, seed, played)
    assert off.is_terminal() == on.is_terminal()
    return played


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.parent.name)
def test_every_bundled_game_plays_the_same_within_one_run(path: Path):
    game = Game(load_spec(path))
    for seed in SEEDS.get(path.parent.name, (1, 2, 3)):
        assert _lockstep(game, seed, game.rules.default_players) > 0


@pytest.mark.parametrize("path", [p for p in SPECS if p.parent.name in ("tic-tac-toe", "connect-four", "burbuja")],
                         ids=lambda p: p.parent.name)
@pytest.mark.parametrize("max_steps", [1, 2, 3, 7])
def test_the_step_limit_stops_at_the_same_answer(path: Path, max_steps: int, monkeypatch):
    game = Game(load_spec(path))
    n = game.rules.default_players
    records = []
    for on in (True, False):
        monkeypatch.setattr(game_module, "PLAY_ON", on)
        records.append(play_game(game, n, 5, _bots(5, n), max_steps=max_steps).as_dict())
    assert records[0] == records[1] and records[0]["steps"] == max_steps


def test_only_bots_that_answer_from_the_menu_play_on():
    assert answers_by_menu([RandomBot(1), FirstBot(2)])
    assert not answers_by_menu([RandomBot(1), make_bot("mcts:5", 3)])


def test_a_game_runs_once_per_real_menu_that_needs_checking(monkeypatch):
    """The point of it: a whole tic-tac-toe game by random bots is one run, not one run per move."""
    game = Game(load_spec(ROOT / "games" / "tic-tac-toe" / "rules.yaml"))
    runs = []
    real = game_module.GameState._run

    def counting(self, answers, boundaries=False):
        runs.append(len(answers))
        return real(self, answers, boundaries)

    monkeypatch.setattr(game_module.GameState, "_run", counting)
    for on in (True, False):
        monkeypatch.setattr(game_module, "PLAY_ON", on)
        runs.clear()
        record = play_game(game, 2, 1, _bots(1, 2))
        assert record.steps >= 5
        assert len(runs) == (2 if on else record.steps + 1)  # the first menu's run, then the game's


# A made-up "stepping stones" walk: `walk` and `run` never fail in themselves (no look-ahead), but the next
# turn refuses to start on stone 3 and an over-long stride breaks the rules on stone 8: refusals and an
# error met in the run after an answer, which must be those of one apply per answer.
STONES = """
orrery: 1
game: {name: stepping-stones, players: {min: 2, max: 2}}
variables:
  stone: {start: 0}
flow:
  phases:
    - name: main
      turn_start: |
        require stone != 3 else "stone 3 is loose"
      steps: [{actions: [walk, run, stay]}]
actions:
  walk:
    effect: stone += 1
  run:
    effect: stone += [2, 2, 2, 2, 2, 2, 2, 2][stone]
  stay:
    effect: stone += 0
end:
  across: {when: "stone >= 10", winners: players}
"""


@pytest.mark.parametrize("seed", range(1, 13))
def test_refusals_and_errors_after_an_answer_are_met_as_one_apply_each(game_from, seed):
    game = game_from(STONES)
    outcomes = []
    for on in (True, False):
        gs = game.new_initial_state(players=2, seed=seed)
        bots = _bots(seed, 2)
        played = 0
        try:
            while not gs.is_terminal() and played < 200:
                index = bots[gs.current_player()].choose(gs)
                if on:
                    played += play_choices(gs, index, bots, 200 - played - 1)
                else:
                    apply_choice(gs, index)
                    played += 1
            outcomes.append(("over", played, _view(gs)))
        except Exception as exc:  # noqa: BLE001 - both ways must fail alike, at the same position
            outcomes.append((type(exc).__name__, str(exc), _view(gs)))
    assert outcomes[0] == outcomes[1]
    history = outcomes[0][2][-1]
    assert all(step[1] is not None for step in history)


def test_the_stones_games_do_meet_refusals_and_errors(game_from):
    """The table above is not vacuous: across its seeds, some answer is refused in the run after it
    (stone 3) and some game breaks the rules (a stride from stone 8)."""
    game = game_from(STONES)
    refused = errors = 0
    for seed in range(1, 13):
        gs = game.new_initial_state(players=2, seed=seed)
        bots = _bots(seed, 2)
        calls = []
        real = game_module.GameState.play_on

        def spy(self, index, pick, _real=real, _calls=calls):
            result = _real(self, index, pick)
            _calls.append(result)
            return result

        game_module.GameState.play_on = spy
        try:
            while not gs.is_terminal():
                play_choices(gs, bots[gs.current_player()].choose(gs), bots, 10**6)
        except Exception:  # noqa: BLE001 - counted
            errors += 1
        finally:
            game_module.GameState.play_on = real
        refused += sum(1 for _, r in calls if r is not None)
    assert refused > 0 and errors > 0


def test_first_bots_play_on_too(game_from):
    assert _lockstep(game_from(STONES.replace("stone != 3", "stone != 30")), 1, 2, kind=FirstBot) > 0


@pytest.mark.parametrize("auto", [2, 3, 5, 8, 13, 70, 71])
def test_the_auto_limit_is_met_at_the_same_answer(game_from, auto, monkeypatch):
    """Between real menus, runs of menus with one option count against the `auto` limit; each real answer
    starts the count again, in the run as after an apply."""
    from test_take_lone import BELLS

    from orrery.interpreter.evaluator import Limits

    game = game_from(BELLS, limits=Limits(auto=auto))
    outcomes, calls = [], []
    real = game_module.GameState.play_on

    def spy(self, index, pick):
        calls.append(real(self, index, pick))
        return calls[-1]

    monkeypatch.setattr(game_module.GameState, "play_on", spy)
    for on in (True, False):
        gs = game.new_initial_state(seed=3)
        bots = _bots(3, 2)
        try:
            while not gs.is_terminal():
                index = bots[gs.current_player()].choose(gs)
                if on:
                    play_choices(gs, index, bots, 10**6)
                else:
                    apply_choice(gs, index)
            outcomes.append(("over", _view(gs)))
        except Exception as exc:  # noqa: BLE001 - both ways must fail alike
            outcomes.append((type(exc).__name__, str(exc), _view(gs)))
    assert outcomes[0] == outcomes[1]
    # no answer was played again one apply at a time (which would hide a limit met too early in the run),
    # but for the one after which the limit was met
    assert calls and all(refused is None for _, refused in (calls if outcomes[0][0] == "over" else calls[:-1]))
    assert outcomes[0][0] == ("over" if auto >= 71 else "RunawayError")  # 71 lone menus in a row at the end


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four", "burbuja", "stones"])
def test_search_bot_playouts_are_the_same_within_one_run(name, game_from, monkeypatch):
    """The mcts bot's random playouts play on within one run too: the same moves chosen, the same search
    statistics (errors and capped playouts included), and the same bot random numbers drawn."""
    from orrery.interpreter.mcts import MctsBot

    game = game_from(STONES) if name == "stones" else Game(load_spec(ROOT / "games" / name / "rules.yaml"))
    n = game.rules.default_players
    seen = []
    for on in (True, False):
        monkeypatch.setattr(game_module, "PLAY_ON", on)
        gs = game.new_initial_state(players=n, seed=4)
        bots = [MctsBot(bot_seed(4, k), "30:playout=12") for k in range(n)]
        moves = []
        try:
            for _ in range(6):
                if gs.is_terminal():
                    break
                index = bots[gs.current_player()].choose(gs)
                moves.append(index)
                apply_choice(gs, index)
        except Exception as exc:  # noqa: BLE001 - both ways must fail alike
            moves.append((type(exc).__name__, str(exc)))
        seen.append((moves, [b.stats for b in bots], [b.rng.state for b in bots], gs.digest()))
    assert seen[0] == seen[1]
    assert seen[0][0]  # some move was searched
