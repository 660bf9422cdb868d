"""benchmarks/ceiling_bubble_singularity.py plays the engine's own 4-player random games of Bubble Singularity:
decision by decision the same menu (options in order, named as the engine names them), the same pick, the same
bubbles on every cell, supplies, bag, scores and markers, and the same end, winners and scores
(benchmarks/bubble_singularity_lockstep.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # `benchmarks/` sits beside the engine, outside the installed package
    sys.path.insert(0, str(REPO))

from benchmarks import bubble_singularity_lockstep as lockstep  # noqa: E402
from benchmarks import ceiling_bubble_singularity as ceiling  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402


@pytest.fixture(scope="module")
def game():
    return load_game("bubble-singularity", mode="compiled")


@pytest.mark.parametrize("seed", [1, 2, 3, 12])
def test_the_ceiling_plays_the_engines_game(game, seed):
    decisions = lockstep.check_seed(game, seed, state=True)
    assert decisions > 50  # (a whole game: the setup's 7 decisions and many turns)


# every end of the spec, and a shared win (ranked by markers, then points)
@pytest.mark.parametrize("seed, end, shared", [(806, "five_markers", False),
                                               (943, "bag_empty", False), (95, "deck_depleted", False),
                                               (4085, "twenty_five_points", True),
                                               (10, "five_ability_types", False)])
def test_every_end_is_the_engines(game, seed, end, shared):
    lockstep.check_seed(game, seed, state=False)
    got, winners, _, _ = ceiling.play(seed)
    assert (got, len(winners) > 1) == (end, shared)


def test_the_ceiling_alone_plays_the_same_game(game):
    # without the engine beside it (the benchmark's way: its own Rng per seat) it ends as the engine does
    gs = game.new_initial_state(players=4, seed=2)
    from orrery.interpreter.bots.factory import RandomBot, apply_choice
    from orrery.interpreter.bots.simulate import bot_seed
    bots = [RandomBot(bot_seed(2, k)) for k in range(4)]
    steps = 0
    while not gs.is_terminal():
        apply_choice(gs, bots[gs.current_player()].choose(gs))
        steps += 1
    o = gs.outcome()
    assert ceiling.play(2) == (o.end, list(o.winners), list(o.scores), steps)


def test_the_checker_sees_a_rule_written_wrong(game, monkeypatch):
    # a pop sequence scored with another table: the checker must part the two games
    monkeypatch.setattr(ceiling, "CHAIN_POINTS", [0, 1, 2, 4, 7, 11])
    with pytest.raises(lockstep.Mismatch):
        for seed in (1, 2, 3, 12):
            lockstep.check_seed(game, seed, state=True)
