"""Every bundled game's scenario files pass (the same check as `orrery test GAME`) on both engines, which
must agree at every position a scenario reaches: decider, offered options, digest and narration
(issue 17: all scenarios pass on both paths)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import shared_game

from orrery.interpreter.engine.game import Game
from orrery.interpreter.files.scenarios import load_scenarios, run_scenario, scenario_files
from orrery.rulespec.loader import load_spec

GAMES = Path(__file__).resolve().parents[1] / "games"
CASES = [
    pytest.param(rules, f, id=f"{rules.parent.name}/{f.name}")
    for rules in sorted(GAMES.glob("*/rules.yaml"))
    for f in scenario_files(rules)
]


def _games(rules: Path) -> tuple[Game, Game]:
    return shared_game(rules, (), "compiled"), shared_game(rules, (), "interpreted")


@pytest.mark.parametrize("rules,scenario_file", CASES)
def test_bundled_scenarios_pass_identically_on_both_engines(rules: Path, scenario_file: Path):
    fast, ref = _games(rules)
    scenarios = load_scenarios(scenario_file)
    assert scenarios, f"{scenario_file} has no scenarios"
    failures = []
    for sc in scenarios:
        traces: dict[str, list] = {}
        for game in (fast, ref):
            traces[game.mode] = trace = []
            result = run_scenario(game, sc, rules, trace=trace)
            if not result.passed:
                failures.append(f"{game.mode}: {result.name} [{result.where}]: " + "; ".join(result.failures))
        a, b = traces["compiled"], traces["interpreted"]
        for k, (x, y) in enumerate(zip(a, b)):
            if x != y:
                what = ["decider", "options", "digest", "narration"][next(i for i in range(4) if x[i] != y[i])]
                failures.append(f"{sc.decl.name} [{sc.where}]: the engines differ in {what} at position {k}")
                break
        else:
            if len(a) != len(b) or not a:
                failures.append(f"{sc.decl.name} [{sc.where}]: {len(a)} positions compiled, {len(b)} interpreted")
    assert not failures, "\n".join(failures)


def test_a_scenario_with_variants_runs_on_the_engine_it_was_given():
    """`_with_variants` builds a new Game for the variants: on the same engine (it used to fall back on
    the default, so `orrery test --mode interpreted` ran variant scenarios compiled)."""
    from orrery.interpreter.files import scenarios as mod

    rules = GAMES / "bubble-singularity" / "rules.yaml"
    with_variants = [(f, sc) for f in scenario_files(rules) for sc in load_scenarios(f) if sc.decl.variants]
    assert with_variants
    _, ref = _games(rules)
    game = mod._with_variants(ref, with_variants[0][1], rules)
    assert game.mode == "interpreted" and getattr(game.rules, "compiled", None) is None
