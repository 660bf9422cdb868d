"""Games built once per command (interpreter/files/gamecache.py, issue 39 item 7): `orrery validate` of many
scenario files of one game builds that game once, a changed file is a new game, an unreadable one is never
kept."""

from __future__ import annotations

import shutil
from collections import OrderedDict
from pathlib import Path

import pytest

from orrery.interpreter.cli.main import main
from orrery.interpreter.files import gamecache

GAMES = Path(__file__).resolve().parents[1] / "games"


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The spec path of every game the cache builds (an empty cache first)."""
    seen: list[Path] = []
    real = gamecache.Game

    def counting(spec, *args, **kwargs):
        seen.append(Path(spec.path))
        return real(spec, *args, **kwargs)

    monkeypatch.setattr(gamecache, "_GAMES", OrderedDict())
    monkeypatch.setattr(gamecache, "Game", counting)
    return seen


def _scenario_files(folder: Path, n: int, game: str = "tic-tac-toe") -> list[Path]:
    """n scenario files of one game, each with its own expectation text."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        p = folder / f"case{i:03d}.yaml"
        p.write_text(f"game: {game}\nscenarios:\n  - name: case {i}\n    steps: [b2]\n"
                     f"    expect:\n      - \"count(pieces(board)) == 1 and turn >= -{i}\"\n", encoding="utf-8")
        out.append(p)
    return out


def test_validate_of_many_scenario_files_builds_the_game_once(tmp_path, built, capsys) -> None:
    files = _scenario_files(tmp_path / "many", 40)
    assert main(["validate", *map(str, files)]) == 0
    assert capsys.readouterr().out.count("ok: ") == 40
    assert [p.name for p in built] == ["rules.yaml"]  # one build for forty files


def test_two_games_are_built_once_each(tmp_path, built) -> None:
    files = _scenario_files(tmp_path / "a", 5) + _scenario_files(tmp_path / "b", 5, game="connect-four")
    assert main(["validate", *map(str, files)]) == 0
    assert sorted(p.parent.name for p in built) == ["connect-four", "tic-tac-toe"]


def test_a_changed_spec_is_a_new_game_and_a_link_is_the_same_file(tmp_path, built) -> None:
    spec = tmp_path / "ttt" / "rules.yaml"
    shutil.copytree(GAMES / "tic-tac-toe", spec.parent, ignore=shutil.ignore_patterns("scenarios", "variants"))
    first = gamecache.game_for(spec)
    assert gamecache.game_for(spec) is first
    link = tmp_path / "link.yaml"
    link.symlink_to(spec)
    assert gamecache.game_for(link) is first  # keyed by the resolved path and the bytes
    spec.write_text(spec.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert gamecache.game_for(spec) is not first
    assert len(built) == 2


def test_an_unreadable_spec_is_reported_and_never_kept(tmp_path, built, capsys) -> None:
    files = _scenario_files(tmp_path / "s", 2, game="../missing/rules.yaml")
    assert main(["validate", *map(str, files)]) == 2
    err = capsys.readouterr().err
    assert "missing" in err and "Traceback" not in err
    assert gamecache._GAMES == OrderedDict()


def test_validate_in_processes_prints_what_one_process_prints(tmp_path, capsys) -> None:
    files = _scenario_files(tmp_path / "many", 30)
    bad = tmp_path / "many" / "case015.yaml"  # an error in the middle, and a file that is no file at the end
    bad.write_text("game: tic-tac-toe\nscenarios:\n  - name: bad\n    steps: [b2]\n"
                   "    expect: ['count(pieces(board) == 1']\n", encoding="utf-8")
    args = [*map(str, files), str(tmp_path / "nothing.yaml")]
    outputs = []
    for jobs in ("1", "2", "3"):
        code = main(["validate", "--jobs", jobs, *args])
        out, err = capsys.readouterr()
        outputs.append((code, out, err))
    assert outputs[0][0] == 2 and "case015.yaml:5:" in outputs[0][2] and outputs[0][1].count("ok: ") == 29
    assert outputs[1] == outputs[0] and outputs[2] == outputs[0]


@pytest.mark.parametrize("files, most", [(1, 1), (63, 1), (64, 4), (5000, 4)])
def test_validate_uses_a_process_per_core_only_for_many_files(files, most) -> None:
    from orrery.interpreter.cli.validate import default_jobs

    assert 1 <= default_jobs(files) <= most
    if files < 64:
        assert default_jobs(files) == 1
