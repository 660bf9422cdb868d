"""Tests for rulespec.variants: applying variant changes to a base spec, with origins and located errors."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from orrery.rulespec.errors import SpecError, Span
from orrery.rulespec.source import SourceDoc, load_yaml
from orrery.rulespec.variants import (
    AppliedChange,
    Merged,
    load_variant,
    merge,
    no_variants,
    variant_base_path,
)

BASE = """\
name: demo
components:
  zones:
    board:
      width: 3
      height: 3
actions:
  move:
    effect: say "moved"
  place:
    effect: say "placed"
  warp:
    effect: |
      say "warp"
  station:
    effect: pass
flow:
  phases:
    - name: setup
      steps:
        - action: place
    - name: main
      steps:
        - action: move
        - action: place
    - id: cleanup
      steps: []
"""


@pytest.fixture()
def base(tmp_path: Path) -> SourceDoc:
    path = tmp_path / "rules.yaml"
    path.write_text(BASE)
    return load_yaml(path)


def variant(tmp_path: Path, name: str, body: str, base: str | None = None) -> SourceDoc:
    """Write a variant file under tmp_path/variants and load it."""
    folder = tmp_path / "variants"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.yaml"
    header = f"variant:\n  name: {name}\n" + (f"  base: {base}\n" if base else "")
    path.write_text(header + body)
    return load_variant(path)


def errors(base: SourceDoc, *docs: SourceDoc) -> list:
    with pytest.raises(SpecError) as info:
        merge(base, list(docs))
    return info.value.findings


# ------------------------------------------------------------------ loading


def test_load_variant_and_base_path(tmp_path: Path, base: SourceDoc) -> None:
    v = variant(tmp_path, "plain", "changes: []\n")
    assert v.data["variant"]["name"] == "plain"
    assert variant_base_path(v) == (tmp_path / "rules.yaml").resolve()
    other = variant(tmp_path, "other", "changes: []\n", base="../sub/spec.yaml")
    assert variant_base_path(other) == (tmp_path / "sub" / "spec.yaml").resolve()


def test_load_variant_reports_schema_errors_located(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("variant:\n  name: Bad Name\n  colour: red\nchanges:\n  - set: a.b\n    replace: a.c\n    value: 1\n")
    with pytest.raises(SpecError) as info:
        load_variant(path)
    found = {(f.span.line, f.span.col): f.message for f in info.value.findings}
    assert "unknown key 'colour'" in found[(3, 3)]
    assert "variant.name" in found[(2, 9)]
    assert "exactly one of" in found[(5, 5)]


def test_no_variants_is_identity(base: SourceDoc) -> None:
    m = no_variants(base)
    assert m.data == base.data and m.data is not base.data
    assert m.applied == [] and m.variants == [] and m.variant_names == [] and m.assumptions == []
    assert m.origin(("actions", "move", "effect")) == (base, ("actions", "move", "effect"))
    assert m.span(("actions", "move", "effect")) == base.span(("actions", "move", "effect"))


# ------------------------------------------------------------------ ops


def test_set_creates_and_overwrites(tmp_path: Path, base: SourceDoc) -> None:
    v = variant(tmp_path, "v", """\
changes:
  - set: components.zones.board.width
    value: 4
    why: bigger board
  - set: components.zones.board.wrap
    value: true
""")
    m = merge(base, [v])
    assert m.data["components"]["zones"]["board"] == {"width": 4, "height": 3, "wrap": True}
    first, second = m.applied
    assert first == AppliedChange("v", "set", "components.zones.board.width",
                                  ("components", "zones", "board", "width"), 3, 4, "bigger board", v.span(("changes", 0)))
    assert second.old is None and second.new is True and second.why is None
    assert m.origin(("components", "zones", "board", "width")) == (v, ("changes", 0, "value"))
    assert m.origin(("components", "zones", "board", "height")) == (base, ("components", "zones", "board", "height"))
    assert m.span(("components", "zones", "board", "wrap")).line == 8
    assert m.variant_names == ["v"] and m.variants == [v]


def test_replace_remove_add(tmp_path: Path, base: SourceDoc) -> None:
    v = variant(tmp_path, "v", """\
changes:
  - replace: actions.warp.effect
    value: |
      say "warped"
  - remove: actions.station
  - add: actions.new_action
    value: {effect: "pass"}
""")
    m = merge(base, [v])
    assert m.data["actions"]["warp"]["effect"] == 'say "warped"\n'
    assert "station" not in m.data["actions"]
    assert m.data["actions"]["new_action"] == {"effect": "pass"}
    replace, remove, add = m.applied
    assert (replace.op, replace.old, replace.new) == ("replace", 'say "warp"\n', 'say "warped"\n')
    assert (remove.op, remove.resolved, remove.old, remove.new) == (
        "remove", ("actions", "station"), {"effect": "pass"}, None)
    assert (add.op, add.resolved, add.old) == ("add", ("actions", "new_action"), None)
    assert m.origin(("actions", "new_action", "effect")) == (v, ("changes", 2, "value", "effect"))
    # the key of a variant-made entry is the change's path
    assert m.key_span(("actions", "new_action")) == v.span(("changes", 2, "add"))
    assert m.key_span(("actions", "move")) == base.key_span(("actions", "move"))


def test_add_appends_and_inserts_into_lists(tmp_path: Path, base: SourceDoc) -> None:
    v = variant(tmp_path, "v", """\
changes:
  - add: flow.phases[main].steps
    value: {action: warp}
  - add: flow.phases[0]
    value: {name: intro, steps: []}
""")
    m = merge(base, [v])
    assert [p.get("name", p.get("id")) for p in m.data["flow"]["phases"]] == ["intro", "setup", "main", "cleanup"]
    assert m.data["flow"]["phases"][2]["steps"][-1] == {"action": "warp"}
    assert m.applied[0].resolved == ("flow", "phases", 1, "steps", 2)
    assert m.applied[1].resolved == ("flow", "phases", 0)


def test_selection_by_name_id_and_index(tmp_path: Path, base: SourceDoc) -> None:
    v = variant(tmp_path, "v", """\
changes:
  - set: flow.phases[main].steps[0].optional
    value: true
    why: "the variant lets players skip moving"
  - set: flow.phases[cleanup].steps
    value: [{action: station}]
  - set: flow.phases[ 0 ].steps[0].action
    value: move
""")
    m = merge(base, [v])
    phases = m.data["flow"]["phases"]
    assert phases[1]["steps"][0] == {"action": "move", "optional": True}
    assert phases[2]["steps"] == [{"action": "station"}]
    assert phases[0]["steps"][0]["action"] == "move"
    assert m.applied[0].resolved == ("flow", "phases", 1, "steps", 0, "optional")
    assert m.applied[0].why == "the variant lets players skip moving"
    assert m.applied[1].resolved == ("flow", "phases", 2, "steps")


# ------------------------------------------------------------------ stacking and origins


def test_stacking_later_variant_wins(tmp_path: Path, base: SourceDoc) -> None:
    a = variant(tmp_path, "a", """\
changes:
  - set: components.zones.board.width
    value: 4
  - set: actions.move.cost
    value: 1
assumptions:
  - id: a-one
    passage: "The rulebook is silent."
    choice: "We pick one."
""")
    b = variant(tmp_path, "b", """\
changes:
  - set: components.zones.board.width
    value: 5
  - set: actions.move.cost
    value: 2
  - remove: actions.place
assumptions:
  - id: b-one
    passage: "Also silent."
    choice: "Another pick."
""")
    m = merge(base, [a, b])
    assert m.data["components"]["zones"]["board"]["width"] == 5
    assert m.variant_names == ["a", "b"] and m.variants == [a, b]
    assert [c.variant for c in m.applied] == ["a", "a", "b", "b", "b"]
    assert m.applied[2].old == 4 and m.applied[3].old == 1
    assert m.origin(("components", "zones", "board", "width")) == (b, ("changes", 0, "value"))
    assert m.origin(("actions", "move", "cost")) == (b, ("changes", 1, "value"))
    assert m.origin(("actions", "move", "effect")) == (base, ("actions", "move", "effect"))
    assert m.span(("actions", "move", "cost")).file == b.path
    assert m.assumptions == [(a, ("assumptions", 0)), (b, ("assumptions", 0))]
    assert "assumptions" not in m.data  # variant assumptions are reported via m.assumptions only


def test_origin_after_list_insert_and_remove(tmp_path: Path, base: SourceDoc) -> None:
    v = variant(tmp_path, "v", """\
changes:
  - add: flow.phases[1]
    value:
      name: bonus
      steps:
        - action: warp
  - remove: flow.phases[0]
""")
    m = merge(base, [v])
    names = [p.get("name", p.get("id")) for p in m.data["flow"]["phases"]]
    assert names == ["bonus", "main", "cleanup"]
    # the inserted item (now at 0 after the removal) comes from the variant
    assert m.origin(("flow", "phases", 0, "steps", 0, "action")) == (
        v, ("changes", 0, "value", "steps", 0, "action"))
    assert m.span(("flow", "phases", 0, "steps", 0, "action")) == Span(v.path, 8, 19, 8, 23)
    # shifted base items keep pointing at their own place in the base file
    assert m.origin(("flow", "phases", 1, "steps", 1)) == (base, ("flow", "phases", 1, "steps", 1))
    assert m.origin(("flow", "phases", 2)) == (base, ("flow", "phases", 2))
    assert m.span(("flow", "phases", 2, "id")).line == 26
    # nearest-ancestor fallback
    assert m.origin(("flow", "phases", 0, "steps", 9)) == (v, ("changes", 0, "value", "steps"))
    assert m.origin(("flow", "nope", "deeper")) == (base, ("flow",))
    assert m.key_span(("flow", "nope")) is None


def test_text_span_maps_into_variant_file(tmp_path: Path, base: SourceDoc) -> None:
    v = variant(tmp_path, "v", """\
changes:
  - replace: actions.warp.effect
    value: |
      say "warped"
      move to x
""")
    m = merge(base, [v])
    path = ("actions", "warp", "effect")
    assert m.text_span(path, 2, 9, 2, 10) == Span(v.path, 7, 15, 7, 16)
    # untouched values still map into the base file
    assert m.text_span(("actions", "move", "effect"), 1, 5) == Span(base.path, 9, 17)


def test_inputs_not_mutated(tmp_path: Path, base: SourceDoc) -> None:
    v = variant(tmp_path, "v", """\
changes:
  - set: actions.move.effect
    value: {nested: [1, 2]}
  - remove: flow.phases[0]
  - add: flow.phases[main].steps
    value: {action: warp}
""")
    before_base, before_v = copy.deepcopy(base.data), copy.deepcopy(v.data)
    m = merge(base, [v])
    m.data["actions"]["move"]["effect"]["nested"].append(3)
    assert base.data == before_base and v.data == before_v
    assert m.applied[0].new == {"nested": [1, 2]}
    assert isinstance(m, Merged)


# ------------------------------------------------------------------ errors


def test_every_bad_change_reported_at_its_path(tmp_path: Path, base: SourceDoc) -> None:
    v = variant(tmp_path, "v", """\
changes:
  - set: actions.fly.effect
    value: x
  - set: flow.phases[7].steps
    value: []
  - set: flow.phases[bonus].steps
    value: []
  - add: actions.move
    value: {effect: pass}
  - replace: actions.warp.cost
    value: 3
  - remove: actions.jump
  - set: components.zones.board.width.max
    value: 9
  - set: actions..effect
    value: x
  - set: flow.phases.main
    value: x
  - set: actions[0]
    value: x
  - add: flow.phases[9]
    value: {name: late}
  - set: flow.phases[main
    value: x
""")
    found = errors(base, v)
    assert all(f.span.file == v.path for f in found)
    got = [(f.span.line, f.span.col, f.message) for f in found]
    expected = [
        (4, 18, "no 'fly' in actions (known: move, place, warp, station)"),
        (6, 21, "index 7 out of range: flow.phases has 3 items"),
        (8, 21, "no item named 'bonus' in flow.phases (known: setup, main, cleanup)"),
        (10, 10, "actions.move already exists; use set or replace"),
        (12, 27, "no 'cost' in actions.warp (known: effect)"),
        (14, 21, "no 'jump' in actions (known: move, place, warp, station)"),
        (15, 39, "components.zones.board.width is a single value (3), so it has no 'max'"),
        (17, 18, "malformed path 'actions..effect'"),
        (19, 22, "flow.phases is a list: select an item with [index] or [name]"),
        (21, 17, "actions is a mapping, not a list"),
        (23, 21, "index 9 out of range: flow.phases has 3 items"),
        (25, 21, "malformed path 'flow.phases[main': '[' at column 12 is never closed"),
    ]
    assert len(got) == len(expected)
    for (line, col, msg), (eline, ecol, efrag) in zip(got, expected):
        assert (line, col) == (eline, ecol), msg
        assert efrag in msg


def test_error_span_covers_offending_segment(tmp_path: Path, base: SourceDoc) -> None:
    v = variant(tmp_path, "v", "changes:\n  - remove: 'actions.jump'\n")
    (finding,) = errors(base, v)
    assert finding.span == Span(v.path, 4, 22, 4, 26)
    assert finding.format().splitlines()[1:] == [
        "    4 |   - remove: 'actions.jump'",
        "      | " + " " * 21 + "^^^^",
    ]


def test_errors_across_stacked_variants_and_later_changes_see_earlier(tmp_path: Path, base: SourceDoc) -> None:
    a = variant(tmp_path, "a", "changes:\n  - remove: actions.station\n  - set: actions.nope.x\n    value: 1\n")
    b = variant(tmp_path, "b", "changes:\n  - replace: actions.station.effect\n    value: x\n")
    found = errors(base, a, b)
    assert [(Path(f.span.file).name, f.span.line) for f in found] == [("a.yaml", 5), ("b.yaml", 4)]
    assert "no 'station' in actions" in found[1].message  # removed by the earlier variant


def test_merge_revalidates_unvalidated_docs(tmp_path: Path, base: SourceDoc) -> None:
    path = tmp_path / "raw.yaml"
    path.write_text("variant:\n  name: raw\nchanges:\n  - set: a\n")
    doc = load_yaml(path)
    (finding,) = errors(base, doc)
    assert "'set' needs a value" in finding.message and finding.span.line == 4


def test_hints_for_typos_and_replace_of_missing(tmp_path: Path, base: SourceDoc) -> None:
    v = variant(tmp_path, "v", "changes:\n  - set: actions.mvoe.effect\n    value: x\n"
                               "  - replace: actions.fly\n    value: {effect: pass}\n")
    typo, missing = errors(base, v)
    assert typo.message.startswith("no 'mvoe' in actions") and typo.hint == "did you mean 'move'?"
    assert (missing.span.line, missing.span.col) == (6, 22)
    assert missing.hint == "replace needs an existing value; use set to create one"
