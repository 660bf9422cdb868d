"""Orrery games as OpenSpiel games: `load_game(game)` returns a `pyspiel.Game`; importing this module also
registers every bundled game, so `pyspiel.load_game("orrery_<game>")` works (dashes as underscores) (docs/adapters.md).

The game type comes from the spec (adapters/gametraits.py). Every random draw of the engine (a die, each card
of a shuffle, a piece drawn from a bag) is an explicit chance node of its equally likely outcomes, met where
the engine draws it (adapters/chance.py). Actions are the game-wide ids of adapters/actionspace.py;
observations are the player's own view.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from orrery.interpreter.engine.game import Game as OrreryGame
from orrery.interpreter.engine.game import default_mode
from orrery.interpreter.engine.game import load_game as load_orrery
from orrery.interpreter.engine.gamefiles import bundled_games, resolve_game, resolve_variant
from orrery.interpreter.files.gamecache import game_for
from orrery.interpreter.core.rules import Rules
from orrery.rulespec.quickload import load_spec

from .actionspace import DEFAULT_MAX_OPTIONS, ActionSpace
from .chance import NeedDraw, Tape, TapeRng, drawing_from
from .gametraits import Traits, traits_of
from .observe import DEFAULT_MAX_GAME_LENGTH, TensorLayout, information_state_string, observation_string

PREFIX = "orrery_"
DEFAULT_MAX_CHANCE_OUTCOMES = 1000  # the most outcomes one draw may have (a die, a deck, a bag)
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
                                 "mode": "compiled", "max_chance_outcomes": DEFAULT_MAX_CHANCE_OUTCOMES,
                                 "max_options": DEFAULT_MAX_OPTIONS,
                                 "max_game_length": DEFAULT_MAX_GAME_LENGTH})


class _Shared:
    """What every state of one game shares (never copied when OpenSpiel clones a state)."""

    def __init__(self, game: OrreryGame, traits: Traits, params: dict[str, Any]) -> None:
        self.params = params
        self.game = game
        self.traits = traits
        self.players = int(params["players"])
        self.most = int(params["max_chance_outcomes"])
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


def _orrery_game(source: str, variants: list[str], mode: str) -> OrreryGame:
    """The Orrery game of OpenSpiel's parameters, built once per process for the same files' bytes
    (files/gamecache.py): OpenSpiel makes a game object anew for every state it deserializes, and building a
    bundled game (its spec loaded, its code generated) costs up to half a CPU second."""
    path = resolve_game(source)
    return game_for(path, [resolve_variant(path, v) for v in variants], mode=mode)


class OrreryOpenSpielGame(pyspiel.Game):
    """An Orrery game seen by OpenSpiel."""

    def __init__(self, params: dict[str, Any] | None = None, game: OrreryGame | None = None) -> None:
        params = dict(params or {})
        source = params.get("game", "")
        variants = [v for v in str(params.get("variants", "")).split(",") if v]
        if game is None:
            game = _orrery_game(str(source), variants, params.get("mode") or default_mode())
        traits = traits_of(game.rules)
        gtype = game_type(traits, str(source))
        params = {**gtype.parameter_specification, **params, "game": str(source)}
        self.shared = _Shared(game, traits, params)
        n = self.shared.players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.shared.space.size,
            max_chance_outcomes=self.shared.most if traits.random else 0,
            num_players=n, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0 if traits.zero_sum() else None,
            max_game_length=self.shared.max_length)
        super().__init__(gtype, info, params)

    def new_initial_state(self) -> "OrreryOpenSpielState":
        """The start of a game: the first decision, or a chance node if the setup draws."""
        return OrreryOpenSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "OrreryObserver":
        """An observer of one player's view (with perfect recall when the type asks for it)."""
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return OrreryObserver(self.shared, recall)


class _Play:
    """The Orrery position behind an OpenSpiel state, with the chance outcomes drawn so far (its tape).

    While a draw waits for its outcome, `gs` is the position before the answer that drew it (None before the
    setup's first decision) and `pending` that answer: each outcome is appended to the tape and the answer
    played again, until it needs no more. OpenSpiel clones a Python state by deep-copying its attributes: this
    one copies as `GameState.clone()` (copy-on-write) and its own tape, never the game and its rules."""

    def __init__(self, shared: "_Shared", gs: Any = None) -> None:
        self.shared = shared
        self.gs = gs
        self.tape: Tape = {}
        self.pending: int | None = None  # the answer waiting for a draw (None: the setup, when gs is None)
        self.waiting: tuple[int, int] | None = None  # the draw waited for: (draws made before, outcomes)
        self.cut = False  # cut short at max_game_length: a draw

    def run(self, answer: int | None) -> None:
        """Start the game (gs None) or apply an answer; a draw past the tape makes this a chance node."""
        shared = self.shared
        try:
            with drawing_from(self.tape):
                if self.gs is None:
                    self.gs = shared.game.new_initial_state(shared.players, 0, rng=TapeRng(shared.most))
                else:
                    self.gs.apply(answer)  # (a NeedDraw puts the position back as it was: GameState.apply)
        except NeedDraw as draw:
            self.pending, self.waiting = answer, draw.key
            return
        self.pending, self.waiting = None, None
        self.cut = len(self.gs.steps) >= shared.max_length and not self.gs.is_terminal()

    @property
    def need(self) -> int:
        """The outcomes of the draw waited for; 0 when nobody waits."""
        return 0 if self.waiting is None else self.waiting[1]

    def draw(self, outcome: int) -> None:
        """The chance player's outcome for the draw waited for."""
        assert self.waiting is not None and 0 <= outcome < self.waiting[1], (self.waiting, outcome)
        self.tape[self.waiting] = outcome
        self.run(self.pending)

    def __deepcopy__(self, memo: dict) -> "_Play":
        play = _Play(self.shared, None if self.gs is None else self.gs.clone())
        play.tape, play.pending, play.waiting, play.cut = dict(self.tape), self.pending, self.waiting, self.cut
        return play

    def __reduce__(self) -> tuple:
        history = [] if self.gs is None else self.gs.history()
        return _play_of, (history, tuple(self.tape.items()), self.pending, self.shared)


def _play_of(history: list[int], tape: tuple, pending: int | None, shared: "_Shared") -> _Play:
    """A position played again from its answers and chance outcomes."""
    play = _Play(shared)
    play.tape = dict(tape)
    play.run(None)
    for answer in history:
        play.run(answer)
    if pending is not None:
        play.run(pending)
    return play


class OrreryOpenSpielState(pyspiel.State):
    """A position of an Orrery game, as an OpenSpiel state."""

    def __init__(self, game: OrreryOpenSpielGame) -> None:
        super().__init__(game)
        self.shared = game.shared
        self._play: _Play | None = None  # started when first read: OpenSpiel clones a Python state by making
        # a new initial state and deep-copying the original's attributes over it, and a setup played for a
        # clone would be thrown away (a setup that draws was played again for every clone of every state)

    @property
    def play(self) -> _Play:
        """The Orrery position behind this state (the game started when first asked for)."""
        if self._play is None:
            self._play = _Play(self.shared)
            self._play.run(None)
        return self._play

    @property
    def gs(self) -> Any:
        """The Orrery `GameState` (None before the setup's draws are all made)."""
        return self.play.gs

    def current_player(self) -> int:
        """The seat to answer, CHANCE while a draw waits, TERMINAL at the end."""
        if self.play.need:
            return pyspiel.PlayerId.CHANCE
        if self.play.cut or self.gs.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.gs.current_player()

    def ids(self) -> dict[int, int]:
        """The pending decision's options: global id -> engine index."""
        d = None if self.play.need or self.play.cut else self.gs.decision
        return {} if d is None else self.shared.space.global_ids(d)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the draw waited for, equally likely."""
        n = self.play.need
        return [(k, 1.0 / n) for k in range(n)] if n else []

    def _apply_action(self, action: int) -> None:
        if self.play.need:
            self.play.draw(int(action))
        else:
            self.play.run(self.ids()[action])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance: outcome {action}" + (f" of {self.play.need}" if self.play.need else "")
        index = self.ids().get(action)
        if index is not None:
            options = self.gs.decision.options
            label = next(o.label for o in options if o.index == index)
            if sum(o.label == label for o in options) > 1:  # identical pieces: OpenSpiel wants distinct strings
                label = f"{label} (option {index})"
            return f"{self.shared.game.rules.seat_name(player)}: {label}"
        return self.shared.space.describe(action)

    def is_terminal(self) -> bool:
        """The game is over (or was cut short)."""
        return not self.play.need and (self.play.cut or self.gs.is_terminal())

    def returns(self) -> list[float]:
        """1 win, -1 loss, 0 draw per seat; zeros before the end."""
        if self.play.need or self.play.cut:
            return [0.0] * self.shared.players
        return self.gs.returns()

    def __str__(self) -> str:
        if self.gs is None:
            return f"chance: a draw of the setup among {self.play.need}"
        with drawing_from(self.play.tape):
            return observation_string(self.gs, None)


class OrreryObserver:
    """OpenSpiel's observer protocol over one player's view: a string and a fixed-shape tensor."""

    def __init__(self, shared: _Shared, perfect_recall: bool) -> None:
        self.shared = shared
        self.recall = perfect_recall
        self.tensor = np.zeros(shared.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: OrreryOpenSpielState, player: int) -> None:
        """The tensor of `state` as `player` sees it (before a draw's answer, the position it was given at)."""
        if state.gs is None:
            self.tensor.fill(0.0)
            return
        with drawing_from(state.play.tape):
            self.shared.layout.encode(state.gs.view(player), self.tensor)

    def string_from(self, state: OrreryOpenSpielState, player: int) -> str:
        """The view (with the past as the player knew it, for perfect recall) as a string."""
        if state.gs is None:
            return "chance: the setup's draws"
        with drawing_from(state.play.tape):  # (a narration read for the first time plays the game again)
            if self.recall:
                return information_state_string(state.gs, player, self.shared.traits.perfect_information())
            return observation_string(state.gs, player)


def load_game(game: str, variants: tuple[str, ...] | list[str] = (), players: int | None = None,
              mode: str | None = None, **params: Any) -> pyspiel.Game:
    """An Orrery game (a bundled name or a spec path, with variants) as a `pyspiel.Game`; `params` may set
    `max_chance_outcomes`, `max_options` and `max_game_length`."""
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
