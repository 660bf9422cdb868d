"""Every line the table tells a seat about a move, checked against that seat's view (issue 35, item 2).

Random games of the bundled games with hidden pieces, told to one seat as `orrery play` tells a human: for
each answer (the player's own and the engine's automatic ones), the line shows the choice unless it is a
piece that seat could see neither before nor after the move; a seat's own choices are always its own; and
no line about another seat's move names a label that only pieces hidden from the seat carry.  Before, a label was hidden whenever some
hidden piece carried it, so a player's own forced choices and bots' picks from a public supply read
"(a choice hidden from you)".
"""

from __future__ import annotations

import pytest

from conftest import REPO
from orrery.interpreter.cli.narrate import HIDDEN, SEALED, Sight, auto_lines, bot_lines, names_hidden, public_view
from orrery.interpreter.cli.play import visible_pieces
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.core.values import PieceRef
from orrery.interpreter.engine.game import Game
from orrery.interpreter.reference.evaluator import Interp

GAMES = [("bubble-singularity", 3), ("bubblee-pop", 2), ("burbuja", 1)]
MOVES = 120  # answers per game told (enough to pass setup, deals and several turns)


def _labels(gs, pids) -> dict[int, str]:
    it = Interp(gs.state.clone())
    out = {}
    for pid in pids:
        try:
            label = it.piece_label(pid)
        except Exception:
            continue
        if label and label != gs.state.kinds[pid]:
            out[pid] = label
    return out


def _check_move(gs, viewer: int, seen: set[int], steps: list, lines: list[str]) -> int:
    """Check the lines told to `viewer` for these answers; the number of choices told as hidden."""
    now = visible_pieces(gs, viewer)
    hidden_pieces = set(range(len(gs.state.kinds))) - seen - now
    labels = _labels(gs, range(len(gs.state.kinds)))
    secret = {label for pid, label in labels.items() if pid in hidden_pieces} - {
        label for pid, label in labels.items() if pid not in hidden_pieces}
    own = gs.game.rules.seat_name(viewer)
    others = [line for line in lines if not line.startswith((f"{own} (", f"{own} —"))]  # (its own: in its menu)
    assert not [line for line in others if names_hidden(line, sorted(secret))], lines
    told_hidden = 0
    for step in steps:
        mine = [line for line in lines if f"{step.prompt}" in line]
        if not mine or step.sealed:
            continue
        line = mine[0]
        if step.player == viewer:
            assert HIDDEN not in line, f"a seat's own choice told as hidden: {line}"
        elif isinstance(step.value, PieceRef):
            assert (HIDDEN in line) == (step.value.id in hidden_pieces), (line, step.value.id in seen)
        told_hidden += HIDDEN in line
    return told_hidden


@pytest.mark.parametrize("name, players", GAMES)
def test_each_line_told_to_a_seat_matches_what_it_sees(name, players):
    game = Game.load(REPO / "games" / name / "rules.yaml")
    for seed, viewer in ((1, 0), (2, players - 1)):
        gs = game.new_initial_state(players=players, seed=seed, narrate=True)
        rng = Rng(seed)
        for _ in range(MOVES):
            if gs.is_terminal():
                break
            d = gs.decision
            seen = visible_pieces(gs, viewer)
            before, steps, said = public_view(gs), len(gs.steps), len(gs.narration)
            opt = gs.legal_options()[rng.below(len(gs.legal_options()))]
            gs.apply(opt.index)
            sight = Sight.around(gs, [viewer], {viewer: seen}, visible_pieces)
            lines = bot_lines(gs, d.player, "random", d.prompt, opt.label, gs.narration[said:], before, sight,
                              d.sealed, opt.value) + auto_lines(gs, steps, sight)
            assert SEALED not in lines[0] or d.sealed
            _check_move(gs, viewer, seen, gs.steps[steps:], lines)
