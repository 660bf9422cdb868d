"""Effects that may ask a player, generated as resumable state machines (issue 17, item 2).

The reference runs such an effect as frames of the position's stack (engine/frames.py): a block frame
walks its statements one at a time and dispatches each statement that may ask to a generic starter.
Here each block that may ask becomes one generated `step(self, pos)` per spec, the block frame's step on
the fast path, whose program counter is the frame's statement index `i`:

- a run of statements that cannot ask is written out inline (the same code as the spec's other blocks);
- a `choose` is written out: its domain, filter, chooser and prompt, then the engine's `FR_ASK`; answered by
  itself (one option) the step goes on, else it pushes the choose frame and returns the decision;
- an `if` is written out: its conditions, then a branch that cannot ask inline, one that can pushed;
- a `call` is written out: its arguments, the depth check, then the procedure's frame pushed;
- a `while`, `repeat` or `for` is written out: its count or items, then its own generated loop frame
  pushed, whose step (a condition, a tick, the body pushed; for `for ... chosen by`, the question of which
  item next) is generated too;
- every other statement that may ask (emit, settle, perform, commit) starts as the reference starts it
  (the engine's starter, linked as `FR_START_<Statement>`), and the step returns to the run loop.

Each action gets a generated step too (the reference's ActionFrame.step with its checks, costs,
parameters, effect and `action` event written out for that action), and so does each event whose
triggers may ask (EmitFrame.step: each trigger's condition, its effect inline or pushed).  The frames
keep the reference's classes' names and slots (engine/framescompiled.py makes the subclasses), and `i`,
`j`, `k`, `left` and `phase` take the reference's values wherever a frame waits, so a position's data and
digest are the same on both engines: tests/test_differential.py, tests/test_generated_games.py and
tests/test_effectgen.py compare them step by step.

As in codegen.py, nothing from the spec enters the source but through constants; the names the engine
must link are `RUNTIME` (engine/framescompiled.py checks them).
"""

from __future__ import annotations

from typing import Any

from orrery.rulespec import ast as A
from orrery.rulespec.wording import choice_prompt, loop_prompt, param_prompt

from .recipe import SiteOf

# statements that may ask and start as the reference starts them (engine/frames.py START)
STARTED = ("Emit", "Settle", "Perform", "Commit", "Open", "Use")

# the runtime names the generated steps use, which the engine must link (checked by framescompiled.py)
RUNTIME = ("FR_ASK", "FR_CHOSEN", "FR_FILTER", "FR_ENTER", "FR_CALL", "FR_PUSH", "FR_CHECK", "FR_PAY", "FR_EMIT",
           "FR_RECORD", "FR_MIDRUN", "FR_INT", "FR_SEAT", "FR_LOOP_Q", "FR_COUNT", "FR_FOR_ITEMS", "FR_USE",
           "FR_FIRES", "FR_NOTES", "FR_IN_PHASE", "FR_CAUSE_IN", "FR_CAUSE_OUT", "FR_USE_OF", "FR_SPENT")
RUNTIME += tuple(f"FR_START_{name}" for name in STARTED)


def suspending_blocks(rules: Any, sus: Any) -> list[A.Block]:
    """Every block of the spec that may ask a player (outermost first, in the spec's order)."""
    out: list[A.Block] = []
    seen: set[int] = set()
    for key in sorted(rules.spec.effects, key=repr):
        for node in rules.spec.effects[key].walk():
            if isinstance(node, A.Block) and id(node) not in seen and sus.block(node):
                seen.add(id(node))
                out.append(node)
    return out


class StepGen:
    """Writes the steps into a CodeGen's source (its lines, constants and expression compiler)."""

    def __init__(self, gen: Any, sus: Any):
        self.g = gen
        self.sus = sus
        self.loop_names: dict[int, str] = {}  # id(loop node) -> its step's name (named before any is written)

    def done(self, indent: int) -> None:
        """The frame's work is over: it pops itself and the run loop goes on with the frame below."""
        self.g.emit(indent, "pos.stack.pop()")
        self.g.emit(indent, "return None")

    def end(self, fname: str) -> str:
        """Close a generated step (a blank line; no name is known bound outside it)."""
        self.g.emit(0, "")
        self.g.bound = set()
        return fname

    # ------------------------------------------------------------ blocks
    def block_step(self, block: A.Block) -> str:
        """`step(self, pos)` of a block that may ask; returns its name."""
        g, stmts = self.g, block.body
        fname = g.fresh("st")
        g.emit(0, f"def {fname}(self, pos):  # {_at(block)}: a block that may ask, `i` its program counter",
               block)
        g.emit(1, "it = pos.it")
        g.emit(1, "env = self.env")
        g.emit(1, "i = self.i")
        g.bound = set()
        start = 0
        while start < len(stmts):
            if id(stmts[start]) not in self.sus.ids:
                end = start
                while end < len(stmts) and id(stmts[end]) not in self.sus.ids:
                    end += 1
                g.emit(1, f"if i == {start}:")
                g.emit(2, f"self.i = {end}")
                for stmt in stmts[start:end]:
                    g.stmt(stmt, 2)
                g.emit(2, f"i = {end}")
                start = end
                continue
            g.emit(1, f"if i == {start}:")
            g.emit(2, f"self.i = {start + 1}")
            if self.asking(stmts[start], 2):
                g.emit(2, f"i = {start + 1}")
            start += 1
        g.emit(1, f"if i == {len(stmts)}:")
        self.done(2)
        g.emit(1, "return FR_MIDRUN(self, pos)  # (entered inside a run: the reference's stepping)")
        return self.end(fname)

    def asking(self, stmt: A.Stmt, indent: int) -> bool:
        """A statement that may ask: written out (choose, if: True, the step may go on after it) or started
        by the engine (False: the step returns to the run loop)."""
        g = self.g
        if isinstance(stmt, A.Choose):
            self.choose(stmt, indent)
            return True
        if isinstance(stmt, A.If):
            self.branches(stmt, indent)
            return True
        if isinstance(stmt, A.CallProc):
            self.call(stmt, indent)
            return False
        if _own_loop(stmt):
            self.loop_start(stmt, indent)
            return False
        name = type(stmt).__name__
        if name not in STARTED:  # (suspends.py marks no other statement: a new one needs a case here)
            raise NotImplementedError(f"no step for a {name} that may ask")
        g.emit(indent, f"return FR_START_{name}(pos, {g.node_const(stmt)}, env)  # {_at(stmt)}", stmt)
        return False

    def choose(self, node: A.Choose, indent: int) -> None:
        """frames._start_choose written out: domain, filter, chooser, prompt, then ask (or go on)."""
        g = self.g
        var = g.const(node.var)
        g.emit(indent, f"dom_ = it.iterate({g.expr(node.domain)}, {g.span(node.domain)})  # {_at(node)}", node)
        if node.cond is None:
            g.emit(indent, "vals_, rej_ = list(dom_), []")
        else:
            reason = g.const(node.reason, hashable=False) if node.reason is not None else "None"
            g.emit(indent, f"vals_, rej_ = FR_FILTER(it, {var}, dom_, {g.node_const(node.cond)}, env, {reason})")
        chooser = (f"FR_SEAT(it, {g.expr(node.chooser)}, {g.span(node.chooser)})" if node.chooser is not None
                   else "it.current()")
        g.emit(indent, f"who_ = {chooser}")
        if node.prompt is None or isinstance(node.prompt, str):
            g.emit(indent, f"say_ = {g.const(node.prompt or choice_prompt(node.var))}")
        else:  # effects.message_text: a text as it is, any other value by its label
            g.emit(indent, f"say_ = v_ if (v_ := {g.expr(node.prompt)}).__class__ is STR else it.label(v_)")
        # with nothing to choose from there is no value to explain: only a fixed message can be used
        if isinstance(node.reason, A.Literal):
            g.emit(indent, f"why_ = {g.const(node.reason.value)} if not dom_ else None")
        else:
            g.emit(indent, "why_ = None")
        g.emit(indent, "why_ = why_ or (rej_[0][1] if rej_ and not vals_ else None)")
        g.emit(indent, f"done_, got_ = FR_ASK(pos, {var}, vals_, FR_INT(who_), say_, {bool(node.optional)}, "
                       f"{g.span(node)}, why_, rej_, {g.const(SiteOf(node), hashable=False)})")
        g.emit(indent, "if not done_:")
        g.emit(indent + 1, f"pos.stack.append(FR_CHOSEN({var}, env))")
        g.emit(indent + 1, "return got_")
        g.emit(indent, f"env[{var}] = got_")
        g.bound.add(node.var)

    def call(self, node: A.CallProc, indent: int) -> None:
        """frames._start_call written out: the arguments in order, one tick and level deeper, then the
        procedure's frame above a call frame (which takes the level back when the body is done)."""
        g = self.g
        params, body = g.rules.procedures[node.name]  # (suspends.py marks only calls of known procedures)
        items = [(p, a) for p, a in zip(params, node.args)] + list(node.kwargs)
        local = "".join(f"{g.const(k)}: {g.expr(v)}, " for k, v in items)
        g.emit(indent, f"local_ = {{{local}}}  # {_at(node)}", node)
        g.emit(indent, f"FR_ENTER(it, {g.node_const(node)})")
        g.emit(indent, "pos.stack.append(FR_CALL)")
        g.emit(indent, f"FR_PUSH(pos, {g.const(body, hashable=False)}, local_)")
        g.emit(indent, "return None")

    def loop_start(self, node: A.Stmt, indent: int) -> None:
        """frames._start_while/_start_repeat/_start_for written out: the loop's generated frame pushed (its
        class is bound as C_<step> when the engine links the module), with the count or the items."""
        g = self.g
        step = self.loop_names[id(node)]
        cls = f"C_{step}"
        n = g.node_const(node)
        if isinstance(node, A.While):
            g.emit(indent, f"pos.stack.append({cls}({n}, env))  # {_at(node)}", node)
        elif isinstance(node, A.Repeat):
            g.emit(indent, f"n_ = {g.expr(node.count)}  # {_at(node)}", node)
            g.emit(indent, "if n_.__class__ is not FR_INT:  # (a number only: the reference's check and message)")
            g.emit(indent + 1, f"n_ = FR_COUNT(it, n_, {g.span(node.count)})")
            g.emit(indent, f"f_ = {cls}.__new__({cls})")
            g.emit(indent, f"f_.node, f_.left, f_.env = {n}, n_, env")
            g.emit(indent, "pos.stack.append(f_)")
        else:
            if node.cond is None and node.order_key is None and node.chooser is None:
                g.emit(indent, f"items_ = list(it.iterate({g.expr(node.iter)}, {g.span(node.iter)}))  # {_at(node)}",
                       node)
            else:  # (filtered or ordered: effects.for_items, as the reference)
                g.emit(indent, f"items_ = FR_FOR_ITEMS(it, {n}, env)  # {_at(node)}", node)
            g.emit(indent, f"f_ = {cls}.__new__({cls})")
            if node.chooser is None:
                g.emit(indent, f"f_.node, f_.items, f_.j, f_.env = {n}, items_, 0, env")
            else:  # (frames._start_for: the chooser is checked once, the frame keeps the value)
                g.emit(indent, f"who_ = {g.expr(node.chooser)}")
                g.emit(indent, f"FR_SEAT(it, who_, {g.span(node.chooser)})")
                g.emit(indent, f"f_.node, f_.remaining, f_.chooser, f_.env = {n}, items_, who_, env")
            g.emit(indent, "pos.stack.append(f_)")
        g.emit(indent, "return None")

    def loop_step(self, node: A.Stmt) -> str:
        """The frame step of a loop that may ask (While/Repeat/For/ChosenOrderFrame.step written out)."""
        g = self.g
        fname = self.loop_names[id(node)]
        g.emit(0, f"def {fname}(self, pos):  # {_at(node)}: a loop that may ask, one body per step", node)
        g.emit(1, "it = pos.it")
        g.emit(1, "env = self.env")
        g.bound = set()
        if isinstance(node, A.For) and node.chooser is not None:
            self.chosen_order_step(node)
            return self.end(fname)
        if isinstance(node, A.While):
            g.emit(1, f"if not {g.cond(node.cond)}:  # {_at(node.cond)}", node.cond)
        elif isinstance(node, A.Repeat):
            g.emit(1, "if self.left <= 0:")
        else:
            g.emit(1, "if self.j >= LEN(self.items):")
        self.done(2)
        if isinstance(node, A.Repeat):
            g.emit(1, "self.left -= 1")
        g.emit(1, f"TK(it, {g.span(node)})")
        if isinstance(node, A.For):
            g.emit(1, f"env[{g.const(node.var)}] = self.items[self.j]")
            g.emit(1, "self.j += 1")
        g.emit(1, f"FR_PUSH(pos, {g.const(node.body, hashable=False)}, env)")
        g.emit(1, "return None")
        return self.end(fname)

    def chosen_order_step(self, node: A.For) -> None:
        """ChosenOrderFrame.step written out: the chooser picks the next item among those left."""
        g = self.g
        g.emit(1, "if not self.remaining:")
        self.done(2)
        g.emit(1, f"TK(it, {g.span(node)})")
        # (the question: frames.loop_question, evaluated at each item as the reference does)
        say = g.const(loop_prompt(node.var)) if node.prompt is None else f"FR_LOOP_Q(it, {g.node_const(node)}, self.env)"
        g.emit(1, f"done_, got_ = FR_ASK(pos, {g.const(node.var)}, self.remaining, FR_INT(self.chooser), "
                  f"{say}, False, {g.span(node)}, None, None, {g.const(SiteOf(node), hashable=False)})")
        g.emit(1, "if not done_:")
        g.emit(2, "return got_")
        g.emit(1, "self.resume(pos, got_)")
        g.emit(1, "return None")

    def branches(self, node: A.If, indent: int) -> None:
        """frames._start_if written out: the first branch whose condition holds runs (pushed if it may ask)."""
        g = self.g
        for n, (cond, body) in enumerate(node.branches):
            g.emit(indent, f"{'el' if n else ''}if {g.cond(cond)}:  # {_at(cond)}", cond)
            self.branch(body, indent + 1)
        if node.else_ is not None:
            g.emit(indent, "else:")
            self.branch(node.else_, indent + 1)

    def branch(self, body: A.Block | None, indent: int) -> None:
        g = self.g
        if body is not None and self.sus.block(body):
            g.emit(indent, f"FR_PUSH(pos, {g.node_const(body)}, env)")
            g.emit(indent, "return None")
        else:
            g.nested_block(body, indent)

    # ------------------------------------------------------------ events
    def event_step(self, event: str, triggers: list[Any]) -> str:
        """EmitFrame.step for one event whose triggers may ask: each trigger's condition, then its effect
        (inline when it cannot ask, else pushed); `i` counts the triggers looked at, as the reference's."""
        g = self.g
        fname = g.fresh("ev")
        g.emit(0, f"def {fname}(self, pos):  # the {len(triggers)} trigger(s) of an event (EmitFrame.step written out)",
               triggers[0].effect)
        g.emit(1, "it = pos.it")
        g.emit(1, "i = self.i")
        track = g.rules.track_causes  # (causes and phase scopes: only for specs that have them)
        for k, trig in enumerate(triggers):
            g.emit(1, f"if i == {k}:")
            g.emit(2, f"self.i = {k + 1}")
            g.emit(2, f"env = {{{g.const('event')}: self.record}}  # {_at(trig.effect)}", trig.effect)
            g.bound = {"event"}
            tests = [f"FR_IN_PHASE(it, {g.const(trig, hashable=False)})"] if trig.phases is not None else []
            if trig.fires is not None:  # max_fires: effects.fires (the count, then `when`, then counted)
                tests.append(f"FR_FIRES(it, {g.const(trig, hashable=False)}, env)")
            elif trig.when is not None:
                tests.append(g.cond(trig.when))
            if tests:
                g.emit(2, f"if {' and '.join(tests)}:  # {_at(trig.when or trig.effect)}", trig.when)
            if track:
                g.emit(3 if tests else 2, f"FR_CAUSE_IN(it, self.record, {g.const(trig, hashable=False)})")
            self.branch(trig.effect, 3 if tests else 2)
            if not tests and self.sus.block(trig.effect):
                continue  # (pushed: the step has returned)
            g.emit(2, f"i = {k + 1}")
        if track:
            g.emit(1, "FR_CAUSE_OUT(it, self.record)")
        g.emit(1, "it.emit_depth -= 1")
        self.done(1)
        return self.end(fname)

    # ------------------------------------------------------------ actions
    def action_step(self, action: Any) -> str:
        """ActionFrame.step for one action: checked, paid, its parameters asked, its effect run, `action`."""
        g = self.g
        fname = g.fresh("act")
        g.emit(0, f"def {fname}(self, pos):  # {_at(action)}: an action (ActionFrame.step written out)", action)
        g.emit(1, "it = pos.it")
        g.emit(1, "env = self.env")
        g.bound = set()
        act = g.const(action, hashable=False)
        g.emit(1, "if self.phase == 0:")
        if action.limit is not None or action.condition is not None:  # (else nothing can refuse it here)
            g.emit(2, f"FR_CHECK(it, {act}, self.count_limit, False)")
        g.emit(2, "me = self.me = it.current()")
        if action.cost:  # the costs reading no parameter: computed once, checked, paid (reference/costs.py)
            g.emit(2, f"FR_PAY(it, {act}, {act}.cost, env, me)")
        g.emit(2, "self.phase = 1")
        g.emit(1, "if self.phase == 1:")
        for k, p in enumerate(action.params):
            self.parameter(action, k, p, 2)
        if action.late_cost:  # the costs reading a parameter, now that every one is chosen
            g.emit(2, f"FR_PAY(it, {act}, {act}.late_cost, env, self.me)")
        g.emit(2, "if self.count_limit:  # chosen from a menu: a use (a perform is none)")
        g.emit(3, "c_ = it.s.cursor  # (its turn_actions are replaced, never changed in place: clones share them)")
        g.emit(3, f"c_.turn_actions = {{**c_.turn_actions, {g.const(action.name)}: "
                  f"c_.turn_actions.get({g.const(action.name)}, 0) + 1}}")
        if action.limit is not None and action.limit.each is None:
            g.emit(3, f"FR_USE(it.s, {g.const(action.limit, hashable=False)}, self.me)")
        elif action.limit is not None:  # counted for the chosen value (core/uses.py)
            g.emit(3, f"FR_USE(it.s, FR_USE_OF({g.const(action.limit, hashable=False)}, env), self.me)")
        g.emit(2, "self.phase = 2")
        self.branch(action.effect, 2)
        g.emit(1, "if self.phase == 2:")
        g.emit(2, "self.phase = 3")
        if "action" in g.rules.listened:
            g.emit(2, f"if FR_EMIT(pos, 'action', FR_RECORD(action={g.const(action.name)})):")
            g.emit(3, "return None")
        g.emit(1, "it.current_action, it.top_action = self.outer")
        self.done(1)
        return self.end(fname)

    def parameter(self, action: Any, k: int, p: Any, indent: int) -> None:
        """ActionFrame._ask for parameter k (the first may come with the menu's values: `first`)."""
        g = self.g
        name = g.const(p.name)
        g.emit(indent, f"if self.k == {k}:")
        inner = indent + 1
        why = g.const(p.why) if p.why is not None else "None"
        counted = action.limit is not None and action.limit.each == p.name  # its values' own counts
        if counted:
            g.emit(inner, f"why_ = {why}")
        if k == 0:
            g.emit(inner, "if self.first is not None:")
            g.emit(inner + 1, "vals_, rej_ = self.first")
            g.emit(inner, "else:")
            inner += 1
        g.emit(inner, f"dom_ = it.iterate({g.expr(p.domain)}, {g.span(p.domain)})", p.domain)
        if p.where is None:
            g.emit(inner, "vals_, rej_ = list(dom_), []")
        else:
            g.emit(inner, f"vals_, rej_ = FR_FILTER(it, {name}, dom_, {g.node_const(p.where)}, env, {why})")
        if counted:  # (ActionFrame._ask)
            g.emit(inner, "if self.count_limit:")
            g.emit(inner + 1, f"vals_, rej_, why_ = FR_SPENT(it, {g.const(action, hashable=False)}, vals_, rej_, why_)")
            why = "why_"
        prompt = g.const(p.prompt or param_prompt(action.label, p.name))
        g.emit(indent + 1, f"done_, got_ = FR_ASK(pos, {name}, vals_, FR_INT(self.me), {prompt}, {bool(p.optional)}, "
                           f"{g.const(p.span, hashable=False)}, {why}, rej_, {g.const((action.name, k))})")
        g.emit(indent + 1, "if not done_:")
        if k == action.cost_site:  # each option's price, shown with it
            g.emit(indent + 2, f"FR_NOTES(it, {g.const(action, hashable=False)}, env, {name}, got_)")
        g.emit(indent + 2, "return got_")
        g.emit(indent + 1, f"env[{name}] = got_")
        g.emit(indent + 1, f"self.k = {k + 1}")
        g.bound.add(p.name)  # (answered here or by resume: bound for the parameters after it and the effect)


def _at(node: Any) -> str:
    """A generated comment: only numbers from the span, never spec text (as codegen's)."""
    span = getattr(node, "span", None)
    if span is None:
        return "?"
    return f"line {int(span.line)} col {int(span.col)}"


def frame_steps(gen: Any, rules: Any, sus: Any) -> tuple[dict[int, str], dict[int, tuple[str, str]], dict[str, str],
                                                         dict[str, str], list[Any]]:
    """Write the steps of every block that may ask, of every loop in them that may ask, of every action and
    of every event whose triggers may ask into `gen`: (block id -> step name, loop id -> (frame kind, step
    name), action name -> step name, event -> step name, the blocks and loops, kept alive so that their ids
    stay theirs)."""
    sg = StepGen(gen, sus)
    blocks = suspending_blocks(rules, sus)
    loops = [stmt for b in blocks for stmt in b.body if id(stmt) in sus.ids and _own_loop(stmt)]
    for node in loops:
        sg.loop_names[id(node)] = gen.fresh("lp")
    by_block = {id(b): sg.block_step(b) for b in blocks}
    by_loop = {id(node): ("ChosenOrder" if isinstance(node, A.For) and node.chooser is not None
                          else type(node).__name__, sg.loop_step(node)) for node in loops}
    by_action = {name: sg.action_step(rules.actions[name]) for name in sorted(rules.actions)}
    by_event = {event: sg.event_step(event, list(triggers)) for event, triggers in sorted(rules.event_triggers.items())
                if sus.event(event) and event not in rules.owned_events}  # (those: engine/frames.py OrderedEmitFrame)
    return by_block, by_loop, by_action, by_event, blocks + loops


def _own_loop(stmt: A.Stmt) -> bool:
    """A loop with a generated frame: `while`, `repeat`, `for` (and `for ... chosen by`)."""
    return isinstance(stmt, (A.While, A.Repeat, A.For))


__all__ = ["RUNTIME", "STARTED", "StepGen", "frame_steps", "suspending_blocks"]
