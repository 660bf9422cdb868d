"""Solo Orrery games as Gymnasium environments: `env(game, variants=())` (docs/adapters.md).

The action space is the game's game-wide ids (adapters/actionspace.py); each observation is a dict of the
player's view as a tensor (adapters/observe.py) and the `action_mask` of the ids offered now. The reward is the
game's result at its end (1 win, -1 loss). An id that is not offered ends the episode with reward -1 and the
refusal in `info["illegal"]` (as PettingZoo's classic games treat illegal moves), so a policy that ignores the
mask learns from it instead of crashing; a game past `max_game_length` decisions is truncated.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from orrery.interpreter.engine.game import load_game as load_orrery

from .actionspace import DEFAULT_MAX_OPTIONS, ActionSpace
from .observe import DEFAULT_MAX_GAME_LENGTH, TensorLayout, screen_text


class OrrerySolo(gymnasium.Env):
    """A one-player Orrery game."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game: str, variants: Sequence[str] = (), render_mode: str | None = None,
                 mode: str | None = None, max_options: int = DEFAULT_MAX_OPTIONS,
                 max_game_length: int = DEFAULT_MAX_GAME_LENGTH) -> None:
        self.game = load_orrery(game, list(variants), mode=mode)
        rules = self.game.rules
        if rules.min_players > 1:
            raise ValueError(f"{rules.name} takes {rules.player_count_text()}: Gymnasium's environments have one "
                             f"agent (use orrery.adapters.pettingzoo for several)")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.max_game_length = max_game_length
        self.space = ActionSpace(rules, 1, max_options)
        self.gs = self.game.new_initial_state(1, 0)
        self.layout = TensorLayout(self.gs)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self.layout.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8)})
        self.action_space = spaces.Discrete(self.space.size)
        self._ids: dict[int, int] = {}

    def _observe(self) -> dict[str, np.ndarray]:
        tensor = np.zeros(self.layout.size, np.float32)
        self.layout.encode(self.gs.view(0), tensor)
        mask = np.zeros(self.space.size, np.int8)
        self._ids = {} if self.gs.decision is None else self.space.global_ids(self.gs.decision)
        mask[list(self._ids)] = 1
        return {"observation": tensor, "action_mask": mask}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """A new game: `seed` is the engine's seed (else one drawn from the environment's generator)."""
        super().reset(seed=seed)
        engine_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**31))
        self.gs = self.game.new_initial_state(1, engine_seed)
        return self._observe(), {"seed": engine_seed}

    def step(self, action: int) -> tuple[dict, float, bool, bool, dict]:
        """Answer with a game-wide id; the reward is the result when the game ends."""
        if int(action) not in self._ids:
            reason = f"{self.space.describe(int(action))} is not offered now"
            return self._observe(), -1.0, True, False, {"illegal": reason}
        self.gs.apply(self._ids[int(action)])
        obs = self._observe()
        if self.gs.is_terminal():
            return obs, float(self.gs.returns()[0]), True, False, {"end": self.gs.outcome().end}
        return obs, 0.0, False, len(self.gs.steps) >= self.max_game_length, {}

    def render(self) -> str | None:
        """The play screen as text (render_mode 'ansi')."""
        return None if self.render_mode is None else screen_text(self.gs)


def env(game: str, variants: Sequence[str] = (), render_mode: str | None = None, **kwargs: Any) -> OrrerySolo:
    """A solo Orrery game (bundled name or spec path, with variants) as a Gymnasium environment."""
    return OrrerySolo(game, variants, render_mode, **kwargs)
