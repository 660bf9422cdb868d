"""The house rules of interpreter/ and rulespec/: no import cycles, no module over 800 lines.

The import graph is read with `ast` (nothing is imported or executed), the way
`../shared/tools/house-check` reads it: every `import` and `from ... import` anywhere in
a module counts, including those inside functions and under `if TYPE_CHECKING:` (a local
import is still a dependency; it only hides the cycle until run time). `orrery.X.Y`,
`X.Y` and relative imports all map to files; `from P import name` depends on `P.name`
when that is a module, else on `P`. A package's `__init__` is not counted as a
dependency of its own submodules.

Both allow-lists below may only shrink: a new cycle or a new oversized module fails, and
so does an entry that no longer matches (the test then says what to write instead).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("interpreter", "rulespec")
MAX_LINES = 800

# Import cycles allowed for now, each as its set of modules (a strongly connected component).
ALLOWED_CYCLES: list[set[str]] = []

# Modules allowed over MAX_LINES for now (issue 17 asks for none over ~800 lines).
ALLOWED_BIG: set[str] = set()


def module_name(path: Path) -> str:
    """`interpreter/cli/main.py` -> `interpreter.cli`; a package's `__init__.py` -> the package."""
    parts = list(path.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def module_files(root: Path, folders=FOLDERS) -> dict[str, Path]:
    """Every module under the folders, by dotted name (relative to root)."""
    return {module_name(p.relative_to(root)): p
            for folder in folders if (root / folder).is_dir()
            for p in sorted((root / folder).rglob("*.py"))}


def import_graph(root: Path, folders=FOLDERS) -> dict[str, set[str]]:
    """Module -> the modules of the folders it imports (anywhere in its source)."""
    files = module_files(root, folders)

    def resolve(name: str) -> str | None:
        name = name.removeprefix("orrery.")
        while name:
            if name in files:
                return name
            name = name.rpartition(".")[0]
        return None

    graph: dict[str, set[str]] = {}
    for mod, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))  # a module that does not parse fails
        pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = pkg.split(".")
                    if node.level > 1:
                        up = up[: len(up) - (node.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{a.name}" for a in node.names] + [base]
            else:
                continue
            for target in targets:
                dep = resolve(target)
                if dep and dep != mod and not (files[dep].name == "__init__.py" and mod.startswith(dep + ".")):
                    deps.add(dep)
        graph[mod] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        found.append(comp)
    return found


def cycle_path(graph: dict[str, set[str]], comp: set[str]) -> str:
    """One closed path through a cycle, for the failure message: a -> b -> ... -> a."""
    start = min(comp)
    prev: dict[str, str] = {}
    todo = [start]
    while todo:  # breadth-first inside the component until an edge leads back to start
        v = todo.pop(0)
        for w in sorted(graph[v] & comp):
            if w == start:
                back = [v]
                while back[-1] != start:
                    back.append(prev[back[-1]])
                return " -> ".join(reversed(back)) + f" -> {start}"
            if w not in prev:
                prev[w] = v
                todo.append(w)
    return ", ".join(sorted(comp))  # pragma: no cover - a component always closes


def line_count(path: Path) -> int:
    with path.open(encoding="utf-8", errors="replace") as f:
        return sum(1 for _ in f)


# ------------------------------------------------------------------ the house


@functools.lru_cache(maxsize=None)
def repo_graph() -> dict[str, set[str]]:
    """The checkout's import graph, read once for the tests that only look at it."""
    return import_graph(ROOT)


def test_no_import_cycle_beyond_the_allow_list():
    graph = repo_graph()
    assert len(graph) > 30, f"found only {len(graph)} modules under {FOLDERS} in {ROOT}"
    found = cycles(graph)
    new = [c for c in found if not any(c <= allowed for allowed in ALLOWED_CYCLES)]
    assert not new, "new import cycle(s); break them (a third module both import, or invert a dependency):\n" + \
        "\n".join(f"  {cycle_path(graph, c)}  (modules: {', '.join(sorted(c))})" for c in new)
    stale = [allowed for allowed in ALLOWED_CYCLES if allowed not in found]
    now = [c for c in found if any(c <= allowed for allowed in ALLOWED_CYCLES)]
    assert not stale, ("ALLOWED_CYCLES lists a cycle that is gone or smaller now; shrink the allow-list to the "
                       f"cycles that remain: {[sorted(c) for c in now]}")


def test_no_module_over_800_lines_beyond_the_allow_list():
    sizes = {path.relative_to(ROOT).as_posix(): line_count(path) for path in module_files(ROOT).values()}
    big = {name for name, n in sizes.items() if n > MAX_LINES}
    new = sorted(big - ALLOWED_BIG)
    assert not new, f"module(s) over {MAX_LINES} lines; split them: " + \
        ", ".join(f"{name} ({sizes[name]})" for name in new)
    stale = sorted(ALLOWED_BIG - big)
    assert not stale, (f"ALLOWED_BIG lists modules that are gone or no longer over {MAX_LINES} lines; remove them: "
                       + ", ".join(stale))


# The pipeline, lowest first: a package may import only from packages before it (and rulespec/). The designer's
# workbench (report, compare, coverage, tune) sits before the CLI that offers its commands. The framework
# adapters sit beside the CLI, at its end: they may use anything (the renderer for a text screen), nothing uses them.
LAYERS = ["core", "reference", "compiler", "engine", "bots", "files", "workbench", "serve", "cli", "adapters"]


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Imports between interpreter subpackages that flow up the pipeline (module -> module)."""
    def layer(mod: str) -> int | None:
        parts = mod.split(".")
        return LAYERS.index(parts[1]) if len(parts) > 2 and parts[0] == "interpreter" and parts[1] in LAYERS \
            else None
    bad = []
    for mod, deps in graph.items():
        for dep in deps:
            a, b = layer(mod), layer(dep)
            if a is not None and b is not None and b > a:
                bad.append(f"{mod} -> {dep}")
    return sorted(bad)


def test_interpreter_is_layered_as_the_pipeline():
    graph = repo_graph()
    packages = {name.split(".")[1] for name in graph if name.startswith("interpreter.") and name.count(".") >= 2}
    assert set(LAYERS) <= packages, f"missing pipeline packages: {set(LAYERS) - packages}"
    flat = sorted(n for n in graph if n.startswith("interpreter.") and n.count(".") == 1 and n[12:] not in LAYERS)
    assert not flat, f"modules at the top of interpreter/ (put each in its pipeline package): {flat}"
    bad = layer_violations(graph)
    assert not bad, "imports flowing up the pipeline " + " < ".join(LAYERS) + ":\n  " + "\n  ".join(bad)


def test_layer_check_catches_an_upward_import():
    graph = {"interpreter.core.state": {"interpreter.cli.play"}, "interpreter.cli.play": {"interpreter.core.state"}}
    assert layer_violations(graph) == ["interpreter.core.state -> interpreter.cli.play"]


# ------------------------------------------------------------------ the checker itself


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_graph_counts_every_kind_of_import(tmp_path):
    _write(tmp_path, {
        "interpreter/__init__.py": "from .a import x\n",  # __init__ -> a counts; a -> __init__ does not
        "interpreter/a.py": "from . import b\nimport orrery.rulespec.c\n",
        "interpreter/b.py": "def f():\n    from .sub.d import y\n",  # inside a function
        "interpreter/sub/__init__.py": "",
        "interpreter/sub/d.py": "from ..a import x\nfrom orrery.rulespec import c\nimport json\n",
        "rulespec/__init__.py": "",
        "rulespec/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import interpreter.a\n",
    })
    graph = import_graph(tmp_path)
    assert graph == {
        "interpreter": {"interpreter.a"},
        "interpreter.a": {"interpreter.b", "rulespec.c"},
        "interpreter.b": {"interpreter.sub.d"},
        "interpreter.sub": set(),
        "interpreter.sub.d": {"interpreter.a", "rulespec", "rulespec.c"},  # `from P import m`: P.m and P
        "rulespec": set(),
        "rulespec.c": {"interpreter.a"},
    }
    found = cycles(graph)
    assert found == [{"interpreter.a", "interpreter.b", "interpreter.sub.d", "rulespec.c"}]
    assert cycle_path(graph, found[0]) == "interpreter.a -> rulespec.c -> interpreter.a"  # a shortest one


@pytest.mark.parametrize("b_imports, cyclic", [("", False), ("import json\n", False),
                                               ("def g():\n    from . import a\n", True)])
def test_a_cycle_is_found_only_when_there_is_one(tmp_path, b_imports, cyclic):
    _write(tmp_path, {"interpreter/__init__.py": "", "interpreter/a.py": "from .b import f\n",
                      "interpreter/b.py": "def f():\n    pass\n" + b_imports})
    found = cycles(import_graph(tmp_path))
    assert found == ([{"interpreter.a", "interpreter.b"}] if cyclic else [])
