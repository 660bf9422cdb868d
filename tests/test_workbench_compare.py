"""`orrery compare`: paired seeds, intervals, significance; and the trials it rests on are simulate's games."""

import json
from pathlib import Path

import pytest

from orrery.interpreter.bots.simulate import simulate
from orrery.interpreter.cli.main import main
from orrery.interpreter.engine.game import Game
from orrery.interpreter.workbench.compare import compare_trials
from orrery.interpreter.workbench.trials import run_trials

HERE = Path(__file__).parent / "workbench"
DUEL = str(HERE / "duel.yaml")


def variant(name: str) -> str:
    return str(HERE / "variants" / f"{name}.yaml")


def compare_json(capsys, *args: str) -> dict:
    assert main(["compare", DUEL, *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def by_metric(result: dict) -> dict:
    return {m["metric"]: m for m in result["metrics"]}


def test_a_variant_that_changes_nothing_finds_no_significant_difference(capsys):
    m = by_metric(compare_json(capsys, "--variant", variant("same"), "--games", "60"))
    assert not any(row["significant"] for row in m.values())
    assert m["win rate seat 1"]["diff"] == 0 and m["win rate seat 1"]["n"] == 60


def test_a_different_but_equally_fair_variant_is_not_called_significant(capsys):
    m = by_metric(compare_json(capsys, "--variant", variant("mirrored"), "--games", "120"))
    row = m["win rate seat 1"]
    assert not row["significant"] and row["low"] < 0 < row["high"]  # ...but not on average


def test_a_variant_that_favours_a_seat_is_found(capsys):
    result = compare_json(capsys, "--variant", variant("first-favoured"), "--games", "60")
    m = by_metric(result)
    row = m["win rate seat 1"]
    assert row["significant"] and row["low"] > 0.2  # odds 9 in 10 against 5 in 10: +0.4 expected
    assert m["win rate seat 2"]["high"] < 0
    assert not m["length (decisions)"]["significant"]  # three rolls either way
    assert result["test"].startswith("paired t-test") and result["b"] == [variant("first-favoured")]


def test_two_variants_compare_against_each_other_and_the_table_marks_significance(capsys):
    assert main(["compare", DUEL, "--variant", variant("same"), "--variant", variant("first-favoured"),
                 "--games", "40"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("win rate seat 1"))
    assert row.endswith("*") and "40 paired games" in out and "Holm" in out


def test_trials_are_the_games_simulate_plays():
    game = Game.load(DUEL)
    trials = run_trials(game, 25, 2, 7, ["random"])
    sim = simulate(game, 25, 2, 7, ["random"])["results"]
    assert [(t.seed, t.winners, t.steps) for t in trials] == [(r["seed"], r["winners"], r["steps"]) for r in sim]


def test_pairs_must_share_seeds():
    game = Game.load(DUEL)
    with pytest.raises(ValueError):
        compare_trials(game, run_trials(game, 2, 2, 1, ["random"]), game, run_trials(game, 2, 2, 5, ["random"]))


@pytest.mark.parametrize("args, message", [
    (["--variant", "no-such-variant"], "no-such-variant"),
    ([], "give --variant B"),
    (["--variant", "same", "--bots", "nobody"], "--bots"),
    (["--variant", "same", "--players", "3"], "takes 2 players"),
])
def test_bad_input_is_a_plain_message_and_exit_2(capsys, args, message):
    args = [variant("same") if a == "same" else a for a in args]
    assert main(["compare", DUEL, *args, "--games", "2"]) == 2
    assert message in capsys.readouterr().err


def test_jobs_play_the_same_trials():
    game = Game.load(DUEL)
    one = run_trials(game, 12, 2, 3, ["random"])
    two = run_trials(game, 12, 2, 3, ["random"], jobs=2)
    assert [(t.seed, t.winners, t.leaders, t.branching) for t in one] == \
        [(t.seed, t.winners, t.leaders, t.branching) for t in two]
