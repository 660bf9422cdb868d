"""Secret picks made with `choose` where search bots read them: the checker's warnings (rulespec/secret_picks.py,
docs/dsl.md 4.24), each pointing at the `choose` with a hint to use `commit`; and the shapes that are not
warned (open picks in turn, public stores, different menus, `commit` itself).  A tiny made-up game: every
player picks a number; EFFECT is the setup's rule text.
"""

from __future__ import annotations

import pytest

from orrery.rulespec.checker import check_spec
from orrery.rulespec.loader import load_spec

SPEC = """orrery: 1
game: {name: picks, players: {min: 2, max: 3}}
variables:
  secret: {per_player: true, visibility: owner, start: 0}
  shown: {per_player: true, start: 0}
  got: {type: list, start: "[]"}
setup: |
EFFECT
flow:
  phases:
    - name: play
      steps: [{actions: [rest]}]
actions:
  rest: {effect: 'say "rests"'}
end:
  over: {when: "true", winners: "[]"}
"""


def _warnings(tmp_path, effect: str) -> list:
    path = tmp_path / "picks.yaml"
    body = "\n".join("  " + line for line in effect.strip().splitlines())
    path.write_text(SPEC.replace("EFFECT", body), encoding="utf-8")
    found = check_spec(load_spec(path, check=False))
    assert [f for f in found if f.severity == "error"] == []
    return [f for f in found if f.severity == "warning" and "commit" in (f.hint or "")]


WARNED = {
    "stored in a hidden variable": ("""
for p in players {
  choose x from [1, 2, 3] by p prompt "Your number?"
  p.secret = x * 10
}""", "stored in 'secret', a variable hidden from the other players"),
    "collected while the loop asks the next player": ("""
let bids = []
for p in players {
  choose b from [1, 2, 3] by p prompt "Your bid?"
  bids += [b]
}
got = bids""", "'bids' collects the answers of `choose b` while the loop asks the next player"),
    "kept while another player picks from the same menu": ("""
choose a from [1, 2] by players[0]
choose b from [1, 2] by players[1]
got = [a, b]""", "the answer of `choose a` (line 8) is kept while another player picks from the same menu"),
}


@pytest.mark.parametrize("case", sorted(WARNED))
def test_a_pick_left_where_search_bots_read_it_is_warned_at_the_choose(tmp_path, case):
    effect, message = WARNED[case]
    [w] = _warnings(tmp_path, effect)
    assert message in w.message
    assert "docs/dsl.md 4.24" in w.hint and "commit" in w.hint
    line = (tmp_path / "picks.yaml").read_text(encoding="utf-8").splitlines()[w.span.line - 1]
    assert line.strip().startswith("choose ")


NOT_WARNED = {
    "picked in turn, the menu showing the earlier picks": """
let taken = []
for p in players {
  choose x from [1, 2, 3] where x not in taken by p
  taken += [x]
}
got = taken""",
    "stored in a public variable": """
for p in players {
  choose x from [1, 2, 3] by p
  p.shown = x
}""",
    "a different menu for the second player (an answer to the first)": """
choose target from players by players[0]
choose answer from ["yes", "no"] by target
got = [target, answer]""",
    "the same player picks twice": """
choose a from [1, 2] by players[0]
choose b from [1, 2] by players[0]
got = [a, b]""",
    "sealed with commit": """
commit x from [1, 2, 3]
for p in players { p.secret = x[p.seat] }""",
}


@pytest.mark.parametrize("case", sorted(NOT_WARNED))
def test_open_and_sealed_picks_are_not_warned(tmp_path, case):
    assert _warnings(tmp_path, NOT_WARNED[case]) == []


def test_validate_shows_the_warning_and_passes(tmp_path, capsys):
    from orrery.interpreter.cli.main import main

    _warnings(tmp_path, WARNED["stored in a hidden variable"][0])
    assert main(["validate", str(tmp_path / "picks.yaml")]) == 0
    got = capsys.readouterr()
    out = got.out + got.err
    assert "picks.yaml:9:5: warning: the answer of `choose x` is stored in 'secret'" in out and "hint: use `commit" in out
