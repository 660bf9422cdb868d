"""Turn pydantic ValidationErrors into located findings (the dagster approach).

Each pydantic error has a `loc` tuple of keys/indices into the validated data;
the caller supplies `locate(path) -> Span` from the YAML source map.  Union
branches and type-tag segments that pydantic inserts into `loc` are dropped so
the path matches the data.
"""

from __future__ import annotations

from typing import Any, Callable

from pydantic import ValidationError

from .errors import Finding, Span
from .suggest import allowed_keys, did_you_mean

Locate = Callable[[tuple], Span]
KeyLocate = Callable[[tuple], "Span | None"]


def _data_path(loc: tuple, data: Any) -> tuple:
    """Keep only the loc segments that exist in the data (drop union/type tags)."""
    path: list = []
    node = data
    for seg in loc:
        if isinstance(node, dict) and seg in node:
            path.append(seg)
            node = node[seg]
        elif isinstance(node, list) and isinstance(seg, int) and 0 <= seg < len(node):
            path.append(seg)
            node = node[seg]
        elif isinstance(node, dict) and isinstance(seg, str) and seg.endswith("_") and seg[:-1] in node:
            path.append(seg[:-1])  # python-keyword fields use an alias: from_ -> from
            node = node[seg[:-1]]
        # else: a union branch name like 'str' or 'list[str]', or a missing key: skip it
    return tuple(path)


def _message(err: dict, path: tuple, model: type | None = None) -> str:
    kind = err.get("type", "")
    where = ".".join(str(p) for p in path) or "the file"
    loc = err.get("loc", ())
    if kind == "missing":
        return f"missing required key '{loc[-1]}' in {where}"
    if kind == "extra_forbidden":
        hint = did_you_mean(str(loc[-1]), allowed_keys(model, loc[:-1])) if model is not None else ""
        return f"unknown key '{loc[-1]}'{hint}"
    msg = err.get("msg", "invalid value")
    msg = msg.removeprefix("Value error, ")
    inp = err.get("input")
    if kind.endswith("_type") or kind in ("literal_error", "enum", "string_pattern_mismatch"):
        shown = repr(inp) if not isinstance(inp, (dict, list)) else type(inp).__name__
        if len(shown) > 40:
            shown = shown[:37] + "..."
        return f"{where}: {msg} (got {shown})"
    return f"{where}: {msg}"


def findings_from_validation(
    exc: ValidationError, data: Any, locate: Locate, key_locate: KeyLocate | None = None,
    model: type | None = None,
) -> list[Finding]:
    """One finding per distinct error, located at the offending value (or key); `model` suggests known keys."""
    out: list[Finding] = []
    seen: set[tuple] = set()
    errors = [(err, _data_path(tuple(err.get("loc", ())), data)) for err in exc.errors(include_url=False)]
    deeper = {path[:i] for _, path in errors for i in range(len(path))}  # paths some error lies below
    for err, path in errors:
        if path in deeper and err.get("type", "").endswith("_type") and isinstance(err.get("input"), (dict, list)):
            continue  # a mapping written where a union also takes a scalar: the mapping branch's errors tell it
        msg = _message(err, path, model)
        key = (path, msg)
        if key in seen:
            continue
        seen.add(key)
        span = None
        if err.get("type") == "extra_forbidden" and key_locate is not None:
            span = key_locate(path)
        if span is None:
            span = locate(path)
        out.append(Finding(span, msg))
    return _drop_union_noise(out)


def _drop_union_noise(findings: list[Finding]) -> list[Finding]:
    """When a value fails every branch of a union, keep one message per location."""
    by_span: dict[tuple, list[Finding]] = {}
    for f in findings:
        k = (f.span.file, f.span.line, f.span.col) if f.span else ("", 0, 0)
        by_span.setdefault(k, []).append(f)
    kept: list[Finding] = []
    for group in by_span.values():
        missing = [f for f in group if f.message.startswith("missing required key")]
        kept.extend(missing)  # several missing keys are several mistakes, never alternatives
        group = [f for f in group if f not in missing]
        if len(group) > 2:
            merged = "; or ".join(dict.fromkeys(f.message for f in group[:3]))
            kept.append(Finding(group[0].span, merged))
        else:
            kept.extend(group)
    return kept
