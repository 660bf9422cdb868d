"""`orrery replay LOG --html OUT`: one self-contained HTML file that steps through a game.

The file holds, for every moment of the game (before each decision, and the end), the frame each seat was
shown and the spectators' (serve/frames.py: each seat's own view only), drawn by the served page's own
script (board.js): previous/next, a slider, the arrow keys, and a switch of whose view is shown.  It loads
nothing from the network.  Frames repeat most of their parts (the board is the same for every seat, a pile
the same from one step to the next), so each distinct part is stored once and frames refer to it.

The file holds every seat's view: it is for after the game (anyone who has the file can switch to any seat).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..engine.game import Game
from ..files.atomic import write_atomic
from .board import page
from .frames import SPECTATOR, Position, frame_of, seat_name


class Parts:
    """Distinct JSON values, each stored once; a frame becomes references to them."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self.index: dict[str, int] = {}

    def ref(self, value: Any) -> int:
        """The number of `value` in the store (added when new)."""
        key = json.dumps(value, sort_keys=True)
        if key not in self.index:
            self.index[key] = len(self.items)
            self.items.append(value)
        return self.index[key]

    def frame(self, frame: dict[str, Any]) -> dict[str, Any]:
        """A frame as references: each top-level value, each of its view's values and each zone apart."""
        view = frame["view"]
        zones = {key: self.ref(zone) for key, zone in view["zones"].items()}
        shallow = {key: self.ref(v) for key, v in view.items() if key != "zones"}
        return {"view": {**shallow, "zones": zones}, **{k: self.ref(v) for k, v in frame.items() if k != "view"}}


def replay_data(game: Game, players: int, seed: int, choices: list[int], seats: list[str] | None = None) -> dict[str, Any]:
    """Every moment of a game (the decisions `choices`, as a log holds them) as each viewer saw it."""
    gs = game.new_initial_state(players=players, seed=seed)
    seats = list(seats) if seats and len(seats) == players else ["human"] * players  # (unknown: no bot named)
    viewers = [SPECTATOR, *range(players)]
    parts, moments, said, logs = Parts(), [], 0, {}
    for k in range(len(choices) + 1):
        told = gs.narration[said:]
        said = len(gs.narration)
        moment, at = {}, Position(gs)  # (the viewers' frames share the position's views and pieces)
        for v in viewers:
            frame = frame_of(game, gs, v, seats, told, at)
            logs[str(v)] = frame["log"]  # (a log only grows: a moment keeps its length, the page the lines)
            moment[str(v)] = parts.frame({**frame, "log": len(frame["log"])})
        moments.append(moment)
        if k < len(choices):
            gs.apply(choices[k])
    names = {str(v): seat_name(game, v) for v in viewers}
    return {"title": game.spec.model.game.title or game.name, "viewers": names, "parts": parts.items,
            "logs": logs, "moments": moments}


def replay_html(data: dict[str, Any]) -> str:
    """The replay page with its data put in (as JSON no text of which can end the script element)."""
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    blob = blob.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return page("replay.html").replace("/*DATA*/", blob)


def write_replay(path: Path, game: Game, players: int, seed: int, choices: list[int],
                 seats: list[str] | None = None) -> int:
    """Write the HTML replay of a game to `path` (atomically); the number of moments in it."""
    data = replay_data(game, players, seed, choices, seats)
    write_atomic(path, replay_html(data))
    return len(data["moments"])


__all__ = ["replay_data", "replay_html", "write_replay"]
