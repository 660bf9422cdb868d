"""The public GameState on the flat flow: `FlatGameState` plays a spec that has a flat module (engine/flat.py)
on the flat state while it is asked only what a search or a simulation asks (menus as indices, answers,
copies, who moves, the end and its returns), and turns into an ordinary GameState the first time anything else
is read (the position, a view, the history's steps, the narration, a refused answer's words).

Turning into a GameState plays the answers given so far again from the same start (the flat flow draws nothing
at random, so the same answers make the same position; its generator's state is carried over), so the
position, steps and narration are those of a state that was general from the start.  A flat answer the flat
code cannot play as the reference would (`flat.Bail`, any error in the flat code) turns the state into a
GameState before the answer, which then answers it (and refuses it, in the reference's words, where the
reference refuses it).  tests/test_flatapi.py plays the public API's games on both, step by step.
"""

from __future__ import annotations

from typing import Any

from ..core.decisions import Option
from ..core.rng import Rng
from .driver import TERMINAL, GameState, IllegalMove
from .flat import EndGame


class FlatGameState(GameState):
    """A GameState on the flat flow until something only the general state has is read (see the module doc)."""

    def __init__(self, game: Any, fg: Any, st: Any, seed: int, n: int, answers: list[int] | None = None):
        d = self.__dict__
        d["game"], d["seed"], d["_fg"], d["_st"], d["_n"] = game, seed, fg, st, n
        d["_answers"] = [] if answers is None else answers
        d["_ended"] = None  # the end's Outcome, once asked

    # -- turning into a GameState
    def __getattr__(self, name: str) -> Any:
        """Anything a flat state does not have (the position, its steps, the narration...): the state turns
        into an ordinary GameState first."""
        if name.startswith("__") or self.__dict__.get("_fg") is None:
            raise AttributeError(name)
        self._general()
        return getattr(self, name)

    def __reduce_ex__(self, protocol: Any) -> Any:
        if self._fg is not None:
            self._general()
        return super().__reduce_ex__(protocol)

    def _general(self, answers: list[int] | None = None) -> None:
        """Become the GameState the answers so far (or `answers`) lead to from this game's start."""
        fg, st = self._fg, self._st
        gs = replay(self.game, self._n, self.seed, self._answers if answers is None else answers)
        gs.pos.s.rng.state = st.rng  # (a reseeded copy: what is drawn from now on)
        d = self.__dict__
        for key in ("_st", "_n", "_answers", "_ended"):
            d.pop(key, None)
        d.update(gs.__dict__)
        d["_fg"] = None
        del fg

    # -- what a search and a simulation ask
    @property
    def num_players(self) -> int:
        return self._n if self._fg is not None else self.pos.s.n

    def current_player(self) -> int:
        if self._fg is None:
            return super().current_player()
        st = self._st
        return TERMINAL if st.menu is None else st.current

    def is_terminal(self) -> bool:
        if self._fg is None:
            return super().is_terminal()
        return self._st.over is not None

    def legal_actions(self) -> list[int]:
        if self._fg is None:
            return super().legal_actions()
        menu = self._st.menu
        return [] if menu is None else list(range(len(menu))) if self._st.keep is None else list(self._st.keep)

    def legal_options(self) -> list[Option]:
        if self._fg is None:
            return super().legal_options()
        st = self._st
        if st.menu is None:
            return []
        labels = menu_labels(self.game, self._fg, st)
        t = self._fg.mod.param_types[self._fg.actions[st.action]]
        general = self._fg.lay.to_general
        return [Option(labels[i], general(v, t), i) for i, v in enumerate(st.menu)
                if st.keep is None or i in st.keep]

    def history(self) -> list[int]:
        return list(self._answers) if self._fg is not None else super().history()

    def returns(self) -> list[float]:
        if self._fg is None:
            return super().returns()
        if self._ended is None and self._st.over is not None:
            scored = self._fg.returns(self._st)
            if scored is not None:
                return scored
        o = self.outcome()
        return [0.0] * self._n if o is None else list(o.returns)

    def outcome(self) -> Any:
        if self._fg is None:
            return super().outcome()
        if self._st.over is None:
            return None
        if self._ended is None:  # (scored by the flat module where it can, else on the general state)
            self.__dict__["_ended"] = (self._fg.outcome(self._st)
                                       or flat_ended(self.game, self._fg, self._st, self._n, self.seed).outcome)
        return self._ended

    def heuristic_returns(self) -> list[float] | None:
        if self._fg is None:
            return super().heuristic_returns()
        rules = self.game.rules
        if rules.heuristic is None:
            return None
        judged = self._fg.heuristic_returns(self._st)
        if judged is not None:
            return judged
        # the flat code cannot judge it: the general state of this position does (this state stays flat)
        from ..reference.evaluator import Interp

        s = self._fg.to_state(self._st, template(self.game, self._n, self.seed))
        return rules.heuristic_returns(Interp(s, self.game.limits))

    def cascade_lengths(self) -> dict[int, int]:
        return {} if self._fg is not None else super().cascade_lengths()  # (the flat flow takes no triggers)

    def rng_state(self) -> int:
        return self._st.rng if self._fg is not None else super().rng_state()

    def reseed(self, seed: int) -> None:
        if self._fg is None:
            super().reseed(seed)
        else:
            self._st.rng = Rng(seed).state

    def clone(self) -> GameState:
        if self._fg is None:
            return super().clone()
        c = FlatGameState(self.game, self._fg, self._st.copy(), self.seed, self._n, list(self._answers))
        c.__dict__["_ended"] = self._ended
        return c

    def apply(self, index: int, keep: bool = True) -> None:
        fg = self._fg
        if fg is None:
            super().apply(index, keep)
            return
        st = self._st
        if (st.menu is None or index.__class__ is not int or not 0 <= index < len(st.menu)
                or st.keep is not None and index not in st.keep):
            self._general()  # (the general state says why not, in its words)
            super().apply(index, keep)
            return
        self._play(index, keep)

    def apply_sampled(self, index: int) -> None:
        """GameState.apply_sampled on the flat flow: where its menus need no look-ahead the answer is played as
        apply plays it (an index not on the menu: the general state refuses it); else on the general state."""
        if self._fg is None:
            super().apply_sampled(index)
        elif self._fg.mod.look:  # (a sampled state's menus are not filtered: the general engine's draws)
            self._general()
            super().apply_sampled(index)
        else:
            self.apply(index, keep=False)

    def sample_step(self, rng: Any) -> tuple[int, str]:
        """GameState.sample_step on the flat flow: where the spec needs no look-ahead every option of a flat menu
        can be completed, so a random pick among them, the numbers drawn as there.  Else the general state
        samples (its sampled menus are left unfiltered: other draws)."""
        if self._fg is None:
            return super().sample_step(rng)
        if self._fg.mod.look:  # (a sampled state's menus are not filtered: the general engine's draws)
            self._general()
            return super().sample_step(rng)
        st = self._st
        if st.menu is None:
            raise IllegalMove("the game is over")
        index = rng.below(len(st.menu)) if len(st.menu) > 1 else 0
        mover, label = st.current, menu_label(self.game, self._fg, st, index)
        self._play(index, False)
        return mover, label

    def random_moves(self, rng: Any, cap: int, played: list, tick: Any) -> int:
        """`sample_step` repeated on the flat state until the end, `cap` moves of a player (menus of more than
        one option) or the state turns general: the moves' (player, label) go to `played`; the number of
        them.  `tick` (None: nothing) is called before each move (the bot's time budget).  The same draws,
        moves and labels as calling sample_step in a loop (the search bot's playout), with FlatGame.play and
        menu_label written in."""
        fg, st, answers = self._fg, self._st, self._answers
        if fg is None or fg.mod.look:  # (sample_step's draws: the general engine's, as in sample_step)
            return 0
        perform, advance, below = fg._perform, fg._advance, rng.below
        # the labels by action index, then value (a list by its repr): menu_label's, without a key to build
        by_action = fg.__dict__.get("labels_by_action")
        if by_action is None:
            by_action = fg.__dict__["labels_by_action"] = [{} for _ in fg.actions]
        steps = 0
        while steps < cap:
            menu = st.menu
            if menu is None:
                break
            if tick is not None:
                tick()
            k = len(menu)
            index = below(k) if k > 1 else 0
            mover, a, v = st.current, st.action, menu[index]
            known = by_action[a]
            key = repr(v) if v.__class__ is list else v
            label = known.get(key)
            if label is None:
                label = menu_label(self.game, fg, st, index)
                if fg.actions[a] not in pieces_menus(fg):
                    known[key] = label
            st.menu = st.action = None
            try:
                perform[a](st, v)
                if st.over is None:
                    advance(st)
            except EndGame as ended:
                st.over = ended.name
            except Exception:  # noqa: BLE001 - as _play: the general state answers it, and the loop stops
                st.menu, st.action = menu, a
                self._play_general(index)
                if k > 1 and label:
                    played.append((mover, label))
                    steps += 1
                return steps
            answers.append(index)
            if k > 1 and label:
                played.append((mover, label))
                steps += 1
        self.__dict__["_ended"] = None
        return steps

    def _play(self, index: int, keep: bool) -> None:
        """One move on the flat state (FlatGame.play written in: a simulation's every move goes here; the
        time-budget tests count the moves here: tests/movecount.py)."""
        fg, st = self._fg, self._st
        menu, action = st.menu, st.action
        st.menu = st.action = None
        try:
            fg._perform[action](st, menu[index])
            if st.over is None:
                fg._advance(st)
        except EndGame as ended:
            st.over = ended.name
        except Exception:  # noqa: BLE001 - the flat game stops: the general state answers (or refuses) it
            self._play_general(index, keep)
            return
        self._answers.append(index)
        self.__dict__["_ended"] = None

    def _play_general(self, index: int, keep: bool = False) -> None:
        """Answer on the general state the answers so far lead to (the flat code could not play it)."""
        self._general()
        GameState.apply(self, index, keep)


def replay(game: Any, n: int, seed: int, answers: list[int]) -> GameState:
    """The GameState `answers` lead to from the start of a new game of this seed (the general engine)."""
    gs = game.start_state(n, seed)
    for index in answers:
        gs.apply(index, keep=False)
    return gs


def template(game: Any, n: int, seed: int) -> Any:
    """A general state of this game that the flat flow's states are turned back into (FlatGame.to_state)."""
    prepared = game._prepared.get(n)
    return prepared.pos.s if prepared is not None else game.start_state(n, seed).pos.s


def flat_ended(game: Any, fg: Any, st: Any, n: int, seed: int) -> Any:
    """The general state of a flat game that is over, its end scored (flow.finish: winners, returns)."""
    from ..reference.evaluator import Interp
    from .flow import finish

    s = fg.to_state(st, template(game, n, seed))
    finish(Interp(s, game.limits), st.over)
    return s


def menu_labels(game: Any, fg: Any, st: Any) -> list[str]:
    """The labels of a flat menu's options, as the general menu shows them."""
    return [menu_label(game, fg, st, i) for i in range(len(st.menu))]


def menu_label(game: Any, fg: Any, st: Any, index: int) -> str:
    """The label of one option of a flat menu, as the general menu shows it (kept per action and value; a
    piece's label is its label expression's on this position, made each time: evaluator.options_for)."""
    labels = fg.__dict__.setdefault("labels", {})
    name, v = fg.actions[st.action], st.menu[index]
    if name in pieces_menus(fg):
        from ..reference.evaluator import Interp

        s = fg.to_state(st, template(game, st.n, 0))
        return Interp(s, game.limits).label(fg.lay.to_general(v, fg.mod.param_types[name]))
    key = (name, repr(v) if v.__class__ is list else v)  # (a move given as a list of cells)
    label = labels.get(key)
    if label is None:
        label = labels[key] = _label_of(game, fg, v, fg.mod.param_types[name], st.n)
    return label


def pieces_menus(fg: Any) -> frozenset:
    """The actions whose menus offer pieces (their labels are the position's: never kept)."""
    found = fg.__dict__.get("pieces_menus")
    if found is None:
        from ..compiler import typepass as T

        found = fg.__dict__["pieces_menus"] = frozenset(
            a for a, t in fg.mod.param_types.items() if T.strip(t) in (T.PIECE, T.BPIECE))
    return found


def _label_of(game: Any, fg: Any, v: Any, t: str, n: int) -> str:
    """The general label of a flat value of type t (a menu's labels depend on the value alone: no pieces)."""
    from ..reference.evaluator import Interp

    return Interp(template(game, n, 0), game.limits).label(fg.lay.to_general(v, t))


def as_flat(gs: GameState) -> GameState:
    """The same position on the flat flow where the spec has one and the state can be turned into a flat one (a
    state at a turn's step menu, started from the spec's own setup, with its answers as its history); else
    `gs` itself."""
    from .flat import FlatGame

    if isinstance(gs, FlatGameState) or gs._setup != (None, False) or gs._sampled or gs.is_terminal():
        return gs
    fg = FlatGame.of(gs.game)
    if fg is None:
        return gs
    try:
        st = fg.start(gs)
        fg.advance(st)
    except Exception:  # noqa: BLE001 - not a position the flat flow can take up: the general state goes on
        return gs
    d = gs.decision
    if st.menu is None or st.current != d.player or [o.index for o in d.options] != (
            list(range(len(st.menu))) if st.keep is None else st.keep):
        return gs
    return FlatGameState(gs.game, fg, st, gs.seed, gs.num_players, gs.history())


def flat_start(game: Any, n: int, seed: int) -> GameState | None:
    """A new game on the flat flow (from the prepared start where there is one), or None where the spec has no
    flat module or the flat flow cannot start it."""
    from .flat import FlatGame

    fg = FlatGame.of(game)
    if fg is None:
        return None
    try:
        st = fg.new(n, seed)
    except Exception:  # noqa: BLE001 - the flat flow cannot start here: the general engine starts it
        return None
    return FlatGameState(game, fg, st, seed, n)


__all__ = ["FlatGameState", "as_flat", "flat_ended", "flat_start", "menu_labels", "replay"]
