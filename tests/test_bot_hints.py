"""The spec's `bots:` hints (docs/dsl.md §2.18): a heuristic that judges playouts cut short, and a playout length."""

from __future__ import annotations

import pytest

from orrery.interpreter.bots.factory import make_bot
from orrery.interpreter.core.decisions import RuleError
from orrery.interpreter.bots.mcts import MctsBot
from orrery.interpreter.bots.simulate import bot_seed, play_game
from orrery.interpreter.cli.main import main

# A made-up solitaire walk: ten steps, each one up or down, won by standing on 8.  Random play wins only
# when at least 9 of the 10 steps go up (11 of 1024 games); a search bot that judges positions by the height
# reached climbs every time, while one that scores every cut playout as a draw learns nothing.
WALK = """
orrery: 1
game: {{name: walk, players: {{min: 1, max: 1}}}}
variables:
  height: {{type: int, start: 0}}
  steps: {{type: int, start: 0}}
flow:
  first_player: 0
  phases:
    - name: walk
      steps:
        - {{actions: [down, up]}}  # down first: a bot with no signal takes the first of equal moves
actions:
  up: {{effect: "height += 1\\nsteps += 1"}}
  down: {{effect: "height -= 1\\nsteps += 1"}}
end:
  summit: {{when: "height == 8", winners: players}}
  tired: {{when: "steps == 10", winners: "[]"}}
{bots}
"""

HINTS = """
bots:
  heuristic: height + 10
  heuristic_max: 18
  playout: 1
"""


def walk(game_from, bots: str = HINTS):
    return game_from(WALK.format(bots=bots))


def test_heuristic_scaled_and_clamped(game_from):
    gs = walk(game_from).new_initial_state(players=1, seed=1)
    assert gs.heuristic_returns() == [pytest.approx(2 * 10 / 18 - 1)]
    for _ in range(3):
        gs.apply_label("down")
    assert gs.heuristic_returns() == [pytest.approx(2 * 7 / 18 - 1)]
    clamped = walk(game_from, "bots: {heuristic: height + 100, heuristic_max: 5}").new_initial_state(players=1)
    assert clamped.heuristic_returns() == [1.0]
    low = walk(game_from, "bots: {heuristic: height - 100, heuristic_max: 5}").new_initial_state(players=1)
    assert low.heuristic_returns() == [-1.0]


def test_no_heuristic_means_none(game_from):
    gs = walk(game_from, "").new_initial_state(players=1, seed=1)
    assert gs.heuristic_returns() is None and gs.bot_playout() is None


def test_search_with_the_heuristic_wins_the_walk(game_from):
    game = walk(game_from)
    for seed in range(5):
        record = play_game(game, 1, seed, [make_bot("mcts:8", bot_seed(seed, 0))])
        assert record.winners == [0] and record.end == "summit", (seed, record)


def test_search_without_it_learns_nothing(game_from):
    """The control: the same budget with every cut playout scored as a draw loses most walks."""
    game = walk(game_from, "bots: {playout: 1}")
    won = sum(bool(play_game(game, 1, seed, [make_bot("mcts:8", bot_seed(seed, 0))]).winners) for seed in range(5))
    assert won <= 1


def test_spec_playout_is_the_default_and_the_bot_overrides_it(game_from):
    game = walk(game_from, "bots: {heuristic: height + 10, heuristic_max: 18, playout: 0}")
    gs = game.new_initial_state(players=1, seed=1)
    bot = MctsBot(1, "6")
    bot.choose(gs)
    assert bot.stats["capped"] == 6  # every iteration judged at once: the spec's playout of 0
    bot = MctsBot(1, "6:playout=50")
    bot.choose(gs)
    assert bot.stats.get("capped", 0) == 0  # 50 random decisions always reach the end of a 10-step walk


def test_spec_budget_is_the_default_and_a_written_budget_wins(game_from):
    """bots.iterations: `mcts` with no budget searches that many iterations; `mcts:N` and `mcts:Ts` keep their own."""
    game = walk(game_from, "bots: {heuristic: height + 10, heuristic_max: 18, iterations: 5}")
    gs = game.new_initial_state(players=1, seed=1)
    bot = make_bot("mcts", 1)
    bot.choose(gs)
    assert (bot.iterations, bot.stats["iterations"], bot.stats["searches"]) == (5, 5, 1)
    bot = make_bot("mcts:7", 1)
    bot.choose(gs)
    assert bot.stats["iterations"] == 7
    timed = make_bot("mcts:50ms", 1)
    timed.choose(gs)
    assert timed.iterations is None  # a time budget is a budget: the spec's iterations do not cap it
    plain = make_bot("mcts", 1)
    plain.choose(walk(game_from).new_initial_state(players=1, seed=1))
    assert plain.iterations == 200  # no hint: the bot's own default (the solver may stop it sooner)


def test_spec_budget_gives_the_same_games_as_the_written_one(game_from):
    """`--bots mcts` on a spec with iterations: N plays exactly the games of `--bots mcts:N`."""
    hinted = walk(game_from, "bots: {heuristic: height + 10, heuristic_max: 18, playout: 1, iterations: 6}")
    for seed in range(3):
        plain, written = make_bot("mcts", bot_seed(seed, 0)), make_bot("mcts:6", bot_seed(seed, 0))
        a = play_game(hinted, 1, seed, [plain])
        b = play_game(hinted, 1, seed, [written])
        assert (a.winners, a.end, a.steps) == (b.winners, b.end, b.steps)
        # the walk is won either way, so the games alone would not show the budget: the searches do
        assert plain.stats == written.stats and plain.stats["iterations"] <= 6 * plain.stats["searches"]


@pytest.mark.parametrize("bots, message", [
    ("bots: {heuristic: '\"high\"'}", "19:20: error: type error: a heuristic must be a whole number, but this is text"),
    ("bots: {heuristic: height, heuristic_max: 0}", "19:42: error: bots.heuristic_max: Input should be greater than"),
    ("bots: {heuristic: heigth}", "19:19: error: unknown name 'heigth'"),
    ("bots: {playout: -1}", "19:17: error: bots.playout: Input should be greater than or equal to 0"),
    ("bots: {iterations: 0}", "19:20: error: bots.iterations: Input should be greater than or equal to 1"),
])
def test_bad_hints_are_located(tmp_path, capsys, bots, message):
    path = tmp_path / "walk.yaml"
    path.write_text(WALK.format(bots=bots), encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:{message}" in err, err


def test_run_time_error_in_heuristic_is_a_rule_error(game_from):
    game = walk(game_from, "bots: {heuristic: 'if height > 0 then height else none'}")
    gs = game.new_initial_state(players=1, seed=1)
    with pytest.raises(RuleError, match="whole number"):
        gs.heuristic_returns()


# The same walk with a face-down pile of stones nobody looks at: something is hidden, so the search runs
# in its general mode (a determinised world per iteration), where a heuristic makes it judge every untried
# option of a node at once.
HIDDEN = WALK.replace("variables:", """components:
  pieces:
    stone: {{attributes: {{colour: [red, blue, green]}}, start: pile}}
  zones:
    pile: {{type: pile, visibility: hidden}}
setup: shuffle pile
variables:""", 1)


def test_general_mode_judges_every_option_at_once(game_from):
    game = game_from(HIDDEN.format(bots=HINTS))
    gs = game.new_initial_state(players=1, seed=1)
    bot = MctsBot(3, "2")
    assert gs.legal_options()[bot.choose(gs)].label == "up"
    # iteration 1 judges both options of the root, iteration 2 both options below the better one
    assert bot.stats["judged"] == 4 and "exact" not in bot.stats
    for seed in range(5):
        record = play_game(game, 1, seed, [make_bot("mcts:2", bot_seed(seed, 0))])
        assert record.winners == [0], (seed, record)
    plain = game_from(HIDDEN.format(bots="bots: {playout: 1}"))
    won = sum(bool(play_game(plain, 1, seed, [make_bot("mcts:2", bot_seed(seed, 0))]).winners) for seed in range(5))
    assert won <= 1
