"""Every bundled game's scenario files pass (the same check as `orrery test GAME`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from orrery.interpreter.engine.game import Game
from orrery.interpreter.files.scenarios import load_scenarios, run_scenario, scenario_files
from orrery.rulespec.loader import load_spec

GAMES = Path(__file__).resolve().parents[1] / "games"
CASES = [
    pytest.param(rules, f, id=f"{rules.parent.name}/{f.name}")
    for rules in sorted(GAMES.glob("*/rules.yaml"))
    for f in scenario_files(rules)
]


@pytest.mark.parametrize("rules,scenario_file", CASES)
def test_bundled_scenarios_pass(rules: Path, scenario_file: Path):
    game = Game(load_spec(rules))
    scenarios = load_scenarios(scenario_file)
    assert scenarios, f"{scenario_file} has no scenarios"
    failures = []
    for sc in scenarios:
        result = run_scenario(game, sc, rules)
        if not result.passed:
            failures.append(f"{result.name} [{result.where}]: " + "; ".join(result.failures))
    assert not failures, "\n".join(failures)
