"""The hand-written benchmark references (benchmarks/ref_*.py) play legal, complete games by the same
rules as the bundled specs: games/connect-four, games/breakthrough and games/reversi.

Each reference is checked on its own (game lengths, final positions, a fixed-seed result), then a few
seeded random games are played move for move through both the reference and the spec: at every
decision the spec must offer exactly the reference's legal moves, the boards must agree, and both must
end the same way.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from orrery.interpreter.engine.game import Game
from orrery.interpreter.core.values import Cell
from orrery.rulespec.loader import load_spec

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # `benchmarks/` sits beside the engine, outside the installed package
    sys.path.insert(0, str(REPO))

from benchmarks import ref_breakthrough, ref_connect_four, ref_reversi  # noqa: E402

SEEDS = range(300)


# ----------------------------------------------------------------- connect four


def _c4_has_four(grid: list[list[int]], who: int) -> bool:
    """Four in a row of `who` anywhere on a grid[x][y] (a plain scan, independent of the bitboards)."""
    w, h = ref_connect_four.WIDTH, ref_connect_four.HEIGHT
    for x in range(w):
        for y in range(h):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(x + k * dx, y + k * dy) for k in range(4)]
                if all(0 <= a < w and 0 <= b < h and grid[a][b] == who for a, b in cells):
                    return True
    return False


def test_connect_four_games_are_legal():
    for seed in SEEDS:
        winner, moves, grid = ref_connect_four.play(random.Random(seed))
        assert 7 <= moves <= 42
        discs = [sum(col.count(p) for col in grid) for p in (0, 1)]
        assert sum(discs) == moves
        assert discs[0] - discs[1] in (0, 1)  # Red drops first, then they alternate
        for col in grid:  # gravity: no empty space below a disc
            filled = [v != -1 for v in col]
            assert filled == sorted(filled, reverse=True)
        if winner is None:
            assert moves == 42 and not _c4_has_four(grid, 0) and not _c4_has_four(grid, 1)
        else:
            assert _c4_has_four(grid, winner)
            assert not _c4_has_four(grid, 1 - winner)  # the game stopped at the first four
            assert discs[winner] == discs[1 - winner] + (1 if winner == 0 else 0)  # the winner moved last


def test_connect_four_fixed_seed_and_playout():
    assert ref_connect_four.play(random.Random(1))[:2] == (1, 30)
    assert ref_connect_four.random_playout(random.Random(1)) == 30
    lengths = [ref_connect_four.random_playout(random.Random(s)) for s in SEEDS]
    assert min(lengths) >= 7 and max(lengths) <= 42 and len(set(lengths)) > 10


# ----------------------------------------------------------------- breakthrough


def test_breakthrough_games_are_legal():
    size = ref_breakthrough.SIZE
    for seed in SEEDS:
        rng = random.Random(seed)
        board = ref_breakthrough.initial_board()
        pawns = ref_breakthrough.pawn_squares(board)
        me, plies = ref_breakthrough.WHITE, 0
        while True:  # replay the reference's own move generator, checking every move it offers
            moves = ref_breakthrough.legal_moves(board, me, pawns[me])
            assert sorted(moves) == sorted(ref_breakthrough.legal_moves(board, me))  # the pawn sets match the board
            assert moves, "a player always has a move"
            for src, dst in moves:
                assert board[src] == me and board[dst] != me
                forward = dst // size - src // size
                assert forward == (1 if me == ref_breakthrough.WHITE else -1)
                sideways = abs(dst % size - src % size)
                assert sideways in (0, 1)
                if sideways == 0:
                    assert board[dst] == ref_breakthrough.EMPTY  # no straight capture
            src, dst = moves[rng.randrange(len(moves))]
            board[dst], board[src] = me, ref_breakthrough.EMPTY
            for squares in pawns.values():
                squares.discard(dst)
            pawns[me].discard(src)
            pawns[me].add(dst)
            plies += 1
            foe = 3 - me
            if dst // size in (0, size - 1) or foe not in board:
                break
            me = foe
        assert ref_breakthrough.play(random.Random(seed)) == (plies, me, [0, board.count(1), board.count(2)])


def test_breakthrough_fixed_seed_and_playout():
    plies, winner, pawns = ref_breakthrough.play(random.Random(1))
    assert (plies, winner, pawns) == (65, ref_breakthrough.WHITE, [0, 13, 13])
    assert ref_breakthrough.random_playout(random.Random(1)) == 65
    for seed in SEEDS:
        plies, winner, pawns = ref_breakthrough.play(random.Random(seed))
        assert plies >= 11  # the fastest possible breakthrough: six steps from row 2, five replies
        assert 0 < pawns[winner] <= 16 and 0 <= pawns[3 - winner] <= 16
        assert (plies % 2 == 1) == (winner == ref_breakthrough.WHITE)  # the winner made the last move


# ----------------------------------------------------------------- reversi


def test_reversi_games_are_legal():
    for seed in SEEDS:
        plies, dark, light = ref_reversi.play(random.Random(seed))
        assert dark + light <= 64
        assert dark + light == 4 + plies  # every move adds one disc, nothing is removed
        assert plies <= 60 and dark >= 0 and light >= 0


def test_reversi_moves_flip_what_they_outflank():
    board = ref_reversi.initial_board()
    assert sorted(ref_reversi.legal_moves(board, ref_reversi.DARK)) == [34, 43, 56, 65]  # d3 c4 f5 e6
    assert ref_reversi.place(board, 34, ref_reversi.DARK) == 1  # d3 turns d4 over
    assert board[44] == ref_reversi.DARK
    # a disc closing three lines at once: Dark on d4 with Light on c4, d5, e5 and Dark beyond each
    board = ref_reversi.initial_board()
    for sq in ref_reversi.SQUARES:
        board[sq] = ref_reversi.EMPTY
    for sq in (42, 64, 66):  # b4, d6, f6
        board[sq] = ref_reversi.DARK
    for sq in (43, 54, 55, 35):  # c4, d5, e5, e3 (not closed)
        board[sq] = ref_reversi.LIGHT
    assert ref_reversi.place(board, 44, ref_reversi.DARK) == 3
    assert board[35] == ref_reversi.LIGHT


def test_reversi_fixed_seed_and_playout():
    assert ref_reversi.play(random.Random(1)) == (60, 27, 37)
    assert ref_reversi.random_playout(random.Random(1)) == 60
    early = [s for s in range(200) if ref_reversi.play(random.Random(s))[0] < 60]
    assert early, "some random games end before the board is full (both players pass)"


# ----------------------------------------------------------------- the same rules as the specs


def _load(name: str) -> Game:
    return Game(load_spec(REPO / "games" / name / "rules.yaml"))


def _label(x: int, y: int) -> str:
    return "abcdefgh"[x] + str(y + 1)


def _spec_board(gs) -> dict[str, int]:
    """Owner (seat) of the piece in every occupied cell of the spec's board."""
    s = gs.state
    out = {}
    for place, pids in s.places.items():
        if isinstance(place, Cell) and pids:
            assert len(pids) == 1
            out[_label(*place.pos)] = int(s.attrs[pids[-1]]["owner"])
    return out


def _offered(gs) -> list[str]:
    return sorted(o.label for o in gs.decision.options)


@pytest.mark.parametrize("seed", range(4))
def test_connect_four_reference_matches_the_spec(seed):
    game = _load("connect-four")
    gs = game.new_initial_state()
    rng = random.Random(seed)
    grid = [[-1] * 6 for _ in range(7)]
    heights, who = [0] * 7, 0
    while True:
        legal = [x for x in range(7) if heights[x] < 6]
        if len(legal) > 1:  # a single legal column is dropped into without asking
            assert _offered(gs) == ["abcdefg"[x] for x in legal]
            assert _spec_board(gs) == {_label(x, y): grid[x][y] for x in range(7) for y in range(6) if grid[x][y] >= 0}
        x = legal[rng.randrange(len(legal))]
        if len(legal) > 1:
            gs.apply_label("abcdefg"[x])
        grid[x][heights[x]] = who
        heights[x] += 1
        if _c4_has_four(grid, who) or all(h == 6 for h in heights):
            break
        who = 1 - who
    outcome = gs.outcome()
    assert outcome is not None
    if _c4_has_four(grid, who):
        assert (outcome.end, outcome.winners) == ("four_in_a_row", [who])
    else:
        assert (outcome.end, outcome.winners) == ("board_full", [])


@pytest.mark.parametrize("seed", range(2))
def test_breakthrough_reference_matches_the_spec(seed):
    game = _load("breakthrough")
    gs = game.new_initial_state()
    rng = random.Random(seed)
    board = ref_breakthrough.initial_board()
    me = ref_breakthrough.WHITE

    def name(sq: int) -> str:
        return _label(sq % 8, sq // 8)

    while True:
        moves = ref_breakthrough.legal_moves(board, me)
        if len(moves) > 1:
            assert _offered(gs) == sorted(f"{name(s)}, {name(d)}" for s, d in moves)
            assert _spec_board(gs) == {name(q): board[q] - 1 for q in range(64) if board[q]}
        src, dst = moves[rng.randrange(len(moves))]
        if len(moves) > 1:
            gs.apply_label(f"{name(src)}, {name(dst)}")
        board[dst], board[src] = me, ref_breakthrough.EMPTY
        foe = 3 - me
        home = dst // 8 == (7 if me == ref_breakthrough.WHITE else 0)
        if home or foe not in board:
            outcome = gs.outcome()
            assert outcome is not None and outcome.winners == [me - 1]
            assert outcome.end == ("broke_through" if home else "all_captured")
            return
        me = foe


@pytest.mark.parametrize("seed", [2])  # a game with passes in it
def test_reversi_reference_matches_the_spec(seed):
    game = _load("reversi")
    gs = game.new_initial_state()
    rng = random.Random(seed)
    board = ref_reversi.initial_board()
    me, passed, passes = ref_reversi.DARK, False, 0

    def name(sq: int) -> str:
        return _label(sq % 10 - 1, sq // 10 - 1)

    def position() -> dict[str, int]:
        return {name(q): board[q] - 1 for q in ref_reversi.SQUARES if board[q] != ref_reversi.EMPTY}

    while len(position()) < 64:
        moves = ref_reversi.legal_moves(board, me)
        if not moves:  # the spec passes automatically
            passes += 1
            if passed:
                break
            passed, me = True, 3 - me
            continue
        passed = False
        if len(moves) > 1:
            assert gs.current_player() == me - 1
            assert _offered(gs) == sorted(name(q) for q in moves)
            assert _spec_board(gs) == position()
        sq = moves[rng.randrange(len(moves))]
        if len(moves) > 1:
            gs.apply_label(name(sq))
        ref_reversi.place(board, sq, me)
        me = 3 - me
    assert passes > 0
    outcome = gs.outcome()
    assert outcome is not None and _spec_board(gs) == position()
    dark, light = board.count(ref_reversi.DARK), board.count(ref_reversi.LIGHT)
    assert outcome.scores == [dark, light]
    assert outcome.winners == ([] if dark == light else [0] if dark > light else [1])


# ----------------------------------------------------------------- benchmarks/run


def _bench_run(*args: str) -> "subprocess.CompletedProcess[str]":
    import subprocess

    return subprocess.run([sys.executable, str(REPO / "benchmarks" / "run"), *args], capture_output=True, text=True,
                          timeout=300)


def test_benchmarks_run_prints_the_ratios_from_the_checkout():
    import json

    done = _bench_run("--seconds", "0.05", "--rounds", "1", "--games", "connect-four", "--json")
    assert done.returncode == 0, done.stderr
    (result,) = json.loads(done.stdout)["results"]
    rates = result["playouts_per_s"]
    assert rates["compiled"] > 0 and rates["interpreted"] > 0 and rates["reference"] > 0
    assert result["compiled_vs_interpreted"] == round(rates["compiled"] / rates["interpreted"], 3)
    assert result["compiled_vs_reference"] == round(rates["compiled"] / rates["reference"], 4)
    table = _bench_run("--seconds", "0.05", "--rounds", "1", "--games", "tic-tac-toe")
    assert table.returncode == 0 and "x interp" in table.stdout and table.stdout.count("tic-tac-toe") == 1


@pytest.mark.parametrize("args, says", [
    (("--games", "chess"), "no bundled game chess"),
    (("--seconds", "0"), "--seconds must be above 0"),
    (("--rounds", "0"), "--rounds at least 1"),
])
def test_benchmarks_run_refuses_bad_arguments(args, says):
    done = _bench_run(*args)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr


# ----------------------------------------------------------------- benchmarks/api_playouts.py


@pytest.mark.parametrize("args", [("connect-four", "3"), ("bubble-singularity", "1", "2", "--sampled")])
def test_api_playouts_plays_the_same_games_as_the_api(args):
    """The script timed from outside (by an outside timer) plays seeded games through the API: its count of decisions
    is what the API gives for the same seeds."""
    import subprocess

    from orrery.interpreter.core.rng import Rng
    from orrery.interpreter.engine.game import load_game

    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "api_playouts.py"), *args], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    game, decisions = load_game(args[0]), 0
    for i in range(int(args[1])):
        gs, rng = game.new_initial_state(players=int(args[2]) if len(args) > 2 else None, seed=i), Rng(i * 7 + 1)
        while not gs.is_terminal():
            if "--sampled" in args:
                gs.sample_step(rng)
            else:
                gs.apply(gs.legal_actions()[rng.below(len(gs.legal_actions()))])
            decisions += 1
    assert int(done.stdout) == decisions > 0


def test_mcts_search_chooses_what_the_bot_chooses():
    """benchmarks/mcts_search.py (counted from outside) runs the very search the bot runs from the start."""
    import subprocess

    from orrery.interpreter.bots.mcts import MctsBot
    from orrery.interpreter.engine.game import load_game

    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "mcts_search.py"), "connect-four", "30"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    state = load_game("connect-four").new_initial_state(seed=1)
    assert int(done.stdout) == MctsBot(1, iterations=30, reuse=False).choose(state)


def test_the_protocol_bound_plays_the_api_games():
    """benchmarks/protocol_bound.py's bare loop (the compiled pieces without the engine around them) is a
    fair bound only if it plays the very games the API plays: same decisions, narration and final boards."""
    from benchmarks.protocol_bound import Bare, api_game, same_games

    from orrery.interpreter.engine.game import load_game

    game = load_game("connect-four")
    same_games(game, 12)
    n_api, gs = api_game(game, 3)
    n_bare, bare = Bare(game).play(3)
    assert n_api == n_bare > 5 and len(bare.pos.s.kinds) == len(gs.pos.s.kinds) >= 7


def test_the_layout_bound_counts_reads_of_the_games_the_api_plays():
    """benchmarks/layout_bound.py counts the board, attribute and neighbour reads of the bare loop, with the
    counting tables compiled in; the counted game must still play the API's games, and count every kind."""
    from benchmarks.layout_bound import Counted, counted_game, reads_per_move, saving_ns
    from benchmarks.protocol_bound import Bare, api_game

    from orrery.interpreter.engine.game import load_game

    n_api, gs = api_game(load_game("connect-four"), 4)
    n_bare, counted = Bare(Counted(counted_game())).play(4)
    board_of = lambda s: {c: list(p) for c, p in s.places.items() if p}  # noqa: E731
    assert n_bare == n_api and board_of(counted.pos.s) == board_of(gs.pos.s) and counted.pos.s.attrs == gs.pos.s.attrs
    board, attrs, neighbours = reads_per_move(4)
    assert board >= 5 and attrs >= 1 and neighbours >= 3  # each drop tests the columns, its landing, its lines
    assert set(saving_ns(number=200, repeat=1)) == {"board", "attribute", "neighbour"}


def test_the_ceilings_play_the_engines_games():
    """benchmarks/ceiling_*.py (a game's compiled code as a typed generator would have to write it, by hand) are
    a fair bound only if they play the very games the engine's lean path plays: same decisions, board, result."""
    import importlib

    from benchmarks.ceilings import CEILINGS, check

    for name, module in CEILINGS.items():
        assert check(name, importlib.import_module(f"benchmarks.{module}"), 6) > 6
