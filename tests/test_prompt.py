"""`orrery play` in the game's words: the prompt (prompt_toolkit: completion, history), the table's commands
(help, rules, why OPTION, undo, save, quit), refusals with the rule, step prompts from the spec, and moves
told in one line (automatic answers, a bot's choice and what it changed)."""

from __future__ import annotations

import io
import sys

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from conftest import REPO, make_game, new_state
from orrery.interpreter.cli.main import main
from orrery.interpreter.cli.narrate import auto_lines, bot_lines, public_view
from orrery.interpreter.cli.play import DEFAULT_BOT, parse_seats
from orrery.interpreter.cli.prompter import EOF, QUIT, UNDO, LineReader, Table, answer_words, ask, why_text
from orrery.rulespec.errors import SpecError

TTT = REPO / "games" / "tic-tac-toe" / "rules.yaml"

# A made-up game with a two-step turn, a step prompt, an action refused by its condition and a forced choice.
STEPS = """\
orrery: 1
game:
  name: step-prompts
  players: {min: 2, max: 2}
  seat_names: [North, South]
variables:
  coins: {per_player: true, start: 0}
flow:
  phases:
    - name: turn
      steps:
        - name: first
          prompt: What do you do first?
          actions: [earn, spend, rest]
        - name: second
          actions: [rest, gift]
actions:
  earn:
    rule: "Take a coin from the bank."
    effect: 'current.coins += 1'
  spend:
    rule: "Spend a coin on nothing at all."
    condition: 'current.coins > 0'
    why: you have no coin to spend
    effect: 'current.coins -= 1'
  rest: {effect: 'say text(current) + " rests"'}
  gift:
    label: give a gift
    description: Hand a gift over.
    params:
      friend:
        from: 'players'
        where: 'friend != current'
        prompt: Give to whom?
    effect: 'say text(current) + " gives to " + text(friend)'
end:
  rich:
    when: 'any(p.coins >= 2 for p in players)'
    winners: '[p for p in players where p.coins >= 2]'
"""


def run(capsys, monkeypatch, *argv: str, stdin: str = "") -> tuple[int, str]:
    """The CLI in-process with this stdin (not a terminal: answers are read with input())."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    return code, capsys.readouterr().out


def lines(*answers: str) -> str:
    return "".join(a + "\n" for a in answers)


# ------------------------------------------------------------------ the spec's step prompt


def test_a_step_prompt_is_the_step_menus_question_and_the_default_stays(tmp_path):
    gs = new_state(make_game(tmp_path, STEPS))
    assert gs.decision.prompt == "What do you do first?"
    assert [o.label for o in gs.decision.options] == ["earn", "rest"]
    gs.apply_label("rest")
    assert gs.decision.prompt == "turn: second"  # no prompt given: the flow's names, as before


def test_an_empty_step_prompt_is_refused_by_the_checker(tmp_path):
    with pytest.raises(SpecError) as exc:
        make_game(tmp_path, STEPS.replace("prompt: What do you do first?", 'prompt: ""'))
    assert "prompt" in str(exc.value)


def test_bundled_games_ask_their_step_menus_in_their_own_words():
    from conftest import load_game

    game = load_game(REPO / "games" / "bubble-singularity" / "rules.yaml")
    prompts = {st.prompt for ph in game.rules.phases for st in ph.steps}
    assert "Use which ability (or skip)?" in prompts and None not in prompts


# ------------------------------------------------------------------ the prompt_toolkit reader


def test_the_terminal_reader_completes_labels_and_commands_and_keeps_a_history():
    words = lambda: ["take card", "tap", "why take card", "why tap", "help"]  # noqa: E731
    with create_pipe_input() as pipe:
        reader = LineReader(words, pt_input=pipe, pt_output=DummyOutput())
        assert reader.terminal and reader.session is None  # (made at the first read: the first screen is not kept waiting)
        pipe.send_text("tak\t\r")  # the only match: completed, spaces and all
        assert reader.read() == "take card"
        assert reader.session is not None
        pipe.send_text("\x1b[A\r")  # up-arrow: the last answer again
        assert reader.read() == "take card"
        pipe.send_text("why tak\t\r")
        assert reader.read() == "why take card"
        pipe.send_text("t\t\r")  # two matches: their common part
        assert reader.read() == "ta"
        pipe.send_text("xyz\t\r")  # nothing matches: left as typed
        assert reader.read() == "xyz"
        pipe.close()
        with pytest.raises(EOFError):
            reader.read()


def test_answer_words_are_the_menus_labels_the_commands_and_why(tmp_path):
    gs = new_state(make_game(tmp_path, STEPS))
    words = answer_words(gs)
    assert {"earn", "rest", "why earn", "why rest", "rules", "undo", "save", "quit"} <= set(words)
    assert "spend" not in words  # refused now: not offered for completion


def test_off_a_terminal_the_reader_is_plain_input(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("c3\n"))
    reader = LineReader(lambda: ["c3"])
    assert not reader.terminal and reader.read() == "c3" and reader.session is None


def ask_with(gs, *typed: str, saved: str = "saved here") -> tuple[object, str]:
    """`ask` driven by a prompt_toolkit pipe, with a recording console."""
    console = Console(file=io.StringIO(), width=200, highlight=False)
    table = Table(console, lambda: console.print("BOARD"), lambda: saved)
    with create_pipe_input() as pipe:
        reader = LineReader(lambda: answer_words(gs), pt_input=pipe, pt_output=DummyOutput())
        pipe.send_text("".join(t + "\r" for t in typed))
        answer = ask(table, gs, reader)
    return answer, console.file.getvalue()


def test_commands_at_the_prompt(tmp_path):
    gs = new_state(make_game(tmp_path, STEPS))
    answer, out = ask_with(gs, "help", "rules", "why spend", "why earn", "save", "board", "/nope", "spend",
                           "ea\t")
    assert answer == (0, "earn")
    assert "'why OPTION'" in out  # help
    assert "## Actions" in out and "Take a coin from the bank." in out  # rules: the explained rulebook
    assert "'spend' is not allowed: you have no coin to spend" in out  # why a refused option
    assert "'earn' is the action 'earn'" in out and 'The rule: "Take a coin from the bank."' in out
    assert "saved here" in out and "BOARD" in out
    assert "unknown command '/nope'; type 'help'" in out
    assert "refused: 'spend' is not allowed: you have no coin to spend" in out  # typed: refused with the rule
    assert out.count("type 'help' for the commands") == 2


def test_on_a_terminal_text_wraps_at_its_width_and_the_rules_are_rendered_through_a_pager(tmp_path, monkeypatch):
    from orrery.interpreter.cli.render import SafeConsole

    paged: list[str] = []
    monkeypatch.setattr("pydoc.pager", lambda text: paged.append(text))  # (rich's system pager)
    gs = new_state(make_game(tmp_path, STEPS))
    console = SafeConsole(file=io.StringIO(), width=40, force_terminal=True, no_color=True, highlight=False)
    table = Table(console, lambda: None, lambda: "saved")
    with create_pipe_input() as pipe:
        reader = LineReader(lambda: answer_words(gs), pt_input=pipe, pt_output=DummyOutput())
        pipe.send_text("help\rrules\rwhy spend\rearn\r")
        assert ask(table, gs, reader) == (0, "earn")
    out = console.file.getvalue()
    assert max(len(line) for line in out.splitlines()) <= 40  # help and why, wrapped at the words
    assert "'why OPTION' says" in " ".join(out.split())
    assert len(paged) == 1 and "Take a coin from the bank." in paged[0]
    assert "## Actions" not in paged[0] and "Actions" in paged[0]  # Markdown rendered, not shown raw


@pytest.mark.parametrize("typed, expected", [("undo", UNDO), ("quit", QUIT), ("q", QUIT), ("/undo", UNDO)])
def test_undo_and_quit_go_back_to_the_table(tmp_path, typed, expected):
    gs = new_state(make_game(tmp_path, STEPS))
    assert ask_with(gs, typed)[0] == expected


def test_end_of_input_at_the_prompt(tmp_path):
    gs = new_state(make_game(tmp_path, STEPS))
    console = Console(file=io.StringIO())
    with create_pipe_input() as pipe:
        reader = LineReader(lambda: [], pt_input=pipe, pt_output=DummyOutput())
        pipe.close()
        assert ask(Table(console, lambda: None, lambda: ""), gs, reader) == EOF


def test_an_option_labelled_like_a_command_wins_and_slash_forces_the_command(tmp_path):
    gs = new_state(make_game(tmp_path, STEPS.replace("rest: {effect", "rest: {label: save, effect")))
    assert ask_with(gs, "save")[0] == (2, "save")
    gs = new_state(make_game(tmp_path, STEPS.replace("rest: {effect", "rest: {label: save, effect")))
    answer, out = ask_with(gs, "/save", "earn")
    assert answer == (0, "earn") and "saved here" in out


def test_why_a_parameter_value_names_its_action(tmp_path):
    gs = new_state(make_game(tmp_path, STEPS))
    gs.apply_label("rest")
    gs.apply_label("give a gift")  # South is the only other player: the question answers itself
    assert gs.decision.prompt == "What do you do first?" and gs.current_player() == 1
    assert why_text(gs, "") .startswith("why what?")
    assert "is not an option here" in why_text(gs, "fly")


# ------------------------------------------------------------------ moves told in one line


def test_automatic_answers_are_told_in_one_line_each(tmp_path):
    gs = new_state(make_game(tmp_path, STEPS))
    gs.apply_label("rest")
    since = len(gs.steps)
    gs.apply_label("give a gift")
    assert auto_lines(gs, since, []) == ["North — Give to whom?: South (the only option)"]
    assert auto_lines(gs, since, ["South"]) == ["North — Give to whom?: (a choice hidden from you) (the only option)"]


def test_an_automatic_action_before_its_own_question_is_not_told_twice():
    from conftest import load_game

    gs = new_state(load_game(TTT))
    since = len(gs.steps)
    gs.apply_label("b2")
    assert [s.label for s in gs.steps[since:] if s.auto] == ["place"]  # O's step menu: only `place`
    assert auto_lines(gs, since, []) == []  # ... and "Where do you play?" is asked now


def test_a_bots_move_is_told_with_what_it_changed(tmp_path):
    from conftest import load_game

    gs = new_state(load_game(TTT))
    before, said = public_view(gs), len(gs.narration)
    gs.apply_label("b2")
    told = bot_lines(gs, 0, "mcts", "Where do you play?", "b2", gs.narration[said:], before, [])
    assert told == ["X (mcts): Where do you play? -> b2", "  X plays b2"]
    quiet = bot_lines(gs, 0, "mcts", "Where do you play?", "b2", [], before, [])
    assert quiet[1:] == ["  X puts a new X mark at b2"]  # no narration: what changed, in words (test_moves.py)
    assert bot_lines(gs, 0, "mcts", "Where do you play?", "b2", [], public_view(gs), []) == quiet[:1]
    hidden = bot_lines(gs, 0, "mcts", "Where do you play?", "b2", [], before, ["b2"])
    assert hidden[0].endswith("-> (a choice hidden from you)")


# ------------------------------------------------------------------ at the table


def test_default_seats_are_a_human_and_thinking_search_bots():
    from conftest import load_game

    assert DEFAULT_BOT == "mcts"
    assert parse_seats(load_game(TTT), None, None) == ["human", "mcts"]


def test_a_game_at_the_table_speaks_the_games_words(capsys, monkeypatch):
    code, out = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,first", "--seed", "1",
                    "--no-save", "--quiet-board", stdin=lines("b2", "why a1", "a1", "b2", "save", "quit"))
    assert code == 0
    assert "O (first): Where do you play? -> a1\n  O plays a1" in out
    assert "refused: 'a1' is not allowed: that square is already taken\n  rule: \"Players alternate" in out
    assert "'b2' is not allowed: that square is already taken" in out
    assert "This game is not being saved (--no-save)." in out


def test_on_a_terminal_the_bot_shows_it_is_thinking_and_for_how_long(capsys, monkeypatch):
    from orrery.interpreter.cli import render

    screen = io.StringIO()

    class Terminal(render.SafeConsole):
        def __init__(self, **kw):
            super().__init__(file=screen, force_terminal=True, width=120, **kw)

    monkeypatch.setattr(render, "SafeConsole", Terminal)
    monkeypatch.setattr(sys, "stdin", io.StringIO("b2\nquit\n"))
    assert main(["play", "tic-tac-toe", "--think", "0.2", "--seed", "3", "--no-save", "--quiet-board"]) == 0
    out = screen.getvalue()
    assert "O is thinking… (up to 0.1 s)" in out  # the first decision of a turn: half of the turn's 0.2 s
    assert "O (mcts): Where do you play? -> " in out


def test_why_a_piece_tells_its_kinds_description():
    from conftest import load_game

    gs = new_state(load_game(REPO / "games" / "bubble-singularity" / "rules.yaml"))
    first = gs.decision.options[0].label
    told = why_text(gs, "1")
    assert told.startswith(f"'{first}' is one of the answers to 'Keep which starting ability?'")
    assert "A Cosmic Ability card; one per category per player." in told
    card = told.splitlines()[1]  # the card's own words, as `orrery explain` lists them
    assert card.startswith(f"  {first} — category ") and ", type " in card and card.endswith(".")


def test_why_a_card_on_the_table_tells_its_words_though_it_is_no_answer_now():
    from conftest import load_game

    gs = new_state(load_game(REPO / "games" / "bubble-singularity" / "rules.yaml"))
    gs.apply_label("1")
    gs.apply_label("1")  # both seats kept an ability: the market is dealt
    market = [p["name"] for p in gs.view(gs.decision.player)["zones"]["market"]["pieces"]]
    told = why_text(gs, market[0].lower()).splitlines()
    assert told[0].startswith(f"'{market[0].lower()}' is not an option here")
    assert told[1].startswith(f"  {market[0]} — category ")
    hidden = next(p for p in range(len(gs.state.kinds)) if gs.state.kinds[p] == "ability"
                  and gs.state.place_of(p).name == "ability_deck")
    label = gs.state.attrs[hidden]["name"]
    assert len(why_text(gs, label).splitlines()) == 1  # a card in the hidden deck: no words of it
