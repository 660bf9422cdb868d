"""`orrery report`: the page and its figures, each saying how many games it rests on; Chromium opens the page."""

import base64
import re
import shutil
import subprocess
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


CHROMIUM = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)


def test_chromium_renders_the_page(duel_report, tmp_path):
    if CHROMIUM is None:
        pytest.skip("no Chromium installed (apt-get install chromium): the page was not opened in a browser")
    shot = tmp_path / "shot.png"
    run = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1000,1400",
                          f"--screenshot={shot}", (duel_report / "index.html").as_uri()],
                         capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert shot.read_bytes().startswith(PNG) and shot.stat().st_size > 20_000  # a page with pictures, not blank


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
