"""The flow compiled per spec (compiler/flowgen.py, engine/flowcompiled.py) against the reference stage
machine (engine/flowframe.py): what the generated source holds, and that a made-up game using every
flow construct plays the same on both, continuation included.  Made-up games only; the bundled games
are compared step by step in test_differential.py, random specs in test_generated_games.py."""

from __future__ import annotations

import pytest

from conftest import make_game, seeded_trace
from orrery.interpreter.core.decisions import RuleError, RunawayError
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.compiler.flowgen import flow_source
from orrery.interpreter.engine.flow import TIMINGS, ends_of
from orrery.interpreter.engine.flowframe import FlowFrame
from orrery.interpreter.engine.game import Game
from orrery.rulespec.loader import load_spec

PLAIN = """
orrery: 1
game: {name: plain, players: {min: 2, max: 2}}
variables: {n: {start: 0}}
flow:
  phases:
    - name: play
      steps: [{actions: [tick]}]
actions:
  tick: {effect: "n += 1"}
end:
  enough: {when: "n >= 6", winners: "[]", check: end_of_round}
"""

# every flow construct: round hooks, a rotating first player, a phase `when`, `players`, `until_pass`
# with a `pass` action, a turn_start hook that asks (suspends), event triggers on flow events, an
# optional step with a prompt, a repeating step with a max and a `when`, a free action with a limit
# and a condition, an automatic phase, end conditions of every timing (one reading the flow)
EVERYTHING = """
orrery: 1
game: {name: everything, players: {min: 2, max: 3}}
variables:
  n: {start: 0}
  bids: {start: 0}
  log: {type: list, start: "[]"}
flow:
  first_player: 0
  rotate_first_player: true
  round_start: "log = log + [round]"
  round_end: "n += 1"
  phases:
    - name: bid
      order: by
      order_by: "-p.seat"
      turns: until_pass
      players: "p.seat != 2 or round > 1"
      turn_start: |
        choose k from [1, 2, 3] prompt "warm up by how much?"
        n += k
      steps:
        - actions: [raise, give_up]
    - name: build
      when: "round % 2 == 1"
      on_start: "say 'build starts'"
      on_end: "n -= 1"
      turn_end: "bids += 1"
      steps:
        - name: place
          prompt: "Place something?"
          actions: [place]
          optional: true
        - name: improve
          actions: [place, improve]
          repeat: true
          max: 2
          when: "n % 3 != 0"
      free_actions: [peek]
    - name: upkeep
      on_start: "n += 2"
actions:
  raise: {effect: "bids += 1"}
  give_up: {effect: "pass"}
  place: {effect: "n += 1"}
  improve: {condition: "n > 4", why: "too early", effect: "n += 2"}
  peek: {limit: 1, effect: "say 'peek'"}
triggers:
  on_turn:
    on: turn_start
    effect: "say 'turn of ' + text(event.player)"
  on_phase:
    on: phase_end
    effect: "say 'phase over: ' + event.phase"
end:
  late: {when: "round > 4", winners: "[]"}
  big: {when: "n > 40", winners: "[]", check: end_of_turn}
  phased: {when: "bids > 30", winners: "[]", check: end_of_phase}
  rounds: {when: "len(log) > 3", winners: "[]", check: end_of_round}
"""


def _game(tmp_path, text: str, mode: str, limits: Limits | None = None) -> Game:
    (tmp_path / mode).mkdir(exist_ok=True)
    path = tmp_path / mode / "rules.yaml"  # (one name: messages locate the same file on both engines)
    path.write_text(text, encoding="utf-8")
    return Game(load_spec(path, check=False), limits, mode)


def test_the_fast_path_runs_the_generated_flow_and_the_reference_the_stage_machine(tmp_path):
    fast, ref = _game(tmp_path, PLAIN, "compiled"), _game(tmp_path, PLAIN, "interpreted")
    assert ref.flow_frame is FlowFrame and ref.flow_source == ""
    assert fast.flow_frame is not FlowFrame and issubclass(fast.flow_frame, FlowFrame)
    assert fast.flow_frame.__name__ == "FlowFrame"  # the continuation names its frames the same on both
    assert type(fast.new_initial_state(seed=1).pos.stack[0]) is fast.flow_frame


def test_generated_source_holds_only_what_the_spec_has(tmp_path):
    plain = _game(tmp_path, PLAIN, "compiled").flow_source
    assert "RUN_BLOCK" not in plain and "EMIT(" not in plain  # no hooks, no triggers on flow events
    assert "CHECK_ACTION" not in plain and "ACTION_REFUSAL" not in plain  # `tick` can never be refused
    assert "def ends_end_of_round(" in plain and "def ends_immediate(" not in plain
    assert "ends_end_of_turn(it)" not in plain
    everything = _game(tmp_path, EVERYTHING, "compiled").flow_source
    assert "EMIT(pos, 'turn_start'" in everything and "EMIT(pos, 'phase_end'" in everything
    assert "EMIT(pos, 'turn_end'" not in everything  # nobody listens to turn_end
    # improve (a condition) once; peek (a limit), free at both steps: a refusal recorded, or a price checked
    assert everything.count("ACTION_REFUSAL(") + everything.count("CHECK_ACTION(") == 3
    for timing in ("immediate", "end_of_turn", "end_of_phase", "end_of_round"):
        assert f"def ends_{timing}(" in everything
    assert "c.current, c.round" in everything  # `late` reads the flow: the cursor is in its memo key


def test_spec_text_enters_the_source_only_as_constants(tmp_path):
    sneaky = EVERYTHING.replace("name: place", "name: \"place')\\nimport os #\"").replace(
        "\"Place something?\"", "\"x\\n    import sys\"").replace("why: \"too early\"", "why: \"early\\nimport re\"")
    game = _game(tmp_path, sneaky, "compiled")
    generated = flow_source(game.rules, {t: ends_of(game.rules, t) for t in TIMINGS})
    assert generated.source == game.flow_source
    assert "import" not in generated.source and "place" not in generated.source and "early" not in generated.source
    assert "x\n    import sys" in generated.consts  # the prompt, as a constant


@pytest.mark.parametrize("seed, players", [(s, 2 + s % 2) for s in range(12)])
def test_every_flow_construct_plays_the_same_on_both_engines(tmp_path, seed, players):
    fast, ref = _game(tmp_path, EVERYTHING, "compiled"), _game(tmp_path, EVERYTHING, "interpreted")
    assert seeded_trace(fast, seed, players, 400) == seeded_trace(ref, seed, players, 400)


def test_a_clone_taken_inside_a_suspended_hook_continues_the_same_on_both(tmp_path):
    games = [_game(tmp_path, EVERYTHING, mode) for mode in ("compiled", "interpreted")]
    states = [g.new_initial_state(players=3, seed=5) for g in games]
    for gs in states:
        assert gs.pos.decision.prompt == "warm up by how much?"  # inside turn_start: the hook asks
        assert gs.pos.stack[0].sub == 2  # the flow frame waits at the hook, on both engines
    copies = [gs.clone() for gs in states]
    for group in (states, copies):
        for gs in group:
            gs.apply(gs.legal_actions()[1])
    assert states[0].digest() == states[1].digest() == copies[0].digest() == copies[1].digest()


def test_a_flow_that_never_asks_stops_with_the_same_message(tmp_path):
    never = PLAIN.replace("steps: [{actions: [tick]}]", "on_start: \"n += 0\"").replace("n >= 6", "n < 0")
    messages = []
    for mode in ("compiled", "interpreted"):
        with pytest.raises(RunawayError) as err:
            _game(tmp_path, never, mode, Limits(flow=500)).new_initial_state(seed=1)
        messages.append(str(err.value).replace(f"/{mode}/", "/"))  # (each engine's spec is in its own folder)
    assert messages[0] == messages[1] and "500 stages" in messages[0]


@pytest.mark.parametrize("where", ["end", "phase", "step"])
def test_a_condition_that_is_not_true_or_false_fails_the_same_on_both(tmp_path, where):
    """The generated flow calls its conditions' compiled functions directly (no `it.truth`): a number where
    a condition belongs fails with the reference's message and location."""
    text = {"end": PLAIN.replace('"n >= 6"', '"n + 1"'),
            "phase": PLAIN.replace("- name: play", "- name: play\n      when: \"n + 1\""),
            "step": PLAIN.replace("steps: [{actions: [tick]}]", "steps: [{actions: [tick], when: \"n + 1\"}]")}[where]
    messages = []
    for mode in ("compiled", "interpreted"):
        game = _game(tmp_path, text, mode)
        if mode == "compiled":
            assert "it.truth(" not in game.flow_source and "C0(it, {})" in game.flow_source
        with pytest.raises(RuleError) as err:
            gs = game.new_initial_state(seed=1)
            for _ in range(8):
                gs.apply(gs.legal_actions()[0])
        messages.append(str(err.value).replace(f"/{mode}/", "/"))
    assert messages[0] == messages[1] and "condition must be true or false, got" in messages[0]


def test_make_game_uses_the_environment_engine(tmp_path, engine):
    """conftest.make_game builds the engine ORRERY_MODE names: both flows start the same game."""
    game = make_game(tmp_path, PLAIN)
    assert game.mode == engine
    assert (game.flow_frame is FlowFrame) == (engine == "interpreted")


ASKING = """
orrery: 1
game: {name: asking, players: {min: 2, max: 2}}
variables: {n: {start: 0}, log: {type: list, start: "[]"}}
flow:
  phases:
    - name: play
      steps: [{actions: [go]}]
actions:
  go:
    effect: |
      let a = n + 1
      log = log + [a]
      n += a
      choose k from [1, 2, 3] prompt "how many?"
      let b = k * 2
      n += b
      log = log + [b]
      choose j from [a, b] prompt "which?"
      n += j
end:
  enough: {when: "n > 60", winners: "[]"}
"""


def test_runs_of_statements_that_cannot_ask_run_inline_in_the_generated_step(tmp_path):
    """On the fast path the statements between two questions are written out in the block's generated step
    (compiler/effectgen.py): the frame moves past a whole run at once, and its index where it waits is the
    reference's (so the continuations are equal)."""
    fast, ref = _game(tmp_path, ASKING, "compiled"), _game(tmp_path, ASKING, "interpreted")
    states = [fast.new_initial_state(seed=3), ref.new_initial_state(seed=3)]
    for prompt, waits_after in (("how many?", 4), ("which?", 8)):  # (the step menu's one action answers itself)
        for gs in states:
            assert gs.pos.decision.prompt == prompt and gs.pos.stack[-2].i == waits_after  # (under the choose)
            gs.apply(0)
    module = fast.rules.compiled
    step = module.block_steps[id(fast.rules.actions["go"].effect)]
    body = module.source.split(f"def {step.__name__}(", 1)[1].split("\ndef ", 1)[0]
    assert "self.i = 3" in body and "self.i = 7" in body  # runs 0-2 and 4-6 at once; 3 and 7 ask
    assert "self.i = 1\n" not in body and "self.i = 5\n" not in body
    assert seeded_trace(fast, 3, 2, 60) == seeded_trace(ref, 3, 2, 60)
