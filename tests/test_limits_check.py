"""Validation of use limits (rulespec/limits_check.py and the `limit:`/`max_fires:` models): each misuse is a
located finding with a hint where one helps, and the valid forms pass."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from conftest import spec_findings

HEAD = """\
orrery: 1
game: {name: t, players: {min: 2, max: 2}}
flow:
  phases:
    - name: play
      steps: [{actions: [rest, work]}]
end:
  done: {when: "round > 3"}
"""


def problems(tmp_path: Path, body: str) -> list[tuple[str, str, str, str | None]]:
    """(severity, line:col, message, hint) of every finding for HEAD + body (the body starts on line 9)."""
    return spec_findings(tmp_path, HEAD + dedent(body))


CASES = [
    pytest.param("""\
        actions:
          rest: {limit: 0}
          work: {}
        """, ("error", "10:17", "times must be at least 1, got 0"), id="zero-times"),
    pytest.param("""\
        actions:
          rest: {limit: {times: 1, per: week}}
          work: {}
        """, ("error", "10:33", "'turn', 'phase', 'round' or 'game' (got 'week')"), id="unknown-scope"),
    pytest.param("""\
        actions:
          rest: {limit: {times: 1, per: round, kee: x}}
          work: {}
        """, ("error", "10:40", "unknown key 'kee' (did you mean 'key'?)"), id="unknown-field"),
    pytest.param("""\
        actions:
          rest: {limit: {times: 1, per: round, key: chores}}
          work: {limit: {times: 2, per: round, key: chores}}
        """, ("error", "11:45", "the counter 'chores' is 2 per round here but 1 per round for action 'rest'"),
        id="one-key-two-limits"),
    pytest.param("""\
        actions:
          rest: {limit: {times: 1, per: round, key: chores}}
          work: {}
        triggers:
          t: {on: turn_start, max_fires: {times: 1, per: round, key: chores}, effect: "say 1"}
        """, ("error", "13:62", "would count both the uses of action(s) and the firings of trigger(s)"),
        id="a-firing-is-not-a-use"),
    pytest.param("""\
        actions:
          rest: {limit: {times: 1, per: round}, condition: 'uses("rset") == 0'}
          work: {}
        """, ("error", "10:58", "no limit counts uses under 'rset' (did you mean 'rest'?)"), id="uses-unknown-key"),
    pytest.param("""\
        actions:
          rest: {limit: {times: 1, per: round, key: naps}, condition: "uses(rest) == 0"}
          work: {}
        """, ("error", "10:69", "action 'rest' counts its uses under 'naps', not 'rest'"), id="uses-action-with-key"),
    pytest.param("""\
        actions:
          rest: {limit: 1, condition: "uses(3) == 0"}
          work: {}
        """, ("error", "10:37", "uses() needs a counter's key"), id="uses-not-a-key"),
    pytest.param("""\
        actions:
          rest: {effect: perform nap}
          work: {}
          nap: {limit: 1}
        """, ("warning", "12:9", "only ever performed, and a `perform` neither checks nor counts its limit"),
        id="limit-on-a-performed-action"),
]


@pytest.mark.parametrize("body, expected", CASES)
def test_misuse_is_a_located_finding(tmp_path, body, expected):
    found = problems(tmp_path, body)
    assert any(f[:2] == expected[:2] and expected[2] in f[2] for f in found), found


def test_hints_say_what_to_do(tmp_path):
    found = problems(tmp_path, """\
        actions:
          rest: {limit: {times: 1, per: round, key: chores}}
          work: {limit: {times: 2, per: turn, key: chores}, condition: 'uses("choors") == 0'}
        """)
    hints = {msg.split(" ")[1]: hint for _, _, msg, hint in found}
    assert hints["counter"] == "give both the same `times` and `per`, or different keys"
    assert "declared by `limit: {times: N, per: SCOPE, key: NAME}`" in hints["limit"]


def test_every_valid_form_passes(tmp_path):
    assert problems(tmp_path, """\
        actions:
          rest: {limit: 2, condition: "uses(rest) < 2 and uses(rest, players[1]) >= 0"}
          work: {limit: {times: 1, per: game, key: chores}, condition: 'uses("chores") == 0'}
          nap: {limit: {times: 1, per: game, key: chores}}
        triggers:
          t: {on: turn_start, max_fires: 1, effect: "say uses('t')"}
          u: {on: turn_end, max_fires: {times: 3, per: phase}, effect: "say 1"}
        """) == [("warning", "12:3", "action 'nap' is never offered: no step or free_actions lists it and no "
                                     "`perform` names it", None)]
