"""Undo at the table (cli/undo.py): a human's last decision and the bots' answers since are taken back when
nothing random or hidden was shown; the bots are put back as they were, so they answer the same again; a
refusal says what was drawn or shown."""

from __future__ import annotations

import json

import pytest
from test_save import DRAW_DISCARD, ROOT, lines, lucky, run, saved  # noqa: F401 (lucky: a fixture)

from orrery.interpreter.bots.factory import make_bot
from orrery.interpreter.bots.mcts import MctsBot
from orrery.interpreter.cli.play import UndoRefused, narrated, revealed, undo_last
from orrery.interpreter.cli.undo import BotMemory, taken_back
from orrery.interpreter.engine.game import Game
from orrery.interpreter.files.save import SavedDecision, decisions_of
from orrery.rulespec.loader import load_spec


def played(path) -> list[tuple[int, str]]:
    return [(d["player"], d["label"]) for d in saved(path)["decisions"]]


# ================================================================= against bots


def test_undo_takes_back_the_bots_answers_too(tmp_path, capsys, monkeypatch):
    s = tmp_path / "s.json"
    code, out, _ = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,first", "--save", str(s),
                       stdin=lines("b2", "undo", "quit"))
    assert code == 0 and "X takes back 'b2', O's 'a1'." in out, out
    assert played(s) == []


@pytest.mark.parametrize("bot", ["mcts:40", "random"])
def test_undo_against_a_bot_replays_its_same_answers(tmp_path, capsys, monkeypatch, bot):
    """A game with two undos (each followed by the same move again) equals the game played straight: the bot
    is put back as it was (RNG, search tree) and answers exactly as it did, also after the undone line."""
    straight, undone = tmp_path / "a.json", tmp_path / "b.json"
    common = ["play", "connect-four", "--seats", f"human,{bot}", "--seed", "5"]
    run(capsys, monkeypatch, *common, "--save", str(straight), stdin=lines("1", "1", "1", "quit"))
    code, out, _ = run(capsys, monkeypatch, *common, "--save", str(undone),
                       stdin=lines("1", "1", "undo", "1", "undo", "undo", "1", "1", "1", "quit"))
    assert code == 0 and out.count("> Red takes back 'a', Yellow's") == 3 and "cannot undo" not in out, out
    assert len(played(straight)) == 6 and played(undone) == played(straight)


def test_undo_after_a_resume_catches_the_bots_up(tmp_path, capsys, monkeypatch):
    """No copy of the bot from before the resume: it is rebuilt from its seed and caught up, as a resume does."""
    straight, s = tmp_path / "a.json", tmp_path / "b.json"
    common = ["play", "tic-tac-toe", "--seats", "human,mcts:40", "--seed", "7"]
    run(capsys, monkeypatch, *common, "--save", str(straight), stdin=lines("1", "1", "1", "quit"))
    run(capsys, monkeypatch, *common, "--save", str(s), stdin=lines("1", "1", "quit"))
    code, out, _ = run(capsys, monkeypatch, "play", "--resume", str(s), stdin=lines("undo", "1", "1", "quit"))
    assert code == 0 and "X takes back" in out and played(s) == played(straight)


def test_a_bot_on_a_time_budget_replays_its_undone_answers(tmp_path, capsys, monkeypatch):
    """A search on a time budget cannot repeat itself: while the human retraces the undone line, the bot gives
    its undone answers again without searching; off that line it searches."""
    searches = []
    real = MctsBot.choose
    monkeypatch.setattr(MctsBot, "choose", lambda self, gs: searches.append(1) or real(self, gs))
    s = tmp_path / "s.json"
    code, out, _ = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,mcts", "--think", "0.2",
                       "--save", str(s), stdin=lines("b2", "undo", "b2", "quit"))
    assert code == 0 and "X takes back 'b2', O's" in out
    first = played(s)
    assert len(searches) == 1 and len(first) == 2
    run(capsys, monkeypatch, "play", "--resume", str(s), stdin=lines("undo", "a1", "quit"))
    assert len(searches) == 2 and played(s)[0] == (0, "a1")


def test_a_search_bots_copy_searches_exactly_as_the_bot_would():
    """MctsBot.snapshot copies the RNG and the search tree (the next search reuses its subtree): the copy's
    search, made first, leaves the bot's own tree alone, and both end with the same answer and statistics."""
    game = Game(load_spec(ROOT / "games" / "connect-four" / "rules.yaml"))
    gs = game.new_initial_state(players=2, seed=1)
    bot = MctsBot(seed=3, iterations=60)
    for _ in range(3):
        gs.apply(bot.choose(gs))
    twin = bot.snapshot()
    answer = twin.choose(gs)
    assert bot.choose(gs) == answer and bot.rng.state == twin.rng.state and bot.stats == twin.stats

    def visits(b: MctsBot) -> list[tuple[int, int]]:
        return sorted((i, ch.visits) for i, ch in b._root.children.items())
    assert visits(bot) == visits(twin) and sum(v for _, v in visits(bot)) > 60  # (a reused subtree: > 60)


def test_bot_memory_keeps_copies_and_the_undone_line():
    game = Game(load_spec(DRAW_DISCARD))
    bots = {1: make_bot("random", 3), 2: make_bot("mcts:0.5s", 4)}
    memory = BotMemory(bots, lambda i: make_bot("random", 3))
    memory.before_human(0)
    before = bots[1].rng.state
    bots[1].rng.next64()
    line = [SavedDecision(0, 1, "x"), SavedDecision(2, 0, "y")]
    memory.undone(game.new_initial_state(players=3, seed=1), line)
    assert bots[1].rng.state == before and memory.redo == line
    assert memory.answer(2) is None  # the human decides first
    memory.made(0, 1)
    assert memory.answer(2) == 0 and memory.answer(1) is None  # (bot 1 is reproducible: it searches again)
    memory.made(2, 5)  # off the line: forgotten
    assert memory.redo == []


# ================================================================= refusals

def test_undo_hot_seat_takes_back_the_last_move(tmp_path, capsys, monkeypatch):
    s = tmp_path / "s.json"
    code, out, _ = run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,human", "--save", str(s),
                       stdin=lines("b2", "undo", "a1", "quit"))
    assert code == 0 and "X takes back 'b2'" in out
    data = saved(s)
    assert [(d["player"], d["label"]) for d in data["decisions"]] == [(0, "a1")]  # the undo is saved too
    code, out, _ = run(capsys, monkeypatch, "play", "--resume", str(s), stdin=lines("c3", "undo", "undo", "quit"))
    assert "O takes back 'c3'" in out and "X takes back 'a1'" in out
    assert saved(s)["decisions"] == []
    code, out, _ = run(capsys, monkeypatch, "play", "--resume", str(s), stdin=lines("undo", "quit"))
    assert "cannot undo: nothing to undo" in out


def test_undo_with_a_log_rewrites_the_log(tmp_path, capsys, monkeypatch):
    s, log = tmp_path / "s.json", tmp_path / "g.jsonl"
    run(capsys, monkeypatch, "play", "tic-tac-toe", "--seats", "human,human", "--save", str(s), "--log", str(log),
        stdin=lines("b2", "a1", "undo", "c3", "quit"))
    steps = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    assert [st["label"] for st in steps] == ["b2", "c3"]
    code, out, err = run(capsys, monkeypatch, "replay", str(log))
    assert code == 0 and "every state matches" in out, err


def test_undo_refused_across_a_random_draw(lucky, capsys, monkeypatch, tmp_path):
    game = Game(load_spec(lucky))
    gs = game.new_initial_state(players=1, seed=2)
    gs.apply_label("wait")
    back, undone = undo_last(gs, ["human"])  # nothing random, nothing shown: allowed
    assert undone.label == "wait" and decisions_of(back) == [] and back.state.digest() == \
        game.new_initial_state(players=1, seed=2).state.digest()
    gs.apply_label("dip")
    with pytest.raises(UndoRefused, match="a random draw happened since P1's 'dip'"):
        undo_last(gs, ["human"])
    s = tmp_path / "s.json"
    code, out, _ = run(capsys, monkeypatch, "play", str(lucky), "--seats", "human", "--save", str(s),
                       stdin=lines("dip", "undo", "quit"))
    assert code == 0 and "cannot undo: a random draw happened since P1's 'dip'" in out
    assert [d["label"] for d in saved(s)["decisions"]] == ["dip"]


def test_undo_refused_when_hidden_information_was_shown(lucky):
    game = Game(load_spec(lucky))
    gs = game.new_initial_state(players=2, seed=2)
    gs.apply_label("peek")  # the top card of the hidden deck is now on the table, face up
    with pytest.raises(UndoRefused, match=r"P1's 'peek' showed P2 1 piece\(s\) \(\d card\) that were hidden"):
        undo_last(gs, ["human", "human"])
    before = game.new_initial_state(players=2, seed=2)
    assert [v for v, _ in revealed(before, gs)] == [0, 1]


def test_discarding_from_a_hand_reveals_the_card_to_the_others():
    game = Game(load_spec(DRAW_DISCARD))
    gs = game.new_initial_state(players=2, seed=1)
    before = gs.clone()
    gs.apply(gs.legal_actions()[0])  # P1 discards a card from their hand (owner-only) to the public discard
    shown = dict(revealed(before, gs))
    assert 1 in shown and 0 not in shown  # P1 saw their own card already; P2 sees it now
    with pytest.raises(UndoRefused):
        undo_last(gs, ["human", "human"])


def test_undo_refused_when_the_narration_named_a_hidden_piece(lucky):
    text = lucky.read_text(encoding="utf-8").replace(
        "        - actions: [dip, peek, wait]", "        - actions: [dip, peek, wait, hint]").replace(
        "end:\n", "  hint:\n    effect: 'say \"the deck starts with the \" + text(top(deck))'\nend:\n")
    lucky.write_text(text, encoding="utf-8")
    game = Game(load_spec(lucky))
    gs = game.new_initial_state(players=2, seed=2)
    before = gs.clone()
    gs.apply_label("hint")  # nothing moved, nothing random: only the narration tells the hidden top card
    assert revealed(before, gs) == []
    told = narrated(before, gs)
    assert {v for v, _, _ in told} == {0, 1} and all("the deck starts with the" in line for _, _, line in told)
    with pytest.raises(UndoRefused, match=r"since P1's 'hint' the narration said 'the deck starts with the \d card'"
                                          r", which names a piece \(card\) hidden from P1"):
        undo_last(gs, ["human", "human"])
    gs = game.new_initial_state(players=2, seed=2)
    gs.apply_label("wait")  # narration that names nothing hidden: undo is fine
    assert narrated(before, gs) == []
    undo_last(gs, ["human", "human"])


def test_undo_after_a_bots_hidden_draw_is_refused_saying_which(lucky, capsys, monkeypatch, tmp_path):
    s = tmp_path / "s.json"
    code, out, _ = run(capsys, monkeypatch, "play", str(lucky), "--seats", "human,first", "--save", str(s),
                       stdin=lines("wait", "undo", "quit"))  # P2 (first) dips into the hidden bag
    assert code == 0 and ("cannot undo: a random draw happened since P1's 'wait': P2's 'dip' drew at random, so it "
                          "cannot be taken back: the same draw would come again") in " ".join(out.split()), out
    assert played(s) == [(0, "wait"), (1, "dip")]


def test_a_piece_shown_is_named_to_the_player_who_saw_it(lucky):
    text = lucky.read_text(encoding="utf-8").replace(
        "      start: deck\n", "      start: deck\n      label: '\"card \" + text(it.n)'\n")
    lucky.write_text(text, encoding="utf-8")
    game = Game(load_spec(lucky))
    gs = game.new_initial_state(players=1, seed=2)
    gs.apply_label("peek")
    with pytest.raises(UndoRefused, match=r"P1's 'peek' showed P1 1 piece\(s\) \(card \d\) that were hidden"):
        undo_last(gs, ["human"])
    gs = game.new_initial_state(players=2, seed=2)
    gs.apply_label("wait")
    gs.apply_label("peek")  # P2 (a bot) turns the card over: P1, who asks, sees it too
    with pytest.raises(UndoRefused, match=r"P1's 'wait' \(and P2's answer since\) showed P1 1 piece\(s\) "
                                          r"\(card \d\)"):
        undo_last(gs, ["human", "random"])


# A made-up game: each keeps one card of their own hand in mind (the choice hides the card from the others).
KEEPERS = """\
orrery: 1
game: {name: keepers, players: {min: 2, max: 2}}
components:
  pieces:
    card: {attributes: {rank: [1, 2, 3, 4, 5, 6]}, start: bag, label: '"the " + text(it.rank) + " card"'}
  zones:
    bag: {type: bag, visibility: hidden}
    hand: {type: hand, per_player: true, visibility: owner}
variables:
  kept: {per_player: true, start: "0", visibility: owner}
setup: |
  shuffle bag
  for p in players { draw 2 from bag to p.hand }
flow:
  first_player: 0
  phases:
    - name: turns
      steps:
        - {actions: [keep, wait]}
actions:
  keep:
    params:
      card: {from: current.hand, prompt: "Keep which card?"}
    effect: "current.kept = card.rank"
  wait:
    effect: 'say "waits"'
end:
  never: {when: "size(bag) == 0", winners: "[]"}
"""


def test_the_take_back_names_no_choice_hidden_from_its_reader(tmp_path):
    path = tmp_path / "keepers.yaml"
    path.write_text(KEEPERS, encoding="utf-8")
    gs = Game(load_spec(path)).new_initial_state(players=2, seed=4)
    gs.apply_label("wait")
    gs.apply_label("keep")
    card = gs.decision.options[0].label
    gs.apply(gs.decision.options[0].index)  # P2 keeps a card of their hidden hand
    back, undone = undo_last(gs, ["human", "random"])
    assert undone.label == "wait" and decisions_of(back) == []
    assert taken_back(gs, back, 0) == "P1 takes back 'wait', P2's 'keep', P2's '(a choice hidden from you)'."
    assert taken_back(gs, back, 1) == f"P1 takes back 'wait', P2's 'keep', P2's '{card}'."

