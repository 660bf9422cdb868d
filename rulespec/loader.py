"""Load a rule spec (plus variants) into a validated, parsed `GameSpec`.

Pipeline: YAML with positions -> variant overlay -> pydantic models -> every
condition and effect parsed into the AST -> names and types checked.  All
findings of every stage that can run are collected and raised together as one
SpecError (a broken part is left out of the later stages: stages.py).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Iterator

from . import ast as A
from .checker import check_spec
from .constants import resolve_sizes
from .errors import Diagnostics, Finding, SpecError, Span
from .gamespec import GameSpec  # re-exported: callers import GameSpec from here
from .abilities_text import ABILITY_FIELDS, parse_calls
from .parser import parse_block, parse_expr
from .source import YamlLimits, load_yaml
from .speccache import cached_load
from .stages import repaired_model, unrelated
from .variants import Merged, load_variant, merge_all, no_variants

FORMAT_VERSION = 1


def spec_digest(data: Any) -> str:
    """A stable digest of the merged spec data (logs and saves refer to it)."""
    blob = json.dumps({"format": FORMAT_VERSION, "spec": data}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def load_spec(path: str | Path, variants: list[str | Path] = (), *, limits: YamlLimits | None = None,
              check: bool = True) -> GameSpec:
    """Load, overlay, validate, parse and check a spec; raise SpecError with every finding.  A spec loaded
    before from the same files comes from the disk cache (speccache.py)."""
    return cached_load(path, list(variants), limits, check,
                       lambda: load_spec_uncached(path, list(variants), limits=limits, check=check))


def load_spec_uncached(path: str | Path, variants: list[str | Path] = (), *, limits: YamlLimits | None = None,
                       check: bool = True) -> GameSpec:
    """load_spec without the disk cache."""
    base = load_yaml(path, limits=limits)
    earlier: list[Finding] = []
    vdocs = []
    for v in variants:  # a broken variant is reported; the base and the other variants are still checked
        try:
            vdocs.append(load_variant(v, limits))
        except SpecError as err:
            earlier += err.findings
    merged, bad_changes = merge_all(base, vdocs) if vdocs else (no_variants(base), [])
    return build_spec(merged, str(path), check=check, earlier=earlier + bad_changes)


def build_spec(merged: Merged, path: str, *, check: bool = True, earlier: list[Finding] = ()) -> GameSpec:
    """Validate merged data against the models, parse all rule text and check it; raise SpecError with every
    finding of every stage that can run (stages.py), the `earlier` ones (bad variant changes) first."""
    diags = Diagnostics()
    diags.extend(list(earlier))
    model, structure, dropped = repaired_model(merged)
    diags.extend(structure)
    if model is not None:
        diags.extend(resolve_sizes(model, merged.span))
    spec = GameSpec(model=model, merged=merged, path=path, digest=spec_digest(merged.data),  # type: ignore[arg-type]
                    variants=list(merged.variant_names))
    for dpath, text, kind in rule_texts(merged.data):  # (all of it: a syntax error is one wherever it is)
        _parse_into(spec, dpath, text, kind, diags)
    if model is None:  # no structure to check the rule text against
        diags.raise_if_errors()
    _join_then(spec)
    _switches(spec)
    if check:
        diags.extend(unrelated(check_spec(spec), dropped))
    diags.raise_if_errors()
    spec.warnings = [f for f in diags.findings if f.severity != "error"]
    return spec


# A rule's `applies_when` (a house rule's switch) and the condition it is added to.
SWITCHED = {"actions": "condition", "triggers": "when"}


def _switches(spec: GameSpec) -> None:
    """`applies_when` joined to the condition of its rule (`SWITCH and CONDITION`), so that every stage reads one
    condition: the checker, both engines, explain.  The switch keeps its own spans."""
    for group, field_ in SWITCHED.items():
        for name in getattr(spec.model, group):
            switch = spec.exprs.pop((group, name, "applies_when"), None)
            if switch is None:
                continue
            cond = spec.exprs.get((group, name, field_))
            spec.exprs[(group, name, field_)] = switch if cond is None else \
                A.Binary(span=switch.span, op="and", left=switch, right=cond)


def _parse_into(spec: GameSpec, dpath: tuple, text: Any, kind: str, diags: Diagnostics) -> None:
    merged = spec.merged
    if kind == "calls":  # an ability's `do:`: template calls, run as `call` statements
        block = parse_calls(text, lambda p, t, d: _parse_one(merged, p, t, "expr", d), merged, dpath, diags)
        if block is not None:
            spec.effects[dpath] = block
        return
    if kind == "effect" and isinstance(text, list):
        body: list[A.Stmt] = []
        for i, item in enumerate(text):
            block = _parse_one(merged, dpath + (i,), str(item), "effect", diags)
            if block is not None:
                body.extend(block.body)
        spec.effects[dpath] = A.Block(span=merged.span(dpath), body=tuple(body))
        return
    node = _parse_one(merged, dpath, str(text), kind, diags)
    if node is None:
        return
    if kind == "effect":
        spec.effects[dpath] = node
    else:
        spec.exprs[dpath] = node


def _join_then(spec: GameSpec) -> None:
    """An action's `then:` runs right after its effect, with the same names bound: it becomes the end of the
    effect, so that everything downstream (checks, engines, explain) sees one block."""
    for name in spec.model.actions:
        then = spec.effects.pop(("actions", name, "then"), None)
        if then is None:
            continue
        effect = spec.effects.get(("actions", name, "effect"))
        spec.effects[("actions", name, "effect")] = A.Block(span=(effect or then).span,
                                                            body=(effect.body if effect else ()) + then.body)


MAX_NESTING = 100  # AST levels; the checker and interpreter recurse over the tree


def _parse_one(merged: Merged, dpath: tuple, text: str, kind: str, diags: Diagnostics):
    def mapper(line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
        return merged.text_span(dpath, line, col, end_line, end_col)

    try:
        node = parse_block(text, mapper) if kind == "effect" else parse_expr(text, mapper)
    except SpecError as err:
        diags.extend(err.findings)
        return None
    except RecursionError:
        diags.error(merged.span(dpath), f"this {kind} nests too deeply to read; split it with functions or `let`")
        return None
    finding = nesting_finding(node, kind)
    if finding is not None:
        diags.findings.append(finding)
        return None
    return node


def nesting_finding(node: A.Node, kind: str) -> Finding | None:
    """A located error if parsed rule text nests deeper than MAX_NESTING (the checker and interpreter recurse)."""
    deepest = _too_deep(node)
    if deepest is None:
        return None
    return Finding(deepest.span, f"this {kind} nests more than {MAX_NESTING} levels deep (for example a very long "
                                 f"chain of `+`); split it with functions or `let`")


def _too_deep(root: A.Node) -> A.Node | None:
    """The first node deeper than MAX_NESTING, found without recursion (so any depth is safe)."""
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            return node
        stack.extend((child, depth + 1) for child in node.children())
    return None


# Where rule text lives in a spec: (path pattern, kind).  '*' matches any key or index.
_RULE_FIELDS: tuple[tuple[tuple, str], ...] = (
    (("constants", "*"), "constant"),
    (("components", "pieces", "*", "label"), "expr"),
    (("components", "pieces", "*", "symbol"), "expr"),
    (("components", "pieces", "*", "style"), "expr"),
    (("components", "pieces", "*", "start"), "expr"),
    (("components", "tracks", "*", "start"), "expr"),
    (("components", "tracks", "*", "min"), "bound"),
    (("components", "tracks", "*", "max"), "bound"),
    (("components", "zones", "*", "capacity"), "bound"),
    (("variables", "*", "start"), "expr"),
    (("functions", "*", "expr"), "expr"),
    (("procedures", "*", "effect"), "effect"),
    (("setup",), "effect"),
    (("flow", "first_player"), "expr"),
    (("flow", "round_start"), "effect"),
    (("flow", "round_end"), "effect"),
    (("flow", "phases", "*", "order_by"), "expr"),
    (("flow", "phases", "*", "start"), "expr"),
    (("flow", "phases", "*", "players"), "expr"),
    (("flow", "phases", "*", "when"), "expr"),
    (("flow", "phases", "*", "on_start"), "effect"),
    (("flow", "phases", "*", "on_end"), "effect"),
    (("flow", "phases", "*", "turn_start"), "effect"),
    (("flow", "phases", "*", "turn_end"), "effect"),
    (("flow", "phases", "*", "steps", "*", "when"), "expr"),
    (("actions", "*", "condition"), "expr"),
    (("actions", "*", "applies_when"), "expr"),
    (("actions", "*", "params", "*", "from"), "expr"),
    (("actions", "*", "params", "*", "where"), "expr"),
    (("actions", "*", "cost", "*"), "expr"),
    (("actions", "*", "pay_to", "*"), "expr"),
    (("actions", "*", "effect"), "effect"),
    (("actions", "*", "then"), "effect"),
    (("triggers", "*", "for"), "binder"),
    (("triggers", "*", "when"), "expr"),
    (("triggers", "*", "applies_when"), "expr"),
    (("triggers", "*", "order"), "expr"),
    (("triggers", "*", "caused_by"), "expr"),
    (("triggers", "*", "effect"), "effect"),
    (("triggers", "*", "owner"), "expr"),
    (("windows", "*", "when"), "expr"),
    (("windows", "*", "who"), "expr"),
    (("quantities", "*", "base"), "expr"),
    (("quantities", "*", "min"), "expr"),
    (("quantities", "*", "max"), "expr"),
    (("modifiers", "*", "when"), "expr"),
    (("modifiers", "*", "set"), "expr"),
    (("modifiers", "*", "add"), "expr"),
    (("scoring", "score"), "expr"),
    (("scoring", "final"), "effect"),
    (("end", "*", "when"), "expr"),
    (("end", "*", "winners"), "expr"),
    (("ranking", "by", "*"), "expr"),
    (("invariants", "*"), "invariant"),
    (("invariants", "*", "holds"), "expr"),
    (("invariants", "*", "never_decreases"), "expr"),
    (("bots", "heuristic"), "expr"),
    (("bots", "heuristic_max"), "bound"),
    (("requires", "*", "holds"), "expr"),
) + ABILITY_FIELDS


def rule_texts(data: Any) -> Iterator[tuple[tuple, Any, str]]:
    """Every (path, text, kind) of rule-language text in spec data; kind is expr, effect or binder."""
    for pattern, kind in _RULE_FIELDS:
        for dpath, value in _match(data, pattern, ()):
            if value is None:
                continue
            if kind == "invariant":
                if isinstance(value, dict):
                    continue  # long form: its holds/never_decreases entries are listed separately
                kind_here = "expr"
            elif kind == "constant":
                if not isinstance(value, str):
                    continue  # a YAML value, not an expression
                kind_here = "expr"
            elif kind == "bound":
                if not isinstance(value, str):
                    continue  # a number is a number: only a bound written as text is rule text
                kind_here = "expr"
            elif kind == "binder":
                kind_here = "expr"
            else:
                kind_here = kind
            if isinstance(value, (bool, int)) and kind_here == "expr":
                value = str(value).lower() if isinstance(value, bool) else str(value)
            yield dpath, value, kind_here


def _match(node: Any, pattern: tuple, prefix: tuple) -> Iterator[tuple[tuple, Any]]:
    if not pattern:
        yield prefix, node
        return
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        if isinstance(node, dict):
            for k, v in node.items():
                yield from _match(v, rest, prefix + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from _match(v, rest, prefix + (i,))
    elif isinstance(node, dict) and head in node:
        yield from _match(node[head], rest, prefix + (head,))
