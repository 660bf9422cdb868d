"""`orrery serve`'s ASGI app (Starlette, served by uvicorn): pages, a WebSocket per seat, bots moving live.

Routes: `/` lists the tables and starts new ones (`POST /new`: game, variants, seats); `/t/ID` is a table's
page, which reads its seat's token from the link's fragment (`#TOKEN`: never sent in a request line, so it
stays out of access logs) and sends it as the first WebSocket message on `/t/ID/ws`.  From then on the
server sends that seat a frame (tables.Table.frame) after every change and takes its answers; a refused
answer gets `{"type": "error", "message": ...}` and changes nothing.  Bots answer in a worker thread, each
move sent as it happens.
"""

from __future__ import annotations

import asyncio
import html
import json
from pathlib import Path
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..engine.game import Game
from .board import page
from .tables import HUMAN, SPECTATOR, Refused, Table, Undo, new_table

Loader = Callable[[str, list[str]], Game]  # (game name or path, variants) -> Game


class Server:
    """The tables of one server and the WebSockets watching them."""

    def __init__(self, load: Loader, save_dir: Path | None = None, tables: list[Table] | None = None,
                 games: list[str] | None = None, think: float | None = None, undo: Undo | None = None) -> None:
        self.load, self.save_dir, self.think, self.undo = load, save_dir, think, undo
        self.tables: dict[str, Table] = {t.tid: t for t in tables or []}
        for t in self.tables.values():
            t.allow_undo(undo)
        self.games = games or []
        self.sockets: dict[str, list[tuple[WebSocket, int]]] = {}
        self.moving: set[str] = set()  # tables whose bots are answering now

    def open_table(self, game_ref: str, variants: list[str], seats: list[str], seed: int | None = None) -> Table:
        """Start a new table."""
        table = new_table(self.load(game_ref, variants), game_ref, variants, seats, seed, self.save_dir, self.think)
        table.allow_undo(self.undo)
        self.tables[table.tid] = table
        return table

    async def broadcast(self, table: Table) -> None:
        """Send every connected seat its own frame."""
        for ws, seat in list(self.sockets.get(table.tid, [])):
            try:
                await ws.send_text(json.dumps(table.frame(seat)))
            except Exception:  # noqa: BLE001 (a closed socket: its own handler drops it)
                pass

    async def run_bots(self, table: Table) -> None:
        """Let bots answer until a human must (each move sent as it happens)."""
        if table.tid in self.moving:
            return
        self.moving.add(table.tid)
        try:
            while (seat := table.bot_to_move()) is not None:
                if await asyncio.to_thread(table.bot_answer, seat):
                    await self.broadcast(table)
        finally:
            self.moving.discard(table.tid)

    # ------------------------------------------------------------------ routes
    async def home(self, request: Request) -> Response:
        """The tables (spectator links) and a form for a new one."""
        base = str(request.base_url).rstrip("/")
        rows = "".join(f'<li>{html.escape(t.game.name)} ({t.tid}; {html.escape(", ".join(t.seats))}; '
                       f'{"over" if t.gs.is_terminal() else f"decision {t.step}"}): watch at <a class="spectate" '
                       f'href="{base}/t/{t.tid}#{t.token_of(SPECTATOR)}">{base}/t/{t.tid}#{t.token_of(SPECTATOR)}'
                       f"</a></li>" for t in self.tables.values())
        options = "".join(f"<option>{html.escape(g)}</option>" for g in self.games)
        return HTMLResponse(HOME.format(rows=rows or "<li>none yet</li>", options=options))

    async def new(self, request: Request) -> Response:
        """Start a table from the home page's form; its page lists the join links."""
        form = await request.form()
        game = str(form.get("game", ""))
        if game not in self.games:
            return HTMLResponse("unknown game", status_code=400)
        variants = [v for v in str(form.get("variants", "")).split(",") if v.strip()]
        seats = [s.strip() for s in str(form.get("seats", "human,human")).split(",") if s.strip()]
        try:
            table = self.open_table(game, variants, seats)
        except Exception as exc:  # noqa: BLE001 (a bad variant, seat count or bot name: said on the page)
            return HTMLResponse(f"cannot start that table: {html.escape(str(exc))}", status_code=400)
        return HTMLResponse(join_links(table, str(request.base_url).rstrip("/")))  # to its host only

    async def page(self, request: Request) -> Response:
        """A table's page (the same for every seat: the token in the fragment says which)."""
        if request.path_params["tid"] not in self.tables:
            return HTMLResponse("no such table", status_code=404)
        return HTMLResponse(PAGE)

    async def socket(self, ws: WebSocket) -> None:
        """A seat's connection: a join message with its token, then answers."""
        await ws.accept()
        table = self.tables.get(ws.path_params["tid"])
        try:
            if table is None:
                await _error(ws, "no such table")
                return await ws.close(code=4404)
            seat = await self._join(ws, table)
            if seat is None:
                return await ws.close(code=4403)
            self.sockets.setdefault(table.tid, []).append((ws, seat))
            try:
                await ws.send_text(json.dumps(table.frame(seat)))
                asyncio.create_task(self.run_bots(table))
                while True:
                    raw = await ws.receive_text()
                    try:
                        if seat == SPECTATOR:
                            raise Refused("spectators cannot answer")
                        await asyncio.to_thread(table.answer, seat, raw)
                    except Refused as exc:
                        await _error(ws, str(exc))
                        continue
                    await self.broadcast(table)
                    asyncio.create_task(self.run_bots(table))
            finally:
                self.sockets[table.tid].remove((ws, seat))
        except WebSocketDisconnect:
            return None

    async def _join(self, ws: WebSocket, table: Table) -> int | None:
        raw = await ws.receive_text()
        try:
            msg = json.loads(raw) if len(raw) <= 4096 else None
            if not isinstance(msg, dict) or msg.get("type") != "join":
                raise Refused("the first message must be {\"type\": \"join\", \"token\": ...}")
            return table.seat_of(msg.get("token"))
        except (Refused, ValueError) as exc:
            await _error(ws, str(exc) if isinstance(exc, Refused) else "not a JSON message")
            return None

    def app(self) -> Starlette:
        """The ASGI application."""
        return Starlette(routes=[
            Route("/", self.home), Route("/new", self.new, methods=["POST"]),
            Route("/t/{tid}", self.page), WebSocketRoute("/t/{tid}/ws", self.socket),
        ])


def join_links(table: Table, base: str) -> str:
    """An HTML list of a table's join links: one per human seat, and the spectators'."""
    rows = [f'<li>{html.escape(table.seat_name(i))}: <a href="{base}/t/{table.tid}#{table.token_of(i)}">'
            f'{base}/t/{table.tid}#{table.token_of(i)}</a></li>' for i, k in enumerate(table.seats) if k == HUMAN]
    spectators = f"{base}/t/{table.tid}#{table.token_of(SPECTATOR)}"
    rows.append(f'<li>spectators: <a href="{spectators}">{spectators}</a></li>')
    return (f"<!doctype html><meta name=viewport content='width=device-width'><title>Join links</title>"
            f"<h1>{html.escape(table.game.name)}: join links</h1><p>Send each player their own link: "
            f"the link is the seat.</p><ul>{''.join(rows)}</ul>")


async def _error(ws: WebSocket, message: str) -> None:
    await ws.send_text(json.dumps({"type": "error", "message": message}))


PAGE = page("table.html")
HOME = page("home.html")


__all__ = ["Server", "Loader", "join_links"]
