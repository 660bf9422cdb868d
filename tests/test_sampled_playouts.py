"""GameState.sample_step: playouts that find a completable option by trying options in a random order.

The option taken must be uniform over the options that look-ahead would offer (the viable ones), a
dead end must never be taken, a step menu with no completable action is skipped as in play, and the
search bot's playouts use it.  The made-up games here are only for these tests.
"""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path

import pytest

from orrery.interpreter.core.rng import Rng
from orrery.interpreter.engine.game import TERMINAL, IllegalMove

from conftest import load_game, make_game

GAMES = Path(__file__).resolve().parent.parent / "games"

# Pick a number 1-6, then a colour; only some (number, colour) pairs can be completed:
# 1, 2 and 3 with red; 4 with blue; 5 and 6 never.  The viable numbers are 1-4, each equally likely.
PICKY = """
orrery: 1
game: {name: picky, players: {min: 1, max: 1}}
variables: {n: {start: 0}, c: {type: str, start: '""'}}
flow:
  phases:
    - name: play
      steps: [{actions: [pick]}]
actions:
  pick:
    effect: |
      choose x from [1, 2, 3, 4, 5, 6] prompt "number?"
      choose y from ["red", "blue"] prompt "colour?"
      require (x <= 3 and y == "red") or (x == 4 and y == "blue") else "that pair cannot be made"
      n = x
      c = y
end:
  done: {when: "n > 0", winners: "[]"}
"""


def test_the_option_taken_is_uniform_over_the_viable_ones(tmp_path):
    game = make_game(tmp_path, PICKY)
    start = game.new_initial_state(seed=0)
    assert [o.label for o in start.legal_options()] == ["1", "2", "3", "4"]  # exact look-ahead: 5, 6 are dead
    rng = Rng(7)
    counts: Counter = Counter()
    for _ in range(800):
        gs = start.clone()
        mover, label = gs.sample_step(rng)
        assert mover == 0 and gs.is_terminal()
        n, c = gs.state.vars["n"], gs.state.vars["c"]
        assert (n <= 3 and c == "red") or (n == 4 and c == "blue")  # never a dead end
        assert label == str(n)
        counts[n] += 1
    assert set(counts) == {1, 2, 3, 4}
    assert all(150 <= k <= 250 for k in counts.values()), counts  # 200 expected each (binomial sd ~12)


def test_apply_sampled_leaves_the_next_menu_unfiltered(tmp_path):
    """A search bot judges an option with apply_sampled: its answer, then the run to the next decision, whose
    menu is not filtered and not answered by itself (apply does both); sample_step then plays on from there."""
    start = make_game(tmp_path, PICKY).new_initial_state(seed=0)
    exact = start.clone()
    exact.apply(3)  # 4: only blue completes it, so apply answers the colour itself and the game ends
    assert exact.is_terminal() and exact.steps[-1].auto
    gs = start.clone()
    gs.apply_sampled(3)
    assert gs.decision.prompt == "colour?" and [o.label for o in gs.legal_options()] == ["red", "blue"]
    assert [s.label for s in gs.steps] == [*[s.label for s in start.steps], "4"]
    for seed in range(8):
        played = gs.clone()
        played.sample_step(Rng(seed))  # never the dead red
        assert played.is_terminal() and (played.state.vars["n"], played.state.vars["c"]) == (4, "blue")
    with pytest.raises(RuntimeError, match="sample_step has no narration"):
        gs.narration
    with pytest.raises(IllegalMove, match="that pair cannot be made"):
        start.clone().apply_sampled(4)  # 5: a dead end, not on the filtered menu: refused with its reason


def test_sampled_steps_list_the_sampled_answers(tmp_path):
    gs = make_game(tmp_path, PICKY).new_initial_state(seed=0)
    gs.sample_step(Rng(3))
    assert [s.prompt for s in gs.steps[-2:]] == ["number?", "colour?"]
    assert not any(s.auto for s in gs.steps[-2:])


# Two actions; `bad` can never be completed and `good` only on even turns: on odd turns no action can be
# completed, and the step is skipped, as GameState skips it in play.
SKIPPY = """
orrery: 1
game: {name: skippy, players: {min: 1, max: 1}}
variables: {t: {start: 0}, good: {start: 0}}
flow:
  phases:
    - name: play
      steps: [{actions: [good, bad]}]
      turn_end: |
        t += 1
actions:
  good:
    effect: |
      require t % 2 == 0 else "only on even turns"
      good += 1
  bad:
    effect: |
      require false else "never"
end:
  done: {when: "t >= 6", winners: "[]"}
"""


def test_a_step_with_no_completable_action_is_skipped_as_in_play(tmp_path):
    game = make_game(tmp_path, SKIPPY)
    exact, sampled = game.new_initial_state(seed=0), game.new_initial_state(seed=0)
    while not exact.is_terminal():
        exact.apply(exact.legal_actions()[0])
    rng = Rng(1)
    for _ in range(20):
        if sampled.is_terminal():
            break
        sampled.sample_step(rng)
    assert sampled.is_terminal() and exact.is_terminal()
    assert sampled.state.vars == exact.state.vars
    assert sampled.current_player() == TERMINAL


@pytest.mark.parametrize("name", ["bubble-singularity", "burbuja", "bubblee-pop", "reversi"])
def test_sampled_playouts_of_bundled_games_take_only_legal_options(name):
    game = load_game(GAMES / name / "rules.yaml")
    gs = game.new_initial_state(seed=5)
    rng = Rng(11)
    for _ in range(60):
        if gs.is_terminal():
            break
        exact = gs.clone()
        d = copy.copy(gs.decision)  # a menu of its own: look-ahead writes its reasons into the menu
        d.options, d.reasons, d.rejected = list(d.options), dict(d.reasons), list(d.rejected)
        exact.pos.decision = d
        offered = {o.label for o in exact._viable(d)}  # what look-ahead would offer here
        mover, label = gs.sample_step(rng)
        if not offered:  # a step menu nothing can complete is skipped, as in play: the answer is a later menu's
            assert d.kind == "action" and gs.decision is not d
            continue
        assert mover == d.player and label in offered, (label, offered)


@pytest.mark.parametrize("name", ["connect-four", "tic-tac-toe", "breakthrough"])
def test_without_look_ahead_a_sampled_playout_is_the_random_playout(name):
    # where no option can fail, sampling draws the numbers a random pick among legal_options() draws
    game = load_game(GAMES / name / "rules.yaml")
    exact, sampled = game.new_initial_state(seed=2), game.new_initial_state(seed=2)
    r1, r2 = Rng(9), Rng(9)
    while not exact.is_terminal():
        options = exact.legal_options()
        exact.apply(options[r1.below(len(options))].index)
        while not sampled.is_terminal() and len(sampled.decision.options) == 1:
            sampled.sample_step(r2)  # (a lone option: the exact state answered it itself)
        sampled.sample_step(r2)
    assert sampled.is_terminal() and sampled.state.digest() == exact.state.digest()
