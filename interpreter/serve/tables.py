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
from typing import Any, Callable, Protocol

from ..bots.factory import Bot, make_bot
from ..bots.simulate import bot_seed
from ..bots.thinking import TurnBudget, thinking, turn_budgets
from ..engine.game import Game, GameState, IllegalMove
from ..files.atomic import write_atomic
from ..files.save import SUFFIX, SavedDecision, decisions_of, make_save, read_save, replay_save, write_save
from .frames import SPECTATOR, Position, frame_of, seat_name

HUMAN = "human"
MAX_MESSAGE = 4096  # bytes: an answer is a few dozen; anything longer is refused unread
TOKENS_SUFFIX = ".tokens.json"


class Memory(Protocol):
    """What a table keeps so that an undo puts its bots back as they were (`orrery play`'s cli/undo.BotMemory)."""

    def before_human(self, made: int) -> None: ...
    def undone(self, back: GameState, taken: list[SavedDecision]) -> None: ...
    def answer(self, player: int) -> int | None: ...
    def made(self, player: int, choice: int) -> None: ...


class Undo(Protocol):
    """The rules of undo a table is given (`orrery serve` gives `orrery play`'s: cli/serve.py)."""

    def __call__(self, gs: GameState, seats: list[str]) -> tuple[GameState, int]:
        """(game, seats) -> (the game before the last human decision, whose decision it was); Refused if not."""

    def remember(self, bots: dict[int, Bot], remake: Callable[[int], Bot]) -> Memory:
        """The memory that puts `bots` (changed in place) back as they were after an undo."""


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
    think: float | None = None  # seconds a TURN of a plain 'mcts' seat (`--think`), shared among its decisions
    undo: Undo | None = None  # the rules of undo (None: this table takes nothing back): set by allow_undo
    generation: int = 0  # how many undos: a bot's answer to a position taken back is dropped
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    bots: dict[int, Bot] = field(default_factory=dict, repr=False)
    memory: Memory | None = field(default=None, repr=False)  # the bots as they were, for an undo
    budgets: dict[int, TurnBudget] = field(default_factory=dict, repr=False)  # plain 'mcts' seats' turns
    _at: tuple[tuple, Position] | None = field(default=None, repr=False)  # the position the last frame showed

    def __post_init__(self) -> None:
        self.bots = {i: self._new_bot(i) for i, kind in enumerate(self.seats) if kind != HUMAN}
        self.budgets = turn_budgets(self.seats, self.think)  # as `orrery play` budgets them (bots/thinking.py)

    def _new_bot(self, seat: int) -> Bot:
        return make_bot(thinking(self.seats[seat], self.think), bot_seed(self.gs.seed, seat))

    def allow_undo(self, undo: Undo | None) -> None:
        """Take decisions back by the rules `undo` (None: never), the bots put back as they were by its memory."""
        self.undo, self.memory = undo, None if undo is None else undo.remember(self.bots, self._new_bot)

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
        return seat_name(self.game, seat)

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
        if isinstance(msg, dict) and msg.get("type") == "undo":
            return self.take_back(seat, msg.get("step"))
        if not isinstance(msg, dict) or msg.get("type") != "act":
            raise Refused("unknown message: send {\"type\": \"act\", \"step\": N, \"option\": I} (or "
                          "{\"type\": \"undo\", \"step\": N})")
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
            if self.memory is not None:
                self.memory.before_human(len(decisions_of(self.gs)))
            try:
                self.gs.apply(option)
            except IllegalMove as exc:
                raise Refused(str(exc)) from None
            self._made(seat, option)

    def take_back(self, seat: int, step: Any) -> None:
        """Undo `seat`'s last decision (and the bots' answers since) where the rules of undo allow it (the
        table's `undo`: cli/undo.py's, given by `orrery serve`); Refused, with nothing changed, otherwise."""
        if self.undo is None:
            raise Refused("this table cannot take decisions back")
        if not _whole(step):
            raise Refused("'step' must be a whole number")
        with self.lock:
            if step != self.step:
                raise Refused(f"that undo is for decision {step}, but the game is at decision {self.step}")
            if self.gs.is_terminal():
                raise Refused("the game is over")
            before, player = self.undo(self.gs, self.seats)  # (Refused with the rule's reason when not allowed)
            if player != seat:
                raise Refused(f"the last decision a human made is {self.seat_name(player)}'s: only "
                              f"{self.seat_name(player)} can take it back")
            if self.memory is not None:
                self.memory.undone(before, decisions_of(self.gs)[len(decisions_of(before)):])
            self.gs, self.generation = before, self.generation + 1
            for budget in self.budgets.values():
                budget.turn = None  # the bots' turns start again with their whole budget
            self.save()

    def _made(self, seat: int, choice: int) -> None:
        """A decision was applied: the memory follows the game, and the table is saved."""
        if self.memory is not None:
            self.memory.made(seat, choice)
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
            again = None if self.memory is None else self.memory.answer(seat)
            if again is not None:  # retracing an undone line: a bot on a time budget answers as it did
                self.gs.apply(again)
                self._made(seat, again)
                return True
            step, generation, position = self.step, self.generation, self.gs.clone()
        bot, budget = self.bots[seat], self.budgets.get(seat)  # (outside the lock: a search takes its budget)
        choice = bot.choose(position) if budget is None else budget.think(position, seat, bot)
        with self.lock:
            if (self.step, self.generation) != (step, generation):  # the game moved on, or went back
                return False
            self.gs.apply(choice)
            self._made(seat, choice)
        return True

    # ------------------------------------------------------------------ what a seat is sent
    def frame(self, seat: int) -> dict[str, Any]:
        """Everything `seat` is sent about the game now (SPECTATOR: what every seat may see): serve/frames.py."""
        with self.lock:
            key = (id(self.gs), self.generation, self.step)  # (each decision applied is a step: a new position)
            if self._at is None or self._at[0] != key:  # the seats' frames of one position share its views
                self._at = (key, Position(self.gs))
            return {**frame_of(self.game, self.gs, seat, self.seats, position=self._at[1]), "table": self.tid}

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
              save_dir: Path | None = None, think: float | None = None) -> Table:
    """A new table: a fresh game, a token per human seat and one for spectators; saved at once."""
    seed = secrets.randbelow(2 ** 31) if seed is None else seed
    gs = game.new_initial_state(len(seats), seed)
    tokens = {secrets.token_urlsafe(18): i for i, k in enumerate(seats) if k == HUMAN}
    tokens[secrets.token_urlsafe(18)] = SPECTATOR
    table = Table(secrets.token_hex(4), game, game_ref, list(variants), list(seats), gs, tokens, save_dir, think)
    table.save()
    return table


def resume_tables(save_dir: Path, load: Any, think: float | None = None) -> list[Table]:
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


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


__all__ = ["HUMAN", "MAX_MESSAGE", "SPECTATOR", "Memory", "Refused", "Table", "Undo", "new_table", "resume_tables"]
