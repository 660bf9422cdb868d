"""`let ... in`, slices and `match` (dsl.md 3.15) on both engines: values, loop counts and errors agree, the
made-up game tests/specs/tally.yaml (a match whose arms ask) plays the same, and misuse is a located error."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS, on_both_engines
from test_differential import play_lockstep

from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec
from orrery.rulespec.parser import parse_block, parse_expr

TALLY = SPECS / "tally.yaml"


@pytest.fixture(scope="module")
def tally():
    return load_spec(TALLY)


def test_tally_plays_the_same_on_both_engines(tally):
    fast, ref = Game(tally, mode="compiled"), Game(tally, mode="interpreted")
    steps = sum(play_lockstep(fast, ref, players, seed) for players in (2, 3) for seed in range(5))
    assert steps > 60


@pytest.mark.parametrize(("text", "shown"), [
    ("let n = 3 + 1 in n * n", "16"),
    ("let n = 2 in let m = n + 1 in [n, m]", "2, 3"),
    ("let n = 2 in [let k = n * x in k + 1 for x in range(3)]", "1, 3, 5"),   # inside a comprehension
    ("[x for x in (let k = 2 in range(k))]", "0, 1"),                          # in a comprehension's iterable
    ("count(x for x in range(let k = 2 in k + 1))", "3"),
    ("[1, 2, 3, 4, 5][1:3]", "2, 3"),
    ("[1, 2, 3, 4, 5][3:1]", ""),
    ("[1, 2, 3][-2:]", "2, 3"),
    ("[1, 2, 3][:-1]", "1, 2"),
    ("[1, 2, 3][-10:10]", "1, 2, 3"),                                          # clamped, never an error
    ("[1, 2, 3][:]", "1, 2, 3"),
    ('"orrery"[1:4]', "rre"),
    ("players[1:]", "P2"),
    ("[x for x in range(6)][1:][:2]", "1, 2"),
    ('match 2 { 1 => "one", 2 | 3 => "some", _ => "many" }', "some"),
    ('match "b" { "a" => 1, _ => 0 }', "0"),
    ("match true { true => 1, false => 0 }", "1"),
    ("match none { none => 1, _ => 0 }", "1"),
    ("match 1 { true => 1, _ => 0 }", "0"),                                    # true never equals 1
    ("match -1 { -1 => 5, _ => 0 }", "5"),
    ('[match x { 0 => "z", _ => "n" } for x in range(2)]', "z, n"),
    ('[x for x in range(3) where (match x { 1 => false, _ => true })]', "0, 2"),
])
def test_values_agree_on_both_engines(tally, text, shown):
    outcomes = on_both_engines(tally, text)
    assert outcomes[0] == ("ok", shown, outcomes[0][2], outcomes[0][3]), outcomes


@pytest.mark.parametrize(("text", "message"), [
    ("[1, 2][true:]", "a slice's start must be a number, got the truth value true"),
    ("3[1:]", "cannot slice the number 3"),
    ('match 4 { 1 => "a", 2 => "b" }', "no arm of this match fits the number 4"),
])
def test_errors_agree_on_both_engines(tally, text, message):
    # (the checker refuses these in a spec; evaluated directly, both engines stop at the same place)
    outcomes = on_both_engines(tally, text)
    assert outcomes[0][0] == "RuleError" and message in outcomes[0][1], outcomes


def test_a_slice_counts_its_items_against_the_loop_limit(tally):
    (_, _, _, loops), _ = on_both_engines(tally, "[x for x in range(10)][2:7]")
    (_, _, _, plain), _ = on_both_engines(tally, "[x for x in range(10)]")
    assert loops == plain + 5


def test_a_match_statement_binds_nothing_a_spec_can_name():
    block = parse_block('match x {\n "a" => say 1\n _ => say 2\n}')
    let, branch = block.body
    assert let.name.startswith("match#") and branch.match.default
    with pytest.raises(SpecError, match="syntax error"):
        parse_expr("match#1")


def _spec_with(tmp_path: Path, effect: str, extra: str = "") -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text(TALLY.read_text().replace("      move t to current.kept\n",
                                              "      move t to current.kept\n" + effect + "\n") + extra)
    return path


@pytest.mark.parametrize(("effect", "message"), [
    ('      say match t.mood { "calm" => 1, "busy" => 2 }',
     "this match does not cover 'wild' of a mood"),
    ('      say match t.mood { "calm" => 1, "bsy" => 2, _ => 3 }',
     "'bsy' is not a mood (did you mean 'busy'?)"),
    ('      match current.score {\n        1 => say 1\n      }',
     "this match has no `_` arm, so it must list every value, but its value is a number"),
    ("      say let peek = 2 in peek", "local name 'peek' hides the constant 'peek'"),
    ("      say 3[1:]", "cannot slice a number"),
    ('      say [1][0:"a"]', "a slice's bounds are numbers, but this is text"),
    ("      say let n = 2 in n.size", "a number has no attribute 'size'"),
])
def test_misuse_is_a_located_error(tmp_path, effect, message):
    with pytest.raises(SpecError) as err:
        load_spec(_spec_with(tmp_path, effect))
    errors = [f for f in err.value.findings if f.severity == "error"]
    assert any(message in f.message for f in errors), errors
    assert all(f.span is not None and f.span.line >= 40 for f in errors)


@pytest.mark.parametrize(("text", "message"), [
    ("xs[0:4:2]", "a slice takes no step"),
    ('match r { x => 1 }', "a pattern is a literal"),
    ('match r { _ => 1, "a" => 2 }', "an arm after `_` can never be taken"),
    ('match r { "a" | _ => 1 }', "`_` matches anything: write it alone"),
    ('match r { "a" => 1, "b" | "a" => 2 }', "the pattern 'a' is written twice"),
    ("let x = a > b in x", "is arithmetic: write a comparison, `and`, `or` or `in` there in parentheses"),
])
def test_malformed_forms_are_syntax_errors_located_at_the_fault(text, message):
    with pytest.raises(SpecError) as err:
        parse_expr(text)
    assert message in err.value.findings[0].message
    assert err.value.findings[0].span.col > 1
