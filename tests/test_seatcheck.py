"""`validate` types what it can see where a player is wanted (rulespec/seatcheck.py): a computed number given
for a player, a seat no game has; and a cell label off a bounded board (rulespec/geocheck.py), named."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_checker import E, findings, show, where

from orrery.interpreter.cli.main import main

HINT = "a player is not a seat number: the player at seat N is players[N]"

CASES = [
    pytest.param("""\
        end:
          full: {when: "size(board) == 3", winners: "current.seat + 1"}
        """, [(E, "2:46", "type error: winners must be players, but this is a number (a player expected, a number "
                          "given)")], id="winners-a-number"),
    pytest.param("""\
        end:
          full: {when: "size(board) == 3", winners: "[current.seat + 1, 0]"}
        """, [(E, "2:47", "winners must be players, but these are numbers")], id="winners-numbers"),
    pytest.param("""\
        end:
          full: {when: "size(board) == 3", winners: "[players[7]]"}
        """, [(E, "2:55", "there is no seat 7: the game has at most 2 players (seats 0 to 1)")], id="no-such-seat"),
    pytest.param("""\
        actions:
          place:
            effect: 'create stone {owner: current.seat + 1} in cell(board, "a1")'
        """, [(E, "3:35", "type error: attribute 'owner' of a stone holds a player, but this is a number")],
        id="player-attribute"),
    pytest.param("""\
        variables:
          leader: {start: "players[0]", type: player}
        actions:
          place:
            effect: 'leader = current.seat + 1'
        """, [(E, "5:23", "type error: 'leader' holds a player, but this is a number")], id="player-variable"),
    pytest.param("""\
        actions:
          place:
            effect: 'create stone {owner: current} in cell(board, "f9")'
        """, [(E, "3:59", "cell 'f9' is outside grid 'board' (3x3)")], id="cell-off-the-board"),
    # what stays allowed: literal seats, players, players[N] within the seats, none
    pytest.param("""\
        variables:
          leader: {start: "players[1]", type: player}
        actions:
          place:
            effect: |
              create stone {owner: 1} in cell(board, "a1")
              create stone {owner: current} in cell(board, "b1")
              create stone {owner: current.seat} in cell(board, "c1")
              leader = 0
        end:
          full: {when: "size(board) == 3", winners: "[0, players[1], current]"}
          nobody: {when: "size(board) == 4", winners: "[]"}
          seated: {when: "size(board) == 5", winners: "[current.seat]"}
        """, [], id="seats-written-as-players"),
]


@pytest.mark.parametrize("case, expected", CASES)
def test_a_number_where_a_player_is_wanted(tmp_path: Path, case: str, expected: list) -> None:
    got = [f for f in findings(tmp_path, case) if f.severity == E]
    for severity, loc, fragment in expected:
        assert any(where(f) == loc and fragment in f.message for f in got), \
            f"missing {severity} at {loc}: {fragment!r}; got:\n{show(got)}"
    assert len(got) == len(expected), f"unexpected errors:\n{show(got)}"
    assert all(f.hint == HINT for f in got if "holds a player" in f.message or "must be players" in f.message)


def test_validate_locates_them_with_exit_2(tmp_path: Path, capsys) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text("""\
orrery: 1
game: {name: t, players: {min: 2, max: 2}}
components:
  pieces:
    stone: {attributes: {owner: player}, unlimited: true}
  zones:
    board: {type: grid, width: 5, height: 5}
flow:
  phases:
    - name: play
      steps:
        - actions: [put]
actions:
  put: {effect: 'create stone {owner: current} in cell(board, "f9")'}
end:
  full: {when: "size(board) == 3", winners: "current.seat + 1"}
""", encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:14:63: error: cell 'f9' is outside grid 'board' (5x5)" in err
    assert f"{path}:16:46: error: type error: winners must be players, but this is a number" in err
