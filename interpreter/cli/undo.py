"""Undo at the table: a human takes back their last decision, and the bots' answers since, when nothing was shown.

`undo` takes back the last decision a human made (at a hot-seat table the humans share the keyboard, so it may
be the previous human's) together with every answer the bots gave after it, if
  - none of those decisions was an answer to a `commit`: those are final (taking one back after the reveal
    would let its player answer again knowing the others');
  - no random draw happened since (the RNG state before that decision equals the RNG state now): the same
    draw would come again, so taking the decision back would tell what the dice or the bag will give;
  - it showed nobody anything hidden from them: no piece that existed before the decision is now visible to a
    player (in `view(player)`, or named in that player's menu) who could not see it before, and no narration
    (`say`) printed since names a piece hidden from a player (by its label, when that label says more than its
    kind's name: "the 7 of cups", not "card").
A refusal says which of these it is: the decision that drew at random, or the piece shown and to whom (named
by its label only to the player who asks, who saw it; to anyone else by its kind).

The game is rebuilt from its seed with the remaining decisions (seed + decisions: the save and the log hold
exactly those).  The bots are put back as they were when the human decided (`BotMemory`): a bot whose answers
are reproducible (an iteration budget, a random or fixed bot) gets back the copy taken then (its RNG, its
search tree), so it answers again exactly as it did; a bot on a time budget (the table's `--think`), whose
search depends on the machine, replays its undone answers while the game retraces them (the human deciding
the same again), and searches afresh once the game leaves that line.  A table resumed from a save has no
copies of the decisions made before: those bots are rebuilt from their seeds and caught up on the decisions,
as a resume does.
"""

from __future__ import annotations

import re
from typing import Callable

from ..bots.factory import Bot
from ..core.values import PieceRef
from ..engine.game import GameState
from ..files.save import SavedDecision, decisions_of, replay_decisions
from ..reference.evaluator import Interp
from .narrate import HIDDEN, Sight

HUMAN = "human"
KEPT_COPIES = 16  # human decisions whose bots' copies the table keeps (older undos catch the bots up instead)


class UndoRefused(Exception):
    """Undo is not allowed here; `reason` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def undo_last(gs: GameState, seats: list[str]) -> tuple[GameState, SavedDecision]:
    """The game before the last human decision (and the bots' answers since), if the rules of undo allow it
    (see the module docstring); and that decision."""
    seat = gs.game.rules.seat_name
    decisions = decisions_of(gs)
    k = next((i for i in range(len(decisions) - 1, -1, -1) if seats[decisions[i].player] == HUMAN), None)
    if k is None:
        raise UndoRefused("nothing to undo: no human has made a decision yet" if decisions
                          else "nothing to undo: no decision has been made yet")
    last = decisions[k]
    _refuse_sealed(gs, k, seat)
    said = _readable(gs, gs.current_player())
    mine = f"{seat(last.player)}'s '{said[k]}'"
    what = mine + (f" (and {_answers(decisions[k + 1:], seat)} since)" if k + 1 < len(decisions) else "")
    before = replay_decisions(gs.game, gs.num_players, gs.seed, decisions[:k])
    if before.state.rng.state != gs.state.rng.state:
        drew = _first_draw(before, decisions[k:])
        at = f": {seat(decisions[drew].player)}'s '{said[drew]}' drew at random" if drew not in (None, k) else ""
        raise UndoRefused(f"a random draw happened since {mine}{at}, so it cannot be taken back: the same draw "
                          f"would come again")
    asker = gs.current_player()
    shown = sorted(revealed(before, gs), key=lambda vp: vp[0] != asker)
    if shown:
        viewer, pids = shown[0]
        pieces = _named(gs, pids) if viewer == asker else ", ".join(sorted({gs.state.kinds[p] for p in pids}))
        raise UndoRefused(f"{what} showed {seat(viewer)} {len(pids)} piece(s) ({pieces}) that were hidden "
                          f"from them, so it cannot be taken back")
    told = narrated(before, gs)
    if told:
        viewer, pid, line = told[0]
        raise UndoRefused(f"since {what} the narration said '{line}', which names a piece ({gs.state.kinds[pid]}) "
                          f"hidden from {seat(viewer)}, so it cannot be taken back")
    return before, last


def taken_back(gs: GameState, before: GameState, reader: int) -> str:
    """'X takes back 'b2', O's 'c3'.': the decisions of `gs` that `before` has not, as `reader` may read them."""
    seat = gs.game.rules.seat_name
    decisions = decisions_of(gs)
    said = _readable(gs, reader)
    k = len(decisions_of(before))
    rest = [f"{seat(decisions[i].player)}'s '{said[i]}'" for i in range(k + 1, len(decisions))]
    return f"{seat(decisions[k].player)} takes back '{said[k]}'" + "".join(f", {r}" for r in rest) + "."


def _readable(gs: GameState, reader: int) -> list[str]:
    """Each decision's label as `reader` may read it (a choice hidden from them is not named: narrate.Sight)."""
    steps = [s for s in gs.steps if not s.auto]
    sight = Sight.around(gs, [reader], None, visible_pieces)
    return [HIDDEN if s.sealed or sight.hides(s.player, s.label, s.value) else s.label for s in steps]


def _answers(ds: list[SavedDecision], seat: Callable[[int], str]) -> str:
    """"O's answer" / "the 3 answers of O and P3" for the bots' decisions after the human's (not named: what
    they chose is told, as far as the reader may see it, by the narration)."""
    who = list(dict.fromkeys(seat(d.player) for d in ds))
    if len(ds) == 1:
        return f"{who[0]}'s answer"
    return f"the {len(ds)} answers of {' and '.join(who)}"


def _refuse_sealed(gs: GameState, k: int, seat: Callable[[int], str]) -> None:
    """Refused when an answer to a commit is among the decisions taken back (from the k-th on)."""
    steps = [s for s in gs.steps if not s.auto][k:]
    sealed = next((s for s in steps if s.sealed), None)
    if sealed is not None:  # (the answer is not named: it may still be sealed)
        raise UndoRefused(f"the last decision was {seat(sealed.player)}'s sealed answer to '{sealed.prompt}'; "
                          f"answers to a commit are final" if sealed is steps[-1] else
                          f"{seat(sealed.player)}'s sealed answer to '{sealed.prompt}' would be taken back with "
                          f"it; answers to a commit are final")


def _first_draw(before: GameState, ds: list[SavedDecision]) -> int | None:
    """The position in the game's decisions of the first of `ds` (played from `before`) after which the game's
    RNG had moved."""
    g = before.clone()
    start = g.state.rng.state
    k = len(decisions_of(before))
    for i, d in enumerate(ds):
        g.apply(d.choice)
        if g.state.rng.state != start:
            return k + i
    return None


def _named(gs: GameState, pids: list[int]) -> str:
    """The pieces by their labels (for the player who saw them)."""
    it = Interp(gs.state.clone())
    names = []
    for pid in pids:
        try:
            names.append(it.piece_label(pid) or gs.state.kinds[pid])
        except Exception:  # a broken label expression: the kind says enough
            names.append(gs.state.kinds[pid])
    return ", ".join(names)


def narrated(before: GameState, after: GameState) -> list[tuple[int, int, str]]:
    """(viewer, piece id, line) for each narration line printed since `before` that names a piece (existing
    before) hidden from that viewer, by a label that says more than the piece's kind."""
    lines = after.narration[len(before.narration):]
    if not lines:
        return []
    it = Interp(after.state.clone())
    labels: dict[int, re.Pattern] = {}
    for pid in range(min(len(before.state.kinds), len(after.state.kinds))):
        try:
            label = it.piece_label(pid)
        except Exception:  # a broken label expression names nothing
            continue
        if label and label != after.state.kinds[pid]:
            labels[pid] = re.compile(rf"(?<!\w){re.escape(label)}(?!\w)")
    out = []
    for viewer in range(after.num_players):
        seen = visible_pieces(before, viewer) | visible_pieces(after, viewer)
        for pid, pattern in labels.items():
            if pid not in seen:
                out.extend((viewer, pid, line) for line in lines if pattern.search(line))
    return out


def visible_pieces(gs: GameState, viewer: int) -> set[int]:
    """Ids of the pieces `viewer` can see: in their view of the zones, or named in their own menu."""
    ids: set[int] = set()
    for zone in gs.view(viewer)["zones"].values():
        for piece in zone.get("pieces", ()):
            ids.add(piece["id"])
        for content in zone.get("cells", {}).values():
            if isinstance(content, list):
                ids.update(piece["id"] for piece in content)
    d = gs.decision
    if d is not None and d.player == viewer:
        for opt in d.options:
            values = opt.value if isinstance(opt.value, (list, tuple)) else [opt.value]
            ids.update(v.id for v in values if isinstance(v, PieceRef))
    return ids


def revealed(before: GameState, after: GameState) -> list[tuple[int, list[int]]]:
    """(viewer, piece ids) for every player who now sees pieces (existing before) that they could not see before."""
    existed = len(before.state.kinds)
    out = []
    for viewer in range(after.num_players):
        new = sorted(p for p in visible_pieces(after, viewer) - visible_pieces(before, viewer) if p < existed)
        if new:
            out.append((viewer, new))
    return out


# ------------------------------------------------------------------ the bots after an undo


def reproducible(bot: Bot) -> bool:
    """Whether the bot answers the same position the same way given the same history (no time budget)."""
    return getattr(bot, "seconds", None) is None


class BotMemory:
    """What the table keeps so that an undo puts its bots back as they were (see the module docstring).

    `remake(i)` is seat i's bot new from its seed; `bots` is the table's own dict, changed in place.
    """

    def __init__(self, bots: dict[int, Bot], remake: Callable[[int], Bot]):
        self.bots, self.remake = bots, remake
        self.copies: dict[int, dict[int, Bot]] = {}  # decisions made -> reproducible bots as they were then
        self.redo: list[SavedDecision] = []  # the undone line: time-budget bots replay their answers in it

    def before_human(self, made: int) -> None:
        """A human is about to decide, `made` decisions into the game: keep copies of the reproducible bots."""
        self.copies[made] = {i: b.snapshot() for i, b in self.bots.items() if reproducible(b)}
        for old in sorted(self.copies)[:-KEPT_COPIES]:
            del self.copies[old]

    def undone(self, back: GameState, taken: list[SavedDecision]) -> None:
        """The game went back to `back`, the decisions `taken` undone: put the bots back as they were there."""
        made = len(decisions_of(back))
        for old in [m for m in self.copies if m > made]:
            del self.copies[old]
        copies = self.copies.pop(made, None)
        if copies is not None:
            self.bots.update(copies)
        else:
            self._catch_up(back)
        self.redo = list(taken)

    def _catch_up(self, back: GameState) -> None:
        """No copy from then (a resumed table): the reproducible bots new from their seeds, caught up on the
        decisions so far as a resume does."""
        fresh = {i: self.remake(i) for i, b in self.bots.items() if reproducible(b)}

        def ask(g: GameState, d: SavedDecision) -> None:
            if d.player in fresh:
                fresh[d.player].choose(g)

        replay_decisions(back.game, back.num_players, back.seed, decisions_of(back), before=ask)
        self.bots.update(fresh)

    def answer(self, player: int) -> int | None:
        """A time-budget bot's undone answer while the game retraces the undone line (else None: search)."""
        if self.redo and self.redo[0].player == player and not reproducible(self.bots[player]):
            return self.redo[0].choice
        return None

    def made(self, player: int, choice: int) -> None:
        """A decision was made: the undone line goes on if it is the same one, else it is forgotten."""
        if self.redo and (self.redo[0].player, self.redo[0].choice) == (player, choice):
            self.redo.pop(0)
        else:
            self.redo.clear()


__all__ = ["UndoRefused", "undo_last", "narrated", "visible_pieces", "revealed", "BotMemory", "reproducible", "taken_back"]
