"""The resumable engine: a position is state + continuation, answering continues it, nothing runs twice."""

from __future__ import annotations

import pytest

from conftest import make_game
from orrery.interpreter.bots.factory import RandomBot
from orrery.interpreter.reference.evaluator import Interp
from orrery.interpreter.engine.game import Game
from orrery.interpreter.engine.gamefiles import resolve_game

CHAIN = """
orrery: 1
game: {{name: chain, players: {{min: 1, max: 1}}}}
variables: {{total: {{start: 0}}}}
flow:
  phases:
    - name: play
      steps: [{{actions: [chain]}}]
actions:
  chain:
    effect: |
      say "start"
      repeat {k} {{
        choose x from [0, 1] prompt "bit?"
        total += x
      }}
      say "end"
end:
  done: {{when: "true", check: end_of_turn, winners: "[]"}}
"""


def _evaluations(tmp_path, k: int, monkeypatch) -> tuple[int, list[str]]:
    """Expressions evaluated to play the chain of k choices (interpreted), and the narration."""
    game = make_game(tmp_path, CHAIN.format(k=k), name=f"chain{k}.yaml")
    game = Game(game.spec, mode="interpreted")
    calls = {"n": 0}
    original = Interp.ev

    def counting(self, node, env):
        calls["n"] += 1
        return original(self, node, env)

    monkeypatch.setattr(Interp, "ev", counting)
    gs = game.new_initial_state(seed=1)
    while not gs.is_terminal():
        gs.apply(gs.legal_actions()[-1])
    monkeypatch.setattr(Interp, "ev", original)
    return calls["n"], gs.narration


def test_each_answer_costs_the_same_however_long_the_chain(tmp_path, monkeypatch):
    """No answer re-runs what came before it: the work is linear in the number of decisions."""
    counts = {k: _evaluations(tmp_path, k, monkeypatch) for k in (1, 8, 64)}
    (c1, n1), (c8, _), (c64, n64) = counts[1], counts[8], counts[64]
    per = (c8 - c1) / 7
    assert per > 0 and c64 - c1 == per * 63, counts
    assert n1.count("start") == 1 and n64.count("start") == 1  # said once, not once per answer
    assert n64.count("end") == 1


def test_a_clone_mid_effect_continues_alone():
    """Bubble Singularity asks inside actions: clone at such a decision, continue both the same way."""
    game = Game.load(resolve_game("bubble-singularity"))
    gs = game.new_initial_state(players=2, seed=3)
    bot = RandomBot(5)
    for _ in range(300):
        if gs.is_terminal():
            break
        if gs.decision.kind == "choose":
            twin = gs.clone()
            assert len(twin.pos.stack) > 1  # the effect's frames are part of the copy
            assert twin.digest() == gs.digest()
            for _ in range(20):
                if gs.is_terminal():
                    break
                choice = bot.choose(gs)
                gs.apply(choice)
                twin.apply(choice)
                assert twin.state.digest() == gs.state.digest() and twin.narration == gs.narration
            return
        gs.apply(bot.choose(gs))
    pytest.fail("no decision inside an effect was met")


def test_a_clone_does_not_share_the_effects_locals(tmp_path):
    """Answering one copy leaves the other's suspended effect as it was."""
    game = make_game(tmp_path, CHAIN.format(k=3))
    gs = game.new_initial_state(seed=1)
    gs.apply(1)  # 1 then 1 then 1 on the original, 1 then 0 then 0 on the clone
    twin = gs.clone()
    for a in (1, 1):
        gs.apply(a)
    for a in (0, 0):
        twin.apply(a)
    assert gs.state.vars["total"] == 3 and twin.state.vars["total"] == 1
    assert gs.is_terminal() and twin.is_terminal()


FORCED = """
orrery: 1
game: {name: forced, players: {min: 1, max: 1}}
variables: {got: {start: 0}}
flow:
  phases:
    - name: play
      steps: [{actions: [go]}]
actions:
  go:
    effect: |
      choose x from [7] prompt "only seven?"
      got = x
      choose y from [1, 2] prompt "one or two?"
      got += y
end:
  done: {when: "got > 0", winners: "[]"}
"""


def test_every_decision_is_in_the_history_forced_ones_marked(tmp_path):
    gs = make_game(tmp_path, FORCED).new_initial_state(seed=0)
    assert gs.decision.prompt == "one or two?"
    gs.apply_label("2")
    assert gs.state.vars["got"] == 9
    assert [(h.prompt, h.label, h.auto) for h in gs.steps] == [
        ("play", "go", True), ("only seven?", "7", True), ("one or two?", "2", False)]


def test_a_refused_answer_leaves_the_position_as_it_was(tmp_path):
    from orrery.interpreter.core.valueops import Limits
    from orrery.interpreter.engine.game import IllegalMove

    text = FORCED.replace('      got += y\n', '      got += y\n      require y == 1 else "only one"\n')
    gs = make_game(tmp_path, text).new_initial_state(seed=0)
    # look-ahead knows 2 fails: only 1 is left, so it was answered for the player
    assert gs.is_terminal() and gs.state.vars["got"] == 8
    blind = make_game(tmp_path, text, limits=Limits(lookahead=0)).new_initial_state(seed=0)
    before = (blind.state.digest(), blind.digest(), list(blind.steps), list(blind.narration))
    with pytest.raises(IllegalMove, match="only one"):
        blind.apply_label("2")
    assert (blind.state.digest(), blind.digest(), list(blind.steps), list(blind.narration)) == before
    blind.apply_label("1")
    assert blind.is_terminal() and blind.state.vars["got"] == 8


def test_the_digest_covers_a_suspended_effects_locals(tmp_path):
    """Same state, same place in the effect, different local value: different positions."""
    text = CHAIN.format(k=2).replace('        total += x\n', '        let last = x\n')
    game = make_game(tmp_path, text)
    a = game.new_initial_state(seed=1)
    b = a.clone()
    a.apply(0)
    b.apply(1)
    assert a.state.digest() == b.state.digest()  # nothing but the local `last` differs
    assert a.digest() != b.digest()


def test_apply_without_keeping_a_copy_plays_the_same_and_still_refuses(tmp_path):
    from orrery.interpreter.core.valueops import Limits
    from orrery.interpreter.engine.game import IllegalMove

    text = FORCED.replace('      got += y\n', '      got += y\n      require y == 1 else "only one"\n')
    game = make_game(tmp_path, text, limits=Limits(lookahead=0))  # every option offered unchecked
    kept, fast = game.new_initial_state(seed=0), game.new_initial_state(seed=0)
    kept.apply(0)
    fast.apply(0, keep=False)
    assert fast.digest() == kept.digest() and fast.steps == kept.steps
    lost = game.new_initial_state(seed=0)
    with pytest.raises(IllegalMove, match="only one"):
        lost.apply(1, keep=False)
    assert lost.decision is None  # nothing kept to go back to: the state is not to be used again


LONG = """
orrery: 1
game: {name: long, players: {min: 2, max: 2}}
variables: {total: {start: 0}, turns: {start: 0}}
flow:
  phases:
    - name: play
      order: clockwise
      steps: [{actions: [go]}]
actions:
  go:
    effect: |
      turns += 1
      choose k from [5] prompt "only five?"
      let r = random_int(1, 6)
      say "rolled " + text(r)
      choose x from [1, 2, 3] prompt "how many?"
      require x != 3 else "three is never allowed"
      total += x * r + k
end:
  done: {when: "turns >= 60", winners: "[]"}
"""


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_refused_answers_go_back_exactly_however_far_the_last_checkpoint(tmp_path, mode):
    """A refused answer (found only by running it: no look-ahead) is undone by redoing the answers since
    the last checkpoint: after each refusal the position, history and narration are those before it, and
    the game goes on exactly as a twin that was never refused anything."""
    from orrery.interpreter.core.valueops import Limits
    from orrery.interpreter.engine.driver import REDO_EVERY
    from orrery.interpreter.engine.game import IllegalMove

    game = Game(make_game(tmp_path, LONG).spec, limits=Limits(lookahead=0), mode=mode)
    gs, twin = game.new_initial_state(seed=4), game.new_initial_state(seed=4)
    bot, refused, answered = RandomBot(9), 0, 0
    while not gs.is_terminal():
        before = (gs.digest(), list(gs.steps), list(gs.narration), gs.legal_actions())
        if gs.decision.prompt == "how many?":
            with pytest.raises(IllegalMove, match="three is never allowed"):
                gs.apply_label("3")
            refused += 1
            assert (gs.digest(), list(gs.steps), list(gs.narration), gs.legal_actions()) == before
        choice = bot.choose(gs)
        if choice == 2 and gs.decision.prompt == "how many?":
            choice = 1
        gs.apply(choice)
        twin.apply(choice)
        answered += 1
        assert gs.digest() == twin.digest() and gs.steps == twin.steps and gs.narration == twin.narration
    assert refused >= 2 * REDO_EVERY and answered > 3 * REDO_EVERY  # refusals at every distance from a checkpoint


def test_a_sampled_state_still_goes_back_when_an_answer_is_refused(tmp_path):
    """sample_step keeps no checkpoint; the next kept answer takes one first, so a refusal still leaves the
    position as it was."""
    from orrery.interpreter.core.rng import Rng
    from orrery.interpreter.core.valueops import Limits
    from orrery.interpreter.engine.game import IllegalMove

    gs = Game(make_game(tmp_path, LONG).spec, limits=Limits(lookahead=0)).new_initial_state(seed=4)
    rng = Rng(3)
    for _ in range(7):
        gs.sample_step(rng)
    while gs.decision.prompt != "how many?":
        gs.apply(gs.legal_actions()[0])
    before = (gs.digest(), list(gs.steps))  # (a sampled state has no narration: nobody reads a playout's)
    with pytest.raises(IllegalMove, match="three is never allowed"):
        gs.apply_label("3")
    assert (gs.digest(), list(gs.steps)) == before
    gs.apply_label("1")
    assert gs.decision is not None
