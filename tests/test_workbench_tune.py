"""`orrery tune`: optuna searches constants: the known balanced setting is found, a bundled game gets a variant that
validates with its metrics, searches resume from storage, and bad parameters are plain errors (exit 2)."""

import re
from pathlib import Path

import pytest
import yaml

from orrery.interpreter.cli.main import main
from orrery.interpreter.engine.game import Game

pytest.importorskip("optuna", reason="orrery tune needs the optional extra orrery[workbench]")

DUEL = str(Path(__file__).parent / "workbench" / "duel.yaml")


def test_the_known_balanced_setting_is_found_and_written_as_a_variant(tmp_path, capsys):
    out = tmp_path / "fair.yaml"
    assert main(["tune", DUEL, "--param", "odds=1..9", "--trials", "9", "--games", "60", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    # the die gives the first seat odds/10 a roll: fair at 5; the 9 trials are the grid of the 9 values
    assert "best of 9 trials (all 9 parameter sets of the ranges played): odds=5" in printed
    text = out.read_text()
    assert text.startswith("# Written by: orrery tune")
    assert "win rate seat 1: 0." in text and "(n = 60)" in text  # its measured metrics, with intervals
    doc = yaml.safe_load(text)
    assert doc["changes"] == [{"set": "constants.odds", "value": 5}]
    game = Game.load(DUEL, [str(out)])
    assert game.rules.names["odds"] == ("const", 5) or game.spec.model.constants["odds"] == 5


def test_tpe_finds_the_balanced_setting_in_fewer_trials_than_the_values(tmp_path, capsys):
    # 11 values, 8 trials: the grid does not fit, so optuna's TPE sampler (seeded by --seed 1) proposes them
    assert main(["tune", DUEL, "--param", "odds=0..10", "--trials", "8", "--games", "60", "--out",
                 str(tmp_path / "t.yaml")]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"best of 8 trials( \(\d+ repeated proposals asked again\))?: odds=5", printed)
    assert len(set(_tried(printed))) == len(_tried(printed)) == 8  # 8 different values: no trial spent on a repeat


def _tried(printed: str) -> list[str]:
    """The values of the trials played, in order, from tune's progress lines."""
    return [ln.split("odds=")[1].split(":")[0] for ln in printed.splitlines() if ln.strip().startswith("trial ")]


def test_a_value_the_sampler_proposes_again_costs_no_trial(tmp_path, capsys):
    # TPE on 11 whole values proposes some again (before, 6 of 12 trials went to 5 repeats and a pruned value
    # played again); each repeat now fails unplayed and the sampler is asked again, so 12 trials play every value
    # once and the search stops when none is left
    assert main(["tune", DUEL, "--param", "odds=0..10", "--sampler", "tpe", "--trials", "12", "--games", "40",
                 "--out", str(tmp_path / "t.yaml")]) == 0
    printed = capsys.readouterr().out
    assert sorted(map(int, _tried(printed))) == list(range(11))
    assert re.search(r"best of 11 trials \(\d+ repeated proposals asked again; all 11 parameter sets of the ranges "
                     r"played\)", printed)
    assert "not played again" not in printed


def test_a_sampler_stuck_on_played_values_is_moved_to_the_nearest_untried_ones():
    from orrery.interpreter.workbench.tune import FreshProposals, Param

    params = [Param("a", 0, 4, True), Param("b", 10, 12, True)]
    fresh = FreshProposals(params, 1, {(2, 11), (3, 11)})
    assert fresh.take({"a": 1, "b": 11}) and not fresh.take({"a": 1, "b": 11})  # played once: a repeat after
    for _ in range(FreshProposals.ASKS - 1):
        assert not fresh.stuck()
        fresh.take({"a": 2, "b": 11})
    assert fresh.stuck() and fresh.repeats == FreshProposals.ASKS
    # nearest to a=2, b=11, each step a share of its range (a: 1/4, b: 1/2): a=0 or 4 (2/4) or b=10 or 12 (1/2)
    # are equally near; ties go to the first in listed order (a, then b, ascending)
    assert fresh.nearest_untried({"a": 2, "b": 11}) == {"a": 0, "b": 11}
    assert fresh.take({"a": 0, "b": 11}) and not fresh.stuck()
    assert fresh.nearest_untried({"a": 2, "b": 11}) == {"a": 2, "b": 10}
    assert fresh.nearest_untried({"a": 1, "b": 11}) == {"a": 1, "b": 10}  # b one step (1/2) beats a=4 (3/4)
    for a in range(5):
        for b in range(10, 13):
            fresh.take({"a": a, "b": b})
    assert fresh.exhausted()
    wide = FreshProposals([Param("x", 0.0, 1.0, False)], 3, {(0.5,)})
    assert not wide.exhausted() and wide.nearest_untried({"x": 0.5})["x"] != 0.5


def test_values_proposed_again_reuse_their_games(tmp_path):
    from orrery.interpreter.workbench.tune import Search, parse_param

    game = Game.load(DUEL)
    loads: list[int] = []

    def load(variants):
        loads.append(len(variants))
        return Game.load(DUEL, [str(v) for v in variants])

    search = Search(Path(DUEL), [], load, [parse_param("odds=1..9", game)], {"fairness": 1.0}, 8, 2, 1,
                    ["random", "random"], workdir=tmp_path)
    first = search.play(0, {"odds": 3}, lambda value, games: False)
    again = search.play(1, {"odds": 3}, lambda value, games: False)
    assert len(loads) == 1  # the same rules on the same seeds are the same games: not loaded nor played again
    assert again.repeat_of == 0 and again.value == first.value and again.trials is first.trials


def test_clearly_worse_candidates_are_pruned_after_a_few_games(tmp_path, capsys):
    assert main(["tune", DUEL, "--param", "odds=1..9", "--trials", "9", "--games", "80", "--out",
                 str(tmp_path / "t.yaml")]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.strip().startswith("trial ")]
    pruned = [ln for ln in lines if ln.endswith("(pruned)")]
    assert len(lines) == 9 and pruned
    assert all("after 80 games" not in ln for ln in pruned)


def test_a_search_resumes_from_its_storage(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'tune.db'}"
    args = ["tune", DUEL, "--param", "odds=2..8", "--sampler", "tpe", "--games", "6", "--storage", db,
            "--out", str(tmp_path / "r.yaml")]
    assert main(args + ["--trials", "3"]) == 0
    assert main(args + ["--trials", "2"]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"best of 5 trials\b", printed)
    assert len(set(_tried(printed))) == 5  # the second run proposes none of the values the first one played


def test_a_bundled_game_gets_a_variant_that_validates(tmp_path, capsys):
    out = tmp_path / "tuned.yaml"  # (Bubblee Pop: a trial's games cost a third of Ultramassive's, same path)
    assert main(["tune", "bubblee-pop", "--param", "in_a_row=3..4", "--trials", "3", "--games", "3",
                 "--out", str(out)]) == 0
    assert main(["validate", str(out)]) == 0
    assert "ok:" in capsys.readouterr().out
    assert "length (decisions)" in out.read_text()


@pytest.mark.parametrize("param, message", [
    ("odd=1..9", "did you mean 'odds'"),
    ("odds=1.5..3", "is a whole number, so its range must be too"),
    ("odds=7..3", "the range is empty"),
    ("odds=1-9", "expected NAME=LO..HI"),
    ("odds=a..3", "'a' is not a number"),
])
def test_bad_parameters_are_plain_errors(param, message, tmp_path, capsys):
    assert main(["tune", DUEL, "--param", param, "--trials", "1", "--games", "1", "--out", str(tmp_path / "x.yaml")]) == 2
    assert message in capsys.readouterr().err


def test_a_constant_that_is_not_a_number_and_an_unknown_objective_are_refused(tmp_path, capsys):
    assert main(["tune", "ultramassive", "--param", "advanced_draft=0..1", "--trials", "1", "--games", "1"]) == 2
    assert "not a number" in capsys.readouterr().err
    assert main(["tune", DUEL, "--param", "odds=1..9", "--objective", "fun", "--games", "1"]) == 2
    assert "'fun' is not an objective" in capsys.readouterr().err


def test_a_file_tune_did_not_write_is_not_overwritten(tmp_path, capsys):
    mine = tmp_path / "mine.yaml"
    mine.write_text("precious: true\n")
    assert main(["tune", DUEL, "--param", "odds=4..6", "--trials", "1", "--games", "1", "--out", str(mine)]) == 2
    assert mine.read_text() == "precious: true\n" and "was not written by orrery tune" in capsys.readouterr().err
