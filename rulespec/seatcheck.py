"""Numbers where the rules want a player, and seats that no game has: mistakes that used to show only in play.

A player is a seat number underneath (players are numbered from 0), so the type rules let a number stand where
a player is wanted (`winners: "[0]"`, `create stone {owner: 1}`).  A *literal* seat is a deliberate choice and
its range is checked, and `X.seat` is a player's own seat; any other *computed* number (`current.seat + 1`) is almost always a mistake: it is not a player
when it runs past the last seat, and the player it meant is written `players[N]` (or a function of the game's
own order).  So where a player is expected (an end's `winners`, a piece attribute declared `player`, a variable
or attribute that holds a player), a computed number is a located error "a player expected, a number given".
`players[N]` with a literal N that no game of the spec's player counts has is an error too.
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .typing_rules import base, elem

HINT = "a player is not a seat number: the player at seat N is players[N]"


def literal_seat(node: A.Expr) -> bool:
    """Whether `node` is a literal whole number (a seat written as a number: its range is checked elsewhere)."""
    return isinstance(node, A.Literal) and node.value.__class__ is int


def seat_of_a_player(node: A.Expr) -> bool:
    """Whether `node` is `X.seat`: a player's own seat number, always a seat of the game."""
    return isinstance(node, A.Attr) and node.name == "seat"


def computed_number(want: str | None, got: str | None, node: A.Expr) -> bool:
    """Whether a computed number (type `got`) stands where a player (type `want`) is expected."""
    return (want is not None and base(want) == "player" and got == "int" and not literal_seat(node)
            and not seat_of_a_player(node))


def check_winners(c: Any, node: A.Expr, t: str) -> None:
    """`winners` given a computed number, or a list of computed numbers."""
    if t == "int" and not literal_seat(node) and not seat_of_a_player(node):
        _type_error(c, node, "winners must be players, but this is a number (a player expected, a number given)")
    elif base(t) == "list" and elem(t) == "int":
        items = node.items if isinstance(node, A.ListLit) else [node]
        for item in items:
            if not literal_seat(item) and not seat_of_a_player(item):
                _type_error(c, item, "winners must be players, but these are numbers (a player expected, a number "
                                     "given)")
                return


def check_value(c: Any, what: str, want: str | None, got: str | None, node: A.Expr) -> None:
    """`what` (an attribute, a variable) holds a player: not a computed number."""
    if computed_number(want, got, node):
        _type_error(c, node, f"{what} holds a player, but this is a number (a player expected, a number given)")


def check_players_index(c: Any, e: A.Index, shadowed: bool) -> None:
    """`players[N]` with a literal N past the seats of the largest game the spec allows."""
    if shadowed or not (isinstance(e.obj, A.Name) and e.obj.id == "players" and literal_seat(e.index)):
        return
    most = c.m.game.players.max
    if e.index.value >= most:
        c.error(e.index.span, f"there is no seat {e.index.value}: the game has at most {most} players (seats 0 to "
                              f"{most - 1})")


def _type_error(c: Any, node: A.Expr, message: str) -> None:
    c.error(node.span, f"type error: {message}", HINT)


__all__ = ["check_winners", "check_value", "check_players_index", "computed_number", "literal_seat", "HINT"]
