"""The public GameState on the flat flow (engine/flatapi.py): a new game of a spec with a flat module plays on the
flat state, and is the same game as the general GameState's, answer for answer: the same menus and labels, the
same current player, the same end and returns, the same history; read anything else and it turns into the
general GameState of the same position (digest, steps and narration), which goes on from there."""

from __future__ import annotations

import pytest

from orrery.interpreter.bots import mcts as mcts_module
from orrery.interpreter.bots.mcts import MctsBot
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.engine.flatapi import FlatGameState, as_flat
from orrery.interpreter.engine.game import IllegalMove, load_game
from orrery.rulespec.errors import InputError

CLASSIC = ["tic-tac-toe", "connect-four", "breakthrough", "reversi"]


def _games(name: str):
    return load_game(name), load_game(name, mode="interpreted")


def _same_so_far(flat, ref) -> None:
    assert flat.legal_actions() == ref.legal_actions() and flat.current_player() == ref.current_player()
    assert [o.label for o in flat.legal_options()] == [o.label for o in ref.legal_options()]
    assert [o.value for o in flat.legal_options()] == [o.value for o in ref.legal_options()]
    assert flat.is_terminal() == ref.is_terminal() and flat.returns() == ref.returns()
    assert flat.history() == ref.history()


def play_alike(flat, ref, rng) -> None:
    """Random answers to a flat public state and the general one, compared (_same_so_far) before each and at
    the end."""
    while not ref.is_terminal():
        _same_so_far(flat, ref)
        index = ref.legal_actions()[rng.below(len(ref.legal_actions()))]
        flat.apply(index)
        ref.apply(index)
    _same_so_far(flat, ref)


@pytest.mark.parametrize("name", CLASSIC)
def test_a_new_game_plays_on_the_flat_state_and_is_the_general_game(name):
    fast, ref_game = _games(name)
    for seed in range(2):
        flat, ref = fast.new_initial_state(seed=seed), ref_game.new_initial_state(seed=seed)
        assert isinstance(flat, FlatGameState) and flat._fg is not None
        play_alike(flat, ref, Rng(seed + 3))
        assert flat._fg is not None  # (nothing above needed the general state)
        assert flat.outcome() == ref.outcome()  # (end, winners, scores, returns)
        # the flat module scores an end with `winners` itself (reversi's ends rank by discs: the general engine)
        assert (flat._fg.outcome(flat._st) is not None) == (name != "reversi") and flat._fg is not None
        assert flat.state.digest() == ref.state.digest() and flat._fg is None
        assert flat.digest() == ref.digest() and flat.narration == ref.narration
        assert [(s.player, s.index, s.label, s.auto) for s in flat.steps] == [
            (s.player, s.index, s.label, s.auto) for s in ref.steps]


def test_reading_the_position_mid_game_turns_it_into_the_general_state_which_goes_on():
    fast, ref_game = _games("connect-four")
    flat, ref = fast.new_initial_state(seed=4), ref_game.new_initial_state(seed=4)
    for index in (3, 3, 2, 4):
        flat.apply(index)
        ref.apply(index)
    copy = flat.clone()
    assert flat.view(0) == ref.view(0) and flat._fg is None and copy._fg is not None
    for state in (flat, ref, copy):
        state.apply(1)
    assert flat.digest() == ref.digest() and copy.digest() == ref.digest()


def test_a_refused_answer_is_refused_in_the_general_words_and_changes_nothing():
    fast, ref_game = _games("tic-tac-toe")
    flat, ref = fast.new_initial_state(seed=0), ref_game.new_initial_state(seed=0)
    flat.apply(4)
    ref.apply(4)
    for bad, error in ((9, IllegalMove), (-1, IllegalMove), ("4", InputError), (True, InputError)):
        with pytest.raises(error) as by_flat:
            flat.clone().apply(bad)
        with pytest.raises(error) as by_ref:
            ref.apply(bad)
        assert type(by_flat.value) is type(by_ref.value) and str(by_flat.value) == str(by_ref.value)
    assert flat.history() == ref.history() == [4]


def test_clones_are_independent():
    fast = load_game("reversi")
    a = fast.new_initial_state(seed=2)
    b = a.clone()
    a.apply(a.legal_actions()[0])
    assert b.history() == [] and a.history() == [0] and b._fg is not None
    assert b.state.digest() == fast.new_initial_state(seed=2).state.digest() != a.state.digest()


def test_a_general_state_at_a_turns_menu_is_taken_up_by_the_flat_flow():
    fast = load_game("breakthrough")
    general = fast.start_state(2, 5)
    for _ in range(3):
        general.apply(general.legal_actions()[-1])
    flat = as_flat(general)
    assert isinstance(flat, FlatGameState) and flat._fg is not None and flat.history() == general.history()
    rng = Rng(1)
    while not general.is_terminal():
        index = general.legal_actions()[rng.below(len(general.legal_actions()))]
        general.apply(index)
        flat.apply(index)
    assert flat.returns() == general.returns() and flat.state.digest() == general.state.digest()


@pytest.mark.parametrize("name", ["connect-four", "tic-tac-toe"])
def test_the_search_bot_makes_the_same_search_on_the_flat_state(monkeypatch, name):
    """The flat state draws the bot's random numbers as the general one does: same move, same statistics."""
    game = load_game(name)
    flat_bot, general_bot = MctsBot(3, iterations=120, reuse=False), MctsBot(3, iterations=120, reuse=False)
    on_flat = flat_bot.choose(game.new_initial_state(seed=1))
    monkeypatch.setattr(mcts_module, "as_flat", lambda gs: gs)
    on_general = general_bot.choose(game.start_state(2, 1))
    assert on_flat == on_general and flat_bot.stats == general_bot.stats

    def tree(bot):
        return sorted((a, ch.visits, round(ch.value, 9)) for a, ch in bot._root.children.items())

    assert tree(flat_bot) == tree(general_bot)


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four", "breakthrough"])
def test_the_end_is_scored_on_the_flat_state_as_the_general_engine_scores_it(name):
    """An end with `winners` is scored by the flat module (FlatGame.returns), without the general state."""
    fast = load_game(name)
    ends = set()
    for seed in range(30):
        flat = fast.new_initial_state(seed=seed)
        rng = Rng(seed)
        while not flat.is_terminal():
            flat.apply(rng.below(len(flat.legal_actions())))
        scored = flat._fg.returns(flat._st)
        assert scored is not None and flat.returns() == scored and flat._ended is None
        ends.add(flat._st.over)
        general = fast.start_state(2, seed)
        for index in flat.history():
            general.apply(index)
        assert general.returns() == scored and general.outcome().end == flat._st.over
    assert len(ends) >= (2 if name == "tic-tac-toe" else 1)


def test_winners_that_are_not_seats_are_left_to_the_general_engine():
    fast = load_game("tic-tac-toe")
    flat = fast.new_initial_state(seed=0)
    while not flat.is_terminal():
        flat.apply(0)
    fg = flat._fg
    name = flat._st.over
    saved = dict(fg.winners)
    try:
        for odd in ([None], ["0"], [5], True):
            fg.winners[name] = lambda st, odd=odd: odd
            assert fg.returns(flat._st) is None
    finally:
        fg.winners.clear()
        fg.winners.update(saved)
    assert flat.returns() == flat.clone().returns()


# ------------------------------------------------------------------ the end scored by the flat module

RACE = """orrery: 1
game:
  name: race
  title: Race
  players: {min: 2, max: 3}
  source: "Made up: each turn a player adds 1 or 2 to their own count; the first to reach 5 wins."
components:
  tracks:
    TRACK: {description: "a player's count"}
flow:
  first_player: 0
  phases:
    - name: play
      order: clockwise
      steps:
        - actions: [add]
actions:
  add:
    params:
      n:
        from: "[1, 2]"
        prompt: How many?
    effect: |
      current.TRACK = current.TRACK + n
end:
  reached:
    when: current.TRACK >= 5
    winners: "[current]"
"""


@pytest.mark.parametrize("track, scoring, kind", [
    ("score", "", "var"),  # the `score` track is the score
    ("count", "", "zero"),  # no score at all: 0
    ("count", "scoring:\n  score: p.count * 10 - 1\n", "expr"),  # scoring.score, written by the flat code
    ("count", "scoring:\n  score: text(p.count)\n", ""),  # a score of text: the general engine scores it
])
def test_the_flat_module_scores_the_end_as_the_general_engine(tmp_path, track, scoring, kind):
    path = tmp_path / "rules.yaml"
    path.write_text(RACE.replace("TRACK", track) + scoring, encoding="utf-8")
    fast, ref_game = load_game(str(path)), load_game(str(path), mode="interpreted")
    for players in (2, 3):
        for seed in range(6):
            flat, ref = fast.new_initial_state(players, seed), ref_game.new_initial_state(players, seed)
            assert isinstance(flat, FlatGameState) and flat._fg.mod.score == kind
            rng = Rng(seed)
            while not ref.is_terminal():
                index = rng.below(len(ref.legal_actions()))
                flat.apply(index)
                ref.apply(index)
            assert (flat._fg.outcome(flat._st) is not None) == bool(kind)
            assert vars(flat.outcome()) == vars(ref.outcome()) and flat.returns() == ref.returns()
            assert flat._fg is not None  # (scored without turning into the general state)
