"""Property tests with hypothesis: broken specs never crash the loader, random play never breaks a rule.

(a) Mutated specs.  Each bundled `games/*/rules.yaml` is read as plain YAML data, then damaged
    (keys deleted or renamed, values swapped for another type, rule text truncated, cut,
    sprinkled with operators or given the wrong names, list items duplicated), written back
    to a temporary file and loaded with `load_spec`, the way every command loads a spec.  The
    loader must either accept the result or raise `OrreryError` whose findings are all located
    in that file (line >= 1): never any other exception.  A second test damages the file's
    text itself (YAML syntax).
(b) Random legal play.  For every bundled spec and every player count, hypothesis draws a seed
    and a list of choice numbers; the game answers `legal_actions()[k % len]` for each and
    every invariant of the spec is checked after every step (`check_invariants`).  No invariant
    may fail and nothing may raise: a game either goes on or ends.

Every test is derandomized (the same examples on every run) with a modest number of examples,
so CI stays fast and a failure reproduces; by default a third of them, all of them with
ORRERY_FULL_BUDGET=1 (conftest.budget; the tests are marked slow).  To fuzz harder locally, multiply every count:
`ORRERY_FUZZ_SCALE=20 python -m pytest tests/test_fuzz.py`.
"""

from __future__ import annotations

import copy
import functools
import itertools
import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orrery.interpreter.engine.game import Game
from orrery.interpreter.bots.simulate import check_invariants
from orrery.rulespec.errors import OrreryError
from orrery.rulespec.loader import load_spec

from conftest import budget, shared_game, spec_data

pytestmark = pytest.mark.slow  # a smaller hypothesis budget unless ORRERY_FULL_BUDGET=1 (fuzz_settings)

GAMES = Path(__file__).resolve().parent.parent / "games"
SPECS = sorted(p.parent.name for p in GAMES.glob("*/rules.yaml"))
_COUNTER = itertools.count()


SCALE = max(1, int(os.environ.get("ORRERY_FUZZ_SCALE", "1") or 1))


def fuzz_settings(max_examples: int) -> settings:
    """Reproducible, deadline-free settings (ORRERY_FUZZ_SCALE multiplies the examples; a third of them unless CI
    is set)."""
    examples = budget(max(3, max_examples // 3), max_examples) * SCALE
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


def _spec_data(game: str) -> Any:
    return spec_data(GAMES / game / "rules.yaml")  # (read once per process: conftest)


@functools.lru_cache(maxsize=None)
def _spec_text(game: str) -> str:
    return (GAMES / game / "rules.yaml").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def _names(game: str) -> tuple[str, ...]:
    """Every identifier written in the spec (keys and words of rule text): material for swapping names."""
    out: set[str] = set()
    for path in _paths(_spec_data(game)):
        value = _get(_spec_data(game), path)
        if isinstance(value, str):
            out.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", value))
        if path and isinstance(path[-1], str):
            out.add(path[-1])
    return tuple(sorted(out))


# ---------------------------------------------------------------------------------- (a) mutations

def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


def _get(node: Any, path: tuple) -> Any:
    for step in path:
        node = node[step]
    return node


# Things typed by mistake (or on purpose) into rule text.
JUNK = ("(", ")", "[", "]", "{", "}", ",", ".", ":", "+", "-", "*", "//", "%", "==", "!=", "<", ">=", " and ",
        " or ", " not ", " in ", " if ", " then ", " else ", " for ", " where ", "\n", ";", '"', "'", "\\", "#",
        "0", "-1", "99999999999999999999999", "none", "true", "__class__", "\t", "\x00", "é", "let ", "choose ",
        "end_game ", "emit ", "{{", "%s", "\u2028")
# Values of every YAML type, to replace a value of another type.
REPLACEMENTS = ("x", "", "1", "[]", 0, -1, 7, 10**6, 2**70, 1.5, True, False, None, [], [1, "a"], {}, {"a": 1},
                [[]], {"when": "true"})
TEXT_OPS = ("truncate", "insert", "cut", "swap_name")
OPS = TEXT_OPS * 2 + ("delete", "retype", "duplicate", "rename", "retype_inside")

mutation = st.tuples(st.sampled_from(OPS), st.integers(0, 2**20), st.integers(0, 2**20),
                     st.sampled_from(JUNK), st.sampled_from(REPLACEMENTS))


def mutate(data: Any, m: tuple, names: tuple[str, ...]) -> None:
    """Apply one mutation (op, where, arg, junk, replacement) in place; `where` picks the value."""
    op, where, arg, junk, replacement = m
    paths = _paths(data)[1:]
    if op in TEXT_OPS:  # rule text and names are where most mistakes are made
        paths = [p for p in paths if isinstance(_get(data, p), str)] or paths
    if not paths:
        return
    path = paths[(where * 2654435761) % len(paths)]  # spread hypothesis's many small numbers over the file
    parent, key = _get(data, path[:-1]), path[-1]
    value = parent[key]
    if op == "delete":
        del parent[key]
    elif op in ("retype", "retype_inside"):
        parent[key] = copy.deepcopy(replacement) if op == "retype" or not isinstance(value, str) else [value]
    elif op in TEXT_OPS and isinstance(value, str):
        i = arg % (len(value) + 1)
        if op == "truncate":
            parent[key] = value[:i]
        elif op == "insert":
            parent[key] = value[:i] + junk + value[i:]
        elif op == "cut":
            j = min(len(value), i + 1 + arg % 12)
            parent[key] = value[:i] + value[j:]
        else:
            words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", value)
            if words:
                parent[key] = value.replace(words[arg % len(words)], names[arg % len(names)], 1)
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(value))
    elif op == "duplicate" and isinstance(value, list) and value:
        value.append(copy.deepcopy(value[arg % len(value)]))
    elif op == "rename" and isinstance(parent, dict):
        new = (str(key) + "x", names[arg % len(names)], "__class__", "1", "")[arg % 5]
        parent[new] = parent.pop(key)
    else:  # an op that does not fit this value: drop it to none instead
        parent[key] = None


def _assert_located(err: OrreryError, path: Path) -> None:
    assert err.findings, "an OrreryError must carry at least one finding"
    for f in err.findings:
        assert f.span is not None, f"unlocated finding: {f.message}"
        assert f.span.line >= 1 and f.span.col >= 1, f"bad position {f.span} for: {f.message}"
        assert f.span.file == str(path), f"finding points at another file: {f.headline()}"


def _load_checked(path: Path) -> None:
    """load_spec either succeeds or raises OrreryError whose findings are all located in `path`."""
    try:
        load_spec(path)
    except OrreryError as err:
        _assert_located(err, path)


def _fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.getbasetemp() / f"fuzz_{next(_COUNTER)}.yaml"


# Mutations per spec with ORRERY_FULL_BUDGET=1 (a third by default): the five short classic specs get 12-30 (until session 7
# 25-60: their few constructs took the same mutations again), the long ones keep 25 (Bubble Singularity 12).
MUTATION_EXAMPLES = {"tic-tac-toe": 30, "connect-four": 12, "reversi": 12, "breakthrough": 12, "lantern-fair": 12,
                     "bubblee-pop": 25, "bubble-singularity": 12}


@pytest.mark.parametrize("game", SPECS)
def test_mutated_specs_load_or_give_located_findings(game: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    names = _names(game)

    @fuzz_settings(MUTATION_EXAMPLES.get(game, 25))
    @given(mutations=st.lists(mutation, min_size=1, max_size=4))
    def check(mutations: list[tuple]) -> None:
        data = copy.deepcopy(_spec_data(game))
        for m in mutations:
            mutate(data, m, names)
        path = _fresh(tmp_path_factory)
        # (libyaml's emitter: PyYAML's pure-Python one took a third of this test's time on the long specs)
        path.write_text(yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True), encoding="utf-8")
        _load_checked(path)

    check()


edit = st.tuples(st.sampled_from(("insert", "delete", "duplicate_line", "indent")), st.integers(0, 2**20),
                 st.integers(1, 40), st.sampled_from(JUNK + ("&a ", "*a", "!!python/name:os.system ", "<<: ",
                                                             "? ", "- ", ": ", "|", ">", "---\n", "%TAG ")))


@fuzz_settings(30)  # (60 until session 7)
@given(game=st.sampled_from(SPECS), edits=st.lists(edit, min_size=1, max_size=3))
def test_damaged_yaml_text_gives_located_findings(game: str, edits: list[tuple],
                                                  tmp_path_factory: pytest.TempPathFactory) -> None:
    text = _spec_text(game)
    for op, where, size, junk in edits:
        i = where % (len(text) + 1)
        if op == "insert":
            text = text[:i] + junk + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + size:]
        else:
            lines = text.split("\n")
            k = where % len(lines)
            if op == "duplicate_line":
                lines.insert(k, lines[k])
            else:
                lines[k] = " " * (size % 5 + 1) + lines[k]
            text = "\n".join(lines)
    path = _fresh(tmp_path_factory)
    path.write_text(text, encoding="utf-8")
    _load_checked(path)


# ------------------------------------------------------------------------------ (b) random play

def _game(name: str) -> Game:
    return shared_game(name)


def _player_counts() -> list[tuple[str, int]]:
    out = []
    for name in SPECS:
        players = _spec_data(name)["game"].get("players", {})
        lo, hi = players.get("min", 1), players.get("max", players.get("min", 1))
        out += [(name, n) for n in range(lo, hi + 1)]
    return out


DECISIONS = 20  # decisions played per example (a game that ends sooner stops there)
PLAY_EXAMPLES = {"tic-tac-toe": 40, "bubblee-pop": 6, "bubble-singularity": 5}


@pytest.mark.parametrize("name,players", _player_counts())
def test_random_legal_play_keeps_every_invariant(name: str, players: int) -> None:
    game = _game(name)
    assert game.rules.invariants, f"{name} declares no invariants to check"

    @fuzz_settings(PLAY_EXAMPLES.get(name, 7))
    @given(seed=st.integers(0, 2**31 - 1), picks=st.lists(st.integers(0, 2**16), min_size=DECISIONS,
                                                           max_size=DECISIONS))
    def play(seed: int, picks: list[int]) -> None:
        gs = game.new_initial_state(players=players, seed=seed)
        previous: dict[str, Any] = {}
        violations = check_invariants(game, gs, seed, 0, previous)
        assert not violations, [v.as_dict() for v in violations]
        for step, k in enumerate(picks, start=1):
            if gs.is_terminal():
                break
            legal = gs.legal_actions()
            assert legal, "a game that is not over must offer something to choose"
            gs.apply(legal[k % len(legal)])
            violations = check_invariants(game, gs, seed, step, previous)
            assert not violations, [v.as_dict() for v in violations]

    play()
