"""The hand-written Bubble Singularity pop cascade (benchmarks/ref_pop_cascade.py) ends every supported
position exactly where the engine's `settle` does (compiled mode, answers [0] * 64).

Positions: those `capture_positions` takes just before a cascade fires in seeded random games, ~200
seeded reshuffles of them (`reshuffled`), and a set of seeded variations that also hand the players
the abilities the cascade reads (Color Popper, Node Amplifier, Color Stacker, Path Extender, Node
Master, Harmony Collector, Color Protector), pile extra bubbles on the board (long cascades, down to
the engine suspending after 64 answers), empty the market or the bag: random play reaches these
rarely, so the captured positions alone would leave most of the cascade's branches untested.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from orrery.interpreter.cli.bench import capture_positions, reshuffled
from orrery.interpreter.engine.game import Game
from orrery.interpreter.core.rng import Rng
from orrery.interpreter.core.values import Cell, ZoneRef

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # `benchmarks/` sits beside the engine, outside the installed package
    sys.path.insert(0, str(REPO))

from benchmarks import ref_pop_cascade as ref  # noqa: E402

CASCADE_ABILITIES = ["Color Popper", "Node Amplifier", "Color Stacker", "Path Extender", "Node Master",
                     "Harmony Collector", "Color Protector"]
FIELDS = ["outcome", "pops", "chain", "scores", "board", "supplies", "bag", "rng", "abilities", "market",
          "deck", "discard"]


@pytest.fixture(scope="module")
def game() -> Game:
    return Game.load(REPO / "games" / "bubble-singularity" / "rules.yaml", mode="compiled")


@pytest.fixture(scope="module")
def captured(game):
    return capture_positions(game, games=6, seed=5)


def _varied(state, rr: random.Random, rng: Rng):
    """A reshuffled copy with cascade abilities handed out, extra bubbles, and now and then an empty
    market, a nearly empty deck or bag."""
    s = reshuffled(state, rng)
    cards = {s.attrs[pid]["name"]: pid for pid, kind in enumerate(s.kinds) if kind == "ability"}
    for _ in range(rr.randint(1, 4)):
        pid = cards[rr.choice(CASCADE_ABILITIES)]
        holder = s.cursor.current if rr.random() < 0.6 else rr.randrange(s.n)
        s.move(pid, ZoneRef("abilities", holder))
        if rr.random() < 0.1:
            s.set_attr(pid, "face_up", False)
    if rr.random() < 0.2:
        for pid in list(s.places.get(ZoneRef("market"), [])):
            s.move(pid, ZoneRef("ability_discard"))
    if rr.random() < 0.1:
        for pid in list(s.places.get(ZoneRef("ability_deck"), []))[:-1]:
            s.move(pid, ZoneRef("ability_discard"))
    bag = ZoneRef("bag")
    for _ in range(rr.choice([0, 0, 5, 15, 30])):
        if not s.places.get(bag):
            break
        s.move(s.places[bag][-1], Cell("board", None, (rr.randrange(5), rr.randrange(5))))
    if rr.random() < 0.1:
        for pid in list(s.places.get(bag, []))[1:]:
            s.move(pid, ZoneRef("supply", rr.randrange(s.n)))
    return s


def _compare(game, states) -> tuple[int, list[str], dict]:
    """(supported positions, mismatch descriptions, outcome counts) over `states`."""
    supported, mismatches, seen = 0, [], {"asked": 0, "settled": 0, "error": 0, "rng moved": 0, "pops": 0}
    for i, state in enumerate(states):
        pos = ref.convert(state)
        after = ref.resolve(pos.copy()) if pos is not None else None
        if after is None:
            continue
        supported += 1
        outcome, engine_state = ref.engine_resolve(game, state)
        mine, theirs = ref.summary(after), ref.engine_summary(engine_state, outcome)
        seen[outcome] = seen.get(outcome, 0) + 1
        seen["pops"] += theirs[1]
        seen["rng moved"] += theirs[7] != state.rng.state
        if mine != theirs:
            diff = [f"{name}: reference {a!r} engine {b!r}" for name, a, b in zip(FIELDS, mine, theirs) if a != b]
            mismatches.append(f"position {i}: " + "; ".join(diff))
    return supported, mismatches, seen


def test_reference_agrees_on_captured_and_reshuffled_positions(game, captured):
    assert len(captured) >= 20
    rng = Rng(11)
    states = captured + [reshuffled(captured[i % len(captured)], rng) for i in range(200)]
    supported, mismatches, seen = _compare(game, states)
    assert not mismatches, "\n".join(mismatches[:5])
    assert supported >= 0.8 * len(states)
    assert seen["pops"] > len(states)  # chains, not only single pops


def test_reference_agrees_with_cascade_abilities(game, captured):
    rr, rng = random.Random(3), Rng(5)
    states = [_varied(captured[i % len(captured)], rr, rng) for i in range(160)]
    supported, mismatches, seen = _compare(game, states)
    assert not mismatches, "\n".join(mismatches[:5])
    assert supported >= 0.8 * len(states)
    assert seen["asked"] > 0  # some cascades need more than the 64 answers: both stop at the same decision
    assert seen["rng moved"] > 0  # Harmony Collector drew from the bag


def test_resolve_leaves_the_converted_position_alone(captured):
    pos = ref.convert(captured[0])
    before = ref.summary(pos)
    after = ref.resolve(pos.copy())
    assert ref.summary(pos) == before
    assert after.firings >= 1 and after.chain >= 1


def test_bench_reports_a_rate(captured):
    positions = [p for p in (ref.convert(s) for s in captured[:10]) if p is not None]
    assert ref.bench(positions, 0.05) > 0
