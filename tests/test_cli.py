"""The `orrery` command end to end: exit codes, located errors, determinism, play/log/replay."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from orrery.interpreter.cli.main import main
from orrery.rulespec.schema import schema_for

ROOT = Path(__file__).resolve().parents[1]
TTT = ROOT / "games" / "tic-tac-toe" / "rules.yaml"


def run(capsys, *argv: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_names_bundled_games(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert "tic-tac-toe" in out and "Tic-tac-toe (2 players)" in out


def test_validate_ok(capsys):
    code, out, err = run(capsys, "validate", str(TTT))
    assert code == 0, err
    assert f"ok: {TTT}" in out


BROKEN = [
    ("bad_yaml", "game: {name: x\nflow: [", "YAML syntax error"),
    ("unknown_name", None, "unknown name 'bord'"),
    ("bad_expr", None, "syntax error in expression"),
    ("type_error", None, "type error"),
]


def _broken_spec(kind: str) -> str:
    text = TTT.read_text()
    if kind == "unknown_name":
        return text.replace("from: cells(board)", "from: cells(bord)")
    if kind == "bad_expr":
        return text.replace("where: empty(square)", "where: empty(square) and")
    if kind == "type_error":
        return text.replace("where: empty(square)", "where: count(square) + 1")
    raise AssertionError(kind)


@pytest.mark.parametrize("kind,text,fragment", BROKEN)
def test_validate_broken_specs_are_located(tmp_path, capsys, kind, text, fragment):
    path = tmp_path / f"{kind}.yaml"
    path.write_text(text if text is not None else _broken_spec(kind))
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2
    assert fragment in err
    first = err.splitlines()[0]
    file_, line, col, *_ = first.split(":")
    assert file_ == str(path) and int(line) > 0 and int(col) > 0
    assert "^" in err  # the caret snippet
    assert "Traceback" not in err


def test_validate_reports_all_errors_at_once(tmp_path, capsys):
    text = TTT.read_text().replace("from: cells(board)", "from: cells(bord)").replace(
        "when: owns_line(current)", "when: owns_lines(current)")
    path = tmp_path / "two.yaml"
    path.write_text(text)
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2
    assert "unknown name 'bord'" in err and "owns_lines" in err


def test_schema_matches_committed_copy(capsys):
    code, out, _ = run(capsys, "schema")
    assert code == 0
    printed = json.loads(out)
    assert printed == schema_for("spec")
    committed = json.loads((ROOT / "docs" / "spec.schema.json").read_text())
    assert committed == printed, "docs/spec.schema.json is stale: regenerate with `orrery schema > docs/spec.schema.json`"


def test_explain_reads_like_rules(capsys):
    code, out, _ = run(capsys, "explain", "tic-tac-toe")
    assert code == 0
    assert "place" in out.lower() and "Three in a row" in out and "Put a new mark (owner: you) in square." in out


def test_simulate_is_deterministic_and_ends_by_spec(capsys):
    args = ("simulate", "tic-tac-toe", "--games", "60", "--seed", "1", "--json")
    code1, out1, _ = run(capsys, *args)
    code2, out2, _ = run(capsys, *args)
    assert code1 == code2 == 0
    assert out1 == out2
    data = json.loads(out1)
    assert set(data) >= {"game", "variants", "players", "seed", "results", "summary"}
    assert len(data["results"]) == 60
    assert {r["end"] for r in data["results"]} <= {"three_in_a_row", "board_full"}
    assert data["summary"]["failures"] == 0
    assert [r["seed"] for r in data["results"]] == list(range(1, 61))


def test_simulate_jobs_play_the_same_games(capsys):
    """Processes side by side give the same JSON, byte for byte, in seed order (a search bot included)."""
    args = ("simulate", "tic-tac-toe", "--games", "7", "--seed", "3", "--json", "--bots", "mcts:5,random")
    code1, out1, err1 = run(capsys, *args)
    code3, out3, err3 = run(capsys, *args, "--jobs", "3")
    assert code1 == code3 == 0, err1 + err3
    assert out1 == out3
    assert [r["seed"] for r in json.loads(out3)["results"]] == list(range(3, 10))
    code, _, err = run(capsys, "simulate", "tic-tac-toe", "--games", "2", "--jobs", "0")
    assert code == 2 and "--jobs: must be a whole number of processes between 1 and 256, not '0'" in err


def test_simulate_check_invariants_pass(capsys):
    code, out, err = run(capsys, "simulate", "tic-tac-toe", "--games", "20", "--check")
    assert code == 0, err
    assert "invariant violations" not in out


def test_simulate_bad_arguments(capsys):
    assert run(capsys, "simulate", "tic-tac-toe", "--games", "1", "--players", "3")[0] == 2
    code, _, err = run(capsys, "simulate", "tic-tac-toe", "--games", "1", "--bots", "genius")
    assert code == 2 and "unknown bot 'genius'" in err
    code, _, err = run(capsys, "simulate", "no-such-game", "--games", "1")
    assert code == 2 and "no such game" in err



@pytest.mark.parametrize("argv, said", [
    (("play", "tictactoe"), "tictactoe: no such game or file (did you mean 'tic-tac-toe'?)"),
    (("play", "Tic_Tac_Toe"), "(did you mean 'tic-tac-toe'?)"),
    (("play", "tic-tac-toe", "--variant", "misre"), "misre: no such variant file (did you mean 'misere'?)"),
    (("play", "tic-tac-toe", "--seats", "human,randon"), "unknown seat type 'randon' (did you mean 'random'?)"),
    (("play", "tic-tac-toe", "--seats", "humen,random"), "unknown seat type 'humen' (did you mean 'human'?)"),
    (("simulate", "tic-tac-toe", "--bots", "mcst:2s"), "unknown bot 'mcst:2s' (did you mean 'mcts'?)"),
])
def test_mistyped_names_on_the_command_line_get_a_did_you_mean(capsys, argv, said):
    code, _, err = run(capsys, *argv)
    assert code == 2 and said in err, err
    assert "<input>" not in err and err.startswith("orrery: error: "), err  # (no file: the command's own error)


def test_play_bots_log_and_replay(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    code, out, _ = run(capsys, "play", "tic-tac-toe", "--seats", "random,random", "--seed", "4", "--log", str(log))
    assert code == 0
    assert "game over" in out
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "orrery-log" and header["game"] == "tic-tac-toe" and header["seed"] == 4
    assert "result" in json.loads(lines[-1])
    code, out, err = run(capsys, "replay", str(log))
    assert code == 0, err
    assert "every state matches" in out


def test_replay_finds_divergence(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    run(capsys, "play", "tic-tac-toe", "--seats", "random,random", "--seed", "5", "--log", str(log))
    lines = log.read_text().splitlines()
    step = json.loads(lines[2])
    step["digest"] = "0" * 16
    lines[2] = json.dumps(step)
    log.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "replay", str(log))
    assert code == 1
    assert ":3: step 2: state differs" in err


@pytest.mark.parametrize("mutate,fragment", [
    (lambda ls: ls[:1] + [ls[1][:-5]], "not valid JSON"),
    (lambda ls: [json.dumps({**json.loads(ls[0]), "spec_digest": "feedbeef"})] + ls[1:], "another version of the spec"),
    (lambda ls: [json.dumps({**json.loads(ls[0]), "format": "other"})] + ls[1:], "bad header line"),
    (lambda ls: [], "log is empty"),
])
def test_replay_bad_logs_are_located(tmp_path, capsys, mutate, fragment):
    log = tmp_path / "game.jsonl"
    run(capsys, "play", "tic-tac-toe", "--seats", "random,random", "--seed", "6", "--log", str(log))
    log.write_text("\n".join(mutate(log.read_text().splitlines())) + "\n")
    code, _, err = run(capsys, "replay", str(log))
    assert code == 2
    assert fragment in err
    assert str(log) in err and "Traceback" not in err


def test_human_is_told_why_a_move_is_illegal(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # the game autosaves to the current folder
    code, out, _ = run(capsys, "play", "tic-tac-toe", "--seats", "human,first", "--seed", "1",
                       stdin="b2\na1\nb2\nz9\nquit\n", monkeypatch=monkeypatch)
    assert code == 0
    # 'first' bot answers a1 after the human's b2, so the human's a1 is refused, then b2 too
    assert "refused" in out and "already taken" in out
    assert "not an option here" in out


def test_human_can_finish_a_game_and_replay(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the game autosaves to the current folder
    log = tmp_path / "h.jsonl"
    moves = "\n".join(["b2", "c3", "a3", "c1", "b3", "a2", "c2"]) + "\n"
    code, out, _ = run(capsys, "play", "tic-tac-toe", "--seats", "human,first", "--log", str(log),
                       stdin=moves, monkeypatch=monkeypatch)
    assert code == 0
    assert "game over" in out
    assert run(capsys, "replay", str(log))[0] == 0


def test_test_command_runs_scenarios(capsys):
    code, out, _ = run(capsys, "test", "tic-tac-toe")
    assert code == 0
    assert "0 failed" in out and "FAIL" not in out
    assert out.rstrip().endswith("(compiled engine)")


def test_test_command_runs_scenarios_on_the_reference_interpreter_too(capsys):
    code, out, _ = run(capsys, "test", "tic-tac-toe", "--mode", "interpreted")
    assert code == 0
    assert "0 failed" in out and "FAIL" not in out
    assert out.rstrip().endswith("(interpreted engine)")


def test_failing_scenario_reports_values(tmp_path, capsys):
    sc = tmp_path / "s.yaml"
    sc.write_text("scenarios:\n  - name: wrong\n    steps: [a1]\n    expect:\n      - \"count(pieces(board)) == 3\"\n")
    code, out, _ = run(capsys, "test", "tic-tac-toe", str(sc))
    assert code == 1
    assert "FAIL" in out and "left: 1, right: 3" in out
    assert f"{sc}:5:" in out


def test_no_traceback_from_subprocess_on_bad_input(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"\xff\xfe not utf8")
    proc = subprocess.run([sys.executable, "-m", "orrery", "validate", str(bad)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "UTF-8" in proc.stderr and "Traceback" not in proc.stderr


def test_limit_option_is_validated(capsys):
    code, _, err = run(capsys, "simulate", "tic-tac-toe", "--games", "1", "--limit", "bogus=3")
    assert code == 2 and "--limit bogus=3" in err


# A made-up "trapdoor": `trap`'s only parameter never has a legal value, and `pit` fails a `require` in its
# effect. The step menu sees both dead ends (the parameter's menu directly, the require by look-ahead), so
# neither is offered; with look-ahead switched off (--limit lookahead=0) `pit` is offered unchecked, and a
# bot that picks it is refused and, like a player told so, picks again.
TRAPDOOR = """
orrery: 1
game: {{name: trapdoor, players: {{min: 1, max: 1}}}}
variables:
  steps: {{start: 0}}
flow:
  phases:
    - name: main
      steps: [{{actions: [{actions}]}}]
actions:
  walk:
    effect: steps += 1
  run:
    effect: steps += 2
  trap:
    params:
      door: {{from: "[1, 2]", where: "door > 5", why: "the door is shut"}}
    effect: steps += 100
  pit:
    effect: |
      require steps > 100 else "the pit is too deep"
      steps += 100
end:
  home: {{when: "steps >= 5", winners: players}}
"""


def test_an_action_whose_parameter_has_no_value_is_not_offered(tmp_path, game_from):
    game = game_from(TRAPDOOR.format(actions="trap, walk, run"))
    gs = game.new_initial_state(seed=1)
    assert [o.label for o in gs.decision.options] == ["walk", "run"]
    assert "the door is shut" in gs.why_not_label("trap")
    gs.apply_label("run")
    assert gs.state.vars["steps"] == 2


def test_a_lone_action_whose_parameter_has_no_value_skips_its_step(game_from):
    """A step whose only action cannot be done is skipped, as a step with nothing to offer is."""
    two_steps = TRAPDOOR.format(actions="trap").replace("steps: [{actions: [trap]}]",
                                                        "steps: [{actions: [trap]}, {actions: [walk, run]}]")
    gs = game_from(two_steps).new_initial_state(seed=1)
    assert [o.label for o in gs.decision.options] == ["walk", "run"]
    gs.apply_label("walk")
    assert [o.label for o in gs.decision.options] == ["walk", "run"]  # the next turn's trap step was skipped too
    assert gs.state.vars["steps"] == 1


def test_a_refused_bot_choice_is_chosen_again(tmp_path, capsys):
    path = tmp_path / "trapdoor.yaml"
    path.write_text(TRAPDOOR.format(actions="pit, walk, run"), encoding="utf-8")
    args = ("simulate", str(path), "--games", "20", "--seed", "1", "--json")
    code, out, err = run(capsys, *args)
    assert code == 0, err
    checked = json.loads(out)
    code, out, err = run(capsys, *args, "--limit", "lookahead=0")
    assert code == 0, err
    unchecked = json.loads(out)
    assert checked["summary"]["ends"] == unchecked["summary"]["ends"] == {"home": 20}
    # every game is made of walks and runs; unchecked menus offer pit too, so the bots' draws differ
    assert [r["steps"] for r in checked["results"]] != [r["steps"] for r in unchecked["results"]]
    code, out, err = run(capsys, "play", str(path), "--seats", "random", "--seed", "1", "--no-save",
                         "--quiet-board", "--limit", "lookahead=0")
    assert code == 0, err
    assert "-> walk" in out or "-> run" in out
    assert "-> pit" not in out


def test_a_menu_where_every_option_is_refused_is_a_located_error(tmp_path, capsys):
    path = tmp_path / "trapdoor.yaml"
    tired = TRAPDOOR.replace("effect: steps += 1\n", "effect: |\n      require steps > 100 else \"too tired\"\n"
                                                      "      steps += 1\n")
    path.write_text(tired.format(actions="pit, trap, walk"), encoding="utf-8")
    code, out, err = run(capsys, "simulate", str(path), "--games", "2", "--seed", "1", "--limit", "lookahead=0")
    assert code == 2
    assert f"{path}:" in err and "is refused when chosen, so the game cannot go on" in err
    assert "(first refusal: the pit is too deep" in err or "(first refusal: too tired" in err


def test_a_step_with_no_action_left_ends_in_a_located_runaway_error(tmp_path, capsys):
    """Neither dead end is offered, so every step is skipped and nobody acts: the cap on unanswered steps
    stops the run at the end conditions that never came true."""
    path = tmp_path / "trapdoor.yaml"
    path.write_text(TRAPDOOR.format(actions="trap, pit"), encoding="utf-8")
    code, out, err = run(capsys, "simulate", str(path), "--games", "1", "--seed", "1")
    assert code == 2
    assert f"{path}:24:3: error: 5000 decisions in a row had" in err and "--limit auto=N" in err, err


class _WhoPlays:
    """A stand-in simulation task: 'playing' a game reports the process that played it."""

    def play(self, gseed: int) -> tuple[int, int]:
        import os

        return gseed, os.getpid()


def test_simulate_jobs_really_use_other_processes():
    """The same-results test above would pass if --jobs were ignored: this one would not."""
    import os

    from orrery.interpreter.bots.simulate import _play_all

    played = list(_play_all(_WhoPlays(), list(range(6)), jobs=2))
    assert [seed for seed, _ in played] == list(range(6))  # in seed order
    assert all(pid != os.getpid() for _, pid in played)
    assert {pid for _, pid in _play_all(_WhoPlays(), [1, 2], jobs=1)} == {os.getpid()}
