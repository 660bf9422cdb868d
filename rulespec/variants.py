"""Variants: YAML files of changes (set/replace/remove/add) overlaid on a base spec.

`merge` applies the changes of each variant in order to a deep copy of the base
data and keeps a parallel *origin tree*: every container item in the merged data
remembers which file and which path inside that file it came from.  The origin
nodes move with their items, so list insertions and removals never confuse the
spans that later stages report.
"""

from __future__ import annotations

import copy
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .errors import Diagnostics, Finding, SpecError, Span
from .filemodels import CHANGE_OPS, Variant
from .paths import real_path, relative_to_file
from .pydantic_errors import findings_from_validation
from .source import SourceDoc, YamlLimits, load_yaml

OPS = CHANGE_OPS


@dataclass(frozen=True)
class AppliedChange:
    """One change as applied to the merged data."""

    variant: str
    op: str
    path: str
    resolved: tuple
    old: Any
    new: Any
    why: str | None
    span: Span


class _O:
    """Origin node: where a value came from, plus origin nodes for its items."""

    __slots__ = ("doc", "path", "kids")

    def __init__(self, doc: SourceDoc, path: tuple, kids: dict | list | None):
        self.doc, self.path, self.kids = doc, path, kids


def _otree(value: Any, doc: SourceDoc, path: tuple) -> _O:
    """Origin tree mirroring `value`, every node located at `path` (and below) in `doc`."""
    if isinstance(value, dict):
        return _O(doc, path, {k: _otree(v, doc, path + (k,)) for k, v in value.items()})
    if isinstance(value, list):
        return _O(doc, path, [_otree(v, doc, path + (i,)) for i, v in enumerate(value)])
    return _O(doc, path, None)


@dataclass
class Merged:
    """A base spec with variants applied, able to locate every merged value in its source file."""

    data: Any
    base: SourceDoc
    variants: list[SourceDoc] = field(default_factory=list)
    applied: list[AppliedChange] = field(default_factory=list)
    variant_names: list[str] = field(default_factory=list)
    assumptions: list[tuple[SourceDoc, tuple]] = field(default_factory=list)
    _origins: _O | None = field(default=None, repr=False, compare=False)

    def _find(self, path: tuple) -> tuple[_O, bool]:
        """Deepest origin node along `path` and whether the whole path matched."""
        node = self._origins if self._origins is not None else _otree(self.data, self.base, ())
        for step in path:
            kids = node.kids
            if isinstance(kids, dict) and isinstance(step, str) and step in kids:
                node = kids[step]
            elif (isinstance(kids, list) and isinstance(step, int) and not isinstance(step, bool)
                  and -len(kids) <= step < len(kids)):
                node = kids[step]
            else:
                return node, False
        return node, True

    def origin(self, path: tuple) -> tuple[SourceDoc, tuple]:
        """File and path inside it that the merged value at `path` (or its nearest ancestor) comes from."""
        node, _ = self._find(path)
        return node.doc, node.path

    def span(self, path: tuple) -> Span:
        """Span of the merged value at `path` in the file it comes from."""
        doc, opath = self.origin(path)
        return doc.span(opath)

    def key_span(self, path: tuple) -> Span | None:
        """Span of the key naming the merged entry at `path`; for a variant's value, its change path."""
        node, complete = self._find(path)
        if not complete or not path:
            return None
        p = node.path
        if (node.doc is not self.base and isinstance(path[-1], str)
                and len(p) == 3 and p[0] == "changes" and p[2] == "value"):
            change = node.doc.data["changes"][p[1]]
            op = next((o for o in OPS if change.get(o) is not None), None)
            return node.doc.span(("changes", p[1], op)) if op else None
        return node.doc.key_span(p)

    def text_span(self, path: tuple, line: int, col: int,
                  end_line: int | None = None, end_col: int | None = None) -> Span:
        """Map a (line, col) inside the merged string at `path` to its position in the source file."""
        node, complete = self._find(path)
        if not complete:
            return node.doc.span(node.path)
        return node.doc.text_span(node.path, line, col, end_line, end_col)


def no_variants(base: SourceDoc) -> Merged:
    """The base spec as a Merged with nothing applied."""
    return Merged(copy.deepcopy(base.data), base, _origins=_otree(base.data, base, ()))


def _validate(doc: SourceDoc) -> list[Finding]:
    """Located findings for a variant file that does not match filemodels.Variant."""
    try:
        Variant.model_validate(doc.data)
    except ValidationError as exc:
        return findings_from_validation(exc, doc.data, doc.span, doc.key_span, Variant)
    return []


def load_variant(path: str | Path, limits: YamlLimits | None = None, doc: SourceDoc | None = None) -> SourceDoc:
    """Load and validate a variant file (`doc`: the file already read); raise SpecError with located findings."""
    doc = doc or load_yaml(path, limits=limits)
    findings = _validate(doc)
    if findings:
        raise SpecError(findings)
    return doc


def variant_base_path(variant_doc: SourceDoc) -> Path:
    """Path of the base spec a variant names, resolved against the variant file's directory."""
    meta = variant_doc.data.get("variant") if isinstance(variant_doc.data, dict) else None
    base = meta.get("base") if isinstance(meta, dict) else None
    return real_path(relative_to_file(base or "../rules.yaml", variant_doc.path))


# ------------------------------------------------------------------ paths


@dataclass(frozen=True)
class _Tok:
    kind: str  # key | index | name
    value: str | int
    start: int  # offsets in the path text, end exclusive
    end: int


class _Bad(Exception):
    """A problem with one change; args = (message, start, end) in the path text, plus a hint."""

    def __init__(self, message: str, start: int, end: int, hint: str | None = None):
        super().__init__(message)
        self.message, self.start, self.end, self.hint = message, start, end, hint


_KEY = re.compile(r"[^.\[\]\s]+")
_INT = re.compile(r"-?\d+")


def parse_path(text: str) -> list[_Tok]:
    """Split `a.b[0].c[name]` into key, index and name selectors; raise _Bad when malformed."""
    if not text:
        raise _Bad("empty path", 0, 0)
    toks: list[_Tok] = []
    p, n = 0, len(text)
    while True:
        m = _KEY.match(text, p)
        if not m:
            what = "end of path" if p >= n else repr(text[p])
            raise _Bad(f"malformed path {text!r}: expected a key at column {p + 1}, found {what}", p, p + 1)
        toks.append(_Tok("key", m.group(), p, m.end()))
        p = m.end()
        while p < n and text[p] == "[":
            close = text.find("]", p)
            if close < 0:
                raise _Bad(f"malformed path {text!r}: '[' at column {p + 1} is never closed", p, n)
            inner = text[p + 1:close].strip()
            if not inner or "[" in inner:
                raise _Bad(f"malformed path {text!r}: expected an index or a name inside '[]'", p, close + 1)
            if _INT.fullmatch(inner):
                toks.append(_Tok("index", int(inner), p, close + 1))
            else:
                toks.append(_Tok("name", inner, p, close + 1))
            p = close + 1
        if p == n:
            return toks
        if text[p] != ".":
            raise _Bad(f"malformed path {text!r}: unexpected {text[p]!r} at column {p + 1}", p, p + 1)
        p += 1


def _known(names: list) -> str:
    shown = ", ".join(str(k) for k in names[:6])
    return f"known: {shown}, ..." if len(names) > 6 else (f"known: {shown}" if names else "it is empty")


def _item_name(item: Any) -> Any:
    if isinstance(item, dict):
        return item.get("name", item.get("id"))
    return None


def _named_items(items: list, key: str) -> list[int]:
    """The positions of the items a `[key]` selects: those whose `id` is key, else those whose `name` is."""
    for field_ in ("id", "name"):
        found = [i for i, item in enumerate(items) if isinstance(item, dict) and item.get(field_) is not None
                 and str(item.get(field_)) == key]
        if found:
            return found
    return []


def _brief(value: Any) -> str:
    r = repr(value)
    return r if len(r) <= 30 else r[:27] + "..."


# ------------------------------------------------------------------ merging


class _Applier:
    """Applies changes to the merged data and its origin tree, collecting findings."""

    def __init__(self, base: SourceDoc):
        self.data = copy.deepcopy(base.data)
        self.root = _otree(base.data, base, ())
        self.diag = Diagnostics()

    def step(self, node: Any, tok: _Tok, text: str) -> str | int:
        """The concrete key or index `tok` selects in `node`; raise _Bad when it selects nothing."""
        where = text[:tok.start].rstrip(".") or "the top level"
        if isinstance(node, dict):
            if tok.kind != "key":
                raise _Bad(f"{where} is a mapping, not a list: select its entries with .key", tok.start, tok.end)
            if tok.value not in node:
                close = difflib.get_close_matches(str(tok.value), [str(k) for k in node], 1)
                raise _Bad(f"no '{tok.value}' in {where} ({_known(list(node))})", tok.start, tok.end,
                           f"did you mean '{close[0]}'?" if close else None)
            return tok.value
        if isinstance(node, list):
            if tok.kind == "key":
                raise _Bad(f"{where} is a list: select an item with [index] or [name]", tok.start, tok.end)
            if tok.kind == "index":
                if not 0 <= int(tok.value) < len(node):
                    raise _Bad(f"index {tok.value} out of range: {where} has {len(node)} items",
                               tok.start, tok.end)
                return int(tok.value)
            found = _named_items(node, str(tok.value))
            if len(found) == 1:
                return found[0]
            if found:
                raise _Bad(f"'{tok.value}' names {len(found)} items of {where} (items {', '.join(map(str, found))}): "
                           f"a change must name exactly one", tok.start, tok.end,
                           "give the items distinct `id`s, or select one by [index]")
            names = [_item_name(item) for item in node if _item_name(item) is not None]
            close = difflib.get_close_matches(str(tok.value), [str(n) for n in names], 1)
            raise _Bad(f"no item named '{tok.value}' in {where} ({_known(names)})", tok.start, tok.end,
                       f"did you mean '{close[0]}'?" if close else None)
        label = f"'{tok.value}'" if tok.kind == "key" else text[tok.start:tok.end]
        raise _Bad(f"{where} is a single value ({_brief(node)}), so it has no {label}", tok.start, tok.end)

    def apply(self, op: str, text: str, value: Any, doc: SourceDoc, vpath: tuple) -> tuple[tuple, Any, Any]:
        """Apply one change; return (resolved path, old value, new value) or raise _Bad."""
        toks = parse_path(text)
        node, onode, resolved = self.data, self.root, ()
        for tok in toks[:-1]:
            key = self.step(node, tok, text)
            node, onode, resolved = node[key], onode.kids[key], resolved + (key,)
        last = toks[-1]
        new = copy.deepcopy(value)
        fresh = _otree(value, doc, vpath)
        if op in ("append", "prepend", "patch"):
            return extend(self, op, (node, onode, resolved, last, text), value, doc, vpath)
        if isinstance(node, dict) and last.kind == "key" and last.value not in node:
            if op in ("set", "add"):  # create a new entry
                node[last.value], onode.kids[last.value] = new, fresh
                return resolved + (last.value,), None, copy.deepcopy(new)
            try:
                self.step(node, last, text)  # raises: nothing to replace or remove
            except _Bad as bad:
                if op == "replace":
                    bad.hint = bad.hint or "replace needs an existing value; use set to create one"
                raise
        if op == "add":
            if isinstance(node, dict) and last.kind == "key" and not isinstance(node[last.value], list):
                raise _Bad(f"{text[:last.end]} already exists; use set or replace", 0, last.end)
            if isinstance(node, dict) and last.kind == "key":  # a list path: append
                node, onode, resolved = node[last.value], onode.kids[last.value], resolved + (last.value,)
                at = len(node)
            elif isinstance(node, list) and last.kind == "index":
                at = int(last.value)
                if not 0 <= at <= len(node):
                    where = text[:last.start]
                    raise _Bad(f"index {at} out of range: {where} has {len(node)} items "
                               f"(add inserts at 0 to {len(node)})", last.start, last.end)
            elif isinstance(node, list) and last.kind == "name":
                raise _Bad(f"add cannot insert at a named item; use [index], or {text[:last.start]} to append",
                           last.start, last.end)
            else:
                self.step(node, last, text)  # raises: wrong kind of container or a scalar
                raise AssertionError("unreachable")
            node.insert(at, new)
            onode.kids.insert(at, fresh)
            return resolved + (at,), None, copy.deepcopy(new)
        key = self.step(node, last, text)
        old = copy.deepcopy(node[key])
        if op == "remove":
            del node[key]
            del onode.kids[key]
            return resolved + (key,), old, None
        node[key], onode.kids[key] = new, fresh
        return resolved + (key,), old, copy.deepcopy(new)

    def near_miss(self, op: str, text: str) -> str | None:
        """A `set`/`add` that creates a mapping entry whose name is close to an existing one (a misspelt key:
        `set: constants.end_pionts` would add a constant nothing reads and change nothing): what to warn."""
        if op not in ("set", "add"):
            return None
        toks = parse_path(text)
        node = self.data
        for tok in toks[:-1]:
            node = node[self.step(node, tok, text)]  # (a path that selects nothing is apply's error)
        last = toks[-1]
        if not isinstance(node, dict) or last.kind != "key" or last.value in node:
            return None
        close = difflib.get_close_matches(str(last.value), [str(k) for k in node], 1, 0.8)
        return f"'{last.value}' is new in {text[:last.start].rstrip('.')}: {op} adds it (did you mean " \
               f"'{close[0]}'?)" if close else None

    def variant(self, doc: SourceDoc, merged: Merged) -> None:
        """Apply every change of one variant, recording a finding for each bad one."""
        findings = _validate(doc)
        if findings:
            self.diag.extend(findings)
            return
        name = doc.data["variant"]["name"]
        merged.variants.append(doc)
        merged.variant_names.append(name)
        for i, change in enumerate(doc.data.get("changes") or []):
            op = next(o for o in OPS if change.get(o) is not None)
            text = change[op]
            try:
                near = self.near_miss(op, text)
                resolved, old, new = self.apply(op, text, change.get("value"), doc, ("changes", i, "value"))
            except _Bad as bad:
                self.diag.error(_path_span(doc, ("changes", i, op), text, bad), bad.message, bad.hint)
                continue
            if near is not None:
                self.diag.warning(doc.span(("changes", i, op)), near, "a change that should change an existing value "
                                  "names it exactly; to add a new entry on purpose, ignore this")
            merged.applied.append(AppliedChange(name, op, text, resolved, old, new, change.get("why"),
                                                doc.span(("changes", i))))
        for j, _ in enumerate(doc.data.get("assumptions") or []):
            merged.assumptions.append((doc, ("assumptions", j)))


def _path_span(doc: SourceDoc, vpath: tuple, text: str, bad: _Bad) -> Span:
    """Span of the offending part of a change's path string in the variant file."""
    if not text:
        return doc.span(vpath)
    start = max(0, min(bad.start, len(text) - 1))
    end = max(start + 1, min(bad.end, len(text)))
    return doc.text_span(vpath, 1, start + 1, 1, end + 1)


def merge(base: SourceDoc, variants: list[SourceDoc]) -> Merged:
    """Apply each variant's changes in order to a copy of `base`; raise SpecError listing every bad change."""
    merged, findings = merge_all(base, variants)
    if any(f.severity == "error" for f in findings):
        raise SpecError(findings)
    return merged


def merge_all(base: SourceDoc, variants: list[SourceDoc]) -> tuple[Merged, list[Finding]]:
    """Apply each variant's good changes in order to a copy of `base`: the merged spec and a finding for every
    bad change (so that the later stages can still check the rest), and a warning for a probably misspelt one."""
    applier = _Applier(base)
    merged = Merged(applier.data, base, _origins=applier.root)
    for doc in variants:
        applier.variant(doc, merged)
    return merged, list(applier.diag.findings)


def extend(applier: _Applier, op: str, at: tuple, value: Any, doc: SourceDoc, vpath: tuple) -> tuple[tuple, Any, Any]:
    """`append`/`prepend` (an item to a list, statements to an effect) and `patch` (fields of a mapping).

    An effect written as one text becomes a list of texts, the base's and the variant's: the engine parses
    the items one by one and runs them in order as one effect, and each keeps the file it came from, so an
    error in either is reported where it is written."""
    node, onode, resolved, last, text = at
    fresh = _otree(value, doc, vpath)
    if isinstance(node, dict) and last.kind == "key" and last.value not in node and op != "patch":
        node[last.value], onode.kids[last.value] = copy.deepcopy(value), fresh  # nothing there yet: the value alone
        return resolved + (last.value,), None, copy.deepcopy(value)
    key = applier.step(node, last, text)
    target, otarget = node[key], onode.kids[key]
    old = copy.deepcopy(target)
    if op == "patch":
        if not isinstance(target, dict) or not isinstance(value, dict):
            what = "a mapping" if isinstance(target, dict) else f"a {type(target).__name__}"
            raise _Bad(f"patch sets fields of a mapping: {text} is {what}, and the value must be a mapping of "
                       f"fields", 0, last.end, "use set or replace for a single value")
        for k, v in value.items():
            target[k], otarget.kids[k] = copy.deepcopy(v), _otree(v, doc, vpath + (k,))
        return resolved + (key,), old, copy.deepcopy(target)
    if isinstance(target, str):  # an effect's statements: the base's text and the variant's, in order
        target, otarget = [target], _O(otarget.doc, otarget.path, [otarget])
        node[key], onode.kids[key] = target, otarget
    if not isinstance(target, list):
        raise _Bad(f"{op} adds to a list or an effect: {text} is a single value ({_brief(target)})", 0, last.end,
                   "use set or replace to change it")
    at_ = len(target) if op == "append" else 0
    target.insert(at_, copy.deepcopy(value))
    otarget.kids.insert(at_, fresh)
    return resolved + (key,), old, copy.deepcopy(target)
