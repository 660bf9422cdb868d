"""The three bubble games' names are checked (issue 33): a card, colour or suit misspelt in a variant is a
located error in the variant file (FILE:LINE:COL), not a rule that silently never applies."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO

from orrery.interpreter.cli.main import main


def _variant(tmp_path: Path, game: str, path: str, value: str) -> Path:
    """A variant of a bundled game that sets `path` to `value` (one line of rule text)."""
    file = tmp_path / "typo.yaml"
    file.write_text("variant:\n  name: typo\n  base: " + str(REPO / "games" / game / "rules.yaml") + "\n"
                    "changes:\n  - set: " + path + "\n    value: '" + value + "'\n", encoding="utf-8")
    return file


@pytest.mark.parametrize(("game", "path", "value", "message"), [
    # a passive ability read by a function

    ("bubble-singularity", "functions.move_dirs.expr",
     'if has(who, "Diagonal Drifer") then dirs("king") else dirs("orthogonal")',
     "'Diagonal Drifer' is not a cosmic_ability (did you mean 'Diagonal Drifter'?)"),
    # an active card named where the Space Station picks its effect
    ("bubble-singularity", "actions.space_station.condition", 'has(current, "Node Shiftr")',
     "'Node Shiftr' is not a cosmic_ability (did you mean 'Node Shifter'?)"),
    ("bubblee-pop", "functions.in_line.expr", '[c for c in cells(who.planet) where color_at(c) == "purpel"]',
     "'purpel' is not a bubblee_color (did you mean 'purple'?)"),
    ("burbuja", "functions.has_chance.expr", 'any(w.suit == "mons" for w in pieces(chances))',
     "'mons' is not a suit (did you mean 'moons'?)"),
])
def test_a_misspelt_name_in_a_variant_is_a_located_error(tmp_path, capsys, game, path, value, message):
    file = _variant(tmp_path, game, path, value)
    col = len("    value: '") + value.index('"') + 1  # the misspelt word's opening quote
    assert main(["validate", str(file)]) == 2
    err = capsys.readouterr()
    assert f"{file}:6:{col}: error: {message}" in err.out + err.err


@pytest.mark.parametrize("game", ["bubble-singularity", "bubblee-pop", "burbuja"])
def test_the_same_variant_spelt_right_validates(tmp_path, capsys, game):
    """The contrast: each game's own names pass (the test above fails for the typo, not the change)."""
    value = {"bubble-singularity": 'has(current, "Node Shifter")',
             "bubblee-pop": '[c for c in cells(who.planet) where color_at(c) == "purple"]',
             "burbuja": 'any(w.suit == "moons" for w in pieces(chances))'}[game]
    path = {"bubble-singularity": "actions.space_station.condition", "bubblee-pop": "functions.in_line.expr",
            "burbuja": "functions.has_chance.expr"}[game]
    assert main(["validate", str(_variant(tmp_path, game, path, value))]) == 0, capsys.readouterr()


WIDE_PLANETS = REPO / "tests" / "fixtures" / "variants" / "bubblee-pop-wide-planets.yaml"


def test_a_variant_whose_sizes_break_bubblee_pop_fails_validation_located(capsys):
    """Planets wider than the sky: refused at the spec's requirement, with the sizes compared."""
    rules = REPO / "games" / "bubblee-pop" / "rules.yaml"
    line, col = next((i, text.index("sky.width") + 1)
                     for i, text in enumerate(rules.read_text(encoding="utf-8").splitlines(), 1)
                     if "holds: sky.width == planet.width" in text)
    assert main(["validate", str(WIDE_PLANETS)]) == 2
    err = capsys.readouterr()
    assert (f"{rules}:{line}:{col}: error: the rules require that the sky is as wide as the planets: a sky Bubblee "
            f"falls onto the planet column under it (assumption fall-order) (sky.width is 5, planet.width is 6)"
            ) in err.out + err.err


def test_big_planets_widens_the_sky_with_them(capsys):
    """The contrast: the shipped board-size variant keeps the sizes in step and validates."""
    assert main(["validate", str(REPO / "games" / "bubblee-pop" / "variants" / "big-planets.yaml")]) == 0
