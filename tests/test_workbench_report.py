"""`orrery report`: the page and its figures, each saying how many games it rests on; Chromium opens the page."""

import base64
import re
import shutil
from pathlib import Path

import pytest

from orrery.interpreter.cli.main import main

pytest.importorskip("matplotlib", reason="the report's plots need the optional extra orrery[workbench]")

HERE = Path(__file__).parent / "workbench"
DUEL = str(HERE / "duel.yaml")
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def duel_report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report")
    assert main(["report", DUEL, "--games", "40", "--out", str(out), "--compare-with",
                 str(HERE / "variants" / "first-favoured.yaml")]) == 0
    return out


def test_the_page_embeds_every_figure_and_names_its_games(duel_report):
    page = (duel_report / "index.html").read_text()
    for stem in ("wins", "length", "margin", "ends", "branching", "decisiveness"):
        png = (duel_report / f"{stem}.png").read_bytes()
        assert png.startswith(PNG)
        assert base64.b64encode(png).decode() in page  # embedded: the page stands alone
    assert "40 games, 2 players" in page and "orrery report" in page and "--seed 1" in page
    assert not re.search(r"(src|href)=['\"]https?:", page)  # nothing fetched from a network


def test_the_outcomes_count_each_game_once_and_the_comparison_is_there(duel_report):
    page = (duel_report / "index.html").read_text()
    outcomes = dict(re.findall(r"<tr><td>(win|shared win|draw|loss|runaway)</td><td>(\d+)</td></tr>", page))
    assert sum(int(v) for v in outcomes.values()) == 40
    assert "Variant comparison" in page and "class=sig" in page  # odds 9 clearly favours the first seat


def test_a_solo_game_reports_scores(tmp_path):
    spec = tmp_path / "solo.yaml"
    spec.write_text(SOLO)
    assert main(["report", str(spec), "--games", "12", "--out", str(tmp_path / "r")]) == 0
    page = (tmp_path / "r" / "index.html").read_text()
    assert "Scores" in page and "win rate seat" not in page and (tmp_path / "r" / "wins.png").exists()


def test_no_games_is_bad_input(tmp_path, capsys):
    assert main(["report", DUEL, "--games", "0", "--out", str(tmp_path)]) == 2
    assert "at least 1" in capsys.readouterr().err


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def test_chromium_shows_the_page_as_a_user_sees_it(duel_report):
    """Debian's headless Chromium, driven by Playwright's Python API (as tests/test_serve_browser.py drives it),
    opens the page from disk: every figure decodes, the tables are there, and nothing is asked of a network."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="SKIPPED the browser check: Playwright is not "
                                   "installed (pip install -e '.[serve]'), the report page was not opened")
    if CHROMIUM is None:
        pytest.skip("SKIPPED the browser check: no Chromium installed (apt-get install chromium), the report page "
                    "was not opened in a browser")
    requests: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 1400})
            page.on("request", lambda r: requests.append(r.url))
            page.goto((duel_report / "index.html").as_uri())
            page.wait_for_load_state("load")
            sizes = page.eval_on_selector_all("figure img", "imgs => imgs.map(i => [i.complete, i.naturalWidth])")
            heading = page.inner_text("h1")
            tables = page.locator("table").count()
            shot = page.screenshot(full_page=True)
        finally:
            browser.close()
    assert len(sizes) == 6 and all(done and width > 200 for done, width in sizes)  # every plot decoded
    assert heading.endswith("balance report") and tables >= 3  # outcomes, metrics, comparison (+ coverage)
    assert all(u.startswith(("file:", "data:")) for u in requests)  # the page stands alone
    assert shot.startswith(PNG) and len(shot) > 50_000  # a page with pictures, not a blank one


SOLO = """
orrery: 1
game:
  name: patience
  players: {min: 1, max: 1}
components:
  tracks:
    score: {start: 0}
variables:
  turns: {start: 0}
flow:
  phases:
    - name: turns
      steps:
        - {actions: [safe, risky]}
actions:
  safe:
    effect: |
      current.score += 1
      turns += 1
  risky:
    effect: |
      current.score += random_int(0, 3)
      turns += 1
end:
  done:
    when: "turns >= 4"
    winners: "[p for p in players where p.score >= 6]"
"""
