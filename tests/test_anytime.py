"""Actions free at any time (`anytime: own_turn | always`) and one-shot cards (`then:`), docs/dsl.md 2.10.

The made-up game tests/specs/relic.yaml: each player owns a relic (`anytime: own_turn`, spent after use)
and a charm (`anytime: always`, destroyed after use); digging opens a window in which everyone, the digger
last, may answer.  The relic is offered at every step menu of its owner's turn in both phases and in the
windows of that turn, never in another player's turn and never while an effect waits for an answer; the
charm also in the windows of others' turns; both are gone after use.  A step menu left with only such
actions may be skipped.  Both engines play it alike.
"""

from __future__ import annotations

import textwrap

import pytest

from conftest import SPECS, game_on_each_engine, menu
from test_differential import play_lockstep
from orrery.interpreter.core.values import ZoneRef
from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

RELIC = (SPECS / "relic.yaml").read_text(encoding="utf-8")


game = game_on_each_engine(SPECS / "relic.yaml")
_labels = menu


def _menus_of_a_round(gs) -> list[tuple[int, str, str, list[str]]]:
    """Every decision of the first round answered with its first option that uses nothing: (player, kind,
    prompt, labels)."""
    seen = []
    while gs.state.cursor.round == 1 and not gs.is_terminal():
        d = gs.decision
        seen.append((d.player, d.kind, d.prompt, _labels(gs)))
        keep = [o for o in gs.legal_options() if not o.label.startswith("use ")]
        gs.apply(keep[0].index)
    return seen


def test_offered_at_every_step_menu_and_window_of_the_owners_turn_never_mid_effect(game):
    gs = game.new_initial_state(players=2, seed=1)
    kinds = set()
    for _, kind, prompt, labels in _menus_of_a_round(gs):
        kinds.add((kind, prompt))
        if kind == "choose":  # an answer inside an effect: nothing else is offered there
            assert labels == ["1", "2"], prompt
        elif kind == "action":  # every step menu of the player's turn, in both phases
            assert labels[1:] == ["use the relic", "use the charm"], (prompt, labels)
        else:  # the window after a dig: the charm to everyone (the relic to the digger: the next test)
            assert labels[-2:] == ["use the charm", "pass"], labels
    assert kinds == {("action", "Dig?"), ("action", "Sell?"), ("choose", "How deep?"),
                     ("window", "Anything to do?")}


def test_relic_in_own_turn_only_and_charm_in_others_windows_too(game):
    gs = game.new_initial_state(players=2, seed=1)
    digger = gs.current_player()
    other = 1 - digger
    gs.apply_label("dig")
    gs.apply_label("1")
    assert gs.decision.kind == "window" and gs.current_player() == other  # the digger is asked last
    assert _labels(gs) == ["use the charm", "pass"]  # not the relic: it is not the other's turn
    gs.apply_label("pass")
    assert gs.current_player() == digger
    assert _labels(gs) == ["use the relic", "use the charm", "pass"]  # the digger's own turn: both


def test_one_shot_cards_are_gone_after_use_and_the_effect_ran_first(game):
    gs = game.new_initial_state(players=2, seed=1)
    me = gs.current_player()
    gs.apply_label("use the relic")
    s = gs.state
    assert s.pvars[me]["gold"] == 3 and len(s.contents(ZoneRef("spent"))) == 1
    assert _labels(gs) == ["dig", "use the charm"]  # the same step again: a free action; the relic is gone
    gs.apply_label("use the charm")
    assert s.pvars[me]["score"] == 1 and not s.contents(ZoneRef("vault", me))  # the charm destroyed
    assert gs.decision.prompt == "How deep?"  # only `dig` left: taken by itself


def test_a_menu_of_free_actions_only_may_be_skipped(tmp_path):
    path = tmp_path / "relic.yaml"
    path.write_text(RELIC.replace("      current.gold += depth\n", "      current.score += depth\n"), encoding="utf-8")
    gs = Game(load_spec(path), mode="compiled").new_initial_state(players=2, seed=1)
    while gs.decision.prompt != "Sell?":
        keep = [o for o in gs.legal_options() if not o.label.startswith("use ")]
        gs.apply(keep[0].index)
    me = gs.current_player()
    assert _labels(gs) == ["use the relic", "use the charm", "skip"]  # `sell` refused: no gold
    assert "you have no gold" in gs.why_not_label("sell")
    gs.apply_label("skip")
    assert gs.current_player() != me  # the step (and the turn) is over


@pytest.mark.parametrize("seed", range(4))
def test_both_engines_play_the_same_games(seed):
    spec = load_spec(SPECS / "relic.yaml")
    assert play_lockstep(Game(spec, mode="compiled"), Game(spec, mode="interpreted"), 2, seed) > 0


@pytest.mark.parametrize("old, new, message, at", [
    ("    anytime: own_turn\n", "    anytime: sometimes\n", "Input should be 'own_turn' or 'always'", "sometimes"),
    ("    then: move r to spent\n", "    then: move rr to spent\n", "unknown name 'rr'", "rr"),
])
def test_misused_anytime_and_then_are_located_errors(tmp_path, old, new, message, at):
    path = tmp_path / "rules.yaml"
    text = RELIC.replace(old, new)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    [f] = [f for f in err.value.findings if message in f.message]
    line = text.splitlines()[f.span.line - 1]
    assert line[f.span.col - 1:].startswith(at), line


def test_an_action_free_at_any_time_listed_in_a_step_is_a_warning(tmp_path):
    path = tmp_path / "rules.yaml"
    text = RELIC.replace("          actions: [sell]\n", "          actions: [sell, use_charm]\n")
    path.write_text(text, encoding="utf-8")
    [f] = load_spec(path).warnings
    assert f.message.startswith("action 'use_charm' is free at any time (`anytime: always`) and also one of this "
                                "step's actions")
    assert text.splitlines()[f.span.line - 1][f.span.col - 1:].startswith("use_charm]")
