"""Memory of a game's positions and search trees (issue 17): bytes per cloned position and per 10,000 MCTS nodes.

Measured with `tracemalloc` (Python's own allocations, what a clone or a tree keeps alive): the
difference in traced memory before and after making N clones of a mid-game position, divided by N;
and the memory a search tree holds after an MCTS search from the start position, divided by its
number of nodes and scaled to 10,000.  Nothing here knows any game.
"""

from __future__ import annotations

import gc
import random
import tracemalloc
from typing import Any, Callable

from ..engine.game import Game, GameState
from ..bots.mcts import MctsBot

PER_NODES = 10_000


def random_position(game: Game, seed: int, decisions: int | None = None) -> GameState:
    """A seeded random position: after `decisions` random answers (default: half of a seeded random game)."""
    if decisions is None:
        decisions = len(_random_line(game, seed, None)) // 2
    gs = game.new_initial_state(seed=seed)
    _random_line(game, seed, decisions, gs)
    return gs


def _random_line(game: Game, seed: int, limit: int | None, gs: GameState | None = None) -> list[int]:
    """Random answers (from `random.Random(seed)`) played on `gs` (a new game when None) up to `limit`."""
    gs = gs if gs is not None else game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    line: list[int] = []
    while not gs.is_terminal() and (limit is None or len(line) < limit):
        line.append(rng.choice(gs.legal_actions()))
        gs.apply(line[-1], keep=False)
    return line


def traced_bytes(make: Callable[[], Any]) -> tuple[int, int, Any]:
    """(bytes still held by what `make()` returns, peak bytes during it, the result), by tracemalloc."""
    gc.collect()
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        result = make()
        gc.collect()
        now, peak = tracemalloc.get_traced_memory()
    finally:
        if started:
            tracemalloc.stop()
    return now - before, peak - before, result


def clone_bytes(gs: GameState, clones: int = 200) -> dict[str, float]:
    """Bytes per clone of a position: the Position alone (state + frames) and the whole GameState (history too)."""
    pos_held, _, _ = traced_bytes(lambda: [gs.pos.clone() for _ in range(clones)])
    gs_held, _, _ = traced_bytes(lambda: [gs.clone() for _ in range(clones)])
    return {"position": round(pos_held / clones, 1), "game_state": round(gs_held / clones, 1)}


def tree_nodes(root: Any) -> int:
    """Nodes of an MCTS tree (the root included)."""
    count, todo = 0, [root]
    while todo:
        node = todo.pop()
        count += 1
        todo.extend(node.children.values())
    return count


def mcts_bytes(game: Game, iterations: int | None = 200, seconds: float | None = None, seed: int = 1,
               playout: int | None = None) -> dict[str, float]:
    """Memory of the tree one MCTS search from the start position builds (budget: iterations and/or seconds,
    whichever ends first; `playout` caps its playouts, which changes how fast nodes come, not what they hold):
    held and peak, per 10,000 nodes."""
    gs = game.new_initial_state(seed=seed)
    bot = MctsBot(seed, iterations=iterations, seconds=seconds, playout=playout, reuse=True)
    held, peak, _ = traced_bytes(lambda: bot.choose(gs))
    nodes = tree_nodes(bot._root) if bot._root is not None else 1
    return {"iterations": bot.stats.get("iterations", 0), "nodes": nodes,
            "bytes_per_10k_nodes": round(held / nodes * PER_NODES),
            "peak_bytes_per_10k_nodes": round(peak / nodes * PER_NODES)}


def memory_report(game: Game, seed: int = 1, clones: int = 200, iterations: int | None = 200,
                  seconds: float | None = None, playout: int | None = None) -> dict[str, Any]:
    """Bytes per cloned mid-game position and per 10,000 MCTS nodes for one game."""
    gs = random_position(game, seed)
    out: dict[str, Any] = {"game": game.name, "mode": game.mode, "decisions_played": len(gs.history()),
                           "clone_bytes": clone_bytes(gs, clones)}
    out["mcts"] = mcts_bytes(game, iterations, seconds, seed, playout)
    return out
