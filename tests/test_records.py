"""Typed data, names and constants (dsl.md 2.19-2.21) end to end on both engines: the made-up game
tests/specs/ledger.yaml, a variant that resizes its market, and the failures issue 30 lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS, on_both_engines
from test_differential import play_lockstep

from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

LEDGER = SPECS / "ledger.yaml"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def ledger():
    return load_spec(LEDGER)


def test_ledger_plays_the_same_on_both_engines(ledger):
    fast, ref = Game(ledger, mode="compiled"), Game(ledger, mode="interpreted")
    steps = sum(play_lockstep(fast, ref, players, seed) for players in (2, 3) for seed in range(4))
    assert steps > 40


@pytest.mark.parametrize(("text", "shown"), [
    ('deals["crown"].cost.gems', "2"),
    ('deals["spice"].cost["gems"]', "0"),                   # a field left out holds its default
    ('deals["crown"].bonus[1].extra', "2"),                  # a list of records inside a row
    ('[b.when for b in deals["crown"].bonus]', "fame, gold"),
    ("opening.gold + opening[\"gems\"]", "4"),               # a record constant
    ("corner.label", "a1"),                                  # an expression constant
    ("len(rim)", "8"),
    ("resource", "gold, gems, fame"),                        # a names set is the list of its words
    ("[c.deal.gives for c in pieces(deck)] + [top(c).deal.amount for c in cells(market)]", None),
    ("side * side == len(cells(market))", "yes"),
])
def test_typed_data_reads_the_same_on_both_engines(ledger, text, shown):
    outcomes = on_both_engines(ledger, text)
    assert outcomes[0][0] == "ok", outcomes
    if shown is not None:
        assert outcomes[0][1] == shown


def test_a_row_typed_attribute_reads_as_the_row(ledger):
    gs = Game(ledger, mode="interpreted").new_initial_state(players=2, seed=3)
    s = gs.state
    ids = [i for i, k in enumerate(s.kinds) if k == "card"]
    assert ids
    for i in ids:
        deal = s.attrs[i]["deal"]
        assert deal["gives"] == s.attrs[i]["sort"]
        assert isinstance(deal["cost"], dict) and "gems" in deal["cost"]


def test_a_variant_resizing_the_market_plays_on_the_new_size(tmp_path):
    variant = _write(tmp_path, "big.yaml", f"""\
variant: {{name: big-market, base: {LEDGER}}}
changes:
  - set: constants.side
    value: 4
""")
    spec = load_spec(LEDGER, [variant])
    fast, ref = Game(spec, mode="compiled"), Game(spec, mode="interpreted")
    for game in (fast, ref):
        assert (game.rules.zones["market"].decl.width, game.rules.zones["market"].decl.height) == (4, 4)
        assert len(game.rules.names["rim"][1]) == 12  # the expression constant follows the board
    assert sum(play_lockstep(fast, ref, 2, seed) for seed in range(3)) > 0
    assert on_both_engines(spec, "len(cells(market))")[0][1] == "16"


# ------------------------------------------------------------------ the failures listed in issue 30


_NESTED = """\
orrery: 1
game: {name: nested, players: {min: 1, max: 1}}
tables:
  costs: {values: {small: {time: 2, parts: [{n: 1}, {n: 3}]}}}
components:
  zones: {shelf: {}}
  pieces:
    card:
      attributes: {price: record, extra: any}
      instances: [{price: {time: 4}, extra: {time: 5, tags: [a, b]}}]
      start: shelf
variables:
  total: {type: int, start: 0}
flow:
  phases: [{name: p, steps: [{actions: [add]}]}]
actions:
  add:
    effect: |
      let c = top(shelf)
      total = costs["small"].time + costs["small"]["time"] + c.price.time + c.extra["time"]
      total += costs["small"].parts[1].n + len(c.extra.tags)
end:
  done: {when: "total > 0"}
"""


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_nested_maps_read_with_dot_and_brackets(tmp_path, mode):
    """Issue 30: a nested map validated, then play stopped with `dict has no attribute 'time'`; `r["time"]` said
    `cannot index dict`; an attribute of type `record` was refused."""
    spec = load_spec(_write(tmp_path, "nested.yaml", _NESTED))  # `price: record` is accepted
    gs = Game(spec, mode=mode).new_initial_state(players=1)  # (one option: `add` is taken without asking)
    assert gs.is_terminal()
    assert gs.state.vars["total"] == 2 + 2 + 4 + 5 + 3 + 2


def test_a_wrong_field_of_nested_data_is_a_located_error(tmp_path):
    bad = _NESTED.replace("c.price.time + c.extra[\"time\"]", "c.price.tme + c.extra[\"time\"]")
    with pytest.raises(SpecError) as err:
        load_spec(_write(tmp_path, "bad.yaml", bad))
    (finding,) = [f for f in err.value.findings if f.severity == "error"]
    assert "has no field 'tme' (did you mean 'time'?)" in finding.message
    assert (finding.span.line, finding.span.col) == (20, 70)


@pytest.mark.parametrize(("change", "message"), [
    ("c.price.time", None),
    ('costs["small"].parts[0].m', "a record with fields n has no field 'm'"),
    ('costs["large"].time', "table 'costs' has no entry 'large'"),
    ('costs["small"]["tiem"]', "has no field 'tiem' (did you mean 'time'?)"),
])
def test_inferred_shapes_check_fields(tmp_path, change, message):
    text = _NESTED.replace("c.price.time", change)
    if message is None:
        load_spec(_write(tmp_path, "ok.yaml", text))
        return
    with pytest.raises(SpecError) as err:
        load_spec(_write(tmp_path, "bad.yaml", text))
    assert any(message in f.message for f in err.value.findings), err.value.findings


def test_expression_constant_that_fails_is_a_located_error(tmp_path):
    text = LEDGER.read_text().replace("""corner: 'cell(market, "a1")'""", """corner: '[1, 2][5]'""")
    spec = load_spec(_write(tmp_path, "rules.yaml", text))
    with pytest.raises(SpecError) as err:
        Game(spec)
    assert "constant 'corner' cannot be worked out" in str(err.value)
    assert err.value.findings[0].span.line == 15


_POWERS = """\
game: {name: powers, players: {min: 2, max: 2}}
names: {power: [swap, peek, double]}
components:
  zones: {pool: {}}
  pieces:
    ability:
      attributes: {name: power, active: bool}
      instances: [{name: swap, active: true}, {name: peek, active: false}]
      start: pool
functions:
  has_power:
    params: [what]
    expr: any(a.name == what and a.active for a in pieces(pool))
flow: {phases: [{name: p, steps: [{actions: [go]}]}]}
actions:
  go: {effect: 'if has_power("WORD") { say 1 }'}
end: {e: {when: "round > 2"}}
"""


@pytest.mark.parametrize(("word", "message"), [("swap", None), ("swp", "'swp' is not a power (did you mean 'swap'?)")])
def test_a_name_passed_to_an_untyped_parameter_compared_with_words_is_checked(tmp_path, word, message):
    """Issue 30: `has(who, "Nmae")` that can never be true is an error, not silence."""
    path = _write(tmp_path, "powers.yaml", _POWERS.replace("WORD", word))
    if message is None:
        load_spec(path)
        return
    with pytest.raises(SpecError) as err:
        load_spec(path)
    (finding,) = err.value.findings
    assert finding.message == message and (finding.span.line, finding.span.col) == (16, 30)
    assert finding.hint == "the words are swap, peek, double"


_DECK = """\
orrery: 1
game: {name: deck, players: {min: 2, max: 2}}
names:
  suit: [sun, moon, star]
components:
  zones: {deck: {}}
  pieces:
    card:
      attributes: {suit: suit, rank: [1, 2]}
      count: 2
      start: deck
flow: {phases: [{name: p, steps: [{actions: [go]}]}]}
actions:
  go: {effect: 'say 1'}
end: {e: {when: "round > 2"}}
"""


def test_an_attribute_typed_by_a_names_set_is_enumerated(tmp_path):
    """A kind without instances makes `count` pieces for every word of a set-typed attribute, as for listed
    values (3 suits x 2 ranks x 2 = 12), on both engines, and `orrery explain` counts them alike."""
    from orrery.interpreter.cli.explain import piece_count

    spec = load_spec(_write(tmp_path, "deck.yaml", _DECK))
    outcomes = on_both_engines(spec, "[c.suit + text(c.rank) for c in pieces(deck)]")
    assert outcomes[0][1] == ", ".join(f"{s}{r}" for s in ("sun", "moon", "star") for r in (1, 1, 2, 2))
    assert piece_count(spec.model.components.pieces["card"], spec.model.names) == 12


def test_a_word_compared_with_a_value_or_none_is_checked(tmp_path):
    """`if empty(c) then none else top(c).name` is a word of the set or none: the words it is compared with are
    still checked (a conditional with a none branch keeps the other branch's type)."""
    text = _POWERS.replace("any(a.name == what and a.active for a in pieces(pool))",
                           "any((if a.active then a.name else none) == what for a in pieces(pool))")
    with pytest.raises(SpecError) as err:
        load_spec(_write(tmp_path, "powers.yaml", text.replace("WORD", "swp")))
    assert [f.message for f in err.value.findings] == ["'swp' is not a power (did you mean 'swap'?)"]
    load_spec(_write(tmp_path, "fine.yaml", text.replace("WORD", "swap")))
