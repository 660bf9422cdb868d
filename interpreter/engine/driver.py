"""The GameState API (shaped like OpenSpiel's State) over a resumable Position.

Answering a decision resumes the position where it stopped; asking "what now?" costs nothing more.
Options are filtered by look-ahead so that no menu leads into a dead end: each option is tried on a
clone of the position, run forward, depth-first through the menus met inside the same action, until a
branch completes the action (viable) or every branch fails a rule (the last failure is the reason).
A menu left with one option is answered by the driver and recorded as automatic; a step menu with
none is skipped with a message, as before.  Moves are all-or-nothing: an answer whose continuation
fails is refused and the position is left as it was.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from ..core.decisions import Decision, Option, Refusal, RequireFailed, RuleError, RunawayError
from ..reference.evaluator import Interp
from .flow import NOTHING_VIABLE
from ..core.rng import Rng
from ..core.state import State
from . import apiinput
from . import abilityframes  # noqa: F401 (imported for its starters: frames.START and HOOKS get them)
from .commit import commit_view, pending
from .fallible import fallible_of
from .position import Position

TERMINAL = -4  # current_player() of a finished game, as in OpenSpiel
# answers between two checkpoints of a GameState: a copy of the position every REDO_EVERY answers costs
# 1/REDO_EVERY of the copy per answer that a protective copy before every answer cost (a fifth of a
# random playout of a small board game); a refused answer redoes at most REDO_EVERY - 1 answers
REDO_EVERY = 16
STATE_FORMAT = "orrery-state/1"  # GameState.to_json; Game.state_from_json reads it


class IllegalMove(Exception):
    """An answer that the rules do not allow here; `reason` says which rule forbids it."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Step:
    """One answered decision in a game's history (`auto`: answered by the engine, the only possible answer)."""

    player: int
    index: int
    label: str
    prompt: str
    auto: bool = False
    sealed: bool = False  # an answer to a `commit`: hidden from the other players until the reveal
    value: Any = None  # the answer's value (the table checks whether a chosen piece is hidden from a reader)


def after_reveal(failed: RequireFailed) -> RuleError:
    """A rule that refused the move after a commit's reveal: an error in the rules, not a refused answer (the
    answers are final, and refusing the last one would tell its player something about the others')."""
    return RuleError(f"a rule refused the move after a commit's answers were revealed: {failed.message}; answers "
                     f"to a commit are final, so the rules must settle what follows the reveal (dsl.md 4.24)",
                     failed.span)


def no_real_choice(game: Any) -> RunawayError:
    """The runaway of `limits.auto` forced decisions in a row (GameState._advance and the lean path's)."""
    return RunawayError(
        f"{game.limits.auto} decisions in a row had one possible answer or none, so nobody ever "
        f"gets a real choice (limit auto); is an end condition missing for a player who cannot act? "
        f"Raise it with --limit auto=N", game.spec.span("end"))


def refusal(failed: RequireFailed, revealing: bool) -> Exception:
    """What an answer a rule refused raises: IllegalMove with the rule's words, or after a commit's reveal an
    error in the rules (`after_reveal`)."""
    return after_reveal(failed) if revealing else IllegalMove(failed.explain())


def _expected(expect: Any, d: Decision) -> dict | None:
    """The verdicts kept for menu `d` (GameState._viable), if it is the menu they were found at."""
    if expect is None:
        return None
    seen = expect[0]
    if (d.kind != "choose" or d.site != seen.site or d.player != seen.player or d.prompt != seen.prompt
            or len(d.options) != len(seen.options)):
        return None
    return expect[1]


def _starts(d: Decision, scope: str | None) -> bool:
    """Whether an answer to `d` that names an action starts an action of its own: at a step menu, or at a
    window opened outside any action (inside one, the window's answers are part of that action's move)."""
    return d.kind == "action" or (d.kind == "window" and scope is None)


class _Spent(Exception):
    """The look-ahead of one menu used up its loop budget: the options left are offered unchecked."""


class GameState:
    """A game in progress: a position (state + continuation), its history and narration."""

    # What the look-ahead of the pending menu found at the menu each of its options leads to (`_viable`): the
    # verdicts of that menu's options, reused when that option is answered (`_expect`), not replayed again.
    _ahead: Any = None
    _expect: Any = None
    _seen: Any = None
    _keep = False
    # (for `_dead_end`: the answers from `pos` to the menu the next call's position stands at; None: the call is a
    # menu's own option, on `pos` itself, which it must leave as it is)
    _path: Any = None

    def __init__(self, game: Any, pos: Position, seed: int):
        self.game = game
        self.seed = seed
        self.pos = pos
        self.steps: list[Any] = []
        # the narration so far; None while nobody has read it (see `narration`): `say` builds no text then
        self._told: list[str] | None = None
        self._setup: tuple[Any, bool] = (None, False)  # the extra setup it started with (a scenario's)
        self._sampled = False  # driven by sample_step: its steps are not a history to play again
        self.lookahead_used = 0
        self._look_loops = 0
        # What a refused answer goes back to (instead of a copy of the position before every answer): a
        # checkpoint taken every REDO_EVERY answers and the answers given since, redone on a copy of it.
        # None: nothing to go back to (a sampled state, or a failure with keep=False).
        self._base: Position | None = None
        self._since: list[Any] = []
        self._revealing = False  # the answer being applied gave a commit's last answer (see _commit)
        self._rng0: Any = None  # the random source it started with when not the seed's (the narration replays it)

    @classmethod
    def start(cls, game: Any, n: int, seed: int, setup: Any = None, replace_setup: bool = False,
              narrate: bool = False, rng: Any = None) -> "GameState":
        """A new game of `n` players: setup runs up to the first decision.  `narrate`: build the narration
        from the start (for a table that shows it); else it is built when first read.  `rng`: the random
        source instead of the seed's (Game.new_initial_state)."""
        rng0 = None if rng is None else rng.clone()
        overridden = setup is not None or replace_setup
        rules, flow_frame = game.engine(overridden)
        initial = State(rules, n, seed, rng)
        if overridden:
            initial.setup_override = (setup, replace_setup)
        gs = cls(game, Position(initial, game.limits, [flow_frame()]), seed)
        gs._setup, gs._rng0 = (setup, replace_setup), rng0
        gs._told = [] if narrate else None
        gs.pos.it.narrate = narrate
        gs._listen()
        try:
            gs._advance()
        except RequireFailed as failed:  # no player chose anything yet: the spec itself is at fault
            raise RuleError(f"the game cannot start: {failed.message}", failed.span) from None
        gs._checkpoint()
        return gs

    # ------------------------------------------------------------- queries
    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None when the game is over."""
        return self.pos.decision

    @property
    def narration(self) -> list[str]:
        """The narration lines so far (`say`, and the engine's lines such as a skipped step).

        Nobody reads the narration of most states (a bot's playouts, a simulation), so it is built only
        once somebody does: the first read plays the history again from the seed with narration on (the
        game is deterministic, and a `say` cannot change it: dsl.md 4.21), and from then on this state
        narrates as it goes."""
        if self._told is None:
            self._tell_from_start()
        assert self._told is not None
        return self._told

    def _tell_from_start(self) -> None:
        """Build the narration of the history so far, and narrate from now on."""
        if self._sampled:
            raise RuntimeError("a state driven by sample_step has no narration: its steps list the sampled "
                               "answers only, so its history cannot be told again")
        again = GameState.start(self.game, self.num_players, self.seed, *self._setup, narrate=True,
                                rng=None if self._rng0 is None else self._rng0.clone())
        for index in self.history():
            again.apply(index, keep=False)
        self._told = again._told
        self.pos.it.narrate = True

    @property
    def narrating(self) -> bool:
        """Whether `say` builds its lines as the game goes (the narration was asked for or has been read)."""
        return self._told is not None

    @property
    def state(self) -> State:
        """The state as it is now (mid-effect if a decision interrupted one)."""
        return self.pos.s

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self.pos.s.n

    def current_player(self) -> int:
        """Who must decide now, or TERMINAL."""
        d = self.pos.decision
        return TERMINAL if d is None else d.player

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.pos.s.outcome is not None

    def legal_actions(self) -> list[int]:
        """Indices of the options of the pending decision (stable: logs record them)."""
        d = self.pos.decision
        return [] if d is None else [o.index for o in d.options]

    def legal_options(self) -> list[Option]:
        """The options of the pending decision."""
        d = self.pos.decision
        return [] if d is None else list(d.options)

    def heuristic_returns(self) -> list[float] | None:
        """Per player, the spec's bots.heuristic scaled to -1..1 (None when the spec declares none)."""
        if self.game.rules.heuristic is None:
            return None
        return self.game.rules.heuristic_returns(self.pos.it)

    def bot_playout(self) -> int | None:
        """The spec's hint for the random decisions of a search bot's playout (bots.playout), or None."""
        return self.game.rules.spec.model.bots.playout

    def bot_iterations(self) -> int | None:
        """The spec's hint for a search bot's budget when the bot was given none (bots.iterations), or None."""
        return self.game.rules.spec.model.bots.iterations

    def history(self) -> list[int]:
        """The option indices the players gave, in order: `apply` them to a new state of the same seed to
        reach this position (the engine's automatic answers follow; `steps` lists every decision)."""
        return [s.index for s in self.steps if not s.auto]

    def to_json(self) -> dict[str, Any]:
        """The position as JSON-able data: the game, its spec digest, players, seed and history."""
        return {"format": STATE_FORMAT, "game": self.game.name, "spec_digest": self.game.spec.digest,
                "players": self.num_players, "seed": self.seed, "history": self.history()}

    def returns(self) -> list[float]:
        """Per-player results: 1 win, -1 loss, 0 draw (all zeros before the end)."""
        o = self.pos.s.outcome
        return list(o.returns) if o else [0.0] * self.pos.s.n

    def outcome(self):
        """How the game ended, or None."""
        return self.pos.s.outcome

    def cascade_lengths(self) -> dict[int, int]:
        """How many cascades of each length (trigger firings) the game has had so far."""
        return dict(self.pos.s.cascades)

    def rng_state(self) -> int:
        """The state of the game's random generator (a search tells by it whether a move drew at random)."""
        return self.pos.s.rng.state

    def reseed(self, seed: int) -> None:
        """Draw what is drawn from now on (draws, dice, shuffles) from a generator of this seed."""
        self.pos.s.rng = Rng(seed)

    def digest(self) -> str:
        """A hash of the position: the state and where the continuation stands."""
        blob = json.dumps(self.pos.frames_view(), sort_keys=True, default=str)
        return f"{self.pos.s.digest()}:{hashlib.sha256(blob.encode()).hexdigest()[:16]}"

    def view(self, player: int | None = None) -> dict[str, Any]:
        """A JSON-able picture of the state as `player` may see it (None: everything)."""
        apiinput.viewer(self, player)
        data = self.pos.s.to_data(player, hide=player is not None)
        d = self.pos.decision
        if d is not None:
            data["decision"] = {"player": d.player, "prompt": d.prompt}
            if d.sealed:
                data["decision"]["sealed"] = True
            if player is None or player == d.player:  # options can name hidden pieces (cards in a hand)
                data["decision"]["options"] = [{"index": o.index, "label": o.label} for o in d.options]
                for o, shown in zip(d.options, data["decision"]["options"]):
                    if (note := d.note(o.index)) is not None:  # (an option's price)
                        shown["note"] = note
        sealed = commit_view(self.pos, player)
        if sealed is not None:  # who has committed; a player's own sealed answer (all of them for None)
            data["commit"] = sealed
        return data

    # ------------------------------------------------------------- changes
    def clone(self) -> "GameState":
        """An independent copy."""
        g = GameState.__new__(GameState)
        g.game, g.seed, g.pos = self.game, self.seed, self.pos.clone()
        g.steps, g._told = list(self.steps), None if self._told is None else list(self._told)
        g._setup, g._sampled, g._rng0 = self._setup, self._sampled, self._rng0
        g.lookahead_used, g._look_loops = 0, 0
        g._base, g._since = self._base, list(self._since)  # (a checkpoint is never changed: shared)
        g._revealing = False
        g._listen()
        return g

    def _listen(self) -> None:
        """Choices that answer themselves (one possible value) go into the history too, marked automatic."""
        history = self.steps
        label = self.pos.it.label

        def forced(chooser: int, prompt: str, value: Any) -> None:
            history.append(Step(chooser, 0, label(value), prompt, True, False, value))

        self.pos.on_forced = forced

    def apply(self, index: int, keep: bool = True) -> None:
        """Answer the pending decision with the option of that index; raise IllegalMove if not allowed.

        A refused or failing answer leaves the position as it was: a checkpoint's copy with the answers
        since redone (see _restore).  keep=False takes no checkpoint and does not go back: for a caller
        that throws the state away when an answer fails, as a search bot's playouts do; the state is then
        unusable after a failure."""
        d = self.pos.decision
        if d is None:
            raise IllegalMove("the game is over")
        if index is True or index is False:  # (True == 1: it would pick option 1)
            apiinput.answer_index(index)
        opt = next((o for o in d.options if o.index == index), None)
        if opt is None:
            apiinput.answer_index(index)  # a text, a float, None: bad input, not a move
            raise IllegalMove(self.why_not_index(index))
        self._commit(opt, keep)

    def apply_label(self, text: str) -> Option:
        """Answer by an option's label or 1-based menu number; raise IllegalMove with the reason."""
        d = self.pos.decision
        if d is None:
            raise IllegalMove("the game is over")
        apiinput.answer_label(text)
        opt = d.find(text)
        if opt is None:
            raise IllegalMove(self.why_not_label(text))
        self._commit(opt)
        return opt

    def _commit(self, opt: Option, keep: bool = True) -> None:
        d = self.pos.decision
        assert d is not None
        if keep and self._base is None:  # (a state sampled before, or new from data: go back to here)
            self._checkpoint()
        told = self._told
        nh, nn = len(self.steps), 0 if told is None else len(told)
        self.steps.append(Step(d.player, opt.index, opt.label, d.prompt, False, d.sealed, opt.value))
        self._revealing = False
        try:
            if d.sealed:
                self._sealed_answer()
            self._expect = self._ahead_of(d, opt)
            self.pos.resume(opt.value)
            self._advance()
        except BaseException as failed:  # refused or broken: the position goes back to where it was
            self._expect = None
            del self.steps[nh:]
            if told is not None:
                del told[nn:]
            if keep and self._base is not None:
                try:
                    self._restore()
                except BaseException:  # (the redo cannot fail where the answers first succeeded; if it
                    self.pos.decision = None  # ever did, the state is marked unusable, not left half-redone)
                    self._base = None
                    raise failed from None
            else:
                self.pos.decision = None  # (nothing kept to go back to: this state is not to be used again)
                self._base = None
            if isinstance(failed, RequireFailed):
                raise refusal(failed, self._revealing) from None
            raise
        if self._base is not None:
            self._since.append(opt.value)
            if keep and len(self._since) >= REDO_EVERY:  # (a search's playout takes none: it never goes back)
                self._checkpoint()

    def _checkpoint(self) -> None:
        """The position as it is now becomes what a refused answer goes back to."""
        self._base, self._since = self.pos.clone(), []

    def _restore(self) -> None:
        """The position before the refused answer: the checkpoint's copy with the answers since redone.

        The engine is deterministic (the same position and answer always lead to the same position), so
        this is the position the answer started from; the history and narration were kept, so the redo
        writes to scratch lists (an automatic answer appends to `steps`)."""
        assert self._base is not None
        steps, told = self.steps, self._told
        self.pos = self._base.clone()
        self.pos.it.narrate = told is not None  # (narration may have been read since the checkpoint)
        self.steps, self._told = [], None if told is None else []
        try:
            for value in self._since:
                self.pos.resume(value)
                self._advance()
        finally:
            self.steps, self._told = steps, told
            self._listen()

    def _advance(self) -> None:
        """Run to the next decision that needs a real choice, answering the ones that do not."""
        pos, limits = self.pos, self.game.limits
        auto = 0
        while True:
            auto += 1
            if auto > limits.auto:
                raise no_real_choice(self.game)
            decision = pos.run()
            self._narrate()
            if decision is None:
                return
            viable = self._viable(decision)
            if not viable:
                if decision.kind == "action":
                    pos.resume(NOTHING_VIABLE)
                    continue
                raise RequireFailed(f"no option of '{decision.prompt}' can be completed", decision.span)
            if len(viable) == 1 and not decision.must_ask:
                opt = viable[0]
                self.steps.append(Step(decision.player, opt.index, opt.label, decision.prompt, True, decision.sealed,
                                       opt.value))
                if decision.sealed:
                    self._sealed_answer()
                self._expect = self._ahead_of(decision, opt)
                pos.resume(opt.value)
                continue
            decision.options = viable
            return

    def _sealed_answer(self) -> None:
        """A commit's question is being answered: note whether it is the last answer (then it reveals, and a
        failure from there on is an error in the rules: `after_reveal`)."""
        if not self._revealing:
            frames = pending(self.pos)
            self._revealing = bool(frames) and frames[-1].k == len(frames[-1].seats) - 1

    def _narrate(self) -> None:
        msgs = self.pos.s.msgs
        if msgs:
            if self._told is not None:
                self._told.extend(msgs)
            self.pos.s.msgs = []

    # ------------------------------------------------------------- sampled playouts
    def sample_step(self, rng: Any) -> tuple[int, str]:
        """Answer the pending decision with a random option that can be completed: (mover, its label).

        For search playouts.  Instead of checking every option by look-ahead, the options are tried in a
        random order, depth-first through the menus met inside the same action, and the first branch that
        completes the action is played: the option taken is uniform over the viable ones, as a random
        choice among `legal_options()` is, at a fraction of the look-ahead runs.  The menus met afterwards
        are not filtered (the next sample_step does that), so `legal_options()` may then hold dead ends:
        drive a sampled state with sample_step only.  Its `steps` list the sampled answers, not the choices
        that had one possible value.  A failure leaves the state unusable (as keep=False)."""
        pos, limits = self.pos, self.game.limits
        d = pos.decision
        if d is None:
            raise IllegalMove("the game is over")
        self.lookahead_used = 0
        self._base = None  # (a sampled state is not answered through _commit: nothing to go back to)
        pos.on_forced = None  # a sampled state lists the sampled answers only (see the docstring)
        self._sampled, self._told, pos.it.narrate = True, None, False  # (nobody reads a playout's narration)
        for _ in range(limits.auto):
            path = self._sample(pos, d, rng, None if d.kind == "action" else d.action)
            if path is not None:
                q, first = path
                self.pos = q
                self._narrate()
                return d.player, first.label
            if d.kind != "action":
                raise RequireFailed(f"no option of '{d.prompt}' can be completed", d.span)
            pos.resume(NOTHING_VIABLE)  # nobody can complete any action: the step is skipped, as in play
            d = pos.run()
            self._narrate()
            if d is None:
                return TERMINAL, ""
        raise RunawayError(f"{limits.auto} step menus in a row had no action that can be completed (limit auto)",
                           self.game.spec.span("end"))

    def apply_sampled(self, index: int) -> None:
        """For search bots: answer with the option of that index and run to the next decision, whose menu is
        left unfiltered (as after sample_step: drive the state on with sample_step only).  The option must be
        one of a filtered menu's, so that it can be completed; a failure leaves the state unusable."""
        pos = self.pos
        d = pos.decision
        opt = None if d is None else next((o for o in d.options if o.index == index), None)
        if d is None or opt is None:
            raise IllegalMove("the game is over" if d is None else self.why_not_index(index))
        self._base = None
        pos.on_forced = None
        self._sampled, self._told, pos.it.narrate = True, None, False
        self.steps.append(Step(d.player, opt.index, opt.label, d.prompt, False))
        pos.resume(opt.value)
        pos.run()
        self._narrate()

    def _sample(self, pos: Position, d: Decision, rng: Any, scope: str | None,
                top: bool = True) -> tuple[Position, Option] | None:
        """A position reached by a random completable branch from decision `d` (and its first option), or None.

        Below the top, the last option is tried on `pos` itself: a failure there fails the caller's branch,
        whose copy is thrown away.  The top keeps `pos` intact (a step menu with no completable action is
        skipped from it).  Past the `lookahead` budget, branches are taken without looking further."""
        options = list(d.options)
        if d.kind == "window" and self.game.rules.spec.model.bots.windows == "pass":  # (a playout hint)
            options = [o for o in options if o.value is None]
        check = self._needs_lookahead(d)
        actions = self.game.rules.actions
        while options:
            # (a lone option takes no random number: where no look-ahead is needed, a sampled playout
            # draws exactly the numbers a random pick among legal_options() draws, and plays the same game)
            opt = options.pop(rng.below(len(options)) if len(options) > 1 else 0)
            q = pos.clone() if check and (options or top) else pos
            mark = len(self.steps)
            self.steps.append(Step(d.player, opt.index, opt.label, d.prompt, False))
            self.lookahead_used += 1
            q.resume(opt.value)
            try:
                nxt = q.run()
            except RequireFailed:
                del self.steps[mark:]
                if q is pos:
                    return None
                continue
            # (an answer that starts an action of its own: at a step menu, or at a window outside any action)
            inner = (opt.value if (d.kind == "action" or d.kind == "window" and scope is None) and opt.value in actions
                     else scope)
            if (nxt is None or nxt.kind == "action" or inner is None or nxt.action != inner or not check
                    or self.lookahead_used > self.game.limits.lookahead):
                return q, opt
            found = self._sample(q, nxt, rng, inner, top=False)
            if found is not None:
                return found[0], opt
            del self.steps[mark:]
            if q is pos:
                return None
        return None

    # ------------------------------------------------------------- look-ahead
    def _needs_lookahead(self, decision: Decision) -> bool:
        if decision.sealed:  # a look past a sealed answer would read the others' answers (engine/commit.py)
            return False
        rules = self.game.rules
        if decision.kind == "action":
            if not rules.some_may_fail:  # (most abstract games: no action can fail once chosen)
                return False
            return any(rules.may_fail(o.value) for o in decision.options if o.value in rules.actions)
        if decision.kind == "window":  # its actions, or the move it is part of (answered with `pass`)
            return (rules.some_may_fail or rules.outside_may_fail) and (
                any(rules.may_fail(o.value) for o in decision.options if o.value in rules.actions)
                or (rules.may_fail(decision.action) if decision.action is not None else rules.outside_may_fail))
        if decision.action is None:
            return rules.outside_may_fail
        known = fallible_of(rules).needs_lookahead(decision.site, decision.action)
        return rules.may_fail(decision.action) if known is None else known

    def _viable(self, decision: Decision) -> list[Option]:
        """The options from which the current action can still be completed."""
        expect, self._expect, self._ahead = self._expect, None, None
        self._path = None
        if not self._needs_lookahead(decision):
            return list(decision.options)
        self.lookahead_used = 0
        self._look_loops = 0  # every run made for this menu shares one loop budget (limit loop)
        actions, limits = self.game.rules.actions, self.game.limits
        fallible = fallible_of(self.game.rules)
        sure = fallible.sure(decision, self.pos)  # (options judged without a replay)
        judged = fallible.price_gated if decision.kind == "action" else ()
        known = _expected(expect, decision)
        ahead: dict[int, Any] = {}
        out = []
        for opt in decision.options:
            why = sure(opt.value) if sure is not None else None
            if why is not None and opt.value in judged:  # (judged by its menu: counted as the run it saves)
                self.lookahead_used += 1
                if self.lookahead_used > limits.lookahead:
                    why = True  # (past the budget an option is offered, as _dead_end does)
            if why is True:
                out.append(opt)
                continue
            if why.__class__ is not str and why.__class__ is not Refusal:
                if _starts(decision, decision.action):
                    scope = opt.value if opt.value in actions else None
                else:
                    scope = decision.action
                found = known.get(opt.index) if known is not None and scope == expect[2] else None
                if (found is not None and self.lookahead_used + found[1] <= limits.lookahead
                        and self.pos.it.loops + self._look_loops <= found[3]):
                    # found when the menu before was looked ahead, from this very position: the same runs would
                    # find it again (the engine is deterministic, and no budget can run out on the way)
                    why = found[0]
                    self.lookahead_used += found[1]
                    self._look_loops += found[2]
                else:
                    self._seen, self._keep = None, True
                    why = self._dead_end(self.pos, opt.value, scope)
                    if self._seen is not None:
                        ahead[opt.index] = self._seen
            if why is None:
                out.append(opt)
            else:
                decision.refuse(opt, why)  # (not written out: the menu's other refusals stay unread)
        if ahead:
            self._ahead = (decision, ahead)
        return out

    def _ahead_of(self, d: Decision, opt: Option) -> Any:
        """What the look-ahead of menu `d` found at the menu its option `opt` leads to (None: nothing kept)."""
        ahead = self._ahead
        self._ahead = None
        return ahead[1].get(opt.index) if ahead is not None and ahead[0] is d else None

    def _dead_end(self, pos: Position, value: Any, scope: str | None) -> str | None:
        """None if answering `value` at `pos` can lead to completing the action `scope`, else why it cannot.

        The search stays inside that action: once the run asks something outside it (the next step
        menu, a cascade's question, another phase), the action is complete.  Outside any action (scope
        None) only the run up to the next decision is checked.  Every option tried counts against the
        `lookahead` budget; past it, the option is offered (a failure later is refused with its reason).
        For a menu's own option (`_keep` set by `_viable`), what was found at the next menu is kept in `_seen`.

        A menu's own option runs on a copy of the position; an option of a menu met further in (`_path` set: the
        answers that led there) runs on the copy the run before left at that menu, used up: runs inside an
        action are rarely refused, and a refused one is followed by a copy of that menu's position made again
        by running those answers once more from the position (`_again`; the engine is deterministic).
        """
        limits = self.game.limits
        top, self._keep = self._keep, False
        path, self._path = self._path, None
        self.lookahead_used += 1
        if self.lookahead_used > limits.lookahead:
            return None
        if path is None:
            q = pos.clone()
            q.looking = True
            q.it.narrate = False  # (a look-ahead run's lines are never read)
        else:
            q = pos  # (a copy made for this run: looking, without narration)
        q.resume(value)
        try:
            nxt = self._look_run(q, scope)
        except RequireFailed as failed:
            return failed.explain()
        except _Spent:
            self.lookahead_used = limits.lookahead  # no more runs for this menu
            return None
        if nxt is None or nxt.kind == "action" or scope is None or nxt.action != scope:
            return None
        sure = None
        if nxt.kind == "choose" and not nxt.sealed:
            if not self._needs_lookahead(nxt):
                return None  # (nothing after this choice can fail: any of its options completes the action)
            sure = fallible_of(self.game.rules).sure(nxt, q)
            if sure is not None:
                verdicts = {id(o): sure(o.value) for o in nxt.options}
                if True in verdicts.values():
                    return None  # (one of its options is known to complete it)
        options = nxt.options
        if nxt.kind == "window":  # others' reactions are not explored: `pass` witnesses that the move completes
            options = [o for o in options if o.value is None]
        elif len(options) > 1 and options[-1].value is None:
            # an optional choice's `skip` first: it usually ends the choosing (a loop of optional steps),
            # so a completion is found in one run instead of going as deep as the other options allow.
            # Only the order of the search changes: the answer is the same, and when every option fails
            # the reason is still that of the last option in menu order, which is `skip` itself.
            options = [options[-1], *options[:-1]]
        last_why = "no option can be completed"
        # (a menu's own option, leading to a choice: each verdict found there is kept, with the runs and loop
        # ticks it took and the loop count it started from, for when this option is answered: `_viable`)
        seen = {} if top and nxt.kind == "choose" and not nxt.sealed else None
        completes = False
        here = (value,) if path is None else (*path, value)
        fresh, again = True, None  # (q as the run left it at `nxt`; the copy of it made again after a refusal)
        for k, opt in enumerate(options):
            why = verdicts.get(id(opt)) if sure is not None else None
            if why.__class__ is not str:  # (not known to be refused: replayed)
                if not fresh:  # (the option before was refused on q: the menu's position again)
                    if again is None:
                        again = self._again(here, scope)
                    q = again.clone()
                used, ticks, start = self.lookahead_used, self._look_loops, q.it.loops + self._look_loops
                self._path, fresh = here, False
                why = self._dead_end(q, opt.value, scope)
                if seen is not None:
                    seen[opt.index] = (why, self.lookahead_used - used, self._look_loops - ticks, start)
            if why is None:
                completes = True
                break
            if k == 0 or options is nxt.options:
                last_why = why
        if seen and self.lookahead_used < limits.lookahead:  # (no budget ran out on the way)
            self._seen = (nxt, seen, scope)
        return None if completes else last_why

    def _again(self, path: tuple, scope: str | None) -> Position:
        """A look-ahead copy of the position the answers `path` lead to from the menu's position (`self.pos`, which
        a look-ahead leaves as it is), run as `_look_run` ran them: the same runs from the same position give
        the same position (their loop ticks were charged to the menu's budget when first run)."""
        q = self.pos.clone()
        q.looking = True
        q.it.narrate = False
        until = scope if not self.game.rules.fallibility.tail else None
        for value in path:
            q.resume(value)
            q.run(until)
        return q

    def _look_run(self, q: Position, scope: str | None) -> Decision | None:
        """Run a look-ahead clone to its next decision, its loop ticks charged to the menu's shared budget.  When
        nothing that runs after an action can refuse the move (`tail`), the run stops once the action `scope`
        is complete: what follows (its cascade, the turn's end, the next step menu) cannot change the answer."""
        limits = self.game.limits
        it = q.it
        added = self._look_loops
        start = it.loops = it.loops + added
        try:
            return q.run(scope if not self.game.rules.fallibility.tail else None)
        except (RunawayError, RuleError):
            if it.loops > limits.loop:
                raise _Spent() from None
            raise
        finally:
            self._look_loops += it.loops - start
            it.loops -= added  # the clone's own count again: clones of it add the shared budget themselves

    # ------------------------------------------------------------- explanations
    def why_not_index(self, index: int) -> str:
        """Why an option index is not allowed now."""
        d = self.pos.decision
        if d is None:
            return "the game is over"
        if index in d.reasons:
            return d.reasons[index]
        return f"{index} is not one of the options ({', '.join(str(o.index) for o in d.options)})"

    def why_not_label(self, text: str) -> str:
        """Why a typed answer is not allowed now: the rule that forbids it, if it names something real."""
        d = self.pos.decision
        assert d is not None
        t = text.strip().lower()
        interp = Interp(self.pos.s, self.game.limits)
        for value, why in d.rejected:
            if interp.label(value).lower() == t:
                return f"'{text}' is not allowed: {why}"
        shown = ", ".join(o.label for o in d.options[:12])
        return f"'{text}' is not an option here; choose one of: {shown} (or its number)"
