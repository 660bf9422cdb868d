"""A served table: one game, a token per human seat, and what each seat is sent (its own view, never more).

A `Table` owns a `GameState` and answers messages from seats.  Everything a seat receives is built by
`frame(seat)` from `state.view(seat)` (hidden pieces counted, not named), the pending decision when it is that
seat's to answer, and the log of the decisions as that seat may know them (its own answers by label, the
others' by who answered).  The seed, the random generator and other seats' pending menus are never in a
frame.  Every message from a client is checked before anything changes: a message that is too long, not
JSON, of an unknown kind, from the wrong seat, for a decision already answered, or naming an option the
decision does not offer is refused with a plain reason and the position stays as it was.  After every
decision the table is written with the same save format as `orrery play` (files/save.py, atomic writes), and
the seats' tokens beside it, so a restarted server resumes every table (docs/serve.md).
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..bots.factory import Bot, make_bot
from ..bots.simulate import bot_seed
from ..engine.game import Game, GameState, IllegalMove
from ..files.atomic import write_atomic
from ..files.save import SUFFIX, make_save, read_save, replay_save, write_save
from .board import drawing, layout, panels

HUMAN = "human"
MAX_MESSAGE = 4096  # bytes: an answer is a few dozen; anything longer is refused unread
SPECTATOR = -1  # the seat number of a spectator's token (sees what no seat's privacy covers: view(None) hidden)
TOKENS_SUFFIX = ".tokens.json"


class Refused(Exception):
    """A client's message refused with a reason; nothing changed."""


@dataclass
class Table:
    """One game served to its seats."""

    tid: str
    game: Game
    game_ref: str
    variants: list[str]
    seats: list[str]  # "human" or a bot name, per seat
    gs: GameState
    tokens: dict[str, int]  # token -> seat (SPECTATOR for the spectators' token)
    save_dir: Path | None = None
    think: Callable[[str], str] = str  # a seat's bot name -> the bot made (the CLI gives plain 'mcts' a budget)
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    bots: dict[int, Bot] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.bots = {i: make_bot(self.think(kind), bot_seed(self.gs.seed, i)) for i, kind in enumerate(self.seats)
                     if kind != HUMAN}

    # ------------------------------------------------------------------ who is who
    def seat_of(self, token: Any) -> int:
        """The seat a token stands for; Refused for a missing or unknown token."""
        if not isinstance(token, str) or token not in self.tokens:
            raise Refused("unknown or missing token: use the join link the server printed for your seat")
        return self.tokens[token]

    def token_of(self, seat: int) -> str:
        """The join token of a seat (SPECTATOR: the spectators')."""
        return next(t for t, s in self.tokens.items() if s == seat)

    def seat_name(self, seat: int) -> str:
        """The rules' name for a seat ('spectator' for the spectators)."""
        return "spectator" if seat == SPECTATOR else self.game.rules.seat_name(seat)

    @property
    def title(self) -> str:
        """The game's title as players read it."""
        return self.game.spec.model.game.title or self.game.name

    @property
    def step(self) -> int:
        """The number of the pending decision (answers carry it, so an answer to an old menu is refused)."""
        return len(self.gs.steps)

    # ------------------------------------------------------------------ answering
    def answer(self, seat: int, raw: str | bytes) -> None:
        """Apply a seat's message (a JSON text); Refused, with nothing changed, for anything not acceptable."""
        if len(raw) > MAX_MESSAGE:
            raise Refused(f"message too long ({len(raw)} bytes; at most {MAX_MESSAGE})")
        try:
            msg = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise Refused("not a JSON message") from None
        if not isinstance(msg, dict) or msg.get("type") != "act":
            raise Refused("unknown message: send {\"type\": \"act\", \"step\": N, \"option\": I}")
        step, option = msg.get("step"), msg.get("option")
        if not _whole(step) or not _whole(option):
            raise Refused("'step' and 'option' must be whole numbers")
        with self.lock:
            if self.gs.is_terminal():
                raise Refused("the game is over")
            current = self.gs.current_player()
            if seat != current:
                raise Refused(f"it is {self.seat_name(current)}'s turn, not yours")
            if step != self.step:
                raise Refused(f"that answer is for decision {step}, but the game is at decision {self.step}: "
                              "the page shows the current one now")
            if option not in self.gs.legal_actions():
                raise Refused(f"option {option} is not offered by this decision")
            try:
                self.gs.apply(option)
            except IllegalMove as exc:
                raise Refused(str(exc)) from None
            self.save()

    def bot_to_move(self) -> int | None:
        """The bot seat that must answer now, if any."""
        with self.lock:
            if self.gs.is_terminal():
                return None
            p = self.gs.current_player()
            return p if p in self.bots else None

    def bot_answer(self, seat: int) -> bool:
        """Let the bot of `seat` answer the pending decision (False if the game moved meanwhile)."""
        with self.lock:
            if self.bot_to_move() != seat:
                return False
            step, position = self.step, self.gs.clone()
        choice = self.bots[seat].choose(position)  # (outside the lock: a search takes its budget)
        with self.lock:
            if self.step != step:
                return False
            self.gs.apply(choice)
            self.save()
        return True

    # ------------------------------------------------------------------ what a seat is sent
    def frame(self, seat: int) -> dict[str, Any]:
        """Everything `seat` is sent about the game now (SPECTATOR: what every seat may see)."""
        with self.lock:
            gs = self.gs
            viewer = None if seat == SPECTATOR else seat
            view = gs.view(viewer) if viewer is not None else _public_view(gs)
            frame: dict[str, Any] = {
                "type": "frame", "table": self.tid, "game": self.game.name, "seat": seat,
                "seat_name": self.seat_name(seat), "step": self.step, "view": view,
                "seats": [{"name": self.seat_name(i), "kind": k} for i, k in enumerate(self.seats)],
                "log": self.log(seat),
            }
            frame["layout"] = layout(self.game, view)
            frame.update(drawing(gs, view, frame["layout"]), panels=panels(self.game, view), title=self.title)
            if gs.is_terminal():
                o = gs.outcome()
                frame["over"] = {"end": o.end, "winners": [self.seat_name(w) for w in o.winners],
                                 "returns": gs.returns()}
                return frame
            current = gs.current_player()
            frame["waiting_for"] = self.seat_name(current)
            if seat == current:
                d = gs.decision
                frame["decision"] = {
                    "prompt": d.prompt, "kind": d.kind,
                    "options": [{"index": o.index, "label": o.label} for o in d.options],
                    "refused": [{"option": str(k), "why": str(v)} for k, v in (d.reasons or {}).items()],
                }
            return frame

    def log(self, seat: int) -> list[str]:
        """The decisions so far as `seat` may know them: its own answers by label, the others' by who."""
        lines = []
        for s in self.gs.steps:
            if s.auto:
                continue
            who = self.seat_name(s.player)
            lines.append(f"{who}: {s.label}" if s.player == seat else f"{who} answered ({s.prompt})")
        return lines

    # ------------------------------------------------------------------ nothing lost
    def save_path(self) -> Path | None:
        """Where the table is saved (None: not saved)."""
        return None if self.save_dir is None else self.save_dir / f"{self.tid}{SUFFIX}"

    def save(self) -> None:
        """Write the table as `orrery play` saves a game (atomically), and its tokens beside it."""
        path = self.save_path()
        if path is None:
            return
        write_save(path, make_save(self.game, self.game_ref, self.variants, self.seats, self.gs))
        tokens = path.with_name(self.tid + TOKENS_SUFFIX)
        if not tokens.exists():
            write_atomic(tokens, json.dumps({"tokens": self.tokens}))
            os.chmod(tokens, 0o600)


def new_table(game: Game, game_ref: str, variants: list[str], seats: list[str], seed: int | None = None,
              save_dir: Path | None = None, think: Callable[[str], str] = str) -> Table:
    """A new table: a fresh game, a token per human seat and one for spectators; saved at once."""
    seed = secrets.randbelow(2 ** 31) if seed is None else seed
    gs = game.new_initial_state(len(seats), seed)
    tokens = {secrets.token_urlsafe(18): i for i, k in enumerate(seats) if k == HUMAN}
    tokens[secrets.token_urlsafe(18)] = SPECTATOR
    table = Table(secrets.token_hex(4), game, game_ref, list(variants), list(seats), gs, tokens, save_dir, think)
    table.save()
    return table


def resume_tables(save_dir: Path, load: Any, think: Callable[[str], str] = str) -> list[Table]:
    """Every table saved in `save_dir`, played again from its save; `load(game_ref, variants)` -> Game."""
    tables = []
    for path in sorted(save_dir.glob(f"*{SUFFIX}")):
        save = read_save(path)
        game = load(save.game, save.variants)
        gs = replay_save(save, game)
        tid = path.name.removesuffix(SUFFIX)
        tokens = json.loads(path.with_name(tid + TOKENS_SUFFIX).read_text(encoding="utf-8"))["tokens"]
        tables.append(Table(tid, game, save.game, save.variants, save.seats, gs,
                            {t: int(s) for t, s in tokens.items()}, save_dir, think))
    return tables


def _public_view(gs: GameState) -> dict[str, Any]:
    """What a spectator sees: only what every seat's view shows alike (their meet), so no seat's private zones,
    values, menu or sealed pick; a hidden place shown to one seat and counted for another is counted.  (In a
    one-player game that is the player's own view: there is no other seat to hide from.)"""
    view = _meet([gs.view(s) for s in range(gs.num_players)])
    view["viewer"] = None
    return view


_NOTHING = object()  # (the meet of values that differ)


def _meet(values: list[Any]) -> Any:
    """What a list of views (or parts) all show: keys they share, lists of one length element by element,
    equal values; pieces in one and a count in another give the count; anything else is left out."""
    first = values[0]
    if all(isinstance(v, dict) for v in values):
        out = {}
        for key in first:
            if all(key in v for v in values):
                part = _meet([v[key] for v in values])
                if part is not _NOTHING:
                    out[key] = part
        return out
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1:
        parts = [_meet(list(items)) for items in zip(*values)]
        return _NOTHING if any(p is _NOTHING for p in parts) else parts
    if all(v == first for v in values):
        return first
    counts = {v for v in values if isinstance(v, int) and not isinstance(v, bool)}
    if len(counts) == 1 and all(isinstance(v, list) or v in counts for v in values):
        return counts.pop()
    return _NOTHING


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


__all__ = ["HUMAN", "MAX_MESSAGE", "SPECTATOR", "Refused", "Table", "new_table", "resume_tables"]
