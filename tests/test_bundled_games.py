"""Every bundled spec and variant validates, matches the committed JSON Schema, and plays to an end."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from orrery.interpreter.bots.simulate import simulate
from orrery.rulespec.loader import load_spec
from orrery.rulespec.source import load_yaml

from conftest import shared_game, spec_data

ROOT = Path(__file__).resolve().parents[1]
SPECS = sorted((ROOT / "games").glob("*/rules.yaml"))
VARIANTS = sorted((ROOT / "games").glob("*/variants/*.yaml"))
SCHEMA = json.loads((ROOT / "docs" / "spec.schema.json").read_text())


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.parent.name)
def test_spec_matches_committed_json_schema(path: Path):
    jsonschema.validate(load_yaml(path).data, SCHEMA)


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.parent.name)
def test_spec_loads_without_warnings_or_errors(path: Path):
    spec = load_spec(path)
    assert spec.name == path.parent.name
    assert spec.model.assumptions, "every bundled spec records its assumptions"


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_variant_loads(path: Path):
    spec = load_spec(path.parent.parent / "rules.yaml", [path])
    assert spec.variants == [path.stem]
    assert spec.merged.applied, "a variant changes something"


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.parent.name)
def test_random_games_end_by_a_spec_end_condition(path: Path):
    game = shared_game(path)
    result = simulate(game, 12, game.rules.default_players, 7, ["random"], check=True)
    ends = {r["end"] for r in result["results"]}
    assert ends <= set(game.spec.model.end), ends
    assert result["summary"]["failures"] == 0
    assert result["violations"] == []
    assert all(len(r["scores"]) == game.rules.default_players for r in result["results"])


def _seats(path: Path) -> dict:
    return spec_data(path)["game"]["players"]


# Every player count but the default one, which the test above plays (until session 7 both played it)
PLAYER_COUNTS = [
    pytest.param(path, n, id=f"{path.parent.name}-{n}p")
    for path in SPECS
    for n in range(_seats(path)["min"], _seats(path)["max"] + 1)
    if n != _seats(path).get("default", _seats(path)["min"])
]


@pytest.mark.parametrize("path,players", PLAYER_COUNTS)
def test_every_player_count_plays_to_an_end(path: Path, players: int):
    game = shared_game(path)
    result = simulate(game, 3, players, 11, ["random"], check=True)
    assert result["summary"]["failures"] == 0
    assert result["violations"] == []
    assert all(len(r["scores"]) == players for r in result["results"])
