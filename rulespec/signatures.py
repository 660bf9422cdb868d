"""Signatures of the rule language's built-in functions and names.

The checker validates calls against this table; `interpreter/builtins.py`
implements exactly these functions (a test keeps the two in step), and
`docs/dsl.md` documents them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sig:
    """A built-in function's arity, keyword arguments, result type and one-line meaning."""

    min_args: int
    max_args: int
    kwargs: frozenset[str]
    returns: str
    doc: str
    example: str = ""


def _s(lo: int, hi: int, returns: str, doc: str, example: str = "", kw: tuple[str, ...] = ()) -> Sig:
    return Sig(lo, hi, frozenset(kw), returns, doc, example)


FUNCTIONS: dict[str, Sig] = {
    # collections
    "count": _s(1, 1, "int", "Number of items in a list, or of pieces in a place.",
                "count(c for c in cells(board) where empty(c))"),
    "len": _s(1, 1, "int", "Length of a list or text.", "len(current.hand.pieces)"),
    "sum": _s(1, 1, "int", "Sum of a list of numbers (0 when empty).", "sum(p.score for p in players)"),
    "min": _s(1, 2, "any", "Smallest item of a list, or of two values; `default:` for an empty list.",
              "min(p.score for p in players)", ("default",)),
    "max": _s(1, 2, "any", "Largest item of a list, or of two values; `default:` for an empty list.",
              "max(3, current.score)", ("default",)),
    "any": _s(1, 1, "bool", "True when some item of a list is true.", "any(empty(c) for c in cells(board))"),
    "all": _s(1, 1, "bool", "True when every item of a list is true (true for an empty list).",
              "all(not empty(c) for c in cells(board))"),
    "range": _s(1, 2, "list", "Numbers from a (default 0) up to but not including b.", "range(1, 4)"),
    "sorted": _s(1, 1, "list", "A list in increasing order; `reverse: true` for decreasing.", "sorted([3, 1, 2])",
                 ("reverse",)),
    "reversed": _s(1, 1, "list", "A list backwards.", "reversed(players)"),
    "unique": _s(1, 1, "list", "A list without repeats, first occurrence kept.", "unique([x.color for x in bag])"),
    "first": _s(1, 1, "any", "First item of a list, or none when empty.", "first(current.hand.pieces)"),
    "last": _s(1, 1, "any", "Last item of a list, or none when empty.", "last(current.hand.pieces)"),
    "index_of": _s(2, 2, "int", "Position of an item in a list (-1 when absent).", "index_of(players, current)"),
    "abs": _s(1, 1, "int", "Absolute value.", "abs(a.x - b.x)"),
    "text": _s(1, 1, "str", "A value as text, the way menus show it.", 'text(current) + " wins"'),
    # places and pieces
    "cells": _s(1, 1, "list", "Cells of a grid or nodes of a graph (unbounded grids: the occupied cells).",
                "cells(board)"),
    "pieces": _s(1, 1, "list", "Pieces in a place (a board zone: in all its cells); `kind:` filters by kind.",
                 'pieces(c, kind: "token")', ("kind",)),
    "empty": _s(1, 1, "bool", "True when a place holds no pieces.", "empty(c)"),
    "size": _s(1, 1, "int", "Number of pieces in a place.", "size(bag)"),
    "top": _s(1, 1, "any", "The top (last added) piece of a place, or none.", "top(deck)"),
    "bottom": _s(1, 1, "any", "The bottom piece of a place, or none.", "bottom(deck)"),
    "place_of": _s(1, 1, "any", "Where a piece is: a zone or a cell.", "place_of(m)"),
    "zone_of": _s(1, 1, "zone", "The zone a cell or piece belongs to.", "zone_of(c)"),
    "changed_at": _s(1, 1, "int", "When a place's contents last changed (a global counter; 0 = never).",
                     "changed_at(c)"),
    "cell": _s(2, 3, "cell", "The cell of a zone by label ('c3') or by x and y (0-based); none off the board.",
               'cell(board, "b2")'),
    "owner_of": _s(1, 1, "player", "The player owning a per-player zone or cell, or none.", "owner_of(c)"),
    # geometry
    "adjacent": _s(1, 1, "list", "Cells next to a cell (zone's adjacency, or `adjacency:`), on the board; "
                   "`wrap: true` also across the edges.", "adjacent(c)", ("adjacency", "wrap")),
    "neighbor": _s(2, 3, "cell", "The cell n steps (default 1) from a cell in a direction, or none off the board; "
                   "`wrap: true` comes back on the opposite side.", 'neighbor(c, "N")', ("wrap",)),
    "dirs": _s(0, 1, "list", "Direction names of an adjacency: orthogonal (default), diagonal, king, hex.",
               'dirs("king")'),
    "rotate": _s(2, 2, "str", "A direction turned clockwise by quarter turns (negative: anticlockwise).",
                 'rotate("N", 1)'),
    "opposite": _s(1, 1, "str", "The opposite direction.", 'opposite("NE")'),
    "direction": _s(2, 2, "str", "The direction from one cell to a neighbouring cell, or none.", "direction(a, b)"),
    "line": _s(3, 3, "list", "n cells from a cell going in a direction (empty if it leaves the board).",
               'line(c, "E", 3)', ("wrap",)),
    "ray": _s(2, 2, "list", "The cells after a cell in a direction up to the board's edge (a wrapped grid: until "
              "back at the cell).", 'ray(c, "N")', ("wrap",)),
    "lines": _s(2, 2, "list", "Every straight run of n cells (rows, columns, diagonals) of a grid.",
                "lines(board, 3)", ("adjacency",)),
    "distance": _s(2, 2, "int", "Steps between two cells: manhattan (default), king or hex via `metric:`.",
                   "distance(a, b)", ("metric",)),
    "connected": _s(2, 2, "list", "Cells reachable from the start cells through cells of `within` (flood fill).",
                    "connected([c], [d for d in cells(board) where not empty(d)])", ("adjacency",)),
    "groups": _s(1, 1, "list", "The connected groups (lists of cells) of a list of cells.",
                 "groups([c for c in cells(board) where not empty(c)])", ("adjacency",)),
    "in_bounds": _s(2, 3, "bool", "True when x,y (or a label) is a cell of the zone.", "in_bounds(board, 0, 5)"),
    # edges and walks on boards
    "edge": _s(2, 2, "record", "The edge from one cell to another as a record (source, target and the graph's "
               "edge attributes), or none when they are not joined.", 'edge(a, b).lock'),
    "edges_of": _s(1, 1, "list", "The edges leaving a cell, as records (source is the cell, target a neighbour).",
                   "edges_of(c)"),
    "path": _s(2, 2, "list", "The cheapest path between two cells (both included), or none; `cost:` is "
               "evaluated per edge with `edge` bound (default 1; none: the edge cannot be taken).",
               "path(a, b, cost: edge.lock)", ("cost",)),
    "path_cost": _s(2, 2, "int", "The cost of the cheapest path between two cells, or none; `cost:` as for path.",
                    "path_cost(a, b, cost: edge.lock)", ("cost",)),
    "reachable": _s(2, 2, "list", "The cells whose cheapest path from a cell costs at most n (default cost 1 "
                    "per step: within n steps), in board order.", "reachable(c, 3)", ("cost",)),
    # players and chance
    "next_player": _s(1, 2, "player", "The player k seats clockwise (default 1).", "next_player(current)"),
    "players_from": _s(1, 1, "list", "All players clockwise starting with the given one.", "players_from(current)"),
    "random_int": _s(2, 2, "int", "A random number from a to b inclusive (seeded).", "random_int(1, 6)"),
    "shuffled": _s(1, 1, "list", "A list in random (seeded) order.", "shuffled(players)"),
    # use limits
    "uses": _s(1, 3, "int", "Times a player (default: the acting player) used a limit's key in its scope now (a "
                            "limit counted per value: with that value).",
               "uses(rest) == 0"),
}

# Keyword arguments evaluated once per item instead of once per call, with a name bound to the item:
# function -> (keyword, bound name).  `path(a, b, cost: edge.lock)` reads each edge's `lock`.
CLOSURES: dict[str, tuple[str, str]] = {"path": ("cost", "edge"), "path_cost": ("cost", "edge"),
                                        "reachable": ("cost", "edge")}

# Names with a fixed meaning everywhere; spec names may not reuse them.
SPECIAL_NAMES: dict[str, tuple[str, str]] = {
    "current": ("player", "The acting player: whose action this is (the turn's player, or the one a window or "
                          "`perform ... by` acts for)."),
    "turn_player": ("player", "The player whose turn it is."),
    "players": ("list", "Every player, in seat order."),
    "num_players": ("int", "How many players are in the game."),
    "round": ("int", "The round number, from 1."),
    "turn": ("int", "How many turns have started so far, from 1."),
    "phase": ("str", "The name of the current phase."),
    "first_player": ("player", "The first player of this round."),
    "cascade": ("int", "State-trigger firings so far in the current cascade."),
}

KEYWORDS = frozenset(
    "let if elif else for in where order by desc chosen while repeat choose commit from prompt optional require move to at "
    "create as destroy draw shuffle swap with emit end_game settle pass end_turn say call perform open use then "
    "and or not true false none match".split()
)
