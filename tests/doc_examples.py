"""The examples of docs/dsl.md and docs/design.md, extracted and run the way their kind asks (issue 30, item 13).

Every fenced block tagged `yaml` or `orrery` is an example; other blocks (grammar synopses, error output,
plain text) are not.  An HTML comment on the line just above a fence says more about it:

    <!-- example: name=NAME -->        a complete spec, named so that later examples can use it as a context
    <!-- example: context=NAME -->     check the example against that spec: an earlier example's NAME, or a
                                       bundled game's folder name (tic-tac-toe); YAML is merged into it
    <!-- example: locals=c:cell,who:player -->   local names (and types) rule text may use (with a context)
    <!-- example: fails "TEXT" -->     the example is deliberately wrong: it must be refused with a message
                                       containing TEXT

How each kind runs:

- a complete spec (top-level `game`, `flow` and `end`): validated with every check, then played on both
  engines in lockstep for a few seeded random games (tests/test_differential.play_lockstep);
- a variant (`variant:` or a bare `changes:` list): applied to its context and validated;
- a scenario file (`scenarios:`): checked against the game its `game:` names;
- any other YAML is a fragment: placed where its keys belong (a spec's sections, `components`' sections, a
  piece kind's `attributes`) in a skeleton spec, or in its context, and validated: its structure and rule
  text always, names and types too when it has a context;
- `orrery` rule text: parsed as an effect, or line by line as expressions; with a context, also checked.
"""

from __future__ import annotations

import re
import shlex
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "docs" / "dsl.md", ROOT / "docs" / "design.md"]

_FENCE = re.compile(r"^```(\w*)\s*$")
_MARK = re.compile(r"^<!--\s*example:(.*?)-->\s*$")
_SPEC_KEYS = {"orrery", "game", "components", "variables", "tables", "functions", "procedures", "setup", "flow",
              "actions", "triggers", "scoring", "end", "ranking", "invariants", "assumptions", "display", "bots",
              "windows", "events", "quantities", "modifiers", "effects"}
_COMPONENT_KEYS = {"pieces", "zones", "tracks"}
_KIND_KEYS = {"attributes", "instances", "count", "start", "unlimited", "label", "symbol", "style", "active_in", "owner",
              "abilities"}

class _TextKeys(yaml.SafeLoader):
    """YAML read as the spec loader reads it: mapping keys stay text (`on:` is the key 'on', not true)."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        for key, _ in node.value:
            if isinstance(key, yaml.ScalarNode) and key.tag == "tag:yaml.org,2002:bool":
                key.tag = "tag:yaml.org,2002:str"
        return super().construct_mapping(node, deep)


def load_yaml(text: str) -> Any:
    """A document's data, its mapping keys as text."""
    return yaml.load(text, Loader=_TextKeys)  # noqa: S506 - a SafeLoader subclass


# What a fragment needs around it to be a spec: the sections every spec has, each as YAML text.
SKELETON = {
    "game": "game: {name: example, players: {min: 2, max: 2}}",
    "flow": "flow:\n  phases:\n    - name: play\n      on_start: \"say 1\"",
    "end": "end:\n  never: {when: \"false\"}",
}


@dataclass
class Example:
    """One fenced example of a document."""

    doc: Path
    line: int  # the fence's line (1-based)
    lang: str
    text: str
    marks: dict[str, str] = field(default_factory=dict)

    @property
    def where(self) -> str:
        """`docs/dsl.md:123`, for test ids and messages."""
        return f"{self.doc.relative_to(ROOT)}:{self.line}"

    @property
    def data(self) -> Any:
        """The YAML example's data."""
        return load_yaml(self.text)

    def kind(self) -> str:
        """spec, variant, scenario, fragment or rules (rule text)."""
        if self.lang == "orrery":
            return "rules"
        data = self.data
        keys = set(data) if isinstance(data, dict) else set()
        if "variant" in keys or keys == {"changes"}:
            return "variant"
        if "scenarios" in keys:
            return "scenario"
        if {"game", "flow", "end"} <= keys:
            return "spec"
        return "fragment"


def _marks(line: str) -> dict[str, str]:
    """The settings of an `<!-- example: ... -->` comment."""
    m = _MARK.match(line.strip())
    if m is None:
        return {}
    out: dict[str, str] = {}
    words = shlex.split(m.group(1))
    i = 0
    while i < len(words):
        w = words[i]
        if w == "fails":
            out["fails"] = words[i + 1] if i + 1 < len(words) else ""
            i += 2
            continue
        key, _, value = w.partition("=")
        out[key] = value
        i += 1
    return out


def examples(doc: Path) -> list[Example]:
    """The fenced `yaml` and `orrery` blocks of a document, with their marks."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    out: list[Example] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i].strip()) if lines[i].lstrip().startswith("```") else None
        if m is None:
            i += 1
            continue
        indent = len(lines[i]) - len(lines[i].lstrip())
        start, lang = i, m.group(1)
        i += 1
        body = []
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][indent:] if len(lines[i]) >= indent else lines[i].lstrip())
            i += 1
        i += 1
        if lang in ("yaml", "orrery"):
            marks = _marks(lines[start - 1]) if start > 0 else {}
            out.append(Example(doc, start + 1, lang, "\n".join(body) + "\n", marks))
    return out


def all_examples() -> list[Example]:
    """Every example of the checked documents, in order."""
    return [e for doc in DOCS for e in examples(doc)]


# ------------------------------------------------------------------ building files


def fragment_spec(ex: Example) -> str:
    """A spec's text holding a fragment where its keys belong (the skeleton's sections where it has none)."""
    data = ex.data
    keys = set(data) if isinstance(data, dict) else set()
    if keys and keys <= _COMPONENT_KEYS:
        body = "components:\n" + textwrap.indent(ex.text, "  ")
    elif keys and keys <= _KIND_KEYS:
        body = "components:\n  pieces:\n    thing:\n" + textwrap.indent(ex.text, "      ")
    elif keys and keys <= _SPEC_KEYS:
        body = ex.text
    else:
        return ""  # a loose illustration of keys from several places: its rule text is read by loose_rules
    top = {k.split(":", 1)[0] for k in body.splitlines() if k and not k[0].isspace() and ":" in k}
    frame = "\n".join(text for key, text in SKELETON.items() if key not in top)
    return frame + "\n" + body


def merge_into(base: Any, extra: Any, path: tuple = ()) -> Any:
    """`extra`'s entries over `base`'s: mappings merged entry by entry (two levels deep: a section's entries are
    replaced whole), anything else replaced."""
    if isinstance(base, dict) and isinstance(extra, dict) and len(path) < 2:
        out = dict(base)
        for k, v in extra.items():
            out[k] = merge_into(base[k], v, path + (k,)) if k in base else v
        return out
    if isinstance(base, dict) and isinstance(extra, dict) and path[:1] == ("components",):
        return {**base, **extra}
    return extra


def with_fragment(context: Any, ex: Example) -> Any:
    """A context spec's data with a fragment merged in where its keys belong."""
    data = ex.data
    keys = set(data)
    if keys <= _COMPONENT_KEYS:
        data = {"components": data}
    elif keys <= _KIND_KEYS:
        data = {"components": {"pieces": {"thing": data}}}
    return merge_into(context, data)


# Rule-text keys of loose illustrations (keys from several places of a spec side by side): effects, else expressions.
EFFECT_KEYS = {"effect", "setup", "final", "on_start", "on_end", "turn_start", "turn_end", "round_start", "round_end"}


def loose_rules(ex: Example) -> list[tuple[str, str]]:
    """(kind, text) of each rule-text value of a fragment whose keys belong to no one place."""
    out = []
    for key, value in ex.data.items():
        if isinstance(value, str):
            out.append(("effect" if key in EFFECT_KEYS else "expr", value))
    return out
