"""Hidden information around reaction windows (issue 30, "a hidden-information check"), with `parry`.

Random games of tests/specs/parry.yaml, where hands are secret and `respond` asks everyone (`ask: always`).
At every decision, for every player:

- their view, their play screen (at their own decisions) and the narration told to them are the same in a
  twin world where the cards they cannot see (the others' hands, the deck) are dealt differently, so none
  of them tells what those cards are; a pending decision's options, which can name the decider's cards,
  are in the decider's view only;
- no narration line names a piece hidden from them (cli.play.narrated, as `orrery play` checks);
- being asked tells nothing: every strike asks both other players in turn until one parries, whatever they
  hold.  With `ask: when_able` a player without a shield is never asked: the test sees that leak, and the
  checker warns about that window.
"""

from __future__ import annotations

import textwrap

import pytest

from conftest import SPECS, budget
from screens import screen_lines
from orrery.interpreter.bots.factory import RandomBot
from orrery.interpreter.cli.play import narrated
from orrery.interpreter.core.values import ZoneRef
from orrery.interpreter.engine.game import Game
from orrery.rulespec.loader import load_spec

PARRY = SPECS / "parry.yaml"
GAMES = budget(4, 12)


def _game(tmp_path, text: str | None = None) -> Game:
    path = PARRY
    if text is not None:
        path = tmp_path / "parry.yaml"
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return Game(load_spec(path), mode="compiled")


def _unseen(gs, viewer: int) -> list[int]:
    """The pieces `viewer` cannot see: the deck and the others' hands."""
    s = gs.state
    zones = [ZoneRef("deck")] + [ZoneRef("hand", p) for p in range(gs.num_players) if p != viewer]
    return [pid for z in zones for pid in s.contents(z)]


def _twin(gs, viewer: int):
    """A copy where the faces of the cards `viewer` cannot see are dealt the other way round."""
    twin = gs.clone()
    pids = _unseen(twin, viewer)
    faces = [twin.state.attrs[p]["face"] for p in pids]
    for pid, face in zip(pids, faces[::-1]):
        twin.state.set_attr(pid, "face", face)
    return twin, faces != faces[::-1]


def _seen_by(gs, viewer: int) -> tuple:
    """What `viewer` is shown: their view, the narration, and their play screen when the decision is theirs
    (`orrery play` shows a seat's screen at that seat's decisions only)."""
    screen = screen_lines(gs, viewer, 100) if gs.current_player() == viewer else None
    return gs.view(viewer), list(gs.narration), screen


@pytest.mark.parametrize("seed", range(GAMES))
def test_views_screens_and_narration_tell_nobody_the_cards_they_cannot_see(seed):
    game = _game(None)
    gs = game.new_initial_state(players=3, seed=seed, narrate=True)  # (a table's narration, as `orrery play`)
    bot = RandomBot(seed)
    compared = 0
    while not gs.is_terminal():
        for viewer in range(3):
            if viewer != gs.current_player():  # another's options name their cards: not shown to this player
                assert set(gs.view(viewer)["decision"]) == {"player", "prompt"}
            twin, differs = _twin(gs, viewer)
            assert _seen_by(twin, viewer) == _seen_by(gs, viewer), (seed, viewer)
            compared += differs
        before = gs.clone()
        gs.apply(bot.choose(gs))
        assert narrated(before, gs) == []
    assert compared > 0  # some twin really was dealt differently


def _asked_per_strike(game: Game, seeds: range) -> list[tuple[list[int], list[bool], bool]]:
    """Per strike: the players `respond` asked, whether each held a shield then, and whether one parried."""
    out = []
    for seed in seeds:
        gs = game.new_initial_state(players=3, seed=seed)
        bot = RandomBot(seed)
        while not gs.is_terminal():
            d = gs.decision
            if d.kind != "window" or d.prompt != "Parry the strike?":
                gs.apply(bot.choose(gs))
                continue
            asked, held, parried = [], [], False
            while gs.decision is not None and gs.decision.prompt == "Parry the strike?":
                seat = gs.current_player()
                asked.append(seat)
                hand = gs.state.contents(ZoneRef("hand", seat))
                held.append(any(gs.state.attrs[p]["face"] == "shield" for p in hand))
                choice = bot.choose(gs)
                parried = parried or next(o for o in gs.legal_options() if o.index == choice).label == "parry"
                gs.apply(choice)
            out.append((asked, held, parried))
    return out


def test_being_asked_tells_nothing_with_ask_always():
    strikes = _asked_per_strike(_game(None), range(GAMES))
    assert strikes and any(not all(held) for _, held, _ in strikes)  # some asked players held no shield
    for asked, held, parried in strikes:
        assert len(asked) == 2 or parried  # both others are asked unless the first one parried


def test_with_ask_when_able_being_asked_tells_who_holds_a_shield(tmp_path):
    text = PARRY.read_text(encoding="utf-8").replace("    ask: always\n    prompt: Parry", "    prompt: Parry")
    strikes = _asked_per_strike(_game(tmp_path, text), range(GAMES))
    assert strikes and all(all(held) for _, held, _ in strikes)  # only shield holders are ever asked
    assert any(len(asked) < 2 and not parried for asked, _, parried in strikes)  # somebody was skipped
