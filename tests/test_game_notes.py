"""Each bundled game's NOTES.md lists every assumption of its spec and variants, as generated.

The list is the output of `orrery explain GAME --assumptions`, kept between its two markers; a
hand-written count once said 16 where the spec had 18. A change to a spec's or a variant's
`assumptions:` therefore fails here until NOTES.md is regenerated.
"""

from __future__ import annotations

import re

import pytest

from orrery.interpreter.cli.assumptions import BEGIN, END, assumptions_markdown
from orrery.interpreter.engine.gamefiles import bundled_games, games_root

GAMES = bundled_games()


def _block(text: str, game: str) -> str | None:
    """The generated block of a NOTES.md, markers included, or None."""
    begin = BEGIN.format(game=game)
    if begin not in text or END not in text:
        return None
    start = text.index(begin)
    return text[start:text.index(END, start) + len(END)] + "\n"


@pytest.mark.parametrize("game", GAMES)
def test_notes_list_every_assumption_as_generated(game):
    notes = (games_root() / game / "NOTES.md").read_text(encoding="utf-8")
    block = _block(notes, game)
    assert block is not None, f"games/{game}/NOTES.md has no generated assumptions block: paste the output of " \
                              f"`orrery explain {game} --assumptions` into it"
    expected = assumptions_markdown(games_root() / game / "rules.yaml")
    assert block == expected, f"games/{game}/NOTES.md is out of date: replace its assumptions block with the output " \
                              f"of `orrery explain {game} --assumptions`"


@pytest.mark.parametrize("game", GAMES)
def test_notes_state_no_hand_written_count_of_assumptions(game):
    """Counts of assumptions live in the generated block only (a count in prose drifts)."""
    notes = (games_root() / game / "NOTES.md").read_text(encoding="utf-8")
    block = _block(notes, game) or ""
    prose = notes.replace(block, "")
    assert not re.search(r"assumptions:`?\s*\(\d+", prose), f"games/{game}/NOTES.md states a count of assumptions"


def test_the_generated_block_names_every_assumption_with_its_passage():
    from orrery.rulespec.loader import load_spec

    path = games_root() / "bubblee-pop" / "rules.yaml"
    text = assumptions_markdown(path)
    ids = re.findall(r"^- \*\*([a-z0-9_-]+)\*\*", text, flags=re.M)
    spec_ids = [a.id for a in load_spec(path, check=False).model.assumptions]
    assert ids[:len(spec_ids)] == spec_ids and len(spec_ids) >= 18
    assert len(ids) > len(spec_ids)  # the variants' own assumptions follow
    assert all("Passage: “" in line for line in text.splitlines() if line.startswith("- **"))
