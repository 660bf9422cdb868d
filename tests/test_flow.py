"""Flow tests: turn orders, passing, phase/step options, hooks in order, end conditions,
winners and returns, and the runaway guards (flow limit, cascade limit).

Every game here is a tiny made-up one: a "turn recorder" whose turns only log who played,
and a "counter race" in which players push their own counter forward by 1 or 2.
"""

from __future__ import annotations

import signal
import textwrap

import pytest

from conftest import labels, make_game, new_state, var

pytestmark = pytest.mark.usefixtures("engine")  # every test runs on both engines
from orrery.interpreter.core.decisions import RuleError, RunawayError
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.engine.game import TERMINAL, IllegalMove
from orrery.rulespec.errors import LimitError

# A recorder: two actions per turn (so every turn is a real decision); turn_start logs the seat.
RECORDER = """\
orrery: 1
game:
  name: turn-recorder
  players: {{min: 1, max: 5}}
variables:
  log: {{start: "[]"}}
flow:
  first_player: {first}
  rotate_first_player: {rotate}
  phases:
    - name: play
{phase}
      turn_start: "log += current.seat"
      steps: [{{actions: [tap, wave]}}]
actions:
  tap: {{effect: 'say "tap"'}}
  wave: {{effect: 'say "wave"'}}
end:
  done: {{when: "round > {rounds}", winners: "[]"}}
"""


def recorder(game_from, phase: str = "", first="0", rotate="false", rounds=1):
    phase = textwrap.indent(textwrap.dedent(phase).strip("\n"), " " * 6) if phase.strip() else ""
    return game_from(RECORDER.format(first=first, rotate=rotate, rounds=rounds, phase=phase))


def play_first(gs, limit=500):
    """Answer the first option until the game ends; return the deciding players in order."""
    who = []
    for _ in range(limit):
        if gs.is_terminal():
            return who
        who.append(gs.decision.player)
        gs.apply(gs.legal_actions()[0])
    raise AssertionError("game did not end")


# ================================================================= turn orders

@pytest.mark.parametrize("phase, first, n, expected", [
    ("order: clockwise", "0", 4, [0, 1, 2, 3]),
    ("order: clockwise", "2", 4, [2, 3, 0, 1]),
    ("order: counterclockwise", "0", 4, [0, 3, 2, 1]),
    ("order: counterclockwise", "1", 3, [1, 0, 2]),
    ("order: snake", "0", 3, [0, 1, 2, 2, 1, 0]),
    ("order: snake", "1", 3, [1, 2, 0, 0, 2, 1]),
    ('order: by\norder_by: "0 - p.seat"', "0", 4, [3, 2, 1, 0]),
    ('order: by\norder_by: "p.seat % 2"', "0", 4, [0, 2, 1, 3]),      # ties keep clockwise order
    ('order: by\norder_by: "p.seat % 2"', "1", 4, [2, 0, 1, 3]),      # ... from the first player
    ('order: clockwise\nstart: "2"', "0", 4, [2, 3, 0, 1]),
    ('order: counterclockwise\nstart: "players[2]"', "0", 4, [2, 1, 0, 3]),
    ('order: snake\nstart: "next_player(first_player)"', "0", 3, [1, 2, 0, 0, 2, 1]),
    ('players: "p.seat != 1"', "0", 4, [0, 2, 3]),
    ('order: counterclockwise\nplayers: "p.seat % 2 == 0"', "0", 4, [0, 2]),
    ('order: snake\nplayers: "p.seat > 0"', "0", 3, [1, 2, 2, 1]),
    ("", "num_players - 1", 3, [2, 0, 1]),                              # first_player expression
    ("order: snake", "0", 1, [0, 0]),
])
def test_turn_orders(game_from, phase, first, n, expected):
    g = recorder(game_from, phase, first=first)
    gs = new_state(g, players=n)
    deciders = play_first(gs)
    assert var(gs, "log") == expected
    assert deciders == expected
    assert gs.outcome().end == "done"


def test_rotate_first_player(game_from):
    g = recorder(game_from, "", rotate="true", rounds=3)
    gs = new_state(g, players=3)
    play_first(gs)
    assert var(gs, "log") == [0, 1, 2, 1, 2, 0, 2, 0, 1]


def test_first_player_stays_without_rotation(game_from):
    g = recorder(game_from, "", rounds=2)
    gs = new_state(g, players=3)
    play_first(gs)
    assert var(gs, "log") == [0, 1, 2, 0, 1, 2]


def test_first_player_must_be_a_player(game_from):
    g = recorder(game_from, "", first="7")
    with pytest.raises(RuleError, match="first_player must be a player"):
        new_state(g, players=2)


def test_first_player_defaults_to_seat_zero(game_from):
    text = RECORDER.format(first="0", rotate="false", rounds=1, phase="").replace("  first_player: 0\n", "")
    assert "  first_player:" not in text
    gs = new_state(game_from(text), players=2)
    play_first(gs)
    assert var(gs, "log") == [0, 1]


# ================================================================= until_pass, when, steps

AUCTION = """\
orrery: 1
game:
  name: pebble-auction
  players: {min: 2, max: 4}
variables:
  log: {start: "[]"}
  bid: {start: 0}
flow:
  first_player: 0
  phases:
    - name: bidding
      turns: until_pass
      turn_start: "log += current.seat"
      steps: [{actions: [raise_bid, fold]}]
    - name: after
      on_start: 'log += "after"'
actions:
  raise_bid: {label: raise, effect: "bid += 1"}
  fold: {effect: pass}
end:
  done: {when: "round > 1", winners: "[]"}
"""


def test_until_pass_keeps_going_until_everyone_passed(game_from):
    gs = new_state(game_from(AUCTION), players=3)
    script = [(0, "raise"), (1, "fold"), (2, "raise"), (0, "fold"), (2, "raise"), (2, "fold")]
    for player, label in script:
        assert gs.decision.player == player
        assert labels(gs) == ["raise", "fold"]
        gs.apply_label(label)
    assert gs.is_terminal()
    assert var(gs, "log") == [0, 1, 2, 0, 2, 2, "after"]
    assert var(gs, "bid") == 3


def test_passed_players_are_visible_as_passed(game_from):
    gs = new_state(game_from(AUCTION), players=3)
    gs.apply_label("fold")
    assert gs.state.cursor.passed == {0}
    from conftest import evaluate
    assert evaluate(gs, "[p.passed for p in players]") == [True, False, False]


PHASES = """\
orrery: 1
game:
  name: tide-phases
  players: {min: 2, max: 2}
variables:
  log: {start: "[]"}
flow:
  first_player: 0
  phases:
    - name: ebb
      on_start: 'log += "ebb"'
      steps: [{actions: [tap, wave]}]
      players: "p.seat == 0"
    - name: flood
      when: "round % 2 == 0"
      on_start: 'log += "flood"'
      on_end: 'log += "flood-end"'
      steps: [{actions: [tap, wave]}]
      players: "p.seat == 1"
    - name: slack
      when: "false"
      on_start: 'log += "never"'
actions:
  tap: {}
  wave: {}
end:
  done: {when: "round > 3", winners: "[]"}
"""


def test_phase_when_skips_the_whole_phase(game_from):
    gs = new_state(game_from(PHASES), players=2)
    deciders = play_first(gs)
    assert var(gs, "log") == ["ebb", "ebb", "flood", "flood-end", "ebb"]
    assert deciders == [0, 0, 1, 0]


STEPS = """\
orrery: 1
game:
  name: bead-steps
  players: {min: 1, max: 2}
variables:
  log: {start: "[]"}
flow:
  first_player: 0
  phases:
    - name: work
      free_actions: [peek]
      steps:
        - {name: warm, actions: [gain], optional: true}
        - {name: grind, actions: [gain, spend], repeat: true, max: 3}
        - {name: check, actions: [gain, spend], when: "count(log) > 100"}
        - {name: last, actions: [spend, gain]}
actions:
  gain: {effect: 'log += "gain"'}
  spend: {effect: 'log += "spend"'}
  peek: {effect: 'log += "peek"'}
end:
  done: {when: "round > 1", winners: "[]"}
"""


def test_optional_repeat_max_when_and_free_actions(game_from):
    gs = new_state(game_from(STEPS), players=1)
    # optional step: its action, the free action, and skip
    assert gs.decision.prompt == "work: warm"
    assert labels(gs) == ["gain", "peek", "skip"]
    gs.apply_label("peek")                     # a free action does not advance the step
    assert gs.decision.prompt == "work: warm" and labels(gs) == ["gain", "peek", "skip"]
    gs.apply_label("skip")
    # repeat step: no 'done' before the first action
    assert gs.decision.prompt == "work: grind"
    assert labels(gs) == ["gain", "spend", "peek"]
    gs.apply_label("gain")
    assert labels(gs) == ["gain", "spend", "peek", "done"]
    gs.apply_label("peek")                     # free actions do not count toward max
    assert gs.decision.prompt == "work: grind" and labels(gs)[-1] == "done"
    gs.apply_label("spend")
    gs.apply_label("gain")                     # third action: max reached, the step ends
    # the 'check' step is skipped (its when is false), so 'last' comes next
    assert gs.decision.prompt == "work: last"
    assert labels(gs) == ["spend", "gain", "peek"]
    gs.apply_label("gain")
    assert gs.is_terminal()
    assert var(gs, "log") == ["peek", "gain", "peek", "spend", "gain", "gain"]


def test_repeat_step_stops_on_done(game_from):
    gs = new_state(game_from(STEPS), players=1)
    gs.apply_label("gain")
    gs.apply_label("spend")
    gs.apply_label("done")
    assert gs.decision.prompt == "work: last"
    assert var(gs, "log") == ["gain", "spend"]


LIMITED = """\
orrery: 1
game:
  name: limited-peek
  players: {min: 1, max: 1}
variables:
  log: {start: "[]"}
flow:
  first_player: 0
  phases:
    - name: work
      free_actions: [peek]
      steps:
        - {actions: [gain, spend]}
        - {actions: [gain, spend]}
actions:
  gain: {effect: 'log += "gain"'}
  spend: {effect: 'log += "spend"; end_turn'}
  peek: {effect: 'log += "peek"', limit: 1}
end:
  done: {when: "round > 1", winners: "[]"}
"""


def test_action_limit_per_turn_and_end_turn(game_from):
    gs = new_state(game_from(LIMITED), players=1)
    assert labels(gs) == ["gain", "spend", "peek"]
    gs.apply_label("peek")
    assert labels(gs) == ["gain", "spend"]     # peek used up for this turn
    assert "at most 1 time per turn" in gs.decision.reasons[2]
    with pytest.raises(IllegalMove, match="at most 1"):
        gs.apply_label("peek")
    gs.apply_label("spend")                    # end_turn: the second step never comes
    assert gs.is_terminal()
    assert var(gs, "log") == ["peek", "spend"]


# ================================================================= hooks in order

HOOKS = """\
orrery: 1
game:
  name: hook-order
  players: {min: 2, max: 2}
variables:
  log: {start: "[]"}
setup: 'log += "setup"'
flow:
  first_player: 0
  round_start: 'log += "R+" + text(round)'
  round_end: 'log += "R-" + text(round)'
  phases:
    - name: one
      on_start: 'log += "P+"'
      on_end: 'log += "P-"'
      turn_start: 'log += "T+" + text(current.seat)'
      turn_end: 'log += "T-" + text(current.seat)'
      steps: [{actions: [tap, wave]}]
    - name: two
      on_start: 'log += "Q+"'
      on_end: 'log += "Q-"'
triggers:
  gs_ev: {on: game_start, effect: 'log += "e:game_start"'}
  rs_ev: {on: round_start, effect: 'log += "e:round_start:" + text(event.round)'}
  ps_ev: {on: phase_start, effect: 'log += "e:phase_start:" + event.phase'}
  ts_ev: {on: turn_start, effect: 'log += "e:turn_start:" + text(event.player.seat)'}
  ac_ev: {on: action, effect: 'log += "e:action:" + event.action'}
  te_ev: {on: turn_end, effect: 'log += "e:turn_end:" + text(event.player.seat)'}
  pe_ev: {on: phase_end, effect: 'log += "e:phase_end:" + event.phase'}
  re_ev: {on: round_end, effect: 'log += "e:round_end:" + text(event.round)'}
actions:
  tap: {effect: 'log += "tap"'}
  wave: {effect: 'log += "wave"'}
scoring:
  score: "0"
  final: 'log += "final"'
end:
  done: {when: "round >= 1", check: end_of_round, winners: "[]"}
"""


def test_hooks_and_built_in_events_run_in_order(game_from):
    gs = new_state(game_from(HOOKS), players=2)
    gs.apply_label("tap")
    gs.apply_label("wave")
    assert gs.is_terminal()
    assert var(gs, "log") == [
        "setup", "e:game_start",
        "R+1", "e:round_start:1",
        "P+", "e:phase_start:one",
        "T+0", "e:turn_start:0", "tap", "e:action:tap", "T-0", "e:turn_end:0",
        "T+1", "e:turn_start:1", "wave", "e:action:wave", "T-1", "e:turn_end:1",
        "P-", "e:phase_end:one",
        "Q+", "e:phase_start:two", "Q-", "e:phase_end:two",
        "R-1", "e:round_end:1",
        "final",
    ]


# ================================================================= end conditions

RACE = """\
orrery: 1
game:
  name: counter-race
  players: {{min: 2, max: 4}}
variables:
  log: {{start: "[]"}}
components:
  tracks:
    pos: {{start: 0, min: 0, max: 9}}
flow:
  first_player: 0
  phases:
    - name: race
      turn_end: 'log += "end" + text(current.seat)'
      steps: [{{actions: [step1, step2, resign]}}]
actions:
  step1: {{effect: 'current.pos += 1' }}
  step2: {{effect: 'current.pos += 2' }}
  resign: {{effect: 'log += "resign"; end_game resigned'}}
ranking:
  by: ["p.pos"]
  ties: {ties}
end:
  finish:
    when: "any(p.pos >= 3 for p in players)"
    check: {check}
{winners}
  resigned:
    winners: "[p for p in players where p != current]"
"""


def race(game_from, check="immediate", winners="", ties="share"):
    w = f"    winners: \"{winners}\"" if winners else ""
    return game_from(RACE.format(check=check, winners=w, ties=ties))


def test_immediate_end_stops_before_turn_end(game_from):
    gs = new_state(race(game_from, "immediate"), players=3)
    for label in ["step2", "step1", "step1", "step1"]:   # P1:2 P2:1 P3:1, then P1 reaches 3
        gs.apply_label(label)
    assert gs.is_terminal() and gs.current_player() == TERMINAL
    assert gs.outcome().end == "finish"
    assert var(gs, "log") == ["end0", "end1", "end2"]  # P1's last turn never reached turn_end
    assert gs.outcome().winners == [0]                    # ranking: largest pos
    assert gs.returns() == [1.0, -1.0, -1.0]


def test_end_of_turn_runs_turn_end_first(game_from):
    gs = new_state(race(game_from, "end_of_turn"), players=3)
    for label in ["step2", "step1", "step1", "step1"]:
        gs.apply_label(label)
    assert gs.is_terminal()
    assert var(gs, "log") == ["end0", "end1", "end2", "end0"]


def test_end_of_round_lets_the_round_finish(game_from):
    gs = new_state(race(game_from, "end_of_round"), players=3)
    for label in ["step2", "step1", "step1", "step2"]:    # P1 reaches 4 first in round 2
        gs.apply_label(label)
    assert not gs.is_terminal()
    assert gs.decision.player == 1
    gs.apply_label("step2")                               # P2: 3
    gs.apply_label("step1")                               # P3: 2
    assert gs.is_terminal()
    assert var(gs, "log") == ["end0", "end1", "end2", "end0", "end1", "end2"]
    assert [gs.state.pvars[p]["pos"] for p in range(3)] == [4, 3, 2]
    assert gs.outcome().winners == [0]


def test_end_of_phase_lets_the_phase_finish(game_from):
    text = PHASES.replace('  done: {when: "round > 3", winners: "[]"}',
                          '  done: {when: "count(log) >= 2", check: end_of_phase, winners: "[]"}')
    gs = new_state(game_from(text), players=2)
    gs.apply_label("tap")                     # round 1, ebb: P1's only turn
    # log is ["ebb"]; round 2: ebb starts (log 2 entries) but the game waits for the end of the phase
    assert not gs.is_terminal() and gs.decision.player == 0
    gs.apply_label("wave")
    assert gs.is_terminal()
    assert var(gs, "log") == ["ebb", "ebb"]   # flood never started


def test_end_game_from_an_effect(game_from):
    gs = new_state(race(game_from), players=3)
    gs.apply_label("step1")
    gs.apply_label("resign")
    assert gs.outcome().end == "resigned"
    assert gs.outcome().winners == [0, 2]
    assert gs.returns() == [1.0, -1.0, 1.0]
    assert var(gs, "log") == ["end0", "resign"]
    assert any("game over (resigned)" in line for line in gs.narration)


def test_winners_expression(game_from):
    gs = new_state(race(game_from, winners="[p for p in players where p.pos < 3]"), players=2)
    gs.apply_label("step2")
    gs.apply_label("step1")
    gs.apply_label("step1")
    assert gs.outcome().winners == [1]
    assert gs.returns() == [-1.0, 1.0]


def test_a_single_winner_value_is_accepted(game_from):
    gs = new_state(race(game_from, winners="current"), players=2)
    gs.apply_label("step1")
    gs.apply_label("step2")
    gs.apply_label("step2")
    assert gs.outcome().winners == [0]


@pytest.mark.parametrize("ties, winners, returns", [
    ("share", [0, 1], [1.0, 1.0, -1.0]),
    ("nobody", [], [0.0, 0.0, 0.0]),
])
def test_ranking_ties_decide_winners(game_from, ties, winners, returns):
    text = RACE.format(check="immediate", winners="", ties=ties).replace(
        '  resigned:\n    winners: "[p for p in players where p != current]"\n', "  resigned: {}\n")
    gs = new_state(game_from(text), players=3)
    for label in ["step2", "step2", "step1", "resign"]:   # pos 2, 2, 1: P1 and P2 tie
        gs.apply_label(label)
    assert gs.outcome().end == "resigned"
    assert gs.outcome().winners == winners
    assert gs.returns() == returns


def test_everybody_sharing_the_win_is_a_draw(game_from):
    text = RACE.format(check="immediate", winners="", ties="share").replace(
        '  resigned:\n    winners: "[p for p in players where p != current]"\n', "  resigned: {}\n")
    gs = new_state(game_from(text), players=2)
    gs.apply_label("step1")
    gs.apply_label("step1")
    gs.apply_label("resign")
    assert gs.outcome().winners == [0, 1]
    assert gs.returns() == [0.0, 0.0]


def test_returns_before_the_end_are_zero(game_from):
    gs = new_state(race(game_from), players=2)
    assert gs.returns() == [0.0, 0.0] and gs.outcome() is None and not gs.is_terminal()


def test_end_game_with_an_unknown_name_is_a_rule_error(game_from):
    text = RACE.format(check="immediate", winners="", ties="share").replace("end_game resigned",
                                                                            "end_game vanished")
    gs = new_state(game_from(text), players=2)
    with pytest.raises(RuleError, match="'vanished', which is not an end condition"):
        gs.apply_label("resign")


def test_ranking_with_several_keys_and_scores(game_from):
    text = """\
        orrery: 1
        game: {name: key-ranking, players: {min: 3, max: 3}}
        components:
          tracks:
            gold: {start: "p.seat % 2"}
            silver: {start: "p.seat"}
        flow:
          first_player: 0
          phases: [{name: idle, steps: [{actions: [a, b]}]}]
        actions: {a: {effect: "end_game stop"}, b: {}}
        scoring: {score: "p.gold * 10 + p.silver"}
        ranking: {by: ["p.gold", "0 - p.silver"]}
        end: {stop: {}}
    """
    gs = new_state(game_from(text), players=3)
    gs.apply_label("a")
    # gold: 0, 1, 0 -> P2 best on the first key
    assert gs.outcome().winners == [1]
    assert gs.outcome().scores == [0, 11, 2]


DEFAULTS = """\
orrery: 1
game: {name: default-rank, players: {min: 2, max: 2}}
components:
  tracks:
    score: {start: "p.seat * 5"}
flow:
  first_player: 0
  phases: [{name: idle, steps: [{actions: [stop_now, wait]}]}]
actions: {stop_now: {effect: "end_game stop"}, wait: {}}
end: {stop: {}}
"""
SCORE_LINE = '    score: {start: "p.seat * 5"}'


def test_default_ranking_and_score_use_p_score(game_from):
    gs = new_state(game_from(DEFAULTS), players=2)
    gs.apply_label("stop now")
    assert gs.outcome().winners == [1]
    assert gs.outcome().scores == [0, 5]


def test_without_score_or_ranking_everyone_ties(game_from):
    text = DEFAULTS.replace(SCORE_LINE, '    gold: {start: "p.seat * 5"}')
    gs = new_state(game_from(text), players=2)
    gs.apply_label("stop now")
    assert gs.outcome().winners == [0, 1]
    assert gs.outcome().scores == [0, 0]
    assert gs.returns() == [0.0, 0.0]


def test_track_start_defaults_to_zero(game_from):
    text = DEFAULTS.replace(SCORE_LINE, "    score: {min: 0}")
    gs = new_state(game_from(text), players=2)
    assert [gs.state.pvars[p]["score"] for p in range(2)] == [0, 0]


def test_explicit_ranking_on_p_score(game_from):
    text = DEFAULTS + 'ranking: {by: ["p.score"]}\nscoring: {score: "p.score"}\n'
    gs = new_state(game_from(text), players=2)
    gs.apply_label("stop now")
    assert gs.outcome().winners == [1]
    assert gs.outcome().scores == [0, 5]
    assert gs.returns() == [-1.0, 1.0]


# ================================================================= runaway guards

NEVER_ASKS = """\
orrery: 1
game: {name: silent-loop, players: {min: 1, max: 2}}
variables:
  ticks: {start: 0}
flow:
  first_player: 0
  phases:
    - name: idle
      on_start: "ticks += 1"
end:
  never: {when: "ticks < 0"}
"""


def test_a_flow_that_never_asks_hits_the_flow_limit(game_from):
    g = game_from(NEVER_ASKS, limits=Limits(flow=300))
    with pytest.raises(RunawayError) as info:
        new_state(g, players=1)
    assert isinstance(info.value, LimitError)
    msg = str(info.value)
    assert "limit flow" in msg and "300" in msg and "without asking any player anything" in msg


class _Hang(Exception):
    pass


def _alarm(seconds):
    def handler(signum, frame):
        raise _Hang(f"no answer within {seconds}s")
    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return old


def test_a_flow_of_forced_moves_only_hits_the_auto_limit(game_from):
    text = NEVER_ASKS.replace('      on_start: "ticks += 1"', "      steps: [{actions: [tick]}]") + \
        'actions:\n  tick: {effect: "ticks += 1"}\n'
    g = game_from(text, limits=Limits(auto=300))
    old = _alarm(3)
    try:
        with pytest.raises(LimitError) as info:
            new_state(g, players=1)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert isinstance(info.value, RunawayError)
    assert "limit auto" in str(info.value) and "300" in str(info.value)


FUSE_LOOP = """\
orrery: 1
game: {name: endless-fuse, players: {min: 1, max: 1}}
variables:
  sparks: {start: 0}
flow:
  first_player: 0
  phases: [{name: main, steps: [{actions: [poke, rest]}]}]
actions:
  poke: {effect: "sparks += 1"}
  rest: {}
triggers:
  calm: {when: "sparks < 0", effect: "sparks = 0"}
  forever: {when: "sparks > 0", effect: "sparks += 1"}
end:
  never: {when: "false"}
"""


def test_a_trigger_that_never_settles_hits_the_cascade_limit(tmp_path):
    g = make_game(tmp_path, FUSE_LOOP, name="fuse.yaml", limits=Limits(cascade=50))
    gs = new_state(g, players=1)
    with pytest.raises(RunawayError) as info:
        gs.apply_label("poke")
    assert isinstance(info.value, LimitError)
    line = FUSE_LOOP.splitlines().index(
        '  forever: {when: "sparks > 0", effect: "sparks += 1"}') + 1
    msg = str(info.value)
    assert f"fuse.yaml:{line}:" in msg
    assert "trigger 'forever' keeps firing" in msg and "limit cascade" in msg and "50" in msg


def test_a_failed_apply_leaves_the_game_unchanged(tmp_path):
    g = make_game(tmp_path, FUSE_LOOP, limits=Limits(cascade=50))
    gs = new_state(g, players=1)
    before = (len(gs.steps), gs.digest())
    with pytest.raises(RunawayError):
        gs.apply_label("poke")
    assert (len(gs.steps), gs.digest()) == before
    assert labels(gs) == ["poke", "rest"]
    gs.apply_label("rest")                      # the game goes on
    assert labels(gs) == ["poke", "rest"]


# A turn whose start hook asks the player for a bet before the step menu; the end of the turn only counts.
BETTING = """\
orrery: 1
game: {{name: betting, players: {{min: 2, max: 2}}}}
variables:
  bets: {{start: "[]"}}
  turns: {{start: 0}}
flow:
  phases:
    - name: main
      turn_start: |
        {start}
      turn_end: |
        turns += 1
      steps: [{{actions: [low, high]}}]
actions:
  low: {{effect: "bets += [1]"}}
  high: {{effect: "bets += [2]"}}
end:
  done: {{when: "turns >= 4", winners: "[]"}}
"""


def test_a_hook_that_asks_and_one_that_does_not(game_from):
    """A turn_start hook may ask the player (it suspends, and the turn goes on after the answer)."""
    quiet = game_from(BETTING.format(start="bets += [0]"))
    asking = game_from(BETTING.format(start="choose b from [5, 6]\n        bets += [b]"))
    gs = new_state(asking, players=2)
    for answer in ["6", "high", "5", "low", "5", "high", "6", "low"]:
        assert not gs.is_terminal()
        gs.apply_label(answer)
    assert gs.is_terminal() and var(gs, "bets") == [6, 2, 5, 1, 5, 2, 6, 1]
    gs = new_state(quiet, players=2)
    for answer in ["high", "low", "low", "high"]:
        gs.apply_label(answer)
    assert gs.is_terminal() and var(gs, "bets") == [0, 2, 0, 1, 0, 1, 0, 2]


