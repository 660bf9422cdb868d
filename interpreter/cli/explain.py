"""Readable rules summaries from a spec (`explain_text`) and the changes its variants make (`explain_diff`).

Written as Markdown (`#` headers, lists, code); `explain_format.py` renders it as plain text, Markdown or HTML.
Conditions and effects are quoted as written in the spec; `--diff` shows every value whole.
"""

from __future__ import annotations

import math
from typing import Any

import yaml

from orrery.rulespec.loader import GameSpec
from orrery.rulespec.models import AttrDecl, PieceKind, PhaseDecl, Spec, ZoneDecl

INDENT = "    "
MAX_LINE = 100  # a value longer than this on one line is shown as a block (never cut: --diff is complete)

_CHECK_WORDS = {
    "immediate": "immediately after anything happens",
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


def _code(value: Any) -> str:
    """An expression inline in backticks (multi-line text collapsed onto one line)."""
    return "`" + " ".join(source_text(value).split()) + "`"


def _block(value: Any, depth: int = 1) -> list[str]:
    """Effect text as an indented block (a Markdown code block)."""
    pad = INDENT * depth
    return [pad + line if line.strip() else "" for line in source_text(value).splitlines()]


def _plural(n: int, word: str) -> str:
    """`1 piece`, `3 pieces`."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _attr_text(name: str, decl: AttrDecl | list | str) -> str:
    """`name (type)` or `name: a/b/c` for an attribute declaration."""
    if isinstance(decl, str):
        return f"{name} ({decl})"
    values = decl if isinstance(decl, list) else decl.values
    out = f"{name}: {'/'.join(map(str, values))}" if values else f"{name} ({decl.type})"
    default = None if isinstance(decl, list) else decl.default
    return out if default is None else f"{out}, default {default}"


def piece_count(kind: PieceKind) -> int | None:
    """How many pieces of a kind exist (None: made on demand)."""
    if kind.unlimited:
        return None
    if kind.instances is not None:
        return sum(int(inst.get("count", kind.count)) for inst in kind.instances)
    sizes = [len(d if isinstance(d, list) else d.values or [])
             for d in kind.attributes.values() if not isinstance(d, str)]
    return kind.count * math.prod(n for n in sizes if n)


def _seat(spec: Spec, p: int) -> str:
    """A seat by name and number, e.g. `X (seat 1)`."""
    names = spec.game.seat_names
    return f"{names[p]} (seat {p + 1})" if names and 0 <= p < len(names) else f"seat {p + 1}"


def _player_expr(spec: Spec, raw: Any) -> str:
    """A first-player value in words: a seat for a number, else the expression."""
    text = source_text(raw)
    return _seat(spec, int(text)) if text.isdigit() else _code(raw)


# ------------------------------------------------------------------ sections


def _header(spec: GameSpec) -> list[str]:
    """Title, players, source, spec file and variants."""
    g, p = spec.model.game, spec.model.game.players
    line = f"Players: {p.min}" + (f"-{p.max}" if p.max != p.min else "")
    line += f" (default {p.default})" if p.default else ""
    line += f"; seats: {', '.join(g.seat_names)}" if g.seat_names else ""
    out = [f"# {g.title or g.name}", "", line] + ([f"Source: {g.source}"] if g.source else [])
    out.append(f"Spec: {spec.path} (game '{g.name}', version {g.version})")
    out += [f"Variants applied: {', '.join(spec.variants)}"] if spec.variants else []
    return out + (["", g.description.strip()] if g.description else [])


def _zone_text(name: str, z: ZoneDecl) -> str:
    """One zone: shape, ownership, visibility, capacity, cell attributes."""
    if z.type == "grid":
        shape = "unbounded grid" if z.unbounded else f"{z.width}×{z.height} grid"
        shape += f", {z.adjacency} adjacency" + (", wrapping edges" if z.wrap else "")
    elif z.type == "graph":
        shape = (f"{'directed ' if z.directed else ''}graph of {_plural(len(z.nodes or []), 'node')} and "
                 f"{_plural(len(z.edges or []), 'edge')}")
    else:
        shape = z.type
    parts = [shape, "one per player" if z.per_player else None,
             {"public": "visible to all", "owner": "seen only by its owner", "hidden": "hidden from everyone"}
             [z.visibility],
             f"holds at most {z.capacity}" if z.capacity is not None else None]
    out = f"- {z.label or name}: " + ", ".join(x for x in parts if x)
    if z.cell_attributes:
        out += "; cell attributes: " + ", ".join(_attr_text(k, v) for k, v in z.cell_attributes.items())
    if z.description:
        out += f". {z.description.strip()}"
    return out


def _instance_text(inst: dict[str, Any], default_count: int) -> str:
    """One explicit piece, as a card reads: its name, its short attributes in brackets, its text."""
    n = int(inst.get("count", default_count))
    fields = {k: v for k, v in inst.items() if k != "count"}
    name = fields.pop("name", None)
    long = {k: v for k, v in fields.items() if isinstance(v, str) and len(v) > 40}
    short = [_value_text(v) for k, v in fields.items() if k not in long]
    text = str(name) if name is not None else " ".join(short)
    if name is not None and short:
        text += f" ({', '.join(short)})"
    if long:
        text += ": " + " ".join(str(v) for v in long.values())
    return f"{text} ×{n}" if n != 1 else text


def _value_text(v: Any) -> str:
    """A YAML value compactly: lists without brackets and quotes."""
    if isinstance(v, list):
        return "+".join(str(x) for x in v)
    return str(v)


def _components(spec: GameSpec) -> list[str]:
    """Pieces, zones, tracks and variables."""
    m, data = spec.model, spec.merged.data
    c = m.components
    out = ["## Components"]
    if c.pieces:
        out += ["", "### Pieces"]
        for name, k in c.pieces.items():
            n = piece_count(k)
            line = f"- {name}: " + ("made as needed" if n is None else _plural(n, "piece"))
            if k.attributes:
                line += "; attributes: " + ", ".join(_attr_text(a, d) for a, d in k.attributes.items())
            start = _get(data, "components", "pieces", name, "start")
            line += f"; start in {_code(start)}" if start is not None else ""
            if k.description:
                line += f". {k.description.strip()}"
            out.append(line)
            if k.instances:  # one line per piece, like a card list in a rulebook
                out += [f"  - {_instance_text(i, k.count)}" for i in k.instances[:40]]
                if len(k.instances) > 40:
                    out.append(f"  - ... and {len(k.instances) - 40} more")
    if c.zones:
        out += ["", "### Zones"] + [_zone_text(n, z) for n, z in c.zones.items()]
    if c.tracks:
        out += ["", "### Tracks"]
        for name, t in c.tracks.items():
            bounds = ("no bounds" if t.min is None and t.max is None else f"at least {t.min}" if t.max is None
                      else f"at most {t.max}" if t.min is None else f"from {t.min} to {t.max}")
            start = source_text(_get(data, "components", "tracks", name, "start")) or "0"
            line = f"- {name}: {'per player' if t.per_player else 'shared'}, starts at {start}, {bounds}"
            out.append(line + (f". {t.description.strip()}" if t.description else ""))
    if m.variables:
        out += ["", "### Variables"]
        for name, v in m.variables.items():
            start = _get(data, "variables", name, "start")
            line = f"- {name}: {'per player' if v.per_player else 'shared'} {v.type}"
            line += f", starts as {_code(start)}" if start is not None else ""
            line += {"public": "", "owner": ", seen only by its owner", "hidden": ", hidden"}[v.visibility]
            out.append(line + (f". {v.description.strip()}" if v.description else ""))
    return out


def _definitions(spec: GameSpec) -> list[str]:
    """Tables, functions and procedures the rules refer to."""
    m, data = spec.model, spec.merged.data
    if not (m.tables or m.functions or m.procedures):
        return []
    out = ["## Definitions"]
    for name, t in m.tables.items():
        vals = t.values if isinstance(t.values, list) else ", ".join(f"{k}: {v}" for k, v in t.values.items())
        out.append(f"- table {name}: {vals}" + (f". {t.description.strip()}" if t.description else ""))
    for name, f in m.functions.items():
        line = f"- {name}({', '.join(f.params)}) = {_code(_get(data, 'functions', name, 'expr'))}"
        out.append(line + (f". {f.description.strip()}" if f.description else ""))
    for name, p in m.procedures.items():
        out.append(f"- procedure {name}({', '.join(p.params)})" + (f": {p.description.strip()}" if p.description
                                                                     else ":"))
        out += _block(_get(data, "procedures", name, "effect"), 2)
    return out


def _setup(spec: GameSpec) -> list[str]:
    """Where pieces start and the setup effect."""
    out = ["## Setup"]
    starts = [(n, k.start) for n, k in spec.model.components.pieces.items() if k.start]
    for name, where in starts:
        out.append(f"- Put every {name} in {_code(where)}.")
    text = _get(spec.merged.data, "setup")
    if text:
        out += ["", "Then:", ""] + _block(text)
    elif not starts:
        out.append("Nothing to do before play starts.")
    return out


def turn_order_words(spec: GameSpec, ph: PhaseDecl, i: int) -> str:
    """A phase's turn order in words, e.g. `clockwise from the first player`."""
    start = _get(spec.merged.data, "flow", "phases", i, "start")
    frm = "the first player" if start is None else _player_expr(spec.model, start)
    if ph.order == "by":
        key = _get(spec.merged.data, "flow", "phases", i, "order_by")
        return f"by {_code(key)} for each player p (smallest first)"
    if ph.order == "snake":
        return f"snake (clockwise then back) from {frm}"
    return f"{ph.order} from {frm}"


def _phase(spec: GameSpec, i: int, ph: PhaseDecl) -> list[str]:
    """One phase: when, turn order, turns, steps, free actions, phase effects."""
    data = spec.merged.data
    p = ("flow", "phases", i)
    out = [f"### Phase {i + 1}: {ph.name}"]
    if ph.description:
        out.append(ph.description.strip())
    if _get(data, *p, "when") is not None:
        out.append(f"- Only when {_code(_get(data, *p, 'when'))}; otherwise the phase is skipped.")
    if ph.steps:
        out.append(f"- Turn order: {turn_order_words(spec, ph, i)}.")
        out.append("- Each player takes one turn (once each)." if ph.turns == "once"
                   else "- Players keep taking turns until everyone has passed.")
        if _get(data, *p, "players") is not None:
            out.append(f"- Only players p with {_code(_get(data, *p, 'players'))} take turns.")
        out.append("- On a turn:")
        for j, st in enumerate(ph.steps):
            notes = [w for w, on in (("optional", st.optional), ("repeat as often as wanted", st.repeat)) if on]
            if st.repeat and st.max:
                notes[-1] = f"repeat up to {st.max} times"
            when = _get(data, *p, "steps", j, "when")
            if when is not None:
                notes.append(f"only when {_code(when)}")
            name = st.name or f"step {j + 1}"
            acts = " or ".join(st.actions)
            out.append(f"  {j + 1}. {name}: {acts}" + (f" ({'; '.join(notes)})" if notes else ""))
        if ph.free_actions:
            out.append(f"- Free actions at any step: {', '.join(ph.free_actions)}.")
    else:
        out.append("- No turns: the phase's effects run automatically.")
    for key, words in (("on_start", "At the start of the phase"), ("turn_start", "At the start of each turn"),
                       ("turn_end", "At the end of each turn"), ("on_end", "At the end of the phase")):
        text = _get(data, *p, key)
        if text:
            out += [f"- {words}:"] + _block(text, 2)
    return out


def _flow(spec: GameSpec) -> list[str]:
    """First player, rounds and their phases."""
    m, data = spec.model, spec.merged.data
    f = m.flow
    first = _get(data, "flow", "first_player")
    out = ["## Flow", "", f"The game is played in rounds. The first player is "
           f"{_player_expr(m, 0 if first is None else first)}"
           + ("; it passes clockwise after each round." if f.rotate_first_player else ".")]
    names = ", ".join(ph.name for ph in f.phases)
    out.append(f"Each round has {_plural(len(f.phases), 'phase')}: {names}.")
    if _get(data, "flow", "round_start"):
        out += ["", "At the start of each round:"] + _block(_get(data, "flow", "round_start"))
    for i, ph in enumerate(f.phases):
        out += [""] + _phase(spec, i, ph)
    if _get(data, "flow", "round_end"):
        out += ["", "At the end of each round:"] + _block(_get(data, "flow", "round_end"))
    return out


def _actions(spec: GameSpec) -> list[str]:
    """Each action: passage, condition, cost, parameters, limit, effect."""
    data = spec.merged.data
    out = ["## Actions"]
    if not spec.model.actions:
        return out + ["None."]
    for name, a in spec.model.actions.items():
        title = f"### {name}" + (f" (\"{a.label}\")" if a.label and a.label != name else "")
        out += ["", title]
        if a.description:
            out.append(a.description.strip())
        if a.rule:
            out.append(f"Rulebook: \"{a.rule.strip()}\"")
        cond = _get(data, "actions", name, "condition")
        if cond is not None:
            out.append(f"- Allowed only if {_code(cond)}" + (f" (otherwise: {a.why})" if a.why else ""))
        for var, amount in (_get(data, "actions", name, "cost") or {}).items():
            out.append(f"- Costs {_code(amount)} {var}")
        for pname, pd in a.params.items():
            line = f"- Choose {pname} from {_code(_get(data, 'actions', name, 'params', pname, 'from'))}"
            where = _get(data, "actions", name, "params", pname, "where")
            if where is not None:
                line += f" where {_code(where)}"
            extra = [x for x in ("optional" if pd.optional else None, f"otherwise: {pd.why}" if pd.why else None,
                                 f"asked as \"{pd.prompt}\"" if pd.prompt else None) if x]
            out.append(line + (f" ({'; '.join(extra)})" if extra else ""))
        if a.limit:
            out.append(f"- At most {_plural(a.limit, 'time')} per turn")
        effect = _get(data, "actions", name, "effect")
        out += ["- Effect:"] + _block(effect, 2) if source_text(effect) else ["- No effect."]
    return out


def _triggers(spec: GameSpec) -> list[str]:
    """Event and state triggers."""
    data = spec.merged.data
    if not spec.model.triggers:
        return []
    out = ["## Triggers"]
    for name, t in spec.model.triggers.items():
        if t.on:
            head = f"on {t.on}"
            when = _get(data, "triggers", name, "when")
            head += f" if {_code(when)}" if when is not None else ""
        else:
            head = f"whenever {_code(_get(data, 'triggers', name, 'when') or 'true')}"
            binder = _get(data, "triggers", name, "for")
            if binder is not None:
                head += f" for each {_code(binder)}"
            order = _get(data, "triggers", name, "order")
            if order is not None:
                head += f" ordered by {_code(order)} (smallest first)"
        out += ["", f"- {name}: {head}" + (f". {t.description.strip()}" if t.description else "")]
        if t.rule:
            out.append(f"  Rulebook: \"{t.rule.strip()}\"")
        out += _block(_get(data, "triggers", name, "effect"), 2)
    return out


def _scoring(spec: GameSpec) -> list[str]:
    """The score, final scoring and the ranking."""
    m, data = spec.model, spec.merged.data
    score = _get(data, "scoring", "score") or m.scoring.score
    has_score = "score" in m.components.tracks or "score" in m.variables
    default_score = "p.score" if has_score else None
    score_text = _code(score) if score else (_code(default_score) if default_score else "0 (no score is kept)")
    out = ["## Scoring and ranking", f"- A player p's score is {score_text}."]
    if _get(data, "scoring", "final"):
        out += ["- Final scoring at the end of the game:"] + _block(_get(data, "scoring", "final"), 2)
    keys = _get(data, "ranking", "by") or m.ranking.by or ([score or default_score] if (score or default_score)
                                                            else [])
    ties = "share the win." if m.ranking.ties == "share" else "mean nobody wins."
    if keys:
        out.append("- Ranking (largest first): " + ", then ".join(_code(k) for k in keys) + "; ties " + ties)
    else:
        out.append("- No ranking: the end conditions name the winners.")
    return out


def _end(spec: GameSpec) -> list[str]:
    """Each end condition: when, when it is checked, winners."""
    data = spec.merged.data
    out = ["## End of the game"]
    for name, e in spec.model.end.items():
        out.append(f"- {name}" + (f": {e.description.strip()}" if e.description else ""))
        when = _get(data, "end", name, "when")
        if when is not None:
            out.append(f"  When {_code(when)}, checked {_CHECK_WORDS[e.check]}.")
        else:
            out.append("  Only when an effect runs `end_game " + name + "`.")
        winners = _get(data, "end", name, "winners")
        out.append(f"  Winners: {_code(winners)}." if winners is not None else "  Winners: by the ranking.")
        if e.rule:
            out.append(f"  Rulebook: \"{e.rule.strip()}\"")
    return out


def _invariant_text(inv: Any) -> str:
    """A short form or {holds|never_decreases: expr} in words."""
    if isinstance(inv, dict):
        if inv.get("never_decreases") is not None:
            return f"{_code(inv['never_decreases'])} never decreases"
        return _code(inv.get("holds"))
    return _code(inv)


def _invariants(spec: GameSpec) -> list[str]:
    """Conditions that always hold."""
    if not spec.model.invariants:
        return []
    data = spec.merged.data
    return ["## Invariants", "These always hold:"] + [
        f"- {name}: {_invariant_text(_get(data, 'invariants', name))}" for name in spec.model.invariants]


def _bot_hints(spec: GameSpec) -> list[str]:
    """The `bots:` hints: not rules, said so."""
    b = spec.model.bots
    if b.heuristic is None and b.playout is None and b.iterations is None:
        return []
    out = ["## Hints for search bots", "Not rules: games play the same without them."]
    if b.heuristic is not None:
        out.append(f"- A position is judged by {_code(_get(spec.merged.data, 'bots', 'heuristic'))}, "
                   f"from 0 (far from winning) to {b.heuristic_max} (as good as won).")
    if b.playout is not None:
        out.append("- Every new position is judged at once (no random playout)." if b.playout == 0 else
                   f"- Playouts play {b.playout} random decision{'' if b.playout == 1 else 's'} before that judgement.")
    if b.iterations is not None:
        out.append(f"- A search bot given no budget searches {b.iterations} iteration{'' if b.iterations == 1 else 's'} "
                   "per decision.")
    return out


def _assumption_line(item: dict, source: str | None = None) -> list[str]:
    """One assumption: id with flags, passage and choice."""
    flags = [f"variant with the other reading: {item['variant']}" if item.get("variant") else None,
             "designed: not in the rulebook" if item.get("designed") else None,
             f"from variant {source}" if source else None]
    flags = [f for f in flags if f]
    return [f"- {item.get('id', '?')}" + (f" ({'; '.join(flags)})" if flags else ""),
            f"  Passage: \"{source_text(item.get('passage'))}\"", f"  Choice: {source_text(item.get('choice'))}"]


def _assumptions(spec: GameSpec) -> list[str]:
    """The spec's assumptions, then those the variants add."""
    out: list[str] = []
    for a in spec.model.assumptions:
        out += _assumption_line(a.model_dump())
    for doc, path in spec.merged.assumptions:
        item = _get(doc.data, *path)
        if isinstance(item, dict):
            out += _assumption_line(item, _get(doc.data, "variant", "name"))
    return ["## Assumptions", "Readings chosen where the rulebook is silent or unclear:"] + out if out else []


def explain_text(spec: GameSpec) -> str:
    """A readable rules summary of a spec, in rulebook order, as plain text (and Markdown)."""
    sections = [_header(spec), _components(spec), _definitions(spec), _setup(spec), _flow(spec),
                _actions(spec), _triggers(spec), _scoring(spec), _end(spec), _invariants(spec), _bot_hints(spec),
                _assumptions(spec)]
    return "\n\n".join("\n".join(s) for s in sections if s) + "\n"


# ------------------------------------------------------------------ variants


def compact_value(value: Any, absent: str = "(none)") -> list[str]:
    """A value YAML-dumped compactly and completely: one line when it fits, else a block; nothing is cut."""
    if value is None:
        return [absent]
    if isinstance(value, str):
        return value.strip().splitlines() or [""]
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
