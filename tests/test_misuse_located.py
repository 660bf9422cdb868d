"""Issue 30's constructs misused: `orrery validate` exits 2 with FILE:LINE:COL and a hint (a `hint:` line, a
suggestion, or the values allowed), one case per construct, each a one-word slip in its made-up game.

Variants that patch (item 11) and names that clash with built-ins (item 12) have their tables in
tests/test_patching.py and tests/test_name_clashes.py.
"""

from __future__ import annotations

import re

import pytest

from conftest import SPECS
from orrery.interpreter.cli.main import main
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

GAMES = SPECS.parent / "games"

CASES = [  # (item, game file, text, slip, the message's words, its hint's words)
    ("1 records", SPECS / "ledger.yaml", "who.gold >= d.cost.gold", "who.gold >= d.cost.gld",
     "no attribute 'gld'", "did you mean 'gold'?"),
    ("2 geometry", SPECS / "lighthouse.yaml", "range(board.width)", "range(board.widht)",
     "a zone has no attribute 'widht'", "did you mean 'width'?"),
    ("3 checked names", SPECS / "ledger.yaml", 'call gain(current, "gold", b.extra)',
     'call gain(current, "glod", b.extra)', "'glod' is not a resource", "the words are gold, gems, fame"),
    ("4 match", SPECS / "tally.yaml", '"calm" => 1, "busy" => 2, "wild" => 3 }', '"calm" => 1, "busy" => 2 }',
     "this match does not cover 'wild'", "add an arm for each, or `_ => ...`"),
    ("5 edges", SPECS / "ring-road.yaml", "{from: north, to: east, toll: 2}", "{from: north, to: east, tol: 2}",
     "declares no edge attribute 'tol'", "declare it under edge_attributes:"),
    ("5 piece state", SPECS / "lanterns.yaml", "reset: phase}", "reset: week}",
     "reset: Input should be", "'turn', 'phase' or 'round'"),
    ("6 limits", SPECS / "cooldown.yaml", 'uses("labour") == 0', 'uses("labor") == 0',
     "no limit counts uses under 'labor'", "`limit: {times: N, per: SCOPE, key: NAME}`"),
    ("7 windows", SPECS / "parry.yaml", "actions: [shield]", "actions: [sheild]",
     "unknown action 'sheild'", "did you mean 'shield'?"),
    ("7 trigger order", SPECS / "echo.yaml", "order: owner_chooses", "order: owners_choose",
     "events.bell.order", "'declared' or 'owner_chooses'"),
    ("7 activate", SPECS / "lamplight.yaml", "during: [night]", "during: [nite]",
     "unknown phase 'nite'", "did you mean 'night'?"),
    ("8 abilities", GAMES / "chorus" / "rules.yaml", '{on: bell, do: "sing(owner, self.name, self.voice)"}',
     '{on: bel, do: "sing(owner, self.name, self.voice)"}', "no rule emits 'bel'", "emit it with `emit NAME(...)`"),
    ("9 commit", SPECS / "matching-pennies.yaml", 'prompt "Heads or tails (in secret)?"', "prompt text(side)",
     "the prompt of `commit side` reads 'side'", "keep earlier answers under another name"),
    ("10 phase scope", SPECS / "fuse-net.yaml", "phase: play", "phase: plya",
     "scoped to phase 'plya', which the flow does not have", "did you mean 'play'?"),
]


@pytest.mark.parametrize("item, path, text, slip, message, hint", CASES, ids=[c[0] for c in CASES])
def test_a_slip_is_refused_at_its_place_with_a_hint(tmp_path, capsys, item, path, text, slip, message, hint):
    source = path.read_text(encoding="utf-8")
    assert source.count(text) >= 1, text
    bad = tmp_path / path.name
    bad.write_text(source.replace(text, slip, 1), encoding="utf-8")
    line = source[:source.index(text)].count("\n") + 1
    assert main(["validate", str(bad)]) == 2
    told = capsys.readouterr()
    assert re.search(rf"^{re.escape(str(bad))}:{line}:\d+: error: .*{re.escape(message)}", told.out + told.err, re.M), \
        told.out + told.err
    with pytest.raises(SpecError) as err:
        load_spec(bad)
    found = [f for f in err.value.findings if message in f.message]
    assert found and found[0].span.line == line, [f.headline() for f in err.value.findings]
    assert hint in found[0].message + " " + (found[0].hint or ""), found[0].headline()


def test_a_misspelt_key_a_variant_would_add_is_a_located_warning(tmp_path, capsys):
    """`set` adds an entry that does not exist (dsl.md 7.2): a name close to an existing one is most likely a slip
    that would change nothing (a constant no rule reads), so it is told, with the name it resembles."""
    variant = tmp_path / "quick.yaml"
    variant.write_text(f"variant:\n  name: quick\n  base: {SPECS / 'ledger.yaml'}\nchanges:\n"
                       f"  - set: constants.goall\n    value: 4\n  - set: constants.target\n    value: 4\n",
                       encoding="utf-8")
    assert main(["validate", str(variant)]) == 0
    told = capsys.readouterr()
    out = told.out + told.err
    assert f"{variant}:5:10: warning: 'goall' is new in constants: set adds it (did you mean 'goal'?)" in out, out
    assert "'target' is new" not in out  # a new name like no other: added on purpose


def test_an_instance_without_a_typed_value_is_a_located_warning(tmp_path, capsys):
    """A kind's attribute typed int (or bool, text, words) with no `default:` holds none in an instance row that
    gives no value: told at that row, with the way out; a row that gives it, or a typed default, is silent."""
    spec = (SPECS / "tool-rack.yaml").read_text(encoding="utf-8")
    slip = "        - {name: Saw, power: 1, count: 2}"
    assert slip in spec
    bad = tmp_path / "rack.yaml"
    bad.write_text(spec.replace(slip, "        - {name: Saw, count: 2}"), encoding="utf-8")
    assert main(["validate", str(bad)]) == 0
    line = spec[:spec.index(slip)].count("\n") + 1
    out = capsys.readouterr()
    told = out.out + out.err
    assert f"{bad}:{line}:11: warning: this 'tool' gives no 'power' and the attribute has no default: the piece " \
           f"holds none, not a number" in told, told
    assert "give 'power' here, or a `default:` in the kind's attributes" in told
    assert main(["validate", str(SPECS / "tool-rack.yaml")]) == 0
    assert "holds none" not in "".join(capsys.readouterr())
