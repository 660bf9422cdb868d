"""Running the `on:` abilities of live pieces when an event is emitted (docs/dsl.md 2.22).

After the spec's own triggers, the abilities listening to the event are taken from a snapshot of what is
live at the emit, grouped by owner (the acting player first, then clockwise), within one owner in declared
order (active_in zone order, pieces bottom first, abilities in the piece's order), or with
`events.E.order: owner_chooses` in the order the owner picks (asked only when two or more different ones
are pending: engine/abilityframes.py).  Just before one runs it is looked at again: a piece no longer live
(or now someone else's), or whose `when` no longer holds, is skipped.  Both engines share these functions;
the statements run are the compiled ones on the compiled path.
"""

from __future__ import annotations

from typing import Any

from ..core.abilities import AbilityInfo, by_owner, env_of, live, owner_of
from ..core.decisions import RuleError
from ..core.uses import Limit, count_use, used
from ..core.values import PieceRef


def pending(it: Any, event: str) -> list[tuple[int, int, AbilityInfo]]:
    """The snapshot taken at the emit: (owner, piece, ability) of every live ability on `event`, in the
    order they resolve when nobody chooses."""
    return by_owner(it, [e for e in live(it) if e[2].event == event])


def chooses(it: Any, event: str) -> bool:
    """Does the owner pick the order of their abilities on this event (`events.E.order: owner_chooses`)?"""
    decl = it.r.spec.model.events.get(event)
    return decl is not None and decl.order == "owner_chooses"


def ready(it: Any, owner: int, pid: int, ab: AbilityInfo, env: dict) -> bool:
    """Is this ability still to run: its piece still live and its owner's, its `when` true, its `max_fires`
    not spent (a firing that passes is counted here)?"""
    if owner_of(it, pid) != owner:
        return False
    if ab.fires is not None and used(it.s, key_of(ab.fires, pid), owner) >= ab.fires.times:
        return False
    if ab.when is not None and not it.truth(ab.when, env):
        return False
    if ab.fires is not None:
        count_use(it.s, key_of(ab.fires, pid), owner)
    return True


def key_of(limit: Limit, pid: int) -> Limit:
    """An ability's limit counted for one piece: its identity is the ability and the piece carrying it."""
    return Limit(limit.times, limit.per, f"{limit.key}@{pid}")


def run_all(it: Any, record: Any, snapshot: list[tuple[int, int, AbilityInfo]]) -> None:
    """The `on:` abilities of the snapshot taken at the emit, run inline (an event whose abilities may ask
    runs them as a frame: engine/abilityframes.py)."""
    for owner, pid, ab in snapshot:
        env = env_of(owner, pid, record)
        if ready(it, owner, pid, ab, env):
            it.run(ab.do, env)


def carriers(it: Any, ident: str) -> list[PieceRef]:
    """The acting player's live pieces carrying the ability `ident`, in the order abilities resolve: the menu of
    an `activate:` ability's piece (core/activation.py names this built-in; no spec can call it)."""
    return list(holders(it).get(ident, ()))


def holders(it: Any) -> dict[str, list[PieceRef]]:
    """The acting player's live pieces carrying each `activate:` ability, by the ability's ident (an ability
    none carries is absent), in the order abilities resolve; shared, not to be changed."""
    me, s = it.current(), it.s
    key = ("carriers", me)  # every activate: ability's menu reads it: one scan per state for them all
    hit = s.derived.get(key)
    if hit is None or hit[0] != s.version:
        found: dict[str, list[PieceRef]] = {}
        for _, pid, a in live(it, me):
            if a.what == "activate":
                found.setdefault(a.ident, []).append(PieceRef(pid))
        hit = s.derived[key] = (s.version, found)
    return hit[1]


def plays_of(it: Any, piece: Any, span: Any) -> tuple[int, int, list[AbilityInfo]]:
    """`use PIECE.play`: (the piece, who plays it: the acting player, its `play:` abilities in order)."""
    if piece.__class__ is not PieceRef:
        raise RuleError(f"`use` needs a piece, got {it.describe(piece)}", span)
    pid = piece.id
    ab = it.r.abilities
    plays = [a for a in ab.of(it.s.origin(pid), it.s.kinds[pid]) if a.what == "play"] if ab is not None else []
    if not plays:
        raise RuleError(f"{it.piece_label(pid)} has nothing to play (no `play:` ability)", span)
    return pid, it.current(), plays


def offers_empowered(it: Any, a: AbilityInfo, env: dict) -> bool:
    """Is the owner asked whether to use this play's empowered part (it has one and its `if` holds)?"""
    return a.empowered_do is not None and (a.empowered_if is None or bool(it.truth(a.empowered_if, env)))


def use_now(it: Any, node: Any, env: dict) -> None:
    """`use PIECE.play` where nothing can ask (no empowered part anywhere: engine/abilityframes.py asks)."""
    pid, owner, plays = plays_of(it, it.ev(node.piece, env), node.piece.span)
    for a in plays:
        here = env_of(owner, pid)
        it.run(a.do, here)
        if offers_empowered(it, a, here):
            raise RuleError("an empowered play asks its player, which nobody can be asked here", node.span)


__all__ = ["carriers", "holders", "chooses", "key_of", "offers_empowered", "pending", "plays_of", "ready", "run_all", "use_now"]
