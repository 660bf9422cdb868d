"""Variants that patch (dsl.md 7.2-7.3) and validation that runs every stage it can (dsl.md 9.1): issue 30,
items 11 and 12."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS
from test_differential import play_lockstep

from orrery.interpreter.cli.validate import validate_path
from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

LEDGER = SPECS / "ledger.yaml"


def _variant(tmp_path: Path, changes: str, name: str = "house") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"variant: {{name: {name}, base: {LEDGER}}}\nchanges:\n{changes}", encoding="utf-8")
    return path


def _errors(tmp_path: Path, changes: str) -> list[tuple[int, str]]:
    path = _variant(tmp_path, changes)
    with pytest.raises(SpecError) as err:
        load_spec(LEDGER, [path])
    return [(f.span.line, f.message) for f in err.value.findings if f.severity == "error"]


FIRST_GAME = """\
  - set: constants.goal
    value: 4
  - append: setup
    value: "for p in players { p.gold += 2 }"
  - prepend: actions.buy.effect
    value: say "a purchase"
  - patch: tables.deals.values.crown
    value: {amount: 2, bonus: []}
  - replace: components.pieces.card.instances[map]
    value: {id: map, deal: spice, sort: gold, count: 2}
  - append: tables.deals.values.crown.bonus
    value: {when: gold, extra: 5}
  - set: actions.rest.applies_when
    value: round > 1
"""


def test_a_first_game_is_a_few_lines_and_plays_the_same_on_both_engines(tmp_path):
    spec = load_spec(LEDGER, [_variant(tmp_path, FIRST_GAME)])
    data = spec.merged.data
    assert data["setup"][1] == "for p in players { p.gold += 2 }"  # the base's statements, then the variant's
    assert data["actions"]["buy"]["effect"][0] == 'say "a purchase"'
    assert data["tables"]["deals"]["values"]["crown"] == {"gives": "fame", "amount": 2, "cost": {"gold": 2, "gems": 2},
                                                         "bonus": [{"when": "gold", "extra": 5}]}
    fast, ref = Game(spec, mode="compiled"), Game(spec, mode="interpreted")
    assert sum(play_lockstep(fast, ref, 2, seed) for seed in range(4)) > 0
    gs = ref.new_initial_state(players=2, seed=1)
    assert [p["gold"] for p in gs.state.pvars] == [5, 5]  # 3 to start, 2 more from the appended setup
    assert "rest" not in [o.label for o in gs.legal_options()]  # applies_when: not in round 1
    assert "a purchase" in " ".join(gs.narration) or gs.state.cursor.round == 1


def test_an_error_in_an_appended_effect_is_located_in_the_variant(tmp_path):
    errors = _errors(tmp_path, "  - append: setup\n    value: \"for p in players { p.gld += 2 }\"\n")
    assert errors == [(4, "cannot assign to 'gld': not a per-player track or variable, nor a piece attribute "
                          "(did you mean 'gold'?)")]


def test_applies_when_gates_a_trigger_on_both_engines(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text("""\
game: {name: gate, players: {min: 2, max: 2}}
variables: {hits: {type: int, start: 0}}
flow: {phases: [{name: p, steps: [{actions: [tap, wait]}]}]}
actions:
  tap: {effect: "emit tapped"}
  wait: {effect: "say 1"}
triggers:
  count: {on: tapped, applies_when: "round >= 2", effect: "hits += 1"}
end: {done: {when: "round > 3", check: end_of_round}}
""")
    spec = load_spec(rules)
    for mode in ("compiled", "interpreted"):
        gs = Game(spec, mode=mode).new_initial_state(players=2, seed=0)
        while not gs.is_terminal():
            gs.apply_label("tap")
        assert gs.state.vars["hits"] == 6  # rounds 2 to 4, two players each: round 1's taps do not count


@pytest.mark.parametrize(("changes", "line", "message"), [
    ("  - append: constants.goal\n    value: 3\n", 3, "append adds to a list or an effect: constants.goal is a single value"),
    ("  - patch: constants.goal\n    value: {a: 1}\n", 3, "patch sets fields of a mapping: constants.goal is a int"),
    ("  - patch: tables.deals.values.crown\n    value: 3\n", 3, "the value must be a mapping of fields"),
    ("  - replace: components.pieces.card.instances[mapp]\n    value: {}\n", 3, "no item named 'mapp'"),
])
def test_bad_patches_are_located_in_the_variant(tmp_path, changes, line, message):
    errors = _errors(tmp_path, changes)
    assert any(ln == line and message in msg for ln, msg in errors), errors


def test_a_key_two_rows_share_is_an_error_not_the_first_of_them(tmp_path):
    """Issue 30: a variant that patched a card row by name patched only the first of two rows, silently."""
    rules = tmp_path / "rules.yaml"
    rules.write_text("""\
game: {name: twins, players: {min: 1, max: 1}}
components:
  zones: {deck: {}}
  pieces:
    card:
      attributes: {name: str, power: int}
      instances: [{name: Ace, power: 1}, {name: Ace, power: 2}, {id: king, name: King, power: 3}]
      start: deck
flow: {phases: [{name: p, steps: [{actions: [go]}]}]}
actions: {go: {effect: "say 1"}}
end: {e: {when: "round > 1"}}
""")
    variant = tmp_path / "v.yaml"
    variant.write_text(f"variant: {{name: v, base: {rules}}}\nchanges:\n"
                       "  - set: components.pieces.card.instances[Ace].power\n    value: 9\n"
                       "  - set: components.pieces.card.instances[king].power\n    value: 4\n")
    with pytest.raises(SpecError) as err:
        load_spec(rules, [variant])
    (finding,) = err.value.findings
    assert "'Ace' names 2 items of components.pieces.card.instances (items 0, 1)" in finding.message
    assert finding.hint == "give the items distinct `id`s, or select one by [index]"
    assert (finding.span.line, finding.span.col) == (3, 42)


def test_validation_reports_every_stage_in_one_run(tmp_path):
    """Issue 30: validation stopped at the first failing stage."""
    rules = tmp_path / "rules.yaml"
    rules.write_text("""\
game: {name: broken, players: {min: 2, max: 2}}
components:
  tracks:
    score: {start: 0, maxx: 5}
  zones:
    board: {type: grid, width: 3}
flow:
  phases:
    - name: play
      order: sideways
      steps: [{actions: [go, buy]}]
actions:
  go: {effect: "current.scor += 1"}
  buy: {params: {c: {where: "true"}}, effect: "say board"}
  other: {effect: "say (1 +"}
end: {e: {when: "any(p.score > 3 for p in players)"}}
""")
    findings, _ = validate_path(rules)
    got = sorted((f.span.line, f.message.split(":")[0].split(" (")[0]) for f in findings if f.severity == "error")
    assert got == [
        (4, "unknown key 'maxx'"),                                     # structure
        (6, "components.zones.board"),                                 # structure: the zone is left out
        (10, "flow.phases.0.order"),                                   # structure: its default stands in
        (13, "cannot assign to 'scor'"),                               # static checks still run on the rest
        (14, "missing required key 'from' in actions.buy.params.c"),   # structure: the action is left out
        (15, "syntax error in effect"),                                # parsing
    ]  # and nothing that only follows from what was left out (`unknown action 'buy'`, `unknown name 'board'`)


def test_a_bad_variant_change_leaves_the_other_changes_checked(tmp_path):
    errors = _errors(tmp_path, "  - set: functions.can_pay.expr\n"
                               "    value: 'who.gold >= deals[\"crown\"].cost.glod'\n  - replace: end.nope\n    value: {}\n")
    messages = [m for _, m in errors]
    assert any("no 'nope' in end" in m for m in messages)
    assert any("has no field 'glod' (did you mean 'gold'?)" in m for m in messages)
