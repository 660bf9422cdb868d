"""The typed generator's forms for places (compiler/typedgen.py, typepass.piece_zone): a player's zone read
without a class test, a loop over a zone that is not a board going through its pieces without IT, `size` and
`count` of such a zone, `pieces(P)` and `pieces(P, kind: K)` of a cell or such a zone, an attribute some
piece kinds declare read from the piece's dict, `==` with a text (cell, piece, zone) on one side, `*` `//` `%` of
numbers, a grid's cell by its coordinates, first/last of a list, and the spec's constants typed by their values.  Each row is a made-up spec's function, called with values
of known types (the typed form is written) or of unknown type (the general code is kept); both engines play
it alike.
"""

from __future__ import annotations

import pytest

from conftest import make_game, new_state, on_both_engines
from orrery.interpreter.compiler import codegen, typedgen
from orrery.interpreter.core.valueops import Limits
from orrery.interpreter.core.rules import Rules
from orrery.interpreter.engine.game import Game

SPEC = """
orrery: 1
game: {{name: typed-places, players: {{min: 2, max: 2}}}}
components:
  pieces:
    token: {{unlimited: true, attributes: {{owner: player, tag: str, hot: bool}}}}
    chip: {{unlimited: true, attributes: {{owner: player, weight: int}}}}
  zones:
    row: {{type: grid, width: 3, height: 1, adjacency: orthogonal}}
    hand: {{type: hand, per_player: true}}
    pool: {{}}
constants:
  two: 2
variables:
  mixed: {{type: int, start: 0}}
functions:
  probe:
    params: [who, c]
    expr: '{body}'
flow:
  phases:
    - name: main
      steps: [{{actions: [put]}}]
actions:
  put:
    params:
      slot: {{from: cells(row), where: empty(slot), why: taken}}
    effect: |
      create token {{owner: current, tag: "t", hot: true}} in slot
      create chip {{owner: current, weight: 2}} in slot
      create token {{owner: current, tag: "h", hot: false}} in current.hand
      create chip {{owner: current, weight: 1}} in pool
      if mixed == 5 {{
        mixed = "never"
      }}
end:
  probed:
    when: 'any(probe({who}, c) == none for c in cells(row))'
    winners: "[]"
  full:
    when: all(not empty(c) for c in cells(row))
    winners: "[]"
"""

# (the function's body, who it is called with, a form of the typed code, the general form it replaces)
ROWS = [
    ("[t.tag for t in who.hand]", "current", ":= T_PIECES(it, (ZONE_REF((", "IT(it, "),
    ("size(who.hand)", "current", "LEN(it.s.places.get((ZONE_REF((", ".__class__ is PLAYER"),
    ("count(pieces(c, kind: \"token\"))", "current", "T_COUNT_KIND(it, ", "kind="),
    ("pieces(c, kind: \"chip\")", "current", "T_PIECES_KIND(it, ", "kind="),
    ("pieces(c)", "current", "T_PIECES(it, a", "r = K"),
    ("[p.weight for p in pool]", "current", "XGA(it, v", "IT(it, "),
    ("any(t.hot for t in who.hand) or size(pool) > 2", "current", "LEN(it.s.places.get(K", "IT(it, "),
    ("[t.tag for t in pieces(c, kind: \"token\")]", "current", "in (a", ".__class__ is PIECEREF"),
    # a text (a cell, a piece, a zone) equals only its own kind: `==` against a value of unknown type
    ("any(t.tag == mixed for t in who.hand)", "current", ") == it.s.vars.get(", "EQ("),
    # any/all of true/false items over a pieces zone: Python's own, through its pieces
    ("all(t.hot for t in who.hand)", "current", "ALLB(((a", "ALL(("),
    ("all(t.hot for t in who.hand where t.tag != \"x\")", "current", "ALLB(((a", "ALL(("),
    # `*`, `//`, `%` of numbers: Python's, the size check past 2**60 and division by zero left to the operator
    ("size(who.hand) * 3", "current", " * 3) < 1152921504606846976 else XAR(it, ", "r = AR(it, "),
    ("size(pool) // two + size(pool) % 2", "current", " // K", "AR(it, N"),
    ("size(pool) % (size(who.hand) - size(who.hand))", "current", " != 0 else XAR(it, ", "r = AR(it, "),
    # a grid's cell by its coordinates: a table of its cells (off the board: the built-in's none)
    ("cell(row, 2 - size(pool), 0)", "current", "MISS)) is not MISS else XCB(it, ", "r = K2(it, K1, K3, "),
    # first/last of a list: its item, or none
    ("first(pieces(c, kind: \"chip\"))", "current", "[0] if (a", "r = K"),
    ("last([t.tag for t in who.hand])", "current", "[-1] if (a", "r = K"),
    # a constant of the spec has its value's type
    ("size(who.hand) >= two", "current", ") >= K", "GE(it, "),
]
# rows called with a value of unknown type (`mixed` is a number or a text): only the general code
UNKNOWN = [
    ("[t.tag for t in who.hand]", "T_PIECES(it, (ZONE_REF(("),
    ("size(who.hand)", "LEN(it.s.places.get((ZONE_REF(("),
]


def source_of(spec) -> str:
    return codegen.compile_rules(Rules(spec), typedgen.typed_generator).source


def untyped_source_of(spec) -> str:
    return codegen.compile_rules(Rules(spec)).source


def probe_versions(src: str) -> list[str]:
    """The generated versions of the spec function `probe` (the only one: f1's position), in order: its general
    version, then the ones specialised to its arguments' types."""
    blocks = ["def " + b for b in src.split("\ndef ")[1:]] if not src.startswith("def ") else \
        [b if i == 0 else "def " + b for i, b in enumerate(src.split("\ndef "))]
    where = blocks[0].split("\n", 1)[0].split("#", 1)[1]
    return [b for b in blocks if b.split("\n", 1)[0].endswith("#" + where)]


@pytest.mark.parametrize("body, who, typed, general", ROWS)
def test_known_places_are_read_natively(tmp_path, body, who, typed, general):
    spec = make_game(tmp_path, SPEC.format(body=body, who=who)).spec
    typed_version = probe_versions(source_of(spec))[-1]
    assert typed in typed_version and general not in typed_version, typed_version
    assert general in probe_versions(untyped_source_of(spec))[0]
    plays_alike(spec, f"probe(players[0], cell(row, 1, 0))")


@pytest.mark.parametrize("body, typed", UNKNOWN)
def test_values_of_unknown_type_keep_the_general_code(tmp_path, body, typed):
    spec = make_game(tmp_path, SPEC.format(body=body, who="mixed")).spec
    src = source_of(spec)
    assert typed not in src and ".__class__ is PLAYER" in src
    outcomes = []
    for mode in ("compiled", "interpreted"):
        try:
            gs = new_state(Game(spec, mode=mode))
            gs.apply_label("a1")
            outcomes.append(("ok", gs.state.digest()))
        except Exception as exc:  # noqa: BLE001 - both engines must fail alike (a number has no hand)
            outcomes.append((type(exc).__name__, str(exc)))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] != "ok"


def plays_alike(spec, probe: str) -> None:
    """Both engines play the same moves to the same states (or fail alike, under a loop limit that some end
    check reaches), and agree on the probe after the moves they played, its loop count too."""
    played: tuple | None = None
    for limits in (Limits(), Limits(loop=4), Limits(loop=5), Limits(loop=7)):
        outcomes = []
        for mode in ("compiled", "interpreted"):
            seen: list = []
            try:
                gs = new_state(Game(spec, limits, mode=mode))
                for label in ("a1", "b1", "c1"):
                    if gs.is_terminal():
                        break
                    gs.apply_label(label)
                    seen.append((label, gs.state.digest(), gs.is_terminal()))
            except Exception as exc:  # noqa: BLE001 - both engines must fail alike
                seen.append(("failed", type(exc).__name__, str(exc)))
            outcomes.append(seen)
        assert outcomes[0] == outcomes[1], limits
        if limits == Limits() and not (outcomes[0] and outcomes[0][0][0] == "failed"):
            played = tuple(label for label, *_ in outcomes[0] if label != "failed")
    if played is not None:  # (not when the game fails at its start: the end check's error, compared above)
        on_both_engines(spec, probe, moves=played)
