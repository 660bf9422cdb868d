"""Orrery games as PettingZoo AEC environments: `env(game, variants=(), players=None, render_mode=None)`.

Agents are `player_0..player_{n-1}`, answering in the order the rules ask them (not a fixed rotation). Actions
are the game-wide ids of adapters/actionspace.py with an `action_mask` of the offered ones; observations are
the agent's own view as the fixed-shape tensor of adapters/observe.py. Rewards come at the end (1 win,
-1 loss, 0 draw); a game past `max_game_length` decisions is truncated. `render_mode="ansi"` returns the
play screen's text, from the point of view of the agent to act (docs/adapters.md).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from orrery.interpreter.engine.game import load_game as load_orrery

from .actionspace import DEFAULT_MAX_OPTIONS, ActionSpace
from .observe import DEFAULT_MAX_GAME_LENGTH, TensorLayout, screen_text

class OrreryAEC(AECEnv):
    """One Orrery game as an agent-environment-cycle environment."""

    metadata = {"render_modes": ["ansi"], "name": "orrery", "is_parallelizable": False}

    def __init__(self, game: str, variants: Sequence[str] = (), players: int | None = None,
                 render_mode: str | None = None, mode: str | None = None, max_options: int = DEFAULT_MAX_OPTIONS,
                 max_game_length: int = DEFAULT_MAX_GAME_LENGTH) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = load_orrery(game, list(variants), players=players, mode=mode)
        self.n = self.game.num_players()
        self.render_mode = render_mode
        self.max_game_length = max_game_length
        self.metadata = {**self.metadata, "name": f"orrery_{self.game.name.replace('-', '_')}_v0"}
        self.space = ActionSpace(self.game.rules, self.n, max_options)
        self.gs = self.game.new_initial_state(self.n, 0)
        self.layout = TensorLayout(self.gs)
        self.possible_agents = [f"player_{p}" for p in range(self.n)]
        obs = spaces.Box(low=-np.inf, high=np.inf, shape=(self.layout.size,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8)
        self._observation_space = spaces.Dict({"observation": obs, "action_mask": mask})
        self._action_space = spaces.Discrete(self.space.size)
        self._seed = 0

    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's view as a tensor, and the mask of the ids it may answer now."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        """The game-wide action ids."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; `seed` is the engine's seed (else the next one after the last game's)."""
        self._seed = self._seed + 1 if seed is None else int(seed)
        self.gs = self.game.new_initial_state(self.n, self._seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._ids: dict[int, int] = {}
        self._settle()

    def _settle(self) -> None:
        """After a move: the end, or the agent to answer and its offered ids."""
        gs = self.gs
        if gs.is_terminal():
            for agent, r in zip(self.possible_agents, gs.returns()):
                self.rewards[agent] = float(r)
                self.terminations[agent] = True
            self._ids = {}
        elif len(gs.steps) >= self.max_game_length:
            self.truncations = {a: True for a in self.agents}
            self._ids = {}
        else:
            self.agent_selection = self.possible_agents[gs.current_player()]
            self._ids = self.space.global_ids(gs.decision)
        for agent in self.agents:
            self.infos[agent] = {"action_mask": self._mask(agent)}

    def _mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(self.space.size, np.int8)
        if agent == self.agent_selection:
            mask[list(self._ids)] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What `agent` may see, and which ids it may answer (none when it is not its turn)."""
        tensor = np.zeros(self.layout.size, np.float32)
        self.layout.encode(self.gs.view(self.possible_agents.index(agent)), tensor)
        return {"observation": tensor, "action_mask": self._mask(agent)}

    def step(self, action: int) -> None:
        """The agent to act answers with a game-wide id (an id not offered raises IllegalMove's ValueError)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if int(action) not in self._ids:
            raise ValueError(f"{agent} may not play {self.space.describe(int(action))} now "
                             f"(offered: {sorted(self._ids)})")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.gs.apply(self._ids[int(action)])
        self._settle()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The play screen's text as the agent to act sees it (render_mode 'ansi')."""
        if self.render_mode is None:
            return None
        return screen_text(self.gs, None if self.gs.is_terminal() else self.gs.current_player())

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game: str, variants: Sequence[str] = (), players: int | None = None, render_mode: str | None = None,
            **kwargs: Any) -> OrreryAEC:
    """The environment without PettingZoo's checking wrappers."""
    return OrreryAEC(game, variants, players, render_mode, **kwargs)


def env(game: str, variants: Sequence[str] = (), players: int | None = None, render_mode: str | None = None,
        **kwargs: Any) -> AECEnv:
    """An Orrery game (bundled name or spec path) as a PettingZoo AEC environment, with PettingZoo's usual
    wrappers (out-of-bounds actions and calls out of order are refused)."""
    e = raw_env(game, variants, players, render_mode, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
