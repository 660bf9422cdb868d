"""How long the default bot takes per decision (issue 17): the thinking MCTS bot of `orrery play --think`.

Every seat is the bot a plain `mcts` seat becomes at the table (`play.thinking`: `mcts:<think>s`), and
each decision's `choose` is timed, over the first decisions of a seeded bot-against-bot game.  The
figure that matters is the slowest decision over the budget (at most 1 is the target).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from ..bots.factory import make_bot
from ..engine.game import Game
from .play import thinking
from ..bots.simulate import bot_seed


def think_times(game: Game, budget: float, decisions: int = 30, seed: int = 1,
                players: int | None = None) -> dict[str, Any]:
    """Per-decision times of the thinking bot over up to `decisions` decisions of one bot-against-bot game."""
    gs = game.new_initial_state(players=players, seed=seed)
    bots = [make_bot(thinking("mcts", budget), bot_seed(seed, k)) for k in range(gs.num_players)]
    times: list[float] = []
    while not gs.is_terminal() and len(times) < decisions:
        bot = bots[gs.current_player()]
        start = time.perf_counter()
        answer = bot.choose(gs)
        times.append(time.perf_counter() - start)
        gs.apply(answer)
    worst = max(times, default=0.0)
    return {"game": game.name, "budget_s": budget, "decisions": len(times), "ended": gs.is_terminal(),
            "max_s": round(worst, 4), "median_s": round(statistics.median(times), 4) if times else 0.0,
            "max_over_budget": round(worst / budget, 3), "over_budget": sum(t > budget for t in times)}
