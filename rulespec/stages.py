"""Every stage of validation that can run, in one run (issue 30, item 12).

A spec with a structure error (an unknown key, a wrong type) has no model to parse and check, so validation
used to stop there, and an author met the mistakes one stage at a time.  Here the structure's findings are
kept, and a *repaired* copy of the data is validated instead: unknown keys are left out, and an entry with any
other problem (an action, a table, a piece kind, a phase, a whole optional section) is left out whole.  The
rule text of the rest is parsed and checked as usual.  Findings of the static checks that name something left
out (`unknown action 'buy'` when `buy` itself was refused) are dropped: they follow from the first mistake.
Nothing repaired is ever played: a spec with any error is refused.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import ValidationError

from .errors import Finding
from .models import Spec
from .pydantic_errors import _data_path, findings_from_validation
from .variants import Merged

# Sections whose entries are named, and the depth of an entry's path: ("actions", NAME), ("components", "pieces", NAME)
_NAMED = {"variables": 2, "tables": 2, "functions": 2, "procedures": 2, "actions": 2, "triggers": 2, "end": 2,
          "invariants": 2, "constants": 2, "names": 2, "assumptions": 2}
_OPTIONAL = {"scoring", "ranking", "display", "bots", "setup"}  # sections whose defaults stand in
_ROUNDS = 25


def repaired_model(merged: Merged) -> tuple[Spec | None, list[Finding], set[str]]:
    """The model of the merged data (or of a repaired copy), the structure's findings and the names of the
    entries left out; None when even a repaired copy has no model (e.g. `game` or `flow` is broken)."""
    try:
        return Spec.model_validate(merged.data), [], set()
    except ValidationError as exc:
        findings = findings_from_validation(exc, merged.data, merged.span, merged.key_span, Spec)
        first = exc
    work, dropped = copy.deepcopy(merged.data), set()
    if not isinstance(work, dict):
        return None, findings, dropped
    exc = first
    for _ in range(_ROUNDS):
        paths = set()
        for err in exc.errors(include_url=False):
            path = _data_path(tuple(err.get("loc", ())), work)
            cut = path if _leaf(err, path) else _entry(path)
            if cut is None:
                return None, findings, dropped
            paths.add(cut)
        for path in sorted(paths, key=lambda p: (len(p), p), reverse=True):
            _remove(work, path, dropped)
        try:
            return Spec.model_validate(work), findings, dropped
        except ValidationError as again:
            exc = again
    return None, findings, dropped


def _leaf(err: dict, path: tuple) -> bool:
    """Whether leaving out just the key at `path` repairs the problem: an unknown key, or a bad plain value of a
    key whose default can stand in (not a `type`, which shapes everything else of its entry)."""
    if err.get("type") == "extra_forbidden":
        return True
    return (err.get("type") != "missing" and len(path) > 2 and path[-1] != "type" and isinstance(path[-1], str)
            and not isinstance(err.get("input"), (dict, list)))


def _entry(path: tuple) -> tuple | None:
    """The entry to leave out for a problem at `path`; None when it is part of what every spec needs."""
    if not path:
        return None
    head = path[0]
    if head in _NAMED and len(path) >= 2:
        return path[:2]
    if head in _OPTIONAL:
        return path[:1]
    if head == "components" and len(path) >= 3:
        return path[:3]
    if head == "flow" and len(path) >= 3 and path[1] == "phases":
        return path[:3]
    return None


def _remove(data: Any, path: tuple, dropped: set[str]) -> None:
    node = data
    for step in path[:-1]:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return
    last = path[-1]
    if isinstance(node, dict) and last in node:
        del node[last]
    elif isinstance(node, list) and isinstance(last, int) and 0 <= last < len(node):
        item = node.pop(last)
        last = item.get("name", last) if isinstance(item, dict) else last
    else:
        return
    if len(path) >= 2:
        dropped.add(str(last))


def unrelated(findings: list[Finding], dropped: set[str]) -> list[Finding]:
    """Findings that do not name an entry left out (those follow from its own finding)."""
    if not dropped:
        return findings
    return [f for f in findings if not any(f"'{name}'" in f.message for name in dropped)]
