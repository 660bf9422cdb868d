"""benchmarks/chain_cost.py and its made-up game benchmarks/chain/rules.yaml: the game makes k decisions in
its one action, and the script runs from the checkout, prints the shape it documents and refuses bad
arguments with exit 2.  No timing is checked (the figures are measurements, docs/performance.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from orrery.interpreter.engine.game import Game
from orrery.rulespec.loader import load_spec

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "chain_cost.py"
SPEC = REPO / "benchmarks" / "chain" / "rules.yaml"


def _chain_cost(*args: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_the_chain_game_makes_k_decisions_in_one_action(mode, tmp_path):
    variant = tmp_path / "k5.yaml"
    variant.write_text('variant: {name: k5}\nchanges:\n  - {set: variables.k.start, value: "5", why: test}\n')
    gs = Game(load_spec(SPEC, [variant]), mode=mode).new_initial_state(seed=3)
    answers = [1, 0, 1, 1, 0]
    for a in answers:
        assert not gs.is_terminal() and gs.legal_actions() == [0, 1]
        gs.apply(a)
    assert gs.is_terminal()
    assert [(h.label, h.auto) for h in gs.steps] == [("chain", True)] + [(str(a), False) for a in answers]
    assert gs.state.vars["total"] == 3 and gs.outcome().end == "done"


def test_the_script_reports_each_k_and_engine():
    done = _chain_cost("--ks", "4", "--seconds", "0.05", "--rounds", "2", "--json")  # k = 1 is added as the baseline
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["benchmark"] == "chain_cost" and out["ks"] == [1, 4] and out["modes"] == ["compiled", "interpreted"]
    assert out["rounds"] == 2
    assert set(out["machine"]) >= {"python", "cpus"}
    rows = out["results"]
    assert [(r["mode"], r["k"]) for r in rows] == [("compiled", 1), ("compiled", 4), ("interpreted", 1),
                                                   ("interpreted", 4)]
    for r in rows:
        k = r["k"]
        assert r["games"] >= 1 and r["decisions"] == r["games"] * k  # k decisions per game, every game
        assert r["answered"] == k and r["history"] == k + 1  # the action (forced) and k answered choices
        assert r["per_decision_us"] > 0 and r["per_decision_with_setup_us"] >= r["per_decision_us"]
        assert set(r) >= {"seconds", "setup_ms", "per_game_ms", "ratio_to_k1", "ratio_with_setup_to_k1"}
        assert len(r["per_decision_us_rounds"]) == 2
    for base, row in ((rows[0], rows[1]), (rows[2], rows[3])):
        assert base["ratio_to_k1"] == 1.0
        assert row["ratio_to_k1"] == pytest.approx(row["per_decision_us"] / base["per_decision_us"], abs=0.01)


def test_the_script_prints_a_table():
    done = _chain_cost("--ks", "1,2", "--seconds", "0.05", "--modes", "interpreted")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("# benchmarks/chain_cost.py --ks 1,2") and "us/decision" in lines[1]
    assert [line.split()[:2] for line in lines[2:4]] == [["interpreted", "1"], ["interpreted", "2"]]


@pytest.mark.parametrize("args, says", [
    (("--ks", "0"), "each k must be a whole number from 1 to"),
    (("--ks", "1,,2"), "each k must be a whole number"),
    (("--ks", "two"), "each k must be a whole number"),
    (("--ks", "5000"), "from 1 to 1000"),
    (("--seconds", "0"), "--seconds must be a number above 0"),
    (("--seconds", "inf"), "--seconds must be a number above 0"),
    (("--rounds", "0"), "--rounds must be at least 1"),
    (("--modes", "fast"), "each mode must be one of compiled, interpreted"),
])
def test_the_script_refuses_bad_arguments(args, says):
    done = _chain_cost(*args)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr
