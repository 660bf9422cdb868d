"""Rules summaries that read like a rulebook (`explain_text`) and the changes its variants make (`explain_diff`).

`explain_text` writes Markdown in a rulebook's order: overview, components, setup, a round, actions,
automatic rules, scoring, end of the game, then the glossary and the notes (invariants, bot hints,
assumptions). Conditions and effects are phrased in words by `explain_prose.Phraser`; the author's own
text (descriptions, labels, rulebook passages, `why`) is used wherever the spec has it.
`explain_format.py` renders the Markdown as plain text, Markdown or HTML. `--diff` shows every value whole.
"""

from __future__ import annotations

import math
import re
from typing import Any

import yaml

from orrery.rulespec import ast as A
from orrery.rulespec.gamespec import GameSpec
from orrery.rulespec.models import AttrDecl, PieceKind, PhaseDecl, Spec, attr_values

from .explain_format import md_table as _table
from .explain_prose import Phraser, code, words
from .explain_constants import constants_section
from .explain_windows import windows_section
from .explain_abilities import abilities_text
from .explain_quantities import quantity_entries

INDENT = "    "
MAX_LINE = 100  # a value longer than this on one line is shown as a block (never cut: --diff is complete)
EFFECT_BUDGET = 5  # generated lines shown for an effect the author also describes in words
INSTANCE_TABLE = 40
MAX_ASSUMPTIONS = 12  # more than this: plain clarifications are listed by id only  # instances with a text longer than this are listed as a table (a card list)

_CHECK_WORDS = {
    "immediate": "as soon as it holds",
    "end_of_turn": "at the end of each turn",
    "end_of_phase": "at the end of each phase",
    "end_of_round": "at the end of each round",
}


# ------------------------------------------------------------------ helpers


def source_text(value: Any) -> str:
    """Rule text as written: strings stripped, lists of statements one per line, numbers and booleans as words."""
    if value is None:
        return ""
    if isinstance(value, list):
        return "\n".join(source_text(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip()


def _get(data: Any, *path: Any) -> Any:
    """The raw value at a path of the merged data, or None."""
    for step in path:
        ok = (step in data) if isinstance(data, dict) else (
            isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data))
        if not ok:
            return None
        data = data[step]
    return data


def _plural(n: int, word: str) -> str:
    """`1 piece`, `3 pieces`."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _limit_text(limit: Any, lead: str) -> str:
    """`At most 2 times per round, counted together as “plays”` (a `limit:` or `max_fires:`)."""
    shared = f", counted together as “{words(limit.key)}”" if limit.key else ""
    each = f" for each {words(limit.each)}" if getattr(limit, "each", None) else ""
    return f"{lead} {_plural(limit.times, 'time')} per {limit.per}{each}{shared}"


def _join(items: list[str], last: str = "and") -> str:
    """`a`, `a and b`, `a, b and c`."""
    items = [i for i in items if i]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1] if items else ""


def _said(text: str | None) -> str:
    """Author text as one paragraph (stripped, whitespace collapsed)."""
    return " ".join((text or "").split())


def _stop(text: str) -> str:
    """Author text ending in a full stop."""
    text = _said(text)
    return text if not text or text.endswith((".", "!", "?", ")", "”", '"')) else text + "."


def _attr_text(name: str, decl: AttrDecl | list | str) -> str:
    """`name (type)` or `name: a/b/c` for an attribute declaration."""
    if isinstance(decl, str):
        return f"{words(name)} ({decl})"
    values = decl if isinstance(decl, list) else decl.values
    kind = "" if isinstance(decl, list) else decl.type if decl.type != "any" else (
        f"a row of {decl.row}" if decl.row else f"record of {', '.join(decl.record)}" if decl.record is not None
        else "list" if decl.list_ is not None else decl.type)
    out = f"{words(name)}: {'/'.join(map(str, values))}" if values else f"{words(name)} ({kind})"
    default = None if isinstance(decl, list) else decl.default
    return out if default is None else f"{out}, default {default}"


def piece_count(kind: PieceKind, names: dict[str, list[str]]) -> int | None:
    """How many pieces of a kind exist (None: made on demand); `names`: the spec's sets of words."""
    if kind.unlimited:
        return None
    if kind.instances is not None:
        return sum(int(inst.get("count", kind.count)) for inst in kind.instances)
    sizes = [len(attr_values(d, names) or []) for d in kind.attributes.values()]
    return kind.count * math.prod(n for n in sizes if n)


def _seat(spec: Spec, p: int) -> str:
    """A seat by name and number, e.g. `X (seat 1)`."""
    names = spec.game.seat_names
    return f"{names[p]} (seat {p + 1})" if names and 0 <= p < len(names) else f"seat {p + 1}"


def _player_expr(spec: GameSpec, ph: Phraser, path: tuple, raw: Any) -> str:
    """A first-player value in words: a seat for a number, else the phrase."""
    text = source_text(raw)
    if text.isdigit():
        return _seat(spec.model, int(text))
    e = spec.expr(*path)
    return ph.expr(e) if e is not None else f"`{text}`"


class _Ctx:
    """What every section needs: the spec, its merged data and a phraser."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec, self.model, self.data = spec, spec.model, spec.merged.data
        self.ph = Phraser(spec)

    def cond(self, *path: Any, current: str = "you") -> str | None:
        """The condition at a data path in words, or None when there is none."""
        e = self.spec.expr(*path)
        return None if e is None else self.ph.speaking_of(current).cond(e)

    def value(self, *path: Any, current: str = "you") -> str | None:
        """The value at a data path in words, or None when there is none."""
        e = self.spec.expr(*path)
        return None if e is None else self.ph.speaking_of(current).expr(e)

    def effect(self, *path: Any, current: str = "you", depth: int = 0) -> list[str]:
        """The effect at a data path as Markdown list items."""
        return self.ph.speaking_of(current).block(self.spec.effect(*path), depth)

    def budgeted(self, path: tuple, authored: bool, current: str = "you") -> list[str] | None:
        """An effect in words; None when the author described it and the words would take over EFFECT_BUDGET lines."""
        lines = self.effect(*path, current=current)
        return None if authored and len(lines) > EFFECT_BUDGET else lines


# ------------------------------------------------------------------ sections


def _header(c: _Ctx) -> list[str]:
    """Title, players, source and variants."""
    g, p = c.model.game, c.model.game.players
    players = f"{p.min}" + (f"–{p.max}" if p.max != p.min else "")
    line = f"A game for {players} player{'' if players == '1' else 's'}" + (f" (default {p.default})" if p.default else "")
    line += f"; seats: {_join(list(g.seat_names))}." if g.seat_names else "."
    line += f" Source: {_stop(g.source)}" if g.source else ""
    out = [f"# {g.title or g.name}", "", line]
    out += [f"Variants applied: {', '.join(c.spec.variants)}."] if c.spec.variants else []
    return out


def _overview(c: _Ctx) -> list[str]:
    """What the game is about, how a turn goes and how it ends, in a few lines."""
    m = c.model
    out = ["## Overview"]
    if m.game.description:
        out += ["", _stop(m.game.description)]
    turn = [ph for ph in m.flow.phases if ph.steps]
    how = []
    if len(turn) == 1:
        steps = [_step_words(c, st) for st in turn[0].steps]
        how.append(f"Players take turns{_order_words(turn[0].order)}. On your turn: {_join(steps, 'then')}.")
    elif m.flow.phases:
        how.append(f"Each round has {_plural(len(m.flow.phases), 'phase')}: "
                   f"{_join([words(ph.name) for ph in m.flow.phases])}.")
    ends = [_said(e.description).split("; ")[0].rstrip(".") for e in m.end.values() if e.description]
    if ends:
        how.append(f"The game ends when {_join([_lower_first(x) for x in ends], 'or when')}.")
    return out + ([""] + [" ".join(how)] if how else [])


def _order_words(order: str) -> str:
    """` clockwise`, ` in snake order`: the turn order after `take turns`."""
    return {"by": " in an order set by the rules", "snake": " in snake order"}.get(order, f" {order}")


def _lower_first(text: str) -> str:
    """A sentence continued inside another: first letter lower case unless it starts a name."""
    first = text.split(" ", 1)[0]
    return text[:1].lower() + text[1:] if first in ("A", "An", "The", "Every", "Each", "All", "No", "Neither",
                                                    "Nobody", "One", "Both", "Any", "There", "Some", "It", "Its",
                                                    "Their", "Only", "When", "If", "Nothing") else text


def _step_words(c: _Ctx, st: Any) -> str:
    """A step of a turn: its name or actions, `(optional)` when it may be skipped."""
    acts = [c.ph.actions.get(a, words(a)) for a in st.actions]
    text = words(st.name) if st.name else _join(acts, "or")
    return text + (" (optional)" if st.optional else "") + (" (repeatable)" if st.repeat else "")


def _instances(name: str, k: PieceKind) -> list[str]:
    """Explicit pieces: a table when they carry text (a card list), else one line."""
    insts = k.instances or []
    longs = {key for i in insts for key, v in i.items() if isinstance(v, str) and len(v) > INSTANCE_TABLE}
    if longs:
        keys = [key for key in dict.fromkeys(key for i in insts for key in i) if key not in ("count", "abilities", *longs)]
        rows = [[_value_text(i.get(key, "")) for key in keys] + [" ".join(str(i.get(key, "")) for key in longs)]
                for i in insts]
        return ["", f"### The {words(name)} pieces"] + _table([words(key) for key in keys] + ["text"], rows)
    parts = [_instance_text(i, k.count) for i in insts]
    if all(p.split(" ×")[0].isdigit() for p in parts):
        return []  # numbers only (e.g. one piece per seat): the count says it all
    return ["", f"The {words(name)} pieces: {'; '.join(parts)}."]


def _instance_text(inst: dict[str, Any], default_count: int) -> str:
    """One explicit piece: its name, or its attribute values; `×n` for copies."""
    n = int(inst.get("count", default_count))
    fields = {k: v for k, v in inst.items() if k not in ("count", "abilities")}  # (a card's words tell its abilities)
    name = fields.pop("name", None)
    short = [_value_text(v) for v in fields.values()]
    text = str(name) + (f" ({', '.join(short)})" if short else "") if name is not None else " ".join(short)
    return f"{text} ×{n}" if n != 1 else text


def _value_text(v: Any) -> str:
    """A YAML value compactly: lists without brackets and quotes."""
    if isinstance(v, list):
        return "+".join(_value_text(x) for x in v)
    if isinstance(v, dict):  # a record: its fields in order, "(time 2, crystals 0)"
        return "(" + ", ".join(f"{k} {_value_text(x)}" for k, x in v.items()) + ")"
    return str(v)


def _components(c: _Ctx) -> list[str]:
    """Pieces, zones, tracks and variables, as tables."""
    m = c.model
    comp = m.components
    out = ["## Components"]
    if comp.pieces:
        rows = []
        for name, k in comp.pieces.items():
            n = piece_count(k, m.names)
            details = [_stop(k.description)] if k.description else []
            if k.attributes and not k.instances:
                details.append("Attributes: " + ", ".join(_attr_text(a, d) for a, d in k.attributes.items()) + ".")
            if k.state:
                details.append("State: " + "; ".join(_attr_text(a, d) + (f", back to it each {d.reset}"
                                                                         if getattr(d, "reset", None) else "")
                                                     for a, d in k.state.items()) + ".")
            details.append(abilities_text(m, name))
            rows.append([words(name), "as many as needed" if n is None else n, " ".join(d for d in details if d)])
        out += ["### Pieces"] + _table(["piece", "count", "details"], rows)
        for name, k in comp.pieces.items():
            if k.instances:
                out += _instances(name, k)
    if comp.zones:
        rows = []
        for name, z in comp.zones.items():
            rows.append([c.ph.zones[name].removeprefix("the "), _zone_kind(z), _stop(z.description or "")])
        out += ["", "### Places"] + _table(["place", "kind", "details"], rows)
    rows = []
    for name, t in comp.tracks.items():
        bounds = ("" if t.min is None and t.max is None else f"at least {t.min}" if t.max is None
                  else f"at most {t.max}" if t.min is None else f"{t.min} to {t.max}")
        start = c.value("components", "tracks", name, "start") or "0"
        rows.append([words(name), "each player" if t.per_player else "shared", start,
                     "; ".join(x for x in (bounds, _stop(t.description or "")) if x)])
    kept = []  # internal variables: the rules' bookkeeping, named in one line rather than as components
    for name, v in m.variables.items():
        if v.internal:
            said = _said(v.description or "").rstrip(".")
            said = said[:1].lower() + said[1:] if said[1:2].islower() else said
            kept.append(words(name) + (f" ({said})" if said else ""))
            continue
        start = c.value("variables", name, "start") or "—"
        hidden = {"public": "", "owner": "seen only by its owner", "hidden": "hidden"}[v.visibility]
        rows.append([words(name), "each player" if v.per_player else "shared", start,
                     "; ".join(x for x in (hidden, _stop(v.description or "")) if x)])
    if rows:
        out += ["", "### Counters and records"] + _table(["name", "kept by", "starts at", "details"], rows)
    if kept:
        out += ["", "The rules also keep some bookkeeping of their own: " + "; ".join(kept) + "."]
    return out


def _zone_kind(z: Any) -> str:
    """A zone's shape, ownership and visibility in a few words."""
    if z.type == "grid":
        shape = "grid without edges" if z.unbounded else f"{z.width}×{z.height} grid"
        shape += f", {z.adjacency} adjacency" + (", wrapping" if z.wrap else "")
    elif z.type == "graph":
        shape = (f"{'directed ' if z.directed else ''}graph of {_plural(len(z.nodes or []), 'node')}, "
                 f"{_plural(len(z.edges or []), 'edge')}")
    else:
        shape = z.type
    per = (f"one per key of {z.per}" if isinstance(z.per, str) else
           "one per key: " + ", ".join(map(str, z.per)) if z.per is not None else None)
    parts = [shape, "one per player" if z.per_player else per,
             {"public": None, "owner": "seen by its owner", "hidden": "hidden"}[z.visibility],
             f"holds at most {z.capacity}" if z.capacity is not None else None]
    if z.cell_attributes:
        parts.append("cells have " + ", ".join(_attr_text(k, v) for k, v in z.cell_attributes.items()))
    if z.edge_attributes:
        parts.append("edges have " + ", ".join(_attr_text(k, v) for k, v in z.edge_attributes.items()))
    return ", ".join(p for p in parts if p)


def _setup(c: _Ctx) -> list[str]:
    """Where pieces start, then the setup effect in words."""
    out = ["## Setup"]
    by_place: dict[str, list[str]] = {}
    for n, k in c.model.components.pieces.items():
        if k.start:
            by_place.setdefault(c.value("components", "pieces", n, "start") or "", []).append(words(n))
    starts = [f"the {_join(kinds)} pieces in {place}" for place, kinds in by_place.items()]
    unlimited = [words(n) for n, k in c.model.components.pieces.items() if k.unlimited]
    if starts:
        out += ["", f"Put {_join(starts)}."]
    if unlimited:
        out += ["", f"There is no fixed number of {_join(unlimited)} pieces: they are made as needed."]
    lines = c.effect("setup", current="the first player")
    out += lines
    if not starts and not lines:
        out += ["", "Nothing else to prepare."]
    return out


def turn_order_words(spec: GameSpec, ph: PhaseDecl, i: int) -> str:
    """A phase's turn order in words, e.g. `clockwise from the first player`."""
    c = _Ctx(spec)
    start = _get(spec.merged.data, "flow", "phases", i, "start")
    frm = "the first player" if start is None else _player_expr(spec, c.ph, ("flow", "phases", i, "start"), start)
    if ph.order == "by":
        key = c.value("flow", "phases", i, "order_by", current="the current player")
        return f"in order of {key}, smallest first"
    if ph.order == "snake":
        return f"in snake order (clockwise, then back) from {frm}"
    return f"{ph.order} from {frm}"


def _phase(c: _Ctx, i: int, ph: PhaseDecl, titled: bool) -> list[str]:
    """One phase: when, turn order, the steps of a turn, free actions, phase effects."""
    p = ("flow", "phases", i)
    out = ["", f"### {words(ph.name).capitalize()}"] if titled else []
    intro = [_stop(ph.description)] if ph.description else []
    when = c.cond(*p, "when", current="the first player")
    intro += [f"This phase is played only if {when}."] if when else []
    hooks = (("on_start", "At the start of the phase"), ("turn_start", "At the start of each turn"),
             ("turn_end", "At the end of each turn"), ("on_end", "At the end of the phase"))
    starts = [line for key, head in hooks[:2] for line in _hook(c, p + (key,), head)]
    if starts:
        out += ([" ".join(intro)] if intro else []) + starts
        intro = []
    if ph.steps:
        order = turn_order_words(c.spec, ph, i)
        turns = "each player takes one turn" if ph.turns == "once" else "players keep taking turns until all have passed"
        players = c.cond(*p, "players", current="the current player")
        intro.append(f"Turns go {order}; {turns}" + (f" (only players p for whom {players})" if players else "")
                     + ". On your turn:")
        out.append(" ".join(intro))
        intro = []
        for j, st in enumerate(ph.steps):
            notes = [w for w, on in (("optional", st.optional), ("repeat as often as you like", st.repeat)) if on]
            if st.repeat and st.max:
                notes[-1] = f"up to {_plural(st.max, 'time')}"
            swhen = c.cond(*p, "steps", j, "when")
            notes += [f"only if {swhen}"] if swhen else []
            acts = _join([c.ph.actions.get(a, words(a)) for a in st.actions], "or")
            name = f"{words(st.name).capitalize()}: " if st.name and words(st.name) != acts else ""
            step = name + acts[:1].upper() + acts[1:] if not name else name + acts
            out.append(f"{j + 1}. {step}" + (f" ({'; '.join(notes)})" if notes else "") + ".")
        if ph.free_actions:
            out.append(f"At any step you may also: {_join([c.ph.actions.get(a, words(a)) for a in ph.free_actions])}.")
    else:
        out.append(" ".join(intro + ["Nobody takes turns in this phase: it happens by itself."]))
        intro = []
    for key, head in hooks[2:]:
        out += _hook(c, p + (key,), head)
    return out


def _hook(c: _Ctx, path: tuple, head: str) -> list[str]:
    """A phase or round effect under its heading (nothing when absent)."""
    lines = c.effect(*path, current="the current player" if "turn" in path[-1] else "the first player")
    if not lines:
        return []
    if len(lines) == 1:
        return [f"{head}, {lines[0][2:][:1].lower()}{lines[0][3:]}"]
    return [f"{head}:"] + lines + [""]


def _flow(c: _Ctx) -> list[str]:
    """First player, then the round and its phases."""
    m = c.model
    f = m.flow
    first = _get(c.data, "flow", "first_player")
    out = ["## Playing a round",
           f"{_player_expr(c.spec, c.ph, ('flow', 'first_player'), 0 if first is None else first)} goes first"
           + ("; the first player passes clockwise after each round." if f.rotate_first_player else ".")]
    if len(f.phases) == 1 and not _get(c.data, "flow", "round_start"):  # one phase: one paragraph
        phase = _phase(c, 0, f.phases[0], titled=False)
        if phase and phase[0] and not phase[0].startswith(("-", "1.", "At ")):
            out[-1] += " " + phase.pop(0)
        out += phase
        end = _hook(c, ("flow", "round_end"), "At the end of each round")
        return _tidy(out + ([""] + end if end else []))
    if len(f.phases) > 1:
        out.append(f"Each round has {_plural(len(f.phases), 'phase')}: {_join([words(ph.name) for ph in f.phases])}.")
    start = _hook(c, ("flow", "round_start"), "At the start of each round")
    out += [""] + start if start else []
    for i, ph in enumerate(f.phases):
        out += _phase(c, i, ph, titled=len(f.phases) > 1)
    end = _hook(c, ("flow", "round_end"), "At the end of each round")
    out += [""] + end if end else []
    return _tidy(out)


def _tidy(lines: list[str]) -> list[str]:
    """No doubled or trailing blank lines."""
    out: list[str] = []
    for line in lines:
        if line == "" and (not out or out[-1] == ""):
            continue
        out.append(line)
    while out and out[-1] == "":
        out.pop()
    return out


def _actions(c: _Ctx) -> list[str]:
    """Each action: its passage or description, when it is allowed, what you choose, what happens."""
    out = ["## Actions"]
    if not c.model.actions:
        return out + ["", "There are no actions."]
    for name, a in c.model.actions.items():
        title = a.label or words(name)
        out += ["", f"### {title[:1].upper() + title[1:]}", ""]
        if a.rule:  # the rulebook's own words; else the author's description
            out.append(f"> {_said(a.rule)}")
        elif a.description:
            out.append(_stop(a.description))
        items = []
        cond = c.cond("actions", name, "condition")
        if cond:  # the author's reason, when given, says it best
            items.append(f"- Allowed only if {cond}." if not a.why else f"- Not allowed otherwise: {_stop(a.why)}")
        for var, _ in (_get(c.data, "actions", name, "cost") or {}).items():
            items.append(f"- It costs {c.value('actions', name, 'cost', var)} {words(var)}.")
        for pname, pd in a.params.items():
            dom = c.spec.expr("actions", name, "params", pname, "from")
            where = c.spec.expr("actions", name, "params", pname, "where")
            choice = c.ph.speaking_of("you").stmt(A.Choose(dom.span, pname, dom, where, None, None, pd.optional, None))
            line = choice[0] if choice else f"- You choose {pname}."
            extra = [f"otherwise: {_said(pd.why)}" if pd.why else None, f"“{_said(pd.prompt)}”" if pd.prompt else None]
            extra = [x for x in extra if x]
            items.append(line.rstrip(".") + (f" ({'; '.join(extra)})" if extra else "") + ".")
        if a.limit:
            items.append(f"- {_limit_text(a.limit, 'At most')}.")
        effect = c.budgeted(("actions", name, "effect"), bool(a.rule or a.description))
        items += ["- Nothing else happens."] if effect == [] else effect or []
        out += items
    return _tidy(out)


def _triggers(c: _Ctx) -> list[str]:
    """Event and state triggers: what sets them off, then what happens."""
    if not c.model.triggers:
        return []
    out = ["## Automatic rules", "These happen by themselves, whenever their moment comes."]
    for name, t in c.model.triggers.items():
        if t.on:
            head = f"When the event “{words(t.on)}” happens"
            when = c.cond("triggers", name, "when", current="the current player")
            head += f" and {when}" if when else ""
            owner = c.value("triggers", name, "owner", current="the current player")
            chooses = t.on in c.model.events and c.model.events[t.on].order == "owner_chooses"
            head += (f" (it belongs to {owner}: after the triggers of nobody, each player's resolve in turn, "
                     f"the acting player's first, {'in the order their owner chooses' if chooses else 'in this order'})"
                     if owner else "")
        else:
            binder = c.spec.expr("triggers", name, "for")
            head = "Whenever " + (c.cond("triggers", name, "when", current="the current player") or "true")
            if isinstance(binder, A.Binary) and binder.op == "in" and isinstance(binder.left, A.Name):
                head += f", for {c.ph.each(binder.left.id, binder.right)}"
            order_e = c.spec.expr("triggers", name, "order")
            keys = order_e.items if isinstance(order_e, A.ListLit) else (order_e,) if order_e is not None else ()
            order = _join([c.ph.speaking_of("the current player").expr(k) for k in keys], "then")
            head += f" (one at a time, in order of {order}, smallest first)" if order else ""
        if t.phase is not None:  # scoped to phases (with on: phase_end, to a phase's end)
            phases = [t.phase] if isinstance(t.phase, str) else t.phase
            head += " (only during " + _join([f"the {words(p)} phase" for p in phases], "or") + ")"
        out += ["", f"### {words(name).capitalize()}"]
        out += [_stop(t.description)] if t.description else []  # the author's account, then the passage
        out += [f"> {_said(t.rule)}"] if t.rule else []
        out += [f"- {_limit_text(t.max_fires, 'It happens at most')} (for each player who is acting)."] \
            if t.max_fires else []
        effect = c.budgeted(("triggers", name, "effect"), bool(t.rule or t.description), current="the current player")
        if effect is None:
            out.append(f"- {head}, as described above.")
        elif effect:
            out += [f"- {head}:"] + ["  " + line for line in effect]
        else:
            out.append(f"- {head}, nothing changes in the game (it is only announced).")
    return _tidy(out)


def _score_names(c: _Ctx) -> set[str]:
    """Names the score depends on: the score expressions, values added to the score, the functions they call."""
    m = c.model
    score = c.spec.expr("scoring", "score")
    target = score.name if isinstance(score, A.Attr) else "score"
    roots: list[A.Node] = [e for e in (score, *(c.spec.expr("ranking", "by", i) for i in range(len(m.ranking.by or []))))
                           if e is not None]
    for block in c.spec.effects.values():
        for node in block.walk():
            if isinstance(node, A.Assign) and isinstance(node.target, A.Attr) and node.target.name == target:
                roots.append(node.value)
    final = c.spec.effect("scoring", "final")
    roots += [final] if final is not None else []
    names: set[str] = set()
    while roots:
        for node in roots.pop().walk():
            ref = node.func if isinstance(node, A.Call) else node.id if isinstance(node, A.Name) else None
            if ref is not None and ref not in names:
                names.add(ref)
                body = c.spec.expr("functions", ref, "expr")
                roots += [body] if body is not None else []
    return names


def _lookup_table(name: str, t: Any) -> list[str]:
    """A table of the spec as a Markdown table, keys across (short) or down (long)."""
    pairs = list(enumerate(t.values)) if isinstance(t.values, list) else list(t.values.items())
    head = [f"{words(name).capitalize()}" + (f": {_stop(t.description)}" if t.description else "")]
    if len(pairs) <= 12:
        return head + _table(["key"] + [str(k) for k, _ in pairs], [["value"] + [_value_text(v) for _, v in pairs]])
    return head + _table(["key", "value"], [[k, _value_text(v)] for k, v in pairs])


def _scoring(c: _Ctx) -> list[str]:
    """The score, its tables, final scoring and the ranking."""
    m = c.model
    out = ["## Scoring", ""]
    has_score = "score" in m.components.tracks or "score" in m.variables
    score = c.value("scoring", "score", current="the player p")
    e = c.spec.expr("scoring", "score")
    plain = isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.id == "p"
    if plain:
        out.append("Each player keeps a score." if e.name == "score" else f"A player's score is their {words(e.name)}.")
    elif score:
        out.append(f"A player p's score is {score}.")
    elif has_score:
        out.append("Each player keeps a score.")
    else:
        out.append("No score is kept.")
    used = _score_names(c)
    for name, t in m.tables.items():
        if name in used:
            out += [""] + _lookup_table(name, t)
    final = c.effect("scoring", "final", current="the current player")
    out += ["", "At the end of the game:", ""] + final if final else []
    keys = [_rank_key(c, i) for i in range(len(m.ranking.by or []))]
    if not keys and (score or has_score):
        keys = ["the score"]
    ties = "tied players share the win" if m.ranking.ties == "share" else "a tie means nobody wins"
    if keys:
        out += ["", f"Players are ranked by {_join(keys, 'then by')}, largest first; {ties}."]
    return out


def _rank_key(c: _Ctx, i: int) -> str:
    """A ranking key in words: `p.score` reads `score`."""
    e = c.spec.expr("ranking", "by", i)
    if isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.id == "p":
        return words(e.name)
    return c.value("ranking", "by", i) or ""


def _end(c: _Ctx) -> list[str]:
    """Each end condition: the author's words, then when it holds and who wins, in one item."""
    out = ["## End of the game"]
    for name, e in c.model.end.items():
        when = c.cond("end", name, "when", current="the current player")
        check = f", checked {_CHECK_WORDS[e.check]}" if when else ""
        cond = f"when {when}{check}" if when else "when the rules above end the game this way"
        winners_e = c.spec.expr("end", name, "winners")
        if winners_e is None:
            winners = "the ranking decides"
        elif isinstance(winners_e, A.ListLit) and not winners_e.items:
            winners = "nobody wins"
        elif isinstance(winners_e, A.ListLit):
            winners = f"{c.ph.speaking_of('the current player').items(winners_e)} wins"
        else:
            winners = f"the winners are {c.ph.speaking_of('the current player').expr(winners_e)}"
        lead = _stop(e.description) + " " if e.description else ""
        out.append(f"- **{words(name).capitalize()}**: {lead}({_cap(cond)}; {winners}.)")
    return out


def _cap(text: str) -> str:
    """First letter in upper case."""
    return text[:1].upper() + text[1:]


def _glossary(c: _Ctx, above: str) -> list[str]:
    """The functions and procedures the text above names: the author's description, else a short phrase."""
    m = c.model
    out: list[str] = []
    for name, f in m.functions.items():
        if f"{name}(" not in above:
            continue
        if f.description:
            text = _stop(f.description)
        else:
            phrase = c.value("functions", name, "expr", current="the current player") or ""
            text = phrase + "." if len(phrase) <= 140 and phrase.count("`") <= 2 else \
                f"`{code(c.spec.expr('functions', name, 'expr'))}`"
        out.append(f"- `{name}({', '.join(f.param_names)})`: {text}")
    for name, p in m.procedures.items():
        if f"“{words(name)}”" not in above:
            continue
        lines = c.effect("procedures", name, "effect", current="the current player")
        text = _stop(p.description) if p.description else (
            lines[0][2:] if len(lines) == 1 else f"{_plural(len(lines), 'step')} (see the spec).")
        out.append(f"- “{words(name)}” ({', '.join(p.param_names)}): {text}")
    out += quantity_entries(c, above)
    if m.invariants:
        out.append("- Always true (`orrery simulate --check` checks these invariants): "
                   f"{'; '.join(words(n) for n in m.invariants)}.")
    return ["## Glossary", "Names used above, as the spec defines them:"] + out if out else []


def _bot_hints(c: _Ctx) -> list[str]:
    """The `bots:` hints: not rules, said so."""
    b = c.model.bots
    if b.heuristic is None and b.playout is None and b.iterations is None:
        return []
    out = ["## Hints for search bots", "", "Not rules: games play the same without them."]
    if b.heuristic is not None:
        out.append(f"- A position is judged by {c.value('bots', 'heuristic', current='the player p')}, "
                   f"from 0 (far from winning) to {b.heuristic_max} (as good as won).")
    if b.playout is not None:
        out.append("- Every new position is judged at once (no random playout)." if b.playout == 0 else
                   f"- Playouts play {b.playout} random decision{'' if b.playout == 1 else 's'} before that judgement.")
    if b.iterations is not None:
        out.append(f"- A search bot given no budget searches {b.iterations} iteration{'' if b.iterations == 1 else 's'} "
                   "per decision.")
    return out


def assumption_item(item: dict, source: str | None = None) -> str:
    """One assumption on one line: id, flags, choice and the passage it resolves."""
    flags = [f"other reading: variant {item['variant']}" if item.get("variant") else None,
             "designed: not in the rulebook" if item.get("designed") else None,
             f"from variant {source}" if source else None]
    flags = [f for f in flags if f]
    passage = _said(source_text(item.get("passage")))
    return (f"- **{item.get('id', '?')}**" + (f" ({'; '.join(flags)})" if flags else "") + ": "
            + _stop(source_text(item.get("choice"))) + (f" Passage: “{passage}”" if passage else ""))


def _assumption_line(item: dict, source: str | None = None) -> list[str]:
    """One assumption for --diff: id with flags, passage and choice."""
    flags = [f"variant with the other reading: {item['variant']}" if item.get("variant") else None,
             "designed: not in the rulebook" if item.get("designed") else None,
             f"from variant {source}" if source else None]
    flags = [f for f in flags if f]
    return [f"- {item.get('id', '?')}" + (f" ({'; '.join(flags)})" if flags else ""),
            f"  Passage: \"{source_text(item.get('passage'))}\"", f"  Choice: {source_text(item.get('choice'))}"]


def _assumptions(c: _Ctx) -> list[str]:
    """The spec's assumptions, then those the variants add; past MAX_ASSUMPTIONS, the plain clarifications by id."""
    items = [(a.model_dump(), None) for a in c.model.assumptions]
    for doc, path in c.spec.merged.assumptions:
        item = _get(doc.data, *path)
        if isinstance(item, dict):
            items.append((item, _get(doc.data, "variant", "name")))
    if not items:
        return []
    many = len(items) > MAX_ASSUMPTIONS
    full = [(i, s) for i, s in items if not many or i.get("variant") or i.get("designed") or s]
    rest = [str(i.get("id", "?")) for i, s in items if (i, s) not in full]
    out = ["## Assumptions", "", "Readings chosen where the rulebook is silent or unclear"
           + (" (those a variant reads otherwise, or that the rulebook lacks):" if rest else ":")]
    out += [assumption_item(i, s) for i, s in full]
    if rest:
        out += [f"- Also clarified ({len(rest)}; the spec's `assumptions:` give each passage and reading): "
                f"{', '.join(rest)}."]
    return out


SECTIONS = ("Overview", "Components", "Constants", "Setup", "Playing a round", "Actions", "Automatic rules", "Reaction windows",
            "Scoring", "End of the game", "Glossary", "Hints for search bots", "Assumptions")


def explain_text(spec: GameSpec) -> str:
    """A rules summary of a spec that reads like a rulebook, in a rulebook's order, as Markdown."""
    c = _Ctx(spec)
    sections = [_header(c), _overview(c), _components(c), constants_section(c), _setup(c), _flow(c), _actions(c),
                _triggers(c), windows_section(c, _said, _stop), _scoring(c), _end(c)]
    above = "\n".join("\n".join(s) for s in sections)
    sections += [_glossary(c, above), _bot_hints(c), _assumptions(c)]
    text = "\n\n".join("\n".join(s) for s in sections if s) + "\n"
    return re.sub(r"^(#{1,6} [^\n]*)\n\n", r"\1\n", text, flags=re.M)  # no blank line under a title


# ------------------------------------------------------------------ variants


def compact_value(value: Any, absent: str = "(none)") -> list[str]:
    """A value YAML-dumped compactly and completely: one line when it fits, else a block; nothing is cut."""
    if value is None:
        return [absent]
    if isinstance(value, str):
        return value.strip().splitlines() or [""]
    if isinstance(value, list) and all(isinstance(v, str) for v in value) and any("\n" in v for v in value):
        return [ln for v in value for ln in v.strip().splitlines()]  # an effect in parts (a variant's append)
    one = _dump(value, flow=True)
    if len(one) == 1 and len(one[0]) <= MAX_LINE:
        return one
    if isinstance(value, list) and not any(isinstance(v, (dict, list)) for v in value):
        return _dump(value, flow=True, width=MAX_LINE)  # a long list of scalars wraps, not one item a line
    return _dump(value, flow=False)


def _dump(value: Any, flow: bool, width: int | None = None) -> list[str]:
    """YAML lines of a value, in flow style (one line unless a width is given) or block style."""
    width = width or (10_000 if flow else MAX_LINE)
    text = yaml.safe_dump(value, default_flow_style=flow, sort_keys=False, allow_unicode=True, width=width)
    lines = text.rstrip("\n").splitlines()
    return lines[:-1] if lines and lines[-1] == "..." else lines


def _value_lines(label: str, value: Any, absent: str) -> list[str]:
    """`  old: value` on one line, or the label then an indented block."""
    lines = compact_value(value, absent)
    if len(lines) == 1:
        return [f"  {label}: {lines[0]}"]
    return [f"  {label}:"] + [INDENT + ln for ln in lines]


def explain_diff(spec: GameSpec) -> str:
    """Every change the applied variants make, grouped by variant, with old/new values and locations."""
    merged = spec.merged
    if not merged.variant_names and not merged.applied:
        return "no variants applied\n"
    out: list[str] = [f"# Variants of {spec.model.game.title or spec.name}"]
    docs = {_get(d.data, "variant", "name"): d for d in merged.variants}
    for name in merged.variant_names:
        doc = docs.get(name)
        meta = (_get(doc.data, "variant") if doc is not None else None) or {}
        out += ["", f"## variant {name}" + (f": {meta['title']}" if meta.get("title") else "")]
        out += [str(meta["description"]).strip()] if meta.get("description") else []
        out += [f"File: {doc.path}"] if doc is not None else []
        changes = [c for c in merged.applied if c.variant == name]
        if not changes:
            out.append("No changes.")
        for c in changes:
            out += ["", f"variant {name}: {c.op} {c.path}"]
            out += _value_lines("old", c.old, "(absent)" if c.op in ("add", "set") else "(none)")
            out += _value_lines("new", c.new, "(removed)" if c.op == "remove" else "(none)")
            if c.why:
                out.append(f"  why: {c.why.strip()}")
            out.append(f"  at: {c.span}")
            base_at = _base_location(spec, c.resolved, c.old)
            if base_at:
                out.append(f"  was: {base_at}")
        items = [_get(d.data, *p) for d, p in merged.assumptions if d is doc]
        items = [item for item in items if isinstance(item, dict)]
        out += ["", f"Assumptions of variant {name}:"] if items else []
        for item in items:
            out += _assumption_line(item)
    return "\n".join(out) + "\n"


def _base_location(spec: GameSpec, resolved: tuple, old: Any) -> str | None:
    """Where the replaced value is written in the base spec, when it is still there unchanged."""
    base = spec.merged.base
    if old is None or _get(base.data, *resolved) != old:
        return None
    return str(base.span(resolved))
