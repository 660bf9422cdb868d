"""Saved games: one JSON document per game in progress, rewritten atomically after every decision.

A save holds what it takes to rebuild the game exactly, and no state: the
engine is deterministic, so the game, variants, seats, seed and the list of
decisions made (auto-resolved ones are re-derived) give back the same
position.  The layout, one decision a line so that a located error points at
the decision it is about::

    {
      "format": "orrery-save",
      "version": 1,
      "game": "some-game",               <- a bundled game's name, or the absolute path of a rules.yaml
      "spec_digest": "3f0c...",           <- the merged spec (with variants) the decisions were made with
      "variants": [],                     <- bundled variant names, or absolute paths
      "players": 2,
      "seed": 0,
      "seats": ["human", "random"],       <- one per player: human or a bot's name
      "saved_at": "2024-05-01T12:00:00Z", <- optional, for people
      "next": {"player": 1, "prompt": "..."},   <- optional, for people: who decides next
      "result": {"end": "...", "winners": [0]}, <- only once the game is over
      "saved_at_step": 2,                 <- the number of decisions below; play resumes at decision 3
      "decisions": [
        {"player": 0, "choice": 4, "label": "b2"},
        {"player": 1, "choice": 0, "label": "a1"}
      ]
    }

`write_save` writes a temporary file in the save's folder, flushes and fsyncs
it, then `os.replace`s the save: a crash at any moment leaves either the old
save or the new one, never a torn file.  `read_save` reports every way a file
can be wrong as a located finding (FILE:LINE:COL), and `replay_save` rebuilds
the game, refusing a save made with another version of the spec.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from json.decoder import scanstring
from pathlib import Path
from typing import Any, Callable, Iterator

from orrery.rulespec.bounded import LineIndex, NotAFile, TooLarge, read_bounded
from orrery.rulespec.errors import Finding, InputError, Span

from .atomic import write_atomic
from ..engine.game import Game, GameState, IllegalMove

SAVE_FORMAT = "orrery-save"
SAVE_VERSION = 1
SUFFIX = ".orrery-save.json"
MAX_SAVE_BYTES = 32_000_000  # a 100 000-decision save is about 5 MB

SAVE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Orrery saved game",
    "type": "object",
    "required": ["format", "version", "game", "spec_digest", "variants", "players", "seed", "seats", "decisions",
                 "saved_at_step"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": SAVE_FORMAT},
        "version": {"type": "integer"},
        "game": {"type": "string", "minLength": 1},
        "spec_digest": {"type": "string", "minLength": 1},
        "variants": {"type": "array", "items": {"type": "string", "minLength": 1}},
        "players": {"type": "integer", "minimum": 1, "maximum": 16},
        "seed": {"type": "integer"},
        "seats": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}},
        "saved_at": {"type": "string"},
        "saved_at_step": {"type": "integer", "minimum": 0},
        "next": {
            "type": "object",
            "required": ["player", "prompt"],
            "properties": {"player": {"type": "integer", "minimum": 0}, "prompt": {"type": "string"}},
        },
        "result": {
            "type": "object",
            "required": ["end", "winners"],
            "properties": {"end": {"type": "string"}, "winners": {"type": "array", "items": {"type": "integer"}}},
        },
        "decisions": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["player", "choice", "label"],
                "additionalProperties": False,
                "properties": {
                    "player": {"type": "integer", "minimum": 0},
                    "choice": {"type": "integer"},
                    "label": {"type": "string"},
                },
            },
        },
    },
}

_VALIDATOR: list[Any] = []  # built when a save is first read (importing jsonschema at start-up cost every `orrery play`)


@dataclass(frozen=True)
class SavedDecision:
    """One decision a player made: who, which option (its stable index) and its label."""

    player: int
    choice: int
    label: str


@dataclass
class Save:
    """A saved game (read from a file, or made from a game in progress)."""

    game: str
    spec_digest: str
    variants: list[str]
    players: int
    seed: int
    seats: list[str]
    decisions: list[SavedDecision]
    saved_at_step: int
    result: dict[str, Any] | None = None
    next: dict[str, Any] | None = None
    saved_at: str | None = None
    path: str = "<save>"
    positions: dict[tuple, tuple[int, int]] = field(default_factory=dict, repr=False)

    @property
    def finished(self) -> bool:
        """True when the game was over when it was saved."""
        return self.result is not None

    def span(self, *path: str | int) -> Span:
        """Where a value of the file is (the nearest enclosing value that has a position)."""
        p = tuple(path)
        while p and p not in self.positions:
            p = p[:-1]
        line, col = self.positions.get(p, (1, 1))
        return Span(self.path, line, col)

    def error(self, message: str, *path: str | int) -> InputError:
        """An InputError located at `path` in the file."""
        return InputError(Finding(self.span(*path), message))

    def to_data(self) -> dict[str, Any]:
        """The JSON document (keys in the documented order)."""
        data: dict[str, Any] = {
            "format": SAVE_FORMAT, "version": SAVE_VERSION, "game": self.game, "spec_digest": self.spec_digest,
            "variants": list(self.variants), "players": self.players, "seed": self.seed, "seats": list(self.seats),
        }
        if self.saved_at:
            data["saved_at"] = self.saved_at
        if self.next is not None:
            data["next"] = self.next
        if self.result is not None:
            data["result"] = self.result
        data["saved_at_step"] = self.saved_at_step
        data["decisions"] = [{"player": d.player, "choice": d.choice, "label": d.label} for d in self.decisions]
        return data


# ------------------------------------------------------------------ making and writing


def decisions_of(gs: GameState) -> list[SavedDecision]:
    """The decisions players made in a game (auto-resolved steps are left out: replay re-derives them)."""
    return [SavedDecision(s.player, s.index, s.label) for s in gs.steps if not s.auto]


def make_save(game: Game, game_ref: str, variants: list[str], seats: list[str], gs: GameState) -> Save:
    """A save of a game in progress (or finished)."""
    decisions = decisions_of(gs)
    d = gs.decision
    o = gs.outcome()
    return Save(
        game=game_ref, spec_digest=game.spec.digest, variants=list(variants), players=gs.num_players,
        seed=gs.seed, seats=list(seats), decisions=decisions, saved_at_step=len(decisions),
        result={"end": o.end, "winners": list(o.winners)} if o is not None else None,
        next={"player": d.player, "prompt": d.prompt} if d is not None and o is None else None,
        saved_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    )


def dumps(save: Save) -> str:
    """The save as text: one key a line, one decision a line."""
    data = save.to_data()
    lines = []
    for key, value in data.items():
        if key == "decisions" and value:
            items = ",\n".join("    " + json.dumps(d, ensure_ascii=False) for d in value)
            lines.append(f'  "decisions": [\n{items}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_save(path: str | Path, save: Save) -> None:
    """Write atomically: a temporary file in the same folder, flushed and fsynced, then os.replace.

    If anything fails before the replace, the previous save is left exactly as it was and the
    temporary file is removed (OSError is raised for the caller to report).
    """
    write_atomic(path, dumps(save))


# ------------------------------------------------------------------ reading


def _err(name: str, line: int, col: int, message: str) -> InputError:
    return InputError(Finding(Span(name, line, col), message))


def read_save(path: str | Path, check_seats: bool = True) -> Save:
    """Read and validate a save file; every problem is an InputError located in the file.

    `check_seats=False` leaves the saved seats unchecked, for a resume whose --seats replace them.
    """
    p = Path(path)
    name = str(path)
    if p.is_dir():
        raise _err(name, 1, 1, "is a directory, not a save file")
    try:
        raw = read_bounded(p, MAX_SAVE_BYTES)  # bounded before and while reading: a save may come from anyone
    except FileNotFoundError:
        raise _err(name, 1, 1, "no such save file") from None
    except NotAFile as exc:  # a named pipe would wait for ever, a device never ends, a link loop never resolves
        raise _err(name, 1, 1, str(exc)) from None
    except TooLarge as exc:
        raise _err(name, 1, 1, f"save is {exc}; an Orrery save holds one short line per decision") from None
    except OSError as exc:
        raise _err(name, 1, 1, f"cannot read the save: {exc.strerror or exc}") from None
    return parse_save(raw, name, check_seats)


def parse_save(raw: bytes, name: str = "<save>", check_seats: bool = True) -> Save:
    """Parse and validate the bytes of a save file (see read_save)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _err(name, line, col, f"save is not valid UTF-8 (byte {raw[exc.start]:#x} at offset {exc.start}); "
                                    f"was it written by Orrery?") from None
    if not text.strip():
        raise _err(name, 1, 1, "save file is empty (a save is a JSON object with \"format\": \"orrery-save\")")
    deep = too_deep(text)
    if deep is not None:  # before json.loads, which recurses: a save is 3 levels deep
        raise _err(name, *_line_col(text, deep), f"not an Orrery save: nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise _err(name, exc.lineno, exc.colno, f"not valid JSON: {exc.msg}{_json_hint(text, exc)}") from None
    except ValueError as exc:
        raise _err(name, *_line_col(text, _number_at(text, exc)), f"not valid JSON: {exc}") from None
    keys: dict[tuple, tuple[int, int]] = {}
    positions = _LazyPositions(text, keys)  # mapped only when an error needs a position
    if not isinstance(data, dict):
        raise _err(name, 1, 1, f"a save must be a JSON object, not {_json_type(data)}")

    def at(*keys: str | int) -> tuple[int, int]:
        k = tuple(keys)
        while k and k not in positions:
            k = k[:-1]
        return positions.get(k, (1, 1))

    def fail(message: str, *keys: str | int) -> InputError:
        return _err(name, *at(*keys), message)

    fmt = data.get("format")
    if fmt != SAVE_FORMAT:
        if fmt is None:
            raise fail(f"not an Orrery save: no \"format\": \"{SAVE_FORMAT}\" key")
        raise fail(f"not an Orrery save: format is {json.dumps(fmt)}, expected \"{SAVE_FORMAT}\"", "format")
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version != SAVE_VERSION:
        raise fail(f"save format version {version} is not supported (this Orrery reads version {SAVE_VERSION})",
                   "version")
    errors = sorted(_schema_errors(data), key=lambda e: (at(*e.absolute_path), list(map(str, e.path))))
    if errors:
        positions.fill()  # the unknown-key findings look keys up first
        raise InputError(_schema_findings(errors, name, at, keys))

    save = Save(
        game=data["game"], spec_digest=data["spec_digest"], variants=list(data["variants"]),
        players=data["players"], seed=data["seed"], seats=list(data["seats"]),
        decisions=[SavedDecision(d["player"], d["choice"], d["label"]) for d in data["decisions"]],
        saved_at_step=data["saved_at_step"], result=data.get("result"), next=data.get("next"),
        saved_at=data.get("saved_at"), path=name, positions=positions,
    )
    _check_consistency(save, check_seats)
    return save


def _schema_errors(data: dict[str, Any]) -> list[Any]:
    """The schema's errors; decisions of the usual shape are checked by hand (jsonschema spends ~100 us on each)."""
    decisions = data.get("decisions")
    if isinstance(decisions, list) and all(map(_plain_decision, decisions)):
        data = {**data, "decisions": []}
    if not _VALIDATOR:
        import jsonschema

        _VALIDATOR.append(jsonschema.Draft202012Validator(SAVE_SCHEMA))
    return list(_VALIDATOR[0].iter_errors(data))


_DECISION_KEYS = {"player", "choice", "label"}


def _plain_decision(d: Any) -> bool:
    """True when `d` certainly passes the schema's decision item (anything else goes to jsonschema)."""
    return (type(d) is dict and d.keys() == _DECISION_KEYS and type(d["player"]) is int and d["player"] >= 0
            and type(d["choice"]) is int and type(d["label"]) is str)


def _check_consistency(save: Save, check_seats: bool = True) -> None:
    """What the schema cannot say: counts agree, seats are known (budgets in bounds), players are seats."""
    from ..bots.factory import BOTS, bot_error

    if len(save.seats) != save.players:
        raise save.error(f"the save lists {len(save.seats)} seat(s) but {save.players} player(s)", "seats")
    for i, kind in enumerate(save.seats if check_seats else []):
        if kind != "human" and kind.partition(":")[0] not in BOTS:
            raise save.error(f"unknown seat type '{kind}' (human, {', '.join(sorted(BOTS))})", "seats", i)
        why = None if kind == "human" else bot_error(kind)
        if why:
            raise save.error(why, "seats", i)
    if save.saved_at_step != len(save.decisions):
        raise save.error(f"saved_at_step is {save.saved_at_step} but the save holds {len(save.decisions)} "
                         f"decision(s); the file was cut short or edited", "saved_at_step")
    for k, d in enumerate(save.decisions):
        if d.player >= save.players:
            raise save.error(f"step {k + 1}: player {d.player} is not a seat of this {save.players}-player game",
                             "decisions", k, "player")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a save")


def _json_type(v: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number",
            type(None): "null"}.get(type(v), type(v).__name__)


def _json_hint(text: str, exc: json.JSONDecodeError) -> str:
    first = text.lstrip().splitlines()[0] if text.strip() else ""
    try:
        head = json.loads(first)
    except ValueError:
        head = None
    if isinstance(head, dict) and head.get("format") == "orrery-log":
        return " (this is a game log, not a save: replay it with `orrery replay`)"
    if exc.pos >= len(text.rstrip()) or _unclosed(text):
        return " (the save looks truncated)"
    return ""


def _unclosed(text: str) -> bool:
    """True when the text ends inside a string, an object or an array (a cut-off file)."""
    depth, in_string = 0, False
    for _, depth, in_string in _json_brackets(text):
        pass
    return in_string or depth > 0


def _json_brackets(text: str) -> Iterator[tuple[int, int, bool]]:
    """(offset, nesting depth after it, inside a string after it) at every bracket of JSON text, strings
    skipped; last, once more for the end of the text."""
    depth, in_string, escaped = 0, False, False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
            yield i, depth, False
        elif ch in "}]":
            depth -= 1
            yield i, depth, False
    yield len(text), depth, in_string


def _schema_findings(errors: list[Any], name: str, at: Callable,
                     key_at: dict[tuple, tuple[int, int]] | None = None) -> list[Finding]:
    """One finding per problem; the missing keys of one object are listed together; an unknown key is
    located at the key itself."""
    missing: dict[tuple, list[str]] = {}
    out: dict[tuple, None] = {}  # ordered, without repeats
    for e in errors:
        path = tuple(e.absolute_path)
        if e.validator == "additionalProperties" and isinstance(e.instance, dict):
            known = e.schema.get("properties", {})
            for key in (k for k in e.instance if k not in known):
                where = (key_at or {}).get(path + (key,)) or at(*path, key)
                out[(where, f"unknown key '{key}' in {_where(path) or 'the save'} (known keys: "
                            f"{', '.join(known)})")] = None
            continue
        if e.validator == "required":
            m = re.match(r"(.+) is a required property$", e.message)
            keys = missing.setdefault(path, [])
            if not keys:
                out[("missing", path)] = None
            keys.append(m.group(1) if m else e.message)
        else:
            out[(at(*path), _schema_message(e))] = None
    findings = []
    for key in out:
        if key[0] == "missing":
            path = key[1]
            keys = missing[path]
            what = f"in {_where(path)}" if path else "in the save"
            findings.append(Finding(Span(name, *at(*path)),
                                    f"missing key{'s' if len(keys) > 1 else ''} {', '.join(keys)} {what}"))
        else:
            findings.append(Finding(Span(name, *key[0]), key[1]))
    return findings


def _where(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p)) for i, p in enumerate(path))


def _schema_message(e: Any) -> str:
    where = _where(tuple(e.absolute_path))
    if e.validator == "additionalProperties":
        return f"bad save{': ' + where if where else ''}: {e.message}"
    return f"bad save: {where or 'the document'}: {e.message}"


# Positions of every value in a JSON text (only used on text json.loads accepted).
_WS = re.compile(r"[ \t\n\r]*")
_NUM = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")


def _positions(text: str, keys: dict[tuple, tuple[int, int]] | None = None) -> dict[tuple, tuple[int, int]]:
    """(path -> (line, col)) for every value; best effort: {} if anything is unexpected.

    With `keys`, also fills it with (path -> (line, col)) of the key naming each object member.
    """
    offsets: dict[tuple, int] = {}
    key_offsets: dict[tuple, int] = {}

    def ws(i: int) -> int:
        return _WS.match(text, i).end()  # type: ignore[union-attr]

    def value(i: int, path: tuple) -> int:
        i = ws(i)
        offsets[path] = i
        c = text[i]
        if c == "{":
            i = ws(i + 1)
            if text[i] == "}":
                return i + 1
            while True:
                start = ws(i)
                key, i = scanstring(text, start + 1)
                key_offsets[path + (key,)] = start
                i = ws(i)  # at ':'
                i = ws(value(i + 1, path + (key,)))
                if text[i] == ",":
                    i += 1
                    continue
                return i + 1
        if c == "[":
            i = ws(i + 1)
            if text[i] == "]":
                return i + 1
            k = 0
            while True:
                i = ws(value(i, path + (k,)))
                k += 1
                if text[i] == ",":
                    i += 1
                    continue
                return i + 1
        if c == '"':
            return scanstring(text, i + 1)[1]
        m = _NUM.match(text, i)
        if m:
            return m.end()
        for lit in ("true", "false", "null"):
            if text.startswith(lit, i):
                return i + len(lit)
        raise ValueError(f"unexpected {c!r}")

    try:
        value(0, ())
    except (ValueError, IndexError, RecursionError):
        return {}
    index = LineIndex(text)  # once per file: counting newlines per value was quadratic in the save's length
    out = {path: index.line_col(off) for path, off in offsets.items()}
    if keys is not None:
        keys.update({path: index.line_col(off) for path, off in key_offsets.items()})
    return out


class _LazyPositions(dict):
    """_positions(text), computed at the first lookup: a save that loads and replays fine never needs them, and
    mapping 100 000 decisions costs seconds."""

    def __init__(self, text: str, keys: dict[tuple, tuple[int, int]]):
        super().__init__()
        self._text: str | None = text
        self._keys = keys

    def fill(self) -> None:
        """Compute the positions (and the keys') now, once."""
        if self._text is not None:
            text, self._text = self._text, None
            self.update(_positions(text, self._keys))

    def __contains__(self, key: object) -> bool:
        self.fill()
        return super().__contains__(key)

    def __getitem__(self, key: tuple) -> tuple[int, int]:
        self.fill()
        return super().__getitem__(key)

    def get(self, key: tuple, default: Any = None) -> Any:
        """dict.get, after filling."""
        self.fill()
        return super().get(key, default)


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


MAX_JSON_DEPTH = 20  # saves and log lines are a few levels deep; deeper JSON would make json.loads recurse
MAX_JSON_DIGITS = 4000  # as the engine's digits limit; Python cannot read more than 4300 digits


def too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> int | None:
    """Offset of the first bracket nested more than `limit` deep in JSON text (strings skipped), or None."""
    for i, depth, _ in _json_brackets(text):
        if depth > limit:
            return i
    return None


def _bounded_int(digits: str) -> int:
    """json's parse_int: refuse absurdly long numbers (Python refuses more than 4300 digits itself)."""
    if len(digits) > MAX_JSON_DIGITS:
        raise ValueError(f"a number of {len(digits.lstrip('-'))} digits")
    return int(digits)


def _number_at(text: str, exc: ValueError) -> int:
    """Offset of the overlong number an error is about (0 when it cannot be found)."""
    m = re.search(r"-?\d{%d,}" % (MAX_JSON_DIGITS + 1), text)
    return m.start() if m else 0


class SaveLock:
    """An advisory lock held while a game plays into a save, so that two `orrery play` processes never
    write one save in turn (each would overwrite the other's decisions).

    The lock is filelock's on FILE.lock beside the save (the save itself is replaced at every write, so
    it cannot hold a lock): `flock` on Unix, a byte-range lock on Windows, both dropped by the system when
    the process ends, even when it is killed, so a crash never leaves a stale lock.  The file holds the
    holder's pid (for the message) and is removed on release.
    """

    def __init__(self, save_path: str | Path):
        self.path = Path(f"{save_path}.lock")
        self.lock: Any = None  # filelock's FileLock while held

    @classmethod
    def take(cls, save_path: str | Path) -> "SaveLock":
        """The lock of a save, held; InputError if another process holds it."""
        lock = cls(save_path)
        holder = lock.acquire()
        if holder is not None:
            raise InputError(f"{save_path}: this game is being played in another orrery process{holder}; quit "
                             f"that one first (two processes playing one save would overwrite each other's "
                             f"decisions)")
        return lock

    def acquire(self) -> str | None:
        """Take the lock: None when held now, else a note on who holds it (' (pid N)' or '')."""
        if not self.path.parent.is_dir():
            return None  # no folder to save in (filelock would make one): the save itself will say so
        from filelock import FileLock, Timeout  # (here: a game played with --no-save takes no lock)

        lock = FileLock(self.path, timeout=0)
        try:
            lock.acquire()
        except Timeout:
            return self._holder()
        except OSError:
            return None  # a folder we cannot write to: the save itself will say so
        try:  # another process opens the file without truncating it, so it can read this
            self.path.write_text(str(os.getpid()), encoding="utf-8")
        except OSError:
            pass
        self.lock = lock
        return None

    def _holder(self) -> str:
        try:
            pid = self.path.read_text(encoding="utf-8")[:20].strip()
        except (OSError, UnicodeDecodeError):
            pid = ""
        return f" (pid {pid})" if pid.isdigit() else ""

    def release(self) -> None:
        """Give the lock up and remove the lock file (idempotent)."""
        if self.lock is None:
            return
        try:
            os.unlink(self.path)  # while still held: a process that opens the name now makes a new file
        except OSError:
            pass
        self.lock.release()
        self.lock = None

    def held_elsewhere(self) -> bool:
        """True if another process holds the lock now (checked by taking it briefly)."""
        if not self.path.exists():
            return False
        from filelock import FileLock, Timeout

        lock = FileLock(self.path, timeout=0)
        try:
            lock.acquire()
        except Timeout:
            return True
        except OSError:
            return False
        lock.release()  # it was free: let it go again, leaving the file as it was found
        return False


def save_status(path: str | Path) -> tuple[str, Save | None, str]:
    """What a file holds before it is overwritten: (kind, save, detail).

    kind: "missing", "empty" (a save with no decision), "finished", "in progress" or "other"
    (not a readable save: never overwrite it).  A save another process is playing is in progress.
    """
    p = Path(path)
    if SaveLock(p).held_elsewhere():
        return "in progress", None, "being played in another orrery process"
    if not os.path.lexists(p):  # (a broken link or a loop is not missing: read_save says what it is)
        return "missing", None, ""
    try:
        save = read_save(p)
    except InputError as exc:
        return "other", None, exc.findings[0].message if exc.findings else str(exc)
    if save.finished:
        return "finished", save, ""
    if not save.decisions:
        return "empty", save, ""
    return "in progress", save, f"{len(save.decisions)} decision(s)"


# ------------------------------------------------------------------ replaying


class ReplayFailed(Exception):
    """A decision that does not apply to the rebuilt game; `step` is 1-based."""

    def __init__(self, step: int, message: str):
        super().__init__(message)
        self.step = step
        self.message = message


Hook = Callable[[GameState, SavedDecision], None]


def replay_decisions(game: Game, players: int, seed: int, decisions: list[SavedDecision],
                     before: Hook | None = None, after: Hook | None = None) -> GameState:
    """A new game with these decisions applied in order, each checked (player, option, label).

    `before(gs, d)` runs with the decision pending, `after(gs, d)` once it is applied.
    Raises ReplayFailed naming the first decision that no longer applies.
    """
    seat = game.rules.seat_name
    gs = game.new_initial_state(players=players, seed=seed, narrate=True)  # (a table shows it)
    for k, d in enumerate(decisions, start=1):
        if gs.is_terminal():
            raise ReplayFailed(k, f"step {k} ({seat(d.player)}: '{d.label}') no longer applies: the game was "
                                  f"already over after step {k - 1}")
        dec = gs.decision
        assert dec is not None
        if dec.player != d.player:
            raise ReplayFailed(k, f"step {k} ({seat(d.player)}: '{d.label}') no longer applies: the save says "
                                  f"{seat(d.player)} decides, but the game asks {seat(dec.player)} ({dec.prompt})")
        opt = next((o for o in dec.options if o.index == d.choice), None)
        if opt is None or opt.label != d.label:
            shown = f"option {d.choice} is '{opt.label}'" if opt else f"option {d.choice} is not offered"
            raise ReplayFailed(k, f"step {k} ({seat(d.player)}: '{d.label}') no longer applies: {shown} at "
                                  f"'{dec.prompt}'")
        if before:
            before(gs, d)
        try:
            gs.apply(d.choice)
        except IllegalMove as exc:
            raise ReplayFailed(k, f"step {k} ({seat(d.player)}: '{d.label}') no longer applies: refused: "
                                  f"{exc.reason}") from None
        if after:
            after(gs, d)
    return gs


def check_spec(save: Save, game: Game) -> None:
    """Refuse a save made with another version of the spec (or other variants)."""
    if save.spec_digest != game.spec.digest:
        raise save.error(f"this save was made with another version of the spec (save digest {save.spec_digest}, "
                         f"this spec {game.spec.digest}); it cannot be resumed faithfully", "spec_digest")


def replay_save(save: Save, game: Game, before: Hook | None = None, after: Hook | None = None) -> GameState:
    """Rebuild a saved game: spec digest checked, every decision re-applied; errors located in the save."""
    check_spec(save, game)
    r = game.rules
    if not r.min_players <= save.players <= r.max_players:
        raise save.error(f"{game.name} takes {r.player_count_text()}, not {save.players}", "players")
    try:
        return replay_decisions(game, save.players, save.seed, save.decisions, before, after)
    except ReplayFailed as exc:
        raise save.error(exc.message, "decisions", exc.step - 1) from None


__all__ = [
    "SAVE_FORMAT", "SAVE_VERSION", "SAVE_SCHEMA", "SUFFIX", "Save", "SavedDecision", "ReplayFailed",
    "decisions_of", "make_save", "dumps", "write_save", "read_save", "parse_save", "save_status", "SaveLock",
    "replay_decisions", "replay_save", "check_spec",
]
