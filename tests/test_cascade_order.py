"""Cascade ordering: `changed_at` (last change) versus `matched_at` (a first-in-first-out queue of matches)."""

from __future__ import annotations

import pytest

from conftest import evaluate, make_game, new_state

pytestmark = pytest.mark.usefixtures("engine")  # every test runs on both engines

# A made-up "spark network": a node holding 2+ sparks bursts, sending one new spark to each of its
# targets, in order.  a -> b, c ; b -> d, c.  After a bursts, b and c are both full; b bursts first
# (it filled first) and sends to d, then tops up c.  A queue fires c next (it was waiting);
# ordering by the last change fires d next (c's top-up is newer than d's arrival).
SPEC = """
orrery: 1
game: {name: spark-net, players: {min: 1, max: 1}}
components:
  pieces:
    spark: {unlimited: true}
  zones:
    net: {type: graph, nodes: [a, b, c, d], edges: [[a, b], [a, c], [b, d], [b, c]]}
tables:
  sends: {values: {a: [b, c], b: [d, c], c: [], d: []}}
variables:
  fired: {start: "[]"}
setup: |
  for n in ["b", "c", "d"] { create spark in cell(net, n) }
flow:
  phases:
    - name: main
      steps: [{actions: [ignite]}]
actions:
  ignite:
    effect: |
      repeat 2 { create spark in cell(net, "a") }
triggers:
  burst:
    for: n in cells(net)
    when: count(n) >= 2
    order: ORDER
    effect: |
      fired += [n.label]
      destroy pieces(n)
      for t in sends[n.label] { create spark in cell(net, t) }
end:
  done: {when: "count(fired) > 0", winners: "[]"}
"""


@pytest.mark.parametrize("order, expected", [
    ('"[matched_at, changed_at(n)]"', ["a", "b", "c", "d"]),   # queue: c waited since a's burst
    ('"changed_at(n)"', ["a", "b", "d", "c"]),                # last change: c's top-up is newest
])
def test_queue_versus_last_change(tmp_path, order, expected):
    game = make_game(tmp_path, SPEC.replace("ORDER", order))
    gs = new_state(game, players=1)
    assert gs.is_terminal()  # the only action is forced, so the game plays itself
    assert evaluate(gs, "fired") == expected


def test_a_consumed_match_queues_anew_when_it_holds_again(tmp_path):
    # c starts full. Scan 1: a (just filled) and c (older) both match from the first scan; c's
    # older change fires it first. a bursts (b -> 2, c -> 1); b bursts (d -> 2, c -> 2): c matches
    # again and queues anew, level with d; d changed first, so d, then c a second time.
    spec = SPEC.replace("ORDER", '"[matched_at, changed_at(n)]"').replace(
        'for n in ["b", "c", "d"] { create spark in cell(net, n) }',
        'for n in ["b", "c", "c", "d"] { create spark in cell(net, n) }')
    gs = new_state(make_game(tmp_path, spec), players=1)
    assert evaluate(gs, "fired") == ["c", "a", "b", "d", "c"]
