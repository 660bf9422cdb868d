"""JSON Schema export of the spec, variant and scenario models (`orrery schema`)."""

from __future__ import annotations

from typing import Any

from .filemodels import ScenarioFile, Variant
from .models import Spec

_MODELS = {"spec": Spec, "variant": Variant, "scenario": ScenarioFile}


def schema_for(kind: str = "spec") -> dict[str, Any]:
    """The JSON Schema of one kind of file, with a title and the draft it follows."""
    model = _MODELS[kind]
    schema = model.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = {"spec": "Orrery rule spec", "variant": "Orrery variant",
                       "scenario": "Orrery scenario file"}[kind]
    return schema
