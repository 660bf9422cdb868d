"""Boards that fit: every bundled game's play screen fits its terminal (the classic games and Burbuja
80×24, the others 100×40), has a legend, and tells nothing by colour alone.

The goldens in tests/golden/screens/ are tmux captures of `orrery play` (see tests/screens.py, which
also regenerates them).  They are checked for their size and legend, and against the screen rendered
in-process now, so that a change to the rendering cannot leave them stale; when tmux is installed three
of them (see TMUX_CASES) are also played under tmux again and the pane compared with the golden.  Each case's
game is played to its moment once per process (screens.at_moment) and shared by the tests, which only read it.
"""

from __future__ import annotations

import functools
import io
import re
import sys

import pytest

from screens import CASES, Case, at_moment, capture, screen_text, tmux_available
from orrery.interpreter.cli import render
from orrery.interpreter.cli.main import main
from orrery.interpreter.cli.render import _Ctx, legend_entries, piece_symbol, players_table, zones_view, _style_of

PROMPT = ">"


def golden_lines(case: Case) -> list[str]:
    """The committed capture's lines."""
    return case.golden.read_text(encoding="utf-8").rstrip("\n").split("\n")


def without_prompt(lines: list[str]) -> list[str]:
    """The pane without the empty prompt it ends on."""
    while lines and lines[-1].strip() in (PROMPT, ""):
        lines = lines[:-1]
    return lines


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden_capture_fits_its_terminal_and_has_a_legend(case: Case) -> None:
    lines = golden_lines(case)
    assert len(lines) <= case.height
    assert max(len(line) for line in lines) <= case.width
    assert any("Legend:" in line for line in lines)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_screen_rendered_now_fits_and_is_the_golden_one(case: Case) -> None:
    screen = screen_text(case)
    assert len(screen) + 1 <= case.height, f"{case.game}: {len(screen)} lines and the prompt do not fit"
    assert max(len(line) for line in screen) <= case.width
    assert any("Legend:" in line for line in screen)
    title = screen[0]
    assert "round" in title and "to act" in title  # the whole screen, from its status line
    pane = without_prompt(golden_lines(case))
    assert pane[-len(screen):] == screen, (f"{case.golden} is not the screen rendered now: regenerate it with "
                                           f"`python tests/screens.py {case.name}`")


IDENTIFIER = re.compile(r"(?<![\w.])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w.])")  # ability_deck, round_mass


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_no_internal_identifier_on_the_screen(case: Case) -> None:
    # names are shown as words (dsl.md 1.6): an identifier with underscores is the spec's, not the players'
    found = sorted({m for line in golden_lines(case) + screen_text(case) for m in IDENTIFIER.findall(line)})
    assert not found, f"{case.golden}: identifiers on screen: {found}"


# What a real terminal adds to the in-process screen (checked against every golden above) does not depend on the
# game but on the terminal's size and the widths tmux gives the characters drawn: one small terminal, the paged
# menu of a small terminal, and one big terminal whose screen draws every kind of non-ASCII character the
# goldens hold (Bubble Singularity's: the others' are all of the same East Asian "ambiguous" width class, e.g.
# Aqua Sphere's ▲ as its ◆).  Each capture is a real `orrery play` (~1-3 CPU s): the other eight are not run.
TMUX_CASES = [c for c in CASES if c.name in ("tic-tac-toe", "burbuja-late", "bubble-singularity")]


@pytest.mark.skipif(not tmux_available(), reason="tmux is not installed")
@pytest.mark.parametrize("case", TMUX_CASES, ids=[c.name for c in TMUX_CASES])
def test_tmux_capture_is_the_golden_one(case: Case) -> None:
    pane, screen = capture(case), screen_text(case)
    assert len(pane) <= case.height and max(len(line) for line in pane) <= case.width
    assert without_prompt(pane)[-len(screen):] == screen == without_prompt(golden_lines(case))[-len(screen):]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_no_piece_differs_from_another_by_colour_alone(case: Case) -> None:
    gs = at_moment(case).gs
    ctx = _Ctx(gs, None, debug=True)
    styles: dict[str, set[str | None]] = {}
    for pid in range(len(gs.state.kinds)):  # every piece of the game, wherever it is
        styles.setdefault(piece_symbol(ctx, pid), set()).add(_style_of(ctx, pid))
    alike = {sym: s for sym, s in styles.items() if len(s) > 1}
    assert not alike, f"{case.game}: these symbols differ only by colour: {alike}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_legend_explains_every_symbol_drawn(case: Case) -> None:
    gs = at_moment(case).gs
    ctx = _Ctx(gs, 0)
    zones_view(ctx)
    players_table(ctx)
    entries = legend_entries(ctx)
    listed = " ".join(f"{sym.plain} {meaning}" for sym, meaning in entries)
    named_kinds = set(gs.game.spec.model.display.legend) & set(gs.game.rules.kinds)
    for (sym, _), pids in ctx.drawn.items():
        kind = gs.state.kinds[pids[0]]
        assert sym in listed or kind in named_kinds or f"{kind} (" in listed, f"{case.game}: '{sym}' not in legend"
    assert ctx.drawn, f"{case.game}: the screen draws no piece"


# ------------------------------------------------------------------ orrery play --no-color, NO_COLOR, --debug

COLOUR = re.compile(r"\x1b\[(?:\d+;)*(?:3[0-9]|9[0-7])(?:;\d+)*m")  # a foreground colour (bold is not one)


def play(capsys, monkeypatch, *argv: str) -> str:
    """`orrery play ...` in-process on a console that believes it is a terminal (so it would write colours)."""
    monkeypatch.setattr(render, "SafeConsole", functools.partial(render.SafeConsole, force_terminal=True,
                                                                 color_system="standard"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", *argv]) == 0
    return capsys.readouterr().out


def test_no_color_and_NO_COLOR_drop_colours_but_keep_symbols_and_legend(capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    args = ("tic-tac-toe", "--seats", "random,random", "--seed", "4")
    coloured = play(capsys, monkeypatch, *args)
    assert COLOUR.search(coloured)  # X is red and O blue on a colour terminal
    plain = play(capsys, monkeypatch, *args, "--no-color")
    assert not COLOUR.search(plain)
    text = re.sub(r"\x1b\[[0-9;]*m", "", plain)  # bold and underline stay
    assert "Legend: X X mark  O O mark  · empty" in text
    monkeypatch.setenv("NO_COLOR", "1")
    assert not COLOUR.search(play(capsys, monkeypatch, *args))


def test_debug_shows_internal_variables_that_are_hidden_by_default(capsys, monkeypatch):
    args = ("connect-four", "--seats", "random,random", "--seed", "2")
    plain = play(capsys, monkeypatch, *args, "--no-color")
    assert "landed:" not in plain and "debug:" not in plain
    debug = play(capsys, monkeypatch, *args, "--no-color", "--debug")
    assert "debug: columns: a, b, c, d, e, f, g" in debug and "landed:" in debug


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_screen_tells_the_last_move_in_words_even_on_a_small_terminal(case: Case) -> None:
    table = at_moment(case)
    assert table.told, f"{case.name}: nothing was told"
    screen = " ".join(" ".join(table.screen()).split())
    assert " ".join(table.told[-1].split()) in screen  # the bots' last move: printed above, and kept on the screen
