"""benchmarks/strength.py (docs/bots.md's strength table): which games it plays, in which order, how a run resumes,
and how the table counts them."""

from __future__ import annotations

import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # `benchmarks/` sits beside the engine, outside the installed package
    sys.path.insert(0, str(REPO))

from benchmarks import strength  # noqa: E402


def test_every_seat_and_opponent_gets_game_i_before_any_gets_game_i_plus_one():
    order = strength.interleaved(["tic-tac-toe", "connect-four"], ["random", "greedy"], 3, 1)
    assert len(order) == 2 * 2 * 2 * 3 and len(set((g, tuple(s), seed) for g, s, seed, _ in order)) == len(order)
    for cut in range(len(order) + 1):  # stopped anywhere: no row's seat is more than one game ahead of another
        played = Counter((g, opp, s.index("mcts")) for g, s, _, opp in order[:cut])
        assert max(played.values(), default=0) - min(played.values(), default=0) <= 1
    assert order[0] == ("tic-tac-toe", ["mcts", "random"], 1, "random")
    assert order[1] == ("connect-four", ["mcts", "random"], 1, "random")
    assert ("tic-tac-toe", ["greedy", "mcts"], 1002, "greedy") in order  # game i of seat s: seed + 1000 s + i


def test_a_solo_game_plays_each_bot_alone():
    assert [(s, seed) for _, s, seed, _ in strength.tasks("burbuja", ["random"], 2, 5)] == [
        (["mcts"], 5), (["random"], 5), (["mcts"], 6), (["random"], 6)]


def test_a_run_resumes_where_it_stopped_and_the_table_counts_each_result(tmp_path):
    out = tmp_path / "r.jsonl"
    first = strength.run(["tic-tac-toe"], ["random"], 1, 1, 0.02, 1, out)
    assert len(first) == 2 and len(strength.read(out)) == 2
    again = strength.run(["tic-tac-toe"], ["random"], 2, 1, 0.02, 1, out)  # only the two new games are played
    assert len(again) == 4 and len(strength.read(out)) == 4
    (row,) = strength.rows(again)
    assert row["games"] == 4 and row["win"] + row["draw"] + row["loss"] == 4 and row["seats"] == [0, 1]
    for r in again:  # tic-tac-toe alternates: a seat's turns are its decisions
        bot = r["seats"].index("mcts")
        assert r["turns"][bot] == (r["decisions"] + (bot == 0)) // 2 and 0 < r["turn_max"][bot] <= r["cpu"][bot]
    assert 0 < row["turn_mean"] <= row["turn_max"]
    assert "| tic-tac-toe | 2 | mcts 0.02 vs random | 4 |" in strength.markdown(again)


def test_scores_and_interval():
    rec = {"seats": ["random", "mcts"], "end": "x"}
    assert strength.score({**rec, "winners": [1]}, "mcts") == "win"
    assert strength.score({**rec, "winners": [0, 1]}, "mcts") == "draw"  # a shared win
    assert strength.score({**rec, "winners": [0]}, "mcts") == "loss"
    assert strength.score({**rec, "winners": [], "end": None}, "mcts") == "draw"  # unfinished
    lo, hi = strength.wilson(90, 100)
    assert 0.82 < lo < 0.83 and 0.94 < hi < 0.95


def test_the_best_tic_tac_toe_rate_against_random_is_below_100_percent():
    from benchmarks import tic_tac_toe_vs_random as ttt

    assert ttt.best_rates() == (Fraction(191, 192), Fraction(887, 945))
    assert ttt.win_chance("XX.OO....", "X") == 1  # X to play takes the open line
    # O's chance with random X to play: X misses 2 and 5 (3/5: O wins at 5), or blocks at 5 (1/5), then O blocks
    # at 2 and wins unless X's random reply is 6 (2/3)
    assert ttt.win_chance("XX.OO....", "O") == Fraction(3, 5) + Fraction(1, 5) * Fraction(2, 3)
    # the table shows that ceiling beside the row it bounds, and nowhere else
    assert "96.7 % (X 99.5 %, O 93.9 %" in strength.ceiling("tic-tac-toe", "random")
    assert strength.ceiling("tic-tac-toe", "greedy") == strength.ceiling("reversi", "random") == ""
