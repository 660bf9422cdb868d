"""Narration is built only when somebody reads it (dsl.md 4.21, issue 17 item 7), and cannot change the game.

A state from the API narrates once its `narration` is first read (the history is played again with narration
on); look-ahead copies and sampled playouts never do.  So that nobody can tell whether a game was narrated, a
`say` may not draw random numbers (the checker), its text counts against a loop budget of its own, and an
error while building it is told in the line instead of stopping the game.  Both engines, tiny made-up games.
"""

from __future__ import annotations

import re

import pytest

from conftest import make_game, new_state
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.engine.game import Game
from orrery.interpreter.reference import effects
from orrery.rulespec import ast as A
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

# Three cells in a row; each move says where it went, then what lies east of it (which fails at the edge
# and next to an empty cell: none has no owner).
SPEC = """
orrery: 1
game: {name: tell-yard, players: {min: 2, max: 2}}
components:
  pieces:
    peg: {attributes: {owner: player}, unlimited: true}
  zones:
    row: {type: grid, width: 3, height: 1}
variables:
  total: {type: int, start: 0}
flow:
  phases:
    - name: main
      steps: [{actions: [put]}]
actions:
  put:
    params:
      c: {from: cells(row), where: empty(c)}
    effect: |
      create peg {owner: current} in c
      total += 1
      say text(current) + " puts a peg on " + text(c)
      say "east of it: " + text(top(neighbor(c, "E")).owner)
end:
  full:
    when: total >= 3
    winners: "[]"
"""

TOLD = ["P1 puts a peg on b1", "east of it: none has no attribute 'owner'",
        "P2 puts a peg on c1", "east of it: expected a place (a zone or a cell), got none",
        "P1 puts a peg on a1", "east of it: P1", "game over (full): winner nobody"]


def _plain(lines: list[str]) -> list[str]:
    """Failed lines with their location and wrapper taken off: '(narration failed: F:L:C: why)' -> 'east of it: why'."""
    return [re.sub(r"^\(narration failed: .*?rules_\d+\.yaml:23:\d+: (.*)\)$", r"east of it: \1", x) for x in lines]


def test_a_state_narrates_once_its_narration_is_read(tmp_path, engine):
    game = make_game(tmp_path, SPEC)
    quiet, told = new_state(game), game.new_initial_state(players=2, seed=1, narrate=True)
    assert not quiet.narrating and told.narrating
    for state in (quiet, told):
        state.apply_label("b1")
    assert not quiet.narrating  # nobody asked: nothing was built
    assert quiet.narration == told.narration and _plain(told.narration) == TOLD[:2]
    assert quiet.narrating  # from now on it narrates as it goes
    for state in (quiet, told):
        state.apply_label("c1")  # (a1, the last cell, is answered by itself)
    assert quiet.narration == told.narration and _plain(told.narration) == TOLD
    assert quiet.digest() == told.digest() and quiet.is_terminal()


def test_a_say_that_fails_is_told_and_the_game_goes_on(tmp_path, engine):
    gs = new_state(make_game(tmp_path, SPEC))
    gs.apply_label("b1")
    failed = gs.narration[1]
    assert re.fullmatch(r"\(narration failed: .*rules_\d+\.yaml:23:\d+: none has no attribute 'owner'\)", failed)
    gs.apply_label("c1")
    assert gs.is_terminal() and gs.state.vars["total"] == 3


def test_both_engines_tell_the_same_lines(tmp_path):
    spec = make_game(tmp_path, SPEC).spec
    told = []
    for mode in ("compiled", "interpreted"):
        gs = Game(spec, mode=mode).new_initial_state(players=2, seed=1)
        gs.apply_label("b1")
        gs.apply_label("c1")
        told.append((gs.narration, gs.digest()))
    assert told[0] == told[1] and _plain(told[0][0]) == TOLD


# The effect loops 10 times over range(10) (20 loop ticks: the range built, then walked), then says a text
# that costs N + its length more (4 + 10 for range(4)).  The step's budget is 30: 20 + 14 fits only because
# a `say` counts against a budget of its own.
LOOPING = SPEC.replace('''      say text(current) + " puts a peg on " + text(c)
      say "east of it: " + text(top(neighbor(c, "E")).owner)''', '''      for i in range(10) { total += 0 }
      say text(range(N))''')


@pytest.mark.parametrize("n, line", [(4, "0, 1, 2, 3"),
                                     (40, "range(): range of 40 numbers is larger than the loop limit")])
def test_a_say_counts_against_a_loop_budget_of_its_own(tmp_path, engine, n, line):
    game = Game(make_game(tmp_path, LOOPING.replace("range(N)", f"range({n})")).spec, Limits(loop=30))
    quiet, told = new_state(game), game.new_initial_state(players=2, seed=1, narrate=True)
    for state in (quiet, told):
        state.apply_label("b1")
    assert quiet.digest() == told.digest()
    assert line in told.narration[0] and told.narration[0].startswith("(narration failed: ") == (n == 40)


def test_look_ahead_copies_build_no_narration(tmp_path, monkeypatch):
    """Each option of the menu is checked by a run on a copy (the `require` after the choice can fail); the
    copies' `say` builds nothing, so the lines built are those of the moves played, and no more."""
    spec = make_game(tmp_path, SPEC.replace('''    params:
      c: {from: cells(row), where: empty(c)}
    effect: |''', '''    effect: |
      choose c from cells(row) where empty(c) prompt "where"
      require text(c) != "a1" or total == 2 else "a1 comes last"''')).spec
    built = []
    say = effects.EXEC[A.Say]
    monkeypatch.setitem(effects.EXEC, A.Say, lambda it, node, env: (built.append(it.narrate), say(it, node, env)))
    gs = Game(spec, mode="interpreted").new_initial_state(players=2, seed=1, narrate=True)
    # checked by look-ahead: a1 fails
    assert gs.decision.prompt == "where" and [o.label for o in gs.legal_options()] == ["b1", "c1"]
    assert "a1 comes last" in gs.why_not_label("a1")
    looked = len(built)
    assert looked >= 4 and not any(built)  # two says on each option's copy, none built
    gs.apply_label("b1")
    # b1, then c1 and a1 (each left alone by its menu's look-ahead, answered by itself): two lines built a move
    assert gs.is_terminal() and built.count(True) == 6 and len(built) > 6 + looked
    assert [x for x in gs.narration if "puts" in x] == ["P1 puts a peg on b1", "P2 puts a peg on c1",
                                                        "P1 puts a peg on a1"]


def test_a_refused_answer_keeps_narrating(tmp_path, engine):
    """A checkpoint taken before the narration was first read is redone with narration on."""
    spec = make_game(tmp_path, SPEC.replace('''      create peg {owner: current} in c''', '''      require text(c) != "a1" or total == 2 else "a1 comes last"
      create peg {owner: current} in c''')).spec
    gs = Game(spec, Limits(lookahead=0)).new_initial_state(players=2, seed=1)  # options offered unchecked
    assert gs.narration == []
    with pytest.raises(Exception, match="a1 comes last"):
        gs.apply_label("a1")
    gs.apply_label("b1")
    assert gs.narration[0] == "P1 puts a peg on b1" and len(gs.narration) == 2


def test_a_sampled_state_has_no_narration(tmp_path, engine):
    gs = new_state(make_game(tmp_path, SPEC))
    other = gs.clone()
    other.narration  # (read: it narrates from now on)
    other.sample_step(Rng(3))
    assert not other.narrating
    with pytest.raises(RuntimeError, match="sample_step has no narration"):
        other.narration
    assert gs.narration == []  # the state it was cloned from is untouched


CHECKED = """
orrery: 1
game: {name: dice-yard, players: {min: 2, max: 2}}
variables:
  total: {type: int, start: 0}
functions:
  roll: {params: [], expr: "random_int(1, 6)"}
  twice: {params: [], expr: "roll() + roll()"}
flow:
  phases:
    - name: main
      steps: [{actions: [go]}]
actions:
  go:
    effect: |
      let r = random_int(1, 6)
      total += r
      SAY
end:
  enough:
    when: total >= 10
    winners: "[]"
"""


@pytest.mark.parametrize("say, message", [
    ('say text(r)', None),
    ('say "rolled " + text(random_int(1, 6))', r"a `say` may not draw random numbers: random_int\(\) would"),
    ('say text(twice())', r"a `say` may not draw random numbers: random_int\(\) \(through 'twice'\)"),
    ('say text(shuffled([1, 2]))', r"a `say` may not draw random numbers: shuffled\(\) would"),
])
def test_the_checker_refuses_random_draws_in_say(tmp_path, say, message):
    path = tmp_path / "rules.yaml"
    path.write_text(CHECKED.replace("SAY", say))
    if message is None:
        load_spec(path)
        return
    with pytest.raises(SpecError) as info:
        load_spec(path)
    assert re.search(r"rules\.yaml:18:\d+: error: " + message, str(info.value)), str(info.value)
