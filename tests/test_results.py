"""simulate counts each game's result once: a win, a shared win (some but not all players win), a draw
(nobody or everybody wins), a solitaire loss or a runaway; the text summary says what the JSON says."""

from __future__ import annotations

import json
import re

import pytest

from conftest import SPECS, load_game
from orrery.interpreter.cli.main import main
from orrery.interpreter.bots.simulate import GameRecord, outcome_kind, summarize

TIES = SPECS / "tie-maker.yaml"


def record(winners: list[int], players: int = 3, end: str = "done") -> GameRecord:
    return GameRecord(seed=0, winners=winners, scores=[0] * players, end=end, steps=1, violations=[], cascades={})


@pytest.mark.parametrize("winners, players, kind", [
    ([0], 3, "win"), ([0, 1], 3, "shared win"), ([0, 1, 2], 3, "draw"), ([], 3, "draw"), ([1, 0], 2, "draw"),
    ([0], 1, "win"), ([], 1, "loss")])
def test_each_game_has_one_kind_of_result(winners, players, kind):
    assert outcome_kind(record(winners, players)) == kind


def test_a_tie_of_everybody_is_a_draw_and_no_ones_win():
    s = summarize(load_game(TIES), [record([0, 1, 2]), record([0, 1, 2]), record([2])])
    assert s["draws"] == 2 and s["wins"] == {"P3": 1} and s["shared_wins"] == {}
    assert s["outcomes"] == {"win": 1, "shared win": 0, "draw": 2, "loss": 0, "runaway": 0}


def run_json_and_text(capsys, *args: str) -> tuple[dict, str]:
    assert main(["simulate", str(TIES), *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["simulate", str(TIES), *args]) == 0
    return data, capsys.readouterr().out


def test_simulate_counts_every_game_once_in_json_and_text(capsys):
    data, text = run_json_and_text(capsys, "--games", "200", "--players", "3", "--seed", "4")
    s = data["summary"]
    ends = s["ends"]
    assert sum(s["outcomes"].values()) == s["games"] == 200
    assert s["draws"] == ends["everyone_won"] + ends["nobody_won"] + ends["ranked_won"]
    assert s["outcomes"]["shared win"] == ends["two_won"]
    assert sum(s["wins"].values()) == ends["alone_won"]  # a tie adds to nobody's wins
    assert s["shared_wins"] == {"P1": ends["two_won"], "P2": ends["two_won"]}
    # the text says the same numbers
    outcomes = dict((k, int(v)) for k, v in re.findall(r"(shared win|win|draw|loss|runaway) (\d+)",
                                                       text.split("outcomes: ")[1].splitlines()[0]))
    assert outcomes == {k: v for k, v in s["outcomes"].items() if v or k == "win"}
    wins_line = text.split("  wins: ")[1].splitlines()[0]
    assert f"draws {s['draws']}" in wins_line
    assert "shared wins: " + ", ".join(f"{k} {v}" for k, v in s["shared_wins"].items()) in wins_line
    assert wins_line.startswith(", ".join(f"{k} {v}" for k, v in s["wins"].items()))


def test_simulate_plays_100_games_by_default(capsys):
    assert main(["simulate", "tic-tac-toe", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)["summary"]
    assert s["games"] == 100 == sum(s["outcomes"].values())
