"""Shared helpers for the interpreter tests: tiny made-up games from YAML strings.

`make_game(tmp_path, yaml_text)` writes the text to a file and loads it into a
Game (the static checker is skipped: check=False).  `evaluate(gs, text)` parses
an expression and evaluates it against a game state with the game's engine.
The `game_from` fixture binds make_game to the test's tmp_path.  The `engine`
and `module_engine` fixtures run a test module on both engines (compiled fast
path and tree-walking interpreter).
"""

from __future__ import annotations

import functools
import gc
import itertools
import os
import shutil
import tempfile
import textwrap
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from orrery.interpreter.reference.evaluator import Interp

from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.engine.game import Game, GameState
from orrery.rulespec.loader import load_spec
from orrery.rulespec.parser import parse_expr

REPO = Path(__file__).resolve().parent.parent
SPECS = Path(__file__).resolve().parent / "specs"
TIC_TAC_TOE = REPO / "games" / "tic-tac-toe" / "rules.yaml"

# The disk cache of specs and compiled code (rulespec/diskcache.py): the tests use a folder of their own, never
# the user's, made by the first process (pytest's controller) and shared with its xdist workers and the
# commands the tests run (they inherit the environment); removed when the session ends.
_TEST_CACHE = os.environ.get("ORRERY_TEST_CACHE") or tempfile.mkdtemp(prefix="orrery-test-cache-")
_OWN_CACHE = "ORRERY_TEST_CACHE" not in os.environ
os.environ["ORRERY_TEST_CACHE"] = os.environ["ORRERY_CACHE_DIR"] = _TEST_CACHE


# pytest rewrites the asserts of every module of a distribution that ships a pytest plugin (hypothesis, anyio,
# pytest-xdist), not only of the plugin: so each test process parsed, rewrote and compiled all of hypothesis it
# imports again (rewritten modules get no .pyc with PYTHONDONTWRITEBYTECODE, nor on a clean clone's first
# run: both workers rewrite at once), 3-5 CPU s per process.  Their asserts are theirs, not the tests': only
# their plugin modules themselves keep being rewritten (as a plugin named with -p would be).
THIRD_PARTY_REWRITE = ("hypothesis", "anyio", "xdist")


# Python's cyclic collector walks every tracked object at each full collection, and starts one whenever a
# quarter as many objects again have outlived two younger collections.  A test process keeps ~0.3-0.6 M objects
# (the test modules, every spec and game the tests loaded), so each walk took ~0.2-0.3 CPU s: about half the
# CPU of a sample of nine test files run in one process (49 of 92 s; the bench report's gc.collect() before
# each figure paid it 65 times), a quarter without the bench report (22 of 70 s).  So at the first test of each
# module, what is still alive after a collection (modules, caches, session fixtures: they mostly live to the
# end) is frozen out of the walks (gc.freeze), and a full collection waits for 100 younger ones instead of 10:
# that sample 92 -> 50 CPU s (collections 49 -> 5 s), the same peak memory.  What was frozen and later becomes
# cyclic garbage is never freed (memory only).  Tests that count garbage or memory collect on purpose and see
# only what they made.
GC_THRESHOLDS = (700, 10, 100)


def pytest_configure(config: Any) -> None:
    """Leave the plugins' packages (THIRD_PARTY_REWRITE) unrewritten: their modules load as Python loads them;
    fewer full collections (GC_THRESHOLDS)."""
    gc.set_threshold(*GC_THRESHOLDS)
    hook = getattr(config.pluginmanager, "rewrite_hook", None)
    marked = getattr(hook, "_must_rewrite", None)  # (pytest's own; without it, nothing changes but the time)
    if isinstance(marked, set):
        marked.difference_update(THIRD_PARTY_REWRITE)
        getattr(hook, "_marked_for_rewrite_cache", {}).clear()


_frozen_module: list[Any] = [None]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: Any) -> None:
    """At the first test of each module (before its fixtures): collect, then freeze what is still alive."""
    module = getattr(item, "module", None)
    if module is not _frozen_module[0]:
        _frozen_module[0] = module
        gc.collect()
        gc.freeze()


def pytest_unconfigure(config: Any) -> None:
    """The process that made the test cache removes it."""
    if _OWN_CACHE and not hasattr(config, "workerinput"):
        shutil.rmtree(_TEST_CACHE, ignore_errors=True)


_counter = itertools.count()

# The slow property tests (marked `slow`) run a smaller budget by default, so that the README's test command
# (and .ci/run, which runs it) stays within 10 minutes on a loaded 2-core machine; ORRERY_FULL_BUDGET=1 asks
# for their full budget (about 80 CPU s more: a long run, not every CI run). These tests are derandomized, so a
# larger budget in every CI run would replay the same larger set each time; the fuzzers that draw afresh under
# CI (tests/test_fuzz_files.py, tests/test_fuzz_filesystem.py) add up across runs instead. `-m "not slow"`
# skips them all.
FULL_BUDGET = os.environ.get("ORRERY_FULL_BUDGET") == "1"


def budget(default: int, full: int) -> int:
    """A slow test's amount of work: `full` with ORRERY_FULL_BUDGET=1, else `default`."""
    return full if FULL_BUDGET else default


def make_game(tmp_path: Path, text: str, name: str | None = None, limits: Limits | None = None) -> Game:
    """Write `text` (dedented) to a fresh file under tmp_path and load it as a Game."""
    name = name or f"rules_{next(_counter)}.yaml"
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return Game(load_spec(path, check=False), limits)


ENGINES = ["compiled", "interpreted"]


@pytest.fixture(params=ENGINES)
def engine(request, monkeypatch) -> str:
    """Run a test once per engine: games it creates use that engine (the default comes from ORRERY_MODE)."""
    monkeypatch.setenv("ORRERY_MODE", request.param)
    return request.param


@pytest.fixture(scope="module", params=ENGINES)
def module_engine(request) -> Iterator[str]:
    """The module-scoped `engine`: for module fixtures that build a game once."""
    old = os.environ.get("ORRERY_MODE")
    os.environ["ORRERY_MODE"] = request.param
    yield request.param
    if old is None:
        os.environ.pop("ORRERY_MODE", None)
    else:
        os.environ["ORRERY_MODE"] = old


def game_on_each_engine(spec_file: Path) -> Any:
    """A `game` fixture for a test module: the spec file's game on each engine (the test runs once per engine)."""

    @pytest.fixture(params=ENGINES)
    def game(request) -> Game:
        return Game(load_spec(spec_file), mode=request.param)

    return game


def menu(gs: GameState) -> list[str]:
    """The labels of a position's legal options (after look-ahead)."""
    return [o.label for o in gs.legal_options()]


def shared_game(rules: Path | str, variants: Any = (), mode: str = "compiled") -> Game:
    """A bundled game (a name, or the path of its rules.yaml) with variant files, built once per test process
    and engine: loading and compiling a game again in every test that plays it cost the suite more than a
    minute of CPU.  For tests that only start new states from it (nothing set on the Game itself)."""
    path = Path(rules) if str(rules).endswith(".yaml") else REPO / "games" / str(rules) / "rules.yaml"
    return _shared_game(path.resolve(), tuple(Path(v).resolve() for v in variants), mode)


@functools.lru_cache(maxsize=None)
def spec_data(rules: Path) -> Any:
    """A spec file's YAML data as written (no rule text parsed, nothing checked): for parameter lists built
    while collecting, which loading every bundled spec made cost each test process seconds."""
    from orrery.rulespec.source import load_yaml

    return load_yaml(rules).data


@functools.lru_cache(maxsize=None)
def _shared_game(path: Path, variants: tuple[Path, ...], mode: str) -> Game:
    game = Game(load_spec(path, list(variants)), mode=mode)
    game.source = (str(path), tuple(str(v) for v in variants))
    return game


def load_game(path: Path | str, limits: Limits | None = None) -> Game:
    """Load a spec file as a Game (no static check)."""
    return Game(load_spec(path, check=False), limits)


def new_state(game: Game, players: int = 2, seed: int = 1) -> GameState:
    """A new game state."""
    return game.new_initial_state(players=players, seed=seed)


def evaluate(gs: GameState, text: str, env: dict[str, Any] | None = None) -> Any:
    """Evaluate an expression against a game state (the live state, so mid-effect too)."""
    return Interp(gs.state, gs.game.limits).ev(parse_expr(text), dict(env or {}))


def on_both_engines(spec: Any, text: str, moves: tuple[str, ...] = (), limits: Limits = Limits(),
                    play_limits: Limits | None = None) -> list[tuple]:
    """`text` evaluated with `limits` after the labels `moves` (played with `play_limits`, else `limits`), on
    the compiled engine then the reference: (ok, label, type, loops) or (error, message); both must agree.
    (The loop count after an error is not compared: an error ends the step, and a comprehension that counts
    its ticks at once has counted its whole domain when an item fails.)"""
    outcomes: list[tuple] = []
    for mode in ("compiled", "interpreted"):
        gs = new_state(Game(spec, play_limits or limits, mode=mode))
        for label in moves:
            gs.apply_label(label)
        it = Interp(gs.state, limits)
        try:
            value = it.ev(parse_expr(text), {})
            outcomes.append(("ok", it.label(value), type(value).__name__, it.loops))
        except Exception as exc:  # noqa: BLE001 - both engines must fail alike
            outcomes.append((type(exc).__name__, str(exc)))
    assert outcomes[0] == outcomes[1], text
    return outcomes


def scenarios_on_both_engines(rules: Path) -> None:
    """Every scenario of a game (its scenarios/ folder) passes on both engines, which reach the same positions
    (decider, options, digest, narration) all along (as tests/test_scenarios.py for the bundled games)."""
    from orrery.interpreter.files.scenarios import load_scenarios, run_scenario, scenario_files

    spec = load_spec(rules)
    games = [Game(spec, mode=mode) for mode in ("compiled", "interpreted")]
    files = scenario_files(rules)
    assert files, f"{rules} has no scenarios"
    for path in files:
        for sc in load_scenarios(path):
            traces = []
            for game in games:
                traces.append(trace := [])
                result = run_scenario(game, sc, rules, trace=trace)
                assert result.passed, (game.mode, result.name, result.failures)
            assert traces[0] == traces[1], f"{sc.decl.name}: the engines differ"


def interp(gs: GameState) -> Interp:
    """An interpreter over the game state's live state (for labels, describe...)."""
    return Interp(gs.state, gs.game.limits)


def labels(gs: GameState) -> list[str]:
    """Labels of the pending decision's options."""
    return [o.label for o in gs.decision.options] if gs.decision else []


def var(gs: GameState, name: str) -> Any:
    """A global variable of the live state."""
    return gs.state.vars[name]


def seeded_trace(game: Game, seed: int, players: int, moves: int) -> list[tuple]:
    """A seeded random game, to compare engines step by step: after every answer the decision (prompt,
    labels, chooser), the digest (state and continuation), the frames on the stack by class name and the
    narration; at the end the returns and the history."""
    from orrery.interpreter.core.rng import Rng

    gs = game.new_initial_state(players=players, seed=seed)
    rng = Rng(seed)
    trace: list[tuple] = []
    for _ in range(moves):
        if gs.is_terminal():
            break
        legal = gs.legal_actions()
        gs.apply(legal[rng.below(len(legal))])
        d = gs.pos.decision
        trace.append((d.prompt if d else None, [o.label for o in d.options] if d else None, d.player if d else None,
                      gs.digest(), [type(f).__name__ for f in gs.pos.stack], tuple(gs.narration)))
    trace.append(("end", gs.returns() if gs.is_terminal() else None, gs.history()))
    return trace


def playout(gs: GameState, k: int = 0, max_steps: int = 2_000) -> list[str]:
    """Deterministic playout: answer legal_actions()[k % len] (k increments) until terminal."""
    taken: list[str] = []
    for step in range(max_steps):
        if gs.is_terminal():
            return taken
        legal = gs.legal_actions()
        assert legal, "a non-terminal state must have legal actions"
        idx = legal[(k + step) % len(legal)]
        label = next(o.label for o in gs.decision.options if o.index == idx)
        gs.apply(idx)
        taken.append(label)
    raise AssertionError(f"no terminal state after {max_steps} decisions")


# Header shared by many tiny games.  Every test game is made up for these tests.
HEADER = """\
orrery: 1
game:
  name: {name}
  players: {{min: {lo}, max: {hi}}}
"""


# The rest of a made-up game whose only move puts a `stone` on an empty cell of `board` (it ends when the board
# is full): a test spec declares those two and its own functions, then appends this.
PUT_A_STONE = """\
flow:
  phases:
    - name: main
      steps: [{actions: [put]}]
actions:
  put:
    params:
      spot: {from: cells(board), where: empty(spot), why: taken}
    effect: |
      create stone {owner: current} in spot
end:
  full:
    when: all(not empty(c) for c in cells(board))
    winners: "[]"
"""


def header(name: str = "tiny", lo: int = 1, hi: int = 4) -> str:
    """The `orrery:`/`game:` header of a tiny test game."""
    return HEADER.format(name=name, lo=lo, hi=hi)


@pytest.fixture()
def game_from(tmp_path: Path) -> Callable[..., Game]:
    """Factory: YAML text (dedented) -> loaded Game, written under this test's tmp_path."""

    def factory(text: str, limits: Limits | None = None, name: str | None = None) -> Game:
        return make_game(tmp_path, text, name=name, limits=limits)

    return factory


@pytest.fixture()
def ttt() -> Game:
    """The bundled tic-tac-toe game."""
    return load_game(TIC_TAC_TOE)


SAMPLER = SPECS / "sampler.yaml"


def run_effect(gs: GameState, text: str, env: dict[str, Any] | None = None):
    """Run an effect (one that asks nobody) on a clone of the live state; return (state, interp) afterwards."""
    from orrery.rulespec.parser import parse_block

    state = gs.state.clone()
    it = Interp(state, gs.game.limits)
    it.run(parse_block(text), dict(env or {}))
    return state, it


def position_view(gs: GameState) -> tuple:
    """What a player, a log or a saved game can see of a position: state and position digests, the menu,
    the reasons, the narration, the outcome and the history (with auto flags), for lockstep comparisons."""
    menu = [(o.index, o.label) for o in gs.legal_options()] if not gs.is_terminal() else []
    reasons = sorted(gs.decision.reasons.items()) if gs.decision else []
    return (gs.state.digest(), gs.digest(), menu, reasons, list(gs.narration), gs.outcome(),
            [(s.player, s.index, s.label, s.prompt, s.auto) for s in gs.steps])


def spec_findings(tmp_path: Path, text: str) -> list[tuple[str, str, str, str | None]]:
    """(severity, line:col, message, hint) of every finding of a spec written out as `text` (its warnings when
    it loads, else its errors)."""
    from orrery.rulespec.errors import SpecError

    path = tmp_path / "rules.yaml"
    path.write_text(text)
    try:
        found = load_spec(path).warnings
    except SpecError as err:
        found = err.findings
    return [(f.severity, f"{f.span.line}:{f.span.col}", f.message, f.hint) for f in found]


def error_line(tmp_path: Path, text: str, fragment: str) -> int:
    """The line of the first error containing `fragment` when the spec `text` is loaded (which must fail)."""
    from orrery.rulespec.errors import SpecError

    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    found = [f for f in err.value.findings if fragment in f.message]
    assert found, [f.message for f in err.value.findings]
    return found[0].span.line
