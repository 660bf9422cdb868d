"""Statements that may ask a player something, as frames of a resumable stack.

A frame is a small object holding where it is (an index, the items left, a phase) and the effect's
`env`.  `step(pos)` does work until the frame pushes another frame (return None: the run loop runs the
new top), pops itself (its work is done), or suspends (returns the Decision; the frame stays on top and
gets the chosen value through `resume(pos, value)`).  Nothing already executed runs again.

Statements that cannot suspend (core/suspends.py) run through the ordinary statement functions
(effects.EXEC), so the frames only carry control.  The order of evaluation, loop ticks, limits and
messages are those of effects.py (the reference).  These are the reference engine's frames; on the fast
path the blocks, loops, actions and events get subclasses whose `step` is generated per spec
(compiler/effectgen.py, engine/framescompiled.py), with the same names, slots and waiting points.
`copy(envs)` copies a frame for Position.clone: `envs` maps old env ids to their copies so that frames
sharing one env still share it after the copy.  Values in envs are never changed in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orrery.rulespec import ast as A
from orrery.rulespec.wording import choice_prompt, loop_prompt, param_prompt

from ..core.decisions import Decision, RequireFailed, RuleError, RunawayError
from ..core import causes
from ..reference.costs import late_notes, pay
from ..reference.effects import (EXEC, _filter, call_args, cascade_scan, check_action, enter_call, fires, for_items,
                                 in_phase, message_text, spent_values)
from ..core.uses import count_use, use_of
from ..core.values import Player, Record
from ..reference import triggerorder
from . import windows as W

if TYPE_CHECKING:
    from .position import Position


def copy_env(env: dict, envs: dict[int, dict]) -> dict:
    """The copy of an env for a clone (one copy per env, shared by every frame that shares it)."""
    new = envs.get(id(env))
    if new is None:
        new = envs[id(env)] = dict(env)
    return new


# ------------------------------------------------------------------ asking


def ask_value(pos: "Position", var: str, values: list, chooser: int, prompt: str, optional: bool, span: Any,
              reason: str | None, rejected: list | None = None, site: Any = None) -> tuple[bool, Any]:
    """(True, value) when the choice answers itself (one value, or one option after merging identical
    pieces); (False, Decision) when a player must answer.  An empty mandatory choice fails the rule."""
    if not values and not optional:
        raise RequireFailed(reason or f"there is no legal choice for '{var}'", span)
    if len(values) == 1 and not optional:
        return True, pos.forced(chooser, prompt, values[0])
    it = pos.it
    opts = it.options_for(values, optional)
    if len(opts) == 1:
        return True, pos.forced(chooser, prompt, opts[0].value)
    return False, Decision(chooser, prompt, opts, "choose", span, var, action=it.top_action,
                           rejected=rejected or [], site=site)


def seat_of(it: Any, value: Any, span: Any) -> int:
    """The seat of the player a `by` names (a choose's chooser, a `for ... chosen by`); anything else is a
    located error (it was a Python error before: `by none`)."""
    if value.__class__ is Player or (value.__class__ is int and 0 <= value < it.s.n):
        return int(value)
    raise RuleError(f"`by` needs a player, got {it.describe(value)}", span)


# ------------------------------------------------------------------ blocks


class BlockFrame:
    """The statements of a block, one at a time (the fast path's blocks that may ask have a generated step
    instead: compiler/effectgen.py)."""

    __slots__ = ("stmts", "i", "env")

    def __init__(self, block: A.Block, env: dict):
        self.stmts = block.body
        self.i = 0
        self.env = env

    def step(self, pos: "Position") -> Decision | None:
        it = pos.it
        stmts, env, ids = self.stmts, self.env, pos.sus.ids
        while self.i < len(stmts):
            stmt = stmts[self.i]
            self.i += 1
            if id(stmt) in ids:
                return START[type(stmt)](pos, stmt, env)
            EXEC[type(stmt)](it, stmt, env)
        pos.stack.pop()
        return None

    def copy(self, envs: dict) -> "BlockFrame":
        cls = self.__class__  # (the fast path's generated subclass stays itself)
        f = cls.__new__(cls)
        f.stmts, f.i, f.env = self.stmts, self.i, copy_env(self.env, envs)
        return f


def run_block(pos: "Position", block: A.Block | None, env: dict) -> bool:
    """Run a block: at once when it cannot suspend (False), else as a frame pushed for the run loop (True)."""
    if block is None:
        return False
    if pos.sus.block(block):
        fast = pos.it.fast  # the fast path pushes the block's generated frame (engine/framescompiled.py)
        cls = fast.block_frames.get(id(block)) if fast is not None else None
        pos.stack.append(BlockFrame(block, env) if cls is None else cls(block, env))
        return True
    pos.it.run(block, env)
    return False


def _start_if(pos: "Position", node: A.If, env: dict) -> None:
    it = pos.it
    for cond, body in node.branches:
        if it.truth(cond, env):
            run_block(pos, body, env)
            return None
    if node.else_ is not None:
        run_block(pos, node.else_, env)
    return None


# ------------------------------------------------------------------ loops


class ForFrame:
    """`for x in e`: one body per item."""

    __slots__ = ("node", "items", "j", "env")

    def step(self, pos: "Position") -> Decision | None:
        if self.j >= len(self.items):
            pos.stack.pop()
            return None
        node = self.node
        pos.it.tick(node.span)
        self.env[node.var] = self.items[self.j]
        self.j += 1
        run_block(pos, node.body, self.env)
        return None

    def copy(self, envs: dict) -> "ForFrame":
        cls = self.__class__  # (the fast path's generated subclass stays itself)
        f = cls.__new__(cls)
        f.node, f.items, f.j, f.env = self.node, self.items, self.j, copy_env(self.env, envs)
        return f


def loop_question(it: Any, node: A.For, env: dict) -> str:
    """The question of a `for ... chosen by P [prompt T]` before each item: T now, else the loop's words."""
    return loop_prompt(node.var) if node.prompt is None else message_text(it, node.prompt, env) or ""


class ChosenOrderFrame:
    """`for x in e chosen by P`: P picks the next item each time."""

    __slots__ = ("node", "remaining", "chooser", "env")

    def step(self, pos: "Position") -> Decision | None:
        if not self.remaining:
            pos.stack.pop()
            return None
        node = self.node
        pos.it.tick(node.span)
        done, got = ask_value(pos, node.var, self.remaining, int(self.chooser), loop_question(pos.it, node, self.env),
                              False, node.span, None, None, id(node))
        if not done:
            return got
        self.resume(pos, got)
        return None

    def resume(self, pos: "Position", value: Any) -> None:
        self.remaining.remove(value)
        self.env[self.node.var] = value
        run_block(pos, self.node.body, self.env)

    def copy(self, envs: dict) -> "ChosenOrderFrame":
        cls = self.__class__  # (the fast path's generated subclass stays itself)
        f = cls.__new__(cls)
        f.node, f.remaining, f.chooser = self.node, list(self.remaining), self.chooser
        f.env = copy_env(self.env, envs)
        return f


def _start_for(pos: "Position", node: A.For, env: dict) -> None:
    items = for_items(pos.it, node, env)
    if node.chooser is not None:
        f: Any = ChosenOrderFrame.__new__(ChosenOrderFrame)
        who = pos.it.ev(node.chooser, env)
        seat_of(pos.it, who, node.chooser.span)
        f.node, f.remaining, f.chooser, f.env = node, list(items), who, env
    else:
        f = ForFrame.__new__(ForFrame)
        f.node, f.items, f.j, f.env = node, items, 0, env
    pos.stack.append(f)
    return None


class WhileFrame:
    """`while c`: the condition again before every body."""

    __slots__ = ("node", "env")

    def __init__(self, node: A.While, env: dict):
        self.node, self.env = node, env

    def step(self, pos: "Position") -> Decision | None:
        it, node = pos.it, self.node
        if not it.truth(node.cond, self.env):
            pos.stack.pop()
            return None
        it.tick(node.span)
        run_block(pos, node.body, self.env)
        return None

    def copy(self, envs: dict) -> "WhileFrame":
        return self.__class__(self.node, copy_env(self.env, envs))  # (a generated subclass stays itself)


class RepeatFrame:
    """`repeat n`: the count is evaluated once."""

    __slots__ = ("node", "left", "env")

    def step(self, pos: "Position") -> Decision | None:
        if self.left <= 0:
            pos.stack.pop()
            return None
        self.left -= 1
        pos.it.tick(self.node.span)
        run_block(pos, self.node.body, self.env)
        return None

    def copy(self, envs: dict) -> "RepeatFrame":
        cls = self.__class__  # (the fast path's generated subclass stays itself)
        f = cls.__new__(cls)
        f.node, f.left, f.env = self.node, self.left, copy_env(self.env, envs)
        return f


def _start_while(pos: "Position", node: A.While, env: dict) -> None:
    pos.stack.append(WhileFrame(node, env))
    return None


def repeat_count(it: Any, n: Any, span: Any) -> int:
    """A `repeat`'s count: a number, else a located error."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise RuleError(f"repeat needs a number, got {it.describe(n)}", span)
    return n


def _start_repeat(pos: "Position", node: A.Repeat, env: dict) -> None:
    it = pos.it
    n = repeat_count(it, it.ev(node.count, env), node.count.span)
    f = RepeatFrame.__new__(RepeatFrame)
    f.node, f.left, f.env = node, n, env
    pos.stack.append(f)
    return None


# ------------------------------------------------------------------ choose


class ChooseFrame:
    """A `choose` waiting for its answer."""

    __slots__ = ("var", "env")

    def __init__(self, var: str, env: dict):
        self.var, self.env = var, env

    def step(self, pos: "Position") -> Decision | None:  # pragma: no cover - resumed, never stepped
        raise AssertionError("a choose frame is resumed by its answer")

    def resume(self, pos: "Position", value: Any) -> None:
        self.env[self.var] = value
        pos.stack.pop()

    def copy(self, envs: dict) -> "ChooseFrame":
        return ChooseFrame(self.var, copy_env(self.env, envs))


def _start_choose(pos: "Position", node: A.Choose, env: dict) -> Decision | None:
    it = pos.it
    domain = it.iterate(it.ev(node.domain, env), node.domain.span)
    values, rejected = _filter(it, node.var, domain, node.cond, env, node.reason)
    chooser = seat_of(it, it.ev(node.chooser, env), node.chooser.span) if node.chooser is not None else it.current()
    prompt = choice_prompt(node.var) if node.prompt is None else message_text(it, node.prompt, env)
    # with nothing to choose from there is no value to explain: only a fixed message can be used
    empty_why = node.reason.value if isinstance(node.reason, A.Literal) and not domain else None
    done, got = ask_value(pos, node.var, values, int(chooser), prompt, node.optional, node.span,
                          empty_why or (rejected[0][1] if rejected and not values else None), rejected, id(node))
    if done:
        env[node.var] = got
        return None
    pos.stack.append(ChooseFrame(node.var, env))
    return got


# ------------------------------------------------------------------ calls and events


class CallFrame:
    """A procedure's body is running: the call depth goes back down when it ends."""

    __slots__ = ()

    def step(self, pos: "Position") -> Decision | None:
        pos.it.call_depth -= 1
        pos.stack.pop()
        return None

    def copy(self, envs: dict) -> "CallFrame":
        return self


def _start_call(pos: "Position", node: A.CallProc, env: dict) -> None:
    it = pos.it
    local = call_args(it, node, env)
    enter_call(it, node)
    pos.stack.append(_CALL)
    run_block(pos, it.r.procedures[node.name][1], local)
    return None


_CALL = CallFrame()


class EmitFrame:
    """The triggers listening to one event, in declaration order."""

    __slots__ = ("triggers", "i", "record")

    def step(self, pos: "Position") -> Decision | None:
        it = pos.it
        track = it.r.track_causes
        while self.i < len(self.triggers):
            trig = self.triggers[self.i]
            self.i += 1
            if trig.phases is not None and not in_phase(it, trig):
                continue
            env = {"event": self.record}
            if it.truth(trig.when, env) if trig.fires is None else fires(it, trig, env):
                if track:
                    causes.enter(it, causes.of_event_trigger(it, self.record, trig))
                if run_block(pos, trig.effect, env):
                    return None
        if track:
            causes.enter(it, self.record["cause"])
        it.emit_depth -= 1
        pos.stack.pop()
        return None

    def copy(self, envs: dict) -> "EmitFrame":
        cls = self.__class__  # (the fast path's generated subclass stays itself)
        f = cls.__new__(cls)
        f.triggers, f.i, f.record = self.triggers, self.i, self.record
        return f


def emit(pos: "Position", event: str, data: Record | None = None, span: Any = None) -> bool:
    """Run the triggers of an event (effects.emit's semantics), then open the windows that follow it: True
    when a frame was pushed for them."""
    it = pos.it
    triggers = it.r.event_triggers.get(event)
    pieces = it.r.abilities is not None and event in it.r.abilities.events  # (abilities run after triggers)
    if not triggers and not pieces and event not in it.r.windows_after:
        return False
    if not pos.sus.event(event):  # (never an event a window follows: windows ask)
        from ..reference.effects import emit as emit_now

        emit_now(it, event, data, span)
        return False
    record = Record(data or {})
    record.setdefault("name", event)
    record.setdefault("player", it.current())
    if it.r.track_causes:
        record.setdefault("cause", causes.current(it))
    pushed = False
    if it.r.windows_after:
        for win in reversed(it.r.windows_after.get(event, ())):  # under the triggers: they open after them
            pos.stack.append(WindowFrame(win, record))
            pushed = True
    if pieces:  # above the windows, under the triggers (engine/abilityframes.py)
        pushed = HOOKS["abilities"](pos, record) or pushed
    if not triggers:
        return pushed
    it.emit_depth += 1
    if it.emit_depth > it.limits.emit_depth:
        raise RunawayError(f"events nested more than {it.limits.emit_depth} deep while emitting '{event}' "
                           f"(limit emit_depth); raise it with --limit emit_depth=N", span)
    if event in it.r.owned_events:  # some triggers belong to players: grouped by owner, maybe chosen
        pos.stack.append(OrderedEmitFrame(record, _queue(it, triggers, record, it.r.owned_events[event])))
        return True
    fast = it.fast  # the fast path pushes the event's generated frame (engine/framescompiled.py)
    cls = fast.event_frames.get(event, EmitFrame) if fast is not None else EmitFrame
    f = cls.__new__(cls)
    f.triggers, f.i, f.record = triggers, 0, record
    pos.stack.append(f)
    return True


class OrderedEmitFrame:
    """The triggers of an event some of which belong to players (reference/triggerorder.py): `remaining`
    holds, in order, trigger names to run and (owner, names) groups whose owner picks the next."""

    __slots__ = ("record", "remaining")

    def __init__(self, record: Record, remaining: tuple):
        self.record, self.remaining = record, remaining

    def step(self, pos: "Position") -> Decision | None:
        it = pos.it
        named = it.r.trigger_named
        env = {"event": self.record}
        while self.remaining:
            unit, rest = self.remaining[0], self.remaining[1:]
            if unit.__class__ is str:
                self.remaining = rest
                trig = named[unit]
                if _fires_now(it, trig, env) and self._run(pos, trig, env):
                    return None
                continue
            owner, pending = unit
            live = tuple(t for t in pending if _live(it, named[t], env))  # the others are skipped
            if len(live) >= 2:
                self.remaining = ((owner, live),) + rest
                return triggerorder.choice(it, self.record, owner, [named[t] for t in live])
            self.remaining = rest
            if live and self._run(pos, named[live[0]], env):
                return None
        if it.r.track_causes:
            causes.enter(it, self.record["cause"])
        it.emit_depth -= 1
        pos.stack.pop()
        return None

    def _run(self, pos: "Position", trig: Any, env: dict) -> bool:
        """Run one trigger's effect, as caused by the event (docs/dsl.md 6.5); True when it pushed a frame."""
        if pos.it.r.track_causes:
            causes.enter(pos.it, causes.of_event_trigger(pos.it, self.record, trig))
        return run_block(pos, trig.effect, env)

    def resume(self, pos: "Position", value: Any) -> None:
        (owner, pending), rest = self.remaining[0], self.remaining[1:]
        left = tuple(t for t in pending if t != value)
        self.remaining = (((owner, left),) if left else ()) + rest
        self._run(pos, pos.it.r.trigger_named[value], {"event": self.record})

    def copy(self, envs: dict) -> "OrderedEmitFrame":
        return OrderedEmitFrame(self.record, self.remaining)  # (its parts are never changed in place)


def _live(it: Any, trig: Any, env: dict) -> bool:
    """Whether an event trigger's phase scope (`phase:`) and `when` hold now (max_fires is not counted)."""
    return (trig.phases is None or in_phase(it, trig)) and it.truth(trig.when, env)


def _fires_now(it: Any, trig: Any, env: dict) -> bool:
    """Whether an event trigger fires now: its phase scope, then max_fires and `when` (effects.fires)."""
    if trig.phases is not None and not in_phase(it, trig):
        return False
    return it.truth(trig.when, env) if trig.fires is None else fires(it, trig, env)


def _queue(it: Any, triggers: list[Any], record: Record, order: str) -> tuple:
    """What an OrderedEmitFrame runs: the unowned triggers, then each owner's (a group when the owner
    chooses among two or more)."""
    first, groups = triggerorder.owner_groups(it, triggers, record)
    out: list[Any] = [t.name for t in first]
    for owner, group in groups:
        if order == "owner_chooses" and len(group) > 1:
            out.append((owner, tuple(t.name for t in group)))
        else:
            out.extend(t.name for t in group)
    return tuple(out)


def _start_emit(pos: "Position", node: A.Emit, env: dict) -> None:
    it = pos.it
    data = Record((k, it.ev(v, env)) for k, v in node.kwargs)
    if node.args:
        data["args"] = [it.ev(a, env) for a in node.args]
    emit(pos, node.event, data, node.span)
    return None


# ------------------------------------------------------------------ cascades


class SettleFrame:
    """State triggers fire until none matches (effects._cascade's order), then `cascade_end`."""

    __slots__ = ("first_seen", "scan", "phase", "before", "watch", "cause", "fired")

    def step(self, pos: "Position") -> Decision | None:
        if self.phase == 0:
            self._scan(pos)
            return None
        if self.phase == 1:
            self.phase = 2
            if pos.it.r.track_causes:
                causes.enter(pos.it, self.cause)  # the cause in force before the cascade
            s = pos.s
            if s.cascade:
                s.cascades = {**s.cascades, s.cascade: s.cascades.get(s.cascade, 0) + 1}  # (replaced: clones share it)
                emit(pos, "cascade_end", Record(count=s.cascade))
            return None
        pos.it.settling = False
        pos.stack.pop()
        if self.before is not None and pos.s.cascade:
            self.watch(self.before)
        return None

    def _scan(self, pos: "Position") -> None:
        self.scan += 1
        best = cascade_scan(pos.it, self.first_seen, self.scan)
        if best is None:
            self.phase = 1
            return
        if pos.it.r.track_causes:
            causes.enter(pos.it, causes.of_firing(pos.it, best[0], best[1], self.fired, self.cause))
            best[1]["cause"] = pos.it.cause
            self.fired = self.fired + [pos.it.cause]  # (a new list: copies of the frame share the old one)
        run_block(pos, best[0].effect, best[1])

    def copy(self, envs: dict) -> "SettleFrame":
        f = SettleFrame.__new__(SettleFrame)
        f.first_seen, f.scan, f.phase = dict(self.first_seen), self.scan, self.phase
        f.before, f.watch, f.cause, f.fired = self.before, self.watch, self.cause, self.fired
        return f


def settle(pos: "Position", span: Any = None, after_action: bool = False) -> None:
    """Start a cascade (effects.settle's semantics) as a frame; nothing to do without state triggers.
    `after_action`: the cascade the flow resolves after a step's action, which belongs to its root."""
    it = pos.it
    if not it.r.state_triggers:
        return
    if not pos.sus.cascade:  # nothing in it can ask: run it at once
        from ..reference.effects import settle as settle_now

        settle_now(it, span, after_action)
        return
    if it.settling:
        raise RuleError("`settle` inside a cascade: the cascade already resolves until nothing matches", span)
    it.settling = True
    watch = getattr(it.r, "cascade_watch", None)  # benchmarks capture the positions cascades start from
    if it.r.track_causes and it.top_action is None and not after_action:
        causes.new_root(it)  # a cascade outside any action: its own root
    f = SettleFrame.__new__(SettleFrame)
    f.first_seen, f.scan, f.phase, f.cause, f.fired = {}, 0, 0, it.cause, []
    f.before, f.watch = (pos.s.clone() if watch is not None else None), watch
    pos.s.cascade = 0
    pos.stack.append(f)


def _start_settle(pos: "Position", node: A.Settle, env: dict) -> None:
    settle(pos, node.span)
    return None


# ------------------------------------------------------------------ actions


class ActionFrame:
    """An action being performed: checked, paid, its parameters chosen, its effect run, then `action`."""

    __slots__ = ("action", "count_limit", "first", "k", "env", "phase", "outer", "me")

    def step(self, pos: "Position") -> Decision | None:
        it, action = pos.it, self.action
        if self.phase == 0:
            check_action(it, action, self.count_limit, False)
            me = self.me = it.current()
            if action.cost:  # the costs reading no parameter: computed once, checked, paid (costs.py)
                pay(it, action, action.cost, self.env, me)
            self.phase = 1
        if self.phase == 1:
            params = action.params
            while self.k < len(params):
                d = self._ask(pos, params[self.k])
                if d is not None:
                    return d
            if action.late_cost:  # the costs reading a parameter, now that every one is chosen
                pay(it, action, action.late_cost, self.env, self.me)
            if self.count_limit:  # chosen from a menu: a use (a perform is none)
                c = it.s.cursor  # (its turn_actions are replaced, never changed in place: clones share them)
                c.turn_actions = {**c.turn_actions, action.name: c.turn_actions.get(action.name, 0) + 1}
                if action.limit is not None:
                    count_use(it.s, use_of(action.limit, self.env), self.me)
            self.phase = 2
            if run_block(pos, action.effect, self.env):
                return None
        if self.phase == 2:
            self.phase = 3
            # (the event's record is made only when some trigger listens: most games have none)
            if "action" in it.r.listened and emit(pos, "action", Record(action=action.name)):
                return None
        it.current_action, it.top_action = self.outer
        pos.stack.pop()
        return None

    def _ask(self, pos: "Position", p: Any) -> Decision | None:
        it, env = pos.it, self.env
        why = p.why
        if self.k == 0 and self.first is not None:
            values, rejected = self.first
        else:
            domain = it.iterate(it.ev(p.domain, env), p.domain.span)
            values, rejected = _filter(it, p.name, domain, p.where, env, why)
            if self.count_limit and self.action.limit is not None and self.action.limit.each == p.name:
                values, rejected, why = spent_values(it, self.action, values, rejected, why)
        done, got = ask_value(pos, p.name, values, int(self.me), p.prompt or param_prompt(self.action.label, p.name),
                              p.optional, p.span, why, rejected, (self.action.name, self.k))
        if not done:
            if self.k == self.action.cost_site:  # each option's price, shown with it
                late_notes(it, self.action, env, p.name, got)
            return got
        self.resume(pos, got)
        return None

    def resume(self, pos: "Position", value: Any) -> None:
        self.env[self.action.params[self.k].name] = value
        self.k += 1

    def copy(self, envs: dict) -> "ActionFrame":
        cls = self.__class__  # (the fast path's generated subclass stays itself)
        f = cls.__new__(cls)
        f.action, f.count_limit, f.first, f.k = self.action, self.count_limit, self.first, self.k
        f.env, f.phase, f.outer, f.me = copy_env(self.env, envs), self.phase, self.outer, self.me
        return f


def perform(pos: "Position", action: Any, count_limit: bool = True, first: tuple | None = None) -> None:
    """Push an action's frame (effects.perform_action's semantics)."""
    it = pos.it
    cls = it.fast.action_frames.get(action.name, ActionFrame) if it.fast is not None else ActionFrame
    f = cls.__new__(cls)
    f.action, f.count_limit, f.first, f.k, f.phase, f.me = action, count_limit, first, 0, 0, None
    f.env = {"__rule__": action.rule}
    f.outer = (it.current_action, it.top_action)
    it.current_action = action.name
    if it.top_action is None:
        it.top_action = action.name
        if it.r.track_causes:
            causes.new_root(it)  # a player's answer starts an action: a new root (docs/dsl.md 6.5)
    pos.stack.append(f)


class ActorFrame:
    """Below an action done for another player than the acting one (a window's answer, `perform ... by`):
    that player acts (`current`, Interp.current()) until the action above is done, then the one before."""

    __slots__ = ("prev",)

    def __init__(self, prev: int):
        self.prev = prev

    def step(self, pos: "Position") -> Decision | None:
        pos.s.cursor.current = self.prev
        pos.stack.pop()
        return None

    def copy(self, envs: dict) -> "ActorFrame":
        return self  # (never changed once made)


def act_as(pos: "Position", seat: int) -> None:
    """`seat` is the acting player until the frame pushed next (an action) is done."""
    c = pos.s.cursor
    if seat != c.current:
        pos.stack.append(ActorFrame(c.current))
        c.current = seat


def _start_perform(pos: "Position", node: A.Perform, env: dict) -> None:
    it = pos.it
    action = it.r.actions[node.action]
    if node.actor is not None:
        act_as(pos, seat_of(it, it.ev(node.actor, env), node.actor.span))
    perform(pos, action, count_limit=False)
    return None


# ------------------------------------------------------------------ windows


class WindowFrame:
    """A reaction window (engine/windows.py): its players asked in poll order until it closes; a player's
    action runs above it, done by that player."""

    __slots__ = ("win", "record", "order", "k", "passes", "answered", "taken", "phase", "menus")

    def __init__(self, win: Any, record: Record):
        self.win, self.record, self.order, self.menus = win, record, [], {}
        self.k = self.passes = self.answered = self.taken = self.phase = 0

    def step(self, pos: "Position") -> Decision | None:
        it, win = pos.it, self.win
        if self.phase == 0:  # it opens now: its `when` and `who` are read once
            W.enter(it, win, win.span)
            self.order = W.poll_order(it, win, self.record)
            self.phase = 1
        while not W.closed(win, len(self.order), self.passes, self.answered, self.taken):
            seat = self.order[self.k % len(self.order)]
            options, reasons, rejected, menus, notes = W.window_menu(it, win, seat)
            if len(options) == 1 and win.ask == "when_able":  # only `pass`: not asked, nothing told
                self._answered(False)
                continue
            self.menus = menus
            return W.decision(it, win, seat, options, reasons, rejected, notes)
        it.emit_depth -= 1
        pos.stack.pop()
        return None

    def _answered(self, took: bool) -> None:
        self.answered += 1
        self.k += 1
        if took:
            self.passes, self.taken = 0, self.taken + 1
        else:
            self.passes += 1

    def resume(self, pos: "Position", value: Any) -> None:
        seat = self.order[self.k % len(self.order)]
        menus, self.menus = self.menus, {}
        self._answered(value is not W.PASS)
        if value is not W.PASS:
            act_as(pos, seat)
            perform(pos, pos.it.r.actions[value], first=menus.get(value))

    def copy(self, envs: dict) -> "WindowFrame":
        f = WindowFrame.__new__(WindowFrame)
        f.win, f.record, f.order, f.menus = self.win, self.record, self.order, self.menus
        f.k, f.passes, f.answered, f.taken, f.phase = self.k, self.passes, self.answered, self.taken, self.phase
        return f


def _start_open(pos: "Position", node: A.Open, env: dict) -> None:
    it = pos.it
    win = it.r.windows.get(node.window)
    if win is None:
        raise RuleError(f"unknown window '{node.window}'", node.span)
    data = Record((k, it.ev(v, env)) for k, v in node.kwargs)
    if node.args:
        data["args"] = [it.ev(a, env) for a in node.args]
    pos.stack.append(WindowFrame(win, W.open_record(it, node.window, data)))
    return None


# engine/abilityframes.py puts its pusher of pieces' `on:` abilities here (it imports this module)
HOOKS: dict[str, Any] = {}

START: dict[type, Any] = {
    A.If: _start_if,
    A.For: _start_for,
    A.While: _start_while,
    A.Repeat: _start_repeat,
    A.Choose: _start_choose,
    A.CallProc: _start_call,
    A.Emit: _start_emit,
    A.Settle: _start_settle,
    A.Perform: _start_perform,
    A.Open: _start_open,
}
