"""Orrery games as OpenSpiel games: `load_game(game)` returns a `pyspiel.Game`; importing this module also
registers every bundled game, so `pyspiel.load_game("orrery_<game>")` works (dashes as underscores) (docs/adapters.md).

The game type comes from the spec (adapters/gametraits.py). A game whose rules draw random numbers starts at an
explicit chance node: its outcomes are the engine's seeds `0..seeds-1`, equally likely, and every later shuffle,
draw and roll follows from the seed (the engine keeps them inside its effects, so they are not nodes of their
own). Actions are the game-wide ids of adapters/actionspace.py; observations are the player's own view.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from orrery.interpreter.engine.game import Game as OrreryGame
from orrery.interpreter.engine.game import load_game as load_orrery
from orrery.interpreter.engine.gamefiles import bundled_games, resolve_game
from orrery.interpreter.core.rules import Rules
from orrery.rulespec.quickload import load_spec

from .actionspace import DEFAULT_MAX_OPTIONS, ActionSpace
from .gametraits import Traits, traits_of
from .observe import DEFAULT_MAX_GAME_LENGTH, TensorLayout, information_state_string, observation_string

PREFIX = "orrery_"
DEFAULT_SEEDS = 1000  # chance outcomes of a random game's first node
_Type = pyspiel.GameType


def openspiel_name(game: str) -> str:
    """The name a bundled game is registered under: `orrery_` and its name with `_` for `-`."""
    return PREFIX + game.replace("-", "_")


def game_type(traits: Traits, source: str) -> pyspiel.GameType:
    """The OpenSpiel type of a game with these traits; `source` is the game's name or path."""
    return _Type(
        short_name=openspiel_name(traits.name), long_name=f"Orrery {traits.title}",
        dynamics=_Type.Dynamics.SEQUENTIAL,
        chance_mode=_Type.ChanceMode.EXPLICIT_STOCHASTIC if traits.random else _Type.ChanceMode.DETERMINISTIC,
        information=(_Type.Information.PERFECT_INFORMATION if traits.perfect_information()
                     else _Type.Information.IMPERFECT_INFORMATION),
        utility=_Type.Utility.ZERO_SUM if traits.zero_sum() else _Type.Utility.GENERAL_SUM,
        reward_model=_Type.RewardModel.TERMINAL,
        max_num_players=traits.max_players, min_num_players=traits.min_players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"game": source, "players": traits.default_players, "variants": "",
                                 "mode": "compiled", "seeds": DEFAULT_SEEDS, "max_options": DEFAULT_MAX_OPTIONS,
                                 "max_game_length": DEFAULT_MAX_GAME_LENGTH})


class _Shared:
    """What every state of one game shares (never copied when OpenSpiel clones a state)."""

    def __init__(self, game: OrreryGame, traits: Traits, params: dict[str, Any]) -> None:
        self.params = params
        self.game = game
        self.traits = traits
        self.players = int(params["players"])
        self.seeds = int(params["seeds"])
        self.max_length = int(params["max_game_length"])
        self.space = ActionSpace(game.rules, self.players, int(params["max_options"]))
        self.layout = TensorLayout(game.new_initial_state(players=self.players, seed=0))

    def __deepcopy__(self, memo: dict) -> "_Shared":
        return self

    def __reduce__(self) -> tuple:
        # pickled as the parameters it was loaded with (OpenSpiel serializes states by pickling them)
        return _shared_of, (tuple(sorted(self.params.items())),)


_LOADED: dict[tuple, _Shared] = {}


def _shared_of(params: tuple) -> _Shared:
    """The game of these parameters, loaded once per process (unpickled states share it)."""
    if params not in _LOADED:
        _LOADED[params] = OrreryOpenSpielGame(dict(params)).shared
    return _LOADED[params]


class OrreryOpenSpielGame(pyspiel.Game):
    """An Orrery game seen by OpenSpiel."""

    def __init__(self, params: dict[str, Any] | None = None, game: OrreryGame | None = None) -> None:
        params = dict(params or {})
        source = params.get("game", "")
        variants = [v for v in str(params.get("variants", "")).split(",") if v]
        if game is None:
            game = load_orrery(source, variants, mode=params.get("mode") or None)
        traits = traits_of(game.rules)
        gtype = game_type(traits, str(source))
        params = {**gtype.parameter_specification, **params, "game": str(source)}
        self.shared = _Shared(game, traits, params)
        n = self.shared.players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.shared.space.size,
            max_chance_outcomes=self.shared.seeds if traits.random else 0,
            num_players=n, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0 if traits.zero_sum() else None,
            max_game_length=self.shared.max_length)
        super().__init__(gtype, info, params)

    def new_initial_state(self) -> "OrreryOpenSpielState":
        """The start of a game: a chance node choosing the seed if the rules draw random numbers."""
        return OrreryOpenSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "OrreryObserver":
        """An observer of one player's view (with perfect recall when the type asks for it)."""
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return OrreryObserver(self.shared, recall)


class _Play:
    """The Orrery position behind an OpenSpiel state. OpenSpiel clones a Python state by deep-copying its
    attributes: this one copies as `GameState.clone()` (copy-on-write), never the game and its rules."""

    def __init__(self, shared: "_Shared", gs: Any = None) -> None:
        self.shared = shared
        self.gs = gs
        self.cut = False  # cut short at max_game_length: a draw

    def __deepcopy__(self, memo: dict) -> "_Play":
        play = _Play(self.shared, None if self.gs is None else self.gs.clone())
        play.cut = self.cut
        return play

    def __reduce__(self) -> tuple:
        return _play_of, (None if self.gs is None else self.gs.to_json(), self.cut, self.shared)


def _play_of(data: dict[str, Any] | None, cut: bool, shared: "_Shared") -> _Play:
    """A position played again from its seed and history (docs/api.md, `state_from_json`)."""
    play = _Play(shared, None if data is None else shared.game.state_from_json(data))
    play.cut = cut
    return play


class OrreryOpenSpielState(pyspiel.State):
    """A position of an Orrery game, as an OpenSpiel state."""

    def __init__(self, game: OrreryOpenSpielGame) -> None:
        super().__init__(game)
        self.shared = game.shared
        self.play = _Play(self.shared, None if self.shared.traits.random else self.shared.game.new_initial_state(
            self.shared.players, 0))

    @property
    def gs(self) -> Any:
        """The Orrery `GameState` (None before a random game's seed is drawn)."""
        return self.play.gs

    def current_player(self) -> int:
        """The seat to answer, CHANCE before a random game's seed, TERMINAL at the end."""
        if self.gs is None:
            return pyspiel.PlayerId.CHANCE
        if self.play.cut or self.gs.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.gs.current_player()

    def ids(self) -> dict[int, int]:
        """The pending decision's options: global id -> engine index."""
        d = None if self.gs is None or self.play.cut else self.gs.decision
        return {} if d is None else self.shared.space.global_ids(d)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The seeds, equally likely."""
        if self.gs is not None:
            return []
        p = 1.0 / self.shared.seeds
        return [(seed, p) for seed in range(self.shared.seeds)]

    def _apply_action(self, action: int) -> None:
        shared = self.shared
        if self.gs is None:
            self.play.gs = shared.game.new_initial_state(shared.players, int(action))
            return
        self.gs.apply(self.ids()[action])
        self.play.cut = len(self.gs.steps) >= shared.max_length and not self.gs.is_terminal()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        index = self.ids().get(action) if self.gs is not None else None
        if index is not None:
            options = self.gs.decision.options
            label = next(o.label for o in options if o.index == index)
            if sum(o.label == label for o in options) > 1:  # identical pieces: OpenSpiel wants distinct strings
                label = f"{label} (option {index})"
            return f"{self.shared.game.rules.seat_name(player)}: {label}"
        return self.shared.space.describe(action)

    def is_terminal(self) -> bool:
        """The game is over (or was cut short)."""
        return self.gs is not None and (self.play.cut or self.gs.is_terminal())

    def returns(self) -> list[float]:
        """1 win, -1 loss, 0 draw per seat; zeros before the end."""
        if self.gs is None or self.play.cut:
            return [0.0] * self.shared.players
        return self.gs.returns()

    def __str__(self) -> str:
        return "chance: the seed" if self.gs is None else observation_string(self.gs, None)


class OrreryObserver:
    """OpenSpiel's observer protocol over one player's view: a string and a fixed-shape tensor."""

    def __init__(self, shared: _Shared, perfect_recall: bool) -> None:
        self.shared = shared
        self.recall = perfect_recall
        self.tensor = np.zeros(shared.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: OrreryOpenSpielState, player: int) -> None:
        """The tensor of `state` as `player` sees it."""
        if state.gs is None:
            self.tensor.fill(0.0)
            return
        self.shared.layout.encode(state.gs.view(player), self.tensor)

    def string_from(self, state: OrreryOpenSpielState, player: int) -> str:
        """The view (with the past as the player knew it, for perfect recall) as a string."""
        if state.gs is None:
            return "chance: the seed"
        if self.recall:
            return information_state_string(state.gs, player, self.shared.traits.perfect_information())
        return observation_string(state.gs, player)


def load_game(game: str, variants: tuple[str, ...] | list[str] = (), players: int | None = None,
              mode: str | None = None, **params: Any) -> pyspiel.Game:
    """An Orrery game (a bundled name or a spec path, with variants) as a `pyspiel.Game`; `params` may set
    `seeds`, `max_options` and `max_game_length`."""
    orrery_game = load_orrery(game, list(variants), players=players, mode=mode)
    full = {"game": str(game), "variants": ",".join(str(v) for v in variants), "mode": orrery_game.mode,
            "players": orrery_game.num_players(), **params}
    return OrreryOpenSpielGame(full, orrery_game)


def register_bundled() -> list[str]:
    """Register every bundled game under `orrery_<name>` (idempotent); the names registered."""
    names = []
    known = set(pyspiel.registered_names())
    for name in bundled_games():
        short = openspiel_name(name)
        if short not in known:
            traits = traits_of(Rules(load_spec(resolve_game(name), [])))
            pyspiel.register_game(game_type(traits, name), OrreryOpenSpielGame)
        names.append(short)
    return names


register_bundled()
