"""The resumable engine (interpreter/engine) against the replaying GameState it replaces.

Every bundled game and variant, on both the compiled and the interpreted path, plays seeded random
games in lockstep on both: the same menus (labels, indices, chooser), the same state digest, the same
narration (the replaying engine's narration lags behind a mid-stage decision, so its live messages
are added) and the same result.  Also: a clone taken in the middle of an effect continues on its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from orrery.interpreter.bots import RandomBot
from orrery.interpreter.engine.driver import ResumableState
from orrery.interpreter.game import Game
from orrery.interpreter.gamefiles import bundled_games, bundled_variants, resolve_game, resolve_variant
from orrery.rulespec.loader import load_spec

CASES = [(g, v) for g in bundled_games() for v in [None, *bundled_variants(g)]]


def _lockstep(game: Game, seed: int, max_steps: int) -> int:
    old = game.new_initial_state(seed=seed)
    new = ResumableState.start(game, game.rules.default_players, seed)
    bot = RandomBot(seed * 7 + 1)
    for step in range(max_steps):
        assert new.state.digest() == old.state.digest(), (seed, step)
        assert [(o.index, o.label) for o in new.legal_options()] == [(o.index, o.label) for o in old.legal_options()]
        assert new.current_player() == old.current_player()
        live = [] if old.is_terminal() else old.state.msgs  # (at the end they are in the narration already)
        assert new.narration == old.narration + live, (seed, step)
        if old.is_terminal():
            assert new.is_terminal() and new.returns() == old.returns() and new.outcome() == old.outcome()
            return step
        choice = bot.choose(old)
        old.apply(choice)
        new.apply(choice)
    return max_steps


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("name,variant", CASES, ids=[f"{g}-{v or 'base'}" for g, v in CASES])
def test_same_games_as_the_replaying_engine(name: str, variant: str | None, mode: str):
    path = resolve_game(name)
    variants = [resolve_variant(path, variant)] if variant else []
    game = Game(load_spec(path, variants), mode=mode)
    steps = sum(_lockstep(game, seed, 400) for seed in range(2))
    assert steps > 0


def test_a_clone_mid_effect_continues_alone():
    """Bubble Singularity asks inside actions: clone at such a decision, continue both the same way."""
    game = Game.load(resolve_game("bubble-singularity"))
    gs = ResumableState.start(game, 2, 3)
    bot = RandomBot(5)
    for _ in range(300):
        if gs.is_terminal():
            break
        if gs.decision.kind == "choose":
            twin = gs.clone()
            assert len(twin.pos.stack) > 1  # the effect's frames are part of the copy
            for _ in range(20):
                if gs.is_terminal():
                    break
                choice = bot.choose(gs)
                gs.apply(choice)
                twin.apply(choice)
                assert twin.state.digest() == gs.state.digest() and twin.narration == gs.narration
            return
        gs.apply(bot.choose(gs))
    pytest.fail("no decision inside an effect was met")
