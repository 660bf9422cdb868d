"""Tests for interpreter.explain: the rules summary and the variant diff."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
import yaml

from orrery.interpreter.cli.explain import SECTIONS, compact_value, explain_diff, explain_text
from orrery.interpreter.cli.explain_prose import Phraser, code
from orrery.rulespec.loader import load_spec
from orrery.rulespec.parser import parse_block, parse_expr

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


def titles(text: str) -> list[str]:
    """The `##` section titles of an explanation, in order."""
    return re.findall(r"^## (.*)$", text, flags=re.M)


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
    assert titles(text) == ["Overview", "Components", "Setup", "Playing a round", "Actions", "Scoring",
                            "End of the game", "Glossary", "Assumptions"]
    assert "A game for 2 players; seats: X and O. Source: Traditional." in text
    assert ("Players take turns clockwise. On your turn: place. The game ends when a player has three marks in a "
            "row, column or diagonal or when every square is filled and nobody has three in a row.") in text
    assert "| board | 3×3 grid, king adjacency |  |" in section(text, "Components")
    assert "| mark | as many as needed | A player's X or O. Attributes: owner (player). |" in text
    rnd = section(text, "Playing a round")
    assert "X (seat 1) goes first. Turns go clockwise from the first player; each player takes one turn." in rnd
    actions = section(text, "Actions")
    assert "### Place\n> Players alternate placing their mark in an empty square.\n" in actions
    assert ("- You choose square, one of the cells of the board where square is empty (otherwise: that square is "
            "already taken; “Where do you play?”).") in actions
    assert "- Put a new mark (owner: you) in square." in actions  # the effect in words; `say` is narration
    assert "create mark" not in text and "say " not in actions
    end = section(text, "End of the game")
    assert ("- **Three in a row**: A player has three marks in a row, column or diagonal. (When `owns_line(current)`, "
            "checked as soon as it holds; the current player wins.)") in end
    assert "(When for every cell c of the board, c is not empty, checked as soon as it holds; nobody wins.)" in end
    glossary = section(text, "Glossary")
    assert ("- `owns_line(who)`: for some line l of 3 cells of the board, for every c in l, c is not empty and the "
            "owner of the top piece of c is who.") in glossary
    assert "invariants): marks alternate; one mark per square." in glossary
    assert ("- **x-starts**: X (seat 1) moves first, as is traditional. Passage: “Players alternate placing their "
            "mark”") in section(text, "Assumptions")


def test_components_are_tables_with_counts_attributes_and_bounds(market: str) -> None:
    comps = section(market, "Components")
    assert "### Pieces\n| piece | count | details |\n|---|---|---|\n| coin | 8 | Attributes: value: 1/5. |" in comps
    assert "| good | 3 |  |" in comps
    assert "The good pieces: fig ×2; tea." in comps  # explicit pieces, like a card list
    assert "| stall | hand, one per player, seen by its owner |  |" in comps
    assert "| deck | deck, hidden |  |" in comps
    assert "| square | 5×4 grid, hex adjacency, holds at most 1 |  |" in comps
    assert "| gold | each player | 2 | 0 to 30 |" in comps
    assert "| season | shared | 1 | at most 4 |" in comps
    assert "| bid | each player | 0 | hidden |" in comps
    assert "A game for 2–4 players (default 3); seats: Amber, Basil, Cedar and Dune." in market


def test_instances_with_text_are_a_card_table(tmp_path: Path) -> None:
    spec = MARKET.replace("        - {name: tea}\n", "        - {name: tea, text: \"" + "Drink it slowly. " * 4 + "\"}\n")
    spec = spec.replace("attributes: {name: str}", "attributes: {name: str, text: str}")
    comps = section(explain_text(load_spec(write(tmp_path, spec), check=False)), "Components")
    assert "### The good pieces\n| name | text |\n|---|---|\n| fig |  |\n| tea | Drink it slowly." in comps


def test_flow_turn_orders_steps_and_hooks_in_words(market: str) -> None:
    flow = section(market, "Playing a round")
    assert "Basil (seat 2) goes first; the first player passes clockwise after each round." in flow
    assert "Each round has 4 phases: bidding, trading, upkeep and tally." in flow
    assert "### Bidding\nTurns go in order of p's gold, smallest first; players keep taking turns until all have " \
           "passed. On your turn:\n1. Raise bid (optional)." in flow
    assert ("Turns go in snake order (clockwise, then back) from Amber (seat 1); each player takes one turn (only "
            "players p for whom p's gold is more than 0).") in flow
    assert "1. Buy: buy a good or haggle (up to 2 times)." in flow
    assert "2. Rest (only if season is more than 1)." in flow
    assert "At any step you may also: rest." in flow
    assert "Turns go counterclockwise from the first player" in flow
    tally = flow.split("### Tally")[1]
    assert "Nobody takes turns in this phase: it happens by itself." in tally
    assert "At the end of the phase, for each player p, do “pay” for p, 1." in tally
    assert "At the end of each round, add 1 to season." in flow


def test_actions_use_the_authors_words_then_phrase_the_rest(market: str) -> None:
    buy = section(market, "Actions").split("### Buy a good\n")[1].split("###")[0]
    assert buy.startswith("> On your turn you may buy one good.\n")  # the rulebook passage, as a quotation
    assert "- Not allowed otherwise: you cannot afford a good." in buy  # `why` rather than the condition
    assert "- It costs 2 gold." in buy
    assert ("- You choose what, one of the pieces in the deck where what's name is not \"tea\"; this may be skipped "
            "(otherwise: tea is not for sale).") in buy
    assert "- At most 1 time per turn." in buy
    assert "- Move what to your stall.\n- Announce the event “bought” (what)." in buy
    assert "### Raise bid\n- Add 1 to your bid." in market
    assert "### Haggle\n- You pass for the rest of the phase." in market


def test_a_long_effect_the_author_described_is_left_to_their_words(tmp_path: Path) -> None:
    long = "\n".join(f"      current.gold += {i}" for i in range(1, 8))
    spec = MARKET.replace("  haggle:\n    effect: pass\n", "  haggle:\n    rule: \"Haggle hard.\"\n    effect: |\n"
                          + long + "\n")
    haggle = section(explain_text(load_spec(write(tmp_path, spec), check=False)), "Actions").split("### Haggle\n")[1]
    assert haggle.split("\n###")[0].strip() == "> Haggle hard."
    spec = spec.replace("    rule: \"Haggle hard.\"\n", "")
    haggle = section(explain_text(load_spec(write(tmp_path, spec), check=False)), "Actions").split("### Haggle\n")[1]
    assert [line for line in haggle.splitlines() if line.startswith("- Add")][-1] == "- Add 7 to your gold."


def test_triggers_scoring_end_and_notes(market: str) -> None:
    trig = section(market, "Automatic rules")
    assert "### Thanks\n- When the event “bought” happens, nothing changes in the game (it is only announced)." in trig
    assert ("### Crowded\nA full row scatters.\n> A full row scatters at once.\n- Whenever there are exactly 5 cells c "
            "of the square where c's y is r and c is not empty, for each number r below 4 (one at a time, in order of "
            "r, smallest first)") in trig
    from orrery.interpreter.cli.explain_format import as_html

    page = as_html(market, "t")  # the quotation holds the passage only, not the line after it
    assert "<blockquote>\n<p>A full row scatters at once.</p>\n</blockquote>\n<ul>\n<li>Whenever there are" in page
    scoring = section(market, "Scoring")
    assert "A player's score is their gold." in scoring
    assert "Players are ranked by gold then by bid, largest first; a tie means nobody wins." in scoring
    end = section(market, "End of the game")
    assert ("- **Last season**: The fourth season is over. (When season is more than 4, checked at the end of each "
            "round; the ranking decides.)") in end
    assert "- **Bust**: (When the rules above end the game this way; nobody wins.)" in end
    glossary = section(market, "Glossary")
    assert "- “pay” (who, n): Subtract n from who's gold." in glossary
    assert "invariants): gold bounded." in glossary
    assert "Setup\nPut the coin pieces in the bank.\n- Shuffle the deck." in market


def test_a_scoring_table_is_a_table_in_the_scoring_section(tmp_path: Path) -> None:
    spec = MARKET.replace("  prices: {values: {\"1\": 2, \"2\": 5}}",
                          "  prices: {values: {\"1\": 2, \"2\": 5}, description: Points by size.}\n"
                          "  unused: {values: [1, 2]}")
    spec = spec.replace("    effect: current.bid += 1", "    effect: current.gold += prices[current.bid]")
    text = explain_text(load_spec(write(tmp_path, spec), check=False))
    assert "Prices: Points by size.\n| key | 1 | 2 |\n|---|---|---|\n| value | 2 | 5 |" in section(text, "Scoring")
    assert "Unused" not in text  # a table nothing scores with is no rulebook table
    assert "- Add the prices entry for your bid to your gold." in section(text, "Actions")


def test_assumptions_with_variant_and_designed_flags(market: str) -> None:
    text = section(market, "Assumptions")
    assert ("- **bids-hidden** (other reading: variant open-bids): Bids are hidden from everyone until scoring. "
            "Passage: “Players bid in secret.”") in text
    assert "- **upkeep-cost** (designed: not in the rulebook): Each player pays one gold in upkeep." in text


def test_many_assumptions_list_the_plain_clarifications_by_id(tmp_path: Path) -> None:
    extra = "".join(f"  - {{id: plain-{i}, passage: \"p{i}\", choice: \"c{i}\"}}\n" for i in range(12))
    text = section(explain_text(load_spec(write(tmp_path, MARKET + extra), check=False)), "Assumptions")
    assert "- **bids-hidden** (other reading: variant open-bids)" in text and "- **upkeep-cost**" in text
    assert "c3" not in text
    assert "- Also clarified (12; the spec's `assumptions:` give each passage and reading): plain-0, plain-1" in text


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
    assert "Variants applied: quiet." in text
    assumptions = section(text, "Assumptions")
    assert "- **x-starts**" in assumptions
    assert "- **silent-play** (from variant quiet): Nobody announces moves." in assumptions


def test_bot_hints_are_explained_as_not_rules(tmp_path: Path) -> None:
    text = explain_text(load_spec(write(tmp_path, MARKET + "\nbots: {heuristic: 'p.gold + 1', heuristic_max: 9, "
                                                  "playout: 1}\n"), check=False))
    hints = section(text, "Hints for search bots")
    assert "Not rules: games play the same without them." in hints
    assert "- A position is judged by p's gold + 1, from 0 (far from winning) to 9 (as good as won)." \
        in hints
    assert "- Playouts play 1 random decision before that judgement." in hints
    assert "Hints for search bots" not in explain_text(load_spec(TTT, check=False))
    budget = section(explain_text(load_spec(write(tmp_path, MARKET + "\nbots: {playout: 0, iterations: 1}\n"),
                                            check=False)), "Hints for search bots")
    assert "- Every new position is judged at once (no random playout)." in budget
    assert "- A search bot given no budget searches 1 iteration per decision." in budget


# ------------------------------------------------------------------ the bundled games

GAMES = sorted(p.parent.name for p in (ROOT / "games").glob("*/rules.yaml"))


@pytest.mark.parametrize("game", GAMES)
def test_every_bundled_game_reads_as_prose_in_rulebook_order(game: str) -> None:
    """Sections in a rulebook's order; rule text phrased, not printed back (a small budget of quoted names)."""
    spec = load_spec(ROOT / "games" / game / "rules.yaml", check=False)
    text = explain_text(spec)
    found = titles(text)
    assert found[:2] == ["Overview", "Components"] and "Setup" in found and "End of the game" in found
    assert found == [t for t in SECTIONS if t in found]  # nothing out of order, nothing unknown
    rules = text.split("\n## Glossary\n")[0]  # the rules proper (the glossary names what they quote)
    lines = [line for line in rules.splitlines() if line.strip()]
    described = [n for n, f in spec.model.functions.items() if f.description]  # the glossary says what these are
    named = re.compile(rf"^({'|'.join(described) or '-'})\([^()]*(\([^()]*\))?[^()]*\)$")
    fallbacks = [q for q in re.findall(r"`([^`]*)`", rules) if not named.match(q)]
    assert len(fallbacks) <= max(3, len(lines) // 20), fallbacks  # without a phrase: quoted, but rarely
    raw = [line for line in lines if re.search(r"==|!=|<=|>=|\+=|\{|\}", re.sub(r"`[^`]*`", "", line))]
    assert not raw, raw  # operators are phrased ("is", "at least"), never printed outside a quotation
    for word in ("create ", "move ", "draw ", "choose ", "require ", "let "):
        assert not any(line.startswith(f"- {word}") for line in lines)  # statements are sentences


def test_bubble_singularity_is_about_a_third_of_what_it_was() -> None:
    """Issue 18: at most about 200 lines as plain text (it was 616), and it still has its rulebook content."""
    from orrery.interpreter.cli.explain_format import as_text

    text = explain_text(load_spec(ROOT / "games" / "bubble-singularity" / "rules.yaml", check=False))
    assert len(as_text(text).splitlines()) <= 200 + 6  # + the 6 lines of its search-bot hints, which are not rules
    for passage in ("| Node Master | affinity | passive | Choose two ability cards instead of one",
                    "chain_scoring = (points 0/1/2/5/7/11, beyond 4)",  # the chain scoring record
                    "Players are ranked by the number of pieces in p's markers then by score",
                    "On your turn:\n1. Recharge: flip an ability face down for 5 bubbles (optional).\n2. Move.",
                    "> Gravity Pull: Choose one Space Card with at least one Bubble."):
        assert passage in text, passage


# ------------------------------------------------------------------ phrases

PHRASES = [
    # (kind, source, words) — kind: cond, expr or effect; read against the Tiny Market spec
    ("cond", "empty(c)", "c is empty"),
    ("cond", "not empty(c)", "c is not empty"),
    ("cond", "size(bank) == 0", "the bank is empty"),
    ("cond", "size(current.stall) > 0", "your stall is not empty"),
    ("cond", "size(deck) >= 3", "the deck holds at least 3 pieces"),
    ("cond", "count(c for c in cells(square) where empty(c)) >= 3",
     "there are at least 3 empty cells c of the square"),
    ("cond", "count(pieces(c, kind: \"coin\")) == 1", "there is exactly 1 coin in c"),
    ("cond", "count(pieces(c, kind: \"coin\")) == 0", "there are no coins in c"),
    ("cond", "any(p.gold >= 25 for p in players)", "for some player p, p's gold is at least 25"),
    ("cond", "all(not empty(c) for c in cells(square))", "for every cell c of the square, c is not empty"),
    ("cond", "not any(empty(c) for c in adjacent(x))", "for no cell c next to x, c is empty"),
    ("cond", "season > 1 and (current.gold < 2 or current.bid != 0)",
     "season is more than 1 and (your gold is less than 2 or your bid is not 0)"),
    ("cond", "x in [1, 2]", "x is 1 or 2"),
    ("cond", "x not in taken", "x is not in taken"),
    ("cond", "x == none", "x is nothing"),
    ("cond", "richest(current)", "for every player q, your gold is at least q's gold"),  # a spec function, inlined
    ("expr", "prices[current.bid]", "the prices entry for your bid"),
    ("expr", "players[1]", "Basil (seat 2)"),
    ("expr", "if season > 2 then 5 else 2", "5 if season is more than 2, otherwise 2"),
    ("expr", "sum(p.gold for p in players)", "the total of p's gold over each player p"),
    ("expr", "max(p.gold for p in players)", "the largest of p's gold over each player p"),
    ("expr", "first([k for k in deck where k.name == \"fig\"])", "the first piece k in the deck where k's name is \"fig\""),
    ("expr", "neighbor(c, \"N\", 2)", "the cell 2 steps from c towards \"N\""),
    ("expr", "cell(square, \"b2\")", "cell b2 of the square"),
    ("expr", "top(c).owner", "the owner of the top piece of c"),
    ("expr", "count(unique([g.name for g in deck]))", "the number of different values of g's name for each piece g in the deck"),
    ("expr", "wibble(1) + (3 - 1) * 2", "`wibble(1)` + (3 − 1) × 2"),  # no phrase: quoted as written
    ("effect", "for c in cells(square) where empty(c) { create good {name: \"fig\"} in c }",
     "- For each empty cell c of the square, put a new good (name: \"fig\") in c."),
    ("effect", "choose b from pieces(c, kind: \"coin\") prompt \"Which coin?\"",
     "- You choose b, one of the coins in c (“Which coin?”)."),
    ("effect", "choose w from players where w != current by current optional",
     "- You choose w, one of the players where w is not you; this may be skipped."),
    ("effect", "require current.gold >= 2 else \"too poor\"",
     "- This is allowed only if your gold is at least 2 (otherwise: too poor)."),
    ("effect", "move top(deck) to current.stall at bottom", "- Move the top piece of the deck to your stall (at the bottom)."),
    ("effect", "draw 2 from deck to current.stall", "- Draw 2 pieces from the deck to your stall."),
    ("effect", "destroy pieces(c)", "- Remove the pieces in c from the game."),
    ("effect", "shuffle deck\nswap a with b", "- Shuffle the deck.\n- Swap the contents of a and b."),
    ("effect", "current.gold -= 2\ncurrent.gold = 0\nseason *= 2",
     "- Subtract 2 from your gold.\n- Set your gold to 0.\n- Multiply season by 2."),
    ("effect", "if season > 2 { pass } elif season > 1 { end_turn } else { end_game last_season }",
     "- If season is more than 2, you pass for the rest of the phase.\n"
     "- Otherwise, if season is more than 1, your turn ends.\n- Otherwise, the game ends: last season."),
    ("effect", "while size(deck) > 0 { draw 1 from deck to bank }",
     "- As long as the deck is not empty, draw 1 piece from the deck to the bank."),
    ("effect", "repeat 3 { season += 1 }", "- 3 times, add 1 to season."),
    ("effect", "for p in players_from(current) { call pay(p, 1) }",
     "- For each player p clockwise from you, do “pay” for p, 1."),
    ("effect", "say \"hello\"\nsettle\nperform buy\nemit bought(x)",
     "- Resolve the automatic rules now, until none applies.\n- Perform the action “buy a good”.\n"
     "- Announce the event “bought” (x)."),  # `say` is narration: left out
]


@pytest.mark.parametrize("kind, source, expected", PHRASES, ids=[p[1][:40] for p in PHRASES])
def test_phrases(tmp_path: Path, kind: str, source: str, expected: str) -> None:
    """Each construct and built-in, through the parser and the phraser."""
    ph = Phraser(load_spec(write(tmp_path, MARKET), check=False))
    if kind == "effect":
        assert "\n".join(ph.block(parse_block(source))) == expected
    elif kind == "cond":
        assert ph.cond(parse_expr(source)) == expected
    else:
        assert ph.expr(parse_expr(source)) == expected


def test_code_writes_an_expression_back_as_source() -> None:
    for source in ("a + b * (c - d)", "not (a and b) or c", "f(x, key: [1, 2])[0].y", "-x", "{a: 1}",
                   "[c for c in cells(b) where empty(c)]", "if a then \"x\" else none", "a not in b"):
        assert code(parse_expr(source)) == source


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


SPECS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "specs").glob("*.yaml"))


@pytest.mark.parametrize("path", SPECS)
def test_every_test_spec_explains_in_words(path: str) -> None:
    """The phraser copes with every construct the test specs use: no crash, no Python value shown raw."""
    text = explain_text(load_spec(ROOT / path))
    assert titles(text)[:2] == ["Overview", "Components"]
    assert not re.search(r"\bNone\b|object at 0x|<orrery|Call\(|Name\(", text)
