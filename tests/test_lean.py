"""The lean playout path (engine/lean.py) and the prepared start position (Game.start_state).

The lean path keeps no history, narration or checkpoint, but plays the very games the public API plays: the
same menus (after the same look-ahead), the same positions after every answer, the same results.  A new state
copied from the prepared start position is the state a fresh start makes.
"""

from __future__ import annotations

import random

import pytest

from orrery.interpreter.core.decisions import RunawayError
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.engine.driver import GameState
from orrery.interpreter.engine.game import Game, IllegalMove, load_game
from orrery.interpreter.engine.gamefiles import bundled_games
from orrery.interpreter.engine.lean import FlatLean, LeanState, lean_state


def digest(lean) -> str:
    """The digest of a lean state's position (the flat flow's turned back into a general state)."""
    return lean.state().digest() if isinstance(lean, FlatLean) else lean.pos.s.digest()

def play_to_runaway(api, lean, rng) -> None:
    """Random answers to both sides in lock-step (the same digest after each) until the reference raises a
    RunawayError: the lean side must raise the same one at that answer; the error is raised on."""
    while not api.is_terminal():
        index = api.legal_actions()[rng.below(len(api.legal_actions()))]
        try:
            api.apply(index)
        except RunawayError as err:
            with pytest.raises(RunawayError) as also:
                lean.play(index)
            assert str(also.value) == str(err)
            raise
        lean.play(index)
        assert digest(lean) == api.pos.s.digest()



def lockstep(game, seeds, api_game=None) -> None:
    """Play the same random answers on the lean path of `game` and the public API of `api_game` (else `game`),
    comparing menus, positions and results after every answer."""
    for seed in seeds:
        api, lean = (api_game or game).new_initial_state(seed=seed), lean_state(game, seed)
        rng = Rng(seed + 11)
        while not api.is_terminal():
            legal = api.legal_actions()
            assert lean.legal() == legal and lean.current_player() == api.current_player()
            index = legal[rng.below(len(legal))]
            api.apply(index)
            lean.play(index)
            assert digest(lean) == api.pos.s.digest()
        assert lean.is_terminal() and lean.legal() == [] and lean.returns() == api.returns()
        if isinstance(lean, LeanState):
            assert lean.history() == [] and api.history()


# The lean path of every bundled game plays random games against the public API in tests/test_differential.py
# (play_lockstep(lean=...)): on the compiled rules in every game at every player count, on the reference's in
# the first three; and of every variant, on the compiled rules, a whole game.


# Every variant's lean path plays a whole game against the reference in tests/test_differential.py
# (test_variants_identical_on_both_engines_and_the_lean_path), beside the compiled engine.


@pytest.mark.parametrize("name", bundled_games())
def test_a_copy_of_the_prepared_start_is_a_fresh_start(name):
    game = load_game(name)
    for seed in (0, 5, 123456789):
        copied, fresh = game.new_initial_state(seed=seed), GameState.start(game, game.num_players(), seed)
        assert copied.digest() == fresh.digest() and copied.seed == seed
        assert [(s.player, s.index, s.auto) for s in copied.steps] == [(s.player, s.index, s.auto) for s in fresh.steps]
        assert copied.narration == fresh.narration
    prepared = game._prepared[game.num_players()]
    drew = fresh.pos.s.rng.state != Rng(123456789).state  # (a setup that draws is run per seed instead)
    assert (prepared is None) == drew


def test_a_prepared_start_is_never_changed_by_the_games_copied_from_it():
    game = load_game("connect-four")
    first = game.new_initial_state(seed=1)
    before = game._prepared[2].digest()
    first.apply(first.legal_actions()[0])
    lean = lean_state(game, 2)
    lean.playout(random.Random(3))
    assert game._prepared[2].digest() == before
    assert game.new_initial_state(seed=1).digest() == GameState.start(game, 2, 1).digest()


def test_a_refused_answer_after_which_the_state_may_not_be_used():
    game = load_game("tic-tac-toe")
    lean = lean_state(game, 0)
    with pytest.raises(IllegalMove, match="not one of the options"):
        lean.play(99)
    lean.playout(random.Random(1))
    with pytest.raises(IllegalMove, match="the game is over"):
        lean.play(0)


def test_playouts_are_reproducible_and_clones_independent():
    game = load_game("reversi")
    a, b = lean_state(game, 4), lean_state(game, 4)
    c = a.clone()
    assert a.playout(random.Random(9)) == b.playout(random.Random(9))
    assert digest(a) == digest(b) != digest(c)
    assert isinstance(c, FlatLean) and not c.is_terminal()
    assert c.playout(random.Random(9), limit=3) == 3 and not c.is_terminal()


def test_a_lean_copy_of_a_game_in_progress_goes_on_from_there():
    game = load_game("breakthrough")
    gs = game.new_initial_state(seed=2)
    for _ in range(4):
        gs.apply(gs.legal_actions()[0])
    lean = LeanState.of(gs)
    assert lean.legal() == gs.legal_actions() and lean.pos.s.digest() == gs.pos.s.digest()
    lean.play(lean.legal()[-1])
    assert gs.pos.s.digest() != lean.pos.s.digest() and len(gs.history()) == 4


TORUS = """\
orrery: 1
game: {name: torus-line, players: {min: 2, max: 2}}
components:
  pieces:
    mark: {attributes: {owner: player}, unlimited: true}
  zones:
    board: {type: grid, width: 4, height: 1, wrap: true}
flow:
  first_player: 0
  phases:
    - name: play
      steps:
        - actions: [place]
actions:
  place:
    params:
      square: {from: cells(board), where: empty(square)}
    effect: "create mark {owner: current} in square"
end:
  full:
    when: all(not empty(c) for c in cells(board))
    winners: "[top(neighbor(c, \\"W\\")).owner for c in cells(board) where c.x == 0 and neighbor(c, \\"W\\") != none]"
"""


def test_a_key_the_flat_flow_does_not_know_leaves_the_game_to_the_general_lean_state(tmp_path):
    """(`wrap:` is a zone key the flat flow's layout does not play: the spec is refused, the lean path plays it on
    the general engine, the same games)"""
    from conftest import make_game
    from orrery.interpreter.compiler.flatgen import FlatUnsupported
    from orrery.interpreter.compiler.flatmodule import _flow_shape
    from orrery.interpreter.engine.flat import FlatGame

    game = make_game(tmp_path, TORUS)
    with pytest.raises(FlatUnsupported, match="the key 'wrap' of components.zones"):
        _flow_shape(game.rules)
    assert FlatGame.of(game) is None and isinstance(lean_state(game, 0), LeanState)
    lockstep(game, range(4), Game(game.spec, mode="interpreted"))
    unwrapped = make_game(tmp_path, TORUS.replace(", wrap: true", ""))
    assert FlatGame.of(unwrapped) is not None and isinstance(lean_state(unwrapped, 0), FlatLean)
    lockstep(unwrapped, range(4))


def _keys(value):
    if isinstance(value, dict):
        return {k: _keys(v) for k, v in value.items()}
    return [_keys(v) for v in value] if isinstance(value, (list, tuple)) else None


def test_the_keys_a_spec_sets_are_read_off_its_models_as_pydantic_dumps_them():
    """flatmodule._set_fields gives model_dump(exclude_defaults=True)'s keys at every depth, without building
    pydantic's serializers (a warm start of a classic game builds none: the first state waited for them)."""
    import glob

    from conftest import REPO
    from orrery.interpreter.compiler.flatmodule import _set_fields
    from orrery.rulespec.loader import load_spec

    paths = sorted(glob.glob(str(REPO / "games" / "*" / "rules.yaml"))) + sorted(glob.glob(str(REPO / "tests" /
                                                                                              "specs" / "*.yaml")))
    checked = 0
    for path in paths:
        try:
            model = load_spec(path, check=False).model
        except Exception:  # noqa: BLE001 - (specs of the bad-input tests)
            continue
        assert _keys(_set_fields(model)) == _keys(model.model_dump(exclude_defaults=True)), path
        checked += 1
    assert checked > 30  # (that a warm start builds none: test_diskcache's warm-start test)


def test_any_and_all_over_short_constant_lists_are_written_out():
    """(tic-tac-toe's end checks: any line all of one owner, every square filled; the games stay the API's:
    test_the_lean_path_plays_the_apis_games)"""
    from orrery.interpreter.engine.flat import FlatGame

    source = FlatGame.of(load_game("tic-tac-toe")).mod.source
    assert "ANY(" not in source and "ALL(" not in source and " or " in source


def test_each_flat_game_keeps_its_own_values_limit():
    """(a game made later with a larger limit does not raise an earlier game's: a list past the small limit still
    stops the flat game, and the general engine meets the limit where the reference meets it)"""
    from orrery.interpreter.core.valueops import Limits
    from orrery.interpreter.engine.flat import FlatGame

    small = load_game("reversi", limits=Limits(values=30))
    small_flat = FlatGame.of(small)
    assert small_flat.ns["SIZED"] is not FlatGame.of(load_game("reversi")).ns["SIZED"]
    api = load_game("reversi", limits=Limits(values=30), mode="interpreted").new_initial_state(seed=1)
    lean = lean_state(small, 1)
    rng = Rng(5)
    with pytest.raises(RunawayError, match="limit values") as refused:
        play_to_runaway(api, lean, rng)
    assert isinstance(lean, FlatLean) and lean.general is not None and "more than 30" in str(refused.value)


REFUSALS = """\
orrery: 1
game: {name: refusals, players: {min: 1, max: 1}}
variables:
  steps: {start: 0}
  coins: {start: 5, per_player: true}
flow:
  phases:
    - name: main
      steps: [{actions: [walk, pit, gate]}]
actions:
  walk:
    effect: steps += 1
  pit:
    effect: |
      require steps > 100 else "the pit is too deep"
      steps += 100
  gate:
    params:
      door: {from: "[1, 2]", where: "current.coins > 4", why: "the door is shut"}
    cost: {coins: 1}
    effect: steps += door
end:
  home: {when: "steps >= 3", winners: players}
"""


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("refused", ["pit", "gate"])
def test_an_offered_answer_a_rule_refuses_is_refused_as_the_api_refuses_it(game_from, mode, refused):
    """With look-ahead off (limit lookahead=0) the menu offers actions that fail once chosen (a `require`, an
    empty parameter menu behind a cost): the lean path refuses them with the API's IllegalMove and words, not
    the engine's internal RequireFailed (found by tests/test_lean_generated.py: a cost paid when the action starts
    left its parameter no legal value)."""
    from orrery.interpreter.core.valueops import Limits

    game = Game(game_from(REFUSALS).spec, Limits(lookahead=0), mode=mode)
    api, lean = game.new_initial_state(seed=0), lean_state(game, 0)
    index = next(o.index for o in api.decision.options if o.label == refused)
    assert lean.legal() == api.legal_actions() and index in lean.legal()
    with pytest.raises(IllegalMove) as by_api:
        api.apply(index)
    with pytest.raises(IllegalMove) as by_lean:
        lean.play(index)
    assert str(by_lean.value) == str(by_api.value)
    assert ("too deep" if refused == "pit" else "the door is shut") in str(by_api.value)


def _fresh_pieces(game, seed, players, answers, fresh):
    """The digests of a seeded random game's first `answers` positions; `fresh`: the pieces built again for it
    (the rules' snapshot of them dropped first), else started from the snapshot."""
    rules = game.engine(False)[0]
    if fresh:
        rules.__dict__.pop("_made_pieces", None)
    gs = GameState.start(game, players, seed)
    if fresh:
        assert rules.__dict__["_made_pieces"]  # (this start made the snapshot the other one copies)
    rng, out = Rng(seed + 3), [gs.digest()]
    while not gs.is_terminal() and len(out) < answers:
        legal = gs.legal_actions()
        gs.apply(legal[rng.below(len(legal))])
        out.append(gs.digest())
    return out


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("name,players", [("lantern-fair", 3), ("ultramassive", 2)])
def test_pieces_made_once_per_player_count_start_the_games_a_fresh_build_starts(name, mode, players):
    """(flowframe._make_pieces: Lantern Fair's setup shuffles after the pieces are made, an Ultramassive variable's
    start draws a number: both run per game on the copied pieces, and the games are the same)"""
    game = load_game(name, mode=mode)
    for seed in (1, 2):
        fresh = _fresh_pieces(game, seed, players, 40, True)
        for _ in range(2):  # (and a game played from the snapshot leaves it as it was)
            assert _fresh_pieces(game, seed, players, 40, False) == fresh
    assert game.engine(False)[0].__dict__["_made_pieces"][players] is not None


SCATTER = """
orrery: 1
game: {name: scatter, players: {min: 2, max: 2}}
components:
  pieces:
    stone: {count: 6, start: "if random_int(0, 1) == 0 then left else right"}
  zones: {left: {}, right: {}}
flow:
  phases:
    - name: turns
      steps:
        - {actions: [take]}
actions:
  take:
    params: {s: {from: "pieces(left) + pieces(right)"}}
    effect: move s to box
end:
  empty: {when: "size(left) + size(right) == 0"}
"""


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_pieces_whose_start_draws_are_made_for_each_game(tmp_path, mode):
    from conftest import make_game

    game = Game(make_game(tmp_path, SCATTER).spec, mode=mode)
    starts = {tuple(map(str, GameState.start(game, 2, seed).pos.s.loc)) for seed in range(8)}
    assert len(starts) > 1 and game.engine(False)[0].__dict__["_made_pieces"][2] is None
