"""Triggers that fire together and belong to players (`owner:`, `events.E.order`), docs/dsl.md 2.11.

The made-up game tests/specs/echo.yaml: ringing the bell sets off the herald's trigger (nobody's), the
gong (the first player's), the chime and the drum (the second player's; a chime mutes the drum).  The
unowned trigger runs first, then the ringer's, then the other player's; the owner of two pending triggers
chooses which resolves first (`owner_chooses`), is not asked with one, and a trigger made false by an
earlier one is skipped.  With `declared` nobody is asked and the spec's order holds within each owner.
"""

from __future__ import annotations

import textwrap

import pytest

from conftest import SPECS
from test_differential import play_lockstep
from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

ECHO = (SPECS / "echo.yaml").read_text(encoding="utf-8")


def _game(tmp_path, mode: str, text: str = ECHO) -> Game:
    path = tmp_path / f"echo_{abs(hash(text))}.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return Game(load_spec(path), mode=mode)


@pytest.fixture(params=["compiled", "interpreted"])
def mode(request) -> str:
    return request.param


def _ring_by(game: Game, seat: int):
    """A new game (seat 0 starts) in which `seat` rings the bell."""
    gs = game.new_initial_state(players=2, seed=0)
    if seat == 1:
        gs.apply_label("hush")
    assert gs.current_player() == seat
    gs.apply_label("ring")
    return gs


@pytest.mark.parametrize("first, heard", [("chime", ["herald", "gong", "chime"]),  # the drum is muted: skipped
                                          ("drum", ["herald", "gong", "drum", "chime"])])
def test_the_ringer_first_then_the_other_who_chooses(tmp_path, mode, first, heard):
    gs = _ring_by(_game(tmp_path, mode), 0)
    d = gs.decision
    assert (d.player, d.prompt, [o.label for o in d.options]) == (1, "Which of your sounds first?", ["chime", "drum"])
    gs.apply_label(first)
    assert gs.state.vars["heard"] == heard


def test_the_owner_who_rings_resolves_before_the_others(tmp_path, mode):
    gs = _ring_by(_game(tmp_path, mode), 1)
    assert gs.current_player() == 1
    gs.apply_label("drum")
    assert gs.state.vars["heard"] == ["herald", "drum", "chime", "gong"]


def test_no_question_with_one_pending(tmp_path, mode):
    text = ECHO.replace("      muted = false\n      emit bell()", "      muted = true\n      emit bell()")
    gs = _ring_by(_game(tmp_path, mode, text), 0)
    assert gs.state.vars["heard"] == ["herald", "gong", "chime"]  # the drum's `when` is false: nothing to choose
    assert gs.decision.kind == "action" and not [s for s in gs.steps if s.prompt == "Which of your sounds first?"]


@pytest.mark.parametrize("ringer, heard", [(0, ["herald", "gong", "chime"]), (1, ["herald", "chime", "gong"])])
def test_declared_order_within_each_owner_asks_nobody(tmp_path, mode, ringer, heard):
    gs = _ring_by(_game(tmp_path, mode, ECHO.replace("order: owner_chooses", "order: declared")), ringer)
    assert gs.state.vars["heard"] == heard and gs.decision.kind == "action"


@pytest.mark.parametrize("seed", range(4))
def test_both_engines_play_the_same_games(tmp_path, seed):
    assert play_lockstep(_game(tmp_path, "compiled"), _game(tmp_path, "interpreted"), 2, seed) > 0


NO_OWNERS = ECHO.replace('    owner: "players[1]"\n', "").replace('    owner: "players[0]"\n', "")


@pytest.mark.parametrize("text, message, at", [
    (ECHO.replace('    owner: "players[0]"\n', "    owner: '\"gong\"'\n"),
     "type error: a trigger's `owner` must be a player, but this is text", '"gong"'),
    (ECHO.replace("  gong:\n    on: bell\n", "  gong:\n    when: muted\n"),
     "trigger 'gong' has an `owner` but no `on:`", "owner"),
    (NO_OWNERS, "event 'bell' has `order: owner_chooses`, but none of its triggers has an `owner:`", "owner_chooses"),
])
def test_misused_owners_are_located_errors(tmp_path, text, message, at):
    assert text != ECHO
    path = tmp_path / "rules.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    [f] = [f for f in err.value.findings if f.message.startswith(message)]
    line = text.splitlines()[f.span.line - 1]
    assert line[f.span.col - 1:].startswith(at), line
