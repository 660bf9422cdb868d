"""Look-ahead and the flat path (issue 34; /work/helpers/sections/flatlook.md holds the design): the made-up game
tests/specs/kin-grid.yaml, whose placements a `require` in the effect may refuse, is what the flat flow must
play once it looks ahead.  Today the flat module refuses it ("look-ahead") and the general engine plays it; these
tests pin what the general engine does there, which a flat look-ahead must do too: menus keep the indices of the
options look-ahead kept (gaps where it refused one), a refused index is explained in the `require`'s words, a
lone completable option is answered by itself with its own index and a turn with no completable option is
skipped."""

from __future__ import annotations

import random

import pytest

from conftest import SPECS
from test_flatapi import _same_so_far
from test_lean import lockstep
from orrery.interpreter.compiler.flatgen import FlatUnsupported
from orrery.interpreter.compiler.flatmodule import flat_module
from orrery.interpreter.engine.driver import IllegalMove
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.engine.flat import FlatGame
from orrery.interpreter.engine.flatapi import FlatGameState
from orrery.interpreter.engine.flow import reads_flow
from orrery.interpreter.engine.game import load_game
from orrery.interpreter.engine.lean import FlatLean, lean_state

KIN_GRID = SPECS / "kin-grid.yaml"
WHY = "a stone must touch one of your own"


def test_a_spec_whose_action_may_be_refused_is_played_flat_with_look_ahead():
    game = load_game(KIN_GRID, mode="interpreted")
    rules = game.rules
    # (the action's effect may refuse it, and its menu of empty cells may be empty; nothing after the action can)
    assert rules.some_may_fail and not rules.outside_may_fail and not rules.fallibility.tail
    assert rules.fallibility.param_may_be_empty(rules.actions["place"], 0)
    assert rules.fallibility.block(rules.actions["place"].effect)
    mod = flat_module(rules, lambda e: reads_flow(rules, e))
    assert mod.look == {"place"} and "raise REFUSED" in mod.source and "keep = viable(st, a, values)" in mod.source
    ttt = load_game("tic-tac-toe", mode="interpreted").rules
    classic = flat_module(ttt, lambda e: reads_flow(ttt, e))
    assert not classic.look and "viable" not in classic.source and "keep" not in classic.source


@pytest.mark.parametrize("old, new, why", [
    # (look-ahead the flat flow does not write: the general engine plays these)
    ("        - actions: [place]\n", "        - actions: [place]\n      turn_end: 'require placed >= 0 else \"no\"'\n",
     "look-ahead"),  # (a refusal after the action: its run would go on to the next menu)
    ('"a stone must touch one of your own"', '"you have " + text(placed)', "message"),  # (worked out: may charge)
])
def test_look_ahead_the_flat_flow_does_not_write_is_refused(tmp_path, old, new, why):
    text = KIN_GRID.read_text()
    assert old in text
    path = tmp_path / "kin.yaml"
    path.write_text(text.replace(old, new))
    rules = load_game(path, mode="interpreted").rules
    with pytest.raises(FlatUnsupported, match=why):
        flat_module(rules, lambda e: reads_flow(rules, e))


def test_kin_grid_flat_is_the_reference_answer_for_answer_with_the_same_gaps_and_reasons():
    fast, ref_game = load_game(KIN_GRID), load_game(KIN_GRID, mode="interpreted")
    gaps = 0
    for seed in range(8):
        flat, ref = fast.new_initial_state(seed=seed), ref_game.new_initial_state(seed=seed)
        assert isinstance(flat, FlatGameState) and flat._fg is not None
        rng = Rng(seed + 7)
        while not ref.is_terminal():
            _same_so_far(flat, ref)
            legal = ref.legal_actions()
            gap = next((i for i in range(legal[-1]) if i not in legal), None)
            if gap is not None and gaps < 6:  # (a refused cell: the general state answers, in the require's words)
                gaps += 1
                probe = flat.clone()
                with pytest.raises(IllegalMove, match=WHY) as refused:
                    probe.apply(gap)
                assert str(refused.value) == ref.why_not_index(gap)
            index = legal[rng.below(len(legal))]
            flat.apply(index)
            ref.apply(index)
            assert flat._fg is not None and flat._fg.to_state(flat._st, ref.pos.s).digest() == ref.pos.s.digest()
        _same_so_far(flat, ref)
        assert flat._fg is not None and flat.outcome() == ref.outcome()
    assert gaps == 6


def test_kin_grid_plays_its_lean_path_flat_in_lockstep_with_both_engines_and_a_planted_mistake_is_caught():
    game, ref = load_game(KIN_GRID), load_game(KIN_GRID, mode="interpreted")
    lean = lean_state(game, 1)
    lean.play(lean.legal()[0])
    lean.play(lean.legal()[0])
    legal = lean.legal()
    gap = next(i for i in range(legal[-1]) if i not in legal)
    with pytest.raises(IllegalMove, match=WHY):  # (a refused cell, in the general engine's words)
        lean.play(gap)
    assert lean.general is None and lean.legal() == legal  # (nothing played)
    for seed in range(40):
        lean = lean_state(game, seed)
        assert isinstance(lean, FlatLean)
        lean.playout(random.Random(seed))
        assert lean.general is None and lean.st.over == "full"  # (the whole game flat: nothing stopped it)
    lockstep(game, range(40), ref)  # (seeds 7, 11, 20, 21, 26, 39 skip turns: no cell completes)
    lockstep(game, range(40, 44))
    ns = FlatGame.of(game)._advance.__globals__
    viable = ns["viable"]
    ns["viable"] = lambda st, a, values: list(range(len(values)))  # (planted: every cell offered)
    try:
        with pytest.raises(AssertionError):
            lockstep(game, range(3), ref)
    finally:
        ns["viable"] = viable
    lockstep(game, range(3), ref)
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



def test_an_action_without_a_parameter_that_may_be_refused_is_tried_first_and_its_step_skipped_when_refused(tmp_path):
    text = KIN_GRID.read_text()
    for old, new in [("        - actions: [place]\n", "        - actions: [place]\n        - actions: [boast]\n"),
                     ("  placed: {type: int, start: 0}\n", "  placed: {type: int, start: 0}\n  boasts: {type: int, start: 0}\n"),
                     ("\nend:", '  boast:\n    effect: |\n      require placed % 3 != 1 else "not now"\n      boasts += 1\n\nend:'),
                     ("winners: '[players[0]]'", "winners: 'if boasts % 2 == 0 then [players[0]] else [players[1]]'")]:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "kin-boast.yaml"
    path.write_text(text)
    game, ref = load_game(path), load_game(path, mode="interpreted")
    fg = FlatGame.of(game)
    assert fg.mod.look == {"place", "boast"} and "not completes(st, a)" in fg.mod.source
    boasts = set()
    for seed in range(20):
        lean = lean_state(game, seed)
        lean.playout(random.Random(seed))
        assert lean.general is None
        boasts.add(lean.st.V[fg.lay.var_slot["boasts"]])
    assert min(boasts) < 14 and len(boasts) > 1  # (some boasts refused: the step skipped; not always as many)
    lockstep(game, range(20), ref)
