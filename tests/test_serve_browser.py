"""The served page in a real headless Chromium (Debian's `chromium` driven by Playwright's Python API): seats
join from their own browser contexts and play tic-tac-toe and Bubble Singularity (hidden bag and decks, one
seat an MCTS bot) to the end by clicking the board and the buttons.

`ORRERY_SHOTS=docs/images pytest tests/test_serve_browser.py` writes the screenshots docs/serve.md shows."""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright (pip install playwright)")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("needs Debian's chromium package (apt-get install chromium)", allow_module_level=True)

from orrery import load_game  # noqa: E402
from orrery.interpreter.cli.serve import undo  # noqa: E402
from orrery.interpreter.serve.app import Server  # noqa: E402
from orrery.interpreter.serve.tables import SPECTATOR  # noqa: E402

STATUS = "document.getElementById('status').textContent"
PHONE = {"width": 390, "height": 760}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    server = Server(lambda ref, v: load_game(ref, v), tmp_path, games=["tic-tac-toe", "bubble-singularity"],
                    undo=undo)
    port = _free_port()
    u = uvicorn.Server(uvicorn.Config(server.app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=u.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not u.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield server, f"http://127.0.0.1:{port}"
    u.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def chromium():
    """One Chromium for the module (a launch costs a few CPU seconds)."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def browser(chromium):
    """The module's Chromium; the contexts a test opens (each page has its own) are closed after it."""
    yield chromium
    for context in chromium.contexts:
        context.close()


def _open(browser, base, table, seat, page=None):
    """A seat's page of `table` (a new browser context, or `page` taken to the table)."""
    if page is None:
        page = browser.new_context(viewport=PHONE).new_page()  # a phone's width
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/t/{table.tid}#{table.token_of(seat)}")
    page.wait_for_function(f"!{STATUS}.startsWith('connecting')")
    page.errors = errors
    return page


def _shot(page, name, tmp_path):
    """A screenshot of the whole page: into $ORRERY_SHOTS (docs/images) when set, else the test's folder."""
    path = Path(os.environ.get("ORRERY_SHOTS") or tmp_path) / name
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000


def test_two_browser_seats_play_tic_tac_toe_to_the_end(served, browser, tmp_path):
    server, base = served
    table = server.open_table("tic-tac-toe", [], ["human", "human"], 7)
    pages = [_open(browser, base, table, seat) for seat in (0, 1)]
    for turn in range(9):
        if table.gs.is_terminal():
            break
        mover = table.gs.current_player()
        page, other = pages[mover], pages[1 - mover]
        page.wait_for_function(f"{STATUS} === 'Your turn'")
        other.wait_for_function(f"{STATUS}.startsWith('Waiting for {table.seat_name(mover)}')")
        if turn == 4:
            _shot(page, "serve-tic-tac-toe-X.png" if mover == 0 else "serve-tic-tac-toe-O.png", tmp_path)
            _shot(other, "serve-tic-tac-toe-O.png" if mover == 0 else "serve-tic-tac-toe-X.png", tmp_path)
        before = len(table.gs.history())
        page.locator("svg .cell.offered").first.click()
        deadline = time.monotonic() + 20
        while len(table.gs.history()) == before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(table.gs.history()) == before + 1
        if turn == 0:  # X takes its first move back, then plays on
            page.locator("#undo").click()
            page.wait_for_function(f"{STATUS} === 'Your turn'")
            assert table.gs.history() == [] and page.locator("svg .cell.offered").count() == 9
            page.locator("svg .cell.offered").first.click()
            other.wait_for_function(f"{STATUS} === 'Your turn'")
    assert table.gs.is_terminal()
    for page in pages:
        page.wait_for_function(f"{STATUS}.startsWith('Game over')")
        assert "Game over" in page.content() and not page.errors


def _play_a_decision(page, rng):
    """Answer the page's pending decision as a player would: a highlighted cell of the board or a button."""
    step, options = page.evaluate("[frame.step, frame.decision.options]")
    choice = rng.choice(options)
    cell = page.locator(f'svg .cell.offered[data-cell="{choice["label"]}"]')
    if cell.count() and rng.random() < 0.5:
        cell.first.click()
    else:
        page.locator(f'#options button[data-index="{choice["index"]}"]').click()
    page.wait_for_function(f"frame.step !== {step} || document.getElementById('error').textContent !== ''")
    assert page.evaluate("document.getElementById('error').textContent") == ""


OPENING = 80  # steps of this game (195 in all) answered on the server before the browsers join


def _opening(table, rng) -> None:
    """The game's first OPENING steps answered at random through the table itself (the bot's seat too: the
    same position every run), up to a human's turn: the browsers then join a game under way, as a returning
    seat does."""
    while not table.gs.is_terminal() and (table.step < OPENING or table.gs.current_player() in table.bots):
        table.answer(table.gs.current_player(), json.dumps({"type": "act", "step": table.step,
                                                            "option": rng.choice(table.gs.legal_actions())}))


def test_bubble_singularity_two_browser_seats_and_an_mcts_bot_play_to_the_end(served, browser, tmp_path):
    """A hidden-information game (the bag and the decks are hidden): Red and Green click in their own
    browsers, Blue is an MCTS bot (a small budget of iterations keeps the test quick and the game the same
    every run); each page shows only its view.  The browsers join after the opening (played on the server:
    `_opening`) and play the rest of the game to its end (37 of the humans' decisions, 48 of the bot's)."""
    server, base = served
    table = server.open_table("bubble-singularity", [], ["human", "human", "mcts:6"], 11)
    _opening(table, random.Random(5))
    assert not table.gs.is_terminal() and table.step >= OPENING
    pages = {0: _open(browser, base, table, 0), 1: _open(browser, base, table, 1)}
    watcher = _open(browser, base, table, SPECTATOR)
    rng, shots, answered = random.Random(3), False, 0
    deadline = time.monotonic() + 240
    while not table.gs.is_terminal():
        assert time.monotonic() < deadline, "the game did not end in time"
        mover = table.gs.current_player()
        if mover not in pages:  # the bot's turn: it answers on the server
            time.sleep(0.02)
            continue
        page = pages[mover]
        page.wait_for_function(f"({STATUS} === 'Your turn' && frame.step === {table.step}) || {STATUS}.startsWith('Game over')"
                               f" || frame.step !== {table.step}")
        if table.gs.is_terminal() or page.evaluate("!frame.decision"):
            continue
        other = pages[1 - mover]
        assert other.evaluate("!frame.decision")  # the other seat is never shown a question that is not its own
        if not shots and answered >= 30 and page.locator("svg .cell.offered").count():
            _shot(page, f"serve-bubble-singularity-{table.seat_name(mover)}.png", tmp_path)
            _shot(other, f"serve-bubble-singularity-{table.seat_name(1 - mover)}.png", tmp_path)
            shots = True
        _play_a_decision(page, rng)
        answered += 1
    assert shots and answered >= 30
    for page in (*pages.values(), watcher):
        page.wait_for_function(f"{STATUS}.startsWith('Game over')")
        assert not page.errors
    # the pages show the bag as a count only, never its pieces
    bag = pages[0].locator('[data-zone="bag"]').inner_text()
    assert "hidden" in bag and "bubble" not in bag.split("\n", 1)[1]


def test_hex_grids_graphs_and_unbounded_grids_are_drawn_by_their_geometry(served, browser):
    """From the spec alone: a hex grid as hexagons, a graph as nodes joined by its edges (an arrow for a one-way
    edge), an unbounded grid around its pieces; the pieces by the terminal's symbols, explained by the legend."""
    server, base = served
    sampler = server.open_table("tests/specs/sampler.yaml", [], ["human", "human"], 1)
    page = _open(browser, base, sampler, 0)
    assert page.locator('svg[data-geometry="hex"] polygon.cell').count() == 25  # hexb: 5 x 5
    assert page.locator('[data-zone="net"] svg[data-geometry="graph"] circle.cell').count() == 4
    assert page.locator('[data-zone="net"] svg line.edge').count() == 2
    assert page.locator('[data-zone="inf"] svg[data-geometry="square"] text.sym').count() == 2  # its two discs
    assert "A1 Amber 1 disc" in page.locator("#legend").inner_text().replace("\n", " ")
    roads = server.open_table("tests/specs/ring-road.yaml", [], ["human", "human"], 1)
    assert not page.errors
    page = _open(browser, base, roads, 0, page)  # (the same page: another page costs Chromium a renderer)
    assert page.locator("svg line.edge").count() == 5 and page.locator("svg line.edge[marker-end]").count() == 1
    assert page.locator("svg circle.cell.offered").count() == len(roads.gs.legal_actions())
    assert not page.errors
