"""Bundled specs as any YAML 1.2 tool reads them: a plain ruamel.yaml load plus `jsonschema`, no Orrery code,
against the schema each spec's editor modeline names (what an editor's yaml-language-server checks)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from ruamel.yaml import YAML

from orrery.rulespec.schema import SCHEMA_IDS, schema_for
from orrery.rulespec.source import load_yaml

ROOT = Path(__file__).resolve().parents[1]
SPECS = sorted((ROOT / "games").glob("*/rules.yaml"))
MODELINE = "# yaml-language-server: $schema="


def modeline_schema(rules: Path) -> Path:
    """The schema file named by the spec's first line."""
    first = rules.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(MODELINE), f"{rules}: the first line is not a yaml-language-server modeline"
    return rules.parent / first[len(MODELINE):]


@pytest.mark.parametrize("rules", SPECS, ids=lambda p: p.parent.name)
def test_bundled_spec_validates_with_a_plain_yaml12_loader_and_jsonschema(rules: Path) -> None:
    schema = json.loads(modeline_schema(rules).read_text(encoding="utf-8"))
    data = YAML(typ="safe", pure=True).load(rules.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)


def test_the_modelines_schema_is_the_current_one_with_a_stable_id() -> None:
    for rules in SPECS:
        assert json.loads(modeline_schema(rules).read_text(encoding="utf-8")) == schema_for("spec"), rules
    assert schema_for("spec")["$id"] == "urn:orrery:schema:spec:1"
    assert {schema_for(kind)["$id"] for kind in SCHEMA_IDS} == set(SCHEMA_IDS.values())


@pytest.mark.parametrize("text, expected", [
    ("on: 1\noff: 2\n", {"on": 1, "off": 2}),  # YAML 1.1 made these keys True and False
    ("a: yes\nb: no\nc: on\nd: off\ne: y\n", {"a": "yes", "b": "no", "c": "on", "d": "off", "e": "y"}),
    ("a: true\nb: False\nc: null\nd: ~\ne:\n", {"a": True, "b": False, "c": None, "d": None, "e": None}),
    ("a: 0o17\nb: 010\nc: 0x1F\nd: 1_000\ne: -7\n", {"a": 15, "b": 10, "c": 31, "d": 1000, "e": -7}),
    ("a: 1.5\nb: 1e3\nc: 1:30\n", {"a": 1.5, "b": 1000.0, "c": "1:30"}),
])
def test_orrery_reads_values_as_a_plain_yaml12_loader_does(text: str, expected: dict) -> None:
    assert load_yaml("spec.yaml", text=text).data == expected == YAML(typ="safe", pure=True).load(text)


def test_a_date_stays_the_text_written() -> None:
    assert load_yaml("spec.yaml", text="when: 2026-11-28\n").data == {"when": "2026-11-28"}
