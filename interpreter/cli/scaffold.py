"""`orrery new NAME`: a new game folder that validates and passes its scenarios, ready to edit.

The folder holds rules.yaml (a two-to-four player race, small enough to read at a
glance, with a yaml-language-server modeline so editors complete and check keys
against the JSON Schema), one variant, one scenario file and NOTES.md.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from orrery.rulespec.errors import InputError, one_line

NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")  # models.GameMeta.name: the name used on the command line
SCHEMA_FILE = "spec.schema.json"
CHECKOUT = Path(__file__).resolve().parents[2]  # interpreter/cli/ -> a checkout, or the installed package: docs/ in both

RULES = """\
# yaml-language-server: $schema={schema}
# {title}: a race. On your turn walk one space or run two; the first to reach the goal wins.
# Check it with `orrery validate {folder}`, test it with `orrery test {rules}`, play it with
# `orrery play {rules}`. The language: `orrery docs dsl` (one section: `orrery docs dsl costs`).
orrery: 1
game:
  name: {name}
  title: {title}
  players: {{min: 2, max: 4, default: 2}}

components:
  tracks:
    position: {{start: 0, min: 0, description: "How far a player has come."}}

variables:
  goal: {{start: "10", description: "The space a player must reach to win."}}

flow:
  first_player: 0
  phases:
    - name: race
      order: clockwise
      steps:
        - actions: [walk, run]

actions:
  walk:
    rule: "Move your counter one space forward."
    effect: |
      current.position += 1
      say text(current) + " walks to " + text(current.position)
  run:
    rule: "Move your counter two spaces forward."
    effect: |
      current.position += 2
      say text(current) + " runs to " + text(current.position)

end:
  arrived:
    rule: "The first player to reach the goal wins."
    when: current.position >= goal
    winners: "[current]"

invariants:
  nobody_goes_back: {{never_decreases: "sum([p.position for p in players])"}}
"""

VARIANT = """\
# A shorter race: `orrery play {rules} --variant sprint`.
variant:
  name: sprint
  title: Sprint (the goal is 5)
  base: ../rules.yaml
changes:
  - set: variables.goal.start
    value: "5"
    why: "A quick game to try the rules."
"""

SCENARIOS = """\
# Scenarios: run them with `orrery test {rules}`.
game: ../rules.yaml
scenarios:
  - name: each move goes forward
    steps: [run, walk]
    expect:
      - "players[0].position == 2"
      - "players[1].position == 1"

  - name: the first to reach the goal wins
    steps: [run, walk, run, walk, run, walk, run, walk, run]
    expect_end: arrived
    expect:
      - "winners == [players[0]]"

  - name: the sprint ends sooner
    variants: [sprint]
    steps: [run, walk, run, walk, walk]
    expect_end: arrived
    expect:
      - "winners == [players[0]]"
"""

NOTES = """\
# {title} — notes

Made by `orrery new {name}`. Replace this race with your game, one rule at a time, and keep
`orrery validate {folder}` and `orrery test {rules}` passing as you go.

- **Rules encoded:** walk one space or run two; the first to reach `goal` (10) wins (`end.arrived`).
- **Variant:** `sprint` — the goal is 5.
- **Scenarios:** `scenarios/basics.yaml`.
- **Assumptions:** record the readings the rulebook leaves open under `assumptions:` in rules.yaml.
- **The language:** `orrery docs dsl` is the reference (`orrery docs dsl 2.10` one section of it, `orrery docs`
  the other topics).
"""


def schema_ref(folder: Path) -> str:
    """Where the modeline points: the checkout's docs/spec.schema.json if there is one (relative from inside
    the checkout, so games/NAME keeps working when the checkout moves), else a copy made in the folder."""
    checkout = CHECKOUT / "docs" / SCHEMA_FILE
    if checkout.is_file():
        inside = folder.resolve().is_relative_to(CHECKOUT)
        return os.path.relpath(checkout, folder.resolve()) if inside else str(checkout)
    from orrery.rulespec.schema import schema_for

    (folder / SCHEMA_FILE).write_text(json.dumps(schema_for("spec"), indent=2, sort_keys=True) + "\n",
                                      encoding="utf-8")
    return SCHEMA_FILE


def scaffold(name: str, parent: Path = Path(".")) -> Path:
    """Create the folder `parent/name` with a working game in it; return the folder."""
    if not NAME.fullmatch(name):  # (fullmatch: `$` alone lets a trailing newline through)
        raise InputError(f"new {one_line(name)}: a game's name is lower-case letters, digits and dashes, starting with a "
                         f"letter or digit (e.g. my-game)")
    folder = parent / name
    if folder.exists():
        raise InputError(f"{folder}: already exists; not writing over it (choose another NAME or remove it)")
    try:
        (folder / "variants").mkdir(parents=True)
        (folder / "scenarios").mkdir()
        title = name.replace("-", " ").capitalize()
        rules = folder / "rules.yaml"
        fields = {"name": name, "title": title, "folder": folder, "rules": rules,
                  "schema": schema_ref(folder)}
        rules.write_text(RULES.format(**fields), encoding="utf-8")
        (folder / "variants" / "sprint.yaml").write_text(VARIANT.format(**fields), encoding="utf-8")
        (folder / "scenarios" / "basics.yaml").write_text(SCENARIOS.format(**fields), encoding="utf-8")
        (folder / "NOTES.md").write_text(NOTES.format(**fields), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{folder}: cannot write the new game: {exc.strerror or exc}") from None
    return folder


__all__ = ["scaffold", "schema_ref"]
