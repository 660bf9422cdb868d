"""`orrery explain` on abilities carried by pieces (interpreter/cli/explain_abilities.py) and on quantities read
inside functions (explain_quantities.py), with a made-up game: passes that halve a toll read only inside the
function `fare`, a bell that pays whoever holds it, and gates whose sides are records."""

from __future__ import annotations

from pathlib import Path

from orrery.interpreter.cli.explain import explain_text
from orrery.rulespec.loader import load_spec
from test_explain import section, write

TOLLS = """\
orrery: 1
game: {name: tolls, players: {min: 2, max: 2}, seat_names: [Ann, Bo]}
components:
  pieces:
    pass:
      attributes: {name: str}
      active_in: [kept]
      instances:
        - {name: Silver, abilities: &halves [{modify: toll, when: "p == owner", scale: 1/2, text: "Your tolls are halved."}]}
        - {name: Gold, count: 2, abilities: *halves}
        - {name: Bell, abilities: [{on: rung, when: "event.player == owner", do: "gain(owner, 1)"}]}
      start: shelf
    gate:
      attributes: {name: str, sides: {list: {record: {gold: int, gems: int}}}}
      instances:
        - {name: North, sides: [{gold: 1, gems: 0}, {gold: 2, gems: 1}]}
      start: shelf
  zones:
    shelf: {}
    kept: {type: hand, per_player: true, visibility: public}
  tracks:
    coins: {start: 9, min: 0}
quantities:
  toll: {params: [p, n], base: n, description: "What a player pays at a gate"}
functions:
  fare:
    description: what a player pays for a ride
    params: [p]
    expr: toll(p, 4) + 1
effects:
  gain:
    params: {who: player, n: int}
    effect: who.coins += n
flow:
  phases:
    - name: ride
      steps: [{prompt: "What now?", actions: [ride, take, ring]}]
actions:
  ride: {cost: {coins: fare(current)}, effect: "current.coins += 0"}
  take:
    params:
      x: {from: 'pieces(shelf, kind: "pass")', prompt: "Which pass?"}
    effect: move x to current.kept
  ring: {effect: emit rung()}
end:
  late: {when: "round > 3"}
"""


def test_a_quantity_read_inside_a_named_function_is_in_the_glossary_with_the_pieces_that_modify_it(tmp_path: Path):
    text = explain_text(load_spec(write(tmp_path, TOLLS), check=False))
    glossary = section(text, "Glossary")
    assert "fare(p)" in glossary  # the action's cost names the function ...
    line = next(x for x in glossary.splitlines() if x.startswith("- `toll(p, n)`"))  # ... which reads the quantity
    assert "Your tolls are halved (carried by 3 pass pieces)" in line and line.count("halved") == 1


def test_a_kinds_abilities_are_listed_once_each_with_their_counts(tmp_path: Path):
    comps = section(explain_text(load_spec(write(tmp_path, TOLLS), check=False)), "Components")
    assert "Abilities: “Your tolls are halved” (3 pieces); “when rung” (1 piece)." in comps


def test_record_values_read_as_fields(tmp_path: Path):
    comps = section(explain_text(load_spec(write(tmp_path, TOLLS), check=False)), "Components")
    assert "The gate pieces: North ((gold 1, gems 0)+(gold 2, gems 1))." in comps


def test_without_the_function_the_quantity_is_not_in_the_glossary(tmp_path: Path):
    spec = TOLLS.replace("cost: {coins: fare(current)}, ", "")
    text = explain_text(load_spec(write(tmp_path, spec), check=False))
    assert "fare(" not in text and "toll(" not in text
