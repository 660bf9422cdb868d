"""Questions and titles (rulespec/prompt_checks.py, rulespec/wording.py): every decision asks in the players'
words, the checker warns where one would ask in an identifier's, and `title:` names what the screen shows."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from rich.console import Console

from orrery.interpreter.cli.main import main
from orrery.interpreter.cli.render import render_state
from orrery.interpreter.engine.game import Game
from orrery.rulespec.loader import load_spec
from orrery.rulespec.wording import choice_prompt, loop_prompt, spoken, titled

# A made-up game: each turn a player takes a stone (the parameter asks), orders two tokens (one loop asks its
# own question, one the loop's words) and names a number; the game ends when the pool is empty.
SPEC = """\
orrery: 1
game:
  name: stone-order
  players: {min: 2, max: 2}
components:
  pieces:
    stone: {count: 4, start: pool}
  zones:
    pool: {type: pile}
    pile_of_p: {type: pile, per_player: true}
  tracks:
    gold_bar: {start: 0}
variables:
  round_mass: {title: Mass this round, start: 0}
  last_pick: {start: 0}
flow:
  phases:
    - name: hand_out
      title: Handing out
      steps: [{actions: [take]}]
actions:
  take:
    params:
      stone_left: {from: "pieces(pool)"}
    effect: |
      move stone_left to current.pile_of_p
      for token_no in [1, 2, 3] chosen by current prompt "Which token now, " + current.name + "?" {
        round_mass += token_no
      }
      for card_left in [4, 5] chosen by current {
        current.gold_bar += card_left
      }
      choose lucky_number from [1, 2]
      last_pick = lucky_number
end:
  pool_is_empty: {title: "The pool ran dry", when: "count(pool) == 0", winners: "[]"}
"""


@pytest.fixture()
def rules(tmp_path: Path) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


def test_decisions_left_to_their_variable_names_are_warned_where_they_are(rules, capsys):
    assert main(["validate", str(rules)]) == 0
    err = capsys.readouterr()
    text = err.out + err.err
    lines = SPEC.splitlines()
    at = {n + 1 for n, line in enumerate(lines) if "card_left in" in line or "choose lucky" in line}
    assert f"{rules}:{min(at)}:7: warning: this `for card_left ... chosen by` has no prompt: players would be " \
           f"asked 'which card left next?'" in text
    assert f"{rules}:{max(at)}:7: warning: this `choose lucky_number` has no prompt: players would be asked " \
           f"'choose lucky number'" in text
    assert "the parameter 'stone_left' of action 'take' has no prompt: players would be asked 'take: choose stone " \
           "left'" in text
    assert text.count("warning:") == 3  # the loop with a question of its own is not warned
    assert "hint: give it a question in the players' words" in text


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_a_chosen_loop_asks_its_own_question_each_time_and_the_others_in_words(rules, mode):
    game = Game(load_spec(rules), mode=mode)
    gs = game.new_initial_state(players=2, seed=1)
    asked = []
    while not gs.is_terminal() and len(asked) < 8:
        asked.append(gs.decision.prompt)
        gs.apply(gs.legal_actions()[0])
    # (the step menu of one action and the parameter among identical stones are answered by the engine)
    assert asked[:4] == ["Which token now, P1?", "Which token now, P1?", loop_prompt("card_left"),
                         choice_prompt("lucky_number")]
    assert loop_prompt("card_left") == "which card left next?"


def _screen(gs, width: int = 100) -> str:
    console = Console(record=True, width=width)
    console.print(render_state(gs, 0))
    return console.export_text()


def test_titles_and_words_on_the_screen_and_at_the_end(rules):
    game = Game(load_spec(rules))
    gs = game.new_initial_state(players=2, seed=1)
    gs.apply(gs.legal_actions()[0])
    screen = _screen(gs)
    assert "phase Handing out" in screen and "Mass this round: " in screen and "gold bar" in screen
    for name in ("hand_out", "round_mass", "gold_bar", "pile_of_p"):
        assert name not in screen
    while not gs.is_terminal():
        gs.apply(gs.legal_actions()[0])
    assert "game over (The pool ran dry): winner nobody" in gs.narration
    assert "Game over: The pool ran dry" in _screen(gs)


def test_titled_reads_each_kind_of_name():
    model = load_spec_text(SPEC).model
    assert titled(model, "phase", "hand_out") == "Handing out"
    assert titled(model, "end", "pool_is_empty") == "The pool ran dry"
    assert titled(model, "variable", "round_mass") == "Mass this round"
    assert titled(model, "variable", "last_pick") == "last pick"
    assert titled(model, "track", "gold_bar") == "gold bar"
    assert titled(model, "zone", "pile_of_p") == "pile of p"
    assert spoken("three_in_a_row") == "three in a row" and spoken("x", "Ex") == "Ex"


def load_spec_text(text: str):
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "rules.yaml"
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return load_spec(path)
