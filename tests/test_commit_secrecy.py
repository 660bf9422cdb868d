"""The hidden-information check of issue 30 for `commit` (docs/dsl.md 4.24).

Random games of the secret-choice examples are played; at every sealed question asked after some answers
were given, the position is rebuilt with every other answer the players before could have given in secret
(the asked player's own answer kept).  For each player, what that player is shown must be the same in all
of them: their `view()`, the narration, the lines the table prints for the moves so far (a bot's move, an
answer the engine gave by itself) and their play screen.  So no view, line or screen holds another player's
pending answer, not even a trace of it (a count, a summary of what changed).  Then the table itself:
`orrery play` with bots prints no sealed answer.
"""

from __future__ import annotations

import io
import itertools
import json

import pytest
from rich.console import Console

from conftest import SPECS, budget
from orrery.interpreter.cli.narrate import SEALED, auto_lines, bot_lines
from orrery.interpreter.cli.render import state_text
from orrery.interpreter.cli.screen import PlayScreen
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.engine.game import Game

GAMES = {"blind-bid": (SPECS / "blind-bid.yaml", 3), "matching-pennies": (SPECS / "matching-pennies.yaml", 2)}


def shown_to(gs, viewer: int, since: int) -> tuple:
    """Everything `viewer` is shown at this point: view, narration, the table's lines, the screen."""
    lines = []
    for s in gs.steps[since:]:
        if not s.auto:
            lines += bot_lines(gs, s.player, "random", s.prompt, s.label, [], None, [], s.sealed)
    lines += auto_lines(gs, since, [])
    console = Console(record=True, width=100, file=io.StringIO(), color_system=None)
    if gs.current_player() == viewer:
        console.print(PlayScreen(gs, viewer, console).render())
        screen = console.export_text()
    else:
        screen = state_text(gs, viewer)
    return json.dumps(gs.view(viewer), sort_keys=True), list(gs.narration), lines, screen


def _alternatives(start, asked: list[tuple[int, list[int], int]], viewer: int):
    """The positions reached from `start` by every answer the others could have given (the viewer's kept)."""
    choices = [[index] if seat == viewer else menu for seat, menu, index in asked]
    for answers in itertools.product(*choices):
        alt = start.clone()
        for index in answers:
            alt.apply(index)
        yield answers, alt


@pytest.mark.parametrize("name", sorted(GAMES))
def test_nothing_shown_to_a_player_depends_on_another_players_sealed_answer(name):
    path, players = GAMES[name]
    game = Game.load(path)
    checked = 0
    for seed in range(budget(6, 16)):
        gs = game.new_initial_state(players=players, seed=seed)
        rng = Rng(seed)
        start, since, asked = None, 0, []
        while not gs.is_terminal():
            d = gs.decision
            committed = gs.view()["commit"]["committed"] if d.sealed else []
            if d.sealed and not committed:  # a commit starts asking
                start, since, asked = gs.clone(), len(gs.steps), []
            elif d.sealed and len(committed) != len(asked):  # an answer the engine gave (one option) started it
                start, asked = None, []
            if d.sealed and asked:
                for viewer in range(players):
                    real = shown_to(gs, viewer, since)
                    for answers, alt in _alternatives(start, asked, viewer):
                        assert shown_to(alt, viewer, since) == real, (name, seed, viewer, answers)
                        checked += 1
            index = gs.legal_actions()[rng.below(len(gs.legal_actions()))]
            if d.sealed and start is not None:
                asked.append((d.player, gs.legal_actions(), index))
            gs.apply(index)
    assert checked >= 12  # (the check compared positions that differ in a sealed answer)


def test_a_check_that_reads_a_sealed_answer_would_fail():
    """The check above is not blind: the omniscient view, and a table line that named a sealed answer, differ."""
    path, _ = GAMES["matching-pennies"]
    gs = Game.load(path).new_initial_state(seed=0)
    start, since = gs.clone(), len(gs.steps)
    gs.apply(0)
    other = start.clone()
    other.apply(1)
    assert gs.view()["commit"] != other.view()["commit"]
    assert bot_lines(gs, 0, "random", "p", gs.steps[-1].label, [], None, []) != \
        bot_lines(other, 0, "random", "p", other.steps[-1].label, [], None, [])
    assert shown_to(gs, 1, since) == shown_to(other, 1, since)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_table_prints_no_sealed_answer(name, tmp_path, capsys, monkeypatch):
    from orrery.interpreter.cli.main import main

    path, players = GAMES[name]
    monkeypatch.chdir(tmp_path)
    seats = ",".join(["random"] * players)
    assert main(["play", str(path), "--seats", seats, "--seed", "11", "--quiet-board", "--no-save"]) == 0
    out = capsys.readouterr().out
    sealed_lines = [line for line in out.splitlines() if "?" in line and ("->" in line or " — " in line)]
    assert sealed_lines and all(line.rstrip().endswith(SEALED) or line.rstrip().endswith(f"{SEALED} (the only "
                                                                                          f"option)")
                                for line in sealed_lines), sealed_lines


def test_a_log_holds_every_answer_and_replays_exactly(tmp_path, capsys, monkeypatch):
    """The log is the table's private record: it keeps the sealed answers (replay must be exact), and
    `orrery replay` prints none of them."""
    from orrery.interpreter.cli.main import main

    path, players = GAMES["blind-bid"]
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "game.jsonl"
    assert main(["play", str(path), "--seats", "random,random,random", "--seed", "4", "--quiet-board",
                 "--no-save", "--log", str(log)]) == 0
    capsys.readouterr()
    steps = [json.loads(line) for line in log.read_text().splitlines()[1:] if '"step"' in line]
    assert steps and all(s["prompt"].startswith("Your sealed bid") for s in steps)
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "every state matches" in out and "game over (last round)" in out
