"""A move told in the game's words (interpreter/cli/moves.py): each kind of change, on a made-up game whose
actions each do one thing without a `say` (tests/specs/workshop.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_game, new_state

from orrery.interpreter.cli.moves import Moment, plural, told_move
from orrery.interpreter.cli.narrate import Sight, bot_lines, told_lines
from orrery.interpreter.cli.play import visible_pieces

WORKSHOP = Path(__file__).parent / "specs" / "workshop.yaml"

TOLD = [  # action, what North's move is told as (seed 2: the bag's first draw is a red stone)
    ("slide", ["North moves the red stone from a1 to c1"]),
    ("swap two", ["North swaps the red stone at a1 with the blue stone at b1"]),
    ("fetch", ["North places a red stone from the bag at c1"]),
    ("stamp", ["North puts a new North token at c1"]),
    ("scrap", ["North removes the red stone at a1"]),
    ("keep", ["North moves the blue stone from b1 to the shelf"]),  # (the label's note in brackets left out)
    ("heat", ["the heat of the red stone at a1 goes from 0 to 2"]),
    ("paint", ["the red stone at a1 turns into a blue stone"]),
    ("hoard", ["North moves 2 stones from the bag to North's hand"]),  # the hand is North's only: not named
    ("score", ["North's score goes from 0 to 3"]),
]


@pytest.fixture(scope="module")
def workshop():
    return load_game(WORKSHOP)


@pytest.mark.parametrize("action, told", TOLD, ids=[a for a, _ in TOLD])
def test_each_kind_of_change_is_told_in_words(workshop, action, told):
    gs = new_state(workshop, seed=2)
    before = Moment.of(gs)
    gs.apply_label(action)
    assert told_move(gs, 0, before) == told
    assert bot_lines(gs, 0, "random", "What now?", action, [], before, Sight()) == \
        [f"North (random): What now? -> {action}"] + [f"  {line}" for line in told]


def test_a_seat_reads_the_names_of_the_pieces_it_sees_and_others_only_their_kind(workshop):
    gs = new_state(workshop, seed=2)
    before = Moment.of(gs)
    seen = {p: visible_pieces(gs, p) for p in (0, 1)}
    gs.apply_label("hoard")
    own = told_lines(gs, 0, [], before, Sight.around(gs, [0], seen, visible_pieces))
    other = told_lines(gs, 0, [], before, Sight.around(gs, [1], seen, visible_pieces))
    assert own == ["  North moves a blue stone from the bag to North's hand and a red stone from the bag to "
                   "North's hand"] or own == ["  North moves a red stone from the bag to North's hand and a blue "
                                              "stone from the bag to North's hand"]
    assert other == ["  North moves 2 stones from the bag to North's hand"]


def test_the_rules_own_narration_wins_and_nothing_is_told_of_a_move_that_changed_nothing(workshop):
    gs = new_state(workshop, seed=2)
    before = Moment.of(gs)
    gs.apply_label("slide")
    assert told_lines(gs, 0, ["North slides a stone"], before, Sight()) == ["  North slides a stone"]
    assert told_move(gs, 0, Moment.of(gs)) == []


def test_a_move_into_another_seats_zone_does_not_say_the_mover_did_it(workshop):
    gs = new_state(workshop, seed=2)
    before = Moment.of(gs)
    gs.apply_label("give")  # the rules hand the stone over
    assert told_move(gs, 0, before) == ["the blue stone goes from b1 to South's hand"]


def test_a_mark_made_on_a_bundled_board():
    from conftest import REPO

    gs = new_state(load_game(REPO / "games" / "tic-tac-toe" / "rules.yaml"))
    before = Moment.of(gs)
    gs.apply_label("b2")
    assert told_move(gs, 0, before) == ["X puts a new X mark at b2"]


@pytest.mark.parametrize("word, words", [("card", "cards"), ("anomaly", "anomalies"), ("box", "boxes"),
                                         ("day", "days"), ("marsh", "marshes")])
def test_plural_of_a_kinds_name(word, words):
    assert plural(word) == words


def test_at_the_table_a_humans_own_move_is_told_too(capsys, monkeypatch):
    import io
    import sys

    from orrery.interpreter.cli.main import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("slide\nquit\n"))
    assert main(["play", str(WORKSHOP), "--seats", "human,first", "--seed", "2", "--no-save",
                 "--quiet-board"]) == 0
    out = capsys.readouterr().out
    assert ">   North moves the red stone from a1 to c1\nSouth (first): What now? -> slide\n" in out  # (answer not echoed)
