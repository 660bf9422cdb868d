"""Look-ahead and the flat path (issue 34; /work/helpers/sections/flatlook.md holds the design): the made-up game
tests/specs/kin-grid.yaml, whose placements a `require` in the effect may refuse, is what the flat flow must
play once it looks ahead.  Today the flat module refuses it ("look-ahead") and the general engine plays it; these
tests pin what the general engine does there, which a flat look-ahead must do too: menus keep the indices of the
options look-ahead kept (gaps where it refused one), a refused index is explained in the `require`'s words, a
lone completable option is answered by itself with its own index and a turn with no completable option is
skipped."""

from __future__ import annotations

import pytest

from conftest import SPECS
from orrery.interpreter.compiler.flatgen import FlatUnsupported
from orrery.interpreter.compiler.flatmodule import flat_module
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.engine.flow import reads_flow
from orrery.interpreter.engine.game import load_game

KIN_GRID = SPECS / "kin-grid.yaml"
WHY = "a stone must touch one of your own"


def test_the_flat_module_refuses_a_spec_that_needs_look_ahead_and_nothing_else_first():
    game = load_game(KIN_GRID, mode="interpreted")
    rules = game.rules
    # (the action's effect may refuse it, and its menu of empty cells may be empty; nothing after the action can)
    assert rules.some_may_fail and not rules.outside_may_fail and not rules.fallibility.tail
    assert rules.fallibility.param_may_be_empty(rules.actions["place"], 0)
    assert rules.fallibility.block(rules.actions["place"].effect)
    with pytest.raises(FlatUnsupported, match="look-ahead"):
        flat_module(rules, reads_flow)


def _walk(game, seed: int) -> list[tuple]:
    """A random game on the public API: per menu, its mover, indices, the reason of its first gap, the digest."""
    gs, rng, out = game.new_initial_state(seed=seed), Rng(seed), []
    while not gs.is_terminal():
        legal = gs.legal_actions()
        gap = next((i for i in range(legal[-1]) if i not in legal), None)
        why = None if gap is None else gs.why_not_index(gap)
        out.append((gs.current_player(), legal, why, gs.digest()))
        gs.apply(legal[rng.below(len(legal))])
    out.append((gs.returns(), [(s.player, s.index, s.auto) for s in gs.steps], gs.digest()))
    return out


def test_the_reference_filters_kin_grid_menus_by_trying_each_cell_and_the_compiled_engine_agrees():
    ref, fast = load_game(KIN_GRID, mode="interpreted"), load_game(KIN_GRID)
    gaps = lone = 0
    for seed in range(12):
        walk = _walk(ref, seed)
        assert walk == _walk(fast, seed)
        for _, legal, why, _ in walk[:-1]:
            if why is not None:
                gaps += 1
                assert WHY in why  # (the require's words, from the look-ahead that refused the cell)
        steps = walk[-1][1]
        lone += sum(1 for p, i, auto in steps if auto and i > 0)  # (a lone completable cell, answered by itself)
    assert gaps > 50 and lone > 0
    # some turn has no completable cell at all: the step is skipped (the game then runs past 14 turns)
    turns = []
    for seed in range(40):
        gs, rng = ref.new_initial_state(seed=seed), Rng(seed)
        while not gs.is_terminal():
            legal = gs.legal_actions()
            gs.apply(legal[rng.below(len(legal))])
        turns.append(gs.pos.s.cursor.turn)
    assert min(turns) == 14 and max(turns) > 14

