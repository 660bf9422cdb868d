"""The typed fast path's recipe (recipe.py) kept in the disk cache (rulespec/diskcache.py), so that a warm start
runs no type pass and no generator: only the link of the cached source (whose code object is cached too).

An entry is keyed by the spec's digest and where its rule texts are (each root's span: the spec's digest is its
data's, and the recipe's spans name files and lines), the engine's own source keying the cache folder.  It is a pickle of the
recipe in which what the recipe shares with the loaded spec and rules is written by where it is, not by value:

- an AST node as its position: the root (`spec.exprs` or `spec.effects`, and its key; or, for a node the
  rules made themselves, the attributes and keys that lead from the rules to it) and the path of child
  indices (`Node.children`) down to it, so that it is read back as the node of the spec just loaded;
- the rules object, and an object up to three steps inside it (`rules.actions[name]`, `rules.limit_keys[key]`,
  `rules.names[name][1]`), as that path, so that the generated code holds the live rules' own objects;
- a closure a generator made (a fast built-in, a geometry lookup) as the call that made it (its
  `__orrery_rebuild__`: the factory and its arguments, themselves written the same way).

What the generation added to the rules' attributes (tables it shares with the code it wrote) is stored with the
recipe and put back.  Anything else that cannot be written so (a node outside the spec's trees, a closure that
cannot be remade) stores nothing: that spec is generated at every start, as before.  An entry read back names
only globals of the engine's own modules (and a few builtins): anything else, or a damaged or foreign entry,
is a miss, and the recipe is generated and stored again.
"""

from __future__ import annotations

import functools
import hashlib
import io
import pickle
import sys
from types import FunctionType
from typing import Any, Callable

from orrery.rulespec import ast as A
from orrery.rulespec import diskcache

from .recipe import Recipe

KIND = "typedmod"
_PLAIN = (str, int, float, bool, type(None), bytes, tuple, frozenset, range)
_ALLOWED_BUILTINS = frozenset({"set", "frozenset", "slice", "complex", "range", "getattr", "type", "object", "str",
                               "int", "float", "bool", "list", "dict", "tuple"})
_ROOTS = ("exprs", "effects")
# what the generation adds to the rules that the generated code shares (its tables of cells); the rest it adds
# (the reference built-ins' memos, core/suspends' sets of node ids) is remade as asked after a warm start
_CARRIED = frozenset({"_geometry_tables", "_typed_tables", "_cells_cache"})


class _Unplaceable(Exception):
    """Something in the recipe cannot be written by where it is, nor remade."""


def remade(factory: Callable[..., Any]) -> Callable[..., Any]:
    """A factory of closures the generated code holds, whose closures a cached recipe remakes by calling it
    again with the same arguments (written the same way as the rest of the recipe)."""

    @functools.wraps(factory)
    def make(*args: Any) -> Any:
        fn = factory(*args)
        if fn is not None:
            fn.__orrery_rebuild__ = (make, args)
        return fn

    return make


def _key(spec: Any) -> str:
    """The entry's key: the spec's digest and the file, line and column of each of its rule texts."""
    h = hashlib.sha256()
    for table in _ROOTS:
        roots = getattr(spec, table)
        for key in sorted(roots, key=repr):
            sp = roots[key].span
            h.update(repr((key, None if sp is None else (sp.file, sp.line, sp.col, sp.end_line, sp.end_col))).encode())
    return diskcache.key_of(KIND, spec.digest, h.hexdigest())


# ------------------------------------------------------------------ writing


def _positions(spec: Any) -> dict[int, tuple]:
    """id(node) -> ("node", root table, root key, child path) for every node of the spec's trees (the first path met)."""
    out: dict[int, tuple] = {}
    for table in _ROOTS:
        roots = getattr(spec, table)
        for key in sorted(roots, key=repr):
            todo: list[tuple[Any, tuple]] = [(roots[key], ())]
            while todo:
                node, path = todo.pop()
                if id(node) in out:
                    continue
                out[id(node)] = ("node", table, key, path)
                todo.extend((kid, (*path, i)) for i, kid in enumerate(node.children()))
    return out


def _rules_nodes(rules: Any, known: dict[int, tuple], depth: int = 6) -> None:
    """Add to `known` the nodes the rules made themselves (not in the spec's trees: an action's empty effect,
    an ability's block): id(node) -> ("rnode", the steps from the rules to its root, its child path)."""
    seen = {id(rules.spec)}
    todo: list[tuple[Any, tuple]] = [(rules, ())]
    while todo:
        obj, steps = todo.pop(0)
        if id(obj) in seen or len(steps) > depth:
            continue
        seen.add(id(obj))
        if isinstance(obj, A.Node):
            if id(obj) not in known:
                for node, path in _tree(obj):
                    known.setdefault(id(node), ("rnode", steps, path))
            continue
        for step, value in _inside(obj):
            if not isinstance(value, _PLAIN) or type(value) is tuple:
                todo.append((value, (*steps, step)))


def _inside(obj: Any) -> list[tuple[tuple, Any]]:
    """The (step, value) pairs one step inside an object of the engine, a dict, a list or a tuple."""
    if isinstance(obj, dict):
        return [(("i", k), v) for k, v in sorted(obj.items(), key=lambda kv: repr(kv[0])) if isinstance(k, (str, int))]
    if isinstance(obj, (list, tuple)):
        return [(("i", i), v) for i, v in enumerate(obj)]
    if not type(obj).__module__.startswith("orrery.interpreter"):
        return []
    names = list(getattr(obj, "__dict__", {})) + [n for c in type(obj).__mro__ for n in getattr(c, "__slots__", ())]
    return [(("a", n), getattr(obj, n)) for n in sorted(set(names)) if hasattr(obj, n)]


def _tree(root: Any) -> list[tuple[Any, tuple]]:
    """(node, child path) of a tree's nodes, depth first."""
    out, todo = [], [(root, ())]
    while todo:
        node, path = todo.pop()
        out.append((node, path))
        todo.extend((kid, (*path, i)) for i, kid in enumerate(node.children()))
    return out


def _owned(rules: Any, skip: set[str]) -> dict[int, tuple]:
    """id(obj) -> (attribute, key) for the rules' attributes and the items of those that are dicts or lists."""
    out: dict[int, tuple] = {}
    for name, value in vars(rules).items():
        if name in skip or isinstance(value, _PLAIN):
            continue
        out.setdefault(id(value), (name,))
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, item in items:
            if not isinstance(key, (str, int)):
                continue
            if not isinstance(item, _PLAIN):
                out.setdefault(id(item), (name, key))
            elif type(item) is tuple:  # (rules.names: name -> (what, its object))
                for i, sub in enumerate(item):
                    if not isinstance(sub, _PLAIN):
                        out.setdefault(id(sub), (name, key, i))
    return out


def _by_name(fn: FunctionType) -> bool:
    """Whether pickle can write a function as its module and name (it is what that name holds)."""
    found: Any = sys.modules.get(fn.__module__)
    for part in fn.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is fn


class _Writer(pickle.Pickler):
    def __init__(self, f: Any, rules: Any, added: set[str]):
        super().__init__(f, protocol=pickle.HIGHEST_PROTOCOL)
        self.rules = rules
        self.nodes = _positions(rules.spec)
        _rules_nodes(rules, self.nodes)
        self.owned = _owned(rules, added)

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, _PLAIN):
            return None
        if isinstance(obj, A.Node):
            where = self.nodes.get(id(obj))
            if where is None:
                raise _Unplaceable(type(obj).__name__)
            return where
        if obj is self.rules:
            return ("rules",)
        where = self.owned.get(id(obj))
        return None if where is None else ("owned", *where)

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is FunctionType:
            remake = getattr(obj, "__orrery_rebuild__", None)
            if remake is not None:
                return remake
            if not _by_name(obj):
                raise _Unplaceable(obj.__qualname__)
        return NotImplemented


def store(rules: Any, recipe: Recipe, added: dict[str, Any]) -> bool:
    """Keep a spec's recipe (and the rules' attributes its generation added) on disk; False when some part of
    it cannot be written by where it is (that spec is generated at every start) or the disk refused it."""
    buf = io.BytesIO()
    added = {k: v for k, v in added.items() if k in _CARRIED}
    try:
        _Writer(buf, rules, set(added)).dump((added, recipe))
    except (_Unplaceable, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return False
    return diskcache.write(KIND, _key(rules.spec), buf.getvalue())


# ------------------------------------------------------------------ reading


class _Reader(pickle.Unpickler):
    def __init__(self, f: Any, rules: Any):
        super().__init__(f)
        self.rules = rules
        self.kids: dict[int, list] = {}  # a node's children, listed once: paths down the spec share their starts

    def persistent_load(self, pid: Any) -> Any:
        what = pid[0]
        if what in ("node", "rnode"):
            if what == "node":
                node = getattr(self.rules.spec, _ROOTS[_ROOTS.index(pid[1])])[pid[2]]
            else:
                node = self.rules
                for how, key in pid[1]:
                    node = getattr(node, key) if how == "a" else node[key]
            for i in pid[-1]:
                kids = self.kids.get(id(node))  # (the spec holds every node it reaches while this reads)
                if kids is None:
                    kids = self.kids[id(node)] = list(node.children())
                node = kids[i]
            if not isinstance(node, A.Node):
                raise pickle.UnpicklingError("not a node")
            return node
        if what == "rules":
            return self.rules
        if what == "owned":
            value = self.rules.__dict__[pid[1]]
            for key in pid[2:]:
                value = value[key]
            return value
        raise pickle.UnpicklingError("unknown reference")

    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in _ALLOWED_BUILTINS or module.startswith("orrery."):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name}")


def load(rules: Any) -> Recipe | None:
    """The recipe stored for this spec, its generation's attributes put back on `rules`; None on a miss (none
    stored, or an entry that is damaged, foreign or does not fit this spec)."""
    payload = diskcache.read(KIND, _key(rules.spec))
    if payload is None:
        return None
    try:
        added, recipe = _Reader(io.BytesIO(payload), rules).load()
    except Exception:  # noqa: BLE001 - whatever is wrong with an entry makes it a miss
        return None
    if not isinstance(recipe, Recipe) or not isinstance(added, dict) or recipe.digest != rules.spec.digest:
        return None
    for name, value in added.items():
        rules.__dict__.setdefault(name, value)
    return recipe


__all__ = ["KIND", "load", "remade", "store"]
