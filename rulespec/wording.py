"""How players read a spec's names: the one rule the table, the narration and `explain` share (dsl.md 1.6).

A name in a spec is an identifier (`ability_deck`, `three_in_a_row`).  Where a player reads it (the play
screen, the narration, the end of a game), it is shown by its `title:` (`label:` for a zone) when the spec
gives one, else as words: the identifier with its underscores read as spaces (`ability deck`, `three in a
row`).  A decision without a `prompt` asks in words made the same way from its variable's name
(`choose to cell`, `which col next?`); the checker warns about each (rulespec/prompt_checks.py), since a
variable's name is seldom a question a player understands.
"""

from __future__ import annotations

from typing import Any

# the `title:` key's description in the spec's schema (rulespec/models.py)
TITLE = ("How players read this name on the screen and in the narration (default: its words, the underscores read as "
         "spaces; docs/dsl.md 1.6).")


def spoken(name: str, label: str | None = None) -> str:
    """The name as players read it: its label, else the identifier's words."""
    return label or name.replace("_", " ").strip() or name


def titled(model: Any, kind: str, name: str) -> str:
    """How players read the `kind` ("phase", "end", "variable", "track", "zone") named `name` of `model`:
    its title (a zone's label), else its words."""
    if kind == "phase":
        decl = next((ph for ph in model.flow.phases if ph.name == name), None)
    elif kind == "zone":
        zone = model.components.zones.get(name)
        return spoken(name, zone.label if zone is not None else None)
    else:
        decl = {"end": model.end, "variable": model.variables, "track": model.components.tracks}[kind].get(name)
    return spoken(name, getattr(decl, "title", None))


def state_name(model: Any, name: str) -> str:
    """A variable's or track's name as players read it (a track's title, else a variable's, else its words)."""
    decl = model.components.tracks.get(name) or model.variables.get(name)
    return spoken(name, getattr(decl, "title", None))


def choice_prompt(var: str) -> str:
    """The question of a `choose VAR` without a prompt."""
    return f"choose {spoken(var)}"


def loop_prompt(var: str) -> str:
    """The question of a `for VAR in ... chosen by P` without a prompt, before each item."""
    return f"which {spoken(var)} next?"


def commit_prompt(var: str) -> str:
    """The question of a `commit VAR` without a prompt."""
    return f"commit {spoken(var)}"


def param_prompt(action_label: str, param: str) -> str:
    """The question of an action's parameter without a prompt."""
    return f"{action_label}: choose {spoken(param)}"


__all__ = ["spoken", "titled", "state_name", "choice_prompt", "loop_prompt", "commit_prompt", "param_prompt"]
