"""`orrery bench --report` (interpreter/cli/bench_report.py) and the memory figures (interpreter/cli/bench_memory.py).

Structure and sanity only (every field of every game, positive figures, targets judged): speed itself is
measured by the command and written down in docs/performance.md, never asserted here.
"""

from __future__ import annotations

import json
import tracemalloc

import pytest

from orrery.interpreter.cli.bench_format import render
from orrery.interpreter.cli.bench_memory import memory_report, random_position, traced_bytes
from benchmarks.targets import CASCADE_REFERENCES, FULL_TABLE, GAME_ORDER, MCTS_TARGETS, REFERENCES, START
from orrery.interpreter.cli.bench_report import Settings, paired, rounds_of, run_report, targets
from orrery.interpreter.cli.main import main
from orrery.interpreter.engine.game import load_game

# The games every target names (benchmarks/targets.py), in the report's order: between them a game with a
# hand-written reference and one without, one with cascades (and their reference) and one without, the full
# table's game and its normaliser, the start-up game.  The report of every bundled game took 36 of the suite's
# CPU s, most of it one whole random game per engine of the long games left out here (Aqua Sphere, Ultramassive,
# Bubblee Pop, lantern-fair), whose figures come from the same generic code (their playouts on every engine,
# MCTS and the thinking bot are played by test_lean, test_mcts and test_bot_budget).
GAMES = [g for g in GAME_ORDER if g in {*REFERENCES, *CASCADE_REFERENCES, *MCTS_TARGETS, FULL_TABLE["game"],
                                         FULL_TABLE["normaliser"], START["game"]}]
TINY = Settings(seconds=0.01, think_budget=0.01, think_decisions=2, memory_seconds=0.01, clones=3,
                cascade_positions=2, chain_k=4, start_rounds=1, games=GAMES)


@pytest.fixture(scope="module")
def report() -> dict:
    return run_report(TINY)


def test_the_report_has_every_figure_of_every_game(report):
    assert [g["game"] for g in report["games"]] == GAMES and len(GAMES) >= 5
    for g in report["games"]:
        rates = g["playouts_per_s"]
        assert rates["compiled"] > 0 and rates["interpreted"] > 0 and g["compiled_vs_interpreted"] > 0
        assert (rates.get("reference", 0) > 0 and g["compiled_vs_reference"] > 0) == (g["game"] in REFERENCES)
        assert rates["lean"] > 0 and g["lean_vs_compiled"] > 0
        assert (g.get("lean_vs_reference", 0) > 0) == (g["game"] in REFERENCES)
        typed, untyped = g["source"]["typed"], g["source"]["untyped"]
        assert set(typed) == set(untyped) == {"class_checks", "helper_calls", "env_lookups"}
        assert g["mcts"]["iterations"] >= 1 and g["mcts"]["iterations_per_s"] > 0
        mem = g["memory"]
        assert mem["clone_bytes"]["position"] > 0 and mem["clone_bytes"]["game_state"] > 0
        assert mem["mcts"]["nodes"] >= 1 and mem["mcts"]["peak_bytes_per_10k_nodes"] >= 0
        think = g["think"]
        assert think["decisions"] >= 1 and think["max_s"] > 0 and think["budget_s"] == TINY.think_budget
        if load_game(g["game"]).rules.state_triggers:
            assert "cascades" in g


def test_the_report_has_the_single_figures_and_judges_every_target(report):
    b4 = report["full_table"]
    assert b4["games_per_s"] > 0 and b4["normalised_games_per_s"] > 0 and b4["normaliser_per_s"] > 0
    assert b4["sampled_games_per_s"] > 0 and b4["sampled_normalised_games_per_s"] > 0
    chain = report["chain"]
    assert chain["k"] == 4 and all(chain[m]["ratio"] > 0 for m in ("compiled", "interpreted"))
    start = report["start"]
    assert all(start[k] > 0 for k in ("first_decision_warm_s", "first_decision_cold_s", "first_screen_warm_s",
                                      "first_screen_cold_s"))
    names = [t["target"] for t in report["targets"]]
    assert len(names) == len(set(names))
    assert all(t["met"] in (True, False) and t["figure"] is not None for t in report["targets"])
    assert sum("MCTS" in n for n in names) == len(MCTS_TARGETS)
    assert sum("thinking bot" in n for n in names) == len(GAMES)


def test_the_report_is_json_and_text(report):
    assert json.loads(json.dumps(report)) == report
    text = render(report)
    assert all(g in text for g in GAMES)
    assert "Targets (issues 17 and 34):" in text and "bubble-singularity, 4 players" in text
    assert "lean x hand" in text and "class checks" in text and "first screen" in text


def test_rounds_alternate_their_order_and_ratios_are_taken_within_a_round():
    calls: list[tuple[str, int]] = []
    speed = {"ours": [10.0, 30.0, 20.0], "ref": [40.0, 60.0, 100.0]}  # a busy round 0, a quiet round 1

    def run(k: str):
        return lambda r: calls.append((k, r)) or speed[k][r]

    seen = rounds_of({"ours": run("ours"), "ref": run("ref")}, 3)
    assert calls == [("ours", 0), ("ref", 0), ("ref", 1), ("ours", 1), ("ours", 2), ("ref", 2)]
    # within rounds: 0.25, 0.5, 0.2 -> median 0.25; the ratio of the medians (20 / 60) would be 0.333
    assert paired(seen, "ours", "ref", 4) == (0.25, [0.2, 0.5])


def test_a_ratio_target_carries_its_spread(report):
    for t in targets(report):
        if "playouts / hand-written" in t["target"] or "compiled / interpreted" in t["target"]:
            lo, hi = t["spread"]
            assert lo <= t["figure"] <= hi
    many = run_report(Settings(seconds=0.01, rounds=3, think_budget=0.01, think_decisions=1, memory_seconds=0.01,
                               clones=2, start_rounds=0, games=["tic-tac-toe"]))
    (row,) = many["games"]
    for key in ("compiled_vs_interpreted", "lean_vs_compiled", "compiled_vs_reference", "lean_vs_reference"):
        lo, hi = row["spread"][key]
        assert lo <= row[key] <= hi
    assert "(rounds " in render(many)


def test_the_cli_report_of_one_game(capsys):
    code = main(["bench", "--report", "--games", "tic-tac-toe", "--seconds", "0.01", "--think", "0.01", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    data = json.loads(out)
    assert [g["game"] for g in data["games"]] == ["tic-tac-toe"]


@pytest.mark.parametrize("argv, says", [
    (["bench"], "give GAME, or --report"),
    (["bench", "--report", "--games", "chess"], "chess is not a bundled game"),
    (["bench", "--report", "connect-four", "--players", "2"], "leave out --variant, --players"),
])
def test_the_cli_refuses(capsys, argv, says):
    assert main(argv) == 2
    assert says in capsys.readouterr().err


# ------------------------------------------------------------------ memory


def test_traced_bytes_counts_what_is_kept_and_stops_tracing():
    held, peak, kept = traced_bytes(lambda: bytearray(1_000_000))
    assert 1_000_000 <= held < 1_010_000 and peak >= held and len(kept) == 1_000_000
    assert not tracemalloc.is_tracing()
    held, peak, _ = traced_bytes(lambda: len(bytearray(1_000_000)))  # made and dropped: only the peak sees it
    assert held < 10_000 and peak >= 1_000_000


def test_memory_report_of_a_game():
    game = load_game("connect-four")
    gs = random_position(game, seed=3)
    assert 0 < len(gs.history()) and not gs.is_terminal()
    mem = memory_report(game, seed=3, clones=20, iterations=30)
    clones = mem["clone_bytes"]
    assert 0 < clones["position"] <= clones["game_state"]
    search = mem["mcts"]
    assert search["iterations"] == 30 and search["nodes"] > 30  # the root and each expanded node have 7 children
    assert 0 < search["bytes_per_10k_nodes"] <= search["peak_bytes_per_10k_nodes"]
