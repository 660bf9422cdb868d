"""`orrery play`: humans and bots at one table in the terminal.

Humans answer numbered menus by number or by label (`c3`, a card's name); an
illegal answer is refused with the rule that forbids it.  Bots answer through
the same interface.  `--log FILE` writes every decision as it is made.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from rich.console import Console

from orrery.rulespec.errors import InputError

from .bots import BOTS, Bot, make_bot
from .game import Game, GameState, IllegalMove
from .gamefiles import game_ref
from .log import LogWriter
from .simulate import bot_seed

HUMAN = "human"
HELP = "Type an option's number or its label. Commands: 'board' redraws the board, 'help' shows this, 'quit' stops."


def parse_seats(game: Game, seats: str | None, players: int | None) -> list[str]:
    """Seat types from --seats/--players (default: one human, bots for the rest)."""
    r = game.rules
    if seats:
        kinds = [s.strip() for s in seats.split(",") if s.strip()]
        if players is not None and players != len(kinds):
            raise InputError(f"--seats lists {len(kinds)} seats but --players is {players}")
    else:
        n = players or r.default_players
        kinds = [HUMAN] + ["random"] * (n - 1)
    if not r.min_players <= len(kinds) <= r.max_players:
        raise InputError(f"{game.name} takes {r.min_players}-{r.max_players} players, not {len(kinds)}")
    for k in kinds:
        if k != HUMAN and k not in BOTS:
            raise InputError(f"--seats: unknown seat type '{k}' (human, {', '.join(sorted(BOTS))})")
    return kinds


def play(game: Game, path: Path, variants: list[str], args: argparse.Namespace) -> int:
    """Run one game at the terminal; return the exit code."""
    from .render import render_decision, render_state

    seats = parse_seats(game, args.seats, args.players)
    console = Console(highlight=False)
    gs = game.new_initial_state(players=len(seats), seed=args.seed)
    bots: dict[int, Bot] = {i: make_bot(k, bot_seed(args.seed, i)) for i, k in enumerate(seats) if k != HUMAN}
    log = LogWriter(args.log, game, game_ref(path), gs, variants, seats) if args.log else None
    title = game.spec.model.game.title or game.name
    names = ", ".join(f"{game.rules.seat_name(i)}: {k}" for i, k in enumerate(seats))
    console.print(f"[bold]{title}[/bold] — seed {args.seed} — {names}")
    all_bots = HUMAN not in seats
    try:
        if all_bots and not args.quiet_board:
            console.print(render_state(gs, None))
        while not gs.is_terminal():
            p = gs.current_player()
            d = gs.decision
            if p in bots:
                index = bots[p].choose(gs)
                label = next(o.label for o in d.options if o.index == index)
                gs.apply(index)
                console.print(f"[dim]{game.rules.seat_name(p)} ({seats[p]}):[/dim] {d.prompt} -> [bold]{label}[/bold]")
                if all_bots and not args.quiet_board:
                    console.print(render_state(gs, None))  # the board shows the narration too
                if args.delay:
                    time.sleep(args.delay)
            else:
                console.print(render_state(gs, p))
                console.print(render_decision(gs))
                answer = _ask_human(console, gs)
                if answer is None:
                    console.print("game stopped." + (f" The log so far is in {args.log}." if log else ""))
                    return 0
                index, label = answer
            if log:
                log.step(p, index, label, d.prompt, gs)
        if not all_bots or args.quiet_board:
            console.print(render_state(gs, None))
    finally:
        if log:
            log.finish(gs)
    if log:
        console.print(f"log saved to {args.log} (replay with: orrery replay {args.log})")
    return 0


def _ask_human(console: Console, gs: GameState) -> tuple[int, str] | None:
    """Read answers until one is legal; None when the player quits or input ends."""
    from .render import render_decision, render_state

    while True:
        try:
            text = input("> ").strip()
        except EOFError:
            console.print("\ninput ended")
            return None
        if not text:
            continue
        low = text.lower()
        if low in ("quit", "exit", "q"):
            return None
        if low in ("help", "?"):
            console.print(HELP)
            continue
        if low == "board":
            console.print(render_state(gs, gs.current_player()))
            console.print(render_decision(gs))
            continue
        try:
            opt = gs.apply_label(text)
        except IllegalMove as exc:
            console.print(f"[red]refused:[/red] {exc.reason}")
            continue
        return opt.index, opt.label


__all__ = ["play", "parse_seats", "sys"]
