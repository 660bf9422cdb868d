"""Every screen of a whole game fits its terminal: the play screen `orrery play` prints at each of the
human's decisions (state, narration and menu, fitted to the terminal's height as the play loop fits it),
then the prompt's line, for a full seeded game with the human answering `1` each time (as
tests/screens.py plays), at 80×24 for Burbuja and the classic games.

Burbuja late in a game answered so is the hard case: its table of tiles grows to 20 columns and more,
and a move offers 50 cells; before the play screen knew the terminal's height it took up to 37 lines."""

from __future__ import annotations

import pytest

from screens import CASES, full_game_screens

SMALL = list({c.game: c for c in CASES if (c.width, c.height) == (80, 24) and not c.moment}.values())


@pytest.mark.parametrize("case", SMALL, ids=[c.game for c in SMALL])
def test_every_screen_of_a_whole_game_fits_80x24(case) -> None:
    screens = full_game_screens(case)
    assert len(screens) > 3
    for k, lines in enumerate(screens):
        where = f"{case.game}, the human's decision {k + 1} of {len(screens)}"
        assert len(lines) + 1 <= case.height, f"{where}: {len(lines)} lines and the prompt:\n" + "\n".join(lines)
        assert max(len(line) for line in lines) <= case.width, f"{where}: wider than {case.width}"
        assert any("Legend:" in line for line in lines), f"{where}: no legend"
