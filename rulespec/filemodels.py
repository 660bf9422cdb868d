"""The models of the files around a spec: variants (changes to a base spec) and scenario files.

Split from models.py (which holds the spec itself); the JSON Schema of each comes from rulespec/schema.py.
"""

# (No `from __future__ import annotations`: pydantic would compile every annotation from its text when the class
# is made, a third of this module's import; the few forward references are written as text.)
import re
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, StrictInt, StrictStr, model_validator

from .models import Assumption, EffectText, ExprText, Model

CHANGE_OPS = ("set", "replace", "remove", "add", "append", "prepend", "patch")


class ChangeDecl(Model):
    """One change a variant makes: exactly one of set/replace/remove/add/append/prepend/patch, at a dotted path."""

    set: str | None = None
    replace: str | None = None
    remove: str | None = None
    add: str | None = None
    append: str | None = Field(None, description="Add the value at the end of a list, or after an effect's "
                                                 "statements.")
    prepend: str | None = Field(None, description="Add the value at the start of a list, or before an effect's "
                                                  "statements.")
    patch: str | None = Field(None, description="Set some fields of a mapping (a row, a rule): the value's keys.")
    value: Any = None
    why: str | None = None

    @model_validator(mode="after")
    def _one_op(self) -> "ChangeDecl":
        ops = [k for k in CHANGE_OPS if getattr(self, k) is not None]
        if len(ops) != 1:
            raise ValueError("a change needs exactly one of " + ", ".join(CHANGE_OPS))
        if ops[0] != "remove" and "value" not in self.model_fields_set:
            raise ValueError(f"'{ops[0]}' needs a value")
        return self


class VariantMeta(Model):
    """A variant's identity and base spec."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str | None = None
    description: str | None = None
    base: str = Field("../rules.yaml", description="Path of the base spec, relative to the variant file.")


class Variant(Model):
    """A variant: changes overlaid on a base spec."""

    variant: VariantMeta
    changes: list[ChangeDecl] = []
    assumptions: list[Assumption] = []


# ------------------------------------------------------------- scenarios


# Scenario files are typed strictly (issue 39.6): YAML's `true` or `1.0` where a step or a number is expected is
# a located error, never read as menu number 1.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _one_line_name(v: str) -> str:
    """A scenario's name is shown in reports, one per line: no newline, tab or other control character."""
    m = _CONTROLS.search(v)
    if m is not None:
        raise ValueError(f"a scenario's name may not hold control characters (found U+{ord(m.group()):04X}); "
                         f"use `description:` for longer text")
    return v


def _a_step(v: Any) -> Any:
    """One message for a step of the wrong type (the union's three messages said it three times)."""
    if isinstance(v, (bool, float, list)) or v is None:
        shown = "null" if v is None else str(v).lower() if isinstance(v, bool) else repr(v)
        raise ValueError(f"a step is an option's label (text), its menu number, or {{choose: ..., player: N}}; "
                         f"got {shown}")
    return v


class ScenarioStep(Model):
    """One scripted decision: an option label (or number), optionally checked against the deciding player."""

    choose: StrictStr | StrictInt
    player: StrictInt | None = None


class ScenarioDecl(Model):
    """A test for rule authors: a position, some decisions, expectations."""

    name: Annotated[str, AfterValidator(_one_line_name)]
    description: str | None = None
    players: StrictInt | None = None
    seed: StrictInt = 0
    variants: list[str] = []
    setup: EffectText | None = Field(None, description="Effect run after the spec's setup (overrides).")
    replace_setup: bool = Field(False, description="Skip the spec's setup entirely and run only this one.")
    steps: list[Annotated[ScenarioStep | StrictStr | StrictInt, BeforeValidator(_a_step)]] = []
    expect: list[ExprText] = []
    expect_error: str | None = Field(None, description="The last step must be refused with a message containing this.")
    expect_end: str | None = Field(None, description="Name of the end condition that must have ended the game.")


class ScenarioFile(Model):
    """A file of scenarios for one game."""

    game: str | None = None
    scenarios: list[ScenarioDecl]
