"""Tests for interpreter.render: boards, zones by visibility, players panel, menus, outcome."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from rich.console import Console

from orrery.interpreter.engine.game import Game, GameState
from orrery.interpreter.cli.render import (cell_text, legend_entries, print_state, render_decision, render_state, state_text,
                                      zones_view, _Ctx)
from orrery.rulespec.loader import load_spec

ROOT = Path(__file__).resolve().parents[1]
TTT = ROOT / "games" / "tic-tac-toe" / "rules.yaml"

# A made-up little game touching every kind of zone: a bag, a hidden deck, per-player owner-only
# hands, a pile, an unbounded grid, a graph, a per-player track and an owner-only variable.
CARDS = """\
orrery: 1
game:
  name: tiny-cards
  title: Tiny Cards
  players: {min: 2, max: 2}
  seat_names: [North, South]
components:
  pieces:
    gem:
      attributes: {colour: [red, blue]}
      count: 3
      start: pouch
      symbol: '"*"'
      style: it.colour
    card:
      attributes: {rank: [1, 2, 3, 4, 5, 6]}
      start: stock
      label: '"card " + text(it.rank)'
    stone:
      unlimited: true
      attributes: {owner: player}
      symbol: '"o"'
  zones:
    pouch: {type: bag}
    stock: {type: deck, visibility: hidden}
    hand: {type: hand, per_player: true, visibility: owner}
    discard: {type: pile}
    table: {type: grid, unbounded: true}
    map:
      type: graph
      nodes: [camp, river, peak]
      edges: [[camp, river], [river, peak], [river, camp]]
  tracks:
    points: {min: 0, max: 10}
    pot: {per_player: false, start: 3}
variables:
  last: {type: any}
  secret: {per_player: true, visibility: owner, start: 7}
setup: |
  shuffle stock
  for p in players {
    draw 2 from stock to p.hand
  }
  create stone {owner: 0} in cell(table, "c4")
  create stone {owner: 1} in cell(table, "e6")
  create stone {owner: 1} in cell(map, "river")
  last = [cell(table, "c4"), 3, {a: 1}, first(pieces(pouch))]
flow:
  first_player: 0
  phases:
    - name: main
      order: snake
      turns: until_pass
      steps:
        - actions: [play]
          optional: true
actions:
  play:
    condition: size(current.hand) > 0
    params:
      c:
        from: pieces(current.hand)
    effect: |
      move c to discard
      current.points += 1
end:
  done:
    when: size(discard) >= 4
"""


def write(tmp_path: Path, text: str, name: str = "rules.yaml") -> Path:
    """Write a spec file and return its path."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def new_game(path: Path, seed: int = 1) -> GameState:
    """A fresh game of the spec at `path`."""
    return Game(load_spec(path, check=False)).new_initial_state(seed=seed)


def text_of(renderable, width: int = 100) -> str:
    """Render to plain text the way the terminal would show it."""
    console = Console(record=True, width=width)
    console.print(renderable)
    return console.export_text()


def grid_rows(text: str) -> dict[str, list[str]]:
    """Table rows of a rendered grid: row label -> cell texts (between the row labels; the panel beside the
    board comes after the right-hand label and is left out)."""
    rows = {}
    for line in text.splitlines():
        if "│" in line:
            cells = [c.strip() for c in line.split("│")]
            if cells[0]:
                rows[cells[0]] = cells[1:-1]
    return rows


def header_letters(text: str) -> list[str]:
    """The column letters of the first grid's header row."""
    for line in text.splitlines():
        if "│" in line:
            return [c.strip() for c in line.split("│")][1:-1]
    return []


def panel_line(text: str, start: str) -> str:
    """The line of the panel (beside or below the boards) that begins with `start`, from there on."""
    line = next(line for line in text.splitlines() if start in line)
    return line[line.index(start):].rstrip()


@pytest.fixture()
def ttt() -> GameState:
    return Game(load_spec(TTT, check=False)).new_initial_state(seed=1)


@pytest.fixture()
def cards(tmp_path: Path) -> GameState:
    return new_game(write(tmp_path, CARDS))


# ------------------------------------------------------------------ grids


def test_tic_tac_toe_centre_after_x_plays_b2(ttt: GameState) -> None:
    ttt.apply_label("b2")
    out = text_of(render_state(ttt))
    rows = grid_rows(out)
    assert list(rows) == ["3", "2", "1"]  # highest row on top
    assert header_letters(out) == ["a", "b", "c"]
    assert rows["2"] == ["·", "X", "·"]
    assert rows["3"] == ["·", "·", "·"] and rows["1"] == ["·", "·", "·"]
    assert "X plays b2" in out  # narration
    assert "▶ O" in out  # O is to act now


def test_grid_orientation_row_one_at_bottom(ttt: GameState) -> None:
    ttt.apply_label("a1")
    ttt.apply_label("c3")
    rows = grid_rows(text_of(render_state(ttt)))
    assert rows["1"] == ["X", "·", "·"]
    assert rows["3"] == ["·", "·", "O"]


def test_symbols_are_coloured_by_style(ttt: GameState) -> None:
    ttt.apply_label("b2")
    console = Console(record=True, width=100, color_system="truecolor", force_terminal=True)
    console.print(render_state(ttt))
    ansi = console.export_text(styles=True)
    assert "\x1b[31mX" in ansi  # style 'red' for seat 0


def test_unbounded_grid_shows_occupied_bounding_box_with_margin(cards: GameState) -> None:
    out = text_of(render_state(cards))
    # stones at c4 and e6: columns b..f and rows 3..7
    assert header_letters(out) == ["b", "c", "d", "e", "f"]
    rows = grid_rows(out)
    assert list(rows) == ["7", "6", "5", "4", "3"]
    assert rows["4"] == ["·", "o", "·", "·", "·"]
    assert rows["6"] == ["·", "·", "·", "o", "·"]


def test_stacked_pieces_side_by_side_then_counts(tmp_path: Path) -> None:
    spec = write(tmp_path, """\
        orrery: 1
        game: {name: stacks, players: {min: 1, max: 1}}
        components:
          pieces:
            disc: {unlimited: true, symbol: '"●"', attributes: {colour: str}, style: it.colour}
            block: {unlimited: true}
          zones:
            board: {type: grid, width: 3, height: 1}
        setup: |
          repeat 2 { create disc {colour: "red"} in cell(board, "a1") }
          repeat 5 { create disc {colour: "red"} in cell(board, "b1") }
          create block in cell(board, "c1")
        flow:
          first_player: 0
          phases: [{name: main, steps: [{actions: [wait], optional: true}]}]
        actions:
          wait: {effect: pass}
        end:
          never: {when: "false"}
        display: {cell_width: 3}
        """)
    rows = grid_rows(text_of(render_state(new_game(spec))))
    assert rows["1"] == ["●●", "5●", "bl"]  # side by side, then a count; label letters without a symbol


def test_cell_text_counts_and_hidden_cells(cards: GameState) -> None:
    ctx = _Ctx(cards, None)
    gems = [pid for pid, kind in enumerate(cards.state.kinds) if kind == "gem"]  # 3 red then 3 blue
    assert cell_text(ctx, gems[:2], True).plain == "**"
    assert cell_text(ctx, gems, True).plain == "3*3*"  # grouped by symbol and colour
    assert cell_text(ctx, gems * 4, True).plain == "*+23"  # too many kinds of stack: top piece and the rest
    assert cell_text(ctx, [], True).plain == "·"
    assert cell_text(ctx, gems[:3], False).plain == "3?"  # hidden: only how many


# ------------------------------------------------------------------ zones and visibility


def test_debug_spectator_view_shows_every_zone(cards: GameState) -> None:
    out = text_of(render_state(cards, None, debug=True))
    assert "pouch (bag, hidden): 6 — 3× red gem, 3× blue gem" in out
    assert "stock (deck, hidden): 2 — top first: card" in out
    north, south = panel_line(out, "hand of North"), panel_line(out, "hand of South")
    assert north.count("card") == 2 and south.count("card") == 2
    assert "empty: discard" in out  # the empty zones share a line


def test_spectator_sees_what_some_player_sees_but_not_hidden_zones(cards: GameState) -> None:
    out = text_of(render_state(cards, None))
    assert panel_line(out, "pouch") == "pouch (bag, hidden): 6 (hidden)"
    assert panel_line(out, "stock") == "stock (deck, hidden): 2 (hidden)"
    north, south = panel_line(out, "hand of North"), panel_line(out, "hand of South")
    assert north.count("card") == 2 and south.count("card") == 2  # an owner's hand: its owner sees it


def test_hidden_deck_shows_only_its_count(cards: GameState) -> None:
    out = text_of(render_state(cards, 0))
    line = panel_line(out, "stock")
    assert line == "stock (deck, hidden): 2 (hidden)"
    assert "card" not in line


def test_owner_zone_visible_to_owner_only(cards: GameState) -> None:
    hands = {z.owner: cards.state.places[z] for z in cards.state.places if getattr(z, "name", None) == "hand"}
    ranks = {p: sorted(str(cards.state.attrs[pid]["rank"]) for pid in pids) for p, pids in hands.items()}
    for viewer, other in ((0, 1), (1, 0)):
        out = text_of(render_state(cards, viewer))
        mine = panel_line(out, f"hand of {['North', 'South'][viewer]}")
        theirs = panel_line(out, f"hand of {['North', 'South'][other]}")
        for rank in ranks[viewer]:
            assert f"card {rank}" in mine
        assert "card" not in theirs and theirs.endswith("2 (hidden)")


def test_owner_variable_hidden_from_others(cards: GameState) -> None:
    out = text_of(render_state(cards, 1))
    assert panel_line(out, "Players").split() == ["Players", "points", "secret", "hand", "(count)"]
    north, south = panel_line(out, "▶  North"), panel_line(out, "South (you)")
    assert north.split()[-3:] == ["0", "?", "2"]  # points shown, secret hidden, hand count shown
    assert south.split()[-3:] == ["0", "7", "2"]  # the viewer's own secret is shown


def test_graph_zone_lists_nodes_and_edges_once(cards: GameState) -> None:
    out = text_of(render_state(cards))
    assert "map (graph)" in out
    assert "  river: " in out and "stone" in out.split("river: ")[1].splitlines()[0]
    assert "empty: camp, peak" in out
    assert "edges: camp–river, river–peak" in out  # the duplicate river–camp is listed once


def test_global_values_of_any_type_are_labelled(cards: GameState) -> None:
    out = text_of(render_state(cards))
    assert "pot: 3" in out
    assert "last: c4, 3, a=1, red gem" in out  # a list holding a cell, a number, a record and a piece


def test_hidden_board_shows_counts_only(tmp_path: Path) -> None:
    spec = write(tmp_path, """\
        orrery: 1
        game: {name: fog, players: {min: 2, max: 2}}
        components:
          pieces:
            scout: {unlimited: true, symbol: '"S"'}
          zones:
            field: {type: grid, width: 2, height: 2, per_player: true, visibility: owner}
        setup: |
          create scout in cell(players[0].field, "a1")
          create scout in cell(players[1].field, "b2")
        flow:
          first_player: 0
          phases: [{name: main, steps: [{actions: [wait], optional: true}]}]
        actions:
          wait: {effect: pass}
        end:
          never: {when: "false"}
        """)
    gs = new_game(spec)
    out = text_of(render_state(gs, 0))
    first, second = out.split("field of P2")
    assert grid_rows(first)["1"] == ["S", "·"]
    assert grid_rows(second)["2"] == ["·", "?"]


def test_display_zones_selects_and_orders(tmp_path: Path) -> None:
    text = CARDS + "display:\n  zones: [stock, pouch]\n  player_info: [points, seat]\n"
    out = text_of(render_state(new_game(write(tmp_path, text))))
    assert "discard" not in out and "hand of" not in out and "map (graph)" not in out
    assert out.index("stock (deck, hidden)") < out.index("pouch (bag, hidden)")
    assert panel_line(out, "Players").split() == ["Players", "points", "seat"]


# ------------------------------------------------------------------ menus and the end


def test_decision_menu_is_numbered(ttt: GameState) -> None:
    out = text_of(render_decision(ttt))
    lines = out.splitlines()
    assert lines[0] == "X, Where do you play?"
    assert " ".join(lines[1:]).split() == [x for i, lab in enumerate(
        ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"], 1) for x in (f"{i})", lab)]  # short: in columns


def test_long_menu_is_printed_in_columns(tmp_path: Path) -> None:
    spec = write(tmp_path, """\
        orrery: 1
        game: {name: wide, players: {min: 1, max: 1}}
        components:
          zones:
            board: {type: grid, width: 8, height: 8}
        flow:
          first_player: 0
          phases: [{name: main, steps: [{actions: [mark]}]}]
        actions:
          mark:
            params: {c: {from: cells(board), prompt: pick a cell}}
            effect: pass
        end:
          never: {when: "false"}
        """)
    gs = new_game(spec)
    out = text_of(render_decision(gs))
    lines = out.splitlines()
    assert lines[0] == "P1, pick a cell"
    assert "1) a1" in out and "64) h8" in out
    assert len(lines) < 30  # 64 options in columns, not one per line


def test_outcome_line_at_game_end(ttt: GameState) -> None:
    for move in ["a1", "b1", "a2", "b2", "a3"]:
        ttt.apply_label(move)
    assert ttt.is_terminal()
    out = text_of(render_state(ttt))
    assert "Game over: three in a row" in out  # (the end condition three_in_a_row, as words: dsl.md 1.6)
    assert "winners: X" in out and "scores: X 1, O 0" in out
    assert "★ X" in out
    assert text_of(render_decision(ttt)).strip() == "The game is over."


def test_print_state_hides_other_players_menu(cards: GameState) -> None:
    console = Console(record=True, width=100)
    print_state(cards, 1, console)
    out = console.export_text()
    assert "Waiting for North: main" in out and "1) play" not in out
    print_state(cards, 0, console)
    assert "1) play" in console.export_text()


def test_render_does_not_change_the_state(cards: GameState) -> None:
    before = cards.digest(), cards.state.digest()
    state_text(cards, None)
    state_text(cards, 0)
    assert (cards.digest(), cards.state.digest()) == before


# ------------------------------------------------------------------ internal variables, --debug, legend

LEDGER = """\
orrery: 1
game: {name: ledger, players: {min: 2, max: 2}}
components:
  pieces:
    stone: {unlimited: true, attributes: {owner: player}, symbol: 'if it.owner == 0 then "A" else "B"'}
    tile: {unlimited: true, attributes: {n: int}, symbol: 'text(it.n)'}
    flag: {unlimited: true, symbol: '"F"', style: '"red"'}
  zones:
    field: {type: grid, width: 4, height: 3}
variables:
  pot: {type: int, start: 4}
  scratch: {type: int, start: 41, internal: true}
  coins: {per_player: true, type: int, start: 2}
  memo: {per_player: true, type: int, start: "p.seat + 70", internal: true}
  plan: {per_player: true, type: int, start: "p.seat + 90", internal: true, visibility: owner}
setup: |
  create stone {owner: 0} in cell(field, "a1")
  create stone {owner: 1} in cell(field, "b1")
""" + "".join(f'  create tile {{n: {n}}} in cell(field, "{c}")\n' for n, c in enumerate(
    ["a2", "b2", "c2", "d2", "a3", "b3", "c3"], 1)) + """\
  create flag in cell(field, "d3")
flow:
  first_player: 0
  phases: [{name: main, steps: [{actions: [wait], optional: true}]}]
actions:
  wait: {effect: pass}
end:
  never: {when: "false"}
"""
WIDE = 160  # wide enough that no panel line wraps


def ledger(tmp_path: Path, display: str = "") -> GameState:
    """The made-up ledger game: internal and public variables, a few kinds of symbol on one grid."""
    return new_game(write(tmp_path, LEDGER + display))


def test_internal_variables_are_left_out_unless_debug(tmp_path: Path) -> None:
    gs = ledger(tmp_path)
    out = text_of(render_state(gs, 0), WIDE)
    assert "pot: 4" in out and "scratch" not in out and "41" not in out
    assert panel_line(out, "Players").split() == ["Players", "coins"]  # memo and plan are internal
    assert "debug:" not in out
    debug = text_of(render_state(gs, 0, debug=True), WIDE)
    assert "scratch: 41" in debug and "P1.memo: 70" in debug and "P2.memo: 71" in debug


def test_debug_never_shows_a_player_what_the_rules_hide_from_them(tmp_path: Path) -> None:
    gs = ledger(tmp_path)
    mine = text_of(render_state(gs, 0, debug=True), WIDE)
    assert "P1.plan: 90" in mine and "P2.plan" not in mine and "91" not in mine
    spectator = text_of(render_state(gs, None, debug=True), WIDE)
    assert "P1.plan: 90" in spectator and "P2.plan: 91" in spectator


def test_legend_lists_the_symbols_drawn(tmp_path: Path) -> None:
    out = text_of(render_state(ledger(tmp_path)), WIDE)
    assert panel_line(out, "Legend:") == "Legend: A P1 stone  B P2 stone  1… tile (7 symbols)  F flag  · empty"
    assert legend_entries(_Ctx(ledger(tmp_path), None)) == []  # nothing drawn yet: the legend is of what is drawn


def test_display_legend_entries_come_first_and_replace_derived_ones(tmp_path: Path) -> None:
    gs = ledger(tmp_path, 'display:\n  legend: {F: "the goal", tile: "tiles: their number", stone: "", "·": "open"}\n')
    ctx = _Ctx(gs, None)
    zones_view(ctx)
    entries = [(sym.plain, meaning) for sym, meaning in legend_entries(ctx)]
    assert entries[:3] == [("F", "the goal"), ("", "tiles: their number"), ("·", "open")]
    assert len(entries) == 3  # the stones' entries are hidden by the empty meaning; no derived F, tile or ·
    out = text_of(render_state(gs), WIDE)
    assert panel_line(out, "Legend:") == "Legend: F the goal  tiles: their number  · open"


def test_legend_marks_hidden_cells(tmp_path: Path) -> None:
    text = LEDGER.replace("field: {type: grid, width: 4, height: 3}",
                          "field: {type: grid, width: 4, height: 3, visibility: hidden}")
    out = text_of(render_state(new_game(write(tmp_path, text)), 0), WIDE)
    assert "? hidden (n? for n)" in out and "A P1 stone" not in out


@pytest.mark.parametrize("text, where", [("variables:\n  x: {internal: maybe}\n", "variables.x.internal"),
                                         ("display: {legend: [a]}\n", "display.legend")])
def test_display_keys_are_validated(tmp_path: Path, text: str, where: str) -> None:
    from orrery.rulespec.errors import SpecError

    spec = LEDGER.replace("variables:\n", text, 1) if text.startswith("variables") else LEDGER + text
    with pytest.raises(SpecError) as info:
        load_spec(write(tmp_path, spec))
    assert where in info.value.render()


def test_panel_goes_beside_the_boards_when_there_is_room_else_below(tmp_path: Path) -> None:
    gs = ledger(tmp_path)
    wide = text_of(render_state(gs), WIDE).splitlines()
    assert wide[1].startswith("field") and "Players" in wide[1]  # the panel starts level with the board
    narrow = text_of(render_state(gs), 40).splitlines()
    board_end = max(i for i, line in enumerate(narrow) if "│" in line)
    players = next(i for i, line in enumerate(narrow) if "Players" in line)
    assert players > board_end and "│" not in narrow[players]  # no room beside: the panel comes under the board
    assert all(len(line) <= 40 for line in narrow)
