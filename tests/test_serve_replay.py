"""`orrery replay LOG --html OUT` (issue 38): one self-contained page that steps through a game as each seat
saw it.  A random game of EVERY bundled game is written and opened in headless Chromium (Debian's `chromium`
through Playwright) with the network cut off, stepped forward by button, key and slider, and switched to a
seat's view; the command itself writes one from a log.

`ORRERY_SHOTS=docs/images pytest tests/test_serve_replay.py` writes the screenshot docs/serve.md shows."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from pathlib import Path

import pytest

from orrery import load_game
from orrery.interpreter.engine.gamefiles import bundled_games
from orrery.interpreter.serve.replay import replay_data, replay_html, write_replay

WHERE = "document.getElementById('where').textContent"


def _random_game(name: str, seed: int = 1) -> tuple:
    game = load_game(name)
    players = game.spec.model.game.players
    n = 2 if players.min <= 2 <= players.max else players.min
    gs, rng, choices = game.new_initial_state(players=n, seed=seed), random.Random(seed), []
    while not gs.is_terminal():
        choices.append(rng.choice(gs.legal_actions()))
        gs.apply(choices[-1])
    return game, n, choices


def test_replay_data_holds_each_seats_own_view_at_every_moment():
    game, n, choices = _random_game("bubble-singularity", 2)
    data = replay_data(game, n, 2, choices)
    assert len(data["moments"]) == len(choices) + 1 and set(data["viewers"]) == {"-1", "0", "1"}
    gs = game.new_initial_state(players=n, seed=2)
    for k, moment in enumerate(data["moments"][:20]):
        for seat in range(n):
            ref = moment[str(seat)]["view"]
            zones = {key: data["parts"][i] for key, i in ref["zones"].items()}
            assert zones == json.loads(json.dumps(gs.view(seat)["zones"]))
        gs.apply(choices[k])
    html = replay_html(data)
    assert "</script" not in html.split('<script id="data" type="application/json">', 1)[1].split("</script>", 1)[0]


def test_the_command_writes_the_replay_of_a_log(tmp_path, capsys, monkeypatch):
    from orrery.interpreter.cli.main import main

    monkeypatch.chdir(tmp_path)
    assert main(["play", "tic-tac-toe", "--seats", "random,random", "--seed", "3", "--quiet-board", "--no-save",
                 "--log", "game.jsonl"]) == 0
    capsys.readouterr()
    assert main(["replay", "game.jsonl", "--html", "game.html"]) == 0
    assert "wrote game.html" in capsys.readouterr().out
    text = (tmp_path / "game.html").read_text(encoding="utf-8")
    assert "Tic-tac-toe" in text and not re.search(r"(src|href)\s*=|<link|import\(|fetch\(", text)  # self-contained
    assert main(["replay", "game.jsonl", "--html", "game.jsonl"]) == 2  # never written over its own log


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright (pip install 'orrery[serve]')")
    if CHROMIUM is None:
        pytest.skip("needs Debian's chromium package (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def tab(browser):
    """One page for the module's replays, each loaded into it as a new document (a page of its own for each
    cost Chromium about four times the CPU of loading the replay: a renderer started, and kept at work while
    open)."""
    context = browser.new_context(viewport={"width": 390, "height": 800})
    yield context.new_page()
    context.close()


@pytest.fixture
def page(tab):
    """The module's page, with what a test listens to (its errors, its requests) taken off after the test."""
    errors, asked = [], []

    def error(e) -> None:
        errors.append(str(e))

    def request(route) -> None:
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            asked.append(route.request.url)
            route.abort()

    tab.on("pageerror", error)
    tab.route("**/*", request)
    tab.errors, tab.asked = errors, asked
    yield tab
    tab.remove_listener("pageerror", error)
    tab.unroute("**/*", request)


@pytest.mark.parametrize("name", bundled_games())
def test_the_replay_of_each_bundled_game_opens_and_steps_forward(name, page, tmp_path):
    game, n, choices = _random_game(name)
    out = tmp_path / f"{name}.html"
    moments = write_replay(out, game, n, 1, choices)
    page.goto(out.as_uri())
    assert page.evaluate(WHERE) == f"step 0 of {moments - 1}"
    first = page.locator("#board").inner_html()
    page.locator("#next").click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(WHERE) == f"step 3 of {moments - 1}"
    page.keyboard.press("End")
    assert page.locator("#status").inner_text().startswith("Game over")
    assert page.locator("#board").inner_html() != first or not first
    page.locator("#viewer").select_option("0")  # the first seat's own view
    page.evaluate("show(Math.floor(DATA.moments.length / 2))")
    assert page.evaluate("frame.seat") == 0 and page.locator("#log li").count() > 0
    if name == "bubble-singularity" and os.environ.get("ORRERY_SHOTS"):
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(os.environ["ORRERY_SHOTS"]) / "replay-bubble-singularity.png"), full_page=True)
    assert not page.errors and not page.asked
