"""`orrery play --think S`: a search bot seat with no budget of its own searches S seconds a decision."""

from __future__ import annotations

from orrery.interpreter.cli.main import main
from orrery.interpreter.bots.mcts import MctsBot
from orrery.interpreter.bots.factory import make_bot
from orrery.interpreter.cli.play import thinking


def test_a_plain_search_seat_gets_the_think_time():
    assert thinking("mcts", 0.5) == "mcts:0.5s"
    bot = make_bot(thinking("mcts", 0.5), 1)
    assert isinstance(bot, MctsBot) and bot.seconds == 0.5 and bot.iterations is None
    assert thinking("mcts:200", 0.5) == "mcts:200"  # a budget written on the seat wins
    assert thinking("random", 0.5) == "random" and thinking("human", 0.5) == "human"
    assert thinking("mcts", None) == "mcts"


def test_a_game_against_a_thinking_bot_plays_to_the_end(capsys):
    code = main(["play", "tic-tac-toe", "--seats", "mcts,random", "--think", "0.05", "--seed", "3", "--no-save",
                 "--quiet-board"])
    out = capsys.readouterr().out
    assert code == 0 and "Game over" in out
    assert "X (mcts):" in out  # the bot's choices are narrated with its seat
