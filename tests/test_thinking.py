"""A search bot's think time budgeted per turn at the table (interpreter/cli/thinking.py)."""

from __future__ import annotations

from types import SimpleNamespace

from orrery.interpreter.cli.thinking import FLOOR, SHARE, TurnBudget


class FakeBot:
    """Takes all the seconds it is given (as a search with a time budget does), on a fake clock."""

    def __init__(self, clock: list[float]):
        self.clock, self.seconds, self.given = clock, None, []

    def choose(self, gs):
        self.given.append(self.seconds)
        self.clock[0] += self.seconds
        return 0


def at(round_: int, turn: int):
    return SimpleNamespace(state=SimpleNamespace(cursor=SimpleNamespace(round=round_, turn=turn)))


def test_a_turn_of_many_decisions_never_takes_more_than_the_turns_budget():
    now = [0.0]
    budget = TurnBudget(2.0, clock=lambda: now[0])
    bot = FakeBot(now)
    for _ in range(12):  # one turn of twelve decisions
        budget.think(at(1, 3), 1, bot)
    assert now[0] <= 2.0 + 12 * FLOOR
    assert bot.given[0] == 2.0 * SHARE and bot.given[1] == 2.0 * SHARE * SHARE  # the first decision gets the most
    assert all(a >= b for a, b in zip(bot.given, bot.given[1:]))


def test_each_turn_and_each_player_starts_with_the_whole_budget():
    now = [0.0]
    budget = TurnBudget(2.0, clock=lambda: now[0])
    bot = FakeBot(now)
    budget.think(at(1, 3), 1, bot)
    budget.think(at(1, 3), 1, bot)
    budget.think(at(1, 4), 1, bot)  # the next turn
    budget.think(at(1, 4), 2, bot)  # another player answering within it (a window)
    assert bot.given == [1.0, 0.5, 1.0, 1.0]


def test_play_gives_plain_search_seats_a_budget_per_turn(capsys):
    from orrery.interpreter.cli.main import build_parser

    args = build_parser().parse_args(["play", "tic-tac-toe"])
    assert args.think == 2.0
    help_text = build_parser()._subparsers._group_actions[0].choices["play"].format_help()
    assert "seconds a search bot thinks in one whole turn" in " ".join(help_text.split())
