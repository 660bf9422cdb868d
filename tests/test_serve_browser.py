"""The served page in a real headless Chromium (Debian's `chromium` driven by Playwright's Python API): two
seats join from two browser contexts and play tic-tac-toe to the end by clicking the board."""

from __future__ import annotations

import shutil
import socket
import threading
import time

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright (pip install playwright)")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("needs Debian's chromium package (apt-get install chromium)", allow_module_level=True)

from orrery import load_game  # noqa: E402
from orrery.interpreter.serve.app import Server  # noqa: E402

STATUS = "document.getElementById('status').textContent"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    server = Server(lambda ref, v: load_game(ref, v), tmp_path, games=["tic-tac-toe"])
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


def test_two_browser_seats_play_tic_tac_toe_to_the_end(served, tmp_path):
    server, base = served
    table = server.open_table("tic-tac-toe", [], ["human", "human"], 7)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        pages = []
        for seat in (0, 1):
            page = browser.new_context(viewport={"width": 390, "height": 760}).new_page()  # a phone's width
            page.goto(f"{base}/t/{table.tid}#{table.token_of(seat)}")
            pages.append(page)
        for _ in range(9):
            pages[0].wait_for_function(f"!{STATUS}.startsWith('connecting')")
            if table.gs.is_terminal():
                break
            mover = table.gs.current_player()
            page, other = pages[mover], pages[1 - mover]
            page.wait_for_function(f"{STATUS} === 'Your turn'")
            other.wait_for_function(f"{STATUS}.startsWith('Waiting for {table.seat_name(mover)}')")
            before = len(table.gs.history())
            page.locator("svg rect.offered").first.click()
            deadline = time.monotonic() + 20
            while len(table.gs.history()) == before and time.monotonic() < deadline:
                time.sleep(0.05)
            assert len(table.gs.history()) == before + 1
        assert table.gs.is_terminal()
        for page in pages:
            page.wait_for_function(f"{STATUS}.startsWith('Game over')")
        texts = [page.content() for page in pages]
        browser.close()
    assert all("Game over" in t for t in texts)
