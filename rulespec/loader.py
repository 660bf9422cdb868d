"""Load a rule spec (plus variants) into a validated, parsed `GameSpec`.

Pipeline: YAML with positions -> variant overlay -> pydantic models -> every
condition and effect parsed into the AST -> names and types checked.  All
findings are collected and raised together as one SpecError.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Iterator

from pydantic import ValidationError

from . import ast as A
from .checker import check_spec
from .errors import Diagnostics, Finding, SpecError, Span
from .gamespec import GameSpec  # re-exported: callers import GameSpec from here
from .models import Spec
from .parser import parse_block, parse_expr
from .pydantic_errors import findings_from_validation
from .source import YamlLimits, load_yaml
from .speccache import cached_load
from .variants import Merged, load_variant, merge, no_variants

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
    vdocs = [load_variant(v, limits) for v in variants]
    merged = merge(base, vdocs) if vdocs else no_variants(base)
    return build_spec(merged, str(path), check=check)


def build_spec(merged: Merged, path: str, *, check: bool = True) -> GameSpec:
    """Validate merged data against the models and parse all rule text."""
    diags = Diagnostics()
    try:
        model = Spec.model_validate(merged.data)
    except ValidationError as exc:
        diags.extend(findings_from_validation(exc, merged.data, merged.span, merged.key_span, Spec))
        diags.raise_if_errors()
        raise  # pragma: no cover - raise_if_errors always raises here
    spec = GameSpec(model=model, merged=merged, path=path, digest=spec_digest(merged.data),
                    variants=list(merged.variant_names))
    for dpath, text, kind in rule_texts(merged.data):
        _parse_into(spec, dpath, text, kind, diags)
    diags.raise_if_errors()
    if check:
        diags.extend(check_spec(spec))
        diags.raise_if_errors()
        spec.warnings = [f for f in diags.findings if f.severity != "error"]
    return spec


def _parse_into(spec: GameSpec, dpath: tuple, text: Any, kind: str, diags: Diagnostics) -> None:
    merged = spec.merged
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
    (("actions", "*", "params", "*", "from"), "expr"),
    (("actions", "*", "params", "*", "where"), "expr"),
    (("actions", "*", "cost", "*"), "expr"),
    (("actions", "*", "effect"), "effect"),
    (("triggers", "*", "for"), "binder"),
    (("triggers", "*", "when"), "expr"),
    (("triggers", "*", "order"), "expr"),
    (("triggers", "*", "effect"), "effect"),
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
)


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
