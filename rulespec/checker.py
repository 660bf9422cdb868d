"""Static checks of a parsed spec: names, calls, statements, attributes, types, flow and structure.

`check_spec` walks every condition and effect once, in the context the runtime
evaluates it in (which implicit names are bound there, which locals are in
scope), and then checks the YAML-level structure.  It reports every problem at
once as located findings; it never imports the interpreter, whose semantics
(interpreter/evaluator.py, effects.py, flow.py, rules.py) it mirrors.
"""

from __future__ import annotations

import re
from typing import Any

from . import ast as A
from . import checknames, flowcheck
from .abilities_check import check_pieces, check_proc_call, check_use
from .callgraph import CallGraph
from .commits import check_commit
from .datacheck import data_findings
from .errors import Finding, Span, one_line
from .gamespec import GameSpec
from .prompt_checks import prompt_findings
from .reaction_checks import check_open, reaction_findings
from .limits_check import cost_findings, limit_findings
from .namecheck import IDENTIFIER, name_findings
from .payto_check import check_pay_to
from .quantities_check import check_bounds, check_quantities
from .seatcheck import check_players_index, check_value, check_winners
from .signatures import FUNCTIONS, KEYWORDS, SPECIAL_NAMES
from .static_checks import check_static
from .geocheck import closure_kwarg, emit_fields, fixed_size_findings, keyed_index, trigger_scope
from .typing_rules import (NOT_ITERABLE, NOT_PLACE, NUMERIC, Scope, SpecIndex, assign_problem, base,
                           binary_problems, binary_type, call_returns, component_findings, describe, did_you_mean,
                           elem, join, known, list_of, value_type)

_NAME = IDENTIFIER  # (fullmatch only)
_CONDITION = "condition must be true/false"


def check_spec(spec: GameSpec) -> list[Finding]:
    """Every static problem of a parsed spec, as errors and warnings with exact spans."""
    return _Checker(spec).run()


class _Checker:
    def __init__(self, spec: GameSpec, prepared: tuple[SpecIndex, CallGraph, dict[str, list[str]]] | None = None):
        self.spec, self.m = spec, spec.model
        if prepared is not None:  # (rule text checks only read these)
            self.ix, self.calls, self.lines = prepared
            self._fresh()
            return
        self.ix = SpecIndex.build(self.m)
        self._fresh()
        self.calls = CallGraph(spec)
        # AST spans cover whole statements; names inside them are found in the source text of each file.
        merged = spec.merged
        self.lines = {d.path: d.text.splitlines() for d in [merged.base, *merged.variants]}
        self.ix.add_record_fields(n for root in [*spec.exprs.values(), *spec.effects.values()] for n in root.walk())

    def _fresh(self) -> None:
        """The state one check run collects."""
        self.findings: list[Finding] = []
        self.fn_types: dict[str, str | None] = {}  # spec function -> result type; None while being checked
        self.emitted: dict[str, list[Span]] = {}
        self.commits: list[Span] = []  # every `commit` (each emits `revealed`): rulespec/commits.py
        self.performed: set[str] = set()
        self.ended: set[str] = set()
        self.passes = False
        self.reassigned: set[str] = set()

    # ------------------------------------------------------------ reporting
    def error(self, span: Span | None, message: str, hint: str | None = None) -> None:
        self.findings.append(Finding(span, message, "error", hint))

    def warning(self, span: Span | None, message: str, hint: str | None = None) -> None:
        self.findings.append(Finding(span, message, "warning", hint))

    def type_error(self, span: Span, message: str) -> None:
        self.error(span, f"type error: {message}")

    def span(self, *path: Any) -> Span:
        return self.spec.merged.span(tuple(path))

    def key(self, *path: Any) -> Span:
        return self.spec.merged.key_span(tuple(path)) or self.spec.merged.span(tuple(path))

    def _line(self, file: str, line: int) -> str:
        lines = self.lines.get(file, [])
        return lines[line - 1] if 1 <= line <= len(lines) else ""

    def _word(self, span: Span, keyword: str, name: str) -> Span:
        """The span of `name` after `keyword` in a statement (AST nodes only locate the whole statement)."""
        pattern = re.compile(rf"\b{re.escape(keyword)}\s+({re.escape(name)})\b")
        for ln in range(span.line, (span.end_line or span.line) + 1):
            match = pattern.search(self._line(span.file, ln), span.col - 1 if ln == span.line else 0)
            if match:
                return Span(span.file, ln, match.start(1) + 1, ln, match.end(1) + 1)
        return span

    def _kw(self, value: Span, key: str) -> Span:
        """The span of the keyword of a `key: value` argument, given the value's span."""
        match = re.search(rf"\b({re.escape(key)})\s*:\s*$", self._line(value.file, value.line)[:value.col - 1])
        return Span(value.file, value.line, match.start(1) + 1, value.line, match.end(1) + 1) if match else value

    # ------------------------------------------------------------------ run
    def run(self) -> list[Finding]:
        self._declarations()
        self.findings += component_findings(self.m, self.span, self.key) + name_findings(self.m, self.key)
        self.findings += data_findings(self.m, self.ix.dt, self.span, self.key)
        checknames.check_constants(self)
        check_static(self)  # heuristic_max (and requires:) worked out from the rules alone
        self._rule_text()
        self.findings += fixed_size_findings(self.spec)
        check_pieces(self)  # the effect catalogue and pieces' abilities
        flowcheck.flow(self)
        flowcheck.events(self)
        reaction_findings(self)
        prompt_findings(self)  # (decisions that would ask in an identifier's words)
        self.findings += limit_findings(self.spec, self.span, self.key) + cost_findings(self.spec, self.calls)
        return self.findings

    # ====================================================== declared names
    def _declarations(self) -> None:
        """Spec-level names: valid, not reserved, not declared twice, functions not recursive."""
        m, c = self.m, self.m.components
        groups = [("piece kind", ("components", "pieces"), c.pieces), ("zone", ("components", "zones"), c.zones),
                  ("track", ("components", "tracks"), c.tracks), ("variable", ("variables",), m.variables),
                  ("table", ("tables",), m.tables), ("function", ("functions",), m.functions),
                  ("procedure", ("procedures",), m.procedures), ("action", ("actions",), m.actions),
                  ("end condition", ("end",), m.end), ("constant", ("constants",), m.constants),
                  ("names set", ("names",), m.names)]
        seen_global: dict[str, str] = {}
        seen_player: dict[str, str] = {}
        for what, path, decls in groups:
            for name, decl in decls.items():
                where = self.key(*path, name)
                per_player = getattr(decl, "per_player", False)
                if not self._usable_name(name, where, f"{what} '{name}'", player=per_player):
                    continue
                if what in ("function", "procedure"):
                    continue  # called by name, a namespace of their own
                seen = seen_player if per_player else seen_global
                if name in seen:
                    self.error(where, f"{what} '{name}' has the same name as the {seen[name]} '{name}'")
                seen.setdefault(name, what)
        for kind, decls in (("function", m.functions), ("procedure", m.procedures)):
            for name, decl in decls.items():
                for i, p in enumerate(decl.param_names):
                    sp = self.span(f"{kind}s", name, "params", i)
                    if self._usable_name(p, sp, f"parameter '{p}'", local=True):
                        self._no_shadow(p, sp)
        checknames.attribute_clashes(self)
        self._recursion()

    def _usable_name(self, name: str, where: Span, what: str, local: bool = False, player: bool = False) -> bool:
        """A declared name: valid, not a keyword; a spec-level one not a built-in's or special name's, a
        per-player one (read as `p.NAME`) not a player's built-in attribute."""
        hint = f"rename it, e.g. '{checknames.suggested(self, name, what)}'"
        if not _NAME.fullmatch(name):  # (fullmatch: `$` alone lets a trailing newline through)
            self.error(where, f"{one_line(what)} is not a valid name (letters, digits and _, not starting with a "
                              f"digit)")
        elif name in KEYWORDS:
            self.error(where, f"{what} uses the keyword '{name}' of the rule language; rename it", hint)
        elif local:
            return True  # locals live apart from function names; hiding specials is reported by _no_shadow
        elif player:
            return checknames.player_attribute_free(self, name, where, what, hint)
        elif name in FUNCTIONS:
            self.error(where, f"{what} has the name of the built-in function '{name}' ({name}(...) is "
                              f"{FUNCTIONS[name].doc[0].lower() + FUNCTIONS[name].doc[1:].rstrip('.')}); rename it", hint)
        elif name in SPECIAL_NAMES:
            self.error(where, f"{what} has the name of the special name '{name}' ({SPECIAL_NAMES[name][1][0].lower()}"
                              f"{SPECIAL_NAMES[name][1][1:].rstrip('.')}); rename it", hint)
        else:
            return True
        return False

    def _recursion(self) -> None:
        """Spec functions calling themselves, directly or through others (the interpreter has no depth limit)."""
        for start, cycle in self.calls.cycles():
            self.error(self.key("functions", start), f"function '{start}' is recursive ({cycle}); functions may not "
                                                     f"call themselves, directly or through others")

    # ============================================================ rule text
    def _rule_text(self) -> None:
        """Every expression and effect, in the scope the runtime evaluates it in."""
        m, top = self.m, Scope()
        for name in m.functions:
            self._function(name)
        for name, proc in m.procedures.items():
            with checknames.inferring(self, "procedures", name, proc):
                self._effect(("procedures", name, "effect"), top.child(checknames.param_types(self, "procedures",
                                                                                              name, proc)))
        for kname in m.components.pieces:
            for f in ("label", "symbol", "style"):
                self._expr(("components", "pieces", kname, f), top.child({"it": "piece"}))
            self._piece_start(kname)
        for group, decls in (("components", m.components.tracks), ("variables", m.variables)):
            for name, decl in decls.items():
                path = ("components", "tracks", name) if group == "components" else ("variables", name)
                scope = top.child({"p": "player"}) if decl.per_player else top
                t = self._expr(path + ("start",), scope)
                want = "int" if group == "components" else self.ix.dt.static(self.ix.dt.variables[name])
                if t:
                    checknames.check_words(self, want, self.spec.expr(*path, "start"))
                if t and known(want) and known(t) and base(t) != base(want) and t != "none" \
                        and not {base(t), base(want)} <= NUMERIC:
                    self.type_error(self.spec.expr(*path, "start").span,
                                    f"'{name}' holds {describe(want)}, but its start is {describe(t)}")
        self._effect(("setup",), top)
        t = self._expr(("flow", "first_player"), top)
        self._want(t, NUMERIC, ("flow", "first_player"), "the first player must be a seat number")
        for f in ("round_start", "round_end"):
            self._effect(("flow", f), top)
        for i, _ in enumerate(m.flow.phases):
            p = ("flow", "phases", i)
            self._expr(p + ("order_by",), top.child({"p": "player"}))
            self._expr(p + ("start",), top)
            self._expr(p + ("players",), top.child({"p": "player"}), cond=True)
            self._expr(p + ("when",), top, cond=True)
            for f in ("on_start", "on_end", "turn_start", "turn_end"):
                self._effect(p + (f,), top)
            for j, _ in enumerate(m.flow.phases[i].steps):
                self._expr(p + ("steps", j, "when"), top, cond=True)
        for name in m.actions:
            self._action(name, top)
        for name in m.triggers:
            self._trigger(name, top)
        check_quantities(self)
        check_bounds(self)
        self._expr(("scoring", "score"), top.child({"p": "player"}))
        self._effect(("scoring", "final"), top)
        for name in m.end:
            self._expr(("end", name, "when"), top, cond=True)
            self._winners(name, self._expr(("end", name, "winners"), top))
        for i, _ in enumerate(m.ranking.by or []):
            self._expr(("ranking", "by", i), top.child({"p": "player"}))
        self._want(self._expr(("bots", "heuristic"), top.child({"p": "player"})), NUMERIC, ("bots", "heuristic"),
                   "a heuristic must be a whole number")
        for name, inv in m.invariants.items():
            if isinstance(inv, str):
                self._expr(("invariants", name), top, cond=True)
            elif inv.holds is not None:
                self._expr(("invariants", name, "holds"), top, cond=True)
            else:
                self._expr(("invariants", name, "never_decreases"), top)

    def _expr(self, path: tuple, scope: Scope, cond: bool = False) -> str | None:
        node = self.spec.exprs.get(path)
        if node is None:
            return None
        outer, self.reassigned = self.reassigned, set()  # may run nested: a function checked on first call
        t = self.expr(node, scope)
        self.reassigned = outer
        if cond:
            self._want_bool(node, t, _CONDITION)
        return t

    def _effect(self, path: tuple, scope: Scope) -> None:
        block = self.spec.effects.get(path)
        if block is None:
            return
        # Locals assigned with `=` anywhere may change type (e.g. none, then a cell in a loop): type them 'any'.
        outer = self.reassigned
        self.reassigned = {n.target.id for n in block.walk() if isinstance(n, A.Assign)
                           and isinstance(n.target, A.Name)}
        self.block(block, scope.child())
        self.reassigned = outer

    def _winners(self, name: str, t: str | None) -> None:
        """`winners` is a list of players (or one player, or none); literal seat numbers must be seats."""
        node = self.spec.exprs.get(("end", name, "winners"))
        if node is None or t is None:
            return
        if known(t) and base(t) not in {"list", "none"} | NUMERIC:
            self.type_error(node.span, f"winners must be a list of players, but this is {describe(t)}")
        elif base(t) == "list" and known(elem(t)) and base(elem(t)) not in NUMERIC:
            self.type_error(node.span, f"winners must be a list of players, but its items are {describe(elem(t))}")
        else:
            check_winners(self, node, t)
        most = self.m.game.players.max
        for item in node.items if isinstance(node, A.ListLit) else [node]:
            if (isinstance(item, A.Literal) and isinstance(item.value, int) and not isinstance(item.value, bool)
                    and not 0 <= item.value < most):
                self.error(item.span, f"winners: there is no seat {item.value}; seats are numbered 0 to {most - 1}")

    def _want(self, t: str | None, allowed: frozenset, path: tuple, message: str) -> None:
        if t is not None and known(t) and base(t) not in allowed:
            self.type_error(self.spec.expr(*path).span, f"{message}, but this is {describe(t)}")

    def _function(self, name: str) -> str:
        if name in self.fn_types:
            return self.fn_types[name] or "any"  # None: being checked (recursion is reported elsewhere)
        self.fn_types[name] = None
        decl = self.m.functions[name]
        with checknames.inferring(self, "functions", name, decl):
            t = self._expr(("functions", name, "expr"), Scope(None, checknames.param_types(self, "functions", name,
                                                                                            decl))) or "any"
        self.fn_types[name] = t
        return t

    def _piece_start(self, kname: str) -> None:
        path = ("components", "pieces", kname, "start")
        node = self.spec.exprs.get(path)
        if node is None:
            return
        t = self._expr(path, Scope(None, {"it": "piece"}))
        self._want_place(node, t)
        reads_it = any(isinstance(n, A.Name) and n.id == "it" for n in node.walk())  # one owner per piece
        if isinstance(node, A.Attr) and node.name in self.ix.player_attrs and self.ix.player_attrs[node.name] == "zone" \
                and not reads_it:
            self.warning(node.span, f"every '{kname}' starts in one player's '{node.name}' "
                                    f"(the zone of whoever `{_text(node.obj)}` is at game start)")

    def _action(self, name: str, top: Scope) -> None:
        decl, a = self.m.actions[name], ("actions", name)
        self._expr(a + ("condition",), top, cond=True)
        scope = top.child()
        for pname, pdecl in decl.params.items():
            pp = a + ("params", pname)
            domain = self.spec.expr(*pp, "from")
            t = self._expr(pp + ("from",), scope) or "any"
            if domain is not None:
                self._want_iterable(domain, t)
            ptype = "any" if pdecl.optional or domain is None else self._elem(domain, t)
            here = scope.child({pname: ptype})
            self._expr(pp + ("where",), here, cond=True)
            if self._usable_name(pname, self.key(*pp), f"parameter '{pname}'", local=True):
                self._no_shadow(pname, self.key(*pp))
            scope = here
        self._costs(name, scope)  # (a cost may read the parameters: it is paid once they are chosen)
        self._effect(a + ("effect",), scope)

    def _costs(self, name: str, scope: Scope) -> None:
        """An action's costs: amounts of per-player tracks or variables (random draws: limits_check)."""
        a = ("actions", name)
        for var in self.m.actions[name].cost:
            if var not in self.ix.player_vars:
                self.error(self.key(*a, "cost", var), f"cost '{var}' is not a per-player track or variable"
                           + did_you_mean(var, self.ix.player_vars))
            t = self._expr(a + ("cost", var), scope)
            self._want(t, NUMERIC, a + ("cost", var), "a cost must be a number")
        check_pay_to(self, name, scope)

    def _trigger(self, name: str, top: Scope) -> None:
        decl, tp = self.m.triggers[name], ("triggers", name)
        binder = self.spec.expr(*tp, "for")
        scope = top.child({"event": "record"}) if decl.on else top.child()
        if binder is not None:
            if not (isinstance(binder, A.Binary) and binder.op == "in" and isinstance(binder.left, A.Name)):
                self.error(binder.span, "a trigger's `for` must be `NAME in EXPR`, e.g. `c in cells(board)`")
            elif decl.on:
                self.error(binder.span, "`for` only works on state triggers: a trigger with `on:` ignores it")
            else:
                t = self.expr(binder.right, top)
                self._want_iterable(binder.right, t)
                self._define(scope, binder.left.id, self._elem(binder.right, t), binder.left.span)
        if decl.on is None and decl.when is None:
            self.error(self.key(*tp), "a state trigger needs `when`, or it would fire forever")
        if decl.on is not None and decl.order is not None:
            self.warning(self.key(*tp, "order"), "`order` only matters for state triggers; this one has `on:`")
        self._expr(tp + ("when",), scope, cond=True)
        if decl.on is None:  # state triggers: the scan in which this match began (queue order), see docs/dsl.md
            scope = scope.child({"matched_at": "int"})
        self._expr(tp + ("order",), scope)
        scope = trigger_scope(self, name, decl, scope)  # causes and phase scopes (rulespec/geocheck.py)
        self._effect(tp + ("effect",), scope)

    # =========================================================== expressions
    def expr(self, e: A.Expr, sc: Scope) -> str:
        """Check an expression and return its static type."""
        return getattr(self, "_e_" + type(e).__name__)(e, sc)

    def _e_Literal(self, e: A.Literal, sc: Scope) -> str:
        return value_type(e.value)

    def _e_Name(self, e: A.Name, sc: Scope) -> str:
        t = sc.get(e.id)
        if t is not None:
            return t
        if e.id in self.ix.globals:
            return self.ix.globals[e.id][1]
        hint = None
        if e.id in self.ix.player_attrs:
            hint = f"'{e.id}' belongs to each player: write current.{e.id} or p.{e.id}"
        elif e.id in self.m.functions or e.id in FUNCTIONS:
            hint = f"'{e.id}' is a function: call it as {e.id}(...)"
        elif e.id in ("self", "owner"):
            hint = f"`{e.id}` is bound only in a piece's abilities (pass it to a template as an argument)"
        self.error(e.span, f"unknown name '{e.id}'" + did_you_mean(e.id, sc.all() | set(self.ix.globals)), hint)
        return "any"

    def _e_Attr(self, e: A.Attr, sc: Scope) -> str:
        t = self.expr(e.obj, sc)
        r = self.ix.attr_type(t, e.name)
        if r is not None:
            return r
        where = _tail(e.span, e.name)
        shown = self.ix.dt.names.shown(t) if self.ix.dt is not None else None
        if not known(t):
            self.error(where, f"no attribute '{e.name}' on anything in this spec"
                       + did_you_mean(e.name, self.ix.all_attr_names()))
        elif shown is not None:
            fields = self.ix.attrs_of(t)
            self.error(where, f"{shown} has no field '{e.name}'" + did_you_mean(e.name, fields),
                       "its fields are " + ", ".join(fields))
        else:
            self.error(where, f"{describe(t)} has no attribute '{e.name}'" + did_you_mean(e.name, self.ix.attrs_of(t)))
        return "any"

    def _e_Index(self, e: A.Index, sc: Scope) -> str:
        to, ti = self.expr(e.obj, sc), self.expr(e.index, sc)
        check_players_index(self, e, sc.get("players") is not None)
        b = base(to)
        if b == "zones":
            return keyed_index(self, e, ti)
        if b == "table" and ":" in to:
            return checknames.table_key(self, e, to.split(":", 1)[1])
        if b == "record":
            found = checknames.record_key(self, e, to)
            if found is not None:
                return found
        if b in ("list", "str") and known(ti) and base(ti) not in NUMERIC:
            self.type_error(e.index.span, f"a list index must be a number, but this is {describe(ti)}")
        elif b in ("int", "bool", "none", "player", "piece", "cell", "zone"):
            self.type_error(e.obj.span, f"cannot index {describe(to)}")
        return elem(to) if b == "list" else "str" if b == "str" else "any"

    def _e_Call(self, e: A.Call, sc: Scope) -> str:
        types = [self.expr(a, sc) for a in e.args]
        for k, v in e.kwargs:
            closure_kwarg(self, e.func, k, v, sc)
        if e.func in self.m.functions:
            self._arity(e, f"function '{e.func}'", self.m.functions[e.func].param_names, e.args, e.kwargs)
            checknames.typed_args(self, "functions", e.func, e.args, e.kwargs, types)
            return self._function(e.func)
        sig = FUNCTIONS.get(e.func)
        if sig is None and e.func in self.m.quantities:  # (a quantity reads as a whole number)
            self._arity(e, f"quantity '{e.func}'", self.m.quantities[e.func].params, e.args, e.kwargs)
            return "int"
        if sig is None:
            self.error(e.span, f"unknown function '{e.func}'" + did_you_mean(e.func, set(FUNCTIONS) | set(self.m.functions)))
            return "any"
        n = len(e.args)
        if not sig.min_args <= n <= sig.max_args:
            want = str(sig.min_args) if sig.min_args == sig.max_args else f"{sig.min_args} to {sig.max_args}"
            self.error(e.span, f"{e.func}() takes {want} argument{'s' if want != '1' else ''}, got {n}")
        for k, v in e.kwargs:
            if k not in sig.kwargs:
                takes = ", ".join(sorted(sig.kwargs)) or "none"
                self.error(self._kw(v.span, k), f"{e.func}() has no keyword argument '{k}' (it takes: {takes})")
        return call_returns(e.func, types)

    def _arity(self, e: A.Node, what: str, params: list[str], args: tuple, kwargs: tuple) -> None:
        if len(args) > len(params):
            self.error(e.span, f"{what} takes {len(params)} argument{'s' if len(params) != 1 else ''}, got {len(args)}")
            return
        bound = set(params[:len(args)])
        for k, v in kwargs:
            if k not in params:
                self.error(self._kw(v.span, k), f"{what} has no parameter '{k}'" + did_you_mean(k, params))
            elif k in bound:
                self.error(self._kw(v.span, k), f"{what}: parameter '{k}' is given twice")
            bound.add(k)
        missing = [p for p in params if p not in bound]
        if missing:
            self.error(e.span, f"{what} is missing argument{'s' if len(missing) > 1 else ''} "
                               + ", ".join(f"'{p}'" for p in missing))

    def _e_Unary(self, e: A.Unary, sc: Scope) -> str:
        t = self.expr(e.operand, sc)
        if e.op == "not":
            self._want_bool(e.operand, t, "'not' needs true/false")
            return "bool"
        if known(t) and base(t) not in NUMERIC:
            self.type_error(e.operand.span, f"'-' needs a number, but this is {describe(t)}")
        return "int"

    def _e_Binary(self, e: A.Binary, sc: Scope) -> str:
        a, b = self.expr(e.left, sc), self.expr(e.right, sc)
        checknames.check_binary(self, e, a, b)
        for side, message in binary_problems(e.op, a, b):
            self.type_error((e.left, e.right)[side].span, message)
        return binary_type(e.op, a, b)

    def _e_Cond(self, e: A.Cond, sc: Scope) -> str:
        self._want_bool(e.test, self.expr(e.test, sc), _CONDITION)
        then = self.expr(e.then, sc)
        return then if isinstance(e.else_, A.NoMatch) else join(then, self.expr(e.else_, sc))

    def _e_LetIn(self, e: A.LetIn, sc: Scope) -> str:
        return checknames.let_in(self, e, sc)

    def _e_Slice(self, e: A.Slice, sc: Scope) -> str:
        return checknames.slice_type(self, e, sc)

    def _e_NoMatch(self, e: A.NoMatch, sc: Scope) -> str:
        return "any"

    def _e_ListLit(self, e: A.ListLit, sc: Scope) -> str:
        types = [self.expr(x, sc) for x in e.items]
        if not types:
            return "list"
        t = types[0]
        for x in types[1:]:
            t = join(t, x)
        return list_of(t)

    def _e_Record(self, e: A.Record, sc: Scope) -> str:
        for _, v in e.items:
            self.expr(v, sc)
        return "record"

    def _e_Comprehension(self, e: A.Comprehension, sc: Scope) -> str:
        inner = sc.child()
        for clause in e.clauses:
            t = self.expr(clause.iter, inner)
            self._want_iterable(clause.iter, t)
            self._define(inner, clause.var, self._elem(clause.iter, t), self._word(clause.span, "for", clause.var))
            if clause.cond is not None:
                self._want_bool(clause.cond, self.expr(clause.cond, inner), _CONDITION)
        return list_of(self.expr(e.elt, inner))

    # ---------------------------------------------------------- type helpers
    def _want_bool(self, node: A.Expr, t: str, message: str) -> None:
        if known(t) and base(t) != "bool":
            self.type_error(node.span, f"{message}, but this is {describe(t)}")

    def _want_iterable(self, node: A.Expr, t: str) -> None:
        if base(t) in NOT_ITERABLE:
            self.type_error(node.span, f"cannot go through {describe(t)}: expected a list, a zone or a cell")

    def _want_place(self, node: A.Expr, t: str) -> None:
        if base(t) == "zones":
            self.error(node.span, f"'{_text(node)}' is one zone per key, not a place: pick one with "
                                  f"{_text(node)}[KEY]")
        elif base(t) in NOT_PLACE:
            self.type_error(node.span, f"expected a place (a zone or a cell), but this is {describe(t)}")
        elif isinstance(node, A.Name) and node.id in self.ix.boards and self.ix.globals.get(node.id, ("",))[0] == "zone":
            self.error(node.span, f"'{node.id}' is a board: pieces go into its cells, not the zone")

    def _elem(self, node: A.Expr, t: str) -> str:
        """The type of the items when iterating a value (interpreter Interp.iterate)."""
        b = base(t)
        if b == "list":
            return elem(t)
        if b == "cell":
            return "piece"
        if b == "zone" and isinstance(node, A.Name):
            return "cell" if node.id in self.ix.boards else "piece"
        if b == "zones":
            return "zone"
        return "any"

    # =========================================================== statements
    def block(self, block: A.Block, sc: Scope) -> None:
        """Check statements in order; `sc` receives the block's own locals."""
        for stmt in block.body:
            check = getattr(self, "_s_" + type(stmt).__name__, None)  # settle, end_turn: nothing to check
            if check is not None:
                check(stmt, sc)

    def _define(self, sc: Scope, name: str, t: str, span: Span) -> None:
        self._no_shadow(name, span)
        sc.names[name] = "any" if name in self.reassigned else t

    def _no_shadow(self, name: str, span: Span) -> None:
        if name in self.ix.globals:
            what = self.ix.globals[name][0]
            msg = f"local name '{name}' hides the {what} '{name}'; rename it"
            # `choose card from hand` reads naturally and kind names are rarely needed as values, so
            # hiding a piece kind is only suspicious; hiding state (variables, zones...) is a mistake.
            if what in ("piece kind", "kind"):
                self.warning(span, msg)
            else:
                self.error(span, msg)

    def _s_Let(self, s: A.Let, sc: Scope) -> None:
        self._define(sc, s.name, self.expr(s.value, sc), self._word(s.span, "let", s.name))

    def _s_Assign(self, s: A.Assign, sc: Scope) -> None:
        value = self.expr(s.value, sc)
        target, tt = s.target, "any"
        if isinstance(target, A.Name):
            local = sc.get(target.id)
            if local is not None:
                tt = local
            elif checknames.assigned_constant(self, target):
                return
            elif target.id in self.ix.globals:
                what, tt = self.ix.globals[target.id]
                if what not in ("track", "variable"):
                    self.error(target.span, f"cannot assign to the {what} '{target.id}'")
                    return
            else:
                self.expr(target, sc)  # reports the unknown name
                return
        elif isinstance(target, A.Attr):
            ot = self.expr(target.obj, sc)
            ok_player = base(ot) in ("player", "any") and target.name in self.ix.player_vars
            ok_piece = base(ot) in ("piece", "any") and target.name in self.ix.piece_attrs
            if not (ok_player or ok_piece):
                self.error(_tail(target.span, target.name),
                           f"cannot assign to '{target.name}': not a per-player track or variable, "
                           f"nor a piece attribute" + ("" if not known(ot) else f" of {describe(ot)}")
                           + did_you_mean(target.name, self.ix.player_vars | set(self.ix.piece_attrs)))
                return
            tt = self.ix.attr_type(ot, target.name) or "any"
        else:
            self.error(target.span, "cannot assign to an element of a list or table")
            return
        self._assign_types(s, tt, value)

    def _assign_types(self, s: A.Assign, tt: str, value: str) -> None:
        if s.op == "=":
            checknames.check_words(self, tt, s.value)
            check_value(self, f"'{_text(s.target)}'", tt, value, s.value)
        problem = assign_problem(s.op, _text(s.target), tt, value)
        if problem:
            self.type_error((s.target, s.value)[problem[0]].span, problem[1])

    def _s_If(self, s: A.If, sc: Scope) -> None:
        if s.match is not None:
            checknames.check_match(self, s.match, sc.get(s.match.name) or "any")
        for cond, body in s.branches:
            self._want_bool(cond, self.expr(cond, sc), _CONDITION)
            self.block(body, sc.child())
        if s.else_ is not None:
            self.block(s.else_, sc.child())

    def _s_For(self, s: A.For, sc: Scope) -> None:
        t = self.expr(s.iter, sc)
        self._want_iterable(s.iter, t)
        if s.chooser is not None:
            self.expr(s.chooser, sc)
        if s.prompt is not None:
            self.expr(s.prompt, sc)  # asked before each item: the loop's variable is not bound yet
        inner = sc.child()
        self._define(inner, s.var, self._elem(s.iter, t), self._word(s.span, "for", s.var))
        if s.cond is not None:
            self._want_bool(s.cond, self.expr(s.cond, inner), _CONDITION)
        if s.order_key is not None:
            self.expr(s.order_key, inner)
        self.block(s.body, inner.child())

    def _s_While(self, s: A.While, sc: Scope) -> None:
        self._want_bool(s.cond, self.expr(s.cond, sc), _CONDITION)
        self.block(s.body, sc.child())

    def _s_Repeat(self, s: A.Repeat, sc: Scope) -> None:
        t = self.expr(s.count, sc)
        if known(t) and base(t) not in NUMERIC:
            self.type_error(s.count.span, f"repeat needs a number, but this is {describe(t)}")
        self.block(s.body, sc.child())

    def _s_Choose(self, s: A.Choose, sc: Scope) -> None:
        t = self.expr(s.domain, sc)
        self._want_iterable(s.domain, t)
        if s.chooser is not None:
            self.expr(s.chooser, sc)
        if s.prompt is not None:
            self.expr(s.prompt, sc)  # any value: it is shown as text
        vt = "any" if s.optional else self._elem(s.domain, t)  # skipping an optional choice gives none
        if s.cond is not None:
            self._want_bool(s.cond, self.expr(s.cond, sc.child({s.var: vt})), _CONDITION)
        if s.reason is not None:
            self.expr(s.reason, sc.child({s.var: vt}))  # evaluated for each rejected value: it sees the value
        self._define(sc, s.var, vt, self._word(s.span, "choose", s.var))

    _s_Commit = check_commit

    def _s_Require(self, s: A.Require, sc: Scope) -> None:
        self._want_bool(s.cond, self.expr(s.cond, sc), _CONDITION)
        if s.message is not None:
            self.expr(s.message, sc)

    def _s_Move(self, s: A.Move, sc: Scope) -> None:
        self._want_pieces(s.what, self.expr(s.what, sc))
        self._want_place(s.dest, self.expr(s.dest, sc))

    def _s_Destroy(self, s: A.Destroy, sc: Scope) -> None:
        self._want_pieces(s.what, self.expr(s.what, sc))

    def _want_pieces(self, node: A.Expr, t: str) -> None:
        if base(t) in NOT_PLACE - {"piece", "list", "none"} | {"cell", "zone"}:
            self.type_error(node.span, f"expected a piece or a list of pieces, but this is {describe(t)}")

    def _s_Create(self, s: A.Create, sc: Scope) -> None:
        kind = self.m.components.pieces.get(s.kind)
        if kind is None:
            self.error(self._word(s.span, "create", s.kind), f"unknown piece kind '{s.kind}'"
                       + did_you_mean(s.kind, self.m.components.pieces))
        elif not kind.unlimited:
            # a counted kind's pieces all exist from the start; making more would break its count
            self.error(self._word(s.span, "create", s.kind),
                       f"piece kind '{s.kind}' is counted (count/instances); only `unlimited: true` kinds can be "
                       f"created: move existing pieces instead")
        if s.attrs is not None:
            for k, v in s.attrs.items:
                got = self.expr(v, sc)
                if kind is not None and k in kind.attributes:
                    checknames.check_words(self, want := self.ix.dt.static(self.ix.dt.kind_attrs[s.kind][k]), v)
                    check_value(self, f"attribute '{k}' of a {s.kind}", want, got, v)
                if kind is not None and k not in kind.attributes and k not in kind.state:
                    self.error(v.span, f"piece kind '{s.kind}' declares no attribute '{k}'"
                               + did_you_mean(k, [*kind.attributes, *kind.state]))
        self._want_place(s.dest, self.expr(s.dest, sc))
        if s.bind:
            self._define(sc, s.bind, "piece", self._word(s.span, "as", s.bind))

    def _s_Draw(self, s: A.Draw, sc: Scope) -> None:
        t = self.expr(s.count, sc)
        if known(t) and base(t) not in NUMERIC:
            self.type_error(s.count.span, f"draw needs a number, but this is {describe(t)}")
        self._want_place(s.source, self.expr(s.source, sc))
        self._want_place(s.dest, self.expr(s.dest, sc))
        if s.bind:
            self._define(sc, s.bind, "list:piece", self._word(s.span, "as", s.bind))

    def _s_Shuffle(self, s: A.Shuffle, sc: Scope) -> None:
        self._want_place(s.zone, self.expr(s.zone, sc))

    def _s_Swap(self, s: A.Swap, sc: Scope) -> None:
        self._want_place(s.a, self.expr(s.a, sc))
        self._want_place(s.b, self.expr(s.b, sc))

    def _s_Emit(self, s: A.Emit, sc: Scope) -> None:
        for a in list(s.args) + [v for _, v in s.kwargs]:
            self.expr(a, sc)
        emit_fields(self, s)  # (an event's `cause` is the engine's: rulespec/geocheck.py)
        self.emitted.setdefault(s.event, []).append(self._word(s.span, "emit", s.event))

    def _s_EndGame(self, s: A.EndGame, sc: Scope) -> None:
        self.ended.add(s.name)
        if s.name not in self.m.end:
            self.error(self._word(s.span, "end_game", s.name), f"end_game names '{s.name}', which is not an end condition"
                       + did_you_mean(s.name, self.m.end))

    def _s_Pass(self, s: A.Pass, sc: Scope) -> None:
        self.passes = True

    def _s_Say(self, s: A.Say, sc: Scope) -> None:
        self.expr(s.message, sc)
        # narration is built only when someone reads it (dsl.md 4.21): a draw there would change the game
        for call in (n for n in s.message.walk() if isinstance(n, A.Call)):
            drawn = self.calls.draws(call.func)
            if drawn is not None:
                through = "" if drawn == call.func else f" (through '{call.func}')"
                self.error(call.span,
                           f"a `say` may not draw random numbers: {drawn}(){through} would change the game only "
                           f"when somebody reads the narration", "draw it with `let` before the `say`")

    def _s_CallProc(self, s: A.CallProc, sc: Scope) -> None:
        types = [self.expr(a, sc) for a in s.args]
        for _, v in s.kwargs:
            self.expr(v, sc)
        check_proc_call(self, s, sc, types)  # (a procedure, or a template of the effect catalogue)

    _s_Use = check_use
    _s_Open = check_open

    def _s_Perform(self, s: A.Perform, sc: Scope) -> None:
        self.performed.add(s.action)
        if s.action not in self.m.actions:
            self.error(self._word(s.span, "perform", s.action), f"unknown action '{s.action}'"
                       + did_you_mean(s.action, self.m.actions))
        if s.actor is not None:
            t = self.expr(s.actor, sc)
            if known(t) and base(t) not in NUMERIC:
                self.type_error(s.actor.span, f"`perform ... by` needs a player, but this is {describe(t)}")

# ------------------------------------------------------------------ spans


def _tail(span: Span, name: str) -> Span:
    """The span of the trailing `name` of `x.name` (the attribute itself, not the object)."""
    if span.end_line is not None and span.end_col is not None and span.end_col - len(name) >= 1:
        return Span(span.file, span.end_line, span.end_col - len(name), span.end_line, span.end_col)
    return span


def _text(node: A.Expr) -> str:
    """Short source-like text of a name or attribute chain, for messages."""
    if isinstance(node, A.Name):
        return node.id
    if isinstance(node, A.Attr):
        return f"{_text(node.obj)}.{node.name}"
    return "this"
