"""Tests for core.fallibility: which actions can still be refused once chosen (and so need look-ahead).

A made-up game: a 3x3 board of counters and a pile of tokens; the action `act` runs the effect under
test. A choice the rules prove possible (a written list, an optional choice, a choice guarded by a test
of its own domain) makes no action fallible; anything else that can come up empty does.
"""

from __future__ import annotations

import textwrap

import pytest

from conftest import make_game

SPEC = """\
orrery: 1
game: {{name: guards, players: {{min: 2, max: 2}}}}
constants: {{keep: 1}}
tables:
  steps: {{values: [[0], [0, 1]], above: last}}
  gaps: {{values: [[0], []], above: last}}
  moves: {{values: {{slow: [1], fast: [1, 2]}}}}
  spare: {{values: {{slow: [1]}}, default: []}}
components:
  pieces:
    counter: {{attributes: {{owner: player}}, unlimited: true}}
    token: {{count: 3, start: pile}}
  zones:
    board: {{type: grid, width: 3, height: 3}}
    pile: {{}}
procedures:
  helper:
    params: [who]
    effect: |
{helper}
triggers:
{triggers}
flow:
  phases:
    - name: play
      steps: [{{actions: [act, rest]}}]
{hook}
actions:
  act:
    effect: |
{effect}
  rest:
    effect: say "rest"
end:
  full: {{when: "count(pieces(board)) >= 5"}}
"""

FREE = 'let xs = [c for c in cells(board) where empty(c)]'
# an optional choice whose filter says that a later choice from the empty cells has one
PICK = 'choose a from cells(board) where not empty(a) and any(empty(m) for m in cells(board)) optional'
# a choice between two places whose filter says, for one of them, that the pile has a token
SPLIT = 'choose c from ["pile", "board"] where c == "pile" and size(pile) > 0 or {} optional'


def _game(tmp_path, effect: str, helper: str = 'say "help"', triggers: str = "  {}", hook: str = ""):
    indent = textwrap.indent
    text = SPEC.format(effect=indent(effect, " " * 6), helper=indent(helper, " " * 6), triggers=triggers,
                       hook=hook)
    return make_game(tmp_path, text)


CASES = [
    ("a guarded choice", FREE + '\nif len(xs) > 0 { choose c from xs\ncreate counter {owner: current} in c }', False),
    ("the same choice unguarded", FREE + '\nchoose c from xs\ncreate counter {owner: current} in c', True),
    ("at least one item", FREE + '\nif len(xs) >= 1 { choose c from xs }', False),
    ("at least nought is no guard", FREE + '\nif len(xs) >= 0 { choose c from xs }', True),
    ("size of a zone", 'if size(pile) > 0 { choose t from pile\nmove t to cell(board, "a1") }', False),
    ("count of a zone", 'if count(pile) > 0 { choose t from pile }', False),
    ("not empty", 'if not empty(pile) { choose t from pile }', False),
    ("a guard inside an and", FREE + '\nif round > 0 and len(xs) > 0 { choose c from xs }', False),
    ("a guard of another domain", FREE + '\nif len(xs) > 0 { choose t from pile }', True),
    ("the guarded choice is not first", FREE + '\nif len(xs) > 0 { say "now"\nchoose c from xs }', True),
    ("a second choice in the guarded block",
     FREE + '\nif len(xs) > 0 { choose c from xs\nchoose d from xs where d != c }', True),
    ("any() guards a filtered choice", 'if any(empty(c) for c in cells(board)) { choose c from cells(board) where empty(c) }', False),
    ("any() with the name written differently", 'if any(empty(d) for d in cells(board)) { choose c from cells(board) where empty(c) }', False),
    ("any() with another name and filter", 'if any(empty(d) for d in cells(board)) { choose c from cells(board) where empty(c) and round > 0 }', True),
    ("any() with another filter", 'if any(empty(c) for c in cells(board)) { choose c from cells(board) where not empty(c) }', True),
    ("a random domain is never the same twice", 'if len(shuffled([1, 2])) > 0 { choose n from shuffled([1, 2]) }', True),
    ("a written list", 'choose n from [1, 2]', False),
    ("a written list with a filter", 'choose n from [1, 2] where n > round', True),
    ("an optional choice", 'choose c from cells(board) where empty(c) optional', False),
    ("a while guards its first choice", 'while size(pile) > 1 { choose t from pile\nmove t to cell(board, "a1") }', False),
    ("a bound that is a constant", 'while size(pile) > keep { choose t from pile\nmove t to cell(board, "a1") }', False),
    ("a bound written first", 'if 0 < size(pile) { choose t from pile }', False),
    ("a bound that may be negative", 'if size(pile) > round - 5 { choose t from pile }', True),
    ("a while whose choice is not first", 'while size(pile) > 0 { say "x"\nchoose t from pile\nmove t to cell(board, "a1") }', True),
    ("every cell of a fixed board", 'choose c from cells(board)', False),
    ("a row of a table whose every row has items", 'choose n from steps[round]', False),
    ("a row of a keyed table whose every row has items", 'choose n from moves["fast"]', False),
    ("a row of a table with an empty row", 'choose n from gaps[round]', True),
    ("a row of a table whose default is empty", 'choose n from spare["fast"]', True),
    ("a row of a table with a filter", 'choose n from steps[round] where n > 0', True),
    ("every direction", 'choose d from dirs("orthogonal")', False),
    ("a filter on the cells", 'choose c from cells(board) where empty(c)', True),
    ("a choice whose filter guards the next one", PICK + '\nif a != none { choose n from cells(board) where empty(n) }', False),
    ("the filter guards another choice", PICK + '\nif a != none { choose n from cells(board) where not empty(n) }', True),
    ("a statement between the choice and its test", PICK + '\nsay "x"\nif a != none { choose n from cells(board) where empty(n) }', True),
    ("a test that is not `!= none`", PICK + '\nif a == none { choose n from cells(board) where empty(n) }', True),
    ("the case of a filter that a branch tests", SPLIT.format('c != "pile" and round > 0') + '\nif c == "pile" { choose t from pile }', False),
    ("a case that leaves two alternatives", SPLIT.format('round > 0') + '\nif c == "pile" { choose t from pile }', True),
    ("a require", 'require round > 0', True),
    ("a perform", 'perform rest', True),
    ("a guarded choice in a procedure", 'call helper(current)', False),
]


@pytest.mark.parametrize("effect,fails", [(e, f) for _, e, f in CASES], ids=[n for n, _, _ in CASES])
def test_which_effects_can_refuse_the_move(tmp_path, effect, fails):
    game = _game(tmp_path, effect, helper=FREE + '\nif len(xs) > 0 { choose c from xs }')
    assert game.rules.may_fail("act") is fails
    assert game.rules.may_fail("rest") is False


def test_an_unguarded_choice_in_a_called_procedure_can_refuse(tmp_path):
    game = _game(tmp_path, 'call helper(current)', helper=FREE + '\nchoose c from xs')
    assert game.rules.may_fail("act") is True


def test_what_follows_every_action_counts_for_every_action(tmp_path):
    trigger = '  later:\n    when: "count(pieces(board)) == 4"\n    effect: |\n      choose t from pile\n      move t to cell(board, "c3")'
    game = _game(tmp_path, 'say "x"', triggers=trigger)
    assert game.rules.may_fail("act") and game.rules.may_fail("rest")  # the cascade after either may fail
    hook = '      turn_end: |\n        choose t from pile\n        move t to cell(board, "c3")'
    game = _game(tmp_path, 'say "x"', hook=hook)
    assert game.rules.may_fail("act") and game.rules.may_fail("rest")  # so may the turn's end


def test_a_guarded_choice_plays_the_same_games_as_a_replayed_one(tmp_path):
    """The guard only spares the replay: menus, answers and results are those of the unguarded spec."""
    placed = '\ncreate counter {owner: current} in c'
    guarded = _game(tmp_path, FREE + '\nif len(xs) > 0 { choose c from xs' + placed + ' }')
    replayed = _game(tmp_path, FREE + '\nrequire len(xs) > 0\nchoose c from xs' + placed)
    assert not guarded.rules.may_fail("act") and replayed.rules.may_fail("act")
    for seed in range(3):
        same_menus(guarded, replayed, seed)


def judging_nothing(monkeypatch, game):
    """The game's look-ahead analysis, made to judge no option without a replay (Fallible.sure: None)."""
    from orrery.interpreter.engine.fallible import Fallible, fallible_of

    fallible, sure = fallible_of(game.rules), Fallible.sure
    monkeypatch.setattr(Fallible, "sure", lambda self, d, pos: None if self is fallible else sure(self, d, pos))
    return fallible


def same_menus(one, other, seed: int) -> None:
    """A random game (seed) played on both: the same menu, and the same refusals with their reasons, at every
    step; the same end."""
    from orrery.interpreter.bots.factory import RandomBot

    a, b = one.new_initial_state(seed=seed), other.new_initial_state(seed=seed)
    bot = RandomBot(seed)
    while not b.is_terminal():
        assert [o.label for o in a.legal_options()] == [o.label for o in b.legal_options()]
        assert a.pos.decision.rejected == b.pos.decision.rejected
        choice = bot.choose(b)
        a.apply(choice)
        b.apply(choice)
    assert a.is_terminal() and a.returns() == b.returns()
