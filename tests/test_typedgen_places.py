"""The typed generator's forms for places (compiler/typedgen.py, typepass.piece_zone): a player's zone read
without a class test, a loop over a zone that is not a board going through its pieces without IT, `size` and
`count` of such a zone, `pieces(P)` and `pieces(P, kind: K)` of a cell or such a zone, and an attribute some
piece kinds declare read from the piece's dict.  Each row is a made-up spec's function, called with values
of known types (the typed form is written) or of unknown type (the general code is kept); both engines play
it alike.
"""

from __future__ import annotations

import pytest

from conftest import make_game, new_state, on_both_engines
from orrery.interpreter.compiler import codegen, typedgen
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
    ("pieces(c)", "current", "T_PIECES(it, a", "K"),
    ("[p.weight for p in pool]", "current", "XGA(it, v", "IT(it, "),
    ("any(t.hot for t in who.hand) or size(pool) > 2", "current", "LEN(it.s.places.get(K", "IT(it, "),
    ("[t.tag for t in pieces(c, kind: \"token\")]", "current", "in (a", ".__class__ is PIECEREF"),
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


@pytest.mark.parametrize("body, who, typed, general", ROWS)
def test_known_places_are_read_natively(tmp_path, body, who, typed, general):
    spec = make_game(tmp_path, SPEC.format(body=body, who=who)).spec
    src = source_of(spec)
    assert typed in src, src
    assert general in untyped_source_of(spec)
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
    """Both engines play the same moves to the same states, and agree on the probe after them."""
    digests = []
    for mode in ("compiled", "interpreted"):
        gs = new_state(Game(spec, mode=mode))
        seen = []
        for label in ("a1", "b1", "c1"):
            if gs.is_terminal():
                break
            gs.apply_label(label)
            seen.append((gs.state.digest(), gs.is_terminal()))
        digests.append(seen)
    assert digests[0] == digests[1]
    on_both_engines(spec, probe, moves=("a1", "b1"))
