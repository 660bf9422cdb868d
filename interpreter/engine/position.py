"""A position: the game's state plus its continuation (a stack of frames and the pending decision).

`run()` advances the position until a player must decide or the game ends; `resume(value)` gives the
pending decision its answer and the next `run()` continues from the suspended frame.  `clone()` copies
the state (copy-on-write, as State.clone) and the frames (their envs copied once each), so a clone taken
in the middle of an effect continues on its own.  Nothing is ever replayed.
"""

from __future__ import annotations

from typing import Any, Callable

from ..core.decisions import Decision, GameEnded
from ..reference.evaluator import Interp
from ..core.valueops import Limits
from .flow import finish
from ..core.state import State
from ..core.values import serialize
from ..core.suspends import suspends_of


class Position:
    """State + interpreter counters + the frame stack (the flow frame at the bottom) + the pending decision."""

    __slots__ = ("s", "it", "stack", "decision", "flow_steps", "sus", "on_forced", "looking")

    def __init__(self, state: State, limits: Limits, stack: list[Any] | None = None):
        self.s = state
        self.it = Interp(state, limits)
        # the frames, the flow's at the bottom (engine.flowframe; none: a lone effect, see run_answering)
        self.stack: list[Any] = [] if stack is None else stack
        self.decision: Decision | None = None
        self.flow_steps = 0
        self.sus = suspends_of(state.rules)
        # told of every choice that answered itself (one value): (chooser, prompt, value); None: nobody listens
        self.on_forced: Callable[[int, str, Any], None] | None = None
        # a look-ahead copy: its loop count runs on across stages (the runs that check one menu share one budget)
        self.looking = False

    def clone(self) -> "Position":
        """An independent copy, continuation included."""
        p = Position.__new__(Position)
        p.s = self.s.clone()
        p.it = self.it.fork(p.s)
        envs: dict[int, dict] = {}
        p.stack = [f.copy(envs) for f in self.stack]
        p.decision = self.decision
        p.flow_steps = self.flow_steps
        p.sus = self.sus
        p.on_forced = None
        p.looking = self.looking
        return p

    def forced(self, chooser: int, prompt: str, value: Any) -> Any:
        """A choice with one possible answer: told to the listener (history), and the value returned."""
        if self.on_forced is not None:
            self.on_forced(chooser, prompt, value)
        return value

    def run(self, until: str | None = None) -> Decision | None:
        """Advance until a decision is pending (returned, and kept in `decision`) or the game is over (None).
        `until` names the top action being looked ahead: the run also stops (None) once that action is
        complete (engine/driver.py `_look_run`, when nothing that runs after an action can refuse the move)."""
        stack, s, it = self.stack, self.s, self.it
        started = until is not None and it.top_action == until
        while s.outcome is None and stack:
            try:
                d = stack[-1].step(self)
            except GameEnded as ended:
                self._end(ended.name)
                break
            if d is not None:
                self.decision = d
                return d
            if until is not None:
                if it.top_action == until:
                    started = True
                elif started:  # (its frame is gone: the outer names are back)
                    break
        self.decision = None
        return None

    def resume(self, value: Any) -> None:
        """Answer the pending decision with an option's value; `run()` goes on from there."""
        self.decision = None
        self.flow_steps = 0
        self.stack[-1].resume(self, value)

    def _end(self, name: str) -> None:
        """An end condition or `end_game`: every frame above the flow is dropped, then final scoring."""
        if not self.stack or not getattr(self.stack[0], "is_flow", False):  # a lone effect: it just stops
            del self.stack[:]
            raise GameEnded(name)
        del self.stack[1:]
        it = self.it
        it.emit_depth = it.call_depth = 0
        it.settling = False
        it.current_action = it.top_action = None
        finish(it, name)

    def frames_view(self) -> list[tuple[str, Any]]:
        """The continuation as data: per frame, its type, where it is and its local names (JSON-able values).

        GameState.digest() hashes it with the state, so two positions that differ only in a suspended
        effect's locals or progress have different digests."""
        out = []
        for f in self.stack:
            slots = [k for cls in type(f).__mro__ for k in getattr(cls, "__slots__", ())]  # (subclasses add none)
            where = {k: serialize(getattr(f, k)) for k in slots if k in _PROGRESS}
            env = getattr(f, "env", None)
            if env is not None:
                where["env"] = sorted((k, serialize(v)) for k, v in env.items() if not k.startswith("__"))
            out.append((type(f).__name__, where))
        return out


_PROGRESS = ("i", "j", "k", "sub", "phase", "left", "scan", "remaining", "answers", "prev", "order", "passes",
             "answered", "taken")


def run_answering(pos: Position, answers: list[int]) -> Decision | None:
    """Run a position, answering its decisions with these option indices in turn: the decision left
    unanswered when they run out (None: the stack ran empty or the game ended).  For lone effects
    (tests, benchmarks) whose questions are answered by a fixed list, not by players."""
    queue = list(answers)
    d = pos.run()
    while d is not None and queue:
        index = queue.pop(0)
        opt = next((o for o in d.options if o.index == index), None)
        if opt is None:
            from ..core.decisions import RequireFailed

            raise RequireFailed(f"answer {index} is not an option of '{d.prompt}'", d.span)
        pos.resume(opt.value)
        d = pos.run()
    return d
