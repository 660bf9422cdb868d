"""Every screen of a whole game fits its terminal: the play screen `orrery play` prints at each of the
human's decisions (state, narration and menu, fitted to the terminal's height as the play loop fits it),
then the prompt's line, for a full seeded game with the human answering `1` each time (as
tests/screens.py plays), at 80×24 for Burbuja and the classic games, at 100×40 for the larger ones.

Burbuja late in a game answered so is the hard case: its table of tiles grows to 20 columns and more,
and a move offers 50 cells; before the play screen knew the terminal's height it took up to 37 lines."""

from __future__ import annotations

import pytest

from screens import CASES, full_game_screens

SMALL = list({c.game: c for c in CASES if (c.width, c.height) == (80, 24) and not c.moment}.values())
BIG = list({c.game: c for c in CASES if (c.width, c.height) == (100, 40) and not c.moment}.values())


@pytest.mark.parametrize("case", SMALL + BIG, ids=[f"{c.game}-{c.width}x{c.height}" for c in SMALL + BIG])
def test_every_screen_of_a_whole_game_fits_its_terminal(case) -> None:
    """80×24 for Burbuja and the classic games, 100×40 for the two larger games (issue 18)."""
    screens = full_game_screens(case)
    assert len(screens) > 3
    for k, lines in enumerate(screens):
        where = f"{case.game}, the human's decision {k + 1} of {len(screens)}"
        assert len(lines) + 1 <= case.height, f"{where}: {len(lines)} lines and the prompt:\n" + "\n".join(lines)
        assert max(len(line) for line in lines) <= case.width, f"{where}: wider than {case.width}"
        assert any("Legend:" in line for line in lines), f"{where}: no legend"


# ------------------------------------------------------------------ a made-up game: a wide strip, a long menu

import functools  # noqa: E402
import io  # noqa: E402
import sys  # noqa: E402

from rich.console import Console  # noqa: E402

from conftest import make_game, new_state  # noqa: E402
from orrery.interpreter.cli import render  # noqa: E402
from orrery.interpreter.cli.main import main  # noqa: E402
from orrery.interpreter.cli.prompter import Table  # noqa: E402
from orrery.interpreter.cli.screen import PlayScreen  # noqa: E402

STRIP = """\
orrery: 1
game:
  name: long-strip
  title: Long Strip
  players: {min: 2, max: 2}
  seat_names: [Left, Right]
components:
  pieces:
    peg:
      attributes: {owner: player}
      unlimited: true
      symbol: 'if it.owner == 0 then "L" else "R"'
  zones:
    strip: {type: grid, width: 26, height: 3}
flow:
  phases:
    - name: play
      steps:
        - actions: [put]
actions:
  put:
    params:
      spot: {from: cells(strip), where: empty(spot), prompt: "Where does the peg go?"}
    effect: |
      create peg {owner: current} in spot
      say text(current) + " puts a peg on " + text(spot)
end:
  full:
    when: all(not empty(c) for c in cells(strip))
"""


def screen_of(gs, width: int, height: int | None, page: int = 0) -> tuple[list[str], PlayScreen]:
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    screen = PlayScreen(gs, gs.current_player(), console, height=height)
    console.print(screen.render(page))
    return console.export_text().rstrip("\n").split("\n"), screen


def test_a_grid_too_wide_for_its_rules_is_drawn_without_them_and_whole(tmp_path):
    gs = new_state(make_game(tmp_path, STRIP))
    lines, _ = screen_of(gs, 80, None)
    assert all(len(line) <= 80 for line in lines)
    letters = next(line for line in lines if line.split()[:2] == ["a", "b"])
    assert letters.split() == [chr(ord("a") + i) for i in range(26)]  # every column, none cropped
    assert not any("│" in line for line in lines)
    wide, _ = screen_of(gs, 120, None)
    assert any("│ a │ b │" in line for line in wide)  # with room, the rules stay


def test_a_menu_too_long_for_the_terminal_is_paged_and_every_page_fits(tmp_path):
    gs = new_state(make_game(tmp_path, STRIP))
    gs.apply_label("a1")
    whole, screen = screen_of(gs, 80, None)
    assert screen.pages == 1 and "77) z3" in " ".join(whole) and not any("'more'" in x for x in whole)
    first, screen = screen_of(gs, 80, 16)
    assert screen.pages > 1 and "  Left puts a peg on a1" in first  # the last narration line stays
    seen = []
    for page in range(screen.pages):
        lines, _ = screen_of(gs, 80, 16, page)
        assert len(lines) + 1 <= 16 and max(map(len, lines)) <= 80
        assert lines[-1].startswith("(options ") and lines[-1].endswith("'more' shows the next ones)")
        seen += [word for line in lines for word in line.split() if word.endswith(")") and word[:-1].isdigit()]
    assert sorted(seen, key=lambda w: int(w[:-1])) == [f"{i})" for i in range(1, 78)]  # every option once, numbered as in the whole menu
    assert screen_of(gs, 80, 16, screen.pages)[0] == first  # the pages wrap around


def test_more_at_the_prompt_shows_the_next_page_on_a_terminal(tmp_path, capsys, monkeypatch):
    path = tmp_path / "strip.yaml"
    path.write_text(STRIP, encoding="utf-8")
    monkeypatch.setattr(render, "SafeConsole", functools.partial(render.SafeConsole, force_terminal=True,
                                                                 width=80, height=16, color_system=None))
    monkeypatch.setattr(sys, "stdin", io.StringIO("more\nmore\nz3\n"))
    assert main(["play", str(path), "--seats", "human,human", "--seed", "1", "--no-save"]) == 0
    out = capsys.readouterr().out
    assert "(options 1-" in out and out.count("of 78; 'more' shows the next ones)") == 3
    assert "Left puts a peg on z3" in out  # an option of a page not shown yet may be typed


def test_more_with_the_whole_menu_shown_says_so():
    console = Console(file=io.StringIO())
    Table(console, lambda: None, lambda: "").more()
    assert "The whole menu is shown." in console.file.getvalue()


# ------------------------------------------------------------------ the spectator's screen of a bots-only game

from orrery.interpreter.bots.factory import RandomBot, apply_choice  # noqa: E402
from orrery.interpreter.cli.narrate import auto_lines, bot_lines, public_view  # noqa: E402
from orrery.interpreter.cli.screen import LOWEST, watched_state  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402

WATCHED = [("tic-tac-toe", 2, 80, 24), ("connect-four", 2, 80, 24), ("reversi", 2, 80, 24),
           ("burbuja", 1, 80, 24), ("bubblee-pop", 2, 100, 40), ("bubble-singularity", 4, 100, 40)]


@pytest.mark.parametrize("name,players,width,height", WATCHED, ids=[w[0] for w in WATCHED])
def test_a_spectator_sees_each_move_and_the_board_within_the_terminal(name, players, width, height) -> None:
    """`orrery play GAME --seats random,...` prints each bot's move, then the board fitted below it."""
    gs = load_game(name).new_initial_state(players=players, seed=2)
    bots = [RandomBot(7 + p) for p in range(players)]
    console = Console(width=width, height=height, file=io.StringIO(), color_system=None)
    moves = crowded = 0
    while not gs.is_terminal() and moves < 120:
        p, d = gs.current_player(), gs.decision
        steps, said, before = len(gs.steps), len(gs.narration), public_view(gs)
        index = apply_choice(gs, bots[p].choose(gs))
        label = next(o.label for o in d.options if o.index == index)
        above = len(bot_lines(gs, p, "random", d.prompt, label, gs.narration[said:], before, [])) + \
            len(auto_lines(gs, steps, []))
        lines = console.render_lines(watched_state(gs, console, False, height, above), pad=False)
        where = f"{name}, move {moves + 1}"
        assert len(lines) + 1 <= height, f"{where}: {len(lines)} lines and the cursor's"
        if above + len(lines) + 1 > height:  # a long move (many narrated lines): the state gave way all it can
            lowest = render.render_state(gs, None, False, 0, True)
            render.fit_state(lowest, LOWEST)
            assert len(lines) == len(console.render_lines(lowest, pad=False)), f"{where}: {above} + {len(lines)}"
            crowded += 1
        assert any("Legend:" in "".join(seg.text for seg in line) for line in lines), f"{where}: no legend"
        moves += 1
    assert moves >= 5 and crowded <= moves // 10, (moves, crowded)
