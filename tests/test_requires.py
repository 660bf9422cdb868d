"""`requires:` (dsl.md 2.24): conditions over constants and zone sizes, checked once when the rules load, on the
made-up game tests/specs/trays.yaml; a variant that breaks one fails to load with the requirement's message."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS
from test_differential import play_lockstep

from orrery.interpreter.cli.main import main
from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

TRAYS = SPECS / "trays.yaml"
WIDE = SPECS / "variants" / "trays-wide-board.yaml"
BROKEN = "the rules require that a tray is as wide as the board: a tray's column falls into the board's column " \
         "under it (tray.width is 4, board.width is 5)"


def test_the_game_plays_the_same_on_both_engines():
    spec = load_spec(TRAYS)
    fast, ref = Game(spec, mode="compiled"), Game(spec, mode="interpreted")
    # 8 drops a game, 6 of them asked: a tray's last token has one column left, which is not a question
    assert sum(play_lockstep(fast, ref, 2, seed) for seed in range(4)) == 4 * 6


def test_a_variant_that_breaks_a_requirement_fails_validation_located(capsys):
    assert main(["validate", str(WIDE)]) == 2
    err = capsys.readouterr()
    assert f"{TRAYS}:13:12: error: {BROKEN}" in err.out + err.err


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_a_broken_requirement_stops_a_game_from_being_built(mode):
    with pytest.raises(SpecError) as err:
        Game(load_spec(TRAYS, [WIDE]), mode=mode)
    (finding,) = err.value.findings
    assert finding.message == BROKEN and (finding.span.line, finding.span.col) == (13, 12)


def _trays(tmp_path: Path, old: str, new: str) -> Path:
    text = TRAYS.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "trays.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


@pytest.mark.parametrize(("holds", "message"), [
    ("tray.width == board.width and turn > 0", "requirement 1 reads 'turn', which belongs to a game being played"),
    ("tray.size == 4", "requirement 1 names the per-player zone 'tray' alone, which reads only its size here"),
    ("len(cells(tray)) == 4", "requirement 1 names the per-player zone 'tray' alone"),
    ("floor_of(0) != none", "requirement 1 calls floor_of(), which is a spec function"),
    ("columns + 1", "requirement 1 must be true or false, but this is a number"),
])
def test_what_a_requirement_may_read_is_checked(tmp_path, capsys, holds, message):
    path = _trays(tmp_path, "- holds: tray.width == board.width", f"- holds: {holds}")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr()
    assert f"{path}:13:" in err.err and message in err.err, err.err


def test_a_constant_reads_a_per_player_zones_declared_size(tmp_path):
    path = _trays(tmp_path, "  rows: 3\n", "  rows: 3\n  slots: 'tray.width * tray.height'\n")
    game = Game(load_spec(path), mode="interpreted")
    assert game.rules.names["slots"] == ("const", 4)


def test_requirements_that_hold_load_quietly(capsys):
    assert main(["validate", str(TRAYS)]) == 0
    assert "error" not in capsys.readouterr().err
