"""Lantern Fair's hand-written ceiling (benchmarks/ceiling_lantern_fair.py) plays the generated code's games.

The ceiling is Lantern Fair's generated module and flow written by hand and run by the engine in place of the
generated functions; its figures mean something only if it plays the same games and none of the generated code
still runs.  Seeded random games through the public API, both ways: the same legal actions, labels and digests
at every decision, the same narration; no `<orrery-...>` code called.  A broken hand-written function is caught.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # `benchmarks/` sits beside the engine, outside the installed package
    sys.path.insert(0, str(REPO))

from benchmarks import ceiling_lantern_fair as ceiling  # noqa: E402
from benchmarks import ceiling_lantern_fair_code as code  # noqa: E402


@pytest.fixture(scope="module")
def games():
    return ceiling.load("generated"), ceiling.load("hand")


def test_every_hand_written_function_is_linked(games):
    _, hand = games
    done = hand.hand_installed
    assert len(done.module) == len(ceiling.MODULE) and len(set(done.module)) == len(ceiling.MODULE)
    assert "FLOW" in done.flow and "step_1" in done.flow
    ns = hand.rules.compiled.namespace
    hand_code = {fn.__code__ for fn in ceiling.MODULE}
    assert {ns[n].__code__ for n in done.module} == hand_code
    assert hand.flow_frame.step.__code__ is ceiling.FLOWCODE.FLOW.__code__
    # the engine's tables hold the hand-written functions (by node, block and action)
    fast = hand.rules.compiled
    assert any(f.__code__ is code.e75.__code__ for f in fast.fns.values())  # price's base
    assert fast.action_steps["buy"].__code__ is ceiling.FRAMES.act204.__code__
    assert any(f.__code__ is ceiling.FRAMES.st196.__code__ for f in fast.block_steps.values())


@pytest.mark.parametrize("players, seeds", [(2, range(1, 13)), (3, range(1, 7))])
def test_same_games(games, players, seeds):
    generated, hand = games
    assert ceiling.same_games(generated, hand, seeds, players) > 10 * len(seeds)
    told = " ".join(line for seed in seeds[:4] for line in ceiling.same_narration(generated, hand, seed, players))
    for what in (" buys ", " busks", " plays ", " cheers", " takes the lantern for ", " keeps it"):
        assert what in told  # (each narration line of the hand-written code was compared)


@pytest.mark.parametrize("players, seeds", [(2, range(1, 7)), (3, range(42, 46))])
def test_price_read_written_in_plays_the_same_games(games, players, seeds):
    # (seed 4, 2 players: a price with Guild Seal's -1 decides; seed 44, 3 players: one with Night Bazaar's half)
    generated, _ = games
    assert ceiling.same_games(generated, ceiling.load("hand_price"), seeds, players) > 10 * len(seeds)


def test_no_generated_code_runs(games):
    generated, hand = games
    calls = ceiling.code_calls(lambda: ceiling.play(hand, 3, 2))
    assert calls["generated"] == 0 and calls["hand"] > 100
    calls = ceiling.code_calls(lambda: ceiling.play(generated, 3, 2))
    assert calls["hand"] == 0 and calls["generated"] > 100


def test_a_wrong_hand_written_function_is_caught():
    generated, hand = ceiling.load("generated"), ceiling.load("hand")
    fns = hand.rules.compiled.fns
    key = next(k for k, f in fns.items() if f.__code__ is code.e75.__code__)
    right = fns[key]
    fns[key] = lambda it, env: right(it, env) + 1  # every card costs one coin more
    with pytest.raises(AssertionError, match="differ"):
        ceiling.same_games(generated, hand, range(1, 30), 2)
