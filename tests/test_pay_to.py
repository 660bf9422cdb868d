"""Costs that say where the payment goes (`pay_to:`, docs/dsl.md 2.10.2) on both engines, with the made-up
game tests/specs/toll-road.yaml, and their static checks.

Ann and Bo start with 3 coins each, the bank with 6, two jars (Red, Blue) with none: 12 coins in all,
which the spec's invariant checks after every decision.  `ride` costs 2 coins paid into the bank when the
action starts (before the lane is chosen), `tip` pays 1 coin to the player picked (its target reads the
parameter, so it is paid once that is chosen), `donate` pays 1 coin into the jar picked (a piece's
attribute), `work` takes 2 coins from the bank.  Each player's charm carries two `activate:` abilities whose
costs say where they go too: `rub a charm` pays 1 coin into the bank, `pass a coin on` 1 coin to the other
player (a target reading `owner`, the acting player).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS, evaluate, spec_findings
from test_differential import play_lockstep
from orrery.interpreter.engine.game import Game
from orrery.rulespec.loader import load_spec

ROAD = SPECS / "toll-road.yaml"
MODES = ["compiled", "interpreted"]


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    spec = load_spec(ROAD)
    return {mode: Game(spec, mode=mode) for mode in MODES}


def play(gs, *answers: str) -> None:
    for a in answers:
        gs.apply_label(a)


def coins(gs) -> tuple:
    """(bank, Ann's coins, Bo's coins, Red jar, Blue jar), read by the game's evaluator."""
    return tuple(evaluate(gs, e) for e in ("bank", "players[0].coins", "players[1].coins",
                                          '[j.held for j in pieces(shelf) where j.name == "Red"][0]',
                                          '[j.held for j in pieces(shelf) where j.name == "Blue"][0]'))


@pytest.mark.parametrize("mode", MODES)
def test_a_cost_paid_at_the_start_is_in_the_bank_while_the_parameter_is_chosen(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    play(gs, "ride")
    assert [o.label for o in gs.legal_options()] == ["left", "right"]  # the lane is still to choose ...
    assert coins(gs) == (8, 1, 3, 0, 0)  # ... and the 2 coins are already in the bank
    play(gs, "left")
    assert coins(gs) == (8, 1, 3, 0, 0) and gs.state.pvars[0]["score"] == 2
    assert "Ann pays 2 coins for 'ride'" in gs.narration


@pytest.mark.parametrize("mode", MODES)
def test_a_target_reading_a_parameter_is_paid_once_it_is_chosen(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    play(gs, "tip")
    assert coins(gs) == (6, 3, 3, 0, 0)  # nothing paid before the player to tip is chosen
    play(gs, "Bo")
    assert coins(gs) == (6, 2, 4, 0, 0)
    play(gs, "donate", "Blue")  # Bo pays into a piece's attribute
    assert coins(gs) == (6, 2, 3, 0, 1)


@pytest.mark.parametrize("mode", MODES)
def test_a_player_who_cannot_pay_is_refused_and_nothing_moves(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    play(gs, "ride", "left", "ride", "right")  # Ann 1 coin, Bo 1 coin, bank 10
    assert coins(gs) == (10, 1, 1, 0, 0)
    assert "ride" not in [o.label for o in gs.legal_options()]
    assert "costs 2 coins; you have 1" in gs.why_not_label("ride")
    assert coins(gs) == (10, 1, 1, 0, 0)


@pytest.mark.parametrize("mode", MODES)
def test_an_activate_abilitys_cost_goes_where_its_pay_to_says(games, mode):
    gs = games[mode].new_initial_state(seed=1)
    play(gs, "rub a charm")  # Ann: 1 coin into the bank
    assert coins(gs) == (7, 2, 3, 0, 0) and gs.state.pvars[0]["score"] == 1
    play(gs, "pass a coin on")  # Ann again (a free action): 1 coin to the other player, read through `owner`
    assert coins(gs) == (7, 1, 4, 0, 0) and gs.state.pvars[0]["score"] == 2
    play(gs, "work", "pass a coin on")  # Ann works (2 coins from the bank), then Bo passes a coin to Ann
    assert coins(gs) == (5, 4, 3, 0, 0) and gs.state.pvars[1]["score"] == 1
    assert "Bo pays 1 coins for 'pass a coin on'" in gs.narration


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_both_engines_play_the_same_games_and_the_coins_are_conserved(games, seed):
    assert play_lockstep(games["compiled"], games["interpreted"], 2, seed) > 0


HEAD = """\
orrery: 1
game: {name: t, players: {min: 2, max: 2}}
components:
  tracks: {coins: {start: 3}}
  pieces: {jar: {attributes: {name: str}, instances: [{name: Red}], start: shelf}}
  zones: {shelf: {}}
variables: {bank: {type: int, start: 0}}
constants: {fee: 2}
flow:
  phases:
    - name: play
      steps: [{actions: [pay, work]}]
end:
  done: {when: "round > 3"}
actions:
  work: {}
"""

CASES = [
    pytest.param("  pay: {cost: {coins: 1}, pay_to: {coin: bank}}\n",
                 ("error", "17:36", "pay_to 'coin' names no cost of action 'pay' (did you mean 'coins'?)"),
                 id="key-names-no-cost"),
    pytest.param("  pay: {params: {n: {from: '[1, 2]'}}, cost: {coins: 1}, pay_to: {coins: n}}\n",
                 ("error", "17:74", "pay_to 'coins' goes to 'n', a parameter or local name"), id="local-target"),
    pytest.param("  pay: {cost: {coins: 1}, pay_to: {coins: fee}}\n",
                 ("error", "17:43", "constant"), id="constant-target"),
    pytest.param("  pay: {cost: {coins: 1}, pay_to: {coins: banq}}\n",
                 ("error", "17:43", "banq"), id="unknown-target"),
    pytest.param("  pay: {params: {j: {from: shelf}}, cost: {coins: 1}, pay_to: {coins: j.name}}\n",
                 ("error", "17:71", "needs a number"), id="string-attribute"),
    pytest.param("  pay: {cost: {coins: 1}, pay_to: {coins: 'players[0].coins + 1'}}\n",
                 ("error", "17:44", "pay_to 'coins' must name a place to add the amount to"), id="not-a-place"),
]


@pytest.mark.parametrize("body, expected", CASES)
def test_misuse_is_a_located_finding(tmp_path: Path, body, expected):
    found = spec_findings(tmp_path, HEAD + body)
    assert any(f[:2] == expected[:2] and expected[2] in f[2] for f in found), found


ABILITY = """\
  pieces:
    charm:
      active_in: [pocket]
      abilities:
        - activate: {cost: {coins: 1}, pay_to: PAY}
          do: ["luck(owner)"]
      start: shelf
"""
LUCK = "effects:\n  luck: {params: {who: player}, effect: who.score += 1}\n"


@pytest.mark.parametrize("pay, expected", [
    ("{coin: bank}", ("error", "9:49", "pay_to 'coin' names no cost of this ability (did you mean 'coins'?)")),
    ("{coins: self}", ("error", "9:56", "pay_to 'coins' goes to 'self', a parameter or local name")),
    ("{coins: fee}", ("error", "9:56", "constant")),
])
def test_an_abilitys_misused_pay_to_is_a_located_finding(tmp_path: Path, pay, expected):
    text = HEAD.replace("  pieces: {jar: {attributes: {name: str}, instances: [{name: Red}], start: shelf}}\n",
                        ABILITY.replace("PAY", pay))
    text = text.replace("  tracks: {coins: {start: 3}}", "  tracks: {coins: {start: 3}, score: {start: 0}}")
    text = text.replace("  zones: {shelf: {}}\n", "  zones: {shelf: {}, pocket: {per_player: true}}\n" + LUCK)
    found = spec_findings(tmp_path, text + "  pay: {}\n")
    assert any(f[:2] == expected[:2] and expected[2] in f[2] for f in found), found


def test_the_valid_forms_pass(tmp_path: Path):
    body = ("  pay: {params: {j: {from: shelf, prompt: 'Which jar?'}, who: {from: players, prompt: 'Whom?'}}, "
            "cost: {coins: 1}, pay_to: {coins: bank}}\n")
    assert spec_findings(tmp_path, HEAD + body) == []
