"""The flat flow's piles, constants, name sets and cell attributes (compiler/flatlayout.py, flatcalls.py,
flatstmts.py): a made-up game (tests/specs/pile-row.yaml) plays on the flat path, and is the reference's game
answer for answer; variants of it are refused where the flat code does not write a construct."""

from __future__ import annotations

import random

import pytest

from conftest import SPECS, make_game
from test_flatapi import _same_so_far
from test_lean import lockstep
from orrery.interpreter.compiler.flatgen import FlatUnsupported
from orrery.interpreter.compiler.flatmodule import _flow_shape, flat_module
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.engine.flat import FlatGame
from orrery.interpreter.engine.flatapi import FlatGameState
from orrery.interpreter.engine.flow import reads_flow
from orrery.interpreter.engine.game import Game, load_game
from orrery.interpreter.engine.lean import FlatLean, lean_state

PILE_ROW = SPECS / "pile-row.yaml"


def test_a_game_of_piles_plays_on_the_flat_path_as_the_reference_plays_it():
    game = load_game(PILE_ROW)
    fg = FlatGame.of(game)
    assert fg is not None
    src = fg.mod.source
    # each construct is written flat: a pile's place, a move to its bottom, a piece's zone, a cell attribute
    assert "MOVEB(st, " in src and "LOC[" in src and "def eff_play" in src
    assert set(fg.lay.piles) == {"supply", "discard", "spare"} and fg.lay.box == 4 + 3
    ends = set()
    for seed in range(40):
        lean = lean_state(game, seed)
        assert isinstance(lean, FlatLean)
        lean.playout(random.Random(seed))
        assert lean.general is None  # (the whole game on the flat flow: nothing stopped it)
        ends.add(lean.st.over)
    assert ends == {"over", "drained"}
    lockstep(game, range(16), load_game(PILE_ROW, mode="interpreted"))


def test_the_public_state_of_a_game_of_piles_is_the_general_one_step_by_step():
    fast, ref_game = load_game(PILE_ROW), load_game(PILE_ROW, mode="interpreted")
    for seed in range(6):
        flat, ref = fast.new_initial_state(seed=seed), ref_game.new_initial_state(seed=seed)
        assert isinstance(flat, FlatGameState) and flat._fg is not None
        rng = Rng(seed + 5)
        while not ref.is_terminal():
            _same_so_far(flat, ref)
            index = ref.legal_actions()[rng.below(len(ref.legal_actions()))]
            flat.apply(index)
            ref.apply(index)
        _same_so_far(flat, ref)
        assert flat._fg is not None and flat.outcome() == ref.outcome()
        assert flat.state.digest() == ref.state.digest()


def test_display_names_constants_requirements_and_labels_are_read_by_the_general_engine_only():
    """(`names:`, `constants:`, `requires:`, `display:`, labels and a piece's `start:`: no key the flat flow
    refuses; a constant is its value in the flat code)"""
    game = load_game(PILE_ROW)
    model = game.rules.spec.model
    assert model.names and model.constants and model.requires and model.components.pieces["chip"].label
    assert _flow_shape(game.rules) is None
    src = FlatGame.of(game).mod.source
    assert "(st.turn >= 12)" in src  # (the constant's value, worked out when the game was built)


TWEAKS = [
    # (what changes in pile-row.yaml, what the flat module says then: None = still flat, and the same games)
    ("    spare: {type: deck}", "    spare: {type: deck}\n    hand: {type: hand, per_player: true}", "the key 'per_player'"),
    ("        move k to supply at bottom", "        let z = supply\n        move k to z at bottom",
     "move of a piece to something else"),
    ("  move bottom(supply) to spare", "  move bottom(supply) to spare at bottom", None),
    ("top(spot).colour == spot.colour", "top(spot).colour == spot.colour and zone_of(spot) == board", None),
    ("count(spare) > 0", "not empty(spare) and top(spare) != bottom(supply)", None),
    ("turns: 'row * 3'", "turns: 'row * 3'\n  hues: '[\"red\", \"green\"]'", None),
    ("for col in colour {", "for col in hues {", None),
]


@pytest.mark.parametrize("old, new, refused", TWEAKS, ids=[t[1].strip()[:30] for t in TWEAKS])
def test_each_construct_is_refused_or_played_as_the_reference_plays_it(tmp_path, old, new, refused):
    text = PILE_ROW.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new)
    if "hues" in new and "for col" in new:
        text = text.replace("turns: 'row * 3'", "turns: 'row * 3'\n  hues: '[\"red\", \"green\"]'")
    game = make_game(tmp_path, text)
    if refused is not None:
        with pytest.raises(FlatUnsupported, match=refused):
            flat_module(game.rules, lambda e: reads_flow(game.rules, e))
        assert FlatGame.of(game) is None
        return
    assert FlatGame.of(game) is not None
    lockstep(game, range(8), Game(game.spec, mode="interpreted"))
