"""Rule coverage: how often each action, trigger, procedure, effect branch, table row, card and end condition
fired in a set of games, how often each action was legal, and which never fired, with their FILE:LINE.

The games are played by either engine (their histories are the same: the differential tests hold them to it);
coverage is then counted by replaying each history on the reference interpreter with counting wrappers around a
handful of its functions (`Interp.run` and `BlockFrame`, through which every effect block runs; `perform`, the step
menu, a window's question, a table's `lookup`). Counting on the replay keeps the fast path untouched (it pays
nothing), and games played on either engine give the same counts (tests/test_workbench_coverage.py). Look-ahead (the
engine trying an option to see whether it leads to a dead end) is not counted: only what the game did.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections import Counter
from dataclasses import dataclass, fields
from typing import Any, Callable, Iterable, Sequence

from orrery.rulespec import ast as A

from ..core.decisions import Decision
from ..core.valueops import TableRef
from ..engine import frames, windows
from ..engine.driver import GameState
from ..engine.flowframe import FlowFrame
from ..engine.game import Game
from ..reference import evaluator
from .trials import Trial

KINDS = ("action", "trigger", "procedure", "branch", "table row", "card", "end")
PLURAL = {"action": "actions", "trigger": "triggers", "procedure": "procedures", "branch": "effect branches",
          "table row": "table rows", "card": "cards", "end": "end conditions"}


@dataclass
class RuleUse:
    """One rule and how the games used it."""

    kind: str
    name: str
    where: str  # FILE:LINE
    fired: int = 0
    legal: int | None = None  # actions: decisions whose menu offered it (None: not a question for this kind)

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"kind": self.kind, "name": self.name, "where": self.where, "fired": self.fired, "legal": self.legal}


def where(span: Any) -> str:
    """FILE:LINE of a span (the column is left out: a rule is a line to look at), relative to the current folder
    when the file is under it."""
    if span is None:
        return "?"
    file = str(span.file)
    here = os.getcwd() + os.sep
    return f"{file[len(here):] if file.startswith(here) else file}:{span.line}"


# ------------------------------------------------------------------ the catalogue


def _nodes(node: Any) -> Iterable[Any]:
    """Every AST node under `node`, itself included (fields in order)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (tuple, list)):
            stack.extend(reversed(n))
            continue
        if not isinstance(n, A.Node):
            continue
        yield n
        stack.extend(reversed([getattr(n, f.name, None) for f in fields(n)]))


def _branch_name(path: tuple, node: A.If, k: int, is_else: bool) -> str:
    owner = ".".join(str(p) for p in path if p != "effect")
    if node.match is not None:
        return f"{owner}: match arm {'_' if is_else else _arm(node, k)}"
    label = "else" if is_else else "if" if k == 0 else f"elif #{k}"
    return f"{owner}: {label}"


def _arm(node: A.If, k: int) -> str:
    """An arm's patterns as written (`"red" | "green"`): those on the line its block starts on (the patterns are
    kept flat, one per alternative, so the arm's index alone does not name them)."""
    line = node.branches[k][1].span.line if node.branches[k][1].span is not None else None
    pats = [repr(value) for value, span in node.match.patterns if span is not None and span.line == line]
    return " | ".join(pats) if pats else f"#{k + 1}"


def _name_span(spec: Any, *path: Any) -> Any:
    """Where a named entry is written: its key's line (`planted_dead:`), else its value's."""
    return spec.merged.key_span(tuple(path)) or spec.span(*path)


class Catalogue:
    """Every rule a game could use, by kind, and the block ids that tell when one fires."""

    def __init__(self, game: Game, state: Any):
        spec, rules = game.spec, game.rules
        self.uses: dict[tuple[str, str], RuleUse] = {}
        self.by_block: dict[int, RuleUse] = {}
        for name, action in rules.actions.items():
            self._add("action", name, _name_span(spec, "actions", name) if name in spec.model.actions else action.span,
                      legal=0)  # (a piece's `activate:` ability: where the ability is written)
        for trig in rules.triggers:
            self.by_block[id(trig.effect)] = self._add("trigger", trig.name, _name_span(spec, "triggers", trig.name))
        for name, (_, block) in rules.procedures.items():
            self.by_block[id(block)] = self._add("procedure", name, _name_span(spec, "procedures", name))
        for path, block in spec.effects.items():
            for node in _nodes(block):
                if isinstance(node, A.If):
                    for k, (_, body) in enumerate(node.branches):
                        self.by_block[id(body)] = self._add("branch", _branch_name(path, node, k, False), body.span)
                    if node.else_ is not None and (node.match is None or node.match.default):
                        # (a match without `_` covers every word: the else it is parsed into cannot run)
                        self.by_block[id(node.else_)] = self._add(
                            "branch", _branch_name(path, node, len(node.branches), True), node.else_.span)
        for name, decl in spec.model.tables.items():
            keys = range(len(decl.values)) if isinstance(decl.values, list) else decl.values
            for key in keys:
                self._add("table row", f"{name}[{key}]", spec.span("tables", name, "values", key))
        self.cards = self._cards(game, state)
        for name in spec.model.end:
            self._add("end", name, _name_span(spec, "end", name))

    def _add(self, kind: str, name: str, span: Any, legal: int | None = None) -> RuleUse:
        use = self.uses.setdefault((kind, name), RuleUse(kind, name, where(span), 0, legal))
        return use

    def _cards(self, game: Game, state: Any) -> dict[str, RuleUse]:
        """The pieces listed one by one (`instances:`), by label: the cards, tiles and characters of a game."""
        pieces = game.spec.model.components.pieces
        listed = {k for k, decl in pieces.items() if getattr(decl, "instances", None)}
        it = evaluator.Interp(state, game.limits)
        out: dict[str, RuleUse] = {}
        for pid, kind in enumerate(state.kinds):
            if kind in listed:
                label = it.piece_label(pid)
                out[label] = self._add("card", f"{kind}: {label}", _name_span(game.spec, "components", "pieces",
                                                                                  kind, "instances"))
        return out

    def table_row(self, table: TableRef, key: Any) -> RuleUse | None:
        """The row a lookup reads (past the end: the last row with `above: last`; else nothing counted)."""
        vals = table.values
        if isinstance(key, bool):
            return None
        if isinstance(vals, list):
            if isinstance(key, int) and key >= len(vals) and table.decl.above == "last":
                key = len(vals) - 1
        else:
            key = str(int(key)) if isinstance(key, int) else str(key)
        return self.uses.get(("table row", f"{table.name}[{key}]"))


# ------------------------------------------------------------------ the probes


class _Probes:
    """Counting wrappers around the few functions every effect block, performed action, step menu, window question,
    look-ahead and table lookup goes through, installed for a replay and removed after it. (A `sys.settrace` tracer
    on the same functions, the first way this was counted, made a replay about five times slower: it is called on
    every Python call; a wrapper costs one call where it counts.)"""

    def __init__(self, cat: Catalogue):
        self.cat = cat
        self.paused = 0
        self._undo: list[Callable[[], None]] = []

    def __enter__(self) -> "_Probes":
        runs = [evaluator.Interp] + _subclasses(evaluator.Interp)
        for cls in runs:
            if "run" in vars(cls):  # an Interp subclass with its own run (the fast path's) counts alike
                self._method(cls, "run", self._block)
        self._method(frames.BlockFrame, "__init__", self._block)
        self._method(FlowFrame, "_step_menu", self._menu)
        self._method(GameState, "_viable", self._lookahead)
        self._method(TableRef, "lookup", self._table)
        self._function(frames.perform, self._perform)
        self._function(windows.decision, self._window)
        return self

    def __exit__(self, *exc: Any) -> None:
        while self._undo:
            self._undo.pop()()

    def _method(self, cls: type, name: str, wrap: Callable[[Callable], Callable]) -> None:
        orig = vars(cls)[name]
        setattr(cls, name, wrap(orig))
        self._undo.append(lambda: setattr(cls, name, orig))

    def _function(self, orig: Callable, wrap: Callable[[Callable], Callable]) -> None:
        """Replace a module-level function in every module of the package that holds it (`from x import f`)."""
        new = wrap(orig)
        for mod in list(sys.modules.values()):
            if getattr(mod, "__name__", "").startswith("orrery") and getattr(mod, orig.__name__, None) is orig:
                setattr(mod, orig.__name__, new)
                self._undo.append(lambda mod=mod: setattr(mod, orig.__name__, orig))

    def _block(self, orig: Callable) -> Callable:
        by_block = self.cat.by_block

        def counted(obj: Any, block: Any, *args: Any, **kw: Any) -> Any:
            if not self.paused:
                use = by_block.get(id(block))
                if use is not None:
                    use.fired += 1
            return orig(obj, block, *args, **kw)
        return counted

    def _perform(self, orig: Callable) -> Callable:
        def counted(pos: Any, action: Any, *args: Any, **kw: Any) -> Any:
            if not self.paused:
                use = self.cat.uses.get(("action", action.name))
                if use is not None:
                    use.fired += 1
            return orig(pos, action, *args, **kw)
        return counted

    def _table(self, orig: Callable) -> Callable:
        def counted(table: TableRef, key: Any, span: Any) -> Any:
            if not self.paused:
                use = self.cat.table_row(table, key)
                if use is not None:
                    use.fired += 1
            return orig(table, key, span)
        return counted

    def _offered(self, options: Sequence[Any]) -> None:
        for o in options:
            use = self.cat.uses.get(("action", o.value)) if isinstance(o.value, str) else None
            if use is not None:
                use.legal = (use.legal or 0) + 1

    def _menu(self, orig: Callable) -> Callable:
        def counted(frame: Any, pos: Any) -> Any:
            counting = not self.paused
            out = orig(frame, pos)
            if counting and isinstance(out, Decision):
                self._offered(out.options)
            return out
        return counted

    def _window(self, orig: Callable) -> Callable:
        def counted(it: Any, win: Any, seat: int, options: Sequence[Any], *args: Any, **kw: Any) -> Any:
            if not self.paused:  # a window asks a player: its answers were legal then
                self._offered(options)
            return orig(it, win, seat, options, *args, **kw)
        return counted

    def _lookahead(self, orig: Callable) -> Callable:
        def paused(gs: Any, decision: Any) -> Any:
            self.paused += 1
            try:
                return orig(gs, decision)
            finally:
                self.paused -= 1
        return paused


def _subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out += [sub] + _subclasses(sub)
    return out


def count_cards(cat: Catalogue, gs: GameState) -> None:
    """Cards chosen in a game's steps (answers, automatic ones too) count as fired."""
    for step in gs.steps:
        use = cat.cards.get(step.label)
        if use is not None:
            use.fired += 1


def offer_cards(cat: Catalogue, gs: GameState) -> None:
    """Cards a player is asked to choose among count as legal (once per decision offering them)."""
    for o in gs.legal_options():
        use = cat.cards.get(o.label)
        if use is not None:
            use.legal = (use.legal or 0) + 1


def _replay(game: Game, trials: Sequence[Trial]) -> list[RuleUse]:
    """The counts of these trials, replayed on the reference engine with the probes installed."""
    ref = game if game.mode == "interpreted" else Game(game.spec, game.limits, "interpreted")
    # GameState.start: the general reference engine itself (new_initial_state may hand out a state on a faster
    # flow whose menus and blocks the probes do not see; the same games either way)
    first = GameState.start(ref, trials[0].players if trials else ref.num_players(), 0)
    cat = Catalogue(ref, first.state)
    with _Probes(cat):
        for t in trials:
            # each game runs its own setup (GameState.start), not a copy of the prepared start position that
            # new_initial_state hands out where the setup draws nothing (Game.start_state): the copy's first
            # step menu was built once, before the probes, and would not be counted
            gs = GameState.start(ref, t.players if t.players is not None else ref.num_players(), t.seed)
            for index in t.history:
                offer_cards(cat, gs)
                gs.apply(index)
            count_cards(cat, gs)
    return list(cat.uses.values())


_WORK: tuple[Game, Sequence[Trial]] | None = None  # a forked worker's game and trials


def _replay_chunk(bounds: tuple[int, int]) -> list[RuleUse]:
    assert _WORK is not None
    return _replay(_WORK[0], _WORK[1][bounds[0]:bounds[1]])


def coverage(game: Game, trials: Sequence[Trial], jobs: int = 1) -> list[RuleUse]:
    """Replay each trial's history on the reference engine and count what its rules did (in `jobs` forked
    processes, each replaying a share of the games: the counts add up to the same)."""
    global _WORK
    if jobs > 1 and len(trials) > 1 and "fork" in multiprocessing.get_all_start_methods():
        step = -(-len(trials) // jobs)
        chunks = [(i, min(i + step, len(trials))) for i in range(0, len(trials), step)]
        _WORK = (game, trials)
        try:
            with multiprocessing.get_context("fork").Pool(len(chunks)) as pool:
                parts = pool.map(_replay_chunk, chunks)
        finally:
            _WORK = None
        uses = parts[0]
        for part in parts[1:]:
            for mine, theirs in zip(uses, part):
                mine.fired += theirs.fired
                if theirs.legal is not None:
                    mine.legal = (mine.legal or 0) + theirs.legal
    else:
        uses = _replay(game, trials)
    ends = Counter(t.end for t in trials)
    for use in uses:
        if use.kind == "end":
            use.fired = ends.get(use.name, 0)
    offered = {u.name.partition(":")[0] for u in uses if u.kind == "card" and u.legal}
    # pieces no decision ever offered are laid out by the rules, not played: they are not listed as cards
    return [u for u in uses if u.kind != "card" or u.name.partition(":")[0] in offered]


def never_fired(uses: Sequence[RuleUse]) -> list[RuleUse]:
    """The rules no game used (actions: never performed), in spec order within each kind."""
    return [u for u in uses if u.fired == 0]


def never_fired_listing(uses: Sequence[RuleUse]) -> list[tuple[str, str, str]]:
    """The never-fired rules as (FILE:LINE, kind, name) to list; a table none of whose rows was read is one line
    (tables only the screen reads, for styles and labels, are never read in play: row by row they drown the rest)."""
    rows: dict[str, list[RuleUse]] = {}
    for u in uses:
        if u.kind == "table row":
            rows.setdefault(u.name.partition("[")[0], []).append(u)
    unread = {t for t, of in rows.items() if not any(r.fired for r in of)}
    out: list[tuple[str, str, str]] = []
    shown: set[str] = set()
    for u in never_fired(uses):
        table = u.name.partition("[")[0] if u.kind == "table row" else ""
        if table not in unread:
            out.append((u.where, u.kind, u.name))
        elif table not in shown:
            shown.add(table)
            out.append((u.where, "table", f"{table}: no row read ({len(rows[table])} rows)"))
    return out


def never_legal(uses: Sequence[RuleUse]) -> list[RuleUse]:
    """The actions no menu (a step's or a window's) ever offered."""
    return [u for u in uses if u.kind == "action" and not u.legal]
