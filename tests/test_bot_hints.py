"""The spec's `bots:` hints (docs/dsl.md §2.18): a heuristic that judges playouts cut short, and a playout length."""

from __future__ import annotations

import random

import pytest

from orrery.interpreter.bots.factory import make_bot
from orrery.interpreter.core.decisions import RuleError
from orrery.interpreter.bots.mcts import MctsBot
from orrery.interpreter.bots.simulate import bot_seed, play_game
from orrery.interpreter.cli.main import main
from orrery.interpreter.engine.game import load_game

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
    # heuristic_max written as an expression: worked out from the rules alone, a whole number of 1 or more
    ("bots: {heuristic: height, heuristic_max: 'steps + 1'}",
     "19:43: error: heuristic_max reads 'steps', which belongs to a game being played"),
    ("bots: {heuristic: height, heuristic_max: '\"high\"'}",
     "19:43: error: heuristic_max must be a whole number, but this is text"),
    ("constants: {peak: 8}\nbots: {heuristic: height, heuristic_max: 'peak - 8'}",
     "20:43: error: heuristic_max must be a whole number of 1 or more, got the number 0"),
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


# ------------------------------------------------------------------ a bundled game's hints
# Bubble Singularity (games/bubble-singularity, bots:) judges a position by each player's progress on the
# rulebook's ways to win (Singularity Point markers, ability types, chain points) against the best other
# player's, offset to 0..heuristic_max.


def _singularity(players: int):
    from orrery.interpreter.engine.game import load_game

    return load_game("bubble-singularity", players=players)


def _raw_heuristic(gs) -> list:
    """Every player's heuristic value as the spec's expression gives it (the bot would clamp a value outside
    0..heuristic_max: these must not need it)."""
    it = gs.pos.it
    saved, it.memo = it.memo, {}
    try:
        return [it.ev(gs.game.rules.heuristic, {"p": p}) for p in it.s.players]
    finally:
        it.memo = saved


@pytest.mark.parametrize("players", [2, 4])
def test_bubble_singularity_heuristic_stays_in_range_and_follows_the_leader(players):
    game = _singularity(players)
    top = game.spec.model.bots.heuristic_max
    seen, led = set(), 0
    for seed in range(3):
        gs = game.new_initial_state(players=players, seed=seed)
        bots = [make_bot("random", bot_seed(seed, k)) for k in range(players)]
        while not gs.is_terminal():
            values = _raw_heuristic(gs)
            assert all(isinstance(v, int) and 0 <= v <= top for v in values), (seed, values)
            seen.update(values)
            view = gs.view()
            ahead = [(view["zones"][f"markers[{k}]"]["count"], view["zones"][f"abilities[{k}]"]["count"],
                      view["players"][k]["score"]) for k in range(players)]
            for k in range(players):  # ahead of everyone on every count, and by something: judged best
                if all(ahead[k] != ahead[q] and all(a >= b for a, b in zip(ahead[k], ahead[q]))
                       for q in range(players) if q != k):
                    assert values[k] == max(values) and values[k] > 50 and values.count(values[k]) == 1, (seed, ahead)
                    led += 1
            gs.apply(bots[gs.current_player()].choose(gs))
    assert len(seen) > 10 and led > 0  # it tells positions apart, and the checks above did find a leader


def test_bubble_singularity_heuristic_ranks_markers_first():
    from orrery.interpreter.core.values import ZoneRef

    game = _singularity(4)
    gs = game.new_initial_state(players=4, seed=3)
    bots = [make_bot("random", bot_seed(3, k)) for k in range(4)]
    while gs.state.cursor.round < 1:  # past the setup choices: every player holds one ability, no points
        gs.apply(bots[gs.current_player()].choose(gs))
    gs = gs.clone()
    level = _raw_heuristic(gs)
    assert len(set(level)) == 1  # nobody ahead: all the same

    pool = ZoneRef("marker_pool")
    gs.state.move(gs.state.contents(pool)[-1], ZoneRef("markers", 1))
    one = _raw_heuristic(gs)
    assert one[1] > level[1] and one[1] > one[0] == one[2] == one[3]
    gs.state.move(gs.state.contents(pool)[-1], ZoneRef("markers", 2))
    gs.state.move(gs.state.contents(pool)[-1], ZoneRef("markers", 2))
    two = _raw_heuristic(gs)
    assert two[2] > two[1] > two[0] == two[3]
    # markers rank first: one is worth more than the 5 points of a 3-chain
    gs.state.pvars[0]["score"] = 5
    assert _raw_heuristic(gs)[0] < _raw_heuristic(gs)[1]
    assert gs.heuristic_returns()[2] > gs.heuristic_returns()[0]  # what the bot sees (scaled to -1..1)


def test_bubble_singularity_search_cuts_its_playouts_and_judges_them():
    game = _singularity(4)
    gs = game.new_initial_state(players=4, seed=1)
    assert gs.bot_playout() == game.spec.model.bots.playout
    bot = MctsBot(1, "3")
    bot.choose(gs)
    assert bot.stats["capped"] == 3  # no playout of 8 decisions from the setup reaches the end: all judged
    assert bot.stats["judged"] > 0  # hidden pieces (the card stack, the bag): untried options judged at once


def test_heuristic_max_may_be_worked_out_from_the_constants(game_from):
    """`heuristic_max` written as an expression over constants is worked out once when the rules load."""
    game = walk(game_from, "constants: {peak: 8}\nbots: {heuristic: height + 10, heuristic_max: 'peak + 10'}")
    assert game.rules.heuristic_top == 18
    assert game.new_initial_state(players=1, seed=1).heuristic_returns() == [pytest.approx(2 * 10 / 18 - 1)]


def test_breakthrough_heuristic_weighs_each_pawn_by_how_far_it_has_come():
    """Breakthrough's standing(p): 50, plus the worth of p's pawns (table `worth`, by the rows each has come from
    its home row), minus the opponent's; 50 at the start, and one side's gain is the other's loss, in random games."""
    game = load_game("breakthrough")
    worth = [4, 4, 5, 6, 8, 11, 15, 20]
    for seed in range(3):
        gs = game.new_initial_state(seed=seed)
        assert _raw_heuristic(gs) == [50, 50]
        rng = random.Random(seed)
        while not gs.is_terminal():
            strength = [0, 0]
            for label, stack in gs.view()["zones"]["board"]["cells"].items():
                who, row = stack[0]["owner"]["player"], int(label[1:]) - 1
                strength[who] += worth[row if who == 0 else 7 - row]
            assert _raw_heuristic(gs) == [50 + strength[0] - strength[1], 50 + strength[1] - strength[0]], seed
            gs.apply(rng.choice(gs.legal_actions()))
