"""Tests for rulespec.checker: static checks of names, calls, statements, attributes, types and flow.

Each case is a piece of YAML placed at the top of the spec file (so its line
numbers are the file's), completed by the default sections of `BASE` that it does
not define itself.  Expected findings are (severity, "line:col", message fragment);
every expected finding must be reported, and no error that is not expected.
"""

from __future__ import annotations

import re
from pathlib import Path
from textwrap import dedent

import pytest

from orrery.rulespec.checker import check_spec
from orrery.rulespec.errors import Finding, SpecError
from orrery.rulespec.loader import load_spec

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "checker"

BASE = {
    "orrery": "orrery: 1\n",
    "game": "game: {name: t, players: {min: 2, max: 2}}\n",
    "components": dedent("""\
        components:
          pieces:
            stone: {attributes: {owner: player, color: [red, blue]}, unlimited: true}
          zones:
            board: {type: grid, width: 3, height: 3}
            bag: {type: bag}
            hand: {type: hand, per_player: true}
          tracks:
            score: {per_player: true}
        """),
    "flow": dedent("""\
        flow:
          first_player: 0
          phases:
            - name: play
              steps:
                - actions: [place]
        """),
    "actions": dedent("""\
        actions:
          place:
            params:
              sq: {from: cells(board), where: empty(sq), prompt: "Where do you place a stone?"}
            effect: "create stone {owner: current} in sq"
        """),
    "end": dedent("""\
        end:
          full:
            when: all(not empty(c) for c in cells(board))
        """),
    "ranking": "ranking: {by: [p.score]}\n",
}


def spec_text(case: str) -> str:
    """The case's YAML first (its lines keep their numbers), then the BASE sections it lacks."""
    case = dedent(case)
    present = set(re.findall(r"^([a-z_]+):", case, re.M))
    return case + "".join(text for key, text in BASE.items() if key not in present)


def findings(tmp_path: Path, case: str) -> list[Finding]:
    """Everything check_spec reports about a case (errors and warnings)."""
    path = tmp_path / "rules.yaml"
    path.write_text(spec_text(case))
    return check_spec(load_spec(path, check=False))


def where(f: Finding) -> str:
    return f"{f.span.line}:{f.span.col}" if f.span else "?"


def show(fs: list[Finding]) -> str:
    return "\n".join(f"{f.severity} {where(f)} {f.message}" for f in fs)


E, W = "error", "warning"

CASES = [
    # ------------------------------------------------------------------ 1. names and scoping
    pytest.param("""\
        actions:
          place:
            params:
              sq: {from: cells(bord)}
            effect: create stone in sq
        """, [(E, "4:24", "unknown name 'bord' (did you mean 'board'?)")], id="unknown-name-did-you-mean"),
    pytest.param("""\
        actions:
          place:
            params:
              sq: {from: cells(board), prompt: "Where?"}
            effect: |
              if empty(sq) {
                let n = 1
              }
              say n
              let k = count(c for c in cells(board))
              say c
              choose d from adjacent(sq)
              say d.label
              create stone in sq as s
              say s.color
        """, [(E, "9:11", "unknown name 'n'"), (E, "11:11", "unknown name 'c'")], id="block-and-comprehension-scopes"),
    pytest.param("""\
        actions:
          place:
            params:
              first: {from: cells(board)}
              second: {from: adjacent(first), where: second != first and third == none}
              third: {from: cells(board)}
            effect: say text(first) + text(second) + text(__rule__)
        """, [(E, "5:66", "unknown name 'third'"), (E, "7:51", "unknown name '__rule__'")],
        id="action-params-see-earlier-params-only"),
    pytest.param("""\
        actions:
          place:
            params:
              sq: {from: cells(board), prompt: "Where?"}
            effect: |
              let board = 1
              for current in players { say current }
              create stone in sq
        """, [(E, "6:11", "local name 'board' hides the zone 'board'"),
              (E, "7:11", "local name 'current' hides the special name 'current'")], id="shadowing"),
    pytest.param("""\
        end:
          full:
            when: p.score > 3
        ranking:
          by: [p.score]
        triggers:
          t:
            when: event.name == "x"
            effect: say "hi"
          u:
            on: turn_end
            for: c in cells(board)
            when: event.player == current
            effect: say c
          v:
            for: c in cells(board)
            when: not empty(c)
            effect: destroy pieces(c)
        """, [(E, "3:11", "unknown name 'p'"), (E, "8:11", "unknown name 'event'"),
              (E, "12:10", "`for` only works on state triggers"), (E, "14:17", "unknown name 'c'")],
        id="implicit-names-per-context"),
    pytest.param("""\
        components:
          pieces:
            stone:
              attributes: {owner: player}
              unlimited: true
              label: text(it.owner)
              symbol: text(me.owner)
          zones:
            board: {type: grid, width: 3, height: 3}
            hand: {type: hand, per_player: true}
          tracks:
            score: {per_player: true, start: p.seat}
            doom: {per_player: false, start: p.seat}
        actions:
          place:
            params:
              sq: {from: cells(board), prompt: "Where?"}
            effect: move top(hand) to sq
        """, [(E, "7:20", "unknown name 'me'"), (E, "13:38", "unknown name 'p'"),
              (E, "18:22", "unknown name 'hand'")], id="it-and-p-and-per-player-zone"),
    # ------------------------------------------------------------------ 2. calls and declarations
    pytest.param("""\
        functions:
          near:
            params: [a, b]
            expr: distance(a, b) <= 1
        actions:
          place:
            params:
              sq: {from: cells(board), where: "near(sq) and cont(sq) == 0 and empty(sq, 2)"}
            effect: 'say text(min([1], dflt: 0)) + text(near(sq, b: sq, c: 1))'
        """, [(E, "8:40", "function 'near' is missing argument 'b'"),
              (E, "8:53", "unknown function 'cont' (did you mean 'count'?)"),
              (E, "8:71", "empty() takes 1 argument, got 2"),
              (E, "9:32", "min() has no keyword argument 'dflt' (it takes: default)"),
              (E, "9:65", "function 'near' has no parameter 'c'")], id="calls-and-arity"),
    pytest.param("""\
        functions:
          count:
            expr: "1"
          even:
            params: [n]
            expr: if n == 0 then true else odd(n - 1)
          odd:
            params: [n]
            expr: if n == 0 then false else even(n - 1)
          loop:
            expr: loop()
        variables:
          round: {type: int}
          pass: {type: int}
          "my var": {type: int}
        procedures:
          go:
            params: [board]
            effect: say "go"
        """, [(E, "2:3", "function 'count' has the name of the built-in function 'count'"),
              (E, "4:3", "function 'even' is recursive (even -> odd -> even)"),
              (E, "10:3", "function 'loop' is recursive (loop -> loop)"),
              (E, "13:3", "variable 'round' has the name of the special name 'round'"),
              (E, "14:3", "variable 'pass' uses the keyword 'pass'"),
              (E, "15:3", "variable 'my var' is not a valid name"),
              (E, "18:14", "local name 'board' hides the zone 'board'")], id="reserved-names-and-recursion"),
    pytest.param("""\
        variables:
          board: {type: int}
          score: {per_player: true, type: int}
        """, [(E, "2:3", "variable 'board' has the same name as the zone 'board'"),
              (E, "3:3", "variable 'score' has the same name as the track 'score'")], id="duplicate-names"),
    # ------------------------------------------------------------------ 3. statements
    pytest.param("""\
        procedures:
          bump:
            params: [who]
            effect: who.score += 1
        actions:
          place:
            params:
              sq: {from: cells(board), prompt: "Where?"}
            effect: |
              create stne in sq
              call bump()
              call bmp(current)
              perform jump
              end_game fulll
              emit scored(current)
              board = 3
              sq.size = 1
              current.hand = 2
              players[0] = 1
              current.score += 1
        """, [(E, "10:14", "unknown piece kind 'stne' (did you mean 'stone'?)"),
              (E, "11:7", "procedure 'bump' is missing argument 'who'"),
              (E, "12:12", "unknown procedure 'bmp' (did you mean 'bump'?)"),
              (E, "13:15", "unknown action 'jump'"),
              (E, "14:16", "end_game names 'fulll', which is not an end condition (did you mean 'full'?)"),
              (W, "15:12", "no trigger listens to event 'scored'"),
              (E, "16:7", "cannot assign to the zone 'board'"),
              (E, "17:10", "cannot assign to 'size'"),
              (E, "18:15", "cannot assign to 'hand'"),
              (E, "19:7", "cannot assign to an element of a list or table")], id="statements"),
    pytest.param("""\
        actions:
          place:
            params:
              sq: {from: cells(board), prompt: "Where?"}
            effect: |
              create stone {owner: current, colour: "red"} in sq as s
              s.weight = 3
              move s to bag at top
        """, [(E, "6:45", "piece kind 'stone' declares no attribute 'colour' (did you mean 'color'?)"),
              (E, "7:9", "cannot assign to 'weight'")], id="piece-attributes-in-create-and-assign"),
    # ------------------------------------------------------------------ 4. attributes
    pytest.param("""\
        functions:
          f:
            params: [x]
            expr: x.colr == "red"
        actions:
          place:
            params:
              sq: {from: cells(board), where: current.scroe > 0 and sq.color == "red"}
            effect: 'create stone {owner: current.seat} in sq'
        """, [(E, "4:13", "no attribute 'colr' on anything in this spec (did you mean 'color'?)"),
              (E, "8:47", "a player has no attribute 'scroe' (did you mean 'score'?)"),
              (E, "8:64", "a cell has no attribute 'color'")], id="attributes"),
    # ------------------------------------------------------------------ 5. types
    pytest.param("""\
        tables:
          points: {values: {a: 1}}
        end:
          full:
            when: count(pieces(bag))
          other:
            when: not size(bag) and points["a"] == 1 and [1] + [2] == [1, 2] and "a" + "b" == "ab"
          third:
            when: ("a" - 1 == 0) or (current < "x") or (1 and true) or (if 3 then true else false)
        """, [(E, "5:11", "type error: condition must be true/false, but this is a number"),
              (E, "7:15", "type error: 'not' needs true/false, but this is a number"),
              (E, "9:12", "type error: '-' needs numbers, but this is text"),
              (E, "9:40", "type error: '<' needs numbers or two texts, but this is text"),
              (E, "9:49", "type error: 'and' needs true/false, but this is a number"),
              (E, "9:68", "type error: condition must be true/false, but this is a number")], id="types"),
    pytest.param("""\
        variables:
          taken: {type: bool, start: "3"}
        actions:
          place:
            condition: size(bag)
            params:
              sq: {from: count(bag)}
            effect: |
              taken = "yes"
              current.score += "x"
              repeat "twice" { say "hi" }
              move 3 to sq
              for c in 5 { say c }
        """, [(E, "2:31", "type error: 'taken' holds true/false, but its start is a number"),
              (E, "5:16", "type error: condition must be true/false, but this is a number"),
              (E, "7:18", "type error: cannot go through a number"),
              (E, "9:15", "type error: 'taken' holds true/false, but this is text"),
              (E, "10:24", "type error: '+=' needs a number, but this is text"),
              (E, "11:14", "type error: repeat needs a number, but this is text"),
              (E, "12:12", "type error: expected a piece or a list of pieces, but this is a number"),
              (E, "13:16", "type error: cannot go through a number")], id="types-in-statements"),
    # ------------------------------------------------------------------ 6. flow and structure
    pytest.param("""\
        flow:
          phases:
            - name: play
              order: by
              steps:
                - actions: [place, plaec]
              free_actions: [look]
            - name: play
              order_by: p.score
              steps:
                - actions: [place]
            - name: never
              when: false
              steps:
                - actions: [place]
            - name: idle
        actions:
          place:
            params:
              sq: {from: cells(board), prompt: "Where?"}
            effect: create stone in sq
          spare:
            effect: say "never"
        end:
          full:
            when: all(not empty(c) for c in cells(board))
          resign:
            description: Only by end_game, which nobody says.
        """, [(E, "4:14", "phase 'play' has `order: by` but no `order_by`"),
              (E, "6:28", "unknown action 'plaec' (did you mean 'place'?)"),
              (E, "7:22", "unknown action 'look'"),
              (E, "8:13", "phase name 'play' is used twice (first at line 3)"),
              (E, "9:7", "phase 'play' has `order_by` but its order is 'clockwise'"),
              (E, "13:13", "phase 'never' can never do anything: its `when` is false"),
              (E, "16:13", "phase 'idle' can never do anything"),
              (W, "22:3", "action 'spare' is never offered"),
              (E, "27:3", "end condition 'resign' can never happen")], id="flow"),
    pytest.param("""\
        triggers:
          bad_for:
            for: cells(board)
            when: "true"
            effect: say "x"
          forever:
            effect: say "again"
          deaf:
            on: scord
            effect: say "never"
        actions:
          place:
            cost: {bag: 1, score: 1}
            params:
              sq: {from: cells(board), prompt: "Where?"}
            effect: create stone in sq
        """, [(E, "3:10", "a trigger's `for` must be `NAME in EXPR`"),
              (E, "6:3", "a state trigger needs `when`, or it would fire forever"),
              (W, "9:9", "trigger 'deaf' listens to 'scord', which is not a built-in event and nothing emits"),
              (E, "13:12", "cost 'bag' is not a per-player track or variable")], id="triggers-and-cost"),
    pytest.param("""\
        components:
          pieces:
            stone:
              attributes: {color: [red, blue], size: int}
              instances:
                - {color: red, size: 2}
                - {color: green, weight: 3, count: 2}
                - {color: blue, size: big}
              start: current.hand
            token:
              start: board
          zones:
            board:
              type: grid
              width: 3
              height: 3
              cell_attributes: {bonus: int}
              cells:
                c3: {bonus: 1}
                d1: {bonus: 2}
                b2: {bonsu: 2}
            map:
              type: graph
              nodes: [home, away]
              edges: [[home, away], [home, castle]]
            hand: {type: hand, per_player: true}
        actions:
          place:
            params:
              sq: {from: cells(board), prompt: "Where?"}
            effect: move top(current.hand) to sq
        ranking: {by: ["0"]}
        """, [(E, "7:19", "'green' is not a value of 'color' (one of: red, blue)"),
              (E, "7:26", "piece kind 'stone' declares no attribute 'weight'"),
              (E, "8:31", "'big' does not fit attribute 'size'"),
              (W, "9:14", "every 'stone' starts in one player's 'hand'"),
              (E, "11:14", "'board' is a board: pieces go into its cells"),
              (E, "20:9", "cell 'd1' is outside grid 'board' (3x3)"),
              (E, "21:14", "zone 'board' declares no cell attribute 'bonsu' (did you mean 'bonus'?)"),
              (E, "25:36", "graph 'map' has no node 'castle'")], id="components"),
    pytest.param("""\
        flow:
          first_player: 0
          phases:
            - name: play
              turns: until_pass
              steps:
                - actions: [place]
            - name: empty
              steps:
                - actions: []
        triggers:
          t:
            on: round_end
            order: "1"
            effect: say "x"
        """, [(W, "5:14", "phase 'play' runs until everyone passes, but no effect ever says `pass`"),
              (E, "8:13", "phase 'empty' can never do anything: it offers no action and runs no effect"),
              (W, "14:5", "`order` only matters for state triggers")], id="flow-warnings"),
    # ------------------------------------------------------------------ several at once
    pytest.param("""\
        actions:
          place:
            params:
              sq: {from: cells(bord), where: empty(sq) and 1, prompt: "Where?"}
            effect: |
              create gem in sq
              say undefined
        """, [(E, "4:24", "unknown name 'bord'"),
              (E, "4:52", "type error: 'and' needs true/false, but this is a number"),
              (E, "6:14", "unknown piece kind 'gem'"),
              (E, "7:11", "unknown name 'undefined'")], id="several-errors-at-once"),
]


@pytest.mark.parametrize("case, expected", CASES)
def test_checker_findings(tmp_path: Path, case: str, expected: list[tuple[str, str, str]]) -> None:
    got = findings(tmp_path, case)
    for severity, loc, fragment in expected:
        assert any(f.severity == severity and where(f) == loc and fragment in f.message for f in got), \
            f"missing {severity} at {loc}: {fragment!r}; got:\n{show(got)}"
    expected_errors = sum(1 for s, _, _ in expected if s == E)
    errors = [f for f in got if f.severity == E]
    assert len(errors) == expected_errors, f"unexpected errors:\n{show(got)}"


def test_base_sections_are_clean(tmp_path: Path) -> None:
    assert findings(tmp_path, "") == []


def test_load_spec_raises_all_errors_at_once(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(spec_text(CASES[-1].values[0]))
    with pytest.raises(SpecError) as info:
        load_spec(path)
    found = [(where(f), f.message) for f in info.value.findings]
    assert [loc for loc, _ in found] == ["4:24", "4:52", "6:14", "7:11"]  # sorted by position
    assert "error: unknown name 'bord' (did you mean 'board'?)" in info.value.render()


def test_findings_in_a_variant_point_into_the_variant(tmp_path: Path) -> None:
    base = tmp_path / "rules.yaml"
    base.write_text(spec_text(""))
    (tmp_path / "variants").mkdir()
    variant = tmp_path / "variants" / "v.yaml"
    variant.write_text(dedent("""\
        variant:
          name: v
        changes:
          - replace: actions.place.effect
            value: |
              create stne in sqq
        """))
    got = {(f.span.file, where(f), f.message) for f in check_spec(load_spec(base, [variant], check=False))}
    assert got == {(str(variant), "6:14", "unknown piece kind 'stne' (did you mean 'stone'?)"),
                   (str(variant), "6:22", "unknown name 'sqq' (did you mean 'sq'?)")}


def test_per_player_name_gets_a_hint(tmp_path: Path) -> None:
    got = findings(tmp_path, """\
        actions:
          place:
            params:
              sq: {from: cells(board), prompt: "Where?"}
            effect: move top(hand) to sq
        """)
    assert [(where(f), f.message, f.hint) for f in got] == [
        ("5:22", "unknown name 'hand'", "'hand' belongs to each player: write current.hand or p.hand")]


def test_tic_tac_toe_has_no_errors() -> None:
    spec = load_spec(ROOT / "games" / "tic-tac-toe" / "rules.yaml", check=False)
    assert [f for f in check_spec(spec) if f.severity == "error"] == []


def test_full_valid_spec_passes() -> None:
    """A spec using let/for/choose/create/draw/emit/triggers/functions/procedures/per-player tracks."""
    spec = load_spec(FIXTURES / "valid_full.yaml")  # raises SpecError on any error
    assert [f for f in check_spec(spec) if f.severity == "error"] == []


def test_checker_does_not_import_the_interpreter() -> None:
    text = (ROOT / "rulespec" / "checker.py").read_text() + (ROOT / "rulespec" / "typing_rules.py").read_text()
    assert "interpreter" not in re.sub(r'""".*?"""|#.*', "", text, flags=re.S)
