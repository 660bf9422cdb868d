"""`orrery play`: humans and bots at one table in the terminal; nothing is lost.

Humans answer numbered menus by number or by label (`c3`, a card's name); an
illegal answer is refused with the rule that forbids it.  On a terminal the
answer is read with line editing, a history and Tab completion of the labels,
and the table's commands (`help`, `rules`, `why OPTION`, `undo`, `save`,
`board`, `more`, `quit`) are there too (prompter.py).  On a terminal the screen
of a decision fits the terminal's height (screen.py): a menu too long for it
shows a page of its options, and `more` the next one.  Bots answer through the same
interface; by default every seat but the first is a search bot (mcts) that
thinks `--think` seconds (default 2) a TURN, shared among the turn's decisions
(bots/thinking.py), shown as "… is thinking".
Each bot move, and each decision the engine answers by itself (one option),
is told in the game's words (narrate.py).  `--log FILE` writes every decision
as it is made.

Saving: after every decision the game is saved (atomically, see save.py) to
`--save FILE`, by default `<game>.orrery-save.json` in the current folder when
a human is seated (a bots-only game is saved only with an explicit --save);
`--no-save` turns it off.  A default save file that still holds another game in
progress is never overwritten: the new game goes to `<game>-2.orrery-save.json`
(or -3...), and an explicit --save FILE holding a game in progress is refused.
One process plays a save at a time: while a game plays into FILE it holds a lock
(filelock on FILE.lock, dropped by the system if the process dies), and another
`orrery play` that would write FILE (--resume FILE, --save FILE) is refused.
Quitting, end of input and Ctrl-C (also when the game was started with SIGINT
ignored: `ctrl_c_taken`) all leave the game saved and say how to go on:
`orrery play --resume FILE` rebuilds the game from its decisions (GAME,
variants, seed and seats come from the save) and continues at the same
decision; bots are caught up on the way so that they play on exactly as they
would have (except bots on a time budget, whose searches depend on the machine:
catching them up would only repeat their waits).  With --log, a resumed (or
undone) game rewrites the log from the start, so the log always replays the
whole game as it now stands.

Undo: a human types `undo` to take back their last decision and the bots' answers since, when nothing
random or hidden was shown meanwhile (undo.py says exactly when); the bots are put back as they were, so
the same decision gets the same answers.  Undo rebuilds the game from its start with the remaining
decisions, and is saved (and logged) like any decision.
"""

from __future__ import annotations

import argparse
import shlex
import signal
import sys
import threading
import time
from contextlib import contextmanager
from itertools import count
from pathlib import Path
from typing import Iterator

from rich.console import Console
from rich.markup import escape

from orrery.rulespec.errors import InputError, OrreryError
from orrery.rulespec.paths import real_path, refuse_overwrite, same_file

from ..bots.factory import BOTS, PARAMETRIC, Bot, apply_choice, bot_error, make_bot
from ..engine.game import Game, GameState
from ..engine.gamefiles import close_to, game_ref, resolve_game, resolve_variant
from ..files.log import LogWriter
from .loading import settled
from .narrate import Watch
from .prompter import EOF, HELP, QUIT, UNDO, LineReader, Table, answer_words, ask
from ..files.save import (SUFFIX, Save, SavedDecision, SaveLock, decisions_of, make_save, read_save, replay_decisions,
                   replay_save, save_status, write_save)
from ..bots.simulate import bot_seed
from .table import PRIVATE_RECORD, Handover, Recap, hidden_information, new_seed, seed_text
from ..bots.thinking import thinking, turn_budgets
from .undo import BotMemory, UndoRefused, narrated, revealed, taken_back, undo_last, visible_pieces

HUMAN = "human"
DEFAULT_BOT = "mcts"  # the default seat besides the human: a search bot thinking --think seconds a turn


def parse_seats(game: Game, seats: str | None, players: int | None) -> list[str]:
    """Seat types from --seats/--players (default: one human, then thinking search bots)."""
    r = game.rules
    if seats:
        kinds = [s.strip() for s in seats.split(",") if s.strip()]
        if players is not None and players != len(kinds):
            raise InputError(f"--seats lists {len(kinds)} seats but --players is {players}")
    else:
        n = players or r.default_players
        kinds = [HUMAN] + [DEFAULT_BOT] * (n - 1)
    if not r.min_players <= len(kinds) <= r.max_players:
        raise InputError(f"{game.name} takes {r.player_count_text()}, not {len(kinds)}")
    for k in kinds:
        if k != HUMAN and k.partition(":")[0] not in BOTS:
            raise InputError(f"--seats: unknown seat type '{k}'{close_to(k.partition(':')[0], [HUMAN, *BOTS])} "
                             f"(human, {', '.join(sorted(BOTS))})")
        why = None if k == HUMAN else bot_error(k)
        if why:
            raise InputError(f"--seats: {why}")
    return kinds


# ------------------------------------------------------------------ entry point


def command(args: argparse.Namespace) -> int:
    """`orrery play [GAME] [--resume FILE]`: a new game, or a saved one continued."""
    with ctrl_c_taken():
        return _command(args)


@contextmanager
def ctrl_c_taken() -> Iterator[None]:
    """Ctrl-C stops the game and saves it, also when SIGINT came in ignored: a game started from a background
    job of a non-interactive shell (a script, a test runner) inherits SIGINT ignored, and Python keeps it so,
    which would swallow the Ctrl-C in the prompt's read.  The previous handling comes back afterwards."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) != signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _command(args: argparse.Namespace) -> int:
    from .loading import load_game_from_args

    if args.save and args.no_save:
        raise InputError("--save and --no-save contradict each other")
    if not args.resume:
        if not args.game:
            raise InputError("play: give GAME (a bundled game's name or a rules.yaml), or --resume FILE to "
                             "continue a saved game")
        game, path, variants = load_game_from_args(args)
        return play(game, path, variants, args)
    save = read_save(args.resume, check_seats=not args.seats)  # --seats replace the saved ones (and their budgets)
    _check_resume_options(save, args)
    path = _saved_game_path(save, args.game)
    ns = argparse.Namespace(game=str(path), variant=list(save.variants), limit=getattr(args, "limit", None))
    try:
        game, path, variants = load_game_from_args(ns)
    except InputError as exc:
        if exc.findings and exc.findings[0].span is None:  # a variant that cannot be found
            raise save.error(f"a saved variant cannot be loaded: {exc.findings[0].message}", "variants") from None
        raise
    if args.seats:
        save.seats = parse_seats(game, args.seats, save.players)
    return play(game, path, variants, args, resume=save)


def _check_resume_options(save: Save, args: argparse.Namespace) -> None:
    """Options that would change the saved game are refused unless they agree with the save."""
    if args.players is not None and args.players != save.players:
        raise InputError(f"--players {args.players} does not match the save ({save.players} players)")
    if args.seed not in (None, save.seed):  # the save's seed is not named: it may deal hidden cards
        raise InputError(f"--seed {args.seed} does not match the save's seed; a resumed game keeps its seed")
    if args.variant and [str(v) for v in args.variant] != save.variants:
        if [_variant_name(v) for v in args.variant] != [_variant_name(v) for v in save.variants]:
            raise InputError(f"--variant {' '.join(args.variant)} does not match the save's variants "
                             f"({', '.join(save.variants) or 'none'}); a resumed game keeps its variants")


def _variant_name(v: str) -> str:
    return Path(v).stem


def _saved_game_path(save: Save, given: str | None) -> Path:
    """The saved game's rules.yaml; GAME, when given, must be the same game (the spec digest is checked later)."""
    try:
        saved = resolve_game(save.game)
    except InputError as exc:
        if given:
            return resolve_game(given)  # moved: the digest check still proves it is the same spec
        raise save.error(f"the saved game '{save.game}' cannot be found ({exc.findings[0].message}); give its "
                         f"rules.yaml as GAME", "game") from None
    if given:
        other = resolve_game(given)
        if not same_file(other, saved):
            raise InputError(f"{given} is not the game of this save ({save.game}); leave GAME out to resume it")
    return saved


def _save_ref(path: Path) -> str:
    """How a save names its game: the bundled name, else the absolute path (resume works from any folder)."""
    ref = game_ref(path)
    return ref if ref != str(path) else str(real_path(path))


def _variant_ref(game_path: Path, v: str) -> str:
    local = game_path.parent / "variants" / f"{v}.yaml"
    if "/" not in v and not Path(v).is_file() and local.is_file():
        return v
    return str(real_path(v))


def _no_output_over_an_input(path: Path, variants: list[str], args: argparse.Namespace, resume: Save | None,
                             target: Path | None = None) -> None:
    """Refused before anything is written: --log or --save naming the rules, a variant, the save being resumed
    (the log only: a resumed save is written again on purpose) or each other."""
    inputs: list[tuple[str, str | Path]] = [("the rules", path)]
    inputs += [("the variant", resolve_variant(path, v)) for v in variants]
    if resume is not None:
        inputs.append(("the save being resumed", resume.path))
    outputs: list[tuple[str, str | Path]] = [(k, v) for k, v in (("--log", getattr(args, "log", None)),
                                                                  ("--save", getattr(args, "save", None))) if v]
    if target is not None and not getattr(args, "save", None):
        outputs.append(("the save", target))
    refuse_overwrite(outputs, inputs, {("--save", "the save being resumed"), ("the save", "the save being resumed")})


def resume_hint(path: str | Path) -> str:
    """The command that continues a saved game."""
    return f"orrery play --resume {shlex.quote(str(path))}"


# ------------------------------------------------------------------ autosave


class Autosave:
    """Writes the save after every decision; a failure mid-game is reported, never fatal."""

    def __init__(self, path: Path, game: Game, ref: str, variants: list[str], seats: list[str], console: Console):
        self.path = path
        self.game, self.ref, self.variants, self.seats = game, ref, variants, seats
        self.console = console
        self.ok = False
        self.secret = False  # the game has hidden information: say that the save is private

    def write(self, gs: GameState, first: bool = False) -> bool:
        """Save now; True if the save on disk is up to date."""
        try:
            write_save(self.path, make_save(self.game, self.ref, self.variants, self.seats, gs))
        except OSError as exc:
            reason = exc.strerror or str(exc)
            if first:
                raise InputError(f"{self.path}: cannot write the save file: {reason} (choose another file with "
                                 f"--save FILE, or play without saving: --no-save)") from None
            self.console.print(f"[red]warning:[/red] could not save to {escape(str(self.path))}: {escape(reason)}; "
                               f"the previous save is intact", soft_wrap=True)
            self.ok = False
            return False
        self.ok = True
        return True

    def where(self) -> str:
        """Where the game is saved and how to go on."""
        if not self.ok:
            return f"The last save to {self.path} failed; the save there may be behind."
        private = f" ({PRIVATE_RECORD})" if self.secret else ""
        return f"The game is saved in {self.path}{private}; continue it with: {resume_hint(self.path)}"


def _save_target(game: Game, args: argparse.Namespace, seats: list[str], console: Console,
                 resume: Save | None) -> Path | None:
    """Where to save: --save, else the resumed file, else the default (humans seated); never over a game in progress."""
    if args.no_save:
        return None
    if args.save:
        target, explicit = Path(args.save), True
    elif resume is not None:
        return Path(resume.path)
    elif HUMAN not in seats:
        return None
    else:
        target, explicit = Path(f"{game.name}{SUFFIX}"), False
    if resume is not None and same_file(target, resume.path):
        return target
    kind, old, detail = save_status(target)
    if kind in ("missing", "empty", "finished"):
        return target
    if explicit:
        if kind == "other":
            raise InputError(f"{target}: exists and is not an Orrery save ({detail}); not overwriting it: choose "
                             f"another --save FILE")
        raise InputError(f"{target}: already holds a game in progress ({detail}); continue it with: "
                         f"{resume_hint(target)} (or choose another --save FILE)")
    for k in count(2):
        other = Path(f"{game.name}-{k}{SUFFIX}")
        if save_status(other)[0] in ("missing", "empty", "finished"):
            what = "another game in progress" if kind == "in progress" else "something that is not a save"
            console.print(f"[dim]note: {escape(str(target))} holds {what}"
                          + (f" (continue it with: {escape(resume_hint(target))})" if kind == "in progress" else "")
                          + f"; this game is saved in {escape(str(other))}[/dim]", soft_wrap=True)
            return other
    raise AssertionError("unreachable")


# ------------------------------------------------------------------ the table


def play(game: Game, path: Path, variants: list[str], args: argparse.Namespace, resume: Save | None = None) -> int:
    """Run one game at the terminal (new, or resumed from a save); return the exit code."""
    from .render import SafeConsole, render_state
    from .screen import PlayScreen, terminal_height, watched_state

    # spec text is shown with its control characters escaped; --no-color (or NO_COLOR, which rich reads) drops
    # colours: every board distinction is also a symbol, listed in the legend
    console = SafeConsole(highlight=False, no_color=True if getattr(args, "no_color", False) else None)
    debug = getattr(args, "debug", False)  # the rules' internal variables, and for a spectator hidden zones
    seats = list(resume.seats) if resume else parse_seats(game, args.seats, args.players)
    seed = resume.seed if resume else (new_seed() if args.seed is None else args.seed)
    secret = hidden_information(game.rules)  # then the seed stays off the screen until the game is over
    seat = game.rules.seat_name
    think = getattr(args, "think", None)

    def new_bot(i: int) -> Bot:
        return make_bot(thinking(seats[i], think), bot_seed(seed, i))

    bots: dict[int, Bot] = {i: new_bot(i) for i, k in enumerate(seats) if k != HUMAN}
    memory = BotMemory(bots, new_bot)  # what an undo needs to put the bots back as they were
    # plain 'mcts' seats think --think seconds a turn (a seat with its own budget keeps it)
    per_turn = turn_budgets(seats, think)
    ref = _save_ref(path)
    saved_variants = [_variant_ref(path, v) for v in variants]
    log_path = getattr(args, "log", None)
    _no_output_over_an_input(path, variants, args, resume)

    def open_log(decisions: list[SavedDecision]) -> tuple[LogWriter | None, GameState]:
        """A log from the start (header, then every decision so far) and the game rebuilt alongside it."""
        initial = game.new_initial_state(players=len(seats), seed=seed, narrate=True)
        log = LogWriter(log_path, game, game_ref(path), initial, variants, seats) if log_path else None
        if not decisions:
            return log, initial
        prompt: list[str] = [""]

        def before(g: GameState, d: SavedDecision) -> None:
            prompt[0] = g.decision.prompt if g.decision else ""

        def after(g: GameState, d: SavedDecision) -> None:
            if log:
                log.step(d.player, d.choice, d.label, prompt[0], g)

        return log, replay_decisions(game, len(seats), seed, decisions, before, after)

    lock: SaveLock | None = None  # held while this process plays into the save (released when play ends)
    try:
        if resume is not None:
            def catch_up(g: GameState, d: SavedDecision) -> None:  # the bot's own RNG moves on as it did
                # (not a bot on a time budget: its searches cannot be repeated exactly anyway, and catching
                # up would make the player wait its whole budget again for every decision it made)
                if d.player in bots and getattr(bots[d.player], "seconds", None) is None:
                    bots[d.player].choose(g)

            lock = SaveLock.take(resume.path)
            gs = replay_save(resume, game, before=catch_up)
            target = _save_target(game, args, seats, console, resume)
            _no_output_over_an_input(path, variants, args, resume, target)
            if target is not None and not same_file(target, resume.path):
                lock.release()
                lock = SaveLock.take(target)
            log, _ = open_log(resume.decisions) if log_path else (None, gs)
        else:
            target = _save_target(game, args, seats, console, resume)
            _no_output_over_an_input(path, variants, args, resume, target)
            lock = SaveLock.take(target) if target else None
            log, gs = open_log([])
    except BaseException:  # a save that cannot be resumed, a log that cannot be written: let the save go
        if lock is not None:
            lock.release()
        raise
    saver = Autosave(target, game, ref, saved_variants, seats, console) if target else None
    if saver:
        saver.secret = secret

    title = game.spec.model.game.title or game.name
    names = ", ".join(f"{seat(i)}: {k}" for i, k in enumerate(seats))
    console.print(f"[bold]{escape(title)}[/bold] — {seed_text(seed, secret)} — {escape(names)}")
    if saver and secret:
        console.print(f"[dim]saving to {escape(str(saver.path))}, {PRIVATE_RECORD}[/dim]", soft_wrap=True)
    if resume is not None:
        n = len(resume.decisions)
        console.print(f"resumed {escape(resume.path)}: {n} decision{'s' if n != 1 else ''} replayed", soft_wrap=True)
    all_bots = HUMAN not in seats
    quiet_board = getattr(args, "quiet_board", False)
    humans = [i for i, k in enumerate(seats) if k == HUMAN]
    handover = Handover(humans, game.rules, console)
    recap = Recap(humans, handover.active)  # what each human is told after a hand-over
    readers: dict[int, LineReader] = {}  # one per human seat: nobody recalls another seat's answers

    told = list(gs.narration)  # what the table told on the screen since it was last cleared: the screen repeats it
    settled()  # (the table is set: what start-up made lives as long as the game; loading.collector_held)

    def screen_viewers() -> list[int]:
        """Who reads the shared screen now: the human it was handed to, else every human at the table."""
        return [handover.last] if handover.active and handover.last is not None else humans

    def note_move(g: GameState, w: Watch, p: int, kind: str, d, opt) -> None:
        """Keep the move for the other humans' recaps, as each of them may see it."""
        recap.note(lambda h: w.move(g, p, kind, d.prompt, opt.label, d.sealed, opt.value, [h]) + w.autos(g, [h]),
                   mover=p if kind == HUMAN else None)

    def tell_autos(g: GameState, w: Watch) -> int:
        autos = w.autos(g, screen_viewers())
        for line in autos:
            console.print(f"[dim]{escape(line)}[/dim]", soft_wrap=True)
        told.extend(autos)
        return len(autos)

    def save_now(g: GameState) -> str:
        if saver is None:
            return "This game is not being saved (--no-save)."
        return saver.where() if saver.write(g) else "The save failed (see the warning above)."

    def stopped(why: str) -> str:
        tail = saver.where() if saver else "It was not saved (--no-save)."
        if log:
            tail += f" The log so far is in {log_path}."
        return f"{why} {tail}"

    try:
        if saver:
            saver.write(gs, first=True)
        if resume is not None and gs.is_terminal():
            console.print(render_state(gs, None, debug))
            console.print("this game is already over.")
            return 0
        if resume is None:
            tell_autos(gs, Watch(gs, humans, visible_pieces, secret, steps=0))  # decisions the engine answered before the first real one (a forced setup choice)
        if all_bots and not quiet_board:
            console.print(render_state(gs, None, debug))
        while not gs.is_terminal():
            p = gs.current_player()
            d = gs.decision
            assert d is not None
            watch = Watch(gs, humans, visible_pieces, secret)  # (what each human saw is not hidden from them)
            if p in bots:
                budget = per_turn[p].share(gs, p) if p in per_turn else getattr(bots[p], "seconds", None)
                again = memory.answer(p)  # retracing an undone line: a bot on a time budget answers as it did
                if again is not None:
                    index = apply_choice(gs, again)
                elif seats[p].partition(":")[0] in PARAMETRIC:  # a search: say so while it runs (on a terminal)
                    limit = f" (up to {budget:.2g} s)" if budget else ""
                    with console.status(f"{escape(seat(p))} is thinking…{limit}"):
                        if p in per_turn:  # (the move's time counts against the turn too)
                            index = per_turn[p].think(gs, p, bots[p], lambda c: apply_choice(gs, c))
                        else:
                            index = apply_choice(gs, bots[p].choose(gs))
                else:
                    index = apply_choice(gs, bots[p].choose(gs))
                opt = next(o for o in d.options if o.index == index)
                label = opt.label
                lines = watch.move(gs, p, seats[p], d.prompt, label, d.sealed, opt.value, screen_viewers())
                console.print(f"[dim]{escape(lines[0])}[/dim]", soft_wrap=True)
                for line in lines[1:]:
                    console.print(escape(line), soft_wrap=True)
                told.extend(lines)
                if recap.pending:
                    note_move(gs, watch, p, seats[p], d, opt)
                autos = tell_autos(gs, watch)
                if all_bots and not quiet_board:  # the board shows the narration too; it fits with the move's lines
                    console.print(watched_state(gs, console, debug, terminal_height(console), len(lines) + autos))
                if getattr(args, "delay", 0):
                    time.sleep(args.delay)
            else:
                since = recap.take(p)
                if handover.active and handover.last not in (None, p):  # the screen is cleared for another seat
                    told[:] = since
                if not handover.to(p, since):
                    console.print(stopped("input ended."), soft_wrap=True)
                    return 0
                screen = PlayScreen(gs, p, console, debug, terminal_height(console), told)  # fits the terminal
                page = [0]

                def more() -> None:
                    if screen.pages == 1:
                        console.print("The whole menu is shown.")
                        return
                    page[0] += 1
                    console.print(screen.render(page[0]))

                console.print(screen.render())
                if p not in readers:
                    readers[p] = LineReader(lambda: answer_words(gs))
                table = Table(console, lambda: console.print(screen.render(page[0])), lambda: save_now(gs), more)
                memory.before_human(len(decisions_of(gs)))
                answer = ask(table, gs, readers[p])
                while answer == UNDO:
                    try:
                        new_gs, _ = undo_last(gs, seats)
                        break
                    except UndoRefused as exc:
                        console.print(f"[red]cannot undo:[/red] {escape(exc.reason)}")
                        answer = ask(table, gs, readers[p])
                if answer == UNDO:
                    taken = decisions_of(gs)[len(decisions_of(new_gs)):]
                    line = taken_back(gs, new_gs, p)
                    memory.undone(new_gs, taken)
                    for turns in per_turn.values():
                        turns.turn = None  # the bots' turns start again with their whole budget
                    if log:
                        log.finish(gs)  # not over: closes the file; the log is rewritten without the decision
                        log, new_gs = open_log(decisions_of(new_gs))
                    gs_then, gs = gs, new_gs
                    console.print(escape(line), soft_wrap=True)
                    told[:] = [line]  # the screen tells the take-back, not the moves taken back
                    recap.note(lambda h: [taken_back(gs_then, new_gs, h)], mover=p)
                    if saver:
                        saver.write(gs)
                    continue
                if answer in (QUIT, EOF):
                    console.print(stopped("input ended." if answer == EOF else "game stopped."), soft_wrap=True)
                    return 0
                index, label = answer
                if recap.pending:
                    opt = next(o for o in d.options if o.index == index)
                    note_move(gs, watch, p, HUMAN, d, opt)
                for line in watch.move(gs, p, None, d.prompt, label, d.sealed, None, screen_viewers()):
                    console.print(escape(line), soft_wrap=True)  # the human's own move, in the game's words
                    told.append(line)
                tell_autos(gs, watch)
            memory.made(p, index)
            if log:
                log.step(p, index, label, d.prompt, gs)
            if saver:
                saver.write(gs)
        if not all_bots or quiet_board:
            console.print(render_state(gs, None, debug))
    except KeyboardInterrupt:
        if saver:
            try:
                saver.write(gs)
            except (KeyboardInterrupt, OrreryError):
                pass
        console.print("\n" + stopped("interrupted."), soft_wrap=True)
        return 130
    finally:
        if log:
            log.finish(gs)
        if lock:
            lock.release()
    console.print(f"seed {seed} (replay this deal with --seed {seed})")
    if saver:
        console.print(f"the finished game is saved in {escape(str(saver.path))}", soft_wrap=True)
    if log:
        console.print(f"log saved to {escape(str(log_path))} (replay with: orrery replay "
                      f"{escape(shlex.quote(str(log_path)))})", soft_wrap=True)
    return 0


__all__ = ["play", "command", "parse_seats", "undo_last", "UndoRefused", "revealed", "narrated", "visible_pieces",
           "resume_hint", "Autosave", "sys", "HELP", "DEFAULT_BOT"]
