"""`orrery coverage`: what fired and what was legal, dead rules with FILE:LINE, the same counts on both engines."""

import json
import os
from pathlib import Path

import pytest

from orrery.interpreter.cli.main import main
from orrery.interpreter.engine.game import Game
from orrery.interpreter.workbench.coverage import coverage, never_fired, never_legal
from orrery.interpreter.workbench.trials import run_trials

HERE = Path(__file__).parent / "workbench"
DUEL = HERE / "duel.yaml"
GAMES = 20


def line_of(text: str) -> str:
    """FILE:LINE of the first line of duel.yaml holding `text`."""
    lines = DUEL.read_text().splitlines()
    path = os.path.relpath(DUEL.resolve()) if str(DUEL.resolve()).startswith(os.getcwd() + os.sep) else DUEL.resolve()
    return f"{path}:{next(i for i, line in enumerate(lines, 1) if text in line)}"


@pytest.fixture(scope="module")
def uses():
    game = Game.load(DUEL)
    return {(u.kind, u.name): u for u in coverage(game, run_trials(game, GAMES, 2, 1, ["random"]))}


def test_the_planted_dead_rules_are_reported_with_their_line(uses):
    dead = {(u.kind, u.name): u.where for u in never_fired(list(uses.values()))}
    assert dead[("trigger", "planted_dead")] == line_of("planted_dead:")
    assert dead[("action", "never")] == line_of("never:")
    assert dead[("branch", "actions.high: if")] == line_of("if rolled > 99")
    assert ("table row", "step[1]") in dead and ("table row", "step[2]") in dead
    assert ("table row", "step[0]") not in dead
    assert [u.name for u in never_legal(list(uses.values()))] == ["never"]


def test_what_the_games_did_is_counted_exactly(uses):
    rolls = 3 * GAMES  # three rolls a game, each after a call of high or low
    assert uses[("action", "high")].fired + uses[("action", "low")].fired == rolls
    assert uses[("action", "high")].legal == uses[("action", "low")].legal == rolls  # offered at every decision
    assert uses[("action", "never")].legal == 0
    assert uses[("procedure", "roll")].fired == rolls
    assert uses[("branch", "procedures.roll: if")].fired + uses[("branch", "procedures.roll: else")].fired == rolls
    assert uses[("table row", "step[0]")].fired == rolls
    assert uses[("end", "decided")].fired == GAMES


@pytest.mark.parametrize("name, games", [("duel", 3), ("tic-tac-toe", 3), ("bubble-singularity", 2)])
def test_coverage_is_the_same_for_games_played_on_either_engine(name, games):
    path = DUEL if name == "duel" else name
    counts = []
    for mode in ("compiled", "interpreted"):
        game = Game.load(DUEL, mode=mode) if name == "duel" else __import__("orrery").load_game(name, mode=mode)
        trials = run_trials(game, games, game.num_players(), 5, ["random"])  # (Bubble Singularity: 2, its games are long)
        counts.append([u.as_dict() for u in coverage(game, trials)])
    assert counts[0] == counts[1]
    assert sum(u["fired"] for u in counts[0]) > 0, path


def test_the_command_lists_dead_rules_and_prints_json(capsys):
    assert main(["coverage", str(DUEL), "--games", "5"]) == 0
    out = capsys.readouterr().out
    assert f"{line_of('planted_dead:')}: trigger planted_dead" in out
    assert f"{line_of('never:')}: action never" in out and "never legal (1)" in out
    assert main(["coverage", str(DUEL), "--games", "5", "--json"]) == 0
    rules = json.loads(capsys.readouterr().out)["rules"]
    assert {r["kind"] for r in rules} == {"action", "trigger", "procedure", "branch", "table row", "end"}


def test_cards_chosen_in_a_bundled_game_are_counted():
    import orrery

    game = orrery.load_game("bubble-singularity")
    uses = coverage(game, run_trials(game, 2, 2, 3, ["random"]))
    cards = [u for u in uses if u.kind == "card"]
    assert cards and any(u.fired for u in cards) and any(u.legal for u in cards)  # starting abilities are chosen
    assert not any(u.name.startswith("mari:") for u in cards)  # pieces never offered to a player are not cards
    assert all(u.where.endswith(tuple("0123456789")) and "rules.yaml:" in u.where for u in cards)


def test_jobs_replay_shares_of_the_games_and_the_counts_add_up():
    game = Game.load(DUEL)
    trials = run_trials(game, 9, 2, 2, ["random"])
    assert [u.as_dict() for u in coverage(game, trials, jobs=2)] == [u.as_dict() for u in coverage(game, trials)]


def test_an_action_only_a_window_offers_is_legal_when_a_window_asks():
    import orrery

    game = orrery.load_game("lantern-fair")  # `cheer` is only ever offered by the window after a buy
    uses = {(u.kind, u.name): u for u in coverage(game, run_trials(game, 3, 2, 1, ["random"]))}
    cheer = uses[("action", "cheer")]
    assert cheer.legal and cheer.legal >= cheer.fired > 0
    assert "cheer" not in {u.name for u in never_legal(list(uses.values()))}


def test_a_table_no_game_read_is_listed_once_and_a_partly_read_one_row_by_row():
    from orrery.interpreter.workbench.coverage import RuleUse, never_fired_listing

    uses = [RuleUse("table row", "styles[red]", "r.yaml:3"), RuleUse("table row", "styles[blue]", "r.yaml:3"),
            RuleUse("table row", "step[0]", "r.yaml:4", fired=2), RuleUse("table row", "step[1]", "r.yaml:4"),
            RuleUse("trigger", "t", "r.yaml:9")]
    assert never_fired_listing(uses) == [("r.yaml:3", "table", "styles: no row read (2 rows)"),
                                         ("r.yaml:4", "table row", "step[1]"), ("r.yaml:9", "trigger", "t")]
