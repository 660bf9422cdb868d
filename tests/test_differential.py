"""Differential tests: the compiled fast path and the tree-walking interpreter play identical games.

For every bundled game, seeded random games run on both engines in lockstep:
the same menus, the same state digest after every step, the same narration and
the same result.  For games with cascade rules, captured and reshuffled
positions resolve identically.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import budget

from orrery.interpreter.cli.bench import capture_positions, on_engine, reshuffled, resolve
from orrery.interpreter.bots.factory import RandomBot
from orrery.interpreter.engine.game import Game
from orrery.interpreter.core.rng import Rng
from orrery.rulespec.loader import load_spec

ROOT = Path(__file__).resolve().parents[1]
SPECS = sorted((ROOT / "games").glob("*/rules.yaml"))
MIN_STEPS = budget(400, 1000)  # per game, across seeded random games (full budget under CI)
MAX_GAMES = 40


def _pair(path: Path, variants: list[Path] = ()) -> tuple[Game, Game]:
    spec = load_spec(path, list(variants))
    return Game(spec, mode="compiled"), Game(spec, mode="interpreted")


def play_lockstep(fast: Game, ref: Game, players: int, seed: int, max_steps: int = 20_000) -> int:
    """Play a random game on both engines (to its end or `max_steps`), asserting they agree after every step."""
    a = fast.new_initial_state(players=players, seed=seed)
    b = ref.new_initial_state(players=players, seed=seed)
    bot = RandomBot(seed * 31 + 7)
    steps = 0
    while True:
        assert a.state.digest() == b.state.digest(), f"seed {seed}, step {steps}: states differ"
        assert [(o.index, o.label) for o in a.legal_options()] == [(o.index, o.label) for o in b.legal_options()], \
            f"seed {seed}, step {steps}: menus differ"
        assert a.narration == b.narration
        if steps >= max_steps:
            return steps
        if b.is_terminal():
            assert a.is_terminal()
            assert a.outcome() == b.outcome()
            assert a.returns() == b.returns()
            return steps
        choice = bot.choose(b)
        a.apply(choice)
        b.apply(choice)
        steps += 1


@pytest.mark.slow
@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.parent.name)
def test_random_games_identical_on_both_engines(path: Path):
    fast, ref = _pair(path)
    total = games = 0
    while total < MIN_STEPS and games < MAX_GAMES:
        players = ref.rules.min_players + games % (ref.rules.max_players - ref.rules.min_players + 1)
        total += play_lockstep(fast, ref, players, seed=1000 + games)
        games += 1
    assert total >= min(MIN_STEPS, games), (total, games)


VARIANTS = sorted((ROOT / "games").glob("*/variants/*.yaml"))


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_variants_identical_on_both_engines(path: Path):
    fast, ref = _pair(path.parent.parent / "rules.yaml", [path])
    steps = sum(play_lockstep(fast, ref, ref.rules.default_players, seed=seed, max_steps=120) for seed in range(2))
    assert steps > 0


CASCADE_GAMES = [p for p in SPECS if load_spec(p, check=False).model.triggers
                 and any(not t.on for t in load_spec(p, check=False).model.triggers.values())]
# under CI 5,000 positions (40 captured ones and their reshuffles): 10,000 took two minutes of the suite's CPU
POSITIONS = budget(2_000, 5_000)


@pytest.mark.slow
@pytest.mark.parametrize("path", CASCADE_GAMES, ids=lambda p: p.parent.name)
def test_cascades_resolve_identically_from_random_positions(path: Path):
    fast, ref = _pair(path)
    captured = capture_positions(ref, games=80, seed=5, limit=40)  # stops at 40 positions
    assert captured, "random games of a cascade game start some cascades"
    # each side really runs its own engine (the state's rules object decides)
    assert on_engine(captured[0], fast).rules.compiled is not None
    assert getattr(on_engine(captured[0], ref).rules, "compiled", None) is None
    rng = Rng(99)
    outcomes = set()
    for i in range(POSITIONS):
        base = captured[i % len(captured)]
        state = base if i < len(captured) else reshuffled(base, rng)
        got, want = resolve(fast, state), resolve(ref, state)
        assert got == want, f"position {i}: compiled {got[0]} vs interpreted {want[0]}"
        outcomes.add(want[0].split()[0])
    assert "settled" in outcomes
