"""Hypothesis-generated games on the lean playout path (engine/lean.py) against the reference interpreter's
public API, in lockstep: the same menus, the same current player, the same position after every answer (the
flat flow's position turned back into a general state, digest for digest), the same errors, the same end.

The specs come from tests/specgen.py (as in tests/test_generated_games.py); the lean path plays them on the
flat flow where the spec is one it supports (engine/flat.py) and on the general engine's lean state otherwise,
so both are compared with the reference.  (Today's flat flow takes the classic games' shape only: one phase, no
triggers, every construct typed; of 60 generated specs none had it, so generated games check the general lean
state, and the flat flow is checked on the bundled games and their variants: tests/test_lean.py.)
"""

from __future__ import annotations

import itertools

from hypothesis import given, note
from hypothesis import strategies as st

from orrery.interpreter.engine.game import Game
from orrery.interpreter.engine.lean import lean_state
from orrery.rulespec.loader import load_spec
from specgen import specs
from test_generated_games import ERRORS, MAX_STEPS, attempt, generated_settings
from test_lean import digest

_COUNTER = itertools.count()


def _play(lean, ref, answers: list[int]) -> None:
    for step, answer in enumerate(answers[:MAX_STEPS]):
        if ref.is_terminal():
            break
        legal = ref.legal_actions()
        assert lean.legal() == legal and lean.current_player() == ref.current_player(), f"step {step}: menus"
        index = legal[answer % len(legal)]
        _, err_lean = attempt(lean.play, index)
        _, err_ref = attempt(ref.apply, index)
        assert err_lean == err_ref, f"step {step}: errors differ\n  lean: {err_lean}\n  reference: {err_ref}"
        if err_ref is not None:
            return
        assert digest(lean) == ref.pos.s.digest(), f"step {step}: the positions differ"
    if ref.is_terminal():
        assert lean.is_terminal() and lean.returns() == ref.returns()


@generated_settings()
@given(text=specs(), players=st.integers(1, 3), seed=st.integers(0, 2**16),
       answers=st.lists(st.integers(0, 50), min_size=MAX_STEPS, max_size=MAX_STEPS))
def test_generated_games_play_the_same_on_the_lean_path(text: str, players: int, seed: int, answers: list[int],
                                                       tmp_path_factory) -> None:
    note(text)
    path = tmp_path_factory.getbasetemp() / f"lean_{next(_COUNTER)}.yaml"
    path.write_text(text, encoding="utf-8")
    spec = load_spec(path, check=True)
    fast_game, ref_game = Game(spec, mode="compiled"), Game(spec, mode="interpreted")
    players = min(players, ref_game.rules.max_players)
    ref, err_ref = attempt(ref_game.new_initial_state, players, seed)
    try:
        lean, err_lean = lean_state(fast_game, seed, players), None
    except ERRORS as err:
        lean, err_lean = None, (type(err).__name__, str(err))
    assert err_lean == err_ref, f"start: errors differ\n  lean: {err_lean}\n  reference: {err_ref}"
    if ref is None:
        return
    _play(lean, ref, answers)

