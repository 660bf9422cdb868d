"""Causes of triggered runs (docs/dsl.md §6.5) and triggers scoped to a phase, on the made-up game
tests/specs/fuse-net.yaml, on both engines: chains along causal links (A -> B -> C), independent pops,
branches, an event trigger in a chain, a cascade that asks a player mid-way, and validation errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS, error_line, evaluate, make_game, new_state, seeded_trace

from orrery.interpreter.engine.game import Game
from orrery.rulespec.errors import SpecError
from orrery.rulespec.loader import load_spec

FUSE = SPECS / "fuse-net.yaml"
# (node, chain origin, bursts in the chain down to it, chain) for a drop on a and f: a's chain is
# a -> b -> c with d beside b, and g after d (whose burst lit it through the event trigger); f's chain is f
DROP_A_F = [["a", 1, 1, ["burst"]], ["f", 2, 1, ["burst"]], ["b", 1, 2, ["burst", "burst"]],
            ["d", 1, 2, ["burst", "burst"]], ["c", 1, 3, ["burst", "burst", "burst"]],
            ["g", 1, 3, ["burst", "burst", "burst"]]]


@pytest.fixture
def gs(engine):
    return new_state(Game(load_spec(FUSE)), players=2)


def test_chains_follow_the_causal_links(gs):
    gs.apply_label("a")
    gs.apply_label("f")
    assert evaluate(gs, "fired") == DROP_A_F
    assert evaluate(gs, "players[0].score") == 4  # the a chain's 3 bursts in a line, and f's 1
    assert evaluate(gs, "chains") == [3, 1]


def test_a_pop_that_held_before_a_chain_reached_it_is_not_part_of_it(gs):
    # a and b are both full after the drop; a's burst tops b up, but b was full already: b pops as a chain of
    # its own (what made its condition true is the drop), and so does d, which a's burst filled
    gs.apply_label("a")
    gs.apply_label("b")
    assert [f[:3] for f in evaluate(gs, "fired")][:3] == [["a", 1, 1], ["b", 2, 1], ["d", 1, 2]]


def test_an_event_knows_the_run_that_emitted_it(gs):
    gs.apply_label("a")
    gs.apply_label("f")
    # d's burst (run 4) emitted the event that lit g; the root's player is seat 0
    assert evaluate(gs, "heard") == [["burst", 4, 0]]


def test_causes_start_afresh_with_each_answer(gs):
    gs.apply_label("a")
    gs.apply_label("f")  # c's burst left one spark on e
    gs.apply_label("e")
    gs.apply_label("b")  # seat 1: e bursts, a chain of its own whose ids count from 1 again
    assert evaluate(gs, "fired") == [["e", 1, 1, ["burst"]]]
    assert evaluate(gs, "players[1].score") == 1


def test_a_trigger_scoped_to_a_phase_end_runs_there_only(gs):
    gs.apply_label("a")
    gs.apply_label("f")
    gs.apply_label("b")
    gs.apply_label("c")  # the play phase ends (tally runs), then the rest phase (its one action is automatic)
    assert evaluate(gs, "[round, phase]") == [2, "play"]
    assert evaluate(gs, "longest") == [3]  # the rest phase's end did not run it
    assert evaluate(gs, "chains") == []


def test_a_cascade_that_asks_keeps_the_same_causes(tmp_path, engine):
    # a choice inside the event trigger: the cascade runs as resumable frames and stops to ask
    spec = FUSE.read_text().replace('create spark in cell(net, "g")',
                                    'choose spot from [cell(net, "g"), cell(net, "e")] prompt "light which?"\n'
                                    '      create spark in spot')
    gs = new_state(make_game(tmp_path, spec), players=2)
    gs.apply_label("a")
    gs.apply_label("f")
    assert gs.decision.prompt == "light which?"
    gs.apply_label("g")
    assert evaluate(gs, "fired") == DROP_A_F


def test_games_play_the_same_on_both_engines():
    spec = load_spec(FUSE)
    for seed in range(4):
        traces = [seeded_trace(Game(spec, mode=mode), seed, 2, 40) for mode in ("compiled", "interpreted")]
        assert traces[0] == traces[1]
        assert traces[0][-1][1] is not None


def test_a_spec_that_reads_no_cause_keeps_none(tmp_path):
    plain = FUSE.read_text().replace("cause.origin, count(t for t in cause.chain where t == \"burst\"), cause.chain",
                                     "1, 1, []").replace("heard += [[event.cause.trigger, event.cause.id, "
                                                         "event.cause.player]]", "heard += [1]")
    game = make_game(tmp_path, plain)
    assert not game.rules.track_causes
    assert load_spec(FUSE).model.triggers and Game(load_spec(FUSE)).rules.track_causes
    reading = {"bubble-singularity"}  # (its chain reactions follow their causes: issue 33)
    for path in sorted((SPECS.parent.parent / "games").glob("*/rules.yaml")):
        assert Game(load_spec(path, check=False)).rules.track_causes == (path.parent.name in reading), path


def test_caused_by_names_the_places_a_firing_is_about(tmp_path, engine):
    # about no place at all: every burst counts as caused by the answer (a chain of 1, its own origin)
    spec = FUSE.read_text().replace('order: "[matched_at, changed_at(n)]"',
                                    'order: "[matched_at, changed_at(n)]"\n    caused_by: "[]"')
    gs = new_state(make_game(tmp_path, spec), players=2)
    gs.apply_label("a")
    gs.apply_label("f")
    assert [(f[0], f[1], f[2]) for f in evaluate(gs, "fired")] == [
        ("a", 1, 1), ("f", 2, 1), ("b", 3, 1), ("d", 4, 1), ("c", 6, 1), ("g", 7, 1)]


BAD = """
orrery: 1
game: {name: bad-cause, players: {min: 1, max: 1}}
components:
  pieces:
    spark: {unlimited: true}
  zones:
    net: {type: graph, nodes: [a, b], edges: [[a, b]]}
flow:
  phases: [{name: play, steps: [{actions: [go]}]}]
actions:
  go:
    effect: create spark in cell(net, "a")
triggers:
  burst:
    for: n in cells(net)
    when: size(n) >= 2
    caused_by: '[n, cell(net, "b")]'
    effect: |
      destroy pieces(n)
      say text(cause.chain) + text(cause.orign)
  tally:
    on: phase_end
    phase: [play, ply]
    caused_by: event
    effect: say text(event.cause.trigger)
end:
  never: {when: "false", winners: "[]"}
"""


@pytest.mark.parametrize("fragment, line", [
    ("a cause has no attribute 'orign' (did you mean 'origin'?)", 21),
    ("trigger 'tally' is scoped to phase 'ply', which the flow does not have (did you mean 'play'?)", 24),
    ("`caused_by` only works on state triggers", 25),
])
def test_misuse_is_a_located_error(tmp_path: Path, fragment: str, line: int):
    assert error_line(tmp_path, BAD, fragment) == line


def test_a_spec_name_cause_clashes_with_a_firing_cause(tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text(BAD.replace("components:", "variables:\n  cause: {start: 0}\ncomponents:"), encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert "a state trigger's effect names its firing's cause `cause`" in str(err.value)


def test_the_cascade_after_an_action_and_one_in_a_hook_have_their_roots(tmp_path, engine):
    # no `settle` in the action: the flow's cascade after it still belongs to the action's root; a cascade
    # that a hook settles (turn_start) has a root of its own, with no action
    spec = FUSE.read_text().replace("      fired = []\n      settle\n", "      fired = []\n").replace(
        "fired += [[n.label,", "fired += [[cause.action, cause.player, n.label,").replace(
        "    - name: play\n", "    - name: play\n      turn_start: |\n        create spark in cell(net, \"f\")\n"
                               "        settle\n")
    gs = new_state(make_game(tmp_path, spec), players=2)  # seat 0's turn_start: f bursts
    assert [f[:3] for f in evaluate(gs, "fired")] == [[None, 0, "f"]]
    gs.apply_label("a")
    gs.apply_label("b")
    assert [f[:3] for f in evaluate(gs, "fired")][:2] == [["drop", 0, "a"], ["drop", 0, "b"]]


def test_a_state_trigger_scoped_to_a_phase_matches_only_then(tmp_path, engine):
    spec = FUSE.read_text().replace("    for: n in cells(net)\n", "    for: n in cells(net)\n    phase: rest\n")
    gs = new_state(make_game(tmp_path, spec), players=2)
    gs.apply_label("a")
    gs.apply_label("f")
    assert evaluate(gs, "fired") == [] and evaluate(gs, 'size(cell(net, "a"))') == 2  # no burst in play
    gs.apply_label("b")
    gs.apply_label("c")  # the rest phase: its automatic `rest` actions are followed by their cascades
    # a, f, c then b burst (b last: a's burst topped it up), and b's burst leaves one spark on c
    assert evaluate(gs, '[size(cell(net, x)) for x in ["a", "b", "c", "f"]]') == [0, 0, 1, 0]
