"""The leak test of `orrery serve` (issue 38): random games played through the server's WebSockets (Starlette's
test client: the real app, real frames), every seat and a spectator connected.  For every frame a seat
receives: its `view` is that seat's `state.view()`; it names no piece the seat may not see (by id, anywhere in
the frame); it holds neither the seed nor the random generator's state; and while secret simultaneous picks
(`commit`) are being made, it is the same frame whatever the other seats picked (so it holds no trace of a
pending sealed pick: not a label, a count or a changed number).  Games: Bubble Singularity (hidden bag, decks
and card stack) and the made-up sealed-bid games of tests/specs."""

from __future__ import annotations

import itertools
import json
import random
from contextlib import ExitStack
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from conftest import SPECS, budget  # noqa: E402
from orrery import load_game  # noqa: E402
from orrery.interpreter.serve.app import Server  # noqa: E402
from orrery.interpreter.serve.tables import SPECTATOR, Table  # noqa: E402

SEED = 1_234_567_891  # a seed no frame may hold (as a number or in a text)
GAMES = {  # name -> (game, seats, decisions played at most a game, games (CI: more))
    "bubble-singularity": ("bubble-singularity", 3, 40, (1, 2)),
    "blind-bid": (str(SPECS / "blind-bid.yaml"), 3, 200, (2, 3)),
    "matching-pennies": (str(SPECS / "matching-pennies.yaml"), 2, 200, (6, 10)),
}


def ids_in(frame: Any) -> set[int]:
    """Every piece id a frame names: `id` fields, `{"piece": N}` references and the keys of its piece table."""
    found: set[int] = set()
    if isinstance(frame, dict):
        for key, value in frame.items():
            if key in ("id", "piece") and isinstance(value, int):
                found.add(value)
            elif key == "pieces" and isinstance(value, dict):
                found.update(int(k) for k in value)
            found |= ids_in(value)
    elif isinstance(frame, list):
        for item in frame:
            found |= ids_in(item)
    return found


def hidden_from(gs, seat: int) -> set[int]:
    """The pieces `seat` may not see now (SPECTATOR: those some seat may not see)."""
    everything = ids_in(gs.view(None)["zones"])
    if seat != SPECTATOR:
        return everything - ids_in(gs.view(seat)["zones"])
    return everything - set.intersection(*(ids_in(gs.view(s)["zones"]) for s in range(gs.num_players)))


class SealedPicks:
    """The secret picks made so far in the open `commit`, to rebuild the positions the others' picks could
    have made (test_commit_secrecy.py's method)."""

    def __init__(self) -> None:
        self.start = None
        self.asked: list[tuple[int, list[int], int]] = []

    def before(self, gs) -> None:
        """Note the position before a decision is answered."""
        d = gs.decision
        committed = gs.view()["commit"]["committed"] if d.sealed else []
        if d.sealed and not committed:
            self.start, self.asked = gs.clone(), []
        elif not d.sealed or len(committed) != len(self.asked):
            self.start, self.asked = None, []

    def answered(self, gs, index: int) -> None:
        """Note an answer (before it is applied)."""
        if gs.decision.sealed and self.start is not None:
            self.asked.append((gs.decision.player, gs.legal_actions(), index))

    def open(self, gs) -> bool:
        """Whether picks are sealed now: some made, the reveal not come yet."""
        if self.start is None or not self.asked or gs.is_terminal() or not gs.decision.sealed:
            return False
        return len(gs.view()["commit"]["committed"]) == len(self.asked)

    def alternatives(self, seat: int) -> Iterator[Any]:
        """The positions every other pick would have made (`seat`'s own kept)."""
        choices = [[index] if who == seat else menu for who, menu, index in self.asked]
        for answers in itertools.product(*choices):
            alt = self.start.clone()
            for index in answers:
                alt.apply(index)
            yield alt


def check_frame(table: Table, seat: int, frame: dict[str, Any], sealed: SealedPicks) -> int:
    """Everything asserted of one frame a seat received; returns how many sealed alternatives were compared."""
    gs = table.gs
    text = json.dumps(frame)
    assert frame["type"] == "frame" and frame["step"] == table.step
    if seat != SPECTATOR:
        assert frame["view"] == json.loads(json.dumps(gs.view(seat)))
    assert not ids_in(frame) & hidden_from(gs, seat), "a frame names a piece its seat may not see"
    assert str(SEED) not in text and str(gs.state.rng.state) not in text
    assert '"seed"' not in text and '"rng"' not in text
    assert ("decision" in frame) == (seat == gs.current_player())
    compared = 0
    if sealed.open(gs):
        for alt in sealed.alternatives(seat):
            twin = Table(table.tid, table.game, table.game_ref, table.variants, table.seats, alt, table.tokens)
            assert json.loads(json.dumps(twin.frame(seat))) == frame, "a frame depends on another seat's sealed pick"
            compared += 1
    return compared


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_frame_holds_what_its_seat_may_not_see(tmp_path, name):
    ref, players, most, games = GAMES[name]
    server = Server(lambda r, v: load_game(r, v), tmp_path, games=[])
    frames = compared = 0
    for game_no in range(budget(*games)):
        table = server.open_table(ref, [], ["human"] * players, SEED + game_no if game_no else SEED)
        rng, sealed = random.Random(game_no), SealedPicks()
        with TestClient(server.app()) as client, ExitStack() as stack:
            sockets = {}
            for seat in [*range(players), SPECTATOR]:
                ws = stack.enter_context(client.websocket_connect(f"/t/{table.tid}/ws"))
                ws.send_text(json.dumps({"type": "join", "token": table.token_of(seat)}))
                sockets[seat] = ws
                compared += check_frame(table, seat, ws.receive_json(), sealed)
            for _ in range(most):
                if table.gs.is_terminal():
                    break
                sealed.before(table.gs)
                mover, index = table.gs.current_player(), rng.choice(table.gs.legal_actions())
                sealed.answered(table.gs, index)
                sockets[mover].send_text(json.dumps({"type": "act", "step": table.step, "option": index}))
                for seat, ws in sockets.items():  # every seat is sent its own frame of the new position
                    compared += check_frame(table, seat, ws.receive_json(), sealed)
                    frames += 1
    assert frames >= 20
    if name != "bubble-singularity":
        assert compared >= 10  # the sealed check compared frames of positions that differ in a secret pick


def test_the_check_is_not_blind():
    """A frame that carried another seat's sealed pick, or a hidden piece, would be caught."""
    table = Server(lambda r, v: load_game(r, v), None, games=[]).open_table(
        str(SPECS / "matching-pennies.yaml"), [], ["human", "human"], SEED)
    sealed = SealedPicks()
    sealed.before(table.gs)
    sealed.answered(table.gs, 0)
    table.gs.apply(0)
    frame = json.loads(json.dumps(table.frame(1)))
    assert check_frame(table, 1, frame, sealed) == 2
    leaky = dict(frame, log=frame["log"] + [table.gs.steps[-1].label])
    with pytest.raises(AssertionError, match="sealed pick"):
        check_frame(table, 1, leaky, sealed)
    bs = Server(lambda r, v: load_game(r, v), None, games=[]).open_table("bubble-singularity", [], ["human"] * 2, 5)
    hidden = sorted(hidden_from(bs.gs, 0))
    assert hidden
    frame = json.loads(json.dumps(bs.frame(0)))
    frame["pieces"][str(hidden[0])] = {"sym": "?", "color": None, "label": "x", "symbolic": False}
    with pytest.raises(AssertionError, match="may not see"):
        check_frame(bs, 0, frame, SealedPicks())
