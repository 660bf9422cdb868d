"""The public API: `Game` (a loaded spec); its states are `GameState`s (shaped like OpenSpiel's State).

A GameState is a position that is plain data: the state plus its continuation (engine/position.py).
Answering a decision continues the position from where it stopped; nothing is replayed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence

from orrery.rulespec.gamespec import GameSpec
from orrery.rulespec.quickload import load_spec

from orrery.rulespec.errors import Finding

from ..core.decisions import BadAnswer
from orrery.rulespec.errors import InputError

from . import apiinput
from .driver import STATE_FORMAT, TERMINAL, GameState, IllegalMove, Step
from .flowframe import FlowFrame
from ..core.valueops import Limits
from ..core.rng import Rng
from ..core.rules import Rules
from .constants import evaluate_constants

MODES = ("compiled", "interpreted")


def default_mode() -> str:
    """The engine used when none is asked for: compiled, unless ORRERY_MODE says otherwise (for testing)."""
    return os.environ.get("ORRERY_MODE", "compiled")


class Game:
    """A loaded, validated spec ready to play."""

    def __init__(self, spec: GameSpec, limits: Limits | None = None, mode: str | None = None):
        self.spec = spec
        self.rules = Rules(spec)
        self.limits = limits or Limits()
        evaluate_constants(self.rules, self.limits)
        self.players: int | None = None  # seats of new states by default (None: the spec's default)
        self.mode = mode or default_mode()
        self.source: tuple[str, tuple[str, ...]] | None = None  # the spec file and variant files it was loaded from
        if self.mode not in MODES:
            raise apiinput.api_error("mode", f"unknown engine mode {self.mode!r} (known: {', '.join(MODES)})")
        # the flow frame new positions start with: the reference stage machine, or on the fast path the
        # spec's generated flow (compiler/flowgen.py), with its source for `orrery compile --source`
        self.flow_frame: type = FlowFrame
        self.flow_source: str = ""
        if self.mode == "compiled":
            from ..compiler.typedgen import compile_typed
            from .flowcompiled import compiled_flow_frame
            from .framescompiled import link_frames

            self.rules.compiled = compile_typed(self.rules)
            link_frames(self.rules.compiled)
            self.flow_frame, generated = compiled_flow_frame(self.rules)
            self.flow_source = generated.source
        self._untyped: tuple[Rules, type] | None = None
        self._prepared: dict[int, GameState | None] = {}  # players -> the start position, when it draws nothing

    def engine(self, setup_override: bool = False) -> tuple[Rules, type]:
        """The rules and the flow frame a new state runs on.  A state whose setup is given from outside (a
        scenario's) runs on the fast path's general code: the types of the typed code (compiler/typepass.py) come
        from every value the spec itself writes, and the extra setup can write anything."""
        if not setup_override or self.mode != "compiled":
            return self.rules, self.flow_frame
        if self._untyped is None:
            from ..compiler.codegen import compile_rules
            from .flowcompiled import compiled_flow_frame
            from .framescompiled import link_frames

            rules = Rules(self.spec)
            evaluate_constants(rules, self.limits)  # (constants written as expressions live in the rules' names)
            rules.compiled = compile_rules(rules)
            link_frames(rules.compiled)
            self._untyped = (rules, compiled_flow_frame(rules)[0])
        return self._untyped

    @classmethod
    def load(cls, path: str | Path, variants: list[str | Path] = (), limits: Limits | None = None,
             mode: str | None = None) -> "Game":
        """Load a spec file (and variants) and build the game."""
        game = cls(load_spec(path, list(variants)), limits, mode)
        game.source = (str(path), tuple(str(v) for v in variants))
        return game

    @property
    def name(self) -> str:
        """The game's identifier."""
        return self.rules.name

    def num_players(self) -> int:
        """The number of seats a new state gets when none is asked for."""
        return self.players if self.players is not None else self.rules.default_players

    def new_initial_state(self, players: int | None = None, seed: int = 0, setup: Any = None,
                          replace_setup: bool = False, narrate: bool = False, rng: Any = None) -> "GameState":
        """A new game: setup runs up to the first decision (plus an extra setup block, e.g. a scenario's).
        `narrate`: build the narration as the game goes (a table that shows it); else it is built when read.
        `rng`: where the game's random draws come from instead of the seed's generator (a core.rng.Rng; the
        OpenSpiel adapter's asks for each draw: adapters/chance.py); `to_json` then no longer describes it."""
        n = self.seats(players if players is not None else self.num_players(), "new_initial_state(players)")
        apiinput.new_state_args(seed, setup)
        if setup is None and not replace_setup and not narrate and rng is None:
            from .flatapi import flat_start

            return flat_start(self, n, seed) or self.start_state(n, seed)
        return GameState.start(self, n, seed, setup, replace_setup, narrate, rng)

    def seats(self, n: Any, call: str) -> int:
        """`n` if this game takes that many players: else an api error (not a number) or PlayerCountError."""
        apiinput.player_count(n, call)
        r = self.rules
        if not r.min_players <= n <= r.max_players:
            raise PlayerCountError(Finding(None, f"{self.name} takes {r.player_count_text()}, not {n}"))
        return n

    def start_state(self, players: int | None, seed: int) -> GameState:
        """A new game of the spec's own setup: a copy of the start position made once per player count, with
        this seed's generator, when the setup and the flow up to the first decision draw nothing random (the
        seed then changes nothing else); else the setup runs for this seed."""
        n = players if players is not None else self.num_players()
        prepared = self._prepared.get(n, False)
        if prepared is False:
            first = GameState.start(self, n, 0)
            prepared = self._prepared[n] = first if first.pos.s.rng.state == Rng(0).state else None
        if prepared is None:
            return GameState.start(self, n, seed)
        gs = prepared.clone()
        gs.seed = seed
        gs.pos.s.rng = Rng(seed)
        gs._base, gs._since = None, []  # (the first answer takes this game's own checkpoint)
        gs.lookahead_used = prepared.lookahead_used  # (the first menu's look-ahead, as a fresh start counts it)
        return gs

    def state_from_json(self, data: Any) -> "GameState":
        """The position `GameState.to_json()` described, played again from its seed and history; a located
        BadAnswer when the data does not fit this game."""
        where = f"state of {self.name}"
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise BadAnswer(Finding(None, f"{where}: not an Orrery state (expected format {STATE_FORMAT!r})"))
        if data.get("spec_digest") != self.spec.digest:
            raise BadAnswer(Finding(None, f"{where}: made with other rules (spec digest {data.get('spec_digest')!r}, "
                                          f"these rules are {self.spec.digest!r})"))
        players, seed, history = data.get("players"), data.get("seed"), data.get("history")
        if (not _is_int(players) or not _is_int(seed) or not isinstance(history, list)
                or not all(_is_int(i) for i in history)):
            raise BadAnswer(Finding(None, f"{where}: players and seed must be numbers, history a list of numbers"))
        if not self.rules.min_players <= players <= self.rules.max_players:
            raise BadAnswer(Finding(None, f"{where}: {self.name} takes {self.rules.player_count_text()}, "
                                          f"not {players}"))
        gs = self.new_initial_state(players=players, seed=seed)
        for k, index in enumerate(history, start=1):
            try:
                gs.apply(index)
            except IllegalMove as refused:
                raise BadAnswer(Finding(None, f"{where}: history item {k} ({index}) is refused: {refused.reason}"))
        return gs


class PlayerCountError(InputError, IllegalMove):
    """A player count outside the spec's range: bad input (an OrreryError), and an IllegalMove as it always
    was, for callers that catch that."""


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def load_game(name_or_path: str | Path, variants: Sequence[str | Path] = (), players: int | None = None,
              mode: str | None = None, limits: Limits | None = None) -> Game:
    """A bundled game by name (`orrery list`) or a spec file by path, with variants by name or path; `players`
    sets the seats of `new_initial_state()` (checked against the spec's range)."""
    from .gamefiles import resolve_game, resolve_variant

    if not isinstance(name_or_path, str) and not hasattr(name_or_path, "__fspath__"):
        raise apiinput.api_error("load_game(name_or_path)", f"must be a game's name or a path, got {name_or_path!r}")
    path = resolve_game(str(name_or_path))
    game = Game.load(path, [resolve_variant(path, str(v)) for v in apiinput.variant_list(variants)], limits, mode)
    if players is not None:
        game.players = game.seats(players, "load_game(players)")
    return game


__all__ = ["Game", "GameState", "IllegalMove", "Step", "TERMINAL", "MODES", "default_mode", "load_game"]
