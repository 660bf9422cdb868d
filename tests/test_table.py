"""The shared screen (orrery play): seeds from the OS, no seed on screen in a game with hidden
information until it is over, and a cleared hand-over between humans in hot-seat games."""

from __future__ import annotations

import functools
import io
import json
import sys

import pytest
from rich.console import Console

from conftest import REPO, SPECS, load_game
from screens import TmuxPlay, tmux_available
from orrery.interpreter.cli import render
from orrery.interpreter.cli.main import main
from orrery.interpreter.files.log import read_log
from orrery.interpreter.cli.table import Handover, draws_at_random, hidden_information, private_views

CARDS = SPECS / "draw-discard.yaml"
CLEAR = "\x1b[2J\x1b[H\x1b[3J"  # the screen, then the scrollback it was moved into


def run(capsys, monkeypatch, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    """Run the CLI in-process with this stdin; return (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def bundled(name: str):
    return load_game(REPO / "games" / name / "rules.yaml")


@pytest.mark.parametrize("name, hidden", [("tic-tac-toe", False), ("reversi", False), ("bubblee-pop", True),
                                          ("burbuja", True), ("bubble-singularity", True)])
def test_which_bundled_games_have_hidden_information(name, hidden):
    assert hidden_information(bundled(name).rules) is hidden


def test_private_views_and_random_draws_are_told_apart():
    cards = load_game(CARDS).rules
    assert private_views(cards) and draws_at_random(cards)
    assert not private_views(bundled("connect-four").rules) and not draws_at_random(bundled("connect-four").rules)


def test_two_games_without_seed_deal_differently(capsys, monkeypatch, tmp_path):
    deals, seeds = [], []
    for k in range(2):
        log = tmp_path / f"game{k}.jsonl"
        code, _, _ = run(capsys, monkeypatch, "play", "bubblee-pop", "--seats", "first,first", "--no-save",
                         "--quiet-board", "--log", str(log))
        assert code == 0
        seed = read_log(log).header["seed"]
        gs = bundled("bubblee-pop").new_initial_state(players=2, seed=seed)
        seeds.append(seed)
        deals.append(json.dumps(gs.view(None)["zones"], sort_keys=True))
    assert seeds[0] != seeds[1]
    assert deals[0] != deals[1]


@pytest.mark.parametrize("name, seats", [("bubblee-pop", "random,random"), ("burbuja", "random"),
                                         ("bubble-singularity", "random,random")])
def test_no_screen_of_a_hidden_information_game_shows_its_seed(capsys, monkeypatch, tmp_path, name, seats):
    save, log = tmp_path / "game.orrery-save.json", tmp_path / "game.jsonl"
    code, out, _ = run(capsys, monkeypatch, "play", name, "--seats", seats, "--save", str(save), "--log", str(log))
    assert code == 0 and "Game over" in out
    seed = json.loads(save.read_text())["seed"]
    assert read_log(log).header["seed"] == seed  # the private record keeps it
    during, _, after = out.rpartition(f"seed {seed} (replay this deal with --seed {seed})")
    assert during, "the seed is shown once the game is over"
    assert str(seed) not in during
    assert "seed shown at the end" in out.splitlines()[0]
    assert "private record" in out


def test_a_game_without_hidden_information_shows_its_seed_at_once(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "random,random", "--seed", "12",
                       "--quiet-board")
    assert code == 0 and "seed 12" in out.splitlines()[0]


def test_given_seed_is_kept_in_the_save(capsys, monkeypatch, tmp_path):
    save = tmp_path / "s.orrery-save.json"
    run(capsys, monkeypatch, "play", "bubblee-pop", "--seats", "random,random", "--seed", "77", "--save", str(save),
        "--quiet-board")
    assert json.loads(save.read_text())["seed"] == 77


def test_resume_with_a_wrong_seed_does_not_tell_the_saved_one(capsys, monkeypatch, tmp_path):
    save = tmp_path / "s.orrery-save.json"
    run(capsys, monkeypatch, "play", "bubblee-pop", "--seats", "human,random", "--save", str(save), stdin="quit\n")
    seed = json.loads(save.read_text())["seed"]
    code, _, err = run(capsys, monkeypatch, "play", "--resume", str(save), "--seed", str(seed + 1), stdin="quit\n")
    assert code == 2 and "does not match the save's seed" in err and str(seed) not in err


def test_simulate_without_seed_draws_one_and_reports_it(capsys, monkeypatch):
    seeds = []
    for _ in range(2):
        code, out, _ = run(capsys, monkeypatch, "simulate", "bubblee-pop", "--games", "1", "--json")
        assert code == 0
        seeds.append(json.loads(out)["seed"])
    assert seeds[0] != seeds[1]


def test_hot_seat_hands_over_with_a_cleared_screen(capsys, monkeypatch, tmp_path):
    # a terminal console, so that the clearing control codes are written
    monkeypatch.setattr(render, "SafeConsole", functools.partial(render.SafeConsole, force_terminal=True))
    turns = "1\n" + "\n1\n" * 3  # p0 plays; then each hand-over is an Enter, then a card
    code, out, _ = run(capsys, monkeypatch, "play", str(CARDS), "--seats", "human,human",
                       "--save", str(tmp_path / "s.json"), stdin=turns)
    assert code == 0 and "Game over" in out
    assert out.count("Pass the screen to") == 3
    assert out.count(CLEAR) == 6  # cleared before the hand-over and again after Enter
    # the first hand-over comes after seat 1's screen, and clears it: the clear precedes the message
    first = out.index("Pass the screen to")
    assert out.rfind(CLEAR, 0, first) > out.find("Discard which card?")


def test_a_single_human_gets_no_hand_over(capsys, monkeypatch, tmp_path):
    code, out, _ = run(capsys, monkeypatch, "play", str(CARDS), "--seats", "human,random",
                       "--save", str(tmp_path / "s.json"), stdin="1\n" * 4)
    assert code == 0 and "Pass the screen" not in out


def test_handover_waits_for_enter_and_stops_at_end_of_input():
    out = io.StringIO()
    console = Console(file=out, force_terminal=True)
    asked: list[str] = []
    h = Handover([0, 1], load_game(CARDS).rules, console, ask=asked.append)
    assert h.to(0) and h.to(0) and not asked  # the same human again: nothing to hide
    assert h.to(1) and len(asked) == 1 and CLEAR in out.getvalue()

    def eof(_: str) -> str:
        raise EOFError

    h.ask = eof
    assert h.to(0) is False


def test_the_incoming_player_is_told_what_the_others_did_as_they_may_see_it(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "play", str(CARDS), "--seats", "human,human", "--seed", "3", "--no-save",
                       stdin="1\n\n1\n\n")
    assert code == 0
    to_p2 = out.split("Since your last turn, P2:")[1].split("P2, Discard which card?")[0]
    to_p1 = out.split("Since your last turn, P1:")[1].split("P1, Discard which card?")[0]
    assert "P1 (human): Discard which card? -> moon 2 card" in to_p2  # discarded: public from then on
    assert "P2 (human): Discard which card? -> sun 2 card" in to_p1 and "P1 (human)" not in to_p1


@pytest.mark.skipif(not tmux_available(), reason="tmux is not installed")
def test_after_a_hand_over_the_scrollback_holds_nothing_of_the_previous_hand():
    # P1 holds moon 2, moon 3 and sun 4 (seed 3) and discards moon 2; P2 must not scroll back to the others
    play = TmuxPlay([str(CARDS), "--seats", "human,human", "--seed", "3", "--no-save"], name="handover")
    try:
        play.wait_for("P1, Discard which card?")
        assert any("moon 3 card" in line for line in play.history())  # (P1's screen shows it)
        play.keys("1", "Enter")
        play.wait_for("Pass the screen to P2")
        play.keys("Enter")
        play.wait_for("P2, Discard which card?")
        seen = "\n".join(play.history())
    finally:
        play.close()
    assert "Since your last turn, P2:" in seen and "moon 2 card" in seen
    assert "moon 3 card" not in seen and "sun 4 card" not in seen


def test_no_hand_over_when_everyone_sees_the_same(capsys):
    h = Handover([0, 1], bundled("tic-tac-toe").rules, Console(file=io.StringIO()), ask=lambda _: pytest.fail())
    assert h.to(0) and h.to(1)


def test_docs_say_the_save_and_log_are_private():
    text = (REPO / "README.md").read_text() + (REPO / "docs" / "design.md").read_text()
    assert "private record" in text
