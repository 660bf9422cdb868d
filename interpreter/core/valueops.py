"""Value operations under the language's limits: equality, membership, sizes, numbers, lookup tables.

They sit below the evaluator so that everything that computes values (the evaluator, statements,
built-ins, the compiled path's helpers) shares one definition without importing the evaluator.
`interp` arguments are the running Interp (anything with `limits`, `loops` and `describe`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from orrery.rulespec import ast as A

from .decisions import RuleError, RunawayError
from .options import MAX_DIGITS
from .values import Cell, PieceRef, Player, ZoneRef

Interp = Any  # the evaluator's Interp; not imported: the evaluator imports this module


@dataclass(frozen=True)
class Limits:
    """Runaway guards; each error names the rule and the limit to raise."""

    cascade: int = 10_000
    loop: int = 2_000_000
    emit_depth: int = 64
    flow: int = 100_000
    pieces: int = 200_000
    lookahead: int = 5_000
    auto: int = 5_000  # decisions in a row answered automatically (nobody gets a real choice)
    values: int = 1_000_000  # items in one list, characters in one text
    digits: int = 1_000  # decimal digits of one number (numbers below 10**18 are never checked)

    def replace(self, **kw: int) -> "Limits":
        """A copy with some limits changed."""
        return Limits(**{**self.__dict__, **kw})



_MISSING = object()


class TableRef:
    """A lookup table value: its entries are runtime values (mappings are records, at any depth: core/data.py)."""

    __slots__ = ("name", "decl", "values", "default", "_seen")

    def __init__(self, name: str, decl: Any, values: Any = None, default: Any = None):
        self.name = name
        self.decl = decl
        self.values = decl.values if values is None else values
        self.default = decl.default if default is None else default
        self._seen: dict[Any, Any] = {}  # key -> entry, for numbers, players and texts (tables never change)

    def lookup(self, key: Any, span: Any) -> Any:
        """`table[key]` with the table's rule for keys past the end."""
        cls = key.__class__
        if cls is int or cls is str or cls is Player:  # a player and its seat number look up the same entry
            hit = self._seen.get(key, _MISSING)
            if hit is not _MISSING:
                return hit
            value = self._seen[key] = self._lookup(key, span)  # (shared: values are never changed in place)
            return value
        return self._lookup(key, span)

    def _lookup(self, key: Any, span: Any) -> Any:
        vals, d = self.values, self
        if isinstance(key, bool):
            raise RuleError(f"table '{self.name}' is looked up by number or name, not by {str(key).lower()}", span)
        if isinstance(vals, list):
            if isinstance(key, int) and 0 <= key < len(vals):
                return vals[key]
            if isinstance(key, int) and key >= len(vals) and self.decl.above == "last" and vals:
                return vals[-1]
            if d.default is not None or self.decl.above == "default":
                return d.default
            raise RuleError(f"table '{self.name}' has no entry {key!r}", span)
        skey = str(int(key)) if isinstance(key, int) else str(key)  # a player looks up its seat number
        if skey in vals:
            return vals[skey]
        if isinstance(key, int) and not isinstance(key, bool):
            ints = sorted(int(k) for k in vals if _is_int(k))
            if ints and key > ints[-1] and self.decl.above == "last":
                return vals[str(ints[-1])]
        if d.default is not None or self.decl.above == "default":
            return d.default
        raise RuleError(f"table '{self.name}' has no entry {key!r}", span)


class ZoneFamily:
    """The zones of a `per:` declaration, one per key: `stack[key]` picks one, a loop goes through them all."""

    __slots__ = ("name", "keys", "zones")

    def __init__(self, name: str, keys: list[Any], zones: list[ZoneRef]):
        self.name = name
        self.keys = keys
        self.zones = zones

    def pick(self, key: Any, span: Any) -> ZoneRef:
        """The zone of one key (a number never picks a text's zone, nor true/false a number's)."""
        for k, z in zip(self.keys, self.zones):
            if k.__class__ is key.__class__ and k == key or (k.__class__ is int and key.__class__ is Player
                                                               and k == key):
                return z
        shown = ", ".join(repr(k) for k in self.keys)
        raise RuleError(f"zone '{self.name}' has no key {key!r} (its keys: {shown})", span)


def slice_value(interp: Interp, obj: Any, start: Any, stop: Any, node: Any) -> Any:
    """`obj[start:stop]` of a list or a text: Python's bounds (negative from the end, clamped, never an error);
    the new list or text counts its items against the loop limit, as `+` does."""
    if not isinstance(obj, (list, str)):
        raise RuleError(f"cannot slice {interp.describe(obj)}: only a list or a text has items to take", node.span)
    for bound, what in ((start, "start"), (stop, "end")):
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)):
            raise RuleError(f"a slice's {what} must be a number, got {interp.describe(bound)}", node.span)
    out = obj[start:stop]
    spend(interp, len(out), node.span)
    return out


def no_match(interp: Interp, value: Any, span: Any) -> Any:
    """A `match` that fits none of its arms: a located error (the checker sees that typed ones cannot)."""
    raise RuleError(f"no arm of this match fits {interp.describe(value)}; add an arm for it, or `_ =>`", span)


def values_equal(a: Any, b: Any) -> bool:
    """Equality where true/false never equal the numbers 1/0, also inside lists and records."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(values_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(values_equal(a[k], b[k]) for k in a)
    return a == b


def list_contains(items: Any, item: Any) -> bool:
    """Membership with values_equal."""
    if item.__class__ in _EQUAL_ONLY_TO_ITS_KIND:
        return item in items  # Python's own `in` agrees with values_equal for these, and is far faster
    return any(values_equal(x, item) for x in items)


# classes whose values equal only values of the same class, under `==` as under values_equal
# (numbers are left out: Python's `1 in [True]` is true, the language's is not)
_EQUAL_ONLY_TO_ITS_KIND = frozenset({Cell, PieceRef, ZoneRef, str})


def _is_int(k: str) -> bool:
    return k.lstrip("-").isdigit()


def _num(interp: Interp, v: Any, node: A.Node) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise RuleError(f"'{node.op}' needs numbers, got {interp.describe(v)}", node.span)
    return v


def limit_error(message: str, span: Any) -> Exception:
    """A value limit's error: located at the rule (span), or, from inside a built-in (span None), a plain
    RuleError that the call's error handling locates at the call."""
    return RuleError(message, None) if span is None else RunawayError(message, span)


def spend(interp: Interp, n: int, span: Any) -> None:
    """Count n items of work (items a built-in walks or a list/text `+` copies) against the loop limit.

    Building values is work like looping, so every step's memory stays bounded by the loop limit too.
    With span None (a built-in), the caller's error handling locates the error at the call.
    """
    interp.loops += n
    if interp.loops > interp.limits.loop:
        message = (f"more than {interp.limits.loop} loop iterations in one step, counting one per item of the "
                   f"lists and texts built (limit loop); raise it with --limit loop=N")
        raise limit_error(message, span)


def check_size(interp: Interp, n: int, what: str, span: Any) -> None:
    """Refuse to make a list or text (`what`) of n items or characters beyond the `values` limit."""
    if n > interp.limits.values:
        unit = "characters" if what == "text" else "items"
        message = (f"this would make a {what} of {n} {unit}, more than {interp.limits.values} (limit values); "
                   f"raise it with --limit values=N")
        raise limit_error(message, span)


def joined(interp: Interp, a: Any, b: Any, span: Any) -> Any:
    """a + b for two lists or two texts, within the `values` limit; the copy counts against `loop`."""
    n = len(a) + len(b)
    check_size(interp, n, "text" if isinstance(a, str) else "list", span)
    spend(interp, n, span)
    return a + b if isinstance(a, str) else check_nested(interp, a + b, span)


def check_nested(interp: Interp, value: Any, span: Any) -> Any:
    """A new list or record holding lists or records: the items it stands for, nested levels included,
    must stay within the `values` limit (a list holding the same list twice, 40 levels deep, stands for
    2**40 items that showing or comparing it would walk).  The count is charged to `loop`.  Returns the
    value."""
    items = value.values() if isinstance(value, dict) else value
    # one check per kind of item in a longer list (this runs for every list a rule builds whose items may be lists)
    for kind in set(map(type, items)) if len(items) > 8 else map(type, items):
        if issubclass(kind, (list, dict)):
            break
    else:
        return value
    total = _expanded_size(value)
    limit = interp.limits.values
    if total > limit:
        what = "record" if isinstance(value, dict) else "list"
        message = (f"this would make a {what} standing for more than {limit} items, counting the items of "
                   f"the lists inside it (limit values); raise it with --limit values=N")
        raise limit_error(message, span)
    spend(interp, total - len(items), span)
    return value


def _expanded_size(value: Any) -> int:
    """The items a list or record stands for, the items of the lists and records inside it included as
    often as they occur.  Each distinct inner value is measured once (by identity: values are never
    changed in place), so a value sharing one list at every level costs its levels, not 2**levels; and
    without recursion, so nesting depth costs no Python stack."""
    sizes: dict[int, int] = {}
    todo: list[tuple[Any, bool]] = [(value, False)]
    while todo:
        node, ready = todo.pop()
        if id(node) in sizes:
            continue
        inner = [x for x in (node.values() if isinstance(node, dict) else node) if isinstance(x, (list, dict))]
        if ready:
            sizes[id(node)] = len(node) + sum(sizes[id(x)] for x in inner)
            continue
        todo.append((node, True))
        todo.extend((x, False) for x in inner if id(x) not in sizes)
    return sizes[id(value)]


def stack_overflow(exc: RecursionError, limits: Limits) -> RunawayError | None:
    """A located emit_depth error for a RecursionError: calls or events nested deeper than Python's stack
    allows, which happens only when emit_depth was raised far above its default.

    Nothing is done on the hot path: the innermost call, procedure call or emit is found by walking the
    traceback, once, where the error is reported.
    """
    span, depth = None, 0
    tb = exc.__traceback__
    while tb is not None:
        node = tb.tb_frame.f_locals.get("node")
        if isinstance(node, (A.Call, A.CallProc, A.Emit)):
            span, depth = node.span, depth + 1
        elif tb.tb_frame.f_code.co_name == "call_function" and "span" in tb.tb_frame.f_locals:
            span, depth = tb.tb_frame.f_locals["span"], depth + 1  # a function call of the compiled path
        tb = tb.tb_next
    if span is None:
        return None  # not a rule nesting too deep: a bug
    return RunawayError(f"calls and events nested {depth} deep, more than Python's stack allows, before the "
                        f"emit_depth limit ({limits.emit_depth}) was reached (limit emit_depth); lower it with "
                        f"--limit emit_depth=N", span)


_SMALL = 1 << 60  # numbers smaller than this are never measured: the common case costs two comparisons
_CEILINGS: dict[int, int] = {}  # digits limit -> 10**digits


def checked_number(interp: Interp, r: int, span: Any) -> int:
    """r, unless it has more decimal digits than the `digits` limit (numbers below 10**18 always pass)."""
    if -_SMALL < r < _SMALL:
        return r
    d = min(interp.limits.digits, MAX_DIGITS)
    ceiling = _CEILINGS.get(d)
    if ceiling is None:
        ceiling = _CEILINGS[d] = 10 ** max(d, 18)
    if -ceiling < r < ceiling:
        return r
    message = f"a number of more than {d} digits (limit digits); raise it with --limit digits=N"
    raise limit_error(message, span)


def _arith(interp: Interp, op: str, a: Any, b: Any, node: A.Binary) -> Any:
    if op == "+" and isinstance(a, list) and isinstance(b, list):
        return joined(interp, a, b, node.span)
    if op == "+" and isinstance(a, str) and isinstance(b, str):
        return joined(interp, a, b, node.span)
    if op in ("<", "<=", ">", ">=") and isinstance(a, str) and isinstance(b, str):
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
    x, y = _num(interp, a, node), _num(interp, b, node)
    if op == "+":
        return checked_number(interp, x + y, node.span)
    if op == "-":
        return checked_number(interp, x - y, node.span)
    if op == "*":
        return checked_number(interp, x * y, node.span)
    if op in ("//", "%"):
        if y == 0:
            raise RuleError("division by zero", node.span)
        return x // y if op == "//" else x % y
    if op == "<":
        return x < y
    if op == "<=":
        return x <= y
    if op == ">":
        return x > y
    if op == ">=":
        return x >= y
    raise RuleError(f"unknown operator {op}", node.span)  # pragma: no cover - grammar limits operators

