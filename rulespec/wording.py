"""How players read a spec's names: the one rule the table, the narration and `explain` share (dsl.md 1.3).

A name in a spec is an identifier (`ability_deck`, `three_in_a_row`).  Where a player reads it (the play
screen, the narration, the end of a game), it is shown by its `label:` when the spec gives one, else as
words: the identifier with its underscores read as spaces (`ability deck`, `three in a row`).
"""

from __future__ import annotations


def spoken(name: str, label: str | None = None) -> str:
    """The name as players read it: its label, else the identifier's words."""
    return label or name.replace("_", " ").strip() or name


__all__ = ["spoken"]
