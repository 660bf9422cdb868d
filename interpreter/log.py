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
from typing import Any, TextIO

import jsonschema

from orrery.rulespec.errors import Finding, InputError, Span

from .game import Game, GameState, IllegalMove
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
        try:
            self.fp: TextIO = self.path.open("w", encoding="utf-8")
        except OSError as exc:  # a folder, a missing parent, no permission: say so plainly
            raise InputError(f"cannot write the log {path}: {exc.strerror or exc}") from None
        self.count = 0
        header = {"format": LOG_FORMAT, "version": LOG_VERSION, "game": game_ref, "spec_digest": game.spec.digest,
                  "variants": list(variants), "players": gs.num_players, "seed": gs.seed}
        if seats:
            header["seats"] = list(seats)
        self._write(header)

    def _write(self, obj: dict[str, Any]) -> None:
        self.fp.write(json.dumps(obj, sort_keys=True) + "\n")
        self.fp.flush()

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
        self.fp.close()


@dataclass
class GameLog:
    """A parsed log file."""

    path: str
    header: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    step_lines: list[int] = field(default_factory=list)
    result_line: int | None = None


def _err(path: str, line: int, msg: str) -> InputError:
    return InputError(Finding(Span(path, line, 1), msg))


def read_log(path: str | Path) -> GameLog:
    """Parse and validate a log file; raise InputError located at the bad line."""
    p = Path(path)
    name = str(path)
    if p.is_dir():
        raise _err(name, 1, "is a directory, not a log file")
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise _err(name, 1, f"cannot read the log: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise _err(name, line, f"log is not valid UTF-8 (byte {raw[exc.start]:#x} at offset {exc.start})") from None
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise _err(name, 1, "log is empty: expected a header line")
    objs: list[tuple[int, dict]] = []
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        deep = too_deep(line)
        if deep is not None:  # before json.loads, which recurses: a log line is 3 levels deep
            raise InputError(Finding(Span(name, i, deep + 1), f"not an Orrery log line: nested more than "
                                                              f"{MAX_JSON_DEPTH} levels deep"))
        try:
            obj = json.loads(line, parse_int=_bounded_int)
        except json.JSONDecodeError as exc:
            hint = " (the log looks truncated)" if i == len(lines) else ""
            raise InputError(Finding(Span(name, i, exc.colno), f"not valid JSON: {exc.msg}{hint}")) from None
        except ValueError as exc:  # a number too long to read
            raise InputError(Finding(Span(name, i, _number_at(line, exc) + 1), f"not valid JSON: {exc}")) from None
        if not isinstance(obj, dict):
            raise _err(name, i, "each log line must be a JSON object")
        objs.append((i, obj))
    line_no, header = objs[0]
    _validate(header, HEADER_SCHEMA, name, line_no, "header")
    if header["version"] != LOG_VERSION:
        raise _err(name, line_no, f"log format version {header['version']} is not supported (this Orrery reads "
                                  f"version {LOG_VERSION})")
    log = GameLog(name, header)
    for i, obj in objs[1:]:
        if log.result is not None:
            raise _err(name, i, "nothing may follow the result line")
        if "result" in obj:
            _validate(obj, RESULT_SCHEMA, name, i, "result")
            log.result = obj["result"]
            log.result_line = i
            continue
        _validate(obj, STEP_SCHEMA, name, i, "step")
        if obj["step"] != len(log.steps) + 1:
            raise _err(name, i, f"step {obj['step']} is out of sequence (expected {len(log.steps) + 1})")
        log.steps.append(obj)
        log.step_lines.append(i)
    return log


def _validate(obj: dict, schema: dict, path: str, line: int, what: str) -> None:
    try:
        jsonschema.validate(obj, schema)
    except jsonschema.ValidationError as exc:
        where = ".".join(str(p) for p in exc.absolute_path)
        raise _err(path, line, f"bad {what} line{': ' + where if where else ''}: {exc.message}") from None


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
    for k, (step, line) in enumerate(zip(log.steps, log.step_lines), start=1):
        where = f"{log.path}:{line}"
        if gs.is_terminal():
            return ReplayReport(k - 1, f"{where}: step {k}: the game was already over", gs, None)
        if gs.current_player() != step["player"]:
            return ReplayReport(k - 1, f"{where}: step {k}: log says player {step['player']} decides, "
                                       f"the engine asks player {gs.current_player()}", gs, None)
        opt = next((o for o in gs.legal_options() if o.index == step["choice"]), None)
        if opt is None or opt.label != step["label"]:
            return ReplayReport(k - 1, f"{where}: step {k}: '{step['label']}' (option {step['choice']}) is not an "
                                       f"option here ({gs.decision.prompt if gs.decision else 'game over'})", gs, None)
        try:
            gs.apply(opt.index)
        except IllegalMove as exc:
            return ReplayReport(k - 1, f"{where}: step {k}: refused: {exc.reason}", gs, None)
        if verify and gs.state.digest() != step["digest"]:
            return ReplayReport(k, f"{where}: step {k}: state differs from the log (digest {gs.state.digest()}, "
                                   f"log {step['digest']})", gs, None)
    matches = None
    if log.result is not None:
        o = gs.outcome()
        matches = o is not None and o.end == log.result["end"] and o.winners == log.result["winners"]
    return ReplayReport(len(log.steps), None, gs, matches)
