"""The grammar's LALR tables, computed once and shipped as data, so that a process does not rebuild them.

Building the two Lark parsers (expressions, effects) from `grammar/orrery.lark` computes their LALR tables:
about 0.36 s, a third of the start-up of every `orrery` command and of every test that runs one.  Lark can
save a built parser, but its own cache is a pickle (in the shared temporary directory by default), and
loading a pickle runs whatever it names.  So the tables are written here as JSON (`grammar/tables.json`,
package data beside the grammar), read with `json` and handed to Lark's loader as a plain dict: nothing
in the file can run.

Each start symbol's tables carry a key: a hash of the grammar text, the start symbol, the options and the
Lark version.  A key that does not match what this process would build (the grammar was edited, another
Lark is installed) or a file that does not load means the parser is built from the grammar as before:
slower, never different.  `tests/test_grammar_tables.py` fails when the shipped file is stale; rewrite it
with `python -m orrery.rulespec.parser`.  Lark numbers the LALR states in an order that changes from run to
run; `canonical` numbers them by content, so two writes of the same grammar are the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Callable

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

FILE = "tables.json"


def key(grammar: str, start: str, options: dict[str, Any]) -> str:
    """What tables built from this grammar, start symbol and options by this Lark are known by."""
    blob = json.dumps({"grammar": grammar, "start": start, "options": options, "lark": lark.__version__},
                      sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _encode(x: Any) -> Any:
    """JSON for Lark's serialised parser: tuples and dicts tagged (its dicts have int keys, its tuples
    are unpacked as tuples)."""
    if isinstance(x, dict):
        return {"d": [[_encode(k), _encode(v)] for k, v in x.items()]}
    if isinstance(x, tuple):
        return {"t": [_encode(v) for v in x]}
    if isinstance(x, list):
        return [_encode(v) for v in x]
    if x is None or isinstance(x, (bool, int, str)):
        return x
    raise TypeError(f"cannot write {type(x).__name__} into the grammar tables")


def _decode(x: Any) -> Any:
    if isinstance(x, list):
        return [_decode(v) for v in x]
    if isinstance(x, dict):
        if "d" in x:
            return {_decode(k): _decode(v) for k, v in x["d"]}
        return tuple(_decode(v) for v in x["t"])
    return x


def tables_of(parser: Lark) -> Any:
    """A built parser's tables as JSON-able data (its postlexer left out: the loader supplies its own), numbered
    the same way at every write (`canonical`)."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k != "postlex"}
    return _encode(canonical(data, memo))


def canonical(data: dict, memo: dict) -> dict:
    """The same tables numbered in an order fixed by their content.  Lark numbers its memo entries, token ids
    and LALR states in an order that changes from run to run (sets of objects hashed by identity), so two
    writes of one grammar would differ byte for byte: memo entries are sorted by their text, token ids by
    name, states breadth first from the start states along transitions in token-name order."""
    order = sorted(memo, key=lambda k: json.dumps(memo[k], sort_keys=True, default=repr))
    ids = {old: new for new, old in enumerate(order)}
    data = _refs(data, ids)
    table = data["parser"]["parser"]
    tokens, states = table["tokens"], table["states"]
    tok = {old: new for new, old in enumerate(sorted(tokens, key=lambda t: tokens[t]))}
    num: dict[int, int] = {}
    queue = [s for _, s in sorted(table["start_states"].items()) + sorted(table["end_states"].items())]
    for s in queue:  # (the queue grows while it is walked: breadth first)
        if s in num:
            continue
        num[s] = len(num)
        queue += [arg for t, (action, arg) in sorted(states[s].items(), key=lambda e: tokens[e[0]]) if action == 0]
    if len(num) != len(states):  # (every state is reachable from a start: otherwise keep Lark's numbers)
        return {"data": data, "memo": {ids[k]: memo[k] for k in order}}
    table["tokens"] = {tok[t]: tokens[t] for t in sorted(tokens, key=tok.__getitem__)}
    table["states"] = {num[s]: {tok[t]: (action, num[arg] if action == 0 else arg)
                                for t, (action, arg) in sorted(states[s].items(), key=lambda e: tok[e[0]])}
                       for s in sorted(states, key=num.__getitem__)}
    for k in ("start_states", "end_states"):
        table[k] = {name: num[s] for name, s in sorted(table[k].items())}
    return {"data": data, "memo": {ids[k]: memo[k] for k in order}}


def _refs(x: Any, ids: dict[int, int]) -> Any:
    """`x` with every memo reference (`{"@": id}`) renumbered."""
    if isinstance(x, dict):
        if set(x) == {"@"}:
            return {"@": ids[x["@"]]}
        return {k: _refs(v, ids) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_refs(v, ids) for v in x)
    return x


@lru_cache(maxsize=1)
def _shipped() -> dict[str, Any]:
    try:
        text = resources.files("orrery.grammar").joinpath(FILE).read_text(encoding="utf-8")
        found = json.loads(text)
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


_MADE: set[str] = set()  # the starts whose parsers were made from the shipped tables


def load(start: str, wanted: str, postlex: Any) -> Lark | None:
    """The parser for `start` from the shipped tables, if they were built with key `wanted`; else None."""
    shipped = _shipped()
    entry = shipped.get(start)
    if not isinstance(entry, dict) or entry.get("key") != wanted:
        return None
    try:
        # Lark.load without its file: given a dict, Lark's loader reads it as it is (no pickle); the key
        # pins the Lark version that wrote the tables, so this private entry is only used with that one
        parser = Lark.__new__(Lark)._load(_decode(entry["tables"]), postlex=postlex)
    except Exception:  # (a damaged file: build the parser from the grammar instead, as without one)
        return None
    _MADE.add(start)
    if _MADE >= set(shipped):  # every parser is made (the caller keeps them): the file's data is let go, so the
        _shipped.cache_clear()  # collector does not walk ~45,000 lists and dicts for the rest of the process
    return parser


def write(build: Callable[[str], tuple[Lark, str]], starts: tuple[str, ...], path: Path) -> None:
    """Build each start symbol's parser (`build(start)` -> parser, key) and write their tables to `path`."""
    out = {}
    for start in starts:
        parser, k = build(start)
        out[start] = {"key": k, "tables": tables_of(parser)}
    path.write_text(json.dumps(out, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
