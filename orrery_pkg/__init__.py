"""Orrery: a rules engine for tabletop games.

The public Python API, shaped like OpenSpiel's (see docs/api.md)::

    import orrery
    game = orrery.load_game("connect-four")            # a bundled name or a path to a rules.yaml
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    print(state.returns())
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["load_game", "Game", "GameState", "IllegalMove", "TERMINAL", "__version__"]

if TYPE_CHECKING:  # pragma: no cover
    from orrery.interpreter.engine.game import TERMINAL, Game, GameState, IllegalMove, load_game


def __getattr__(name: str) -> Any:
    """The API names, imported on first use (the package itself stays light: `orrery --version` loads nothing)."""
    if name in ("load_game", "Game", "GameState", "IllegalMove", "TERMINAL"):
        from orrery.interpreter.engine import game

        return getattr(game, name)
    raise AttributeError(f"module 'orrery' has no attribute {name!r}")
