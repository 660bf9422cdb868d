"""Nothing lost at the table: saves (format, atomic writes, located errors), resume, Ctrl-C, kill -9 (undo: test_undo)."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from proctime import wait_until

from orrery.interpreter.cli.main import main
from orrery.interpreter.engine.game import Game
from orrery.interpreter.files.save import (SAVE_SCHEMA, Save, dumps, make_save, parse_save, read_save,
                                     replay_save, write_save)
from orrery.rulespec.errors import InputError
from orrery.rulespec.loader import load_spec

ROOT = Path(__file__).resolve().parents[1]
TTT = ROOT / "games" / "tic-tac-toe" / "rules.yaml"
DRAW_DISCARD = ROOT / "tests" / "specs" / "draw-discard.yaml"
SQUARES = ["b2", "a1", "c3", "a3", "c1", "b1", "b3", "a2", "c2"]

# A made-up one-or-two-player game for undo: `dip` draws at random from a bag, `peek` turns over
# the top card of a hidden deck (no randomness, but it shows a hidden card), `wait` does nothing.
LUCKY_DIP = """\
orrery: 1
game:
  name: lucky-dip
  players: {min: 1, max: 2}
components:
  pieces:
    token:
      attributes: {n: [1, 2, 3, 4]}
      start: bag
    card:
      attributes: {n: [1, 2, 3]}
      start: deck
  zones:
    bag: {type: bag, visibility: hidden}
    deck: {type: pile, visibility: hidden}
    table: {type: pile}
flow:
  first_player: 0
  phases:
    - name: play
      steps:
        - actions: [dip, peek, wait]
actions:
  dip:
    effect: "draw 1 from bag to table"
  peek:
    effect: "draw 1 from deck to table"
  wait:
    effect: 'say "waits"'
end:
  done: {when: "size(bag) == 0", winners: "[]"}
"""


def run(capsys, monkeypatch, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    """Run the CLI in-process with this stdin; return (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def lines(*moves: str) -> str:
    return "".join(m + "\n" for m in moves)


def ttt() -> Game:
    return Game(load_spec(TTT))


def saved(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


@pytest.fixture()
def lucky(tmp_path: Path) -> Path:
    path = tmp_path / "lucky" / "rules.yaml"
    path.parent.mkdir()
    path.write_text(LUCKY_DIP, encoding="utf-8")
    return path


# ================================================================= format and round trip


def test_round_trip_same_digest_and_same_decision(tmp_path):
    game = ttt()
    gs = game.new_initial_state(players=2, seed=3)
    for sq in ["b2", "a1", "c3"]:
        gs.apply_label(sq)
    path = tmp_path / "g.orrery-save.json"
    write_save(path, make_save(game, "tic-tac-toe", [], ["human", "random"], gs))
    save = read_save(path)
    assert (save.game, save.players, save.seed, save.seats) == ("tic-tac-toe", 2, 3, ["human", "random"])
    assert save.saved_at_step == 3 and [d.label for d in save.decisions] == ["b2", "a1", "c3"]
    assert save.next == {"player": 1, "prompt": gs.decision.prompt} and save.result is None
    back = replay_save(save, game)
    assert back.state.digest() == gs.state.digest() and back.digest() == gs.digest()
    assert back.current_player() == gs.current_player() == 1
    assert back.decision.prompt == gs.decision.prompt
    assert [o.label for o in back.legal_options()] == [o.label for o in gs.legal_options()]


def test_round_trip_with_hidden_information_and_randomness(tmp_path):
    game = Game(load_spec(DRAW_DISCARD))
    gs = game.new_initial_state(players=2, seed=11)
    for _ in range(2):
        gs.apply(gs.legal_actions()[-1])
    assert not gs.is_terminal()
    path = tmp_path / "dd.json"
    write_save(path, make_save(game, str(DRAW_DISCARD), [], ["random"] * 2, gs))
    back = replay_save(read_save(path), game)
    assert back.state.digest() == gs.state.digest()
    assert back.state.rng.state == gs.state.rng.state


def test_save_layout_is_one_decision_a_line_and_matches_the_schema(tmp_path):
    import jsonschema

    game = ttt()
    gs = game.new_initial_state(players=2)
    gs.apply_label("b2")
    gs.apply_label("a1")
    text = dumps(make_save(game, "tic-tac-toe", [], ["human", "human"], gs))
    data = json.loads(text)
    jsonschema.validate(data, SAVE_SCHEMA)
    assert data["format"] == "orrery-save" and data["version"] == 1
    assert set(data) >= {"game", "spec_digest", "variants", "players", "seed", "seats", "decisions", "saved_at_step"}
    assert '    {"player": 0, "choice": 4, "label": "b2"},' in text.splitlines()
    assert data["decisions"] == [{"player": 0, "choice": 4, "label": "b2"}, {"player": 1, "choice": 0, "label": "a1"}]


def test_finished_game_records_its_result(tmp_path):
    game = ttt()
    gs = game.new_initial_state(players=2)
    for sq in ["a1", "a2", "b1", "b2", "c1"]:
        gs.apply_label(sq)
    save = parse_save(dumps(make_save(game, "tic-tac-toe", [], ["human", "human"], gs)).encode())
    assert save.finished and save.result == {"end": "three_in_a_row", "winners": [0]} and save.next is None


# ================================================================= atomic writes


def _a_save(moves: list[str]) -> Save:
    game = ttt()
    gs = game.new_initial_state(players=2)
    for sq in moves:
        gs.apply_label(sq)
    return make_save(game, "tic-tac-toe", [], ["human", "human"], gs)


def test_crash_between_write_and_replace_leaves_the_previous_save(tmp_path, monkeypatch):
    path = tmp_path / "s.json"
    write_save(path, _a_save(["b2"]))
    before = path.read_bytes()

    def crash(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        write_save(path, _a_save(["b2", "a1"]))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # the temporary file is cleaned up
    assert [d.label for d in read_save(path).decisions] == ["b2"]


def test_interrupt_during_write_leaves_the_previous_save(tmp_path, monkeypatch):
    path = tmp_path / "s.json"
    write_save(path, _a_save(["b2"]))
    before = path.read_bytes()

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_save(path, _a_save(["b2", "a1"]))
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_write_goes_through_a_fsynced_temporary_file_in_the_same_folder(tmp_path, monkeypatch):
    calls: list[tuple] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(("fsync",)), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append(("replace", Path(a), Path(b))), real_replace(a, b))[1])
    path = tmp_path / "s.json"
    write_save(path, _a_save(["b2"]))
    assert calls[0] == ("fsync",)
    kind, src, dst = calls[1]
    assert kind == "replace" and src.parent == tmp_path and dst == path and src != path
    assert read_save(path).saved_at_step == 1


def test_a_failing_autosave_mid_game_warns_and_the_game_goes_on(tmp_path, capsys, monkeypatch):
    import orrery.interpreter.cli.play as play_mod

    real = play_mod.write_save
    calls = []

    def flaky(path, save):
        calls.append(save.saved_at_step)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real(path, save)

    monkeypatch.setattr(play_mod, "write_save", flaky)
    s = tmp_path / "s.json"
    code, out, _ = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,human", "--save", str(s),
                       stdin=lines("b2", "a1", "quit"))
    assert code == 0
    assert "could not save" in out and "No space left on device" in out
    assert [d["label"] for d in saved(s)["decisions"]] == ["b2", "a1"]  # the next save caught up


def test_unwritable_save_at_the_start_is_an_input_error(tmp_path, capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, "play", "tic-tac-toe", "--save", str(tmp_path / "no" / "dir" / "s.json"),
                       stdin="")
    assert code == 2 and "cannot write the save file" in err and "--no-save" in err and "Traceback" not in err


# ================================================================= bad saves are located


def _good_text(tmp_path: Path) -> str:
    game = ttt()
    gs = game.new_initial_state(players=2)
    gs.apply_label("b2")
    gs.apply_label("a1")
    return dumps(make_save(game, "tic-tac-toe", [], ["human", "human"], gs))


def _edit(key: str, value):
    def mutate(text: str) -> str:
        data = json.loads(text)
        data[key] = value
        return dumps_like(data)
    return mutate


def _drop(key: str):
    def mutate(text: str) -> str:
        data = json.loads(text)
        del data[key]
        return dumps_like(data)
    return mutate


def dumps_like(data: dict) -> str:
    """The save layout (one key a line, one decision a line) for arbitrary data."""
    out = []
    for k, v in data.items():
        if k == "decisions" and isinstance(v, list) and v:
            out.append('  "decisions": [\n' + ",\n".join("    " + json.dumps(d) for d in v) + "\n  ]")
        else:
            out.append(f"  {json.dumps(k)}: {json.dumps(v)}")
    return "{\n" + ",\n".join(out) + "\n}\n"


def _decision(k: int, **changes):
    def mutate(text: str) -> str:
        data = json.loads(text)
        data["decisions"][k].update(changes)
        return dumps_like(data)
    return mutate


# (name, how to spoil a good save, expected fragment, the text on the line the error points at or None for line 1)
BAD = [
    ("empty", lambda t: "", "save file is empty", None),
    ("blank", lambda t: "\n  \n", "save file is empty", None),
    ("not json", lambda t: t.replace('"seed": 0', '"seed": zero'), "not valid JSON", '"seed"'),
    ("truncated", lambda t: t[: len(t) // 2], "looks truncated", None),
    ("not an object", lambda t: "[1, 2]", "must be a JSON object, not an array", None),
    ("a log, not a save", lambda t: '{"format": "orrery-log", "version": 1}\n{"step": 1}\n', "game log, not a save",
     None),
    ("wrong format", _edit("format", "orrery-log"), 'not an Orrery save: format is "orrery-log"', '"format"'),
    ("no format", _drop("format"), "not an Orrery save", None),
    ("wrong version", _edit("version", 2), "save format version 2 is not supported", '"version"'),
    ("version not a number", _edit("version", "1"), "'1' is not of type 'integer'", '"version"'),
    ("missing key", _drop("seed"), "missing key 'seed'", None),
    ("bad type", _edit("seed", "zero"), "seed: 'zero' is not of type 'integer'", '"seed"'),
    ("bad decision type", _decision(1, choice="0"), "decisions[1].choice: '0' is not of type 'integer'",
     '"label": "a1"'),
    ("decision missing key", lambda t: t.replace('"label": "a1"', '"lable": "a1"'), "missing key 'label'",
     '"lable"'),
    ("unknown key", _edit("colour", "red"), "unknown key 'colour' in the save (known keys: format,", '"colour"'),
    ("NaN", lambda t: t.replace('"seed": 0', '"seed": NaN'), "NaN is not allowed", None),
    ("seat count", _edit("seats", ["human"]), "1 seat(s) but 2 player(s)", '"seats"'),
    ("unknown seat", _edit("seats", ["human", "genius"]), "unknown seat type 'genius'", '"seats"'),
    ("step count", _edit("saved_at_step", 5), "saved_at_step is 5 but the save holds 2", '"saved_at_step"'),
    ("player out of range", _decision(1, player=7), "player 7 is not a seat", '"player": 7'),
]


@pytest.mark.parametrize("name,mutate,fragment,line_text", BAD, ids=[b[0] for b in BAD])
def test_bad_saves_are_located_and_exit_2(tmp_path, capsys, monkeypatch, name, mutate, fragment, line_text):
    text = mutate(_good_text(tmp_path))
    path = tmp_path / "bad.orrery-save.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_save(path)
    finding = info.value.findings[0]
    assert fragment in finding.message
    assert finding.span is not None and finding.span.file == str(path)
    if line_text is not None:
        assert finding.span.line == line_of(text, line_text), (finding.format(), text)
    code, out, err = run(capsys, monkeypatch, "play", "--resume", str(path))
    assert code == 2, out
    assert f"{path}:{finding.span.line}:{finding.span.col}: error:" in err and fragment in err
    assert "Traceback" not in err and "internal error" not in err


def test_non_utf8_save(tmp_path, capsys, monkeypatch):
    path = tmp_path / "bin.json"
    path.write_bytes(b'{\n  "format": "orrery-save",\n  "game": "tic-\xff-toe"\n}\n')
    code, _, err = run(capsys, monkeypatch, "play", "--resume", str(path))
    assert code == 2 and f"{path}:3:" in err and "not valid UTF-8 (byte 0xff" in err and "Traceback" not in err


@pytest.mark.parametrize("make,fragment", [
    (lambda p: p.mkdir(), "is a directory, not a save file"),
    (lambda p: None, "no such save file"),
])
def test_directory_or_missing_file(tmp_path, capsys, monkeypatch, make, fragment):
    path = tmp_path / "s.json"
    make(path)
    code, _, err = run(capsys, monkeypatch, "play", "--resume", str(path))
    assert code == 2 and f"{path}:1:1: error: {fragment}" in err and "Traceback" not in err


def test_a_decision_that_no_longer_applies_names_its_step(tmp_path, capsys, monkeypatch):
    text = _decision(1, label="c3")(_good_text(tmp_path))  # the second decision says c3, its option is a1
    path = tmp_path / "s.json"
    path.write_text(text)
    code, _, err = run(capsys, monkeypatch, "play", "--resume", str(path))
    assert code == 2
    where = line_of(text, '"label": "c3"')
    assert f"{path}:{where}:" in err
    assert "step 2 (O: 'c3') no longer applies: option 0 is 'a1'" in err and "Traceback" not in err


def test_a_decision_after_the_end_names_its_step(tmp_path, capsys, monkeypatch):
    game = ttt()
    gs = game.new_initial_state(players=2)
    for sq in ["a1", "a2", "b1", "b2", "c1"]:
        gs.apply_label(sq)
    data = make_save(game, "tic-tac-toe", [], ["human", "human"], gs).to_data()
    data.pop("result")
    data["decisions"].append({"player": 1, "choice": 8, "label": "c3"})
    data["saved_at_step"] = 6
    path = tmp_path / "s.json"
    path.write_text(dumps_like(data))
    code, _, err = run(capsys, monkeypatch, "play", "--resume", str(path))
    assert code == 2 and "step 6 (O: 'c3') no longer applies: the game was already over after step 5" in err


# ================================================================= spec versions


def test_resume_refuses_a_save_with_another_spec_digest(tmp_path, capsys, monkeypatch):
    s = tmp_path / "s.json"
    run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,human", "--save", str(s),
        stdin=lines("b2", "quit"))
    data = saved(s)
    real = data["spec_digest"]
    data["spec_digest"] = "feedbeef00000000"
    s.write_text(dumps_like(data))
    code, out, err = run(capsys, monkeypatch, "play", "--resume", str(s), stdin=lines("a1"))
    assert code == 2
    assert (f"this save was made with another version of the spec (save digest feedbeef00000000, this spec {real})"
            in err)
    assert f"{s}:{line_of(s.read_text(), 'spec_digest')}:" in err and "Traceback" not in err
    assert saved(s)["spec_digest"] == "feedbeef00000000"  # a refused resume leaves the save alone


def test_resume_refuses_after_the_spec_file_changed(tmp_path, capsys, monkeypatch):
    spec = tmp_path / "ttt" / "rules.yaml"
    spec.parent.mkdir()
    spec.write_text(TTT.read_text())
    s = tmp_path / "s.json"
    code, _, _ = run(capsys, monkeypatch, "play", str(spec), "--seats", "human,human", "--save", str(s),
                     stdin=lines("b2", "quit"))
    assert code == 0 and saved(s)["game"] == str(spec.resolve())
    spec.write_text(TTT.read_text().replace("title: Tic-tac-toe", "title: Noughts and crosses"))
    code, _, err = run(capsys, monkeypatch, "play", "--resume", str(s), stdin=lines("a1"))
    assert code == 2 and "this save was made with another version of the spec" in err


def test_resume_with_a_different_game_or_seat_count_is_refused(tmp_path, capsys, monkeypatch, lucky):
    s = tmp_path / "s.json"
    run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,human", "--save", str(s),
        stdin=lines("b2", "quit"))
    code, _, err = run(capsys, monkeypatch, "play", str(lucky), "--resume", str(s))
    assert code == 2 and "is not the game of this save (tic-tac-toe)" in err
    code, _, err = run(capsys, monkeypatch, "play", "--resume", str(s), "--seats", "human,random,random")
    assert code == 2 and "--seats lists 3 seats but --players is 2" in err
    code, out, _ = run(capsys, monkeypatch, "play", "tic-tac-toe", "--resume", str(s), stdin=lines("a1", "quit"))
    assert code == 0 and "resumed" in out
    assert [d["label"] for d in saved(s)["decisions"]] == ["b2", "a1"]


def test_play_needs_a_game_or_a_save(capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, "play")
    assert code == 2 and "--resume FILE" in err


# ================================================================= playing with saves


def test_eof_at_the_prompt_leaves_the_game_saved(tmp_path, capsys, monkeypatch):
    s = tmp_path / "s.json"
    code, out, _ = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,first", "--save", str(s),
                       stdin=lines("b2"))
    assert code == 0
    assert "input ended" in out and f"orrery play --resume {s}" in out
    data = saved(s)
    assert [(d["player"], d["label"]) for d in data["decisions"]] == [(0, "b2"), (1, "a1")]
    assert data["saved_at_step"] == 2 and data["next"]["player"] == 0
    code, out, _ = run(capsys, monkeypatch, "play", "--resume", str(s), stdin=lines("c3", "a3", "b1", "c1"))
    assert code == 0 and "resumed" in out and "2 decisions replayed" in out and "game over" in out.lower()
    final = saved(s)
    assert final["result"] is not None
    assert [d["label"] for d in final["decisions"]][:2] == ["b2", "a1"]
    code, out, _ = run(capsys, monkeypatch, "play", "--resume", str(s))
    assert code == 0 and "already over" in out


def test_default_save_file_and_no_overwrite_of_a_game_in_progress(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,first", stdin=lines("b2", "quit"))
    assert code == 0 and "orrery play --resume tic-tac-toe.orrery-save.json" in out
    first = (tmp_path / "tic-tac-toe.orrery-save.json").read_text()
    code, out, _ = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,first", stdin=lines("c3", "quit"))
    assert code == 0 and "holds another game in progress" in out and "tic-tac-toe-2.orrery-save.json" in out
    assert (tmp_path / "tic-tac-toe.orrery-save.json").read_text() == first
    assert saved(tmp_path / "tic-tac-toe-2.orrery-save.json")["decisions"][0]["label"] == "c3"


def test_no_save_and_bots_only_games_write_nothing_by_default(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,first", "--no-save",
                       stdin=lines("b2", "quit"))
    assert code == 0 and "not saved" in out
    assert run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "random,random")[0] == 0
    assert list(tmp_path.iterdir()) == []
    code, _, _ = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "random,random", "--save", "bots.json")
    assert code == 0 and saved(tmp_path / "bots.json")["result"] is not None


def test_explicit_save_never_overwrites_a_game_in_progress_or_another_file(tmp_path, capsys, monkeypatch):
    s = tmp_path / "s.json"
    run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,human", "--save", str(s),
        stdin=lines("b2", "quit"))
    before = s.read_text()
    code, _, err = run(capsys, monkeypatch, "play", "tic-tac-toe", "--save", str(s), stdin=lines("a1"))
    assert code == 2 and "already holds a game in progress" in err and f"orrery play --resume {s}" in err
    assert s.read_text() == before
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    code, _, err = run(capsys, monkeypatch, "play", "tic-tac-toe", "--save", str(notes), stdin=lines("a1"))
    assert code == 2 and "is not an Orrery save" in err and notes.read_text() == "my notes"


def test_log_continues_on_resume_and_replays(tmp_path, capsys, monkeypatch):
    s, log = tmp_path / "s.json", tmp_path / "g.jsonl"
    run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,random", "--seed", "7", "--save", str(s),
        "--log", str(log), stdin=lines("b2", "quit"))
    assert run(capsys, monkeypatch, "replay", str(log))[0] == 0
    code, out, _ = run(capsys, monkeypatch, "play", "--resume", str(s), "--log", str(log), stdin=lines(*SQUARES))
    assert code == 0 and "game over" in out.lower()
    steps = [json.loads(line) for line in log.read_text().splitlines()[1:] if '"step"' in line]
    assert [(st["player"], st["choice"]) for st in steps] == [(d["player"], d["choice"]) for d in
                                                              saved(s)["decisions"]]
    code, out, err = run(capsys, monkeypatch, "replay", str(log))
    assert code == 0, err
    assert "every state matches" in out and "game over" in out


def test_resumed_bots_play_on_as_they_would_have(tmp_path, capsys, monkeypatch):
    whole = tmp_path / "whole.json"
    run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,random", "--seed", "5", "--save", str(whole),
        stdin=lines(*SQUARES))
    part = tmp_path / "part.json"
    run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,random", "--seed", "5", "--save", str(part),
        stdin=lines(*SQUARES[:2]))
    rest = SQUARES[:2] + SQUARES  # the same keystrokes as the whole game (refused squares are asked again)
    run(capsys, monkeypatch, "play", "--resume", str(part), stdin=lines(*rest[2:]))
    assert saved(part)["decisions"] == saved(whole)["decisions"]
    assert saved(part)["result"] == saved(whole)["result"] is not None


# ================================================================= killed and interrupted processes


def _orrery(*argv: str) -> list[str]:
    return [sys.executable, "-m", "orrery.interpreter.cli.main", *argv]


def _wait_for(path: Path, ready, proc: subprocess.Popen) -> dict:
    """The save once `ready(data)`, waited for by the child's CPU time (proctime: no wall-clock guess)."""
    def check() -> dict | None:
        if path.exists():
            data = saved(path)  # atomic writes: never a torn file
            if ready(data):
                return data
        return None

    try:
        return wait_until(check, proc.pid, f"the save {path}")
    except TimeoutError as exc:
        raise AssertionError(f"{exc}: {path.read_text() if path.exists() else 'missing'}") from None


def _exit_code(proc: subprocess.Popen) -> int:
    """The child's exit code, waited for by its CPU time; TimeoutError when it sits idle instead of ending."""
    wait_until(lambda: proc.poll() is not None, proc.pid, "the child's exit")
    return proc.returncode


def _human_moves(data: dict) -> list[str]:
    return [d["label"] for d in data["decisions"] if d["player"] == 0]


def _free(data: dict) -> str:
    taken = {d["label"] for d in data["decisions"]}
    return next(sq for sq in SQUARES if sq not in taken)


def test_killed_process_loses_no_decision(tmp_path, capsys, monkeypatch):
    s = tmp_path / "S.json"
    out = (tmp_path / "out.txt").open("w")
    proc = subprocess.Popen(_orrery("play", "tic-tac-toe", "--seats", "human,random", "--save", str(s)),
                            stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path, text=True)
    try:
        proc.stdin.write("b2\n")
        proc.stdin.flush()
        data = _wait_for(s, lambda d: len(d["decisions"]) == 2, proc)  # b2 and the bot's reply
        second = _free(data)
        proc.stdin.write(second + "\n")
        proc.stdin.flush()
        data = _wait_for(s, lambda d: _human_moves(d) == ["b2", second], proc)
        proc.send_signal(signal.SIGKILL)
        assert _exit_code(proc) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
        out.close()
    at_kill = saved(s)
    assert _human_moves(at_kill) == ["b2", second]
    rest = [sq for sq in SQUARES if sq not in ("b2", second)]
    monkeypatch.chdir(tmp_path)  # (the rest in this process: no second interpreter to start, nor wait for)
    code, out_text, err = run(capsys, monkeypatch, "play", "--resume", str(s), stdin=lines(*rest))
    assert code == 0, err
    assert f"{len(at_kill['decisions'])} decisions replayed" in out_text
    assert "game over" in out_text.lower()
    final = saved(s)
    assert final["decisions"][:len(at_kill["decisions"])] == at_kill["decisions"]  # nothing lost
    assert final["result"] is not None and _human_moves(final)[:2] == ["b2", second]
    # the resumed game is the very game an uninterrupted run with the same keystrokes (and seed: without --seed
    # the first run drew one from the OS, and the save keeps it) plays
    whole = tmp_path / "whole.json"
    run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,random", "--save", str(whole), "--seed",
        str(at_kill["seed"]), stdin=lines("b2", second, *rest))
    assert saved(whole)["decisions"] == final["decisions"]


def test_ctrl_c_mid_game_then_resume(tmp_path, capsys, monkeypatch):
    s = tmp_path / "S.json"
    out_path = tmp_path / "out.txt"
    with out_path.open("w") as out:
        # (faulthandler: a child that does not stop is made to print where it is before the test fails)
        # started as from a background job (SIGINT ignored here, and so in the child): `orrery play` takes Ctrl-C
        # back (play.take_ctrl_c), so the child still stops and saves
        ignored = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            proc = subprocess.Popen(_orrery("play", "tic-tac-toe", "--seats", "human,human", "--save", str(s)),
                                    stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path,
                                    text=True, env={**os.environ, "PYTHONFAULTHANDLER": "1"})
        finally:
            signal.signal(signal.SIGINT, ignored)
        try:
            proc.stdin.write("b2\n")
            proc.stdin.flush()
            _wait_for(s, lambda d: len(d["decisions"]) == 1, proc)
            # the Ctrl-C comes while the child reads O's answer: its prompt is out (input() flushes it just
            # before it reads), not after a guessed pause
            wait_until(lambda: out_path.read_text().count("Where do you play?") >= 2 and
                       out_path.read_text().endswith("> "), proc.pid, "O's prompt")
            proc.send_signal(signal.SIGINT)
            try:
                code = _exit_code(proc)
            except TimeoutError:  # it sat idle: the Ctrl-C was swallowed in the prompt's read
                proc.send_signal(signal.SIGABRT)  # faulthandler prints every thread's stack, then the child dies
                _exit_code(proc)
                pytest.fail(f"no exit after Ctrl-C; the child's output and stack:\n{out_path.read_text()}")
        finally:
            if proc.poll() is None:
                proc.kill()
    text = out_path.read_text()
    assert code == 130, text
    assert "interrupted" in text and f"saved in {s}" in text and f"orrery play --resume {s}" in text
    assert "Traceback" not in text
    assert [d["label"] for d in saved(s)["decisions"]] == ["b2"]
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, monkeypatch, "play", "--resume", str(s), stdin=lines("a1", "a3", "c2", "c1"))
    assert code == 0, err
    final = saved(s)
    assert [d["label"] for d in final["decisions"]] == ["b2", "a1", "a3", "c2", "c1"]
    assert final["result"] == {"end": "three_in_a_row", "winners": [0]}


def test_keyboard_interrupt_in_process_saves_and_says_so(tmp_path, capsys, monkeypatch):
    feed = iter(["b2", KeyboardInterrupt])

    def fake_input(prompt=""):
        item = next(feed)
        if item is KeyboardInterrupt:
            raise KeyboardInterrupt
        return item

    monkeypatch.setattr("builtins.input", fake_input)
    s = tmp_path / "s.json"
    code = main(["play", "tic-tac-toe", "--seats", "human,first", "--save", str(s)])
    out, _ = capsys.readouterr()
    assert code == 130 and "interrupted" in out and f"orrery play --resume {s}" in out
    assert [d["label"] for d in saved(s)["decisions"]] == ["b2", "a1"]



@pytest.mark.parametrize("where", ["drawing the board", "writing the save"])
def test_ctrl_c_before_the_prompt_still_stops_and_saves(where, tmp_path, capsys, monkeypatch):
    # a Ctrl-C that lands while the next screen is drawn, or while the last decision is being saved, is not lost
    # until the next prompt: the game stops there, saved with every decision made
    from orrery.interpreter.cli import play as play_module
    from orrery.interpreter.cli.screen import PlayScreen

    calls = {"n": 0}

    def interrupting(real):
        def wrapped(*args, **kwargs):
            calls["n"] += 1
            if calls["n"] == 2:  # the second screen (after b2), or the save after b2 (the first is the empty game)
                raise KeyboardInterrupt
            return real(*args, **kwargs)
        return wrapped

    if where == "drawing the board":
        monkeypatch.setattr(PlayScreen, "render", interrupting(PlayScreen.render))
    else:
        monkeypatch.setattr(play_module, "write_save", interrupting(play_module.write_save))
    monkeypatch.setattr("builtins.input", lambda prompt="": "b2")
    s = tmp_path / "s.json"
    code = main(["play", "tic-tac-toe", "--seats", "human,human", "--save", str(s)])
    out, _ = capsys.readouterr()
    assert code == 130 and "interrupted" in out and f"orrery play --resume {s}" in out, out
    assert [d["label"] for d in saved(s)["decisions"]] == ["b2"]


# ================================================================= one process per save


def test_a_save_being_played_cannot_be_played_by_a_second_process(tmp_path, capsys, monkeypatch):
    s = tmp_path / "S.json"
    out = (tmp_path / "out.txt").open("w")
    proc = subprocess.Popen(_orrery("play", "tic-tac-toe", "--seats", "human,random", "--save", str(s)),
                            stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path, text=True)
    try:
        proc.stdin.write("b2\n")
        proc.stdin.flush()
        _wait_for(s, lambda d: len(d["decisions"]) == 2, proc)
        code, _, err = run(capsys, monkeypatch, "play", "--resume", str(s), stdin=lines("a1", "quit"))
        assert code == 2 and "this game is being played in another orrery process (pid " in err, err
        code, _, err = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,random", "--save", str(s),
                           stdin=lines("quit"))
        assert code == 2 and "being played in another orrery process" in err, err
        monkeypatch.chdir(tmp_path)  # a default save next to a game being played goes to another file
        (tmp_path / "tic-tac-toe.orrery-save.json").write_text(s.read_text(encoding="utf-8"), encoding="utf-8")
        assert len(saved(s)["decisions"]) == 2  # the other process's save is untouched
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert _exit_code(proc) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        out.close()
    assert not Path(f"{s}.lock").exists()  # released and removed
    code, out_text, _ = run(capsys, monkeypatch, "play", "--resume", str(s), stdin=lines("quit"))
    assert code == 0 and "2 decisions replayed" in out_text


def test_a_default_save_being_played_elsewhere_is_left_alone(tmp_path, capsys, monkeypatch):
    from orrery.interpreter.files.save import SaveLock

    monkeypatch.chdir(tmp_path)
    busy = tmp_path / "tic-tac-toe.orrery-save.json"
    code, _, _ = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,random", stdin=lines("quit"))
    assert code == 0 and busy.exists() and saved(busy)["decisions"] == []  # an empty save: reusable...
    other = subprocess.Popen([sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'a+'); "
                              "fcntl.flock(f, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(60)",
                              f"{busy}.lock"], stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "locked"
        assert SaveLock(busy).held_elsewhere()
        code, out, _ = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,random",
                           stdin=lines("b2", "quit"))
        assert code == 0 and "tic-tac-toe-2.orrery-save.json" in out  # ...but not while another process plays it
        assert saved(busy)["decisions"] == []
    finally:
        other.kill()
        other.wait()
