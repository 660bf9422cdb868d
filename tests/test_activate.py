"""`activate:` abilities: actions carried by pieces, offered to their owners while live (docs/dsl.md 2.23).

The made-up game tests/specs/lamplight.yaml: lamps bought into a player's shelf may be lit once per round
each (their price in oil), trimmed (a parameter and a cost reading it and the lamp), the beacon (one row's
own ability) may signal in any player's window once per game, and a flare is a one-shot used only at
night.  Both engines play it alike; misuse is a located error with a hint.
"""

from __future__ import annotations

import pytest

from conftest import SPECS, game_on_each_engine, menu
from test_differential import play_lockstep
from orrery.interpreter.core.values import ZoneRef
from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

LAMPLIGHT = (SPECS / "lamplight.yaml").read_text(encoding="utf-8")


game = game_on_each_engine(SPECS / "lamplight.yaml")
_labels = menu


def _play(gs, *labels: str) -> None:
    for label in labels:
        gs.apply_label(label)


def test_offered_only_while_the_piece_is_live_and_to_its_owner(game):
    gs = game.new_initial_state(players=2, seed=1)
    assert _labels(gs) == ["buy", "fill"]  # nothing on the shelf: nothing to activate
    reasons = dict(gs.decision.rejected)
    assert reasons["light a lamp"].startswith("no lamp of yours can 'light a lamp' now")
    _play(gs, "buy", "Lantern")  # seat 0's lamp; seat 1's turn now
    assert gs.current_player() == 1 and "light a lamp" not in _labels(gs)  # not seat 1's lamp
    _play(gs, "buy", "Candle")
    assert gs.current_player() == 0 and _labels(gs)[:2] == ["watch", "light a lamp"]


def test_the_piece_is_the_first_parameter_and_owner_is_the_acting_player(game):
    gs = game.new_initial_state(players=2, seed=1)
    _play(gs, "buy", "Lantern", "buy", "Candle")  # night: seat 0 first
    before = gs.state.pvars[0]["score"], gs.state.pvars[0]["oil"]
    assert gs.current_player() == 0
    _play(gs, "light a lamp")  # one lamp: its menu answers itself
    s = gs.state
    assert s.pvars[0]["score"] == before[0] + 2 and s.pvars[1]["score"] == 0  # glow 2, for its owner
    assert "P1 pays 2 oil for 'light a lamp'" in gs.narration  # its price (then `watch` alone was left: taken)
    assert s.pvars[0]["oil"] == before[1] - 2 + 1


def test_limit_per_piece_and_round_with_its_reason(game):
    gs = game.new_initial_state(players=2, seed=1)
    _play(gs, "buy", "Candle", "buy", "Beacon")  # night of round 1: seat 0 first
    _play(gs, "light a lamp")  # the one candle (a menu of one answers itself): once this round
    assert "light a lamp" not in _labels(gs)
    why = dict(gs.decision.rejected)["light a lamp"]
    assert why.startswith("'light a lamp' can be done at most 1 time per round for each lamp: every lamp it could "
                          "be done with was used")
    _play(gs, "watch", "watch")
    assert gs.state.cursor.round == 2 and "light a lamp" in _labels(gs)  # a new round: a new count
    _play(gs, "buy", "Candle")  # the second candle
    _play(gs, "fill")  # seat 1's fill opens the window: seat 0 could only pass (own_turn), so is not asked
    assert gs.decision.kind == "window" and gs.current_player() == 1
    assert _labels(gs) == ["light a lamp", "signal", "pass"]  # seat 1's own turn: its own abilities
    _play(gs, "pass")
    assert gs.current_player() == 0 and gs.decision.prompt == "Watch?"
    score = gs.state.pvars[0]["score"]
    _play(gs, "light a lamp", "light a lamp")  # each candle once
    assert gs.state.pvars[0]["score"] == score + 2
    assert "light a lamp" not in _labels(gs)


def test_anytime_always_answers_other_players_windows_once_per_game(game):
    gs = game.new_initial_state(players=2, seed=1)
    _play(gs, "buy", "Candle", "buy", "Beacon", "watch", "watch")  # round 2, seat 0 first
    _play(gs, "fill")  # seat 1, the beacon's owner, is asked in seat 0's turn: only `always` abilities
    assert gs.current_player() == 1 and _labels(gs) == ["signal", "pass"]
    score = gs.state.pvars[1]["score"]
    _play(gs, "signal")
    assert gs.state.pvars[1]["score"] == score + 1
    assert gs.current_player() == 0 and gs.decision.kind == "window"
    _play(gs, "pass")  # seat 1 is not asked again: it could only pass now (once per game)
    assert gs.current_player() == 1 and gs.decision.kind == "action"
    assert "signal" not in _labels(gs)
    assert "at most 1 time per game" in dict(gs.decision.rejected)["signal"]


def test_one_shot_then_and_during(game):
    gs = game.new_initial_state(players=2, seed=1)
    _play(gs, "buy", "2 flare")
    assert "fire a flare" not in _labels(gs)  # seat 1's turn, and the day
    _play(gs, "buy", "Candle")
    assert gs.current_player() == 0 and _labels(gs) == ["watch", "fire a flare"]  # night
    score = gs.state.pvars[0]["score"]
    _play(gs, "fire a flare")
    s = gs.state
    assert s.pvars[0]["score"] == score + 2
    assert [s.kinds[p] for p in s.contents(ZoneRef("ash"))] == ["flare"]  # `then:` moved it away
    assert "fire a flare" not in _labels(gs) and "watch" in _labels(gs)


def test_during_refuses_outside_its_phases_with_the_reason(game):
    gs = game.new_initial_state(players=2, seed=1)
    _play(gs, "buy", "2 flare", "buy", "Candle", "watch", "watch")  # round 2's day: seat 0 holds a flare
    assert "fire a flare" not in _labels(gs)
    assert dict(gs.decision.rejected)["fire a flare"].startswith("'fire a flare' can be done only during night")


def test_parameters_and_a_late_cost_that_reads_them(game):
    gs = game.new_initial_state(players=2, seed=1)
    _play(gs, "buy", "Candle", "buy", "Lantern")  # night: seat 0, 3 oil
    _play(gs, "trim a lamp", "2")  # the candle: costs amount + price - 1 = 2
    s = gs.state
    assert "P1 pays 2 oil for 'trim a lamp'" in gs.narration
    assert s.attrs[s.contents(ZoneRef("shelf", 0))[0]]["glow"] == 3  # no longer dim
    assert "trim a lamp" not in _labels(gs)
    assert dict(gs.decision.rejected)["trim a lamp"].startswith("only a dim lamp can be trimmed")


@pytest.mark.parametrize("seed", range(6))
def test_random_games_identical_on_both_engines(seed):
    spec = load_spec(SPECS / "lamplight.yaml")
    fast, ref = Game(spec, mode="compiled"), Game(spec, mode="interpreted")
    assert play_lockstep(fast, ref, 2 + seed % 2, seed) > 10


def _spec(tmp_path, old: str, new: str):
    text = LAMPLIGHT.replace(old, new, 1)
    assert text != LAMPLIGHT, old
    path = tmp_path / "lamplight.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("old, new, message, hint", [
    ("during: [night]", "during: [nite]", "unknown phase 'nite' (did you mean 'night'?)", None),
    ("limit: {times: 1, per: game}", "limit: {times: 1, per: game, key: beacons}",
     "an ability's limit counts uses of each piece apart: it takes no `key`", "limit: {times: N, per: SCOPE}"),
    ("amount: {from", "self: {from", "parameter 'self' hides the ability's own `self`", "rename the parameter"),
    ("cost: {oil: self.price}", "cost: {oils: self.price}", "cost 'oils' is not a per-player track or variable "
                                                            "(did you mean 'oil'?)", None),
    ("then: move self to ash", "then: move self to asj", "unknown name 'asj'", None),
    ('condition: "self.glow < 3"', 'condition: "self.glow"', "condition must be true/false", None),
    ('do: ["shine(owner, self.power)"]', 'do: ["shine(owner, self.power)", "current.score += 1"]',
     "a `do:` item calls an effect template", "statements belong in a template's `effect:`"),
    ("          then: move self to ash\n", "", None, None),  # (valid: no `then:`)
])
def test_misuse_is_a_located_error_with_a_hint(tmp_path, old, new, message, hint):
    path = _spec(tmp_path, old, new)
    if message is None:
        load_spec(path)
        return
    with pytest.raises(SpecError) as err:
        load_spec(path)
    found = [f for f in err.value.findings if message in f.message]
    assert found, [f.message for f in err.value.findings]
    f = found[0]
    assert f.span is not None and f.span.file.endswith("lamplight.yaml") and f.span.line > 1
    if hint is not None:
        assert hint in (f.hint or "")


def test_a_commit_an_ability_can_reach_in_a_window_is_refused(tmp_path):
    text = LAMPLIGHT.replace("    effect: who.score += n\n", "    effect: |\n      commit pick from [1, 2]\n"
                                                          "      who.score += n\n", 1)
    path = tmp_path / "lamplight.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert any("can run while a window is open" in f.message for f in err.value.findings), \
        [f.message for f in err.value.findings]


def test_cli_validate_exit_2(tmp_path, capsys):
    from orrery.interpreter.cli.main import main

    path = _spec(tmp_path, "during: [night]", "during: [nite]")
    assert main(["validate", str(path)]) == 2
    out = capsys.readouterr()
    assert f"{path}:" in out.out + out.err and "unknown phase 'nite'" in out.out + out.err


def test_why_tells_the_abilitys_rule_and_its_reason(game):
    from orrery.interpreter.cli.prompter import why_text

    gs = game.new_initial_state(players=2, seed=1)
    _play(gs, "buy", "Candle", "buy", "Beacon")
    assert why_text(gs, "light a lamp") == ("'light a lamp' is the action 'light a lamp'. The rule: \"Once per round, "
                                            "pay a lamp's price in oil to score its glow.\"")
    _play(gs, "light a lamp")
    told = why_text(gs, "light a lamp")
    assert "can be done at most 1 time per round for each lamp" in told and "rule: \"Once per round" in told
