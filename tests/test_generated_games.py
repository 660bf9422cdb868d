"""Hypothesis-generated games: random specs from a small grammar of constructs, played at random on both
engines in lockstep, so that a difference between the compiled fast path and the reference interpreter
in any construct is found without a bundled game that uses it.

`specgen.specs()` draws a spec (YAML text; see tests/specgen.py for the constructs and why every spec
ends).  Each spec is loaded with the static checker on (a rejected spec is a bug of the generator),
then played with a drawn player count, seed and list of answers (`legal_actions()[k % len]`) on
`Game(spec, mode="compiled")` and `Game(spec, mode="interpreted")`.  After the start and after every
answer both positions must agree on: state digest, position digest (state + continuation), menu
(index, label), current player, narration, history (player, index, label, prompt, auto) and, at the
end, outcome and returns.  An error (RuleError, RunawayError, IllegalMove) must be raised by both, of
the same type with the same message.  At a drawn step both positions are cloned, and the clones,
given the same answers, must retrace the originals.  The lean playout path (engine/lean.py) of the compiled
game plays along on the original line: the same menus and current player, the same position (digest) after
every answer, the same errors and the same end.  (Until session 7 tests/test_lean_generated.py drew 150 other
specs for the lean path alone, loading, compiling and playing each on the reference again.)

The default run is small and derandomized (the same examples every run); with ORRERY_FULL_BUDGET=1 (conftest.budget) it runs
more examples, and ORRERY_FUZZ_SCALE multiplies both (as in tests/test_fuzz.py).
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from orrery.interpreter.core.decisions import RuleError, RunawayError
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.engine.game import Game, GameState, IllegalMove
from orrery.interpreter.engine.lean import lean_state
from orrery.rulespec.loader import load_spec
from conftest import budget
from specgen import specs
from test_lean import digest as lean_digest

SCALE = max(1, int(os.environ.get("ORRERY_FUZZ_SCALE", "1") or 1))
EXAMPLES = budget(25, 150)  # derandomized: the same specs every run (conftest.budget)
# Shrinking a failing game takes minutes (every attempt loads, checks, compiles and plays a spec), so by
# default a failure is reported as found, with its whole spec; ORRERY_SHRINK=1 shrinks it to a small one.
SHRINK = bool(os.environ.get("ORRERY_SHRINK"))
MAX_STEPS = 60  # answers per game (every generated game ends on its own within a few turns anyway)
ERRORS = (RuleError, RunawayError, IllegalMove)
_COUNTER = itertools.count()


def generated_settings() -> settings:
    phases = list(Phase) if SHRINK else [p for p in Phase if p not in (Phase.shrink, Phase.explain)]
    return settings(max_examples=EXAMPLES * SCALE, deadline=None, derandomize=True, database=None, phases=phases,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])


# Mostly the default limits; sometimes small ones, so that runaway guards and budgets are hit (and must be
# hit at the same point by both engines).
limits = st.one_of(
    st.just(Limits()), st.just(Limits()),
    st.builds(Limits, loop=st.sampled_from([30, 120, 600]), cascade=st.sampled_from([1, 3, 10_000]),
              lookahead=st.sampled_from([1, 4, 5_000]), pieces=st.sampled_from([12, 200_000]),
              auto=st.sampled_from([6, 5_000]), emit_depth=st.sampled_from([1, 64]),
              values=st.sampled_from([8, 1_000_000])))


def view(gs: GameState) -> dict[str, Any]:
    """Everything the two engines must agree on, for one position."""
    position = gs.digest()  # "<the state's digest>:<the continuation's>" (a state digest is costly: taken once)
    return {
        "state digest": position.split(":")[0],
        "position digest": position,
        "menu": [(o.index, o.label) for o in gs.legal_options()],
        "current player": gs.current_player(),
        "narration": list(gs.narration),
        "history": [(h.player, h.index, h.label, h.prompt, h.auto) for h in gs.steps],
        "outcome": None if gs.outcome() is None else vars(gs.outcome()),
        "returns": gs.returns(),
    }


def attempt(fn, *args) -> tuple[Any, tuple[str, str] | None]:
    """Run fn; return (result, None) or (None, (error type, message)) for the errors rules may raise."""
    try:
        return fn(*args), None
    except ERRORS as err:
        return None, (type(err).__name__, str(err))


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two JSON-like values differ (paths with both values), for a readable failure."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in list(a) + [k for k in b if k not in a]
                for d in differences(a.get(k, "<missing>"), b.get(k, "<missing>"), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path or '.'}: compiled {a!r}, interpreted {b!r}"]


def same(fast: GameState, ref: GameState, where: str) -> dict[str, Any]:
    """Both positions agree on everything in view() (returned); the message says what differs and where."""
    a, b = view(fast), view(ref)
    for key in a:
        if a[key] != b[key]:
            detail = ""
            if key in ("state digest", "position digest"):
                diffs = differences(fast.view(), ref.view())
                detail = ("\n  the states differ at:\n    " + "\n    ".join(diffs[:12]) if diffs
                          else "\n  (view() is the same: RNG state, change stamps or the continuation differ)")
            raise AssertionError(f"{where}: {key} differs\n  compiled:    {a[key]!r}\n"
                                 f"  interpreted: {b[key]!r}{detail}\n  spec: {fast.game.spec.path}")
    return b


def play(fast: GameState, ref: GameState, answers: list[int], first: int = 0, lean: Any = None) -> list[dict[str, Any]]:
    """Answer both positions in lockstep from step `first` (and the lean state, when given); the views after each
    step (the error last)."""
    views = []
    for step in range(first, min(len(answers), MAX_STEPS)):
        if ref.is_terminal():
            assert fast.is_terminal(), f"step {step}: only the interpreted game is over"
            break
        legal = ref.legal_actions()
        if lean is not None:
            assert (lean.legal(), lean.current_player()) == (legal, ref.current_player()), f"step {step}: lean menu"
        index = legal[answers[step] % len(legal)]
        note(f"step {step}: {ref.decision.prompt!r} -> {next(o.label for o in ref.legal_options() if o.index == index)!r}")
        _, err_fast = attempt(fast.apply, index)
        _, err_ref = attempt(ref.apply, index)
        assert err_fast == err_ref, (f"step {step}: errors differ\n  compiled:    {err_fast}\n"
                                     f"  interpreted: {err_ref}")
        seen = same(fast, ref, f"step {step}")
        if lean is not None:
            _, err_lean = attempt(lean.play, index)
            assert err_lean == err_ref, f"step {step}: errors differ\n  lean: {err_lean}\n  reference: {err_ref}"
            assert err_ref is not None or lean_digest(lean) == seen["state digest"], f"step {step}: the lean position"
        views.append(seen)
        if err_ref is not None:
            views.append({"error": err_ref})
            break
    return views


@generated_settings()
@given(text=specs(), players=st.integers(1, 3), seed=st.integers(0, 2**16),
       answers=st.lists(st.integers(0, 50), min_size=MAX_STEPS, max_size=MAX_STEPS), clone_at=st.integers(0, MAX_STEPS),
       limits=limits)
def test_generated_games_play_identically_on_both_engines(text: str, players: int, seed: int, answers: list[int],
                                                          clone_at: int, limits: Limits,
                                                          tmp_path_factory) -> None:
    note(text)
    path = tmp_path_factory.getbasetemp() / f"generated_{next(_COUNTER)}.yaml"
    path.write_text(text, encoding="utf-8")
    spec = load_spec(path, check=True)  # a spec the checker rejects is a bug of the generator
    fast_game, ref_game = Game(spec, limits, "compiled"), Game(spec, limits, "interpreted")
    players = min(players, ref_game.rules.max_players)
    fast, err_fast = attempt(fast_game.new_initial_state, players, seed)
    ref, err_ref = attempt(ref_game.new_initial_state, players, seed)
    lean, err_lean = attempt(lean_state, fast_game, seed, players)
    assert err_fast == err_ref, f"start: errors differ\n  compiled:    {err_fast}\n  interpreted: {err_ref}"
    assert err_lean == err_ref, f"start: errors differ\n  lean: {err_lean}\n  reference: {err_ref}"
    if ref is None:
        return
    same(fast, ref, "start")
    clone_at = min(clone_at, len(answers))
    before = play(fast, ref, answers[:clone_at], lean=lean)
    if before and "error" in before[-1]:
        return
    fast_copy, ref_copy = fast.clone(), ref.clone()
    after = play(fast, ref, answers, clone_at, lean=lean)
    if after and "error" in after[-1]:
        lean = None  # (the lean state is not used after an error)
    # the clones, answered the same, retrace the originals (and still agree with each other)
    again = play(fast_copy, ref_copy, answers, clone_at)
    assert again == after, f"clones taken at step {clone_at} went another way than the originals"
    if ref.is_terminal():
        assert fast.is_terminal()
        assert lean is None or (lean.is_terminal() and lean.returns() == ref.returns()), "the lean path's end"
        # the end scored on a new game given the same answers and asked nothing else: a flat state's end is
        # scored by its flat module where it can be (engine/flat.FlatGame.outcome), as the reference scores it
        replayed = fast_game.new_initial_state(players, seed)
        for index in ref.history():
            replayed.apply(index)
        assert vars(replayed.outcome()) == vars(ref.outcome()), "the end scored on a new game"
