"""Decision tests: choose mid-effect, choosers, optional, chosen-by loops, look-ahead filtering
with explanations, auto-resolved single options, clone mid-effect, merged identical pieces.

Uses the made-up "stacking tower" game (tests/specs/stacking-tower.yaml): a row a1..e1 holds
stacks of 1, 2, 1, 3 and 0 blocks; `shift` moves a stack onto one of the same height.
"""

from __future__ import annotations

import pytest

from conftest import SPECS, evaluate, labels, load_game, new_state, var
from orrery.interpreter.engine.game import TERMINAL, IllegalMove
from orrery.interpreter.core.values import Cell, PieceRef

TOWER = SPECS / "stacking-tower.yaml"
SAME_HEIGHT = "stacks must be the same height"


@pytest.fixture(scope="module")
def game(module_engine):
    return load_game(TOWER)


@pytest.fixture()
def gs(game):
    return new_state(game, players=2, seed=3)


def hand_metals(gs, p):
    return sorted(evaluate(gs, f"[c.metal for c in players[{p}].hand]"))


# ================================================================= the step menu

def test_step_menu_offers_legal_actions_only(gs):
    d = gs.decision
    assert (d.player, d.kind, d.prompt) == (0, "action", "play")
    assert gs.current_player() == 0
    assert labels(gs) == ["shift", "take", "gift", "sort"]
    assert gs.legal_actions() == [0, 1, 2, 3]
    assert [o.value for o in gs.legal_options()] == ["shift", "take", "gift", "sort"]


def test_an_action_whose_condition_fails_is_explained(gs):
    d = gs.decision
    assert "splurge" not in labels(gs)
    assert d.reasons[4].startswith("the purse is too light (")
    assert f"{TOWER}:" in d.reasons[4] or "stacking-tower.yaml:" in d.reasons[4]
    with pytest.raises(IllegalMove) as info:
        gs.apply_label("splurge")
    assert info.value.reason.startswith("'splurge' is not allowed: the purse is too light")
    with pytest.raises(IllegalMove) as info:
        gs.apply(4)
    assert "the purse is too light" in info.value.reason
    assert gs.decision is d and len(gs.steps) == 0  # nothing changed


@pytest.mark.parametrize("answer, fragment", [
    ("fly", "'fly' is not an option here; choose one of: shift, take, gift, sort"),
    ("0", "'0' is not an option here"),
    ("5", "'5' is not an option here"),
])
def test_unknown_answers_list_the_options(gs, answer, fragment):
    with pytest.raises(IllegalMove) as info:
        gs.apply_label(answer)
    assert fragment in info.value.reason


def test_answers_by_number_and_case_insensitive_label(gs):
    opt = gs.apply_label("3")
    assert opt.label == "gift" and gs.decision.prompt == "How many?"
    gs2 = new_state(gs.game, players=2, seed=3)
    assert gs2.apply_label("  GIFT ").label == "gift"


def test_apply_an_index_that_is_not_offered(gs):
    with pytest.raises(IllegalMove, match="99 is not one of the options"):
        gs.apply(99)


# ================================================================= choose inside an effect

def test_choose_suspends_mid_effect_and_resumes(game):
    gs = new_state(game, players=3)
    gs.apply_label("gift")
    d = gs.decision
    assert (d.kind, d.player, d.prompt, d.var, d.action) == ("choose", 0, "How many?", "n", "gift")
    assert labels(gs) == ["1", "2", "3"]
    assert [o.value for o in d.options] == [1, 2, 3]
    gs.apply_label("2")
    # `choose ... by next_player(current)` asks the next player, in the middle of P1's action
    d = gs.decision
    assert (d.player, d.prompt, d.var) == (1, "Who receives?", "who")
    assert gs.current_player() == 1
    assert labels(gs) == ["South", "West"]
    assert [int(o.value) for o in d.options] == [1, 2]
    gs.apply_label("West")
    assert var(gs, "gifts") == 22
    # back at a step menu: the next player's turn
    assert gs.decision.kind == "action" and gs.decision.player == 1


def test_choose_by_another_player_labels(game):
    gs = new_state(game, players=3)
    gs.apply_label("gift")
    gs.apply_label("1")
    assert labels(gs) == ["South", "West"]
    with pytest.raises(IllegalMove):
        gs.apply_label("North")  # the chooser's own seat is excluded by `where`


def test_optional_choose_adds_skip(gs):
    gs.apply_label("take")
    assert (gs.decision.prompt, labels(gs)) == ("Which coin?", ["copper coin", "silver coin"])
    gs.apply_label("silver coin")
    d = gs.decision
    assert d.prompt == "A second coin?"
    assert labels(gs) == ["copper coin", "silver coin", "skip"]
    # mid-effect: the first coin is already in the hand
    assert hand_metals(gs, 0) == ["silver"]
    skip = d.options[-1]
    assert skip.value is None
    gs.apply_label("skip")
    assert hand_metals(gs, 0) == ["silver"]
    assert gs.decision.kind == "action" and gs.decision.player == 1


def test_optional_choose_taking_the_extra(gs):
    gs.apply_label("take")
    gs.apply_label("silver coin")
    gs.apply_label("copper coin")
    assert hand_metals(gs, 0) == ["copper", "silver"]


def test_optional_choose_with_an_empty_domain_is_skipped_silently(gs):
    gs.apply_label("take")
    gs.apply_label("copper coin")  # the extra's `where` needs silver: nothing but skip -> auto
    assert hand_metals(gs, 0) == ["copper"]
    assert gs.decision.kind == "action" and gs.decision.player == 1


def test_identical_pieces_are_merged_in_menus(gs):
    gs.apply_label("take")
    d = gs.decision
    assert len(d.options) == 2                     # 3 copper + 3 silver coins
    assert [o.index for o in d.options] == [0, 3]  # the first of each kind of coin
    assert all(isinstance(o.value, PieceRef) for o in d.options)
    gs.apply_label("copper coin")
    gs.apply_label("take")
    assert labels(gs) == ["copper coin", "silver coin"]  # still merged (2 copper left)


def test_for_chosen_by_asks_the_order(gs):
    gs.apply_label("sort")
    d = gs.decision
    assert (d.prompt, d.var, d.player) == ("which c next?", "c", 0)
    assert labels(gs) == ["a1", "b1", "c1", "d1"]  # e1 is empty: filtered by `where`
    gs.apply_label("d1")
    assert labels(gs) == ["a1", "b1", "c1"]
    gs.apply_label("a1")
    gs.apply_label("c1")
    # the last one is the only option left: taken without asking
    assert var(gs, "log") == ["d1", "a1", "c1", "b1"]
    assert gs.decision.kind == "action"


# ================================================================= look-ahead

def test_dead_end_first_choices_are_filtered_with_reasons(gs):
    gs.apply_label("shift")
    d = gs.decision
    assert (d.prompt, d.var, d.action) == ("Which stack?", "src", "shift")
    # b1 (2 high) and d1 (3 high) have no partner of the same height; e1 is empty
    assert labels(gs) == ["a1", "c1"]
    assert set(d.reasons) == {1, 3}
    for i in (1, 3):
        assert d.reasons[i].startswith(SAME_HEIGHT)
        assert "rule: A stack may only be moved onto a stack of the same height." in d.reasons[i]
    rejected = {getattr(v, "label", v): why for v, why in d.rejected}
    assert rejected["e1"] == "there is nothing to move there"
    assert rejected["b1"].startswith(SAME_HEIGHT)


@pytest.mark.parametrize("answer, fragment", [
    ("b1", f"'b1' is not allowed: {SAME_HEIGHT}"),
    ("D1", f"'D1' is not allowed: {SAME_HEIGHT}"),
    ("e1", "'e1' is not allowed: there is nothing to move there"),   # the param's `why`
    ("z9", "'z9' is not an option here; choose one of: a1, c1"),
])
def test_typing_a_filtered_option_explains_why(gs, answer, fragment):
    gs.apply_label("shift")
    with pytest.raises(IllegalMove) as info:
        gs.apply_label(answer)
    assert fragment in info.value.reason
    assert gs.decision.prompt == "Which stack?" and labels(gs) == ["a1", "c1"]


def test_apply_index_of_a_filtered_option_gives_the_require_text(gs):
    gs.apply_label("shift")
    with pytest.raises(IllegalMove) as info:
        gs.apply(1)  # b1
    assert info.value.reason.startswith(SAME_HEIGHT)


def test_single_viable_option_is_auto_resolved_and_recorded(gs):
    gs.apply_label("shift")
    gs.apply_label("a1")
    # among b1, c1, d1, e1 only c1 has the same height: chosen for the player
    assert var(gs, "log") == ["a1>c1"]
    steps = [(h.player, h.label, h.prompt, h.auto) for h in gs.steps]
    assert steps == [
        (0, "shift", "play", False),
        (0, "a1", "Which stack?", False),
        (0, "c1", "Onto which stack?", True),
    ]
    assert evaluate(gs, 'size(cell(row, "c1"))') == 2 and evaluate(gs, 'empty(cell(row, "a1"))') is True
    assert gs.decision.player == 1


def test_single_option_step_menus_are_auto_resolved(ttt):
    gs = new_state(ttt)
    assert gs.decision.kind == "choose" and gs.decision.prompt == "Where do you play?"
    assert [(h.label, h.auto) for h in gs.steps] == [("place", True)]
    gs.apply_label("b2")
    assert [(h.label, h.auto) for h in gs.steps] == [("place", True), ("b2", False), ("place", True)]


def test_forced_single_value_choices_are_taken_and_recorded_as_automatic(ttt):
    # Documented behaviour (docs/dsl.md, Decisions): a `choose`/parameter whose domain has exactly one
    # legal value asks nobody; it is in gs.steps, marked automatic, so the history holds every decision.
    gs = new_state(ttt)
    for square in ["a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3"]:   # no line: c3 is forced last
        gs.apply_label(square)
    assert gs.outcome().end == "board_full"
    assert [(h.label, h.auto) for h in gs.steps][-2:] == [("place", True), ("c3", True)]
    assert [h.label for h in gs.steps if not h.auto] == ["a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3"]
    assert evaluate(gs, 'not empty(cell(board, "c3"))') is True
    assert gs.narration[-2] == "X plays c3"


def test_where_with_why_in_tic_tac_toe(ttt):
    gs = new_state(ttt)
    gs.apply_label("a1")
    assert "a1" not in labels(gs)
    with pytest.raises(IllegalMove) as info:
        gs.apply_label("a1")
    assert info.value.reason == "'a1' is not allowed: that square is already taken"


def test_after_the_end_every_answer_is_refused(ttt):
    gs = new_state(ttt)
    for sq in ["a1", "a2", "b1", "b2", "c1"]:
        gs.apply_label(sq)
    assert gs.is_terminal() and gs.decision is None and gs.current_player() == TERMINAL
    assert gs.legal_actions() == [] and gs.legal_options() == []
    assert gs.outcome().winners == [0] and gs.returns() == [1.0, -1.0]
    with pytest.raises(IllegalMove, match="the game is over"):
        gs.apply(0)
    with pytest.raises(IllegalMove, match="the game is over"):
        gs.apply_label("c3")


def test_a_require_at_the_end_of_a_single_parameter_action(game_from):
    text = """\
        orrery: 1
        game: {name: coin-spend, players: {min: 1, max: 1}}
        components:
          tracks:
            coins: {start: 3}
        flow:
          first_player: 0
          phases: [{name: main, steps: [{actions: [spend, hoard]}]}]
        actions:
          spend:
            params:
              n: {from: "[1, 2, 3, 4, 5]", prompt: "How much?"}
            effect: |
              require n <= current.coins else "you cannot spend more than you have"
              current.coins -= n
          hoard: {effect: "current.coins += 1"}
        end:
          broke: {when: "current.coins == 0", winners: "[]"}
    """
    gs = new_state(game_from(text), players=1)
    gs.apply_label("spend")
    assert labels(gs) == ["1", "2", "3"]
    with pytest.raises(IllegalMove) as info:
        gs.apply_label("5")
    assert "you cannot spend more than you have" in info.value.reason
    gs.apply_label("2")
    assert gs.state.pvars[0]["coins"] == 1


def test_an_action_that_can_never_complete_is_filtered_from_the_menu(game_from):
    text = """\
        orrery: 1
        game: {name: locked-door, players: {min: 1, max: 1}}
        variables:
          log: {start: "[]"}
        flow:
          first_player: 0
          phases: [{name: main, steps: [{actions: [open_door, knock, wait]}]}]
        actions:
          open_door:
            label: open
            effect: |
              choose k from [1, 2]
              require k > 5 else "the door is locked"
          knock: {effect: 'log += "knock"'}
          wait: {effect: 'log += "wait"'}
        end:
          done: {when: "count(log) >= 2", winners: "[]"}
    """
    gs = new_state(game_from(text), players=1)
    assert labels(gs) == ["knock", "wait"]
    assert gs.decision.reasons[0].startswith("the door is locked")
    with pytest.raises(IllegalMove) as info:
        gs.apply_label("open")
    assert "the door is locked" in info.value.reason


# ================================================================= clone mid-effect

def test_clone_mid_effect_gives_independent_games(game):
    gs = new_state(game, players=3)
    gs.apply_label("gift")
    a = gs.clone()
    b = gs.clone()
    a.apply_label("1")
    b.apply_label("3")
    assert a.decision.player == b.decision.player == 1
    a.apply_label("South")
    b.apply_label("West")
    assert (var(a, "gifts"), var(b, "gifts")) == (11, 32)
    # the original is still waiting for "How many?"
    assert gs.decision.prompt == "How many?" and var(gs, "gifts") == 0
    assert len(gs.steps) == 1 and len(a.steps) == 3 and len(b.steps) == 3
    gs.apply_label("2")
    gs.apply_label("South")
    assert var(gs, "gifts") == 21 and (var(a, "gifts"), var(b, "gifts")) == (11, 32)


def test_clone_mid_piece_move(gs):
    gs.apply_label("take")
    gs.apply_label("silver coin")
    c = gs.clone()
    gs.apply_label("copper coin")
    c.apply_label("skip")
    assert hand_metals(gs, 0) == ["copper", "silver"]
    assert hand_metals(c, 0) == ["silver"]
    assert evaluate(gs, "size(purse)") == 4 and evaluate(c, "size(purse)") == 5


def test_clone_shares_nothing_mutable(gs):
    c = gs.clone()
    c.apply_label("shift")
    assert gs.decision.kind == "action" and c.decision.kind == "choose"
    assert len(gs.steps) == 0 and len(c.steps) == 1


def test_history_records_every_answer(game):
    gs = new_state(game, players=3)
    gs.apply_label("gift")
    gs.apply_label("3")
    gs.apply_label("West")
    assert [(h.player, h.label, h.prompt, h.auto) for h in gs.steps] == [
        (0, "gift", "play", False), (0, "3", "How many?", False), (1, "West", "Who receives?", False)]


def test_view_lists_the_pending_decision(gs):
    gs.apply_label("shift")
    v = gs.view(None)
    assert v["decision"] == {"player": 0, "prompt": "Which stack?",
                             "options": [{"index": 0, "label": "a1"}, {"index": 2, "label": "c1"}]}


def test_cells_as_option_values(gs):
    gs.apply_label("shift")
    assert [o.value for o in gs.decision.options] == [Cell("row", None, (0, 0)), Cell("row", None, (2, 0))]


# ================================================================= costs and typed numbers

RACE = SPECS / "counter-race.yaml"


def test_cost_is_paid_and_then_the_action_is_refused():
    gs = new_state(load_game(RACE), players=2)
    assert labels(gs) == ["step1", "step2", "dash"]
    gs.apply_label("dash")
    assert gs.state.pvars[0] == {"pos": 3, "tokens": 0}
    gs.apply_label("step1")
    assert labels(gs) == ["step1", "step2"]
    assert gs.decision.reasons[2].startswith("you have no token left")
    with pytest.raises(IllegalMove, match="'dash' is not allowed: you have no token left"):
        gs.apply_label("dash")


NUMBERS = """\
orrery: 1
game: {name: number-pick, players: {min: 1, max: 1}}
variables:
  got: {start: "none"}
flow:
  first_player: 0
  phases: [{name: a, steps: [{actions: [pick, idle]}]}]
actions:
  pick:
    params:
      n: {from: "[3, 1, 2]"}
    effect: "got = n"
  idle: {}
end:
  picked: {when: "got != none", winners: "[]"}
"""


def test_typing_an_exact_numeric_label_picks_that_option(game_from):
    gs = new_state(game_from(NUMBERS), players=1)
    gs.apply_label("pick")
    opt = gs.apply_label("1")
    assert opt.label == "1" and var(gs, "got") == 1


# ================================================================= capacity and perform

PERCH = """\
orrery: 1
game: {name: perch-board, players: {min: 2, max: 2}}
components:
  pieces:
    bird: {attributes: {owner: player}, unlimited: true}
  zones:
    perch: {type: grid, width: 3, height: 1, capacity: 1}
variables:
  log: {start: "[]"}
setup: 'create bird {owner: 1} in cell(perch, "b1")'
flow:
  phases:
    - name: main
      turn_start: 'log += [[round, turn, current.seat]]'
      steps: [{actions: [land, double_land, chirp]}]
actions:
  land:
    params:
      spot: {from: cells(perch)}
    effect: "create bird {owner: current} in spot"
  double_land:
    label: double
    effect: |
      perform land
      perform land
  chirp: {effect: 'log += ["chirp"]'}
end:
  full: {when: "all(not empty(c) for c in cells(perch))", winners: "[]"}
"""


def test_full_cells_are_filtered_by_capacity(game_from):
    gs = new_state(game_from(PERCH))
    gs.apply_label("land")
    assert labels(gs) == ["a1", "c1"]
    assert gs.decision.reasons[1].startswith("b1 can hold at most 1")
    with pytest.raises(IllegalMove, match="'b1' is not allowed: b1 can hold at most 1"):
        gs.apply_label("b1")
    gs.apply_label("a1")
    # P2: 'double' would need two free cells; only c1 is left
    assert gs.decision.player == 1
    assert labels(gs) == ["land", "chirp"]
    assert "can hold at most 1" in gs.decision.reasons[1]
    gs.apply_label("chirp")
    assert var(gs, "log") == [[1, 1, 0], [1, 2, 1], "chirp", [2, 3, 0]]   # round, turn, seat


def test_perform_runs_another_action_with_its_choices(game_from):
    gs = new_state(game_from(PERCH))
    gs.apply_label("double")
    # `action` is the action the player chose at the step menu, also while it performs another
    assert gs.decision.prompt == "land: choose spot" and gs.decision.action == "double_land"
    assert labels(gs) == ["a1", "c1"]
    gs.apply_label("a1")
    # the second landing has one free cell left: placed automatically, and the perch is full
    assert gs.is_terminal() and gs.outcome().end == "full"
    assert [(h.label, h.auto) for h in gs.steps] == [("double", False), ("a1", False), ("c1", True)]
    owners = evaluate(gs, "[top(c).owner for c in cells(perch)]")
    assert owners == [0, 1, 0]


# ================================================================= labels made when read

def test_an_option_label_given_as_a_function_is_made_once_when_first_read():
    from orrery.interpreter.core.decisions import Option

    calls = []
    opt = Option(None, 7, 2, lambda v: calls.append(v) or f"seven ({v})")
    assert calls == []
    assert opt.label == "seven (7)" and opt.label == "seven (7)" and calls == [7]
    label, value, index = opt  # unpacks as the named tuple it was
    assert (label, value, index) == ("seven (7)", 7, 2)
    assert opt == Option("seven (7)", 7, 2) and opt != Option("seven (7)", 7, 3)
    assert hash(opt) == hash(Option("seven (7)", 7, 2))
    assert repr(opt) == "Option(label='seven (7)', value=7, index=2)"


def test_menus_of_cells_label_when_read_and_pieces_label_at_once(gs):
    from conftest import interp

    it = interp(gs)
    cells = evaluate(gs, "cells(row)")
    lazy = it.options_for(cells + [[cells[0], 3]], optional=True)
    assert [o._label for o in lazy[:-1]] == [None] * (len(cells) + 1)  # nothing made yet
    assert [o.label for o in lazy] == [it.label(v) for v in cells] + ["a1, 3", "skip"]
    coins = evaluate(gs, "pieces(purse)")
    eager = it.options_for(coins, optional=False)
    assert all(o._label is not None for o in eager)  # a piece's label is read from the state it is in now
    assert [o.label for o in eager] == [it.label(o.value) for o in eager]
    unlabelled = it.options_for(cells, optional=False, labelled=False)
    assert {o.label for o in unlabelled} == {""}
