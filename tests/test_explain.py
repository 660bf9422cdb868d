"""Tests for interpreter.explain: the rules summary and the variant diff."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

from orrery.interpreter.cli.explain import compact_value, explain_diff, explain_text
from orrery.rulespec.loader import load_spec

ROOT = Path(__file__).resolve().parents[1]
TTT = ROOT / "games" / "tic-tac-toe" / "rules.yaml"

# A made-up game using most of the spec format: several phases with different turn orders,
# costs, limits, free actions, phase effects, triggers of both kinds, tables and procedures.
MARKET = """\
orrery: 1
game:
  name: tiny-market
  title: Tiny Market
  players: {min: 2, max: 4, default: 3}
  seat_names: [Amber, Basil, Cedar, Dune]
  source: "Invented for the test suite."
components:
  pieces:
    coin:
      attributes: {value: [1, 5]}
      count: 4
      start: bank
    good:
      instances:
        - {name: fig, count: 2}
        - {name: tea}
      attributes: {name: str}
  zones:
    bank: {type: bag}
    stall: {type: hand, per_player: true, visibility: owner}
    deck: {type: deck, visibility: hidden}
    square: {type: grid, width: 5, height: 4, adjacency: hex, capacity: 1}
  tracks:
    gold: {min: 0, max: 30, start: 2}
    season: {per_player: false, start: 1, max: 4}
variables:
  bid: {per_player: true, type: int, start: 0, visibility: hidden}
tables:
  prices: {values: {"1": 2, "2": 5}}
functions:
  richest:
    params: [p]
    expr: all(p.gold >= q.gold for q in players)
procedures:
  pay:
    params: [who, n]
    effect: who.gold -= n
setup: |
  shuffle deck
flow:
  first_player: 1
  rotate_first_player: true
  round_end: season += 1
  phases:
    - name: bidding
      order: by
      order_by: p.gold
      turns: until_pass
      steps:
        - actions: [raise_bid]
          optional: true
    - name: trading
      order: snake
      start: 0
      players: p.gold > 0
      on_start: say "market opens"
      steps:
        - name: buy
          actions: [buy, haggle]
          repeat: true
          max: 2
        - actions: [rest]
          when: season > 1
      free_actions: [rest]
    - name: upkeep
      order: counterclockwise
      steps:
        - actions: [rest]
          optional: true
    - name: tally
      on_end: |
        for p in players {
          call pay(p, 1)
        }
actions:
  raise_bid:
    effect: current.bid += 1
  buy:
    label: buy a good
    description: Take a good from the deck.
    rule: "On your turn you may buy one good."
    condition: current.gold >= 2
    why: you cannot afford a good
    cost: {gold: 2}
    params:
      what:
        from: pieces(deck)
        where: what.name != "tea"
        why: tea is not for sale
        optional: true
    effect: |
      move what to current.stall
      emit bought(what)
    limit: 1
  haggle:
    effect: pass
  rest:
    effect: pass
triggers:
  thanks:
    on: bought
    effect: say "thank you"
  crowded:
    description: A full row scatters.
    for: r in range(4)
    when: count(c for c in cells(square) where c.y == r and not empty(c)) == 5
    order: r
    effect: say "scatter"
    rule: "A full row scatters at once."
scoring:
  score: p.gold
ranking:
  by: [p.gold, p.bid]
  ties: nobody
end:
  last_season:
    description: The fourth season is over.
    when: season > 4
    check: end_of_round
  bust:
    winners: "[]"
invariants:
  gold_bounded: all(p.gold <= 30 for p in players)
assumptions:
  - id: bids-hidden
    passage: "Players bid in secret."
    choice: Bids are hidden from everyone until scoring.
    variant: open-bids
  - id: upkeep-cost
    passage: "(none)"
    choice: Each player pays one gold in upkeep.
    designed: true
"""


def write(tmp_path: Path, text: str, name: str = "rules.yaml") -> Path:
    """Write a file (dedented) and return its path."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def section(text: str, title: str) -> str:
    """The body of one `## title` section of an explanation."""
    start = text.index(f"## {title}\n")
    nxt = text.find("\n## ", start + 1)
    return text[start: nxt if nxt >= 0 else len(text)]


@pytest.fixture()
def market(tmp_path: Path) -> str:
    return explain_text(load_spec(write(tmp_path, MARKET), check=False))


# ------------------------------------------------------------------ explain_text


def test_tic_tac_toe_reads_like_a_rulebook() -> None:
    text = explain_text(load_spec(TTT, check=False))
    assert text.startswith("# Tic-tac-toe\n")
    for title in ("Components", "Setup", "Flow", "Actions", "Scoring and ranking", "End of the game",
                  "Invariants", "Assumptions"):
        assert f"\n## {title}\n" in text
    assert "Players: 2; seats: X, O" in text
    assert "Source: Traditional." in text
    assert "- board: 3×3 grid, king adjacency, visible to all" in section(text, "Components")
    assert "- mark: made as needed; attributes: owner (player)" in text
    flow = section(text, "Flow")
    assert "The first player is X (seat 1)." in flow
    assert "Turn order: clockwise from the first player." in flow
    assert "once each" in flow
    actions = section(text, "Actions")
    assert "### place" in actions
    assert 'Rulebook: "Players alternate placing their mark in an empty square."' in actions
    assert ("- Choose square from `cells(board)` where `empty(square)` (otherwise: that square is "
            "already taken; asked as \"Where do you play?\")") in actions
    assert "        create mark {owner: current} in square" in actions  # the effect, indented as code
    end = section(text, "End of the game")
    assert "When `owns_line(current)`, checked immediately after anything happens." in end
    assert "Winners: `[current]`." in end
    assert "owns_line(who) = `any(" in section(text, "Definitions")
    assumptions = section(text, "Assumptions")
    assert "- x-starts" in assumptions
    assert 'Passage: "Players alternate placing their mark"' in assumptions
    assert "Choice: X (seat 1) moves first, as is traditional." in assumptions


def test_components_counts_attributes_and_bounds(market: str) -> None:
    comps = section(market, "Components")
    assert "- coin: 8 pieces; attributes: value: 1/5; start in `bank`" in comps
    assert "- good: 3 pieces; attributes: name (str)" in comps
    assert "  - fig ×2\n  - tea" in comps  # one line per explicit piece, like a card list
    assert "- stall: hand, one per player, seen only by its owner" in comps
    assert "- deck: deck, hidden from everyone" in comps
    assert "- square: 5×4 grid, hex adjacency, visible to all, holds at most 1" in comps
    assert "- gold: per player, starts at 2, from 0 to 30" in comps
    assert "- season: shared, starts at 1, at most 4" in comps
    assert "- bid: per player int, starts as `0`, hidden" in comps
    assert "Players: 2-4 (default 3); seats: Amber, Basil, Cedar, Dune" in market


def test_flow_turn_orders_in_words(market: str) -> None:
    flow = section(market, "Flow")
    assert "The first player is Basil (seat 2); it passes clockwise after each round." in flow
    assert "Each round has 4 phases: bidding, trading, upkeep, tally." in flow
    assert "Turn order: by `p.gold` for each player p (smallest first)." in flow
    assert "Players keep taking turns until everyone has passed." in flow
    assert "Turn order: snake (clockwise then back) from Amber (seat 1)." in flow
    assert "Turn order: counterclockwise from the first player." in flow
    assert "Only players p with `p.gold > 0` take turns." in flow
    assert "1. step 1: raise_bid (optional)" in flow
    assert "1. buy: buy or haggle (repeat up to 2 times)" in flow
    assert "2. step 2: rest (only when `season > 1`)" in flow
    assert "Free actions at any step: rest." in flow
    assert "- At the start of the phase:\n        say \"market opens\"" in flow
    tally = flow.split("### Phase 4: tally")[1]
    assert "- No turns: the phase's effects run automatically." in tally
    assert "- At the end of the phase:\n        for p in players {" in tally
    assert "At the end of each round:\n    season += 1" in flow


def test_actions_condition_cost_params(market: str) -> None:
    buy = section(market, "Actions").split("### buy")[1].split("###")[0]
    assert buy.startswith(' ("buy a good")')
    assert "Take a good from the deck." in buy
    assert 'Rulebook: "On your turn you may buy one good."' in buy
    assert "- Allowed only if `current.gold >= 2` (otherwise: you cannot afford a good)" in buy
    assert "- Costs `2` gold" in buy
    assert ("- Choose what from `pieces(deck)` where `what.name != \"tea\"` "
            "(optional; otherwise: tea is not for sale)") in buy
    assert "- At most 1 time per turn" in buy
    assert "        move what to current.stall\n        emit bought(what)" in buy


def test_triggers_scoring_end_invariants(market: str) -> None:
    trig = section(market, "Triggers")
    assert "- thanks: on bought" in trig
    assert ("- crowded: whenever `count(c for c in cells(square) where c.y == r and not empty(c)) == 5` "
            "for each `r in range(4)` ordered by `r` (smallest first). A full row scatters.") in trig
    assert 'Rulebook: "A full row scatters at once."' in trig
    scoring = section(market, "Scoring and ranking")
    assert "score is `p.gold`" in scoring
    assert "Ranking (largest first): `p.gold`, then `p.bid`; ties mean nobody wins." in scoring
    end = section(market, "End of the game")
    assert "When `season > 4`, checked at the end of each round." in end
    assert "Winners: by the ranking." in end
    assert "Only when an effect runs `end_game bust`." in end
    assert "- gold_bounded: `all(p.gold <= 30 for p in players)`" in section(market, "Invariants")
    defs = section(market, "Definitions")
    assert "- table prices: 1: 2, 2: 5" in defs and "- procedure pay(who, n):" in defs


def test_assumptions_with_variant_and_designed_flags(market: str) -> None:
    text = section(market, "Assumptions")
    assert "- bids-hidden (variant with the other reading: open-bids)" in text
    assert "- upkeep-cost (designed: not in the rulebook)" in text


def test_variant_assumptions_are_listed(tmp_path: Path) -> None:
    variant = write(tmp_path, f"""\
        variant: {{name: quiet, base: {TTT}}}
        changes: []
        assumptions:
          - id: silent-play
            passage: "Players alternate"
            choice: Nobody announces moves.
        """, "quiet.yaml")
    spec = load_spec(TTT, [variant], check=False)
    text = explain_text(spec)
    assert "Variants applied: quiet" in text
    assumptions = section(text, "Assumptions")
    assert "- x-starts" in assumptions
    assert "- silent-play (from variant quiet)" in assumptions
    assert "Choice: Nobody announces moves." in assumptions


# ------------------------------------------------------------------ explain_diff


def test_diff_without_variants() -> None:
    assert explain_diff(load_spec(TTT, check=False)).strip() == "no variants applied"


def test_diff_shows_each_change_with_old_new_why_and_location(tmp_path: Path) -> None:
    variant = write(tmp_path, f"""\
        variant:
          name: polite
          title: Polite refusals
          base: {TTT}
        changes:
          - set: actions.place.params.square.why
            value: "someone already played there"
            why: kinder wording
          - set: actions.place.effect
            value: |
              create mark {{owner: current}} in square
              say "placed"
          - add: invariants.always
            value: "true"
          - remove: end.board_full
        assumptions:
          - id: polite-words
            passage: "that square is already taken"
            choice: Refusals are phrased politely.
        """, "polite.yaml")
    spec = load_spec(TTT, [variant], check=False)
    diff = explain_diff(spec)
    lines = diff.splitlines()
    assert "## variant polite: Polite refusals" in lines
    first = lines.index("variant polite: set actions.place.params.square.why")
    assert lines[first + 1] == "  old: that square is already taken"
    assert lines[first + 2] == "  new: someone already played there"
    assert lines[first + 3] == "  why: kinder wording"
    assert lines[first + 4] == f"  at: {variant}:6:5"
    assert lines[first + 5].startswith(f"  was: {TTT}:")
    effect = lines.index("variant polite: set actions.place.effect")
    assert lines[effect + 1:effect + 7] == [
        "  old:", "    create mark {owner: current} in square", "    say text(current) + \" plays \" + text(square)",
        "  new:", "    create mark {owner: current} in square", "    say \"placed\""]
    added = lines.index("variant polite: add invariants.always")
    assert lines[added + 1:added + 3] == ["  old: (absent)", "  new: true"]
    removed = lines.index("variant polite: remove end.board_full")
    assert lines[removed + 1:removed + 5] == [
        "  old:", "    description: Every square is filled and nobody has three in a row.",
        "    when: all(not empty(c) for c in cells(board))", "    winners: '[]'"]
    assert lines[removed + 5] == "  new: (removed)"
    assert "Assumptions of variant polite:" in lines and "- polite-words" in lines


def test_compact_value_is_complete() -> None:
    """--diff shows every value whole: nothing is cut, however long (issue 18)."""
    assert compact_value(None) == ["(none)"]
    assert compact_value("short") == ["short"]
    assert compact_value("x" * 300) == ["x" * 300]
    many = compact_value("\n".join(f"line {i}" for i in range(40)))
    assert many == [f"line {i}" for i in range(40)]
    assert compact_value({"a": 1, "b": [1, 2]}) == ["{a: 1, b: [1, 2]}"]
    numbers = compact_value(list(range(200)))
    assert len(numbers) > 1 and all(len(line) <= 110 for line in numbers)  # wrapped near 100 (YAML breaks after)
    assert yaml.safe_load("\n".join(numbers)) == list(range(200))
    nested = {f"key{i}": {"when": "x" * 80, "list": list(range(30))} for i in range(20)}
    assert yaml.safe_load("\n".join(compact_value(nested))) == nested


def test_bot_hints_are_explained_as_not_rules(tmp_path: Path) -> None:
    text = explain_text(load_spec(write(tmp_path, MARKET + "\nbots: {heuristic: 'p.coins + 1', heuristic_max: 9, "
                                                  "playout: 1}\n"), check=False))
    hints = section(text, "Hints for search bots")
    assert "Not rules: games play the same without them." in hints
    assert "- A position is judged by `p.coins + 1`, from 0 (far from winning) to 9 (as good as won)." in hints
    assert "- Playouts play 1 random decision before that judgement." in hints
    assert "Hints for search bots" not in explain_text(load_spec(TTT, check=False))
    budget = section(explain_text(load_spec(write(tmp_path, MARKET + "\nbots: {playout: 0, iterations: 1}\n"),
                                            check=False)), "Hints for search bots")
    assert "- Every new position is judged at once (no random playout)." in budget
    assert "- A search bot given no budget searches 1 iteration per decision." in budget
