"""JSON Schema export of the spec, variant and scenario models (`orrery schema`)."""

from __future__ import annotations

from typing import Any

from .filemodels import ScenarioFile, Variant
from .models import Spec

_MODELS = {"spec": Spec, "variant": Variant, "scenario": ScenarioFile}
# A stable identifier per kind of file and format version (`orrery: 1`), not a web address: editors find
# the schema through the modeline's path (`# yaml-language-server: $schema=...`) or their settings.
SCHEMA_IDS = {kind: f"urn:orrery:schema:{kind}:1" for kind in _MODELS}


def schema_for(kind: str = "spec") -> dict[str, Any]:
    """The JSON Schema of one kind of file, with a title and the draft it follows."""
    model = _MODELS[kind]
    schema = model.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = SCHEMA_IDS[kind]
    schema["title"] = {"spec": "Orrery rule spec", "variant": "Orrery variant",
                       "scenario": "Orrery scenario file"}[kind]
    return schema
