"""The search tree's memory in exact mode (interpreter/bots/mcts.py): positions kept in at most `keep` nodes, the
others rebuilt by replaying moves; the bot's choices are the same as before the cap (tests/mcts_record.py)."""

from __future__ import annotations

import json

import pytest

from orrery.interpreter.bots.mcts import DEFAULT_KEEP, MctsBot, parse_budget
from orrery.interpreter.cli.bench_memory import mcts_bytes, tree_nodes
from orrery.interpreter.engine.game import Game

import mcts_record as R
from conftest import REPO, SPECS

RECORDED = json.loads(R.DATA.read_text(encoding="utf-8"))
CONNECT_FOUR = REPO / "games" / "connect-four" / "rules.yaml"
DICE_RACE = SPECS / "dice-race.yaml"


def kept_positions(root) -> int:
    """Nodes of the tree that hold a position."""
    count, todo = 0, [root]
    while todo:
        node = todo.pop()
        count += node.gs is not None
        todo.extend(node.children.values())
    return count


def certain_nodes(root) -> list[tuple[list[int], object]]:
    """(the moves from the root, node) of every node whose position is certain, root first."""
    out, todo = [], [([], root)]
    while todo:
        moves, node = todo.pop()
        if node.sure:
            out.append((moves, node))
            todo.extend((moves + [a], ch) for a, ch in sorted(node.children.items()))
    return out


# ------------------------------------------------------------------ the choices are those recorded before the cap


# the default keeps every expanded node's position in searches this small; keep=2 keeps the root's and one more,
# so that nearly every position is rebuilt from far up the path
SETTINGS = {"default": {}, "keep2": {"keep": 2}}


@pytest.mark.parametrize("setting", sorted(SETTINGS))
@pytest.mark.parametrize("key", R.keys(), ids=R.case_id)
def test_same_search_as_recorded(key, setting):
    """One search from each recorded position: the move, the root's visits and every node's statistics."""
    assert R.run_case(*key, **SETTINGS[setting]) == RECORDED[R.case_id(key)]


@pytest.mark.parametrize("key", R.lines(), ids=R.case_id)
def test_same_decisions_as_recorded_with_the_tree_reused(key):
    """Consecutive decisions of one bot, its tree reused from one to the next (through a random draw in the dice
    race: such a subtree is not reused in exact mode).  With keep=2 only: the default keeps every position in
    trees this small, which the single searches above already compare (and these lines are the slowest cases)."""
    assert R.run_line(*key, **SETTINGS["keep2"]) == RECORDED["line/" + R.case_id(key)]


# ------------------------------------------------------------------ the bound


@pytest.mark.parametrize("keep", [1, 5, 40])
def test_a_tree_keeps_at_most_keep_positions(keep):
    """Connect four, 400 iterations: the tree expands well over 40 nodes, and keeps `keep` positions, the root's
    among them; over consecutive decisions with the tree reused, too.  (Without the cap every expanded node
    keeps its position: this fails.)"""
    gs = Game.load(CONNECT_FOUR).new_initial_state(seed=3)
    bot = MctsBot(3, iterations=400, playout=8, keep=keep)
    for _ in range(2):
        gs.apply(bot.choose(gs))
        expanded = sum(1 for _, n in certain_nodes(bot._root) if n.expanded)
        assert expanded > 40
        assert kept_positions(bot._root) == bot._kept <= keep
        assert bot._root.gs is not None
        gs.apply(gs.legal_actions()[len(gs.legal_actions()) // 2])


def test_positions_are_kept_only_in_expanded_nodes():
    """With no cap (keep=None), the positions kept are the expanded nodes' (the root's included), not the
    leaves': a fraction of the nodes."""
    gs = Game.load(CONNECT_FOUR).new_initial_state(seed=3)
    bot = MctsBot(3, iterations=400, playout=8, keep=None)
    bot.choose(gs)
    certain = certain_nodes(bot._root)
    assert kept_positions(bot._root) == sum(1 for _, n in certain if n.expanded) < len(certain) / 4


def test_memory_per_node_is_a_fraction_of_a_position():
    """`mcts_bytes` (the bench report's figure): with positions in a seventh of the nodes, connect four holds
    about 13 MB per 10,000 nodes at this size (400 nodes), against 72 MB when every node kept its position
    (about 7 KB)."""
    game = Game.load(CONNECT_FOUR)
    measured = mcts_bytes(game, iterations=300, playout=1)
    assert measured["nodes"] > 300
    assert measured["bytes_per_10k_nodes"] < 30e6


def test_the_default_and_the_budget_syntax():
    assert MctsBot(0).keep == DEFAULT_KEEP
    assert parse_budget("100:keep=50") == {"iterations": 100, "keep": 50}
    assert MctsBot(0, "100:keep=7").keep == 7
    for bad in ("keep=0", "keep=-1", "keep=x"):
        with pytest.raises(ValueError, match="keep=N"):
            parse_budget(bad)


# ------------------------------------------------------------------ rebuilt positions


def test_a_rebuilt_position_is_the_one_the_moves_reach():
    """Every certain node of a searched tree: replaying its moves from the root's position (`_rebuild`) gives the
    position the real game reaches with those moves, and the position the node keeps when it keeps one."""
    game = Game.load(CONNECT_FOUR)
    gs = game.new_initial_state(seed=5)
    bot = MctsBot(5, iterations=150, keep=None)
    bot.choose(gs)
    nodes = certain_nodes(bot._root)
    assert len(nodes) > 100 and any(len(moves) >= 3 for moves, _ in nodes)
    root = bot._root.gs
    for moves, node in nodes:
        rebuilt = bot._rebuild(root.clone(), moves)
        real = gs.clone()
        for a in moves:
            real.apply(a)
        rebuilt.state.rng = real.state.rng.clone()  # positions differ only in their seeds for later draws
        assert rebuilt.digest() == real.digest()
        assert rebuilt.history() == real.history()
        if node.gs is not None:
            kept = node.gs.clone()
            kept.state.rng = real.state.rng.clone()
            assert kept.digest() == real.digest()
        if not node.proven:
            assert node.mover == real.current_player()
    assert bot.rebuilt > 0


def test_replaying_a_random_draw_from_the_same_position_gives_the_same_position():
    """A position includes its RNG: the same moves from the same position give the same position, random draws
    included (the dice race's roll).  The search itself never replays a draw: a child reached through one is
    not certain, keeps no position, and the search goes on below it in information-set mode."""
    game = Game.load(DICE_RACE)
    gs = game.new_initial_state(seed=2)
    roll = next(o.index for o in gs.legal_options() if o.label == "roll")
    outcomes = set()
    for _ in range(8):
        a, b = gs.clone(), gs.clone()
        a.apply(roll)
        b.apply(roll)
        assert a.digest() == b.digest() and a.state.rng.state == b.state.rng.state
        outcomes.add(a.digest())
        gs.apply(roll if len(outcomes) % 2 else 0)  # move on: other rolls from other positions
    assert len(outcomes) > 1  # the roll does draw
    bot = MctsBot(1, iterations=200, keep=None)
    bot.choose(game.new_initial_state(seed=2))
    child = bot._root.children[roll]
    assert not child.sure and child.children  # searched below, in information-set mode
    assert kept_positions(child) == 0 and not certain_nodes(child)
    assert kept_positions(bot._root) >= 2  # above the draw, positions are kept as usual
