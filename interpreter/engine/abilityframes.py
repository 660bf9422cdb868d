"""The resumable form of pieces' `on:` abilities (reference/abilityrun.py's order), and the owner's choice.

An event whose abilities may ask (a template that chooses, or `events.E.order: owner_chooses`) runs them as
an `AbilityFrame` pushed under the event's trigger frame, so they run after the spec's triggers and before
any window that follows the event.  The snapshot of live abilities is taken when the event is emitted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orrery.rulespec import ast as A

from ..core.abilities import env_of, owner_of
from ..core.decisions import Decision, Option, RunawayError
from ..reference.abilityrun import chooses, offers_empowered, pending, plays_of, ready
from .frames import HOOKS, START, run_block

if TYPE_CHECKING:
    from .position import Position

_GROUP = "group"  # a unit of `remaining` whose owner picks the next of its entries


class AbilityFrame:
    """The snapshot's abilities, in order: `remaining` holds (owner, piece, ability) entries to run, and
    (GROUP, owner, entries) units whose owner picks the next entry."""

    __slots__ = ("record", "remaining", "started")

    def __init__(self, record: Any, remaining: tuple, started: bool = False):
        self.record, self.remaining, self.started = record, remaining, started

    def step(self, pos: "Position") -> Decision | None:
        it = pos.it
        if not self.started:  # (counted as one level of events once the triggers above have run)
            self.started = True
            it.emit_depth += 1
            if it.emit_depth > it.limits.emit_depth:
                raise RunawayError(f"events nested more than {it.limits.emit_depth} deep while emitting "
                                   f"'{self.record['name']}' (limit emit_depth); raise it with --limit emit_depth=N")
        while self.remaining:
            unit, rest = self.remaining[0], self.remaining[1:]
            if unit[0] is not _GROUP:
                self.remaining = rest
                owner, pid, ab = unit
                env = env_of(owner, pid, self.record)
                if ready(it, owner, pid, ab, env) and run_block(pos, ab.do, env):
                    return None
                continue
            _, owner, entries = unit
            still = tuple(e for e in entries if _pending(it, e, self.record))
            if len({_identity(it, e) for e in still}) >= 2:
                self.remaining = ((_GROUP, owner, still),) + rest
                return _choice(it, self.record, owner, still)
            self.remaining = still + rest  # one left, or all alike: in order, each looked at again
        it.emit_depth -= 1
        pos.stack.pop()
        return None

    def resume(self, pos: "Position", value: Any) -> None:
        (_, owner, entries), rest = self.remaining[0], self.remaining[1:]
        chosen = entries[value]
        left = entries[:value] + entries[value + 1:]
        self.remaining = (((_GROUP, owner, left),) if left else ()) + rest
        env = env_of(owner, chosen[1], self.record)
        if ready(pos.it, owner, chosen[1], chosen[2], env):
            run_block(pos, chosen[2].do, env)

    def copy(self, envs: dict) -> "AbilityFrame":
        return AbilityFrame(self.record, self.remaining, self.started)  # (its parts are never changed in place)


def push_abilities(pos: "Position", record: Any) -> bool:
    """Push the frame of the event's abilities (under whatever is pushed next); False when none is live."""
    it = pos.it
    found = pending(it, record["name"])
    if not found:
        return False
    units: list[Any] = []
    if chooses(it, record["name"]):
        for owner in dict.fromkeys(e[0] for e in found):
            mine = tuple(e for e in found if e[0] == owner)
            units += [(_GROUP, owner, mine)] if len(mine) > 1 else list(mine)
    else:
        units = list(found)
    pos.stack.append(AbilityFrame(record, tuple(units)))
    return True


def _pending(it: Any, entry: tuple, record: Any) -> bool:
    """Still to run, as far as the owner's choice goes: live, the owner's, its `when` true."""
    owner, pid, ab = entry
    return owner_of(it, pid) == owner and (ab.when is None or bool(it.truth(ab.when, env_of(owner, pid, record))))


def _identity(it: Any, entry: tuple) -> Any:
    """Two entries alike (the same ability on pieces alike) make no difference to the order: not asked."""
    _, pid, ab = entry
    return ab, tuple(sorted((k, repr(v)) for k, v in it.s.attrs[pid].items()))


def _choice(it: Any, record: Any, owner: int, entries: tuple) -> Decision:
    """The owner's question: which of their pending abilities resolves next."""
    event = record["name"]
    decl = it.r.spec.model.events.get(event)
    prompt = decl.prompt if decl is not None and decl.prompt else f"Which of your '{event}' abilities resolves next?"
    labels = [it.piece_label(pid) for _, pid, _ in entries]
    options = [Option(lab if labels.count(lab) == 1 else f"{lab}: {ab.text or ab.ident}", i, i)
               for i, (lab, (_, _, ab)) in enumerate(zip(labels, entries))]
    return Decision(owner, prompt, options, "choose", entries[0][2].span, action=it.top_action,
                    site=("ability-order", event))


class UseFrame:
    """`use PIECE.play`: each `play:` ability of the piece in order, its calls, then (when its `if` holds)
    the question whether to use its empowered part; `no` is an answer, not a refusal."""

    __slots__ = ("pid", "owner", "plays", "k", "asked")

    def __init__(self, pid: int, owner: int, plays: tuple, k: int = 0, asked: bool = False):
        self.pid, self.owner, self.plays, self.k, self.asked = pid, owner, plays, k, asked

    def step(self, pos: "Position") -> Decision | None:
        it = pos.it
        while self.k < len(self.plays):
            a, env = self.plays[self.k], env_of(self.owner, self.pid)
            if not self.asked:
                self.asked = True
                if run_block(pos, a.do, env):
                    return None
            if offers_empowered(it, a, env):
                prompt = a.prompt or f"Use the empowered effect of {it.piece_label(self.pid)}?"
                return Decision(self.owner, prompt, [Option("yes", True, 0), Option("no", False, 1)], "choose",
                                a.span, action=it.top_action, site=("empowered", a.ident))
            self.k, self.asked = self.k + 1, False
        pos.stack.pop()
        return None

    def resume(self, pos: "Position", value: Any) -> None:
        a = self.plays[self.k]
        self.k, self.asked = self.k + 1, False
        if value:
            run_block(pos, a.empowered_do, env_of(self.owner, self.pid))

    def copy(self, envs: dict) -> "UseFrame":
        return UseFrame(self.pid, self.owner, self.plays, self.k, self.asked)


def start_use(pos: "Position", node: A.Use, env: dict) -> None:
    """Start a `use` that may ask (frames.START)."""
    pid, owner, plays = plays_of(pos.it, pos.it.ev(node.piece, env), node.piece.span)
    pos.stack.append(UseFrame(pid, owner, tuple(plays)))
    return None


START[A.Use] = start_use  # (frames.py cannot import this module: its tables get the starters here)
HOOKS["abilities"] = push_abilities

__all__ = ["AbilityFrame", "UseFrame", "push_abilities", "start_use"]
