"""What the spec's functions (and quantities) call: recursion (refused) and random draws (refused inside `say`
and costs).

Functions are expressions, so the checker can follow their calls statically; both questions are about the
whole call graph, not one expression, hence a module of their own.
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .gamespec import GameSpec

RANDOM = frozenset({"random_int", "shuffled"})  # the built-ins that draw from the game's random numbers


def cycle_from(start: str, edges: Any) -> list[str] | None:
    """A path start -> ... -> start through `edges` (name -> the names it reaches), or None."""
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for nxt in edges.get(node, ()):
            if nxt == start:
                return path + [start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None


class CallGraph:
    """The spec functions each spec function calls, and what follows from that."""

    def __init__(self, spec: GameSpec):
        self.bodies = {n: [e] for n in spec.model.functions if (e := spec.expr("functions", n, "expr")) is not None}
        self.calls = {n: [x.func for x in e[0].walk() if isinstance(x, A.Call) and x.func in spec.model.functions]
                      for n, e in self.bodies.items()}
        for q in spec.model.quantities:  # (a quantity's expressions, its modifiers' too: for draws only)
            self.bodies[q] = [e for f in ("base", "min", "max") if (e := spec.expr("quantities", q, f)) is not None]
        for n, d in spec.model.modifiers.items():
            if d.modify in spec.model.quantities:
                self.bodies[d.modify] += [e for f in ("when", "set", "add")
                                          if (e := spec.expr("modifiers", n, f)) is not None]
        self._drawing: dict[str, str | None] = {}

    def cycles(self) -> list[tuple[str, str]]:
        """(function, 'f -> g -> f') for each function that calls itself, directly or through others; each
        cycle reported once, at its first function."""
        found: list[tuple[str, str]] = []
        reported: set[str] = set()
        for start in self.calls:
            stack: list[tuple[str, list[str]]] = [(start, [start])]
            visited: set[str] = set()
            while stack:
                fn, path = stack.pop()
                for callee in self.calls.get(fn, []):
                    if callee == start and not reported & set(path):
                        found.append((start, " -> ".join(path + [start])))
                        reported |= set(path)
                    elif callee not in visited and callee != start:
                        visited.add(callee)
                        stack.append((callee, path + [callee]))
        return found

    def draws(self, func: str) -> str | None:
        """The random built-in a call of `func` reaches (itself, or through spec functions); None: none."""
        return func if func in RANDOM else self._draws(func, ())

    def _draws(self, fn: str, path: tuple) -> str | None:
        if fn in self._drawing:
            return self._drawing[fn]
        body = self.bodies.get(fn) if fn not in path else None  # (a cycle is reported by cycles())
        drawn = None
        for call in (n for e in body for n in e.walk() if isinstance(n, A.Call)) if body is not None else ():
            drawn = call.func if call.func in RANDOM else self._draws(call.func, path + (fn,))
            if drawn is not None:
                break
        if fn not in path:
            self._drawing[fn] = drawn
        return drawn
