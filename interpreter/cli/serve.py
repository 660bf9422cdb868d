"""`orrery serve`: start tables (or resume saved ones), print each human seat's join link, serve them.

The app is interpreter/serve/app.py (Starlette), served by uvicorn; both come with the optional extra
`serve` (`pip install 'orrery[serve]'`).  Tables are saved in `--save-dir` after every decision, in the
format of `orrery play`'s saves, with their seats' tokens beside them: `--resume` serves them again.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from orrery.rulespec.errors import InputError

from ..core.options import Number
from .tableargs import add_table_args

if TYPE_CHECKING:  # the command's own modules are imported when it runs, not when the parser is built
    from .undo import BotMemory

PORT = Number("--port", 1, 65535)
DEFAULT_DIR = "orrery-tables"


def add_command(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The `serve` subcommand."""
    sp = add("serve", cmd_serve, "Serve a table in the browser: each human seat joins from its own device with "
                                 "its own link and sees only what its seat may see (docs/serve.md).")
    add_table_args(sp, "leave it out with --resume", "default: one human, then mcts bots",
                   "the save keeps it", "in one whole turn, however many decisions it holds")
    sp.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine "
                    "only; 0.0.0.0 for the local network)")
    sp.add_argument("--port", type=PORT, default=8000, help="the port (default 8000)")
    sp.add_argument("--save-dir", default=DEFAULT_DIR, help=f"where tables are saved (default ./{DEFAULT_DIR})")
    sp.add_argument("--resume", action="store_true", help="serve every table saved in --save-dir again")
    sp.add_argument("--links-only", action="store_true", help="start the table, save it and print its join links, "
                    "without serving (serve it later with --resume)")


def cmd_serve(args: argparse.Namespace) -> int:
    """Start or resume tables, print the links, serve until Ctrl-C."""
    try:
        from ..serve.app import Server, join_links  # noqa: F401
        from ..serve.tables import HUMAN, SPECTATOR, resume_tables
    except ImportError as exc:
        raise InputError(f"orrery serve needs the 'serve' extra ({exc.name} is missing): "
                         "pip install 'orrery[serve]'") from None
    from ..engine.game import load_game
    from ..engine.gamefiles import bundled_games
    from .loading import load_game_from_args
    from .play import parse_seats

    save_dir = Path(args.save_dir)
    think = args.think  # seconds a turn of each plain 'mcts' seat (bots/thinking.py), as at `orrery play`
    tables = []
    if args.resume:
        if not save_dir.is_dir():
            raise InputError(f"--resume: no folder {save_dir} of saved tables")
        tables = resume_tables(save_dir, lambda ref, variants: load_game(ref, variants), think)
    if args.game:
        game, _, variants = load_game_from_args(args)
        seats = parse_seats(game, args.seats, args.players)
        save_dir.mkdir(parents=True, exist_ok=True)
        from ..serve.tables import new_table

        tables.append(new_table(game, args.game, variants, seats, args.seed, save_dir, think))
    elif not args.resume:
        raise InputError("name a GAME to serve, or --resume the tables saved in --save-dir")
    base = f"http://{'localhost' if args.host in ('127.0.0.1', '0.0.0.0') else args.host}:{args.port}"
    for t in tables:
        print(f"{t.game.name} (table {t.tid}):")
        for i, kind in enumerate(t.seats):
            if kind == HUMAN:
                print(f"  {t.seat_name(i)}: {base}/t/{t.tid}#{t.token_of(i)}")
        print(f"  spectators: {base}/t/{t.tid}#{t.token_of(SPECTATOR)}")
    if args.links_only:
        return 0
    _serve(Server(lambda ref, v: load_game(ref, v), save_dir, tables, bundled_games(), think, undo), args)
    return 0


class TableUndo:
    """The rules of undo of `orrery play` (cli/undo.py) for a served table, and its memory of the bots."""

    def __call__(self, gs: Any, seats: list[str]) -> tuple[Any, int]:
        """The game before the last human decision (and the bots' answers since) and whose it was; the table's
        Refused with the reason otherwise."""
        from ..serve.tables import Refused
        from .play import UndoRefused, undo_last

        try:
            before, last = undo_last(gs, seats)
        except UndoRefused as exc:
            raise Refused(f"cannot undo: {exc.reason}") from None
        return before, last.player

    def remember(self, bots: dict[int, Any], remake: Any) -> BotMemory:
        """`orrery play`'s memory: a bot answers again exactly as it did before the undo (cli/undo.py)."""
        from .undo import BotMemory

        return BotMemory(bots, remake)


undo = TableUndo()


def _serve(server: Any, args: argparse.Namespace) -> None:
    import uvicorn

    print(f"serving on {args.host}:{args.port} (Ctrl-C stops; every table is saved after each decision)")
    uvicorn.run(server.app(), host=args.host, port=args.port, log_level="warning")


__all__ = ["TableUndo", "add_command", "cmd_serve", "undo"]
