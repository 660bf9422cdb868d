"""A search bot's think time budgeted per turn at the table (interpreter/bots/thinking.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from orrery.interpreter.bots.thinking import FLOOR, SHARE, TurnBudget


class FakeBot:
    """Takes all the seconds it is given (as a search with a time budget does), on a fake clock."""

    def __init__(self, clock: list[float]):
        self.clock, self.seconds, self.given, self.followed = clock, None, [], 0

    def choose(self, gs):
        self.given.append(self.seconds)
        self.clock[0] += self.seconds
        return 0

    def follow(self, gs):
        self.followed += 1
        return 0


def at(round_: int, turn: int):
    return SimpleNamespace(state=SimpleNamespace(cursor=SimpleNamespace(round=round_, turn=turn)))


def test_a_turn_of_many_decisions_never_takes_more_than_the_turns_budget():
    now = [0.0]
    budget = TurnBudget(2.0, clock=lambda: now[0])
    bot = FakeBot(now)
    for _ in range(12):  # one turn of twelve decisions
        budget.think(at(1, 3), 1, bot)
    assert now[0] <= 2.0  # the floor comes out of the turn's budget, not on top of it
    assert bot.given[0] == 2.0 * SHARE and bot.given[1] == 2.0 * SHARE * SHARE  # the first decision gets the most
    assert all(a >= b for a, b in zip(bot.given, bot.given[1:]))
    # halving down to the floor (1, 0.5, 0.25, 0.125, 0.0625, then 0.05 of the 0.0625 left), then no search:
    # the last six decisions follow the plan the searches made
    assert bot.given == [1.0, 0.5, 0.25, 0.125, 0.0625, FLOOR] and bot.followed == 6


def test_a_share_is_never_more_than_what_is_left_of_the_turn():
    now = [0.0]
    budget = TurnBudget(0.08, clock=lambda: now[0])
    bot = FakeBot(now)
    for _ in range(3):
        budget.think(at(2, 1), 0, bot)
    assert bot.given == [FLOOR] and bot.followed == 2 and now[0] <= 0.08  # 0.05, then 0.03 left: under the floor
    tiny = TurnBudget(0.02, clock=lambda: now[0])  # a budget under the floor: one search of all of it
    tiny.think(at(2, 2), 0, bot)
    tiny.think(at(2, 2), 0, bot)
    assert bot.given == [FLOOR, 0.02] and bot.followed == 3


def test_the_moves_played_count_against_the_turn():
    now = [0.0]
    budget = TurnBudget(2.0, clock=lambda: now[0])
    bot = FakeBot(now)

    def play(choice):  # a move whose look-ahead takes 0.3 s
        now[0] += 0.3
        return f"played {choice}"

    assert budget.think(at(1, 1), 0, bot, play) == "played 0"
    budget.think(at(1, 1), 0, bot, play)
    assert bot.given == [1.0, 0.35]  # half of 2 - (1 + 0.3)


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


MANY_STEPS = """
orrery: 1
game: {name: many-steps, players: {min: 2, max: 2}}
components:
  tracks:
    pos: {start: 0, min: 0}
flow:
  first_player: 0
  phases:
    - name: walk
      steps: [%s]
actions:
  step: {effect: "current.pos += 1"}
  restart: {effect: "current.pos = 0"}
scoring: {score: "p.pos"}
end:
  far: {when: "any(p.pos >= 25 for p in players)"}
bots: {heuristic: "p.pos", heuristic_max: 25, playout: 0}
""" % ", ".join(["{actions: [restart, step]}"] * 10)


def test_a_search_bots_whole_turn_stays_within_the_budget(tmp_path):
    """A made-up game whose turns are ten decisions, the real search bot on a fake clock (every read of it is a
    tenth of a millisecond: a turn's searches read it ~2,000 times): each whole turn within the budget, the
    searches' overrun included (tolerance 0)."""
    from conftest import make_game
    from orrery.interpreter.bots.mcts import MctsBot

    game = make_game(tmp_path, MANY_STEPS)
    now = [0.0]

    def clock() -> float:
        now[0] += 0.0001
        return now[0]

    gs = game.new_initial_state(players=2, seed=3)
    bots = [MctsBot(k + 1, seconds=0.2, clock=clock) for k in range(2)]
    budgets = [TurnBudget(0.2, clock=clock) for _ in range(2)]
    turns: dict[tuple, list[float]] = {}
    followed: list[tuple[int, str]] = []  # (player, option) chosen without a search
    while not gs.is_terminal():
        p, c = gs.current_player(), gs.state.cursor
        key, start, before = (p, c.round, c.turn), now[0], bots[p].stats.get("followed", 0)
        chosen = budgets[p].think(gs, p, bots[p])
        if bots[p].stats.get("followed", 0) > before:
            followed.append((p, next(o.label for o in gs.decision.options if o.index == chosen)))
        gs.apply(chosen)
        turns.setdefault(key, []).append(now[0] - start)
    lengths = [len(t) for t in turns.values()]
    assert set(lengths[:-1]) == {10} and len(lengths) >= 4  # (the last turn ends the game part way)
    assert max(sum(t) for t in turns.values()) <= 0.2
    assert len(followed) >= 3 * len(turns)  # the turns' last decisions took no search
    # following the plan: the searches found that a restart loses the race, and the winner's decisions taken
    # without a search kept to it (at random, about half of them would have restarted; the loser's, once its
    # every move is proven lost, may restart: nothing it does changes the result)
    (winner,) = gs.outcome().winners
    mine = [label for p, label in followed if p == winner]
    assert len(mine) >= 10 and set(mine) == {"step"}, followed


def test_a_served_bots_whole_turn_stays_within_the_budget(tmp_path, monkeypatch):
    """`orrery serve --think` budgets a plain 'mcts' seat per TURN as `orrery play` does (it gave each decision
    the whole budget: a turn of ten decisions took ten times it).  The made-up game above, served with two
    search seats, the real search bots and the table's own TurnBudgets on a fake clock (a millisecond a read)."""
    pytest.importorskip("starlette")  # (the `serve` extra: skipped by the README's plain `.[test]` install)
    from orrery.interpreter.bots.mcts import MctsBot
    from orrery.interpreter.bots.thinking import TurnBudget as Budget
    from orrery.interpreter.engine.game import load_game
    from orrery.interpreter.serve.app import Server

    path = tmp_path / "many.yaml"
    path.write_text(MANY_STEPS, encoding="utf-8")
    now = [0.0]

    def clock() -> float:
        now[0] += 0.001
        return now[0]

    monkeypatch.setattr(MctsBot, "clock", staticmethod(clock))
    monkeypatch.setattr(Budget, "clock", staticmethod(clock))
    table = Server(lambda ref, v: load_game(ref, v), None, games=[], think=0.2).open_table(
        str(path), [], ["mcts", "mcts"], 3)
    assert set(table.budgets) == {0, 1} and all(b.per_turn == 0.2 for b in table.budgets.values())
    turns: dict[tuple, float] = {}
    while (seat := table.bot_to_move()) is not None and len(turns) < 5:
        c, start = table.gs.state.cursor, now[0]
        assert table.bot_answer(seat)
        key = (seat, c.round, c.turn)
        turns[key] = turns.get(key, 0.0) + now[0] - start
    assert len(turns) == 5 and max(turns.values()) <= 0.2, turns  # four whole turns of ten decisions each
