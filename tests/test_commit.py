"""`commit`: secret simultaneous choices (docs/dsl.md 4.24), on both engines.

Two made-up games use it end to end: matching pennies (tests/specs/matching-pennies.yaml: a commit in an
action's effect, a trigger on `revealed`) and a three-player blind bid (tests/specs/blind-bid.yaml: a
commit in a phase's hook whose menus depend on each player's own coins, tied highest bids settled after
the reveal).  Smaller specs written here pin the rest: who is asked and in which order, the revealed list,
the event's fields, menus with one option, empty menus, failures after the reveal, the located errors.
"""

from __future__ import annotations

import pytest

from conftest import SPECS, make_game
from orrery.interpreter.core.decisions import RuleError
from orrery.interpreter.engine.driver import IllegalMove
from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec
from test_differential import play_lockstep

PENNIES = SPECS / "matching-pennies.yaml"
BLIND_BID = SPECS / "blind-bid.yaml"


def _pair(path) -> tuple[Game, Game]:
    spec = load_spec(path)
    return Game(spec, mode="compiled"), Game(spec, mode="interpreted")


def _both(fast: Game) -> tuple[Game, Game]:
    """A game made by make_game (compiled) and the same spec on the reference."""
    return fast, Game(fast.spec, mode="interpreted")


@pytest.mark.parametrize("path", [PENNIES, BLIND_BID], ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", range(8))
def test_the_commit_games_play_alike_on_both_engines(path, seed):
    fast, ref = _pair(path)
    steps = play_lockstep(fast, ref, 3 if path == BLIND_BID else 2, seed)
    assert steps >= 2  # (every game asks at least one commit of real answers)


def test_every_player_answers_in_seat_order_and_the_answers_are_revealed_together():
    for game in _pair(BLIND_BID):
        gs = game.new_initial_state(seed=5)
        asked = []
        for bid in ["3", "1", "3"]:
            d = gs.decision
            assert d.sealed and d.prompt == "Your sealed bid for the pot of 2?"
            asked.append(d.player)
            assert [p["coins"] for p in gs.view()["players"]] == [5, 5, 5]  # nothing paid before the reveal
            gs.apply_label(bid)
        assert asked == [0, 1, 2]
        assert gs.narration[-2:] == ["bids: 3, 1, 3", "no single highest bid: the pot stays"]  # settled after it
        assert [p["coins"] for p in gs.view()["players"]] == [2, 4, 2]
        assert gs.view()["vars"]["pot"] == 4  # the pot stayed, and grew for round 2


def test_each_menu_is_made_for_its_player_before_anyone_answers():
    for game in _pair(BLIND_BID):
        gs = game.new_initial_state(seed=1)
        for bid in ["3", "0", "1"]:  # Ann is left with 2 coins, Cy with 4
            gs.apply_label(bid)
        menus = []
        for bid in ["2", "3", "0"]:
            menus.append([o.label for o in gs.legal_options()])
            gs.apply_label(bid)
        assert menus == [["0", "1", "2"], ["0", "1", "2", "3"], ["0", "1", "2", "3"]]


PARTIAL = """
orrery: 1
game: {name: partial, players: {min: 3, max: 3}}
variables:
  seen: {type: list, start: "[]"}
  asked: {type: list, start: "[]"}
flow:
  phases:
    - name: play
      steps: [{actions: [go]}]
actions:
  go:
    effect: |
      commit n from [p.seat * 10, p.seat * 10 + 1] by [players[2], players[1]] prompt "n for " + text(p)
      seen = n
triggers:
  told:
    on: revealed
    effect: |
      asked = [event.name, event.values, event.players]
end:
  done: {when: "len(seen) > 0", winners: "[]"}
"""


def test_the_revealed_list_has_one_entry_per_seat_and_the_event_says_who_answered(tmp_path):
    fast = make_game(tmp_path, PARTIAL)
    for game in _both(fast):
        gs = game.new_initial_state(seed=0)
        assert (gs.decision.player, gs.decision.prompt) == (2, "n for P3")  # in the order of the `by` list
        gs.apply_label("21")
        assert (gs.decision.player, gs.decision.prompt) == (1, "n for P2")
        gs.apply_label("10")
        assert gs.state.vars["seen"] == [None, 10, 21]
        assert gs.state.vars["asked"] == ["n", [None, 10, 21], [2, 1]]


ONE_OPTION = """
orrery: 1
game: {name: lonely, players: {min: 2, max: 2}}
components:
  tracks:
    coins: {start: "p.seat"}
variables:
  got: {type: list, start: "[]"}
flow:
  phases:
    - name: play
      steps: [{actions: [go]}]
actions:
  go:
    effect: |
      commit n from range(p.coins + 1)
      got = n
end:
  done: {when: "len(got) > 0", winners: "[]"}
"""


def test_a_menu_with_one_option_answers_itself_and_is_recorded_sealed(tmp_path):
    fast = make_game(tmp_path, ONE_OPTION)
    for game in _both(fast):
        gs = game.new_initial_state(seed=0)
        assert gs.decision.player == 1 and gs.decision.sealed  # seat 0 (0 coins) had one option: answered
        first = [s for s in gs.steps if s.prompt == "commit n"]
        assert [(s.player, s.label, s.auto, s.sealed) for s in first] == [(0, "0", True, True)]
        gs.apply_label("1")
        assert gs.state.vars["got"] == [0, 1]


EMPTY_AND_AFTER = """
orrery: 1
game: {name: strict, players: {min: 2, max: 2}}
components:
  tracks:
    coins: {start: "p.seat"}
variables:
  done: {start: 0}
flow:
  phases:
    - name: play
      steps: [{actions: [broke, clash]}]
actions:
  broke:
    effect: |
      commit n from range(p.coins) else "no coins to bid"
  clash:
    effect: |
      commit n from [1, 2]
      require n[0] != n[1] else "the two picks are equal"
      done = 1
end:
  over: {when: "done > 0", winners: "[]"}
"""


def test_an_empty_menu_fails_before_anyone_is_asked_and_a_failure_after_the_reveal_is_an_error(tmp_path):
    fast = make_game(tmp_path, EMPTY_AND_AFTER)
    for game in _both(fast):
        gs = game.new_initial_state(seed=0)
        # seat 0 has no coin: `broke` cannot be completed (look-ahead removes it); `clash` is taken by itself
        assert gs.decision.sealed and gs.decision.prompt == "commit n"
        assert [s.label for s in gs.steps] == ["clash"]
        gs.apply_label("1")
        before = gs.digest()
        with pytest.raises(RuleError, match="after a commit's answers were revealed: the two picks are equal"):
            gs.apply_label("1")  # not an illegal answer: that would tell seat 1 what seat 0 picked
        assert gs.digest() == before  # (the position is left as it was)
        gs.apply_label("2")
        assert gs.is_terminal()


def test_a_sealed_menu_is_not_filtered_by_look_ahead(tmp_path):
    fast = make_game(tmp_path, EMPTY_AND_AFTER)
    gs = fast.new_initial_state(seed=0)
    gs.apply_label("2")
    assert [o.label for o in gs.legal_options()] == ["1", "2"]  # "2" would fail after the reveal: still offered
    assert not gs.decision.reasons


@pytest.mark.parametrize("by, message", [
    ("[players[0], players[0]]", "P1 is listed twice in the `by` of a commit"),
    ("[players[0], 7]", "the `by` of a commit needs a list of players, but it holds the number 7"),
    ("players[0]", "the `by` of a commit needs a list of players, got player P1"),
])
def test_a_by_that_is_not_a_list_of_distinct_players_is_a_located_error(tmp_path, by, message):
    spec = f"""
    orrery: 1
    game: {{name: wrong-by, players: {{min: 2, max: 2}}}}
    variables:
      who: {{start: "{by}"}}
    flow:
      phases:
        - name: play
          steps: [{{actions: [go]}}]
    actions:
      go:
        effect: |
          commit n from [1, 2] by who
    end:
      never: {{when: "false"}}
    """
    fast = make_game(tmp_path, spec)
    for game in _both(fast):
        with pytest.raises(RuleError) as err:
            game.new_initial_state(seed=0).apply_label("go")
        assert message in str(err.value)
        assert err.value.findings[0].span.line == 13


def test_views_show_who_committed_and_each_player_only_their_own_answer():
    game = Game.load(BLIND_BID)
    gs = game.new_initial_state(seed=2)
    gs.apply_label("2")
    gs.apply_label("1")
    ann, bo, cy, everything = gs.view(0), gs.view(1), gs.view(2), gs.view()
    assert ann["commit"] == {"name": "bid", "players": [0, 1, 2], "committed": [0, 1], "yours": "2"}
    assert bo["commit"]["yours"] == "1" and "yours" not in cy["commit"] and "answers" not in cy["commit"]
    assert everything["commit"]["answers"] == {"0": "2", "1": "1"}
    assert cy["decision"] == {"player": 2, "prompt": "Your sealed bid for the pot of 2?", "sealed": True,
                              "options": [{"index": i, "label": str(i)} for i in range(4)]}
    assert "options" not in ann["decision"]


def test_a_clone_inside_a_commit_continues_alone_and_json_rebuilds_it():
    for game in _pair(BLIND_BID):
        gs = game.new_initial_state(seed=4)
        gs.apply_label("3")
        twin, again = gs.clone(), game.state_from_json(gs.to_json())
        assert twin.digest() == gs.digest() == again.digest()
        gs.apply_label("0")
        twin.apply_label("2")
        assert twin.digest() != gs.digest()  # the sealed answers are part of the continuation
        for other in (twin, again):
            other.apply_label("1") if other is twin else other.apply_label("0")
        gs.apply_label("1")
        twin.apply_label("1")
        assert gs.narration[-2] == "bids: 3, 0, 1" and twin.narration[-2] == "bids: 3, 2, 1"


def test_undo_at_the_table_never_takes_back_a_sealed_answer():
    from orrery.interpreter.cli.play import UndoRefused, undo_last

    gs = Game.load(BLIND_BID).new_initial_state(seed=0)
    gs.apply_label("2")
    with pytest.raises(UndoRefused, match="sealed answer to 'Your sealed bid for the pot of 2\\?'; answers to a "
                                          "commit are final") as refused:
        undo_last(gs, ["human", "human", "human"])
    assert "'2'" not in refused.value.reason


def test_explain_tells_the_commit_in_words():
    from orrery.interpreter.cli.explain import explain_text

    text = explain_text(load_spec(BLIND_BID))
    assert "Each player p secretly chooses bid, one of the numbers" in text
    assert "the choices are revealed together once everyone has chosen" in text


# ------------------------------------------------------------------ validation


def _errors(tmp_path, effect: str) -> list[str]:
    spec = f"""
    orrery: 1
    game: {{name: checked, players: {{min: 2, max: 2}}}}
    flow:
      phases:
        - name: play
          steps: [{{actions: [go]}}]
    actions:
      go:
        effect: |
          {effect}
    end:
      never: {{when: "false"}}
    """
    path = tmp_path / "rules.yaml"
    import textwrap

    path.write_text(textwrap.dedent(spec), encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    return [f"{f.span.line}:{f.span.col}: {f.message}" + (f" [{f.hint}]" if f.hint else "")
            for f in err.value.findings if f.severity == "error"]


@pytest.mark.parametrize("effect, expected", [
    ("commit n from [1, 2] by current",
     "11:31: the `by` of a commit needs a list of players, but this is a player [write [current] for one player]"),
    ('commit n from [1, 2] by ["a"]',
     "11:31: the `by` of a commit needs a list of players, but this is a list of text"),
    ("commit n from [n, 2]",
     "11:22: the domain of `commit n` reads 'n', the answers being committed: they are sealed until every "
     "player has answered, so no menu may depend on them [keep earlier answers under another name (let "
     "earlier = n) before committing again]"),
    ('commit n from [1, 2] prompt text(n)',
     "11:40: the prompt of `commit n` reads 'n', the answers being committed"),
    ("for p in players { commit n from [1, 2] }",
     "11:33: `commit n` binds `p` to each committing player in its domain and prompt, which would hide the "
     "local name 'p' here [rename the local 'p' (for q in players ...)]"),
    ("commit n from 3", "11:21: type error: cannot go through a number"),
])
def test_misuse_is_a_located_error_with_a_hint(tmp_path, effect, expected):
    errors = _errors(tmp_path, effect)
    assert len(errors) == 1 and errors[0].startswith(expected), errors


def test_a_domain_may_read_p_and_a_filter_its_own_candidate(tmp_path):
    fast = make_game(tmp_path, """
    orrery: 1
    game: {name: fine, players: {min: 2, max: 2}}
    variables:
      got: {type: list, start: "[]"}
    flow:
      phases:
        - name: play
          steps: [{actions: [go]}]
    actions:
      go:
        effect: |
          commit n from [x for x in range(4)] where n != p.seat prompt "not " + text(p.seat) else "your seat"
          got = n
    end:
      done: {when: "len(got) > 0", winners: "[]"}
    """)
    load_spec(fast.spec.path)  # every check passes
    gs = fast.new_initial_state(seed=0)
    assert [o.label for o in gs.legal_options()] == ["1", "2", "3"] and gs.decision.prompt == "not 0"
    with pytest.raises(IllegalMove, match="your seat"):
        gs.apply_label("0")


def test_validate_exits_2_for_a_misused_commit(tmp_path, capsys):
    from orrery.interpreter.cli.main import main

    path = tmp_path / "bad.yaml"
    path.write_text(PARTIAL.replace("by [players[2], players[1]]", "by current"), encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    out = capsys.readouterr()
    assert "the `by` of a commit needs a list of players" in out.out + out.err
