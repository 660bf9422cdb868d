"""`orrery serve`'s tables (interpreter/serve/): seats join with their own token, see only their own view,
hostile messages are refused without effect, and a restarted server resumes every table from its save."""

from __future__ import annotations

import json
from contextlib import ExitStack

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from orrery import load_game  # noqa: E402
from orrery.interpreter.files.save import read_save  # noqa: E402
from orrery.interpreter.serve.app import Server  # noqa: E402
from orrery.interpreter.serve.tables import MAX_MESSAGE, SPECTATOR, Refused, resume_tables  # noqa: E402


def _load(ref, variants):
    return load_game(ref, variants)


def _server(tmp_path, game="tic-tac-toe", seats=("human", "human"), seed=3):
    server = Server(_load, tmp_path, games=["tic-tac-toe", "bubble-singularity"])
    table = server.open_table(game, [], list(seats), seed)
    return server, table


def _join(client, table, seat, stack):
    ws = stack.enter_context(client.websocket_connect(f"/t/{table.tid}/ws"))
    ws.send_text(json.dumps({"type": "join", "token": table.token_of(seat)}))
    return ws


def test_two_seats_play_tic_tac_toe_to_the_end_over_websockets(tmp_path):
    server, table = _server(tmp_path)
    with TestClient(server.app()) as client, ExitStack() as stack:
        assert "<svg" not in client.get(f"/t/{table.tid}").text  # the page holds no state: frames bring it
        a, b = _join(client, table, 0, stack), _join(client, table, 1, stack)
        frames = {0: a.receive_json(), 1: b.receive_json()}
        while "over" not in frames[0]:
            seat = 0 if "decision" in frames[0] else 1
            assert "decision" not in frames[1 - seat] and frames[1 - seat]["waiting_for"] == table.seat_name(seat)
            option = frames[seat]["decision"]["options"][0]["index"]
            (a if seat == 0 else b).send_text(json.dumps({"type": "act", "step": frames[seat]["step"],
                                                           "option": option}))
            frames = {0: a.receive_json(), 1: b.receive_json()}
        assert frames[0]["over"] == frames[1]["over"] and table.gs.is_terminal()
    saved = read_save(table.save_path())
    assert saved.finished and [d.choice for d in saved.decisions] == table.gs.history()


@pytest.mark.parametrize(("message", "fragment"), [
    ("x" * (MAX_MESSAGE + 1), "message too long"),
    ("{not json", "not a JSON message"),
    ('["act"]', "unknown message"),
    ('{"type": "undo!"}', "unknown message"),
    ('{"type": "act", "step": STEP, "option": true}', "whole numbers"),
    ('{"type": "act", "step": "STEP", "option": 0}', "whole numbers"),
    ('{"type": "act", "step": STEP, "option": 99}', "option 99 is not offered"),
    ('{"type": "act", "step": STEP, "option": -1}', "option -1 is not offered"),
    ('{"type": "act", "step": 99, "option": 0}', "but the game is at decision STEP"),
])
def test_hostile_messages_are_refused_and_change_nothing(tmp_path, message, fragment):
    server, table = _server(tmp_path)
    before = table.gs.digest()
    message, fragment = message.replace("STEP", str(table.step)), fragment.replace("STEP", str(table.step))
    with TestClient(server.app()) as client, ExitStack() as stack:
        ws = _join(client, table, 0, stack)
        ws.receive_json()
        ws.send_text(message)
        reply = ws.receive_json()
        assert reply["type"] == "error" and fragment in reply["message"], reply
    assert table.gs.digest() == before


def test_acting_out_of_turn_or_as_a_spectator_is_refused(tmp_path):
    server, table = _server(tmp_path)
    with TestClient(server.app()) as client, ExitStack() as stack:
        for seat, fragment in ((1, "it is X's turn, not yours"), (SPECTATOR, "spectators cannot answer")):
            ws = _join(client, table, seat, stack)
            ws.receive_json()
            ws.send_text(json.dumps({"type": "act", "step": table.step, "option": 0}))
            reply = ws.receive_json()
            assert reply["type"] == "error" and fragment in reply["message"]
    assert table.gs.history() == []


@pytest.mark.parametrize("join", [{"type": "join", "token": "forged"}, {"type": "join"}, {"type": "act"}, "[]"])
def test_a_wrong_or_missing_token_is_refused(tmp_path, join):
    server, table = _server(tmp_path)
    with TestClient(server.app()) as client:
        with client.websocket_connect(f"/t/{table.tid}/ws") as ws:
            ws.send_text(join if isinstance(join, str) else json.dumps(join))
            reply = ws.receive_json()
            assert reply["type"] == "error"
        with client.websocket_connect("/t/nosuchtable/ws") as ws:
            assert "no such table" in ws.receive_json()["message"]


def test_a_restarted_server_resumes_every_table_with_its_tokens(tmp_path):
    server, table = _server(tmp_path)
    other = server.open_table("bubble-singularity", [], ["human", "random", "random"], 4)
    for _ in range(3):
        table.answer(table.gs.current_player(), json.dumps({"type": "act", "step": table.step,
                                                            "option": table.gs.legal_actions()[0]}))
    resumed = {t.tid: t for t in resume_tables(tmp_path, _load)}
    assert set(resumed) == {table.tid, other.tid}
    again = resumed[table.tid]
    assert again.gs.digest() == table.gs.digest() and again.tokens == table.tokens
    assert again.seat_of(table.token_of(0)) == 0
    with pytest.raises(Refused):
        again.seat_of("forged")


def test_bots_answer_until_a_human_must(tmp_path):
    server, table = _server(tmp_path, seats=("random", "human"))
    with TestClient(server.app()) as client, ExitStack() as stack:
        ws = _join(client, table, 1, stack)
        frame = ws.receive_json()
        while "decision" not in frame and "over" not in frame:
            frame = ws.receive_json()
        assert frame["decision"] and len(table.gs.history()) == 1  # the bot (X) moved first, then O is asked


def test_the_home_page_lists_every_tables_spectator_link(tmp_path):
    server, table = _server(tmp_path)
    other = server.open_table("bubble-singularity", [], ["human", "random"], 4)
    with TestClient(server.app()) as client:
        home = client.get("/").text
    for t in (table, other):
        assert f"/t/{t.tid}#{t.token_of(SPECTATOR)}" in home
        assert t.token_of(0) not in home  # a seat's link only to whoever started the table


def test_the_new_table_form_starts_a_table_and_shows_its_join_links(tmp_path):
    server = Server(_load, tmp_path, games=["tic-tac-toe", "bubble-singularity"])
    with TestClient(server.app()) as client:
        page = client.post("/new", data={"game": "tic-tac-toe", "variants": "", "seats": "human,random"})
        assert page.status_code == 200
        (table,) = server.tables.values()
        assert table.seats == ["human", "random"] and table.save_path().exists()
        assert f"/t/{table.tid}#{table.token_of(0)}" in page.text and f"#{table.token_of(SPECTATOR)}" in page.text
        assert f"/t/{table.tid}#{table.token_of(SPECTATOR)}" in client.get("/").text
        refused = [client.post("/new", data={"game": "chess", "seats": "human,human"}),
                   client.post("/new", data={"game": "tic-tac-toe", "seats": "human,nobot"}),
                   client.post("/new", data={"game": "tic-tac-toe", "variants": "no-such-variant"})]
        assert [r.status_code for r in refused] == [400, 400, 400]
        assert "unknown game" in refused[0].text and "nobot" in refused[1].text and "no-such-variant" in refused[2].text
    assert len(server.tables) == 1


def test_a_seat_takes_back_its_own_last_decision_where_the_rules_of_undo_allow(tmp_path):
    from orrery.interpreter.cli.serve import undo

    server = Server(_load, tmp_path, games=[], undo=undo)
    table = server.open_table("tic-tac-toe", [], ["human", "human"], 3)
    with TestClient(server.app()) as client, ExitStack() as stack:
        x, o = _join(client, table, 0, stack), _join(client, table, 1, stack)
        x.receive_json(), o.receive_json()
        x.send_text(json.dumps({"type": "act", "step": table.step, "option": table.gs.legal_actions()[4]}))
        x.receive_json(), o.receive_json()
        moved = table.gs.digest()
        o.send_text(json.dumps({"type": "undo", "step": table.step}))  # not O's decision
        assert "only X can take it back" in o.receive_json()["message"] and table.gs.digest() == moved
        x.send_text(json.dumps({"type": "undo", "step": table.step - 1}))  # a stale undo
        assert "that undo is for decision" in x.receive_json()["message"]
        x.send_text(json.dumps({"type": "undo", "step": table.step}))
        back = x.receive_json()
        assert o.receive_json()["step"] == back["step"] == table.step and "decision" in back
        assert table.gs.history() == [] and read_save(table.save_path()).decisions == []


def test_undo_is_refused_after_a_random_draw(tmp_path):
    from orrery.interpreter.cli.serve import undo

    server = Server(_load, tmp_path, games=[], undo=undo)
    table = server.open_table("bubble-singularity", [], ["human", "human"], 3)
    for _ in range(100):  # first options until an answer draws at random (a bubble from the bag)
        drawn = table.gs.state.rng.state
        table.answer(table.gs.current_player(), json.dumps({"type": "act", "step": table.step,
                                                            "option": table.gs.legal_actions()[0]}))
        if table.gs.state.rng.state != drawn:
            break
    last = next(s.player for s in reversed(table.gs.steps) if not s.auto)
    digest = table.gs.digest()
    with pytest.raises(Refused, match="random draw"):
        table.answer(last, json.dumps({"type": "undo", "step": table.step}))
    assert table.gs.digest() == digest


def _play_served(table, human_moves, undo_after=()):
    """Seat 0 plays `human_moves` (first legal options by position), the bot answers each; after the moves
    whose numbers are in `undo_after`, seat 0 takes its move back and makes it again."""
    for k, pick in enumerate(human_moves):
        for again in range(2 if k in undo_after else 1):
            table.answer(0, json.dumps({"type": "act", "step": table.step, "option": table.gs.legal_actions()[pick]}))
            while table.bot_to_move() is not None:
                assert table.bot_answer(table.bot_to_move())
            if again == 0 and k in undo_after:
                table.answer(0, json.dumps({"type": "undo", "step": table.step}))
    return [(s.player, s.index) for s in table.gs.steps]


@pytest.mark.parametrize("bot", ["random", "mcts:30"])
def test_a_served_bot_answers_again_as_it_did_before_an_undo(tmp_path, bot):
    """As at `orrery play`: the table keeps its bots' copies, so a move taken back and made again gets the
    same answers, and the whole game equals the one played straight (a fresh RNG draw would differ)."""
    from orrery.interpreter.cli.serve import undo

    moves = [3, 3, 2, 4, 0, 1]
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    straight = _play_served(Server(_load, tmp_path / "a", games=[], undo=undo).open_table(
        "connect-four", [], ["human", bot], 5), moves)
    undone = _play_served(Server(_load, tmp_path / "b", games=[], undo=undo).open_table(
        "connect-four", [], ["human", bot], 5), moves, undo_after={0, 2, 3})
    assert undone == straight and len(straight) >= 2 * len(moves)


def test_a_served_bot_on_a_time_budget_replays_its_undone_answers(tmp_path):
    """A search on a clock cannot repeat itself: while seat 0 retraces the undone line, the bot gives the
    answers it gave (no search: the clock would make them differ)."""
    from orrery.interpreter.cli.serve import undo

    table = Server(_load, tmp_path, games=[], undo=undo).open_table("connect-four", [], ["human", "mcts:0.05s"], 5)
    first = _play_served(table, [3])
    table.answer(0, json.dumps({"type": "undo", "step": table.step}))
    table.bots[1].choose = lambda position: pytest.fail("the bot searched instead of replaying its answer")
    assert _play_served(table, [3]) == first
