"""rulespec/textcheck.py: rule text written outside a spec is checked against it, the spec's index built once."""

from __future__ import annotations

from pathlib import Path

import pytest

from orrery.rulespec.loader import load_spec
from orrery.rulespec.parser import parse_expr
from orrery.rulespec.textcheck import check_rule_text
from orrery.rulespec.typing_rules import SpecIndex

TTT = Path(__file__).resolve().parents[1] / "games" / "tic-tac-toe" / "rules.yaml"


def test_many_checks_against_one_spec_build_its_index_once(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = load_spec(TTT)
    built = []
    real = SpecIndex.build.__func__
    monkeypatch.setattr(SpecIndex, "build", classmethod(lambda cls, m: built.append(m) or real(cls, m)))
    for _ in range(3):  # (three scenario files of one game)
        assert check_rule_text(spec, [parse_expr("turn > 0")], [], {}) == []
    assert len(built) == 1


@pytest.mark.parametrize("text, message", [
    ("turn + 1", "an expectation must be true/false"),
    ("tunr > 0", "tunr"),
])
def test_a_reused_index_still_finds_each_texts_own_problems(text: str, message: str) -> None:
    spec = load_spec(TTT)
    assert check_rule_text(spec, [parse_expr("turn > 0")], [], {}, what="an expectation") == []
    found = check_rule_text(spec, [parse_expr(text)], [], {}, what="an expectation")
    assert found and message in found[0].message  # (the first check's findings do not leak into the second)
    assert check_rule_text(spec, [parse_expr("turn > 0")], [], {}, what="an expectation") == []
