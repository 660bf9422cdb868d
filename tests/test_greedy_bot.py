"""The one-ply greedy bot (interpreter/bots/greedy.py): the end result or the spec's heuristic, one decision ahead."""

from __future__ import annotations

from orrery.interpreter.bots.factory import BOTS, make_bot
from orrery.interpreter.bots.greedy import GreedyBot
from orrery.interpreter.bots.simulate import bot_seed, play_game
from orrery.interpreter.cli.main import main

# A made-up solitaire ledge: each turn walk one step, jump (the game is lost at once) or, from the fourth
# step on, climb out (won at once).  Without a heuristic only the end tells the options apart.
LEDGE = """
orrery: 1
game: {{name: ledge, players: {{min: 1, max: 1}}}}
variables:
  steps: {{type: int, start: 0}}
  out: {{type: bool, start: false}}
  fell: {{type: bool, start: false}}
flow:
  first_player: 0
  phases:
    - name: walk
      steps:
        - {{actions: [jump, walk, climb]}}
actions:
  walk: {{effect: "steps += 1"}}
  jump: {{effect: "fell = true"}}
  climb: {{condition: "steps >= 3", effect: "out = true"}}
end:
  climbed: {{when: "out", winners: players}}
  fallen: {{when: "fell", winners: "[]"}}
  tired: {{when: "steps == 20", winners: "[]"}}
{bots}
"""

# The heuristic prefers walking (steps) and never tells climbing from walking: the end result still wins.
HINTS = """
bots:
  heuristic: steps
  heuristic_max: 20
"""


def ledge(game_from, bots: str = ""):
    return game_from(LEDGE.format(bots=bots))


def test_greedy_is_a_bot_by_name():
    assert "greedy" in BOTS and isinstance(make_bot("greedy", 3), GreedyBot)


def test_without_a_heuristic_it_never_loses_at_once_and_wins_as_soon_as_it_can(game_from):
    game = ledge(game_from)
    for seed in range(6):
        gs = game.new_initial_state(players=1, seed=seed)
        bot = make_bot("greedy", bot_seed(seed, 0))
        moves = []
        while not gs.is_terminal():
            index = bot.choose(gs)
            moves.append(next(o.label for o in gs.legal_options() if o.index == index))
            gs.apply(index)
        assert moves == ["walk", "walk", "walk", "climb"] and gs.outcome().winners == [0], (seed, moves)


def test_random_play_falls_off_the_ledge(game_from):
    """The contrast: the same positions played at random are mostly lost."""
    game = ledge(game_from)
    won = sum(bool(play_game(game, 1, seed, [make_bot("random", bot_seed(seed, 0))]).winners) for seed in range(12))
    assert won <= 4


def test_with_a_heuristic_the_end_result_still_comes_first(game_from):
    game = ledge(game_from, HINTS)
    for seed in range(4):
        record = play_game(game, 1, seed, [make_bot("greedy", bot_seed(seed, 0))])
        assert record.end == "climbed" and record.steps == 4, (seed, record)


def test_equal_options_are_chosen_at_random_but_reproducibly():
    """Tic-tac-toe's first move: every cell judges 0 one move ahead, so the bot's seed picks among them."""
    from orrery.interpreter.engine.game import load_game

    gs = load_game("tic-tac-toe").new_initial_state(players=2, seed=1)
    picks = {make_bot("greedy", seed).choose(gs) for seed in range(20)}
    assert len(picks) >= 4
    assert len({make_bot("greedy", 7).choose(gs) for _ in range(3)}) == 1


def test_a_snapshot_chooses_as_the_bot_would():
    from orrery.interpreter.engine.game import load_game

    gs = load_game("tic-tac-toe").new_initial_state(players=2, seed=1)
    bot = make_bot("greedy", 5)
    twin = bot.snapshot()
    assert [bot.choose(gs) for _ in range(4)] == [twin.choose(gs) for _ in range(4)]


def test_simulate_seats_the_greedy_bot(capsys):
    assert main(["simulate", "tic-tac-toe", "--bots", "greedy,random", "--games", "4", "--seed", "1"]) == 0
    assert "bots greedy,random" in capsys.readouterr().out
