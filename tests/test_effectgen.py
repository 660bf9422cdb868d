"""Effects and actions generated as resumable state machines (compiler/effectgen.py, engine/framescompiled.py)
against the reference frames (engine/frames.py): which frames the fast path pushes, what the generated
source holds, and that a made-up game using every statement that may ask plays the same on both engines,
continuation included.  Made-up games only; the bundled games are compared step by step in
test_differential.py, random specs in test_generated_games.py."""

from __future__ import annotations

import pytest

from conftest import seeded_trace
from orrery.interpreter.core.decisions import RuleError
from orrery.interpreter.engine.frames import ActionFrame, BlockFrame
from orrery.interpreter.engine.game import Game
from orrery.rulespec.loader import load_spec

# every statement that may ask, inside effects: choose (filtered, optional, by another player, with a
# computed prompt, with one value left), an `if` whose branches ask or not, for, for ... chosen by, while,
# repeat, a filtered and ordered for, a procedure that asks, an event whose trigger asks, perform, settle
# with a state trigger that asks; an action with a cost (clamped), a limit and two parameters, the second
# depending on the first
ASKING = """
orrery: 1
game: {name: asking, players: {min: 2, max: 3}}
components:
  tracks:
    gold: {start: 3, min: 0, max: 9}
variables:
  n: {start: 0}
  picks: {type: list, start: "[]"}
  hot: {start: false}
flow:
  first_player: 0
  phases:
    - name: play
      steps: [{actions: [pick, trade, sweep, pay, chain]}]
procedures:
  bump:
    params: [amount]
    effect: |
      choose extra from [0, amount] prompt "bump by " + text(amount) + " more?"
      n += amount + extra
actions:
  pick:
    effect: |
      let base = n % 4
      choose a from [1, 2, 3, 4] where a != base prompt "pick one" else "that is the base"
      picks = picks + [a]
      if a % 2 == 0 {
        choose b from [a, a + 1] optional
        if b != none { n += b }
      } elif a == 3 {
        n += 3
      } else {
        call bump(a)
      }
      n += 1
  trade:
    cost: {gold: 2}
    limit: 1
    params:
      what: {from: "[1, 2, 3]", where: "what <= n + 2", why: "too big for now"}
      with_: {from: "[what, what * 10]"}
    effect: |
      n += what + with_
      choose who from players where who != current by next_player(current) prompt "who answers?"
      n += 1
  sweep:
    effect: |
      for k in [1, 2] {
        choose s from [k, k + 5]
        n += s
      }
      for p in players chosen by current prompt "who is next, at " + text(n) + "?" {
        n += 1
      }
      repeat 2 {
        choose r from [1, 2]
        n += r
      }
      for k in [3, 1, 2] where k != 2 order by k desc {
        choose o from [k, k + 1]
        n += o
      }
      while n % 3 != 0 {
        choose w from [1, 2]
        n += w
      }
  pay:
    effect: |
      emit paid(n)
      hot = true
      n += 2
      settle
      n += 1
  chain:
    effect: |
      choose only from [7]
      n += only
      perform pick
triggers:
  on_paid:
    on: paid
    effect: |
      choose t from [1, 2] prompt "tip?"
      n += t
  cool:
    when: "hot"
    effect: |
      choose c from [0, 1] prompt "cool down by?"
      hot = false
      n += c
end:
  enough: {when: "n >= 60", winners: "[]"}
"""


def _after_pick(statement: str) -> str:
    """ASKING with one more statement in `pick`'s effect, after the first choice is recorded."""
    return ASKING.replace("      picks = picks + [a]\n", f"      picks = picks + [a]\n      {statement}\n")


def _game(tmp_path, text: str, mode: str) -> Game:
    (tmp_path / mode).mkdir(exist_ok=True)
    path = tmp_path / mode / "rules.yaml"  # (one name: messages locate the same file on both engines)
    path.write_text(text, encoding="utf-8")
    return Game(load_spec(path, check=False), mode=mode)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("asking")
    return {mode: _game(tmp, ASKING, mode) for mode in ("compiled", "interpreted")}


def test_the_fast_path_pushes_generated_frames_with_the_reference_names(games):
    fast, ref = games["compiled"], games["interpreted"]
    module = fast.rules.compiled
    assert set(module.action_frames) == set(fast.rules.actions)
    assert len(module.block_frames) >= 10  # pick's body and branches, sweep's loop bodies, bump, the triggers...
    gs = fast.new_initial_state(seed=1)
    gs.apply_label("pick")
    frames = gs.pos.stack[1:]
    assert [type(f).__name__ for f in frames] == ["ActionFrame", "BlockFrame", "ChooseFrame"]
    action, block = frames[0], frames[1]
    assert type(action) is module.action_frames["pick"] and type(action) is not ActionFrame
    assert type(block) is not BlockFrame and isinstance(block, BlockFrame)
    assert type(block).step is module.block_steps[id(fast.rules.actions["pick"].effect)]
    assert block.i == 2  # waiting after the choose, as the reference frame would
    copy = gs.clone()
    assert type(copy.pos.stack[2]) is type(block)  # a clone keeps the generated class
    ref_gs = ref.new_initial_state(seed=1)
    ref_gs.apply_label("pick")
    assert [type(f) for f in ref_gs.pos.stack[1:3]] == [ActionFrame, BlockFrame]
    assert ref_gs.digest() == gs.digest()


def test_the_generated_source_holds_the_steps_and_only_constants(tmp_path):
    sneaky = ASKING.replace('prompt "pick one"', 'prompt "x\\n    import os"').replace(
        'why: "too big for now"', 'why: "big\\nimport re"')
    module = _game(tmp_path, sneaky, "compiled").rules.compiled
    source = module.source
    assert source.count(": an action (ActionFrame.step written out)") == 5
    assert "FR_ENTER(" in source and "FR_START_Emit(" in source and "FR_START_Settle(" in source
    for written_out in ("Choose", "If", "CallProc", "While", "Repeat", "For"):
        assert f"FR_START_{written_out}" not in source
    assert source.count(": a loop that may ask") == 5  # sweep's three fors (one chosen by), repeat and while
    assert source.count("trigger(s) of an event (EmitFrame.step written out)") == 1  # `paid`: its trigger asks
    assert source.count("FR_FOR_ITEMS(") == 2  # (the filtered and ordered one, the chosen one: effects.for_items)
    assert "import" not in source and "too big" not in source
    defs = [i + 1 for i, line in enumerate(source.splitlines()) if line.startswith(("def st", "def act", "def lp"))]
    assert defs and all(module.where(n).file.endswith(".yaml") for n in defs)


@pytest.mark.parametrize("seed, players", [(s, 2 + s % 2) for s in range(16)])
def test_every_asking_statement_plays_the_same_on_both_engines(games, seed, players):
    fast, ref = games["compiled"], games["interpreted"]
    assert seeded_trace(fast, seed, players, 300) == seeded_trace(ref, seed, players, 300)


def test_a_clone_inside_a_generated_step_continues_alone_and_as_the_reference(games):
    states = {mode: g.new_initial_state(seed=3) for mode, g in games.items()}
    for gs in states.values():
        gs.apply_label("sweep")
        assert gs.pos.decision.prompt == "choose s"
    copies = {mode: gs.clone() for mode, gs in states.items()}
    for gs in states.values():
        gs.apply(gs.legal_actions()[0])
    for gs in copies.values():
        gs.apply(gs.legal_actions()[1])
    assert states["compiled"].digest() == states["interpreted"].digest()
    assert copies["compiled"].digest() == copies["interpreted"].digest()
    assert states["compiled"].digest() != copies["compiled"].digest()


def test_an_action_pays_its_cost_asks_its_parameters_and_counts_its_use(games):
    for mode, game in games.items():
        gs = game.new_initial_state(players=3, seed=1)
        gs.apply_label("trade")
        assert gs.state.pvars[0]["gold"] == 1, mode  # paid on starting, before the parameters
        assert [o.label for o in gs.pos.decision.options] == ["1", "2"], mode  # 3 is too big (n = 0)
        assert gs.pos.decision.rejected == [(3, "too big for now")], mode
        gs.apply_label("1")
        assert [o.label for o in gs.pos.decision.options] == ["1", "10"], mode
        gs.apply_label("10")
        assert gs.pos.decision.prompt == "who answers?" and gs.pos.decision.player == 1, mode
        assert gs.state.cursor.turn_actions == {"trade": 1}, mode
        assert gs.state.uses == {(0, "trade"): (1, 1)}, mode  # (seat, key): (the turn, one use)


def test_an_event_whose_trigger_asks_pushes_its_generated_frame(games):
    frames = {}
    for mode, game in games.items():
        gs = game.new_initial_state(seed=2)
        gs.apply_label("pay")
        assert gs.pos.decision.prompt == "tip?"
        frames[mode] = [(type(f).__name__, type(f).__module__.rsplit(".", 1)[-1]) for f in gs.pos.stack[1:]]
    assert frames["compiled"] == [("ActionFrame", "framescompiled"), ("BlockFrame", "framescompiled"),
                                  ("EmitFrame", "framescompiled"), ("BlockFrame", "framescompiled"),
                                  ("ChooseFrame", "frames")]
    assert [name for name, _ in frames["interpreted"]] == [name for name, _ in frames["compiled"]]
    assert {module for _, module in frames["interpreted"]} == {"frames"}


def test_a_frame_entered_inside_a_run_steps_as_the_reference(games):
    """A block frame waits only after a statement that asks, so no position enters a run in its middle;
    a frame put there all the same is stepped the reference's way (FR_MIDRUN), not skipped."""
    results = []
    for mode, game in games.items():
        gs = game.new_initial_state(seed=2)
        gs.apply_label("pay")
        assert gs.pos.decision.prompt == "tip?"  # the trigger of `paid` asks: pay's block waits at 1
        block = gs.pos.stack[2]
        assert isinstance(block, BlockFrame) and block.i == 1
        block.i = 2  # inside the run `hot = true; n += 2`: `hot` stays false, so `cool` never fires
        gs.apply_label("2")
        results.append((gs.state.vars["n"], gs.state.vars["hot"], gs.pos.decision.prompt, gs.digest()))
    assert results[0] == results[1]
    assert results[0][:3] == (0 + 2 + 2 + 1, False, "play")


@pytest.mark.parametrize("statement, expected", [
    ('require a != 1 else "not one"', "not one"),
    ('n += a + "x"', "needs numbers"),
    ('choose q from [1, 2] where q > 5 else "nothing above five"', "nothing above five"),
    ('choose q from [1, 2] where q > 5', "it does not satisfy the rule at"),
])
def test_failures_inside_a_generated_step_are_the_references(tmp_path, statement, expected):
    """A require that fails takes the option off the menu with its reason; an error names the rule."""
    text = _after_pick(statement)
    outcomes = []
    for mode in ("compiled", "interpreted"):
        game = _game(tmp_path, text, mode)
        try:
            gs = game.new_initial_state(seed=1)
            gs.apply_label("pick")
            d = gs.pos.decision
            outcomes.append(("menu", [o.label for o in d.options],
                             [(v, str(r).replace(f"/{mode}/", "/")) for v, r in d.rejected]))
        except Exception as err:  # noqa: BLE001 - both engines must fail alike
            outcomes.append((type(err).__name__, str(err).replace(f"/{mode}/", "/")))
    assert outcomes[0] == outcomes[1]
    assert expected in repr(outcomes[0])


@pytest.mark.parametrize("statement, fragment", [
    ("choose q from [1, 2] by none", "`by` needs a player, got none"),
    ("choose q from [1, 2] by 5", "`by` needs a player, got the number 5"),
    ("for q in [1, 2] chosen by none {\n        n += q\n      }", "`by` needs a player, got none"),
])
def test_a_by_that_names_no_player_is_a_located_error_on_both_engines(tmp_path, statement, fragment):
    """(It was a Python error, reported as a bug: `int(None)`.)"""
    text = _after_pick(statement)
    messages = []
    for mode in ("compiled", "interpreted"):
        game = _game(tmp_path, text, mode)
        with pytest.raises(RuleError) as err:
            game.new_initial_state(players=2, seed=1).apply_label("pick")
        messages.append(str(err.value).replace(f"/{mode}/", "/"))
    assert messages[0] == messages[1]
    assert fragment in messages[0] and "rules.yaml:" in messages[0]


def test_a_by_that_names_a_seat_by_number_still_asks_that_player(games, tmp_path):
    text = _after_pick("choose q from [1, 2] by 1")
    for mode in ("compiled", "interpreted"):
        gs = _game(tmp_path, text, mode).new_initial_state(players=2, seed=1)
        gs.apply_label("pick")
        gs.apply(gs.legal_actions()[0])
        assert (gs.pos.decision.prompt, gs.pos.decision.player) == ("choose q", 1), mode


def test_loops_that_ask_push_generated_frames_with_the_reference_names(games):
    fast = games["compiled"]
    seen = []
    gs = fast.new_initial_state(seed=4)
    gs.apply_label("sweep")
    while not gs.is_terminal() and gs.pos.decision.kind == "choose":
        seen += [(type(f).__name__, type(f).__module__) for f in gs.pos.stack]
        gs.apply(gs.legal_actions()[0])
    loops = {name for name, _ in seen if name in ("ForFrame", "WhileFrame", "RepeatFrame", "ChosenOrderFrame")}
    assert {"ForFrame", "RepeatFrame", "ChosenOrderFrame"} <= loops  # (the while runs only when n % 3 != 0)
    assert all(module.endswith(".framescompiled") for name, module in seen if name in loops)
    assert all(module.endswith(".frames") for name, module in seen if name == "ChooseFrame")


@pytest.mark.parametrize("count, fragment", [('"two"', "repeat needs a number, got the text 'two'"),
                                             ("true", "repeat needs a number, got the truth value true")])
def test_a_repeat_count_that_is_no_number_fails_the_same_on_both_engines(tmp_path, count, fragment):
    text = ASKING.replace("repeat 2 {", f"repeat {count} {{")
    messages = []
    for mode in ("compiled", "interpreted"):
        game = _game(tmp_path, text, mode)
        with pytest.raises(RuleError) as err:  # (met by the step menu's look-ahead already)
            gs = game.new_initial_state(seed=1)
            gs.apply_label("sweep")
            while gs.pos.decision.kind == "choose":
                gs.apply(gs.legal_actions()[0])
        messages.append(str(err.value).replace(f"/{mode}/", "/"))
    assert messages[0] == messages[1] and fragment in messages[0]
