"""Every bundled game goes through the workbench: metrics, a comparison, coverage and the report's figures (two
games each: what is checked is that nothing in a real spec trips them, not the numbers)."""

import pytest

import orrery
from orrery.interpreter.engine.gamefiles import bundled_games
from orrery.interpreter.workbench.compare import compare_trials
from orrery.interpreter.workbench.coverage import coverage
from orrery.interpreter.workbench.metrics import summary
from orrery.interpreter.workbench.trials import run_trials


@pytest.mark.parametrize("name", bundled_games())
def test_every_bundled_game_goes_through_the_workbench(name):
    game = orrery.load_game(name)
    trials = run_trials(game, 2, game.num_players(), 1, ["random"])
    est = summary(game, trials)
    assert est["length (decisions)"].n == 2
    if game.num_players() == 1:
        assert "win rate" in est and "win rate seat 1" not in est  # a solo game: its own rate, its scores
    else:
        assert sum(est[f"win rate seat {s + 1}"].value for s in range(game.num_players())) + \
            est["draw rate"].value == pytest.approx(1.0, abs=1e-9) or any(t.runaway for t in trials)
    diffs = compare_trials(game, trials, game, trials)
    assert diffs and not any(d.significant for d in diffs)
    uses = coverage(game, trials)
    assert any(u.kind == "action" and u.fired for u in uses) and any(u.kind == "end" and u.fired for u in uses)
    plots = pytest.importorskip("orrery.interpreter.workbench.plots")
    pytest.importorskip("matplotlib")
    figs = plots.figures(game, trials)
    assert {stem for stem, _, _ in figs} >= {"wins", "length", "ends", "branching"}
    for _, _, fig in figs:
        plots.pyplot().close(fig)
