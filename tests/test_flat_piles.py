"""The flat flow's piles, constants, name sets and cell attributes (compiler/flatlayout.py, flatcalls.py,
flatstmts.py): a made-up game (tests/specs/pile-row.yaml) plays on the flat path, and is the reference's game
answer for answer; variants of it are refused where the flat code does not write a construct."""

from __future__ import annotations

import random

import pytest

from conftest import SPECS, make_game
from test_flatapi import _same_so_far, play_alike
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


PAWN_WALK = SPECS / "pawn-walk.yaml"
SPREAD = SPECS / "spread.yaml"
# (a made-up game, the forms its flat module must hold: each construct written flat, none left to the general
# engine; the ends its random games reach)
FLAT_GAMES = [
    (PILE_ROW, ["MOVEB(st, ", "LOC[", "K"], {"over", "drained"}),
    (PAWN_WALK, ["UNIQUE(st, ", "RANGE(st, 1, 3)", "DIST_KING(", "DIST_MANHATTAN(", "MOVEL(st, ", "is not ABSENT",
                 "default=0", "KIND[v"], {"long"}),
    (SPREAD, ["OCC(st, ", "CONNECTED(st, ", "UNIQUE(st, ", ".__getitem__(("], {"full"}),
]


@pytest.mark.parametrize("path, forms, ends", FLAT_GAMES, ids=lambda v: getattr(v, "stem", ""))
def test_a_made_up_game_plays_on_the_flat_path_as_the_reference_plays_it(path, forms, ends):
    game = load_game(path)
    fg = FlatGame.of(game)
    assert fg is not None
    src = fg.mod.source
    assert all(form in src for form in forms), [form for form in forms if form not in src]
    found = set()
    for seed in range(40):
        lean = lean_state(game, seed)
        assert isinstance(lean, FlatLean)
        lean.playout(random.Random(seed))
        assert lean.general is None  # (the whole game on the flat flow: nothing stopped it)
        found.add(lean.st.over)
    assert found == ends
    lockstep(game, range(16), load_game(path, mode="interpreted"))


def test_piles_are_places_after_the_cells():
    lay = FlatGame.of(load_game(PILE_ROW)).lay
    assert lay.piles == {"supply": 4, "discard": 5, "spare": 6} and lay.box == 7
    assert [z.name for z in lay.zone_refs] == ["board"] * 4 + ["supply", "discard", "spare", "__box__"]


@pytest.mark.parametrize("path", [PILE_ROW, PAWN_WALK, SPREAD], ids=lambda p: p.stem)
def test_the_public_state_of_a_made_up_game_is_the_general_one_step_by_step(path):
    fast, ref_game = load_game(path), load_game(path, mode="interpreted")
    for seed in range(6):
        flat, ref = fast.new_initial_state(seed=seed), ref_game.new_initial_state(seed=seed)
        assert isinstance(flat, FlatGameState) and flat._fg is not None
        play_alike(flat, ref, Rng(seed + 5))
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


def test_a_list_longer_than_the_flat_room_stops_the_flat_game_and_the_general_engine_goes_on():
    """(range(1, 3) with a values limit of 4,000: the flat code's room is 1 item, the reference's 4,000; the
    flat game stops at the first walk, the general engine plays the same answers again and goes on)"""
    from orrery.interpreter.core.valueops import Limits

    limits = Limits(values=4000)
    game = load_game(PAWN_WALK, limits=limits)
    assert FlatGame.of(game) is not None
    lean = lean_state(game, 3)
    assert isinstance(lean, FlatLean) and lean.general is None
    lean.play(0)
    assert lean.general is not None  # (stopped: the general engine took over)
    lockstep(game, range(4), load_game(PAWN_WALK, limits=limits, mode="interpreted"))


@pytest.mark.parametrize("old, new, refused", [
    ('metric: "king"', 'metric: "taxi"', "distance\\(\\) with the keyword 'metric'"),
    ("max([top(c).value for c in chips_near(d)], default: 0)", "max([top(c).value for c in chips_near(d)], 0)",
     "a value of type any"),
    ('move pieces(out, kind: "chip") to supply at bottom', 'move pieces(out, kind: "chip") to cell(board, "a1")',
     None),
    # (a pawn has no value: the general engine gives it one, the flat game stops there and hands it over)
    ("      move top(here) to dest\n", "      move top(here) to dest\n      top(dest).value = 7\n", None),
])
def test_a_built_in_the_flat_code_does_not_write_leaves_the_game_to_the_general_engine(tmp_path, old, new, refused):
    text = PAWN_WALK.read_text(encoding="utf-8")
    assert old in text
    game = make_game(tmp_path, text.replace(old, new))
    if refused is None:
        assert FlatGame.of(game) is not None
        lockstep(game, range(6), Game(game.spec, mode="interpreted"))
        return
    with pytest.raises(FlatUnsupported, match=refused):
        flat_module(game.rules, lambda e: reads_flow(game.rules, e))


def test_a_step_out_of_an_unbounded_grids_window_stops_the_flat_game_and_the_general_engine_goes_on(tmp_path):
    """(the window holds x and y from -WINDOW to WINDOW - 1: a jump of 2 * WINDOW leaves it at once)"""
    from orrery.interpreter.compiler.flatlayout import WINDOW

    text = SPREAD.read_text(encoding="utf-8").replace("spot.x + 3", f"spot.x + {2 * WINDOW}")
    game = make_game(tmp_path, text)
    assert FlatGame.of(game) is not None
    stopped = 0
    for seed in range(6):
        lean = lean_state(game, seed)
        lean.playout(random.Random(seed))
        stopped += lean.general is not None
    assert stopped == 6  # (every game makes a group of 3, and jumps out of the window then)
    lockstep(game, range(4), Game(game.spec, mode="interpreted"))
    lay = FlatGame.of(game).lay
    assert lay.unbounded == {"table": (0, (2 * WINDOW) ** 2)} and lay.adjacent()[0] is None


PIECE_PICK = SPECS / "piece-pick.yaml"


def test_a_menu_of_pieces_plays_flat_until_two_would_merge():
    """(a menu of pieces merges identical ones, leaving a gap in the option indices: the flat menu stops the
    flat game there, and the general engine goes on; the options' labels are the pieces' on the position)"""
    game, ref_game = load_game(PIECE_PICK), load_game(PIECE_PICK, mode="interpreted")
    fg = FlatGame.of(game)
    assert fg is not None and "DISTINCT(st, " in fg.mod.source
    stopped = []
    for seed in range(20):
        lean = lean_state(game, seed)
        lean.playout(random.Random(seed))
        stopped.append(lean.general is not None)
    assert any(stopped) and not all(stopped)
    lockstep(game, range(12), ref_game)
    labels = set()
    for seed in range(8):
        flat, ref = game.new_initial_state(seed=seed), ref_game.new_initial_state(seed=seed)
        rng = Rng(seed + 5)
        while not ref.is_terminal():
            _same_so_far(flat, ref)
            labels.update(o.label for o in flat.legal_options())
            index = ref.legal_actions()[rng.below(len(ref.legal_actions()))]
            flat.apply(index)
            ref.apply(index)
        _same_so_far(flat, ref)
        assert flat.outcome() == ref.outcome() and flat.state.digest() == ref.state.digest()
    assert any(x.endswith("from the bag") for x in labels) and any(x.endswith("from the row") for x in labels)


def test_a_search_samples_a_menu_of_pieces_with_the_labels_of_the_position():
    """(FlatGameState.random_moves keeps no label of a piece: a chip's label changes when it moves)"""
    game, ref_game = load_game(PIECE_PICK), load_game(PIECE_PICK, mode="interpreted")
    for seed in range(6):
        flat, ref = game.new_initial_state(seed=seed), ref_game.new_initial_state(seed=seed)
        a, b = Rng(seed), Rng(seed)
        played: list = []
        flat.random_moves(a, 1000, played, None)
        general = []
        while not ref.is_terminal() and len(general) < len(played):  # (mcts._playout's loop on a general state)
            real = len(ref.legal_actions()) > 1
            move = ref.sample_step(b)
            if real:
                general.append(move)
        assert played == general and len({label for _, label in played}) > 2
