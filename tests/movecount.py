"""Counting the moves a search makes, for the fake clocks of the time-budget tests.

A search plays on the public GameState, and on the flat one (engine/flatapi.FlatGameState) where the spec has
a flat module: a flat move is `FlatGameState._play` (apply, sample_step) or one move of the playout loop
`FlatGameState.random_moves`, which the search bot gives its clock check (`tick`) to call before each move.  A
fake clock that counted only `GameState.apply` would never move on a flat search, and a timed search would
never end (train 1 of the session of 2026-11-28 14:36 hung there).
"""

from __future__ import annotations

from typing import Any, Callable

from orrery.interpreter.engine.driver import GameState
from orrery.interpreter.engine.flatapi import FlatGameState


def count_moves(monkeypatch: Any, on_move: Callable[[], None]) -> None:
    """Call `on_move()` once for every move made on any GameState, general or flat, from now on."""
    apply, play, moves = GameState.apply, FlatGameState._play, FlatGameState.random_moves

    def counted_apply(gs: GameState, index: int, keep: bool = True) -> None:
        on_move()
        apply(gs, index, keep)

    def counted_play(gs: FlatGameState, index: int, keep: bool) -> None:
        play(gs, index, keep)
        if gs.__dict__.get("_fg") is not None:  # (else the general state played it: GameState.apply counted it)
            on_move()

    def counted_moves(gs: FlatGameState, rng: Any, cap: int, played: list, tick: Any) -> int:
        def counted_tick() -> None:
            if tick is not None:
                tick()  # (may stop the search: then no move is made)
            on_move()

        return moves(gs, rng, cap, played, counted_tick)

    monkeypatch.setattr(GameState, "apply", counted_apply)
    monkeypatch.setattr(FlatGameState, "_play", counted_play)
    monkeypatch.setattr(FlatGameState, "random_moves", counted_moves)
