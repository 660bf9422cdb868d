"""The public API: `Game` (a loaded spec) and `GameState` (shaped like OpenSpiel's State).

A GameState is a checkpoint (the State at the last step menu) plus the answers
given since.  Asking "what now?" re-runs the flow from the checkpoint with those
answers until it suspends at the next decision (continuation by replay), so any
state, even one paused mid-effect, is plain data: `clone()` is exact and cheap.
Options are filtered by look-ahead so that no menu leads into a dead end.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from orrery.rulespec.loader import GameSpec, load_spec

from .decisions import Decision, Option, RequireFailed, RuleError, RunawayError, Suspend
from .evaluator import Interp, Limits
from .flow import NOTHING_VIABLE, run_flow
from .rules import Rules

# Runs from a checkpoint remember the menus they work out for the runs that replay the same answers
# (effects._filter); False turns that off (tests compare whole games both ways).
REPLAY_MENUS = True
# A menu with one option is answered in the run that meets it (GameState._take_lone), not by a second run;
# False turns that off (tests compare whole games both ways).
TAKE_LONE = True
from .state import State  # noqa: E402

# A caller who answers by the menu alone (random bots) may answer in the run that meets a menu
# (GameState.play_on) instead of one run from the checkpoint per answer; False turns that off everywhere
# (tests compare whole games both ways).
PLAY_ON = True
# Look-ahead walks each option's continuations inside one run per branch tried (GameState._dead_end_in_run)
# instead of one run from the checkpoint per menu met on the way; False keeps the run-per-menu search
# (tests compare both).
LOOKAHEAD_IN_RUN = True

TERMINAL = -4  # current_player() of a finished game, as in OpenSpiel
MODES = ("compiled", "interpreted")


def default_mode() -> str:
    """The engine used when none is asked for: compiled, unless ORRERY_MODE says otherwise (for testing)."""
    return os.environ.get("ORRERY_MODE", "compiled")


class _LoopBudgetSpent(Exception):
    """The re-runs of one look-ahead used up the loop limit."""


class _NoOption(Exception):
    """A look-ahead run met a menu inside the checked action with no option at all."""


class _Completed(Exception):
    """A look-ahead run got past the action it checks (or the budget for checking it is spent)."""


@dataclass
class _Branch:
    """A menu inside the checked action that a look-ahead run answered (GameState._dead_end_in_run)."""

    before: list[int]  # the answers that led to it
    options: list[Option]
    tried: int  # options tried so far, first to last


class IllegalMove(Exception):
    """An answer that the rules do not allow here; `reason` says which rule forbids it."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Step:
    """One answered decision in a game's history."""

    player: int
    index: int
    label: str
    prompt: str
    auto: bool = False


class Game:
    """A loaded, validated spec ready to play."""

    def __init__(self, spec: GameSpec, limits: Limits | None = None, mode: str | None = None):
        self.spec = spec
        self.rules = Rules(spec)
        self.limits = limits or Limits()
        self.mode = mode or default_mode()
        if self.mode not in MODES:
            raise ValueError(f"unknown engine mode '{self.mode}' (known: {', '.join(MODES)})")
        if self.mode == "compiled":
            from .compiler import compile_rules

            self.rules.compiled = compile_rules(self.rules)

    @classmethod
    def load(cls, path: str | Path, variants: list[str | Path] = (), limits: Limits | None = None,
             mode: str | None = None) -> "Game":
        """Load a spec file (and variants) and build the game."""
        return cls(load_spec(path, list(variants)), limits, mode)

    @property
    def name(self) -> str:
        """The game's identifier."""
        return self.rules.name

    def new_initial_state(self, players: int | None = None, seed: int = 0, setup: Any = None,
                          replace_setup: bool = False) -> "GameState":
        """A new game: setup runs up to the first decision (plus an extra setup block, e.g. a scenario's)."""
        n = players if players is not None else self.rules.default_players
        if not self.rules.min_players <= n <= self.rules.max_players:
            raise IllegalMove(f"{self.name} takes {self.rules.player_count_text()}, not {n}")
        initial = State(self.rules, n, seed)
        if setup is not None or replace_setup:
            initial.setup_override = (setup, replace_setup)
        state = GameState(self, initial, [], seed)
        try:
            state._advance()
        except RequireFailed as failed:  # no player chose anything yet: the spec itself is at fault
            raise RuleError(f"the game cannot start: {failed.message}", failed.span) from None
        return state


class GameState:
    """A game in progress: a checkpoint plus the answers given since it."""

    # while play_on runs: answers menus that need no look-ahead inside the run (None: declines)
    _pick: Callable[[Decision], int | None] | None = None

    def __init__(self, game: Game, checkpoint: State, answers: list[int], seed: int):
        self.game = game
        self.seed = seed
        self._checkpoint = checkpoint
        self._answers = answers
        self._live: State = checkpoint
        self._decision: Decision | None = None
        self.history: list[Step] = []
        self.narration: list[str] = []
        self.lookahead_used = 0

    # ------------------------------------------------------------- queries
    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None when the game is over."""
        return self._decision

    @property
    def state(self) -> State:
        """The state as it is now (mid-effect if a decision interrupted one)."""
        return self._live

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self._live.n

    def current_player(self) -> int:
        """Who must decide now, or TERMINAL."""
        return TERMINAL if self._decision is None else self._decision.player

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._live.outcome is not None

    def legal_actions(self) -> list[int]:
        """Indices of the options of the pending decision (stable: logs record them)."""
        return [] if self._decision is None else [o.index for o in self._decision.options]

    def legal_options(self) -> list[Option]:
        """The options of the pending decision."""
        return [] if self._decision is None else list(self._decision.options)

    def returns(self) -> list[float]:
        """Per-player results: 1 win, -1 loss, 0 draw (all zeros before the end)."""
        o = self._live.outcome
        return list(o.returns) if o else [0.0] * self._live.n

    def heuristic_returns(self) -> list[float] | None:
        """Per player, the spec's bots.heuristic scaled to -1..1 (None when the spec declares none)."""
        if self.game.rules.heuristic is None:
            return None
        return self.game.rules.heuristic_returns(Interp(self._live, [], self.game.limits))

    def bot_playout(self) -> int | None:
        """The spec's hint for the random decisions of a search bot's playout (bots.playout), or None."""
        return self.game.rules.spec.model.bots.playout

    def bot_iterations(self) -> int | None:
        """The spec's hint for a search bot's budget when the bot was given none (bots.iterations), or None."""
        return self.game.rules.spec.model.bots.iterations

    def outcome(self):
        """How the game ended, or None."""
        return self._live.outcome

    def digest(self) -> str:
        """A hash of the position (checkpoint and answers since)."""
        return f"{self._checkpoint.digest()}:{','.join(map(str, self._answers))}"

    def view(self, player: int | None = None) -> dict[str, Any]:
        """A JSON-able picture of the state as `player` may see it (None: everything)."""
        data = self._live.to_data(player, hide=player is not None)
        d = self._decision
        if d is not None:
            data["decision"] = {"player": d.player, "prompt": d.prompt}
            if player is None or player == d.player:  # options can name hidden pieces (cards in a hand)
                data["decision"]["options"] = [{"index": o.index, "label": o.label} for o in d.options]
        return data

    # ------------------------------------------------------------- changes
    def clone(self) -> "GameState":
        """An independent copy."""
        g = GameState.__new__(GameState)
        g.game = self.game
        g.seed = self.seed
        g._checkpoint = self._checkpoint  # never mutated: every run works on a clone of it
        g._answers = list(self._answers)
        g._live = self._live
        g._decision = self._decision
        g.history = list(self.history)
        g.narration = list(self.narration)
        g.lookahead_used = 0
        return g

    def checkpoint_clone(self) -> State:
        """A copy of the checkpoint (the State replays start from), free to modify; see `replayed_from`."""
        return self._checkpoint.clone()

    def replayed_from(self, checkpoint: State, live: State | None = None) -> "GameState":
        """This position's answers replayed from another checkpoint (e.g. a `checkpoint_clone()` with hidden
        pieces re-dealt or its RNG reseeded, as the MCTS bot's determinisation does).

        The result can differ from this position wherever the change matters (compare `view`s to check), and
        the replay raises what any replay raises (RuleError, RequireFailed, RunawayError).  Given `live`, the
        replay is skipped and `live` becomes the current state with this decision: only for a caller who knows
        the replay would give exactly that state (e.g. nothing was drawn since the checkpoint and only the RNG
        changed, in both states alike).
        """
        g = GameState(self.game, checkpoint, list(self._answers), self.seed)
        g.history = list(self.history)
        if live is not None:
            g._live, g._decision = live, self._decision
        else:
            g._advance()
        return g

    def apply(self, index: int) -> None:
        """Answer the pending decision with the option of that index; raise IllegalMove if not allowed."""
        d = self._decision
        if d is None:
            raise IllegalMove("the game is over")
        opt = next((o for o in d.options if o.index == index), None)
        if opt is None:
            raise IllegalMove(self.why_not_index(index))
        self._commit(opt, auto=False)

    def apply_label(self, text: str) -> Option:
        """Answer by an option's label or 1-based menu number; raise IllegalMove with the reason."""
        d = self._decision
        if d is None:
            raise IllegalMove("the game is over")
        opt = d.find(text)
        if opt is None:
            raise IllegalMove(self.why_not_label(text))
        self._commit(opt, auto=False)
        return opt

    def play_on(self, index: int, pick: Callable[[Decision], int | None]) -> tuple[int, int | None]:
        """apply(index), then answer later menus with `pick` inside the same run: (answers `pick` gave that
        were played, an answer of `pick` the rules refused or None).

        Every later menu that needs no look-ahead is put to `pick` where the run meets it (None declines:
        the menu is left pending); the run goes on until the game ends, `pick` declines, or a menu needs
        look-ahead.  The position, history and narration are those of apply(index) followed by one
        apply per answer of `pick`, without the run from the checkpoint that each apply makes (the
        answers are recorded as they are given, and the checkpoint moves to the last stage boundary
        as _take_lone's does).  When the stretch after an answer of `pick` fails (a refusal, or any
        error), the answers are played again one apply at a time up to that one, which is returned for
        the caller to play as it plays any answer (apply_choice); the first answer's own failure is
        raised as apply raises it.
        """
        picked: list[int] = []

        def pick_and_record(decision: Decision) -> int | None:
            i = pick(decision)
            if i is not None:
                picked.append(i)
            return i

        self._pick = pick_and_record
        try:
            self.apply(index)
            return len(picked), None
        except Exception:
            if not picked:
                raise
        finally:
            self._pick = None
        # _commit put the position back to before `index`: the same answers again, one apply each, up to
        # the one whose stretch failed (the ones before it reached the next menu, so they play again)
        self.apply(index)
        for i in picked[:-1]:
            self.apply(i)
        return len(picked) - 1, picked[-1]

    def _commit(self, opt: Option, auto: bool) -> None:
        d = self._decision
        assert d is not None
        saved = (self._checkpoint, list(self._answers), self._live, self._decision, len(self.history),
                 len(self.narration))
        self.history.append(Step(d.player, opt.index, opt.label, d.prompt, auto))
        self._answers.append(opt.index)
        try:
            self._advance()
        except BaseException as failed:  # refused or broken: the position stays as it was before the answer
            self._checkpoint, self._answers, self._live, self._decision, nh, nn = saved
            del self.history[nh:]
            del self.narration[nn:]
            if isinstance(failed, RequireFailed):
                raise IllegalMove(failed.explain()) from None
            raise

    # ------------------------------------------------------------- engine
    def _run(self, answers: list[int], boundaries: bool = False) -> tuple[State, Decision | None, int, tuple | None]:
        """Re-run from the checkpoint with these answers: (live state, decision or None, answers used, boundary)."""
        live = self._checkpoint.clone()
        it = Interp(live, answers, self.game.limits)
        it.track_boundaries = boundaries
        it.replay = self._checkpoint.replay if REPLAY_MENUS else None
        if boundaries and TAKE_LONE:
            it.take_lone = self._take_lone
        try:
            run_flow(it)
        except Suspend as s:
            return live, s.decision, it.pos, it.boundary
        # the game ended: the driver keeps its checkpoint, which after answering lone menus one run at a time
        # would have been the last boundary before the last of them
        return live, None, it.pos, it.took_at

    def _take_lone(self, decision: Decision) -> Option | None:
        """The answer _advance would give a menu with one option, given within the run that met it.

        _advance answers such a menu itself when nothing needs checking (no look-ahead): it records the
        answer and the step, and runs again from the checkpoint with one answer more.  Answering it here
        records the same answer and the same step, counts against the same `auto` limit, and goes on
        from the state that run would have reached (a run is a function of its checkpoint and answers),
        without the second run.  Past the limit it declines, and _advance raises where it always has.
        """
        if len(decision.options) != 1:
            return self._pick_in_run(decision) if self._pick is not None else None
        if self._auto >= self.game.limits.auto or self._needs_lookahead(decision):
            return None
        opt = decision.options[0]
        self._auto += 1  # one more decision in a row with one possible answer
        self.history.append(Step(decision.player, opt.index, opt.label, decision.prompt, auto=True))
        return opt

    def _pick_in_run(self, decision: Decision) -> Option | None:
        """play_on's answer to a real menu, given within the run that met it (None: left pending).

        Without look-ahead _advance would offer this menu as it is; the answer is recorded as apply
        records it, and the `auto` count starts again as the _advance after that apply starts it.
        """
        if self._needs_lookahead(decision):
            return None
        index = self._pick(decision)  # type: ignore[misc]
        if index is None:
            return None
        options = decision.options
        opt = options[index] if 0 <= index < len(options) and options[index].index == index else next(
            (o for o in options if o.index == index), None)  # (an option's place is its index unless merged)
        if opt is None:
            shown = ", ".join(str(o.index) for o in options)
            raise IllegalMove(f"{index} is not one of the options ({shown})")
        self._auto = 1  # as after _advance's first run for a new answer
        self.history.append(Step(decision.player, opt.index, opt.label, decision.prompt, auto=False))
        return opt

    def _advance(self) -> None:
        """Move to the next decision that needs a real choice, checkpointing at stage boundaries."""
        self._auto = 0  # runs so far, counting the menus _take_lone answered as the runs they saved
        while True:
            self._auto += 1
            if self._auto > self.game.limits.auto:
                raise RunawayError(
                    f"{self.game.limits.auto} decisions in a row had one possible answer or none, so nobody ever "
                    f"gets a real choice (limit auto); is an end condition missing for a player who cannot act? "
                    f"Raise it with --limit auto=N", self.game.spec.span("end"))
            live, decision, used, boundary = self._run(self._answers, boundaries=True)
            if decision is None:
                self.narration.extend(live.msgs)
                if boundary is not None:  # (only after lone menus answered in the run: see _run)
                    state, pos, _ = boundary
                    state.msgs = []
                    self._checkpoint, self._answers = state, self._answers[pos:]
                self._live, self._decision = live, None
                return
            if boundary is not None and used == len(self._answers):
                # the last stage boundary of this run becomes the checkpoint: later replays start there
                state, pos, msgs = boundary
                self.narration.extend(msgs)
                live.msgs = live.msgs[len(msgs):]
                state.msgs = []
                self._checkpoint, self._answers = state, self._answers[pos:]
            viable = self._viable(decision)
            if not viable:
                if decision.kind == "action":
                    self._answers.append(NOTHING_VIABLE)
                    continue
                raise RequireFailed(f"no option of '{decision.prompt}' can be completed", decision.span)
            if len(viable) == 1:
                opt = viable[0]
                self.history.append(Step(decision.player, opt.index, opt.label, decision.prompt, auto=True))
                self._answers.append(opt.index)
                continue
            decision.options = viable
            self._live, self._decision = live, decision
            return

    def _viable(self, decision: Decision) -> list[Option]:
        """The options from which the current action can still be completed."""
        if not self._needs_lookahead(decision):
            return list(decision.options)
        self.lookahead_used = 0
        self._lookahead_loops = 0  # every re-run made for this menu shares one loop budget (limit loop)
        out = []
        for opt in decision.options:
            if decision.kind == "action":
                scope = opt.value if opt.value in self.game.rules.actions else None
            else:
                scope = decision.action
            why = self._dead_end(self._answers + [opt.index], scope)
            if why is None:
                out.append(opt)
            else:
                decision.reasons[opt.index] = why
                decision.rejected.append((opt.label, why))
        return out

    def _needs_lookahead(self, decision: Decision) -> bool:
        rules = self.game.rules
        if decision.kind == "action":
            if not rules.some_may_fail:  # (most abstract games: no action can fail once chosen)
                return False
            names = [o.value for o in decision.options if o.value in rules.actions]
            return any(rules.may_fail(n) for n in names)
        if decision.action is None:
            return rules.outside_may_fail
        return rules.may_fail(decision.action)

    def _dead_end(self, answers: list[int], scope: str | None) -> str | None:
        """None if some continuation of these answers completes the action `scope`, else why it cannot.

        The search stays inside that action: once the run asks something outside it (the next step
        menu, a cascade, another phase), the action is complete.  Outside any action (scope None)
        only the next run is checked.
        """
        if LOOKAHEAD_IN_RUN:
            return self._dead_end_in_run(answers, scope)
        self.lookahead_used += 1
        if self.lookahead_used > self.game.limits.lookahead:
            return None  # budget spent: offer the option; a failure later is refused with its reason
        try:
            decision = self._lookahead_run(answers)
        except RequireFailed as failed:
            return failed.explain()
        except _LoopBudgetSpent:
            self.lookahead_used = self.game.limits.lookahead  # no more re-runs for this menu
            return None
        if decision is None or decision.kind == "action" or scope is None or decision.action != scope:
            return None
        last_why = "no option can be completed"
        for opt in decision.options:
            why = self._dead_end(answers + [opt.index], scope)
            if why is None:
                return None
            last_why = why
        return last_why

    def _dead_end_in_run(self, answers: list[int], scope: str | None) -> str | None:
        """_dead_end's depth-first search, each branch walked inside one run.

        _dead_end runs from the checkpoint once per menu it meets inside the action, replaying the answers
        before it.  Here a menu inside the action is answered where the run meets it, with its first
        option, and the run goes on; only when a branch fails does a run start again, with the next option
        of the deepest menu that has one left.  The options are tried in the same order, each counts
        against the `lookahead` budget as a run of _dead_end does, and each is charged the loop ticks of
        the replay it saves (the run's own ticks up to that menu), so budgets run out where they did; the
        reason returned is the last failure's, as there.
        """
        limits = self.game.limits
        self.lookahead_used += 1
        if self.lookahead_used > limits.lookahead:
            return None  # budget spent: offer the option; a failure later is refused with its reason
        branches: list[_Branch] = []
        while True:
            try:
                self._branch_run(answers, scope, branches)
                return None  # the game ended inside the action
            except _Completed:
                return None
            except _LoopBudgetSpent:
                self.lookahead_used = limits.lookahead  # no more re-runs for this menu
                return None
            except RequireFailed as failed:
                why = failed.explain()
            except _NoOption:
                why = "no option can be completed"
            while branches and branches[-1].tried == len(branches[-1].options):
                branches.pop()  # every option of that menu fails: so does the answer that led to it
            if not branches:
                return why
            branch = branches[-1]
            answers = branch.before + [branch.options[branch.tried].index]
            branch.tried += 1
            self.lookahead_used += 1
            if self.lookahead_used > limits.lookahead:
                return None

    def _branch_run(self, answers: list[int], scope: str | None, branches: list["_Branch"]) -> None:
        """One look-ahead run from the checkpoint: menus inside the action `scope` are answered with their
        first option (a new branch each); _Completed at a menu outside it."""
        limits = self.game.limits
        it = Interp(self._checkpoint.clone(), answers, limits)
        it.loops = start = self._lookahead_loops
        it.replay = self._checkpoint.replay if REPLAY_MENUS else None
        saved = 0  # ticks charged for the replays this run saves

        def answer(decision: Decision) -> Option:
            nonlocal saved
            if decision.kind == "action" or scope is None or decision.action != scope:
                raise _Completed()
            if not decision.options:
                raise _NoOption()
            self.lookahead_used += 1  # the first option's check
            if self.lookahead_used > limits.lookahead:
                raise _Completed()
            branches.append(_Branch(list(it.answers), decision.options, 1))
            replay = it.loops - start - saved  # what a run from the checkpoint to here costs
            it.loops += replay
            saved += replay
            if it.loops > limits.loop:
                raise _LoopBudgetSpent()
            return decision.options[0]

        it.take_lone = answer
        try:
            run_flow(it)
        except (RunawayError, RuleError):
            if it.loops > limits.loop:
                raise _LoopBudgetSpent() from None
            raise
        finally:
            self._lookahead_loops = it.loops

    def _lookahead_run(self, answers: list[int]) -> Decision | None:
        """Re-run from the checkpoint with these answers for look-ahead: the decision it reaches, or None.

        The loop count goes on from the re-runs made before for the same menu, so one menu costs at most
        the loop limit however many options it has (each re-run replays the action from its start).
        Running out of that budget raises _LoopBudgetSpent: the options left are offered unchecked.
        """
        it = Interp(self._checkpoint.clone(), answers, self.game.limits)
        it.loops = self._lookahead_loops
        it.replay = self._checkpoint.replay if REPLAY_MENUS else None
        try:
            run_flow(it)
        except Suspend as s:
            return s.decision
        except (RunawayError, RuleError):
            if it.loops > self.game.limits.loop:
                raise _LoopBudgetSpent() from None
            raise
        finally:
            self._lookahead_loops = it.loops
        return None

    # ------------------------------------------------------------- explanations
    def why_not_index(self, index: int) -> str:
        """Why an option index is not allowed now."""
        d = self._decision
        if d is None:
            return "the game is over"
        if index in d.reasons:
            return d.reasons[index]
        return f"{index} is not one of the options ({', '.join(str(o.index) for o in d.options)})"

    def why_not_label(self, text: str) -> str:
        """Why a typed answer is not allowed now: the rule that forbids it, if it names something real."""
        d = self._decision
        assert d is not None
        t = text.strip().lower()
        interp = Interp(self._live, [], self.game.limits)
        for value, why in d.rejected:
            if interp.label(value).lower() == t:
                return f"'{text}' is not allowed: {why}"
        shown = ", ".join(o.label for o in d.options[:12])
        return f"'{text}' is not an option here; choose one of: {shown} (or its number)"
