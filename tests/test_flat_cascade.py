"""State triggers on the flat path (compiler/flatcascade.py): a made-up game whose pops chain
(tests/specs/pop-grid.yaml) plays its cascades flat, and is the reference's game answer for answer, with its
change stamps; the order keys (`changed_at`, `matched_at`, none), the cascade limit, and what stays refused."""

from __future__ import annotations

import random

import pytest

from conftest import SPECS, make_game
from test_flatapi import _same_so_far
from test_lean import digest, lockstep, play_to_runaway
from orrery.interpreter.compiler.flatgen import FlatUnsupported
from orrery.interpreter.compiler.flatmodule import flat_module
from orrery.interpreter.core.decisions import RunawayError
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.engine.flat import FlatGame
from orrery.interpreter.engine.flatapi import FlatGameState
from orrery.interpreter.engine.flow import reads_flow
from orrery.interpreter.engine.game import Game, load_game
from orrery.interpreter.engine.lean import FlatLean, lean_state

POP_GRID = SPECS / "pop-grid.yaml"


def _fired(game, seeds) -> list[list[str]]:
    """The pops of each seed's flat random game, in the order they fired (the spec records them)."""
    fg = FlatGame.of(game)
    out = []
    for seed in seeds:
        lean = lean_state(game, seed)
        assert isinstance(lean, FlatLean)
        lean.playout(random.Random(seed))
        assert lean.general is None  # (the whole game on the flat flow: nothing stopped it)
        out.append(list(lean.st.V[fg.lay.var_slot["fired"]]))
    return out


def test_a_game_whose_pops_chain_plays_its_cascades_on_the_flat_path_as_the_reference_plays_them():
    game = load_game(POP_GRID)
    fg = FlatGame.of(game)
    assert fg is not None and fg.mod.cascade and fg.mod.stamps
    assert "def cascade(st):" in fg.mod.source and "cascade(st)\n" in fg.mod.source and "MOVES(st, " in fg.mod.source
    longest = []
    for seed in range(30):
        lean = lean_state(game, seed)
        lean.playout(random.Random(seed))
        assert lean.general is None and lean.st.over == "full"
        longest.append(lean.st.V[fg.lay.var_slot["longest"]])
    assert max(longest) >= 8  # (chains of pops: many firings in one cascade)
    lockstep(game, range(12), load_game(POP_GRID, mode="interpreted"))
    lockstep(game, range(12, 16))  # (and the compiled engine's public API: its generated scans)


def test_the_state_of_a_cascading_game_and_its_change_stamps_are_the_general_ones_step_by_step():
    fast, ref_game = load_game(POP_GRID), load_game(POP_GRID, mode="interpreted")
    for seed in range(4):
        flat, ref = fast.new_initial_state(seed=seed), ref_game.new_initial_state(seed=seed)
        assert isinstance(flat, FlatGameState) and flat._fg is not None
        rng = Rng(seed + 7)
        while not ref.is_terminal():
            _same_so_far(flat, ref)
            index = ref.legal_actions()[rng.below(len(ref.legal_actions()))]
            flat.apply(index)
            ref.apply(index)
            s, r = flat._fg.to_state(flat._st, ref.pos.s), ref.pos.s  # (stamps are not in a digest)
            assert s.stamps == r.stamps and s.clock == r.clock and s.cascade == r.cascade
            assert s.digest() == r.digest()
        _same_so_far(flat, ref)
        assert flat._fg is not None and flat.outcome() == ref.outcome()
        assert flat.state.digest() == ref.state.digest()


ORDERS = [
    # (what changes in pop-grid.yaml: the cascade's order, played flat and the same as the reference's)
    ("    order: changed_at(c)\n", "    order: -changed_at(c)\n"),  # depth first
    ("    order: changed_at(c)\n", ""),  # no order: the cells' order, and the bonus first (its key 0 ties: declared later)
    ("    order: changed_at(c)\n", "    order: '[-matched_at, changed_at(c)]'\n",
     "      bonus += 1\n", "      bonus += 1\n    order: '[0, matched_at]'\n"),  # the newest match first
    ("    order: changed_at(c)\n", "    order: '[matched_at, -changed_at(c)]'\n",
     "      bonus += 1\n", "      bonus += 1\n    order: '[matched_at, 0]'\n",  # one queue of matches, the bonus
     "pops >= 4", "pops >= 1", "pops -= 4", "pops -= 1", "bonus >= 6", "bonus >= 60"),  # in it (still due: anew)
    ("    order: changed_at(c)\n", "    order: '[matched_at, changed_at(c)]'\n",  # a match that stops holding
     "    when: size(c) >= 3\n", "    when: 'size(c) >= 3 and (c.x > 0 or pops % 2 == 0)'\n",  # queues anew
     "      bonus += 1\n", "      bonus += 1\n    order: '[matched_at, 0]'\n"),
    ("      fired += [c.label]\n", "      fired += [c.label + text(matched_at) + text(cascade)]\n"),  # in the effect
    ("    order: changed_at(c)\n", "    order: 'changed_at(c) - 3 * c.x'\n",
     "      bonus += 1\n", "      bonus += 1\n    order: count(pieces(board)) - 100\n"),
]


@pytest.mark.parametrize("change", ORDERS, ids=[c[1].strip()[:30] or "no order" for c in ORDERS])
def test_each_cascade_order_is_played_flat_as_the_reference_plays_it(tmp_path, change):
    text = POP_GRID.read_text(encoding="utf-8")
    for old, new in zip(change[::2], change[1::2]):
        assert old in text
        text = text.replace(old, new)
    game = make_game(tmp_path, text)
    assert FlatGame.of(game) is not None and FlatGame.of(game).mod.cascade
    lockstep(game, range(30), Game(game.spec, mode="interpreted"))  # (a match stopping: 4 seeds in 30 show it)
    assert _fired(game, range(8)) != _fired(load_game(POP_GRID), range(8))  # (another order: other games)


REFUSED = [
    # (what changes in pop-grid.yaml, what the flat module says then)
    ("  payout:\n", "  payout:\n    phase: play\n", "scope, limit or cause"),
    ("  payout:\n", "  payout:\n    max_fires: 3\n", "scope, limit or cause"),
    ("    order: changed_at(c)\n", "    order: changed_at(c)\n    caused_by: c\n", "scope, limit or cause"),
    ("      pops += 1\n", "      pops += 1\n      stamp = cause.id\n", "causes"),
    ("    order: changed_at(c)\n", "    order: '[matched_at, changed_at(c)]'\n", "order keys of different kinds"),
    ("    order: changed_at(c)\n", "    order: c.label\n", "the order of the trigger 'pop'"),
    ("      stamp = changed_at(c)\n", "      stamp = changed_at(c)\n      settle\n", "Settle"),
    ("      destroy top(c)\n", "      destroy top(c)\n      choose d from adjacent(c)\n", "look-ahead"),  # (it may ask)
    ("  payout:\n", "  loud:\n    on: cascade_end\n    effect: bonus += 0\n  payout:\n", "triggers"),
]


@pytest.mark.parametrize("old, new, refused", REFUSED, ids=[r[2] + ": " + r[1].strip()[:20] for r in REFUSED])
def test_what_the_flat_cascade_does_not_write_is_refused(tmp_path, old, new, refused):
    text = POP_GRID.read_text(encoding="utf-8")
    assert old in text
    game = make_game(tmp_path, text.replace(old, new))
    with pytest.raises(FlatUnsupported, match=refused):
        flat_module(game.rules, lambda e: reads_flow(game.rules, e))
    assert FlatGame.of(game) is None


def test_the_cascade_limit_stops_the_flat_game_and_the_general_engine_says_so():
    small = load_game(POP_GRID, limits=Limits(cascade=4))
    api = load_game(POP_GRID, limits=Limits(cascade=4), mode="interpreted").new_initial_state(seed=3)
    lean = lean_state(small, 3)
    assert isinstance(lean, FlatLean)
    rng = Rng(5)
    with pytest.raises(RunawayError, match="limit cascade") as refused:
        play_to_runaway(api, lean, rng)
    assert "more than 4 firings" in str(refused.value)  # (the flat game stopped; the general engine said so)


def test_a_spec_without_change_stamps_keeps_none():
    """(the classic games read no `changed_at`: their flat moves stamp nothing, their states carry no stamps)"""
    fg = FlatGame.of(load_game("connect-four"))
    assert not fg.mod.stamps and not fg.mod.cascade and "MOVES(" not in fg.mod.source
    assert fg.new(2, 0).ST is None
