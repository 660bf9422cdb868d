"""The lean playout path: random playouts and search over a game without what only a table needs.

A `LeanState` is a GameState (the same position, the same menus filtered by the same look-ahead, the same
answers to forced menus, the same end) that keeps no history, no narration and no checkpoint: its legal
actions are the option indices of the pending menu, `play(i)` answers one and runs to the next real choice,
and a failing answer leaves it unusable (as `apply(i, keep=False)`).  `playout(rng)` plays to the end with
`rng.randrange` (a C-implemented `random.Random` in the benchmarks and the search bots' playouts: the bots'
own random choices; the game's generator still draws every shuffle, draw and die, so a game's answers replay
exactly as anywhere else).

New states come from a prepared start position when the setup draws nothing random (`Game.start_state`): the
setup and the flow up to the first decision run once per player count, and each new state is a copy with its
own seed's generator.  tests/test_lean.py plays the same games through the lean path and the public API, step
by step, and compares menus, positions and results.
"""

from __future__ import annotations

from typing import Any

from ..core.decisions import Decision, RequireFailed, RunawayError
from .driver import TERMINAL, GameState, IllegalMove, no_real_choice, refusal
from .flow import NOTHING_VIABLE


class LeanState(GameState):
    """A GameState for playouts and search (see the module doc)."""

    @classmethod
    def of(cls, gs: GameState, copy: bool = True) -> "LeanState":
        """A lean state of a state's position (a copy of it, or `copy=False`: the position itself, for a state
        thrown away); no history or narration from here on."""
        lean = cls.__new__(cls)
        lean.game, lean.seed, lean.pos = gs.game, gs.seed, gs.pos.clone() if copy else gs.pos
        lean.steps, lean._told, lean._setup, lean._sampled = [], None, gs._setup, True
        lean.lookahead_used, lean._look_loops, lean._revealing = 0, 0, False
        lean._base, lean._since = None, []
        lean.pos.on_forced = None
        lean.pos.it.narrate = False
        return lean

    def clone(self) -> "LeanState":
        """An independent copy."""
        return LeanState.of(self)

    def legal(self) -> list[int]:
        """The option indices of the pending decision ([] when the game is over)."""
        d = self.pos.decision
        return [] if d is None else [o.index for o in d.options]

    def play(self, index: int) -> None:
        """Answer with the option of that index and run to the next decision that needs a real choice."""
        d = self.pos.decision
        if d is None:
            raise IllegalMove("the game is over")
        opts = d.options
        opt = opts[index] if index < len(opts) and opts[index].index == index else None
        if opt is None:
            opt = next((o for o in opts if o.index == index), None)
            if opt is None:
                raise IllegalMove(self.why_not_index(index))
        self._commit(opt)

    def playout(self, rng: Any, limit: int | None = None) -> int:
        """Play uniformly random options (`rng.randrange`) to the end or for `limit` decisions: the decisions
        played."""
        n = 0
        pos = self.pos
        while pos.decision is not None and (limit is None or n < limit):
            opts = pos.decision.options
            self.play(opts[rng.randrange(len(opts))].index if len(opts) > 1 else opts[0].index)
            n += 1
        return n

    def current_player(self) -> int:
        d = self.pos.decision
        return TERMINAL if d is None else d.player

    def _advance(self) -> None:
        """GameState._advance without the history and the narration: forced menus answered, dead ends left
        out by the same look-ahead, a step menu with no completable action skipped."""
        pos, limits = self.pos, self.game.limits
        s = pos.s
        auto = 0
        while True:
            auto += 1
            if auto > limits.auto:
                raise no_real_choice(self.game)
            decision = pos.run()
            if s.msgs:
                s.msgs = []  # (the engine's own lines: nobody reads a playout's narration)
            if decision is None:
                return
            viable = self._viable(decision)
            if not viable:
                if decision.kind == "action":
                    pos.resume(NOTHING_VIABLE)
                    continue
                raise RequireFailed(f"no option of '{decision.prompt}' can be completed", decision.span)
            if len(viable) == 1 and not decision.must_ask:
                if decision.sealed:
                    self._sealed_answer()
                self._expect = self._ahead_of(decision, viable[0])
                pos.resume(viable[0].value)
                continue
            decision.options = viable
            return

    def _commit(self, opt: Any, keep: bool = True) -> None:
        """Answer with an option of the pending decision; refused as GameState.apply refuses it (and this state
        is not used again: nothing is kept to go back to)."""
        self._revealing = False
        try:
            if self.pos.decision.sealed:
                self._sealed_answer()
            self._expect = self._ahead_of(self.pos.decision, opt)
            self.pos.resume(opt.value)
            self._advance()
        except RequireFailed as failed:
            self._expect = None
            self.pos.decision = None
            raise refusal(failed, self._revealing) from None


class FlatLean:
    """The lean path over the flat flow (engine/flat.py), the general engine behind it: the same interface as
    LeanState.  When the flat game cannot go on as the reference would (flat.Bail, or any error in the flat
    code), the answers given so far are played again on the general engine from the same start, which then
    goes on (and fails where the reference fails, in its words)."""

    __slots__ = ("game", "fg", "st", "seed", "players", "answers", "general")

    def __init__(self, game: Any, fg: Any, st: Any, seed: int, players: int):
        self.game, self.fg, self.st, self.seed, self.players = game, fg, st, seed, players
        self.answers: list[int] = []
        self.general: LeanState | None = None

    def clone(self) -> "FlatLean":
        c = FlatLean(self.game, self.fg, None if self.general else self.st.copy(), self.seed, self.players)
        c.answers = list(self.answers)
        c.general = None if self.general is None else self.general.clone()
        return c

    def legal(self) -> list[int]:
        if self.general is not None:
            return self.general.legal()
        menu = self.st.menu
        return [] if menu is None else list(range(len(menu))) if self.st.keep is None else list(self.st.keep)

    def legal_actions(self) -> list[int]:
        return self.legal()

    def current_player(self) -> int:
        if self.general is not None:
            return self.general.current_player()
        return TERMINAL if self.st.menu is None else self.st.current

    def is_terminal(self) -> bool:
        if self.general is not None:
            return self.general.is_terminal()
        return self.st.over is not None

    def play(self, index: int) -> None:
        if self.general is not None:
            self.general.play(index)
            return
        st = self.st
        if st.menu is None:
            raise IllegalMove("the game is over")
        if not 0 <= index < len(st.menu) or st.keep is not None and index not in st.keep:
            raise IllegalMove(self.why_not(index))
        self.answers.append(index)
        try:
            self.fg.play(st, index)
        except Exception:  # noqa: BLE001 - the flat game stops; the general engine plays the same answers
            self._fall_back()

    def why_not(self, index: int) -> str:
        """Why that index is not an answer now, in the general engine's words (a refused option's reason)."""
        general = LeanState.of(self.game.start_state(self.players, self.seed), copy=False)
        for i in self.answers:
            general.play(i)
        return general.why_not_index(index)

    def playout(self, rng: Any, limit: int | None = None) -> int:
        """Uniformly random options (`rng.randrange`) to the end or for `limit` decisions: the decisions played
        (the flat flow's own loop; each answer recorded, so the general engine can take over at any point)."""
        if self.general is not None:
            return self.general.playout(rng, limit)
        before = len(self.answers)
        try:
            return self.fg.playout(self.st, rng, self.answers, 1 << 62 if limit is None else limit)
        except Exception:  # noqa: BLE001 - the flat game stops: the general engine plays the same answers
            done = len(self.answers) - before
            self._fall_back()
            return done + self.playout(rng, None if limit is None else limit - done)

    def returns(self) -> list[float]:
        o = self.outcome()
        return [0.0] * self.players if o is None else list(o.returns)

    def outcome(self) -> Any:
        """How the game ended (the end's scoring run on the general state: flow.finish), or None."""
        if self.general is not None:
            return self.general.outcome()
        if self.st.over is None:
            return None
        return self.state().outcome

    def state(self) -> Any:
        """The general state of this position (scored when the game is over)."""
        if self.general is not None:
            return self.general.state
        from ..reference.evaluator import Interp
        from .flow import finish

        s = self.fg.to_state(self.st, self.game.start_state(self.players, self.seed).pos.s)
        if self.st.over is not None:
            finish(Interp(s, self.game.limits), self.st.over)
        return s

    def _fall_back(self) -> None:
        general = LeanState.of(self.game.start_state(self.players, self.seed), copy=False)
        for index in self.answers:
            general.play(index)
        self.general = general


def lean_state(game: Any, seed: int = 0, players: int | None = None) -> Any:
    """A new game on the lean path: on the flat flow where the spec has one (engine/flat.py), else a LeanState;
    from the prepared start position where the setup draws nothing random."""
    from .flat import FlatGame

    n = players if players is not None else game.num_players()
    fg = FlatGame.of(game)
    if fg is not None:
        try:
            return FlatLean(game, fg, fg.new(n, seed), seed, n)
        except Exception:  # noqa: BLE001 - the flat flow cannot start here: the general engine's lean path
            pass
    return LeanState.of(game.start_state(n, seed), copy=False)


__all__ = ["FlatLean", "LeanState", "lean_state", "Decision"]
