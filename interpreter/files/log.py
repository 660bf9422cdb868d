"""Game logs as JSON Lines, and replay that verifies every step.

Line 1 is a header (format, version, game, spec digest, variants, players,
seed); then one line per decision a player made (auto-resolved ones are
re-derived on replay); optionally a last line with the result.  Each step
carries the digest of the state after it, so replay reports the first step
where the engine and the log disagree.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Iterator


from orrery.rulespec.bounded import NotAFile, TooLarge, check_size, iter_lines, open_regular, size_text
from orrery.rulespec.errors import Finding, InputError, Span

from .atomic import AtomicFile
from ..engine.game import Game, GameState, IllegalMove
from .save import MAX_JSON_DEPTH, _bounded_int, _number_at, too_deep

LOG_FORMAT = "orrery-log"
LOG_VERSION = 1

HEADER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["format", "version", "game", "spec_digest", "variants", "players", "seed"],
    "properties": {
        "format": {"const": LOG_FORMAT},
        "version": {"type": "integer"},
        "game": {"type": "string", "minLength": 1},
        "spec_digest": {"type": "string", "minLength": 1},
        "variants": {"type": "array", "items": {"type": "string"}},
        "players": {"type": "integer", "minimum": 1, "maximum": 16},
        "seed": {"type": "integer"},
        "seats": {"type": "array", "items": {"type": "string"}},
    },
}
STEP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["step", "player", "choice", "label", "digest"],
    "additionalProperties": False,
    "properties": {
        "step": {"type": "integer", "minimum": 1},
        "player": {"type": "integer", "minimum": 0},
        "choice": {"type": "integer"},
        "label": {"type": "string"},
        "prompt": {"type": "string"},
        "digest": {"type": "string"},
    },
}
RESULT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["result"],
    "properties": {"result": {"type": "object", "required": ["end", "winners"]}},
}


class LogWriter:
    """Appends a game's decisions to a JSON Lines file as they are made (flushed each line)."""

    def __init__(self, path: str | Path, game: Game, game_ref: str, gs: GameState, variants: list[str],
                 seats: list[str] | None = None):
        self.path = Path(path)
        self.fp: AtomicFile | None = None
        try:  # a temporary file renamed over the log when the game stops: a failure leaves the old log intact
            self.fp = AtomicFile(self.path)
        except OSError as exc:  # a folder, a missing parent, no permission: say so plainly
            raise self._failed(exc) from None
        self.count = 0
        header = {"format": LOG_FORMAT, "version": LOG_VERSION, "game": game_ref, "spec_digest": game.spec.digest,
                  "variants": list(variants), "players": gs.num_players, "seed": gs.seed}
        if seats:
            header["seats"] = list(seats)
        self._write(header)

    def _write(self, obj: dict[str, Any]) -> None:
        if self.fp is None:
            return
        try:
            self.fp.write(json.dumps(obj, sort_keys=True) + "\n")
        except OSError as exc:  # disk full, the folder removed: the game stops with a message, the old log stays
            self.fp.discard()
            self.fp = None
            raise self._failed(exc) from None

    def _failed(self, exc: OSError) -> InputError:
        return InputError(f"cannot write the log {self.path}: {exc.strerror or exc} (a log already there is left "
                          f"as it was)")

    def step(self, player: int, index: int, label: str, prompt: str, gs_after: GameState) -> None:
        """Record one decision and the digest of the state after it."""
        self.count += 1
        self._write({"step": self.count, "player": player, "choice": index, "label": label, "prompt": prompt,
                     "digest": gs_after.state.digest()})

    def finish(self, gs: GameState) -> None:
        """Record the result (if the game ended) and close the file."""
        o = gs.outcome()
        if o is not None:
            self._write({"result": {"end": o.end, "winners": o.winners, "scores": o.scores}})
        if self.fp is None:
            return
        fp, self.fp = self.fp, None
        try:
            fp.commit()
        except OSError as exc:
            raise self._failed(exc) from None


MAX_LOG_BYTES = 512_000_000  # a 100 000-decision log is about 20 MB
MAX_LOG_LINE = 1_000_000  # a log line is a few hundred bytes


@dataclass
class GameLog:
    """A log file, read as it is replayed: the header at once, the steps one line at a time.

    `steps()` streams the decision lines, each checked as it is read, so that a log that goes wrong
    at step 5 is refused after 5 lines whatever its length; `result` and `result_line` are known once
    the steps have been read to the end.
    """

    path: str
    header: dict[str, Any]
    result: dict[str, Any] | None = None
    result_line: int | None = None
    _lines: Iterator[tuple[int, str]] | None = field(default=None, repr=False)
    _fh: BinaryIO | None = field(default=None, repr=False)

    def steps(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """(line number, step) of each decision line, validated as it is read; InputError at the first bad line."""
        expected = 1
        for i, obj in _objects(self.path, self._lines or iter(())):
            if self.result is not None:
                raise _err(self.path, i, "nothing may follow the result line")
            if "result" in obj:
                _validate(obj, "result", self.path, i, "result")
                self.result, self.result_line = obj["result"], i
                continue
            _validate(obj, "step", self.path, i, "step")
            if obj["step"] != expected:
                raise _err(self.path, i, f"step {obj['step']} is out of sequence (expected {expected})")
            expected += 1
            yield i, obj
        self.close()

    def close(self) -> None:
        """Close the file (idempotent)."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def _err(path: str, line: int, msg: str) -> InputError:
    return InputError(Finding(Span(path, line, 1), msg))


def open_log(path: str | Path) -> GameLog:
    """Open a log and read its header line; the steps are read by GameLog.steps(). InputError located at the
    bad line."""
    p = Path(path)
    name = str(path)
    if p.is_dir():
        raise _err(name, 1, "is a directory, not a log file")
    try:
        fh = open_regular(p)  # (a named pipe would wait for ever, a device never ends)
    except NotAFile as exc:
        raise _err(name, 1, str(exc)) from None
    except OSError as exc:
        raise _err(name, 1, f"cannot read the log: {exc.strerror or exc}") from None
    try:
        check_size(fh, MAX_LOG_BYTES)
    except TooLarge as exc:
        fh.close()
        raise _err(name, 1, f"log is {exc}") from None
    lines = _text_lines(name, fh)
    first = next(lines, None)
    if first is None or first[0] != 1 or not first[1].strip():
        fh.close()
        raise _err(name, 1, "log is empty: expected a header line")
    try:
        (line_no, header), = _objects(name, iter([first]), lines)
        _validate(header, "header", name, line_no, "header")
        _check_header(header, name, line_no)
    except BaseException:
        fh.close()
        raise
    return GameLog(name, header, _lines=lines, _fh=fh)


def read_log(path: str | Path) -> GameLog:
    """Check every line of a log now, then open it again for replay (open_log checks lines as they are replayed)."""
    log = open_log(path)
    for _ in log.steps():
        pass
    return open_log(path)


def _check_header(header: dict[str, Any], name: str, line_no: int) -> None:
    if header["version"] != LOG_VERSION:
        raise _err(name, line_no, f"log format version {header['version']} is not supported (this Orrery reads "
                                  f"version {LOG_VERSION})")
    from ..bots.factory import bot_error  # the log's seats are untrusted budgets too: the bounds of the command line

    for seat in header.get("seats", []):
        why = None if seat == "human" else bot_error(seat)
        if why:
            raise _err(name, line_no, f"bad header line: seats: {why}")


def _text_lines(name: str, fh: BinaryIO) -> Iterator[tuple[int, str]]:
    """(number, text) of each line, streamed, in bounded memory; InputError for a line too long or not UTF-8."""
    try:
        for i, raw in iter_lines(fh, MAX_LOG_BYTES, MAX_LOG_LINE):
            try:
                yield i, raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(Finding(Span(name, i, exc.start + 1), f"log is not valid UTF-8 (byte "
                                         f"{raw[exc.start]:#x} at column {exc.start + 1})")) from None
    except TooLarge as exc:
        line = getattr(exc, "line", None)
        what = f"line {line} is longer than {size_text(exc.limit)}" if line else f"log is {exc}"
        raise _err(name, line or 1, what) from None
    except OSError as exc:
        raise _err(name, 1, f"cannot read the log: {exc.strerror or exc}") from None


def _objects(name: str, lines: Iterator[tuple[int, str]],
             rest: Iterator[tuple[int, str]] | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """The JSON object of each non-blank line; InputError at the first line that is not one."""
    for i, line in lines:
        if not line.strip():
            continue
        deep = too_deep(line)
        if deep is not None:  # before json.loads, which recurses: a log line is 3 levels deep
            raise InputError(Finding(Span(name, i, deep + 1), f"not an Orrery log line: nested more than "
                                                              f"{MAX_JSON_DEPTH} levels deep"))
        try:
            obj = json.loads(line, parse_int=_bounded_int)
        except json.JSONDecodeError as exc:
            last = not any(more.strip() for _, more in (rest if rest is not None else lines))
            hint = " (the log looks truncated)" if last else ""
            raise InputError(Finding(Span(name, i, exc.colno), f"not valid JSON: {exc.msg}{hint}")) from None
        except ValueError as exc:  # a number too long to read
            raise InputError(Finding(Span(name, i, _number_at(line, exc) + 1), f"not valid JSON: {exc}")) from None
        if not isinstance(obj, dict):
            raise _err(name, i, "each log line must be a JSON object")
        yield i, obj


_SCHEMAS = {"header": HEADER_SCHEMA, "step": STEP_SCHEMA, "result": RESULT_SCHEMA}
_VALIDATORS: dict[str, Any] = {}  # built once each, when a log is first read (jsonschema.validate re-checks the
# schema; and importing jsonschema at start-up cost every `orrery play` a tenth of a second)


def _validator(what: str) -> Any:
    v = _VALIDATORS.get(what)
    if v is None:
        import jsonschema

        v = _VALIDATORS[what] = jsonschema.Draft202012Validator(_SCHEMAS[what])
    return v


def _validate(obj: dict, validator: str, path: str, line: int, what: str) -> None:
    import jsonschema

    error = jsonschema.exceptions.best_match(_validator(validator).iter_errors(obj))
    if error is not None:
        where = ".".join(str(p) for p in error.absolute_path)
        raise _err(path, line, f"bad {what} line{': ' + where if where else ''}: {error.message}")


@dataclass
class ReplayReport:
    """What replaying a log found."""

    steps: int
    divergence: str | None
    final: GameState
    result_matches: bool | None


def replay(log: GameLog, game: Game, verify: bool = True) -> ReplayReport:
    """Re-apply the log's decisions; stop at the first step whose label, legality or digest disagrees."""
    h = log.header
    if h["spec_digest"] != game.spec.digest:
        raise _err(log.path, 1, f"the log was made with another version of the spec (log digest "
                                f"{h['spec_digest']}, this spec {game.spec.digest}); replay would not be faithful")
    try:
        gs = game.new_initial_state(players=h["players"], seed=h["seed"])
    except IllegalMove as exc:
        raise _err(log.path, 1, f"the log's header cannot start this game: {exc.reason}") from None
    try:
        k = 0
        for k, (line, step) in enumerate(log.steps(), start=1):
            where = f"{log.path}:{line}"
            if gs.is_terminal():
                return ReplayReport(k - 1, f"{where}: step {k}: the game was already over", gs, None)
            if gs.current_player() != step["player"]:
                return ReplayReport(k - 1, f"{where}: step {k}: log says player {step['player']} decides, "
                                           f"the engine asks player {gs.current_player()}", gs, None)
            opt = next((o for o in gs.legal_options() if o.index == step["choice"]), None)
            if opt is None or opt.label != step["label"]:
                here = gs.decision.prompt if gs.decision else "game over"
                return ReplayReport(k - 1, f"{where}: step {k}: '{step['label']}' (option {step['choice']}) is not an "
                                           f"option here ({here})", gs, None)
            try:
                gs.apply(opt.index)
            except IllegalMove as exc:
                return ReplayReport(k - 1, f"{where}: step {k}: refused: {exc.reason}", gs, None)
            if verify and gs.state.digest() != step["digest"]:
                return ReplayReport(k, f"{where}: step {k}: state differs from the log (digest {gs.state.digest()}, "
                                       f"log {step['digest']})", gs, None)
    finally:  # a divergence leaves the rest of the file unread
        log.close()
    matches = None
    if log.result is not None:
        o = gs.outcome()
        matches = o is not None and o.end == log.result["end"] and o.winners == log.result["winners"]
    return ReplayReport(k, None, gs, matches)
