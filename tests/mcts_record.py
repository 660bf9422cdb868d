"""The MCTS bot's choices on the bundled exact-mode games, recorded to check that a change to how the search keeps
its positions changes nothing it decides (tests/test_mcts_memory.py).

`python tests/mcts_record.py` writes tests/fixtures/mcts/choices.json from the code checked out; it was run once
on the code before the positions were capped (commit d075c02; the dice-race cases were added later, recorded
with that commit's interpreter/bots/mcts.py), and the file committed.  For each case: the move
chosen, the root's visit counts, and a digest of the whole tree's statistics (visits, values, availability,
RAVE counts and proofs of every node), for one search from each of a few positions and for consecutive decisions
of one bot against a random opponent (its tree reused from one decision to the next).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DATA = HERE / "fixtures" / "mcts" / "choices.json"

# game, bot iterations, bot playout cap (None: the spec's), the plies of random moves before each searched position;
# the first case of each game also plays a line of consecutive decisions from the position after its last plies
CASES = [
    ("tic-tac-toe", 300, None, [1, 2, 3, 4, 0]),
    ("connect-four", 300, None, [3, 8, 15, 0]),
    ("connect-four", 800, 12, [5]),
    ("breakthrough", 60, None, [0, 20, 44]),
    ("reversi", 40, None, [20, 48]),
    ("dice-race", 300, None, [3, 0]),  # tests/specs: nothing hidden, and a move that draws at random
]
LINE_DECISIONS = 4  # consecutive decisions of one bot (tree reused) in the line case of each game


def _game(name: str) -> Any:
    """A bundled game, or a test spec of that name."""
    from orrery.interpreter.engine.game import Game
    path = REPO / "games" / name / "rules.yaml"
    return Game.load(path if path.exists() else HERE / "specs" / f"{name}.yaml")


def position(game: Any, plies: int, seed: int) -> Any:
    """The position after `plies` random moves (random.Random(seed)) from a game of that seed."""
    gs = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if gs.is_terminal():
            break
        gs.apply(rng.choice(gs.legal_actions()))
    return gs


def tree_digest(root: Any) -> str:
    """A digest of every node's statistics, children in index order (the cached positions left out)."""
    h = hashlib.sha256()
    todo = [root]
    while todo:
        n = todo.pop()
        h.update(repr((n.label, n.visits, n.value, n.avail, n.amaf_n, n.amaf_w, n.proven, n.expanded,
                       sorted(n.children))).encode())
        todo.extend(n.children[k] for k in sorted(n.children, reverse=True))
    return h.hexdigest()[:24]


def fingerprint(bot: Any, answer: int) -> dict[str, Any]:
    root = bot._root
    return {"answer": answer, "visits": {str(k): ch.visits for k, ch in sorted(root.children.items())},
            "tree": tree_digest(root), "stats": dict(sorted(bot.stats.items()))}


def run_case(name: str, iterations: int, playout: int | None, plies: int, seed: int, **bot_args: Any) -> dict:
    """One search from one position."""
    from orrery.interpreter.bots.mcts import MctsBot
    gs = position(_game(name), plies, seed)
    bot = MctsBot(seed, iterations=iterations, playout=playout, **bot_args)
    return fingerprint(bot, bot.choose(gs))


def run_line(name: str, iterations: int, playout: int | None, plies: int, seed: int, **bot_args: Any) -> list[dict]:
    """LINE_DECISIONS consecutive decisions of one bot against random moves, the tree reused."""
    from orrery.interpreter.bots.mcts import MctsBot
    gs = position(_game(name), plies, seed)
    me = gs.current_player()
    bot = MctsBot(seed, iterations=iterations, playout=playout, **bot_args)
    rng = random.Random(seed)
    out = []
    while not gs.is_terminal() and len(out) < LINE_DECISIONS:
        if gs.current_player() == me:
            answer = bot.choose(gs)
            out.append(fingerprint(bot, answer))
        else:
            answer = rng.choice(gs.legal_actions())
        gs.apply(answer)
    return out


def keys() -> list[tuple[str, int, int | None, int, int]]:
    """(game, iterations, playout, plies, seed) of every single-search case; the seed is 100 + plies."""
    return [(name, it, po, plies, 100 + plies) for name, it, po, ply_list in CASES for plies in ply_list]


def lines() -> list[tuple[str, int, int | None, int, int]]:
    """(game, iterations, playout, plies, seed) of every line case: the first case of each game, seed 7."""
    seen: dict[str, tuple] = {}
    for name, it, po, ply_list in CASES:
        seen.setdefault(name, (name, it, po, ply_list[-1], 7))
    return list(seen.values())


def case_id(key: tuple) -> str:
    return "/".join(str(k) for k in key)


def record(**bot_args: Any) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key in keys():
        data[case_id(key)] = run_case(*key, **bot_args)
        print(case_id(key), data[case_id(key)]["answer"], file=sys.stderr)
    for key in lines():
        data["line/" + case_id(key)] = run_line(*key, **bot_args)
        print("line", case_id(key), [d["answer"] for d in data["line/" + case_id(key)]], file=sys.stderr)
    return data


if __name__ == "__main__":
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
