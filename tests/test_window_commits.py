"""`commit` inside a reaction window is refused (docs/dsl.md 4.24, 2.19): a commit asks every player at once,
which cannot happen while one player reacts.  The checker refuses a commit that an action answering a
window can reach (its effect, a procedure it calls, an action it performs, a trigger of an event it emits;
triggers of `action` and of a `settle`'s cascade; actions free at any time answer windows too), at the
commit's name, and `validate` exits 2; a spec run without the checks stops at such a commit with a located
rules error.
"""

from __future__ import annotations

import pytest

from conftest import make_game
from orrery.interpreter.core.decisions import RuleError
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

# a turn: `poke` opens `reply`, where the others may `answer`; ANSWER is the answer's effect
BASE = """
orrery: 1
game: {name: nudge, players: {min: 3, max: 3}}
variables:
  pokes: {start: 0}
  bids: {type: list, start: "[]"}
  armed: {type: bool, start: false}
flow:
  phases:
    - name: play
      steps: [{actions: [poke]}]
actions:
  poke:
    effect: |
      pokes += 1
      open reply()
  answer:
    effect: |
ANSWER
windows:
  reply:
    actions: [answer]
    ask: always
end:
  enough: {when: "pokes >= 4", winners: "[]"}
"""
COMMIT = "commit bid from [1, 2] by [current]"


def _spec(answer: str, extra: str = "") -> str:
    body = "\n".join("      " + line for line in answer.splitlines())
    return BASE.replace("ANSWER", body) + extra


CASES = {
    "in the answer": (_spec(COMMIT), "answer"),
    "through a procedure": (_spec("call decide()", "procedures:\n  decide:\n    effect: " + COMMIT + "\n"),
                            "answer"),
    "through a performed action": (_spec("perform bid_now").replace("actions:\n  poke:", "actions:\n  bid_now:\n    effect: " + COMMIT
                                            + "\n  poke:", 1), "answer"),
    "through an emitted event": (_spec("emit rang", "triggers:\n  on_rang:\n    on: rang\n    effect: " + COMMIT
                                       + "\n"), "answer"),
    "through the built-in event action": (_spec("pokes += 0", "triggers:\n  after_any:\n    on: action\n"
                                                "    effect: " + COMMIT + "\n"), "answer"),
    "through a settle": (_spec("armed = true\nsettle", "triggers:\n  fire:\n    when: armed\n    effect: |\n"
                                                       "      armed = false\n      " + COMMIT + "\n"), "answer"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_commit_an_answer_can_reach_is_refused_at_its_name(tmp_path, case):
    text, action = CASES[case]
    path = tmp_path / "nudge.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    found = [f for f in err.value.findings if "while a window is open" in f.message]
    assert len(found) == 1, err.value
    f = found[0]
    assert f"action '{action}' answers a window" in f.message and f.hint
    line = path.read_text(encoding="utf-8").splitlines()[f.span.line - 1]
    assert line[f.span.col - 1:].startswith("bid from")  # located at the commit's name


def test_an_action_free_at_any_time_answers_windows_too(tmp_path):
    text = _spec("pokes += 0").replace("actions:\n  poke:", "actions:\n  sneak:\n    anytime: always\n    effect: "
                                       + COMMIT + "\n  poke:", 1)
    path = tmp_path / "nudge.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError, match="action 'sneak' answers a window"):
        load_spec(path)


def test_a_commit_outside_the_answers_is_accepted(tmp_path):
    # the same commit in the turn's own action, before the window opens: fine
    text = _spec("pokes += 0").replace("      pokes += 1\n      open reply()",
                                       "      pokes += 1\n      " + COMMIT + "\n      open reply()")
    path = tmp_path / "nudge.yaml"
    path.write_text(text, encoding="utf-8")
    load_spec(path)


def test_validate_exits_2(tmp_path, capsys):
    from orrery.interpreter.cli.main import main

    path = tmp_path / "nudge.yaml"
    path.write_text(CASES["in the answer"][0], encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    out = capsys.readouterr()
    assert f"{path}:" in out.out + out.err and "cannot run inside another player's reaction" in out.out + out.err


def test_the_engine_refuses_a_commit_inside_a_window_with_a_located_rules_error(tmp_path, engine):
    # a spec loaded without the checks (make_game) reaches the commit: the engine stops at it
    text = CASES["in the answer"][0]
    gs = make_game(tmp_path, text).new_initial_state(seed=0)
    assert gs.decision.kind == "window"  # (`poke`, the only action, was taken by itself)
    with pytest.raises(RuleError, match="ran while a reaction window was open") as err:
        gs.apply_label("answer")
    span = err.value.findings[0].span
    at = next(i for i, line in enumerate(text.splitlines(), 1) if line.strip().startswith("commit bid"))
    assert span is not None and span.line == at
