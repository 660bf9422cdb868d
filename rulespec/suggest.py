"""'Did you mean' for unknown keys: the keys a model allows at a location, and the closest one.

Pydantic reports an unknown key with its `loc` only; the allowed keys come from
walking the model's type annotations along that `loc` (models, dicts, lists,
optionals and unions; the branch names pydantic inserts for unions are skipped).
"""

from __future__ import annotations

import difflib
import types
import typing
from typing import Any, Iterable

from pydantic import BaseModel

from .errors import one_line

_MAX_DEPTH = 64  # a loc is at most as deep as the YAML, which is bounded; this only guards odd annotations


def _options(tp: Any) -> list[Any]:
    """The alternatives of a type: the branches of a union or Optional, else the type itself."""
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        return [b for arg in typing.get_args(tp) for b in _options(arg)]
    if origin is typing.Annotated:
        return _options(typing.get_args(tp)[0])
    return [tp]


def _model_keys(model: type[BaseModel]) -> dict[str, Any]:
    """The keys a model accepts (aliases as written in YAML) and their types."""
    keys: dict[str, Any] = {}
    for name, f in model.model_fields.items():
        keys[f.alias or name] = f.annotation
    return keys


def _step(tp: Any, seg: Any) -> list[Any]:
    """The types found one loc segment below `tp` (several when a union is ambiguous)."""
    out: list[Any] = []
    for opt in _options(tp):
        origin, args = typing.get_origin(opt), typing.get_args(opt)
        if isinstance(opt, type) and issubclass(opt, BaseModel):
            keys = _model_keys(opt)
            if isinstance(seg, str) and (seg in keys or seg.rstrip("_") in keys):
                out.append(keys.get(seg, keys.get(seg.rstrip("_"))))
            elif seg == opt.__name__:  # a union branch tag: stay on this model
                out.append(opt)
        elif origin is dict and len(args) == 2:
            out.append(args[1])
        elif origin in (list, tuple) and args and isinstance(seg, int):
            out.append(args[0])
    return out


def allowed_keys(model: type[BaseModel], loc: Iterable[Any]) -> list[str]:
    """Keys allowed in the mapping at `loc` under `model` (empty when it cannot be told)."""
    current: list[Any] = [model]
    for depth, seg in enumerate(loc):
        if depth > _MAX_DEPTH:
            return []
        nxt = [t for tp in current for t in _step(tp, seg)]
        current = nxt or current  # a segment matching nothing is a union tag such as 'str': skip it
    keys: list[str] = []
    for tp in current:
        for opt in _options(tp):
            if isinstance(opt, type) and issubclass(opt, BaseModel):
                keys.extend(k for k in _model_keys(opt) if k not in keys)
    return keys


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' for the closest choice, or '' when nothing is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{one_line(close[0])}'?)" if close else ""  # (a key may hold a newline)
