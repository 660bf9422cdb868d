"""Statement execution, actions, events and cascades (state triggers) for the interpreter."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from orrery.rulespec import ast as A
from orrery.rulespec.errors import OrreryError

from ..core import causes
from ..core.decisions import GameEnded, Refusal, RequireFailed, RuleError, RunawayError, untold
from ..core.values import BOX
from ..core.values import Cell, PieceRef, Player, Record, ZoneRef
from ..core.valueops import _SMALL, checked_number, joined, spend
from ..core.valueops import list_contains as contains
from ..core.uses import count_use, used, value_key
from .abilityrun import pending, run_all, use_now
from .bounds import bound_value, track_bounds
from .costs import amounts, check_amounts

from .triggerorder import in_order

if TYPE_CHECKING:
    from ..core.rules import ActionInfo

Interp = Any  # the evaluator's Interp; not imported: the evaluator imports this module


# ---------------------------------------------------------------- assignment


def _let(it: "Interp", node: A.Let, env: dict) -> None:
    env[node.name] = it.ev(node.value, env)




def _combine(it: "Interp", op: str, old: Any, new: Any, node: A.Assign) -> Any:
    if op == "=":
        return new
    if old.__class__ is int and new.__class__ is int:  # the common case: small numbers, nothing to check
        r = old + new if op == "+=" else old - new if op == "-=" else old * new
        if -_SMALL < r < _SMALL:
            return r
    if op == "+=" and isinstance(old, list):
        return joined(it, old, new if isinstance(new, list) else [new], node.span)
    if op == "-=" and isinstance(old, list):
        drop = new if isinstance(new, list) else [new]
        spend(it, len(old) * max(len(drop), 1), node.span)  # the comparisons made
        return [x for x in old if not contains(drop, x)]
    if op == "+=" and isinstance(old, str) and isinstance(new, str):
        return joined(it, old, new, node.span)
    for v in (old, new):
        if isinstance(v, bool) or not isinstance(v, int):
            raise RuleError(f"'{op}' needs numbers, got {it.describe(v)}", node.span)
    return checked_number(it, old + new if op == "+=" else old - new if op == "-=" else old * new, node.span)


def _clamp(it: "Interp", name: str, value: Any, who: Any = None) -> Any:
    """A value assigned to a track, within its bounds (for its owner `who`: bounds may be expressions)."""
    track = it.r.tracks.get(name)
    if track is None or not isinstance(value, int) or isinstance(value, bool):
        return value
    lo, hi = track.min, track.max
    if (lo is not None and lo.__class__ is not int) or (hi is not None and hi.__class__ is not int):
        lo, hi = track_bounds(it, name, track, who)
    if lo is not None and value < lo:
        value = lo
    if hi is not None and value > hi:
        value = hi
    return value


def _assign(it: "Interp", node: A.Assign, env: dict) -> None:
    target = node.target
    value = it.ev(node.value, env)
    if isinstance(target, A.Name):
        name = target.id
        if name in env:
            env[name] = _combine(it, node.op, env[name], value, node)
            return
        assign_global(it, node, value)
        return
    if isinstance(target, A.Attr):
        assign_attr(it, node, value, it.ev(target.obj, env))
        return
    raise RuleError("cannot assign to this expression", target.span)


def assign_attr(it: "Interp", node: A.Assign, value: Any, obj: Any) -> None:
    """`OBJ.NAME op= value`, the value and the object evaluated in that order: a player's variable or a
    piece's attribute."""
    s, name = it.s, node.target.name
    if isinstance(obj, Player) and name in it.r.player_var_names:
        d = s.pvars[obj]
        d[name] = _clamp(it, name, _combine(it, node.op, d.get(name), value, node), obj)
        s.version += 1
        return
    if isinstance(obj, PieceRef):
        old = s.attrs[obj.id].get(name)
        new = it.r.coerce_attr(s.kinds[obj.id], name, _combine(it, node.op, old, value, node))
        s.set_attr(obj.id, name, new)
        return
    raise RuleError(f"cannot assign to attribute '{name}' of {it.describe(obj)}", node.target.span)


def combine(it: "Interp", node: A.Assign, old: Any, new: Any) -> Any:
    """The new value of `old op= new` (`=`, `+=`, `-=`, `*=`), with the language's checks."""
    return _combine(it, node.op, old, new, node)


def assign_global(it: "Interp", node: A.Assign, value: Any) -> None:
    """`NAME op= value` where NAME is not a local name: a spec variable (clamped if it is a track)."""
    name, s = node.target.id, it.s
    if it.r.names.get(name, (None,))[0] == "var":
        s.vars[name] = _clamp(it, name, _combine(it, node.op, s.vars.get(name), value, node))
        s.version += 1
        return
    raise RuleError(f"cannot assign to '{name}': not a variable or local name", node.target.span)


# --------------------------------------------------------------- control


def _if(it: "Interp", node: A.If, env: dict) -> None:
    for cond, body in node.branches:
        if it.truth(cond, env):
            it.run(body, env)
            return
    if node.else_ is not None:
        it.run(node.else_, env)


def for_items(it: "Interp", node: A.For, env: dict) -> list:
    """The items a `for` goes through: filtered by its `where`, ordered by its `order by` (env[var] is left
    at the last item looked at)."""
    items = [v for v in it.iterate(it.ev(node.iter, env), node.iter.span)]
    if node.cond is not None:
        kept = []
        for v in items:
            env[node.var] = v
            if it.truth(node.cond, env):
                kept.append(v)
        items = kept
    if node.order_key is not None:
        keyed = []
        for i, v in enumerate(items):
            env[node.var] = v
            keyed.append((it.ev(node.order_key, env), i, v))
        sort_keyed(keyed, node.descending, node.order_key.span)
        items = [t[-1] for t in keyed]
    return items


def sort_keyed(keyed: list, descending: bool, span: Any) -> None:
    """Sort (key, ..., item) entries by their keys, stably (ties keep the domain's order, `desc` too); keys
    that do not compare with each other are a located error (as `sorted()`'s)."""
    try:
        keyed.sort(key=_first, reverse=descending)
    except TypeError as exc:
        raise RuleError(f"order by: {exc}", span) from None


def _first(t: tuple) -> Any:
    return t[0]


def _for(it: "Interp", node: A.For, env: dict) -> None:
    items = for_items(it, node, env)
    if node.chooser is not None:
        cannot_ask(it, node, env)
    for v in items:
        it.tick(node.span)
        env[node.var] = v
        it.run(node.body, env)


def _while(it: "Interp", node: A.While, env: dict) -> None:
    while it.truth(node.cond, env):
        it.tick(node.span)
        it.run(node.body, env)


def _repeat(it: "Interp", node: A.Repeat, env: dict) -> None:
    n = it.ev(node.count, env)
    if isinstance(n, bool) or not isinstance(n, int):
        raise RuleError(f"repeat needs a number, got {it.describe(n)}", node.count.span)
    for _ in range(n):
        it.tick(node.span)
        it.run(node.body, env)


def cannot_ask(it: "Interp", node: A.Stmt, env: dict) -> None:
    """A statement that asks a player, met where the engine cannot suspend (the resumable engine,
    engine/frames.py, walks every block that may ask: only a block outside its reach gets here)."""
    raise RuleError("this statement asks a player something where nobody can be asked (only actions, setup, "
                    "hooks, triggers and procedures can ask)", node.span)


def _filter(it: "Interp", var: str, domain: list, cond: Any, env: dict, why: Any) -> tuple[list, list]:
    """Split a domain into the values passing `cond` and the rejected ones with a reason (per value)."""
    if cond is None:
        return list(domain), []
    values, rejected = [], []
    saved, it.memo = it.memo, {}  # only expressions run here: pure functions may remember results
    split = it.fast.filters.get((id(cond), var)) if it.fast is not None else None
    try:
        fixed = why.value if why.__class__ is A.Literal and why.value.__class__ is str else why
        if split is not None and (fixed is None or fixed.__class__ is str):
            # the compiled loop; a fixed reason is the same for every value it drops
            values, dropped = split(it, env, domain)
            reason = fixed or f"it does not satisfy the rule at {cond.span}"
            rejected = [(v, reason) for v in dropped]
        else:
            test = it.tester(cond)
            for v in domain:
                env[var] = v
                if test(env):
                    values.append(v)
                else:
                    reason = message_text(it, why, env) if why is not None else None
                    rejected.append((v, reason or f"it does not satisfy the rule at {cond.span}"))
    finally:
        it.memo = saved
    return list(values), list(rejected)


def message_text(it: "Interp", node: Any, env: dict) -> str | None:
    """A message written as text or as an expression (evaluated now), or None."""
    if node is None:
        return None
    if isinstance(node, str):
        return node
    v = it.ev(node, env)
    return v if isinstance(v, str) else it.label(v)


def _require(it: "Interp", node: A.Require, env: dict) -> None:
    if not it.truth(node.cond, env):
        raise RequireFailed(message_text(it, node.message, env) or "a requirement of this rule is not met",
                            node.span, env.get("__rule__"))


# ---------------------------------------------------------------- pieces


def _check_capacity(it: "Interp", place: Any, adding: int, span: Any) -> None:
    zname = place.zone if isinstance(place, Cell) else place.name
    if zname == BOX.name:
        return
    info = it.r.zones[zname]
    cap = info.decl.capacity
    if cap is not None and cap.__class__ is not int:  # an expression, for the place's owner (bounds.py)
        owner = place.owner if info.per_player else None  # (a `per:` zone's rule text is its family's)
        cap = bound_value(it, ("components", "zones", info.family, "capacity"), None if owner is None else Player(owner))
    if cap is not None and len(it.s.contents(place)) + adding > cap:
        raise RequireFailed(f"{it.label(place)} can hold at most {cap}", span)


def _move(it: "Interp", node: A.Move, env: dict) -> None:
    pids = it.as_pieces(it.ev(node.what, env), node.what.span)
    move_to(it, node, pids, it.ev(node.dest, env))


def move_to(it: "Interp", node: A.Move, pids: list[int], dest: Any) -> None:
    """The rest of `move WHAT to DEST` once WHAT is pieces and DEST is evaluated (in that order)."""
    dest = it.as_place(dest, node.dest.span)
    _check_capacity(it, dest, len([p for p in pids if it.s.loc[p] != dest]), node.span)
    for pid in pids:
        it.s.move(pid, dest, bottom=node.position == "bottom")


def creatable(it: "Interp", node: A.Create) -> Any:
    """The kind a `create` makes, or RuleError if it names no unlimited kind."""
    kind = it.r.kinds.get(node.kind)
    if kind is None:
        raise RuleError(f"unknown piece kind '{node.kind}'", node.span)
    if not kind.decl.unlimited:
        raise RuleError(f"piece kind '{node.kind}' is counted; only unlimited kinds can be created", node.span)
    return kind


def _create(it: "Interp", node: A.Create, env: dict) -> None:
    creatable(it, node)
    values = tuple(it.ev(v, env) for _, v in node.attrs.items) if node.attrs is not None else ()
    ref = create_with(it, node, values, it.ev(node.dest, env))
    if node.bind:
        env[node.bind] = ref


def create_with(it: "Interp", node: A.Create, values: tuple, dest: Any) -> PieceRef:
    """The rest of `create KIND {attrs} in DEST` once the attribute values and DEST are evaluated (in that
    order, after `creatable`): the new piece."""
    kind = it.r.kinds[node.kind]
    attrs = dict(kind.defaults)
    if node.attrs is not None:
        for (k, _), v in zip(node.attrs.items, values):
            attrs[k] = it.r.coerce_attr(node.kind, k, v)
    dest = it.as_place(dest, node.dest.span)
    _check_capacity(it, dest, 1, node.span)
    if len(it.s.kinds) >= it.limits.pieces:
        raise RunawayError(f"more than {it.limits.pieces} pieces (limit pieces); raise it with --limit pieces=N",
                           node.span)
    return it.s.new_piece(node.kind, attrs, dest)


def _destroy(it: "Interp", node: A.Destroy, env: dict) -> None:
    destroy(it, node, it.ev(node.what, env))


def destroy(it: "Interp", node: A.Destroy, what: Any) -> None:
    """`destroy WHAT` once WHAT is evaluated: its pieces go to the box."""
    for pid in it.as_pieces(what, node.what.span):
        it.s.move(pid, BOX)


def _draw(it: "Interp", node: A.Draw, env: dict) -> None:
    n = it.ev(node.count, env)
    if isinstance(n, bool) or not isinstance(n, int):
        raise RuleError(f"draw needs a number, got {it.describe(n)}", node.count.span)
    src = it.as_place(it.ev(node.source, env), node.source.span)
    dest = it.as_place(it.ev(node.dest, env), node.dest.span)
    at_random = isinstance(src, ZoneRef) and it.r.zones[src.name].type == "bag"
    drawn: list[PieceRef] = []
    for _ in range(max(n, 0)):
        lst = it.s.contents(src)
        if not lst:
            break
        pid = lst[it.s.rng.below(len(lst))] if at_random else lst[-1]
        _check_capacity(it, dest, 1, node.span)
        it.s.move(pid, dest)
        drawn.append(PieceRef(pid))
    if node.bind:
        env[node.bind] = drawn


def _shuffle(it: "Interp", node: A.Shuffle, env: dict) -> None:
    place = it.as_place(it.ev(node.zone, env), node.zone.span)
    if it.s.places.get(place):
        lst = it.s.writable(place)
        it.s.rng.shuffle(lst)
        it.s._touch(place)


def _swap(it: "Interp", node: A.Swap, env: dict) -> None:
    a = it.as_place(it.ev(node.a, env), node.a.span)
    b = it.as_place(it.ev(node.b, env), node.b.span)
    it.s.swap_places(a, b)


# ---------------------------------------------------------------- events


def _emit(it: "Interp", node: A.Emit, env: dict) -> None:
    data = Record((k, it.ev(v, env)) for k, v in node.kwargs)
    if node.args:
        data["args"] = [it.ev(a, env) for a in node.args]
    emit(it, node.event, data, node.span)


def emit(it: "Interp", event: str, data: Record | None = None, span: Any = None) -> None:
    """Run every trigger listening to `event`, in declaration order."""
    triggers = it.r.event_triggers.get(event)
    pieces = it.r.abilities is not None and event in it.r.abilities.events  # (abilities run after triggers)
    if not triggers and not pieces:
        return
    it.emit_depth += 1
    if it.emit_depth > it.limits.emit_depth:
        raise RunawayError(f"events nested more than {it.limits.emit_depth} deep while emitting '{event}' "
                           f"(limit emit_depth); raise it with --limit emit_depth=N", span)
    try:
        record = Record(data or {})
        record.setdefault("name", event)
        record.setdefault("player", it.current())
        track = it.r.track_causes
        if track:
            record.setdefault("cause", causes.current(it))
        snapshot = pending(it, event) if pieces else None  # (live when emitted; re-checked before each runs)
        if event in it.r.owned_events:  # some belong to players: grouped by owner (reference/triggerorder.py)
            triggers = in_order(it, triggers, record)
        for trig in triggers or ():
            if trig.phases is not None and not in_phase(it, trig):
                continue
            env = {"event": record}
            if it.truth(trig.when, env) if trig.fires is None else fires(it, trig, env):
                if track:
                    causes.enter(it, causes.of_event_trigger(it, record, trig))
                it.run(trig.effect, env)
        if track:
            causes.enter(it, record["cause"])  # (pieces' abilities run as caused by the event itself)
        if snapshot:
            run_all(it, record, snapshot)
    finally:
        it.emit_depth -= 1


def in_phase(it: "Interp", trig: Any) -> bool:
    """Whether a trigger scoped to phases (`phase:`) is live: the current phase is one of them."""
    phases = it.r.phases
    c = it.s.cursor.phase
    return c < len(phases) and phases[c].name in trig.phases


def fires(it: "Interp", trig: Any, env: dict) -> bool:
    """Whether a trigger with `max_fires` fires now: its count for the acting player is not spent and its
    `when` holds (tested after the count, so a spent trigger's condition is not evaluated); if so the
    firing is counted.  A firing is never a use: `uses()` of an action's key does not see it."""
    if used(it.s, trig.fires, it.current()) >= trig.fires.times:
        return False
    if not it.truth(trig.when, env):
        return False
    count_use(it.s, trig.fires, it.current())
    return True


def settle(it: "Interp", span: Any = None, after_action: bool = False) -> int:
    """Fire state triggers until none matches (the cascade); return how many fired.  `after_action`: the
    cascade the flow resolves after a step's action, which belongs to that action's root of causes."""
    s = it.s
    triggers = it.r.state_triggers
    if not triggers:
        return 0
    if it.settling:
        raise RuleError("`settle` inside a cascade: the cascade already resolves until nothing matches", span)
    it.settling = True
    watch = getattr(it.r, "cascade_watch", None)  # benchmarks capture the positions cascades start from
    before = s.clone() if watch is not None else None
    if it.r.track_causes and it.top_action is None and not after_action:
        causes.new_root(it)  # a cascade outside any action: its own root
    try:
        fired = _cascade(it, triggers)
    finally:
        it.settling = False
    if before is not None and fired:
        watch(before)
    return fired


def _cascade(it: "Interp", triggers: list) -> int:
    s = it.s
    s.cascade = 0
    first_seen: dict[tuple, int] = {}  # (trigger, binding) -> scan in which it started to match: `matched_at`
    scan = 0
    outer = it.cause
    fired: list = []  # each scan's firing's cause (causes.of_firing)
    while True:
        scan += 1
        best = cascade_scan(it, first_seen, scan)
        if best is None:
            break
        if it.r.track_causes:
            causes.enter(it, causes.of_firing(it, best[0], best[1], fired, outer))
            best[1]["cause"] = it.cause
            fired.append(it.cause)
        it.run(best[0].effect, best[1])
    if it.r.track_causes:
        causes.enter(it, outer)
    if s.cascade:
        s.cascades = {**s.cascades, s.cascade: s.cascades.get(s.cascade, 0) + 1}  # (replaced: clones share it)
        emit(it, "cascade_end", Record(count=s.cascade))
    return s.cascade


def cascade_scan(it: "Interp", first_seen: dict[tuple, int], scan: int) -> tuple[Any, dict] | None:
    """One scan of a cascade: the state trigger that fires next and its env (None: the cascade is over).

    The match that fires is the smallest (order key, declaration order, domain order); `first_seen` keeps,
    per (trigger, binding), the scan in which it started to match (`matched_at`), and the firing is
    counted against the cascade limit.
    """
    s = it.s
    triggers = it.r.state_triggers
    best = None
    still: set[tuple] = set()
    scans = it.scans
    limited = it.r.fire_limited
    for ti, trig in enumerate(triggers):
        if trig.phases is not None and not in_phase(it, trig):
            continue
        if limited and trig.fires is not None and used(s, trig.fires, it.current()) >= trig.fires.times:
            continue  # (max_fires spent in this scope instance: as if its `when` were false)
        for env, i in (scans[ti](it) if scans is not None else _matches(it, trig)):
            mkey = (ti, _binding_key(env.get(trig.var)) if trig.var else None)
            still.add(mkey)
            env["matched_at"] = first_seen.setdefault(mkey, scan)
            key = 0 if trig.order is None else it.ev(trig.order, env)
            cand = (key, ti, i)  # order key, then declaration order, then domain order
            try:
                better = best is None or cand < best[0]
            except TypeError:
                raise RuleError(f"the order keys of state triggers '{best[1].name}' and '{trig.name}' cannot be "
                                f"compared ({it.describe(best[0][0])} vs {it.describe(key)}); give both "
                                f"`order:` keys of the same kind", trig.span) from None
            if better:
                best = (cand, trig, env)
    for gone in set(first_seen) - still:  # a match that stopped holding starts afresh if it comes back
        del first_seen[gone]
    if best is None:
        return None
    s.cascade += 1
    if s.cascade > it.limits.cascade:
        trig = best[1]
        raise RunawayError(f"trigger '{trig.name}' keeps firing: more than {it.limits.cascade} firings in one "
                           f"cascade (limit cascade); raise it with --limit cascade=N", trig.span)
    if best[1].fires is not None:
        count_use(s, best[1].fires, it.current())
    fired = (triggers.index(best[1]), _binding_key(best[2].get(best[1].var)) if best[1].var else None)
    first_seen.pop(fired, None)  # the match is consumed: if it holds again later, it queues anew
    return best[1], best[2]


def _binding_key(v: Any) -> Any:
    try:
        hash(v)
        return v
    except TypeError:  # lists and the like: compare by their printed form
        return repr(v)


def _matches(it: "Interp", trig: Any):
    """(env, domain position) for each binding of a state trigger whose condition holds."""
    if trig.var is None:
        env: dict[str, Any] = {}
        if it.truth(trig.when, env):
            yield env, 0
        return
    for i, v in enumerate(it.iterate(it.ev(trig.domain, {}), trig.span)):
        env = {trig.var: v}
        if it.truth(trig.when, env):
            yield env, i


def _settle(it: "Interp", node: A.Settle, env: dict) -> None:
    settle(it, node.span)


def _end_game(it: "Interp", node: A.EndGame, env: dict) -> None:
    raise GameEnded(node.name)


def _pass(it: "Interp", node: A.Pass, env: dict) -> None:
    c = it.s.cursor
    c.passed = c.passed | {c.current}  # the acting player passes; the turn ends only when it is theirs (replaced:
    # clones share the set)
    if c.current == c.turn_player:
        c.end_turn = True


def _end_turn(it: "Interp", node: A.EndTurn, env: dict) -> None:
    it.s.cursor.end_turn = True


def _say(it: "Interp", node: A.Say, env: dict) -> None:
    # Built only when someone reads the narration (dsl.md 4.21), so it must not change the game: its text
    # counts against a loop budget of its own and an error in it is told, not raised.
    if not it.narrate:
        return
    saved, it.loops = it.loops, 0
    try:
        v = it.ev(node.message, env)
        line = v if isinstance(v, str) else it.label(v)
    except OrreryError as failed:
        line = untold(failed)
    finally:
        it.loops = saved
    it.s.msgs.append(line)


def _call_proc(it: "Interp", node: A.CallProc, env: dict) -> None:
    call_with(it, node, call_args(it, node, env))


def call_args(it: "Interp", node: A.CallProc, env: dict) -> dict:
    """The env a `call NAME(args)` gives the procedure: its arguments evaluated in order."""
    proc = it.r.procedures.get(node.name)
    if proc is None:
        raise RuleError(f"unknown procedure '{node.name}'", node.span)
    params = proc[0]
    local = {p: it.ev(a, env) for p, a in zip(params, node.args)}
    for k, v in node.kwargs:
        local[k] = it.ev(v, env)
    return local


def enter_call(it: "Interp", node: A.CallProc) -> None:
    """A procedure call starts: one loop tick, one level deeper (limit emit_depth)."""
    it.tick(node.span)
    it.call_depth += 1
    if it.call_depth > it.limits.emit_depth:
        raise RunawayError(f"procedure '{node.name}' calls nested more than {it.limits.emit_depth} deep "
                           f"(limit emit_depth); raise it with --limit emit_depth=N", node.span)


def call_with(it: "Interp", node: A.CallProc, local: dict) -> None:
    """`call NAME(args)` of a known procedure once its arguments are evaluated (the procedure's env)."""
    body = it.r.procedures[node.name][1]
    enter_call(it, node)
    try:
        it.run(body, local)
    finally:
        it.call_depth -= 1


# ---------------------------------------------------------------- actions


def check_action(it: "Interp", action: "ActionInfo", count_limit: bool = True, costs: bool = True) -> list | None:
    """Raise RequireFailed if the acting player may not start this action now: its limit (count_limit), its
    condition, then (costs) the amounts of its costs that read no parameter, which are returned (a menu shows
    them; the action computes them again when it pays, costs/pay)."""
    refused = action_refusal(it, action, count_limit)
    if refused is not None:
        raise refused.failed()
    return action_price(it, action) if costs else None


def action_price(it: "Interp", action: "ActionInfo") -> list | None:
    """The amounts of an action's costs that read no parameter (None: it has none); RequireFailed if the acting
    player cannot pay them."""
    if not action.cost:
        return None
    got = amounts(it, action.cost, {})
    check_amounts(it, action, got, it.current())
    return got


def action_refusal(it: "Interp", action: "ActionInfo", count_limit: bool = True) -> Refusal | None:
    """Why the acting player may not start this action now by its limit (count_limit) or its condition, as a
    refusal made once per action (menus record it without raising or writing it out); None if both allow it."""
    limit = action.limit  # (one counted per value of a parameter is checked on that parameter's menu: spent_values)
    if count_limit and limit is not None and limit.each is None and used(it.s, limit, it.current()) >= limit.times:
        return action.refusal("limit")
    during = action.during  # (a piece's ability limited to phases: its condition `phase in [...]` as a set)
    if during is not None:
        c, phases = it.s.cursor, it.r.phases
        allowed = c.phase < len(phases) and phases[c.phase].name in during
    else:
        allowed = action.condition is None or it.truth(action.condition, {})
    return None if allowed else action.refusal("condition")


def param_values(it: "Interp", action: "ActionInfo") -> tuple[list, list]:
    """The first parameter's legal values and rejected ones, as the action would offer them now;
    RequireFailed (the parameter's reason) when there is none."""
    menu = param_menu(it, action)
    if menu.__class__ is Refusal:
        raise menu.failed()
    return menu


def param_menu(it: "Interp", action: "ActionInfo") -> tuple[list, list] | Refusal:
    """The first parameter's legal values and rejected ones, as the action would offer them now, or the
    refusal (the parameter's reason) when there is none (param_values raises it)."""
    p = action.params[0]
    env: dict[str, Any] = {"__rule__": action.rule}
    domain = it.iterate(it.ev(p.domain, env), p.domain.span)
    values, rejected = _filter(it, p.name, domain, p.where, env, p.why)
    why = p.why
    if action.limit is not None and action.limit.each == p.name:
        values, rejected, why = spent_values(it, action, values, rejected, why)
    if not values:
        return Refusal(why or (rejected[0][1] if rejected else f"there is no legal choice for '{p.name}'"),
                       p.span, action.rule)
    return values, rejected


def spent_values(it: "Interp", action: "ActionInfo", values: list, rejected: list,
                 why: str | None) -> tuple[list, list, str | None]:
    """The values of the parameter an action's limit counts apart (`limit: {each: NAME}`), without those the
    acting player has used up in the scope instance in progress (each rejected with the limit), and the reason
    for an empty menu: the limit's when it took the last values, else `why`."""
    limit, me = action.limit, it.current()
    keep = []
    spent = False
    for v in values:
        if v is not None and used(it.s, limit, me, value_key(limit, v)) >= limit.times:
            times = f"{limit.times} time{'s' if limit.times != 1 else ''} per {limit.per}"
            rejected = rejected + [(v, f"'{action.label}' with {it.label(v)} can be done at most {times}")]
            spent = True
        else:
            keep.append(v)
    if spent and not keep:
        why = (f"'{action.label}' can be done at most {limit.describe()}: every {limit.noun or limit.each} it could "
               f"be done with was used")
    return keep, rejected, why


EXEC: dict[type, Callable[["Interp", Any, dict], None]] = {
    A.Let: _let,
    A.Assign: _assign,
    A.If: _if,
    A.For: _for,
    A.While: _while,
    A.Repeat: _repeat,
    A.Choose: cannot_ask,
    A.Commit: cannot_ask,
    A.Require: _require,
    A.Move: _move,
    A.Create: _create,
    A.Destroy: _destroy,
    A.Draw: _draw,
    A.Shuffle: _shuffle,
    A.Swap: _swap,
    A.Emit: _emit,
    A.EndGame: _end_game,
    A.Settle: _settle,
    A.Pass: _pass,
    A.EndTurn: _end_turn,
    A.Say: _say,
    A.CallProc: _call_proc,
    A.Perform: cannot_ask,
    A.Open: cannot_ask,
    A.Use: use_now,
}

__all__ = ["EXEC", "emit", "fires", "settle", "param_values", "check_action", "cascade_scan", "cannot_ask",
           "spent_values", "action_refusal", "action_price", "param_menu"]
