"""Spec names that clash with a built-in or a keyword say so and suggest a rename (dsl.md 3.3): issue 30,
item 12."""

from __future__ import annotations

import pytest

from test_differential import play_lockstep

from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

def test_a_per_player_track_may_share_a_built_in_function_name(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text("""\
game: {name: sizes, players: {min: 2, max: 2}}
components: {tracks: {size: {start: 0}, count: {start: 1}}}
flow: {phases: [{name: p, steps: [{actions: [grow, wait]}]}]}
actions:
  grow: {effect: "current.size += current.count"}
  wait: {effect: "say 1"}
end: {big: {when: "any(p.size > 3 for p in players)"}}
""")
    spec = load_spec(rules)
    assert sum(play_lockstep(Game(spec, mode="compiled"), Game(spec, mode="interpreted"), 2, s) for s in range(3))


@pytest.mark.parametrize(("decl", "message", "hint"), [
    ("components: {tracks: {name: {}}}", "track 'name' is read as `p.name`, which is every player's built-in 'name'",
     "rename it, e.g. 'name_track'"),
    ("variables: {size: {start: 0}}", "variable 'size' has the name of the built-in function 'size'",
     "rename it, e.g. 'size_value'"),
    ("variables: {match: {start: 0}}", "variable 'match' uses the keyword 'match' of the rule language",
     "rename it, e.g. 'match_value'"),
    ("tables: {round: {values: [1]}}", "table 'round' has the name of the special name 'round'",
     "rename it, e.g. 'round_table'"),
    ("components: {pieces: {chip: {attributes: {kind: str}, unlimited: true}}}",
     "declares an attribute 'kind', which would hide every piece's built-in 'kind'", "rename it, e.g. 'chip_kind'"),
    ("components: {zones: {map: {type: grid, width: 2, height: 2, cell_attributes: {label: str}}}}",
     "declares a cell attribute 'label', which would hide every cell's built-in 'label'", "rename it, e.g. 'map_label'"),
])
def test_a_clash_with_a_built_in_says_so_and_suggests_a_name(tmp_path, decl, message, hint):
    rules = tmp_path / "rules.yaml"
    rules.write_text(f"game: {{name: clash}}\n{decl}\nflow: {{phases: [{{name: p, on_start: 'say 1'}}]}}\n"
                     f"end: {{e: {{when: 'true'}}}}\n")
    with pytest.raises(SpecError) as err:
        load_spec(rules)
    found = [f for f in err.value.findings if message in f.message]
    assert found and found[0].hint == hint, err.value.findings
    assert found[0].span.line == 2  # located at the declaration
