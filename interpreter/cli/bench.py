"""`orrery bench`: random playouts per second, and cascade resolutions on captured positions.

Playouts go through exactly the machinery `simulate --bots random` uses
(`simulate.play_game` with random bots), so the figures are what a designer's
simulation run gets.  Cascade positions are captured generically: the state at
every `settle` of a game's cascade rules during seeded random games, plus
seeded reshuffles of what the board cells hold (random starting positions for
the same rules).  Nothing here knows any game.  Rates are per second of CPU time
(time.process_time): a shared machine's waits are not counted.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from ..bots.factory import RandomBot
from ..core.decisions import Decision, GameEnded, RuleError, RunawayError
from ..engine.frames import settle
from ..engine.position import Position, run_answering
from ..engine.game import Game
from ..core.rng import Rng
from ..bots.simulate import bot_seed, play_game
from ..core.state import State


def bench_playouts(game: Game, seconds: float, players: int | None = None, seed: int = 1,
                   min_playouts: int = 1) -> dict[str, Any]:
    """Random playouts from the initial state for about `seconds` (at least `min_playouts`)."""
    n = players if players is not None else game.rules.default_players
    playouts = steps = cascades = 0
    start = time.process_time()
    while True:
        gseed = seed + playouts
        bots = [RandomBot(bot_seed(gseed, k)) for k in range(n)]
        record = play_game(game, n, gseed, bots)
        playouts += 1
        steps += record.steps
        cascades += sum(record.cascades.values())
        elapsed = time.process_time() - start
        if elapsed >= seconds and playouts >= min_playouts:
            break
    out = {"game": game.name, "mode": game.mode, **_rates(game, playouts, steps, elapsed)}
    if game.rules.state_triggers:
        out["cascades"] = cascades
        out["cascades_per_s"] = round(cascades / elapsed, 2)
    return out


def _rates(game: Game, playouts: int, steps: int, elapsed: float) -> dict[str, Any]:
    """A playout benchmark's figures: playouts and steps over the seconds they took."""
    return {"game": game.name, "playouts": playouts, "seconds": round(elapsed, 3),
            "playouts_per_s": round(playouts / elapsed, 2), "steps_per_s": round(steps / elapsed, 1)}


def bench_lean(game: Game, seconds: float, players: int | None = None, seed: int = 1,
               min_playouts: int = 1) -> dict[str, Any]:
    """Random playouts through the lean path (engine/lean.py): a copy of the prepared start position, legal actions
    as indices, no history, narration or checkpoint, uniform choices from a C-implemented generator."""
    import random

    from ..engine.lean import lean_state

    n = players if players is not None else game.rules.default_players
    playouts = steps = 0
    rng = random.Random(bot_seed(seed, 0))  # (one generator for the run, as the hand-written references use)
    start = time.process_time()
    while True:
        steps += lean_state(game, seed + playouts, n).playout(rng)
        playouts += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds and playouts >= min_playouts:
            break
    return _rates(game, playouts, steps, elapsed)


def bench_sampled(game: Game, seconds: float, players: int | None = None, seed: int = 1,
                  min_playouts: int = 1) -> dict[str, Any]:
    """Random playouts as a search bot plays them (GameState.sample_step: uniform over the options that can
    be completed, found by trying options in a random order instead of checking every one)."""
    n = players if players is not None else game.rules.default_players
    playouts = steps = 0
    start = time.process_time()
    while True:
        gs = game.new_initial_state(players=n, seed=seed + playouts)
        rng = Rng(bot_seed(seed + playouts, 0))
        while not gs.is_terminal():
            gs.sample_step(rng)
            steps += 1
        playouts += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds and playouts >= min_playouts:
            break
    return _rates(game, playouts, steps, elapsed)


# ---------------------------------------------------------------- cascade positions


def capture_positions(game: Game, games: int, seed: int = 1, players: int | None = None,
                      limit: int = 10_000) -> list[State]:
    """States at the start of every cascade (a `settle` with a firing trigger) in seeded random games."""
    n = players if players is not None else game.rules.default_players
    found: dict[str, State] = {}

    def watch(before: State) -> None:
        if len(found) < limit:
            found.setdefault(before.digest(), before)

    game.rules.cascade_watch = watch
    try:
        for g in range(games):
            bots = [RandomBot(bot_seed(seed + g, k)) for k in range(n)]
            play_game(game, n, seed + g, bots)
            if len(found) >= limit:
                break
    finally:
        game.rules.cascade_watch = None
    return list(found.values())


def reshuffled(state: State, rng: Rng) -> State:
    """A copy whose board cells hold the same stacks, permuted among the cells of each board zone."""
    s = state.clone()
    by_zone: dict[tuple, list] = {}
    for place in list(s.places):
        zone = getattr(place, "zone", None)
        if zone is not None and s.rules.zones[zone].is_board:
            by_zone.setdefault((zone, place.owner), []).append(place)
    for cells in by_zone.values():
        cells.sort(key=lambda c: (str(c.pos), c.owner or 0))
        stacks = [s.places[c] for c in cells]
        rng.shuffle(stacks)
        for c, stack in zip(cells, stacks):
            s.places[c] = stack
            for pid in stack:
                s.loc[pid] = c
            s._touch(c)
    s._own.clear()  # lists moved between cells: none may be changed in place without copying
    return s


def on_engine(state: State, game: Game) -> State:
    """A copy of a state (captured with any engine of the same spec) that runs on `game`'s engine."""
    if state.rules.spec.digest != game.rules.spec.digest:
        raise ValueError(f"a position of {state.rules.name} cannot run on {game.name}'s rules")
    s = state.clone()
    s.rules = game.rules  # the engine is chosen by the rules object the state points to
    return s


def settle_first(game: Game, s: State) -> Decision | None:
    """Resolve the cascade of `s` in place; decisions inside it take their first option (at most 64 of them):
    the decision left when they run out, or None."""
    pos = Position(s, game.limits)
    settle(pos)
    return run_answering(pos, [0] * 64)


def resolve(game: Game, state: State) -> tuple[str, str]:
    """Run the cascade on a copy of `state` with this game's engine: (outcome, state digest)."""
    s = on_engine(state, game)
    try:
        left = settle_first(game, s)
        outcome = f"settled after {s.cascade}" if left is None else f"asked {left.prompt!r}"
    except GameEnded as ended:
        outcome = f"ended {ended}"
    except (RuleError, RunawayError) as err:
        outcome = f"error {err}"
    return outcome, s.digest()


def bench_cascades(game: Game, positions: list[State], seconds: float) -> dict[str, Any]:
    """Cascade resolutions per second over the given positions (cycled)."""
    done = 0
    start = time.process_time()
    while True:
        for state in positions:
            try:
                settle_first(game, on_engine(state, game))
            except (GameEnded, RuleError, RunawayError):
                pass
            done += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            break
    return {"game": game.name, "mode": game.mode, "positions": len(positions), "resolutions": done,
            "seconds": round(elapsed, 3), "resolutions_per_s": round(done / elapsed, 1)}


def ratio(fast: float, slow: float) -> float:
    """fast / slow, rounded (0 when slow is 0)."""
    return round(fast / slow, 2) if slow else 0.0


Progress = Callable[[str], None]
