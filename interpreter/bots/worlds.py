"""Determinised worlds for the search bot (`mcts.py`): positions that agree with what one player sees.

**Determinisation** (`determinise`).  The acting player may only know what
`gs.view(player)` shows.  Each iteration searches a *world* sampled to agree
with that view:

- The pieces hidden from the player (in zones of visibility `hidden`, in other
  players' `owner` zones, in cells of hidden boards) are split into pools, and
  the identities (kind and attributes) of the pieces of each pool are shuffled
  among the pool's positions.  A pool is one cell of a board (a hidden cell is
  a position with a meaning of its own, like one colour's face-down stack), or, for
  other zones, every hidden copy of a zone (all opponents' hands together)
  joined with every other hidden zone holding a piece of the same kind (the
  deck and the opponents' hands dealt from it).  The box (destroyed and unused
  pieces) is not hidden: it is treated as known.
- The answers other players have given to a pending `commit` (sealed until its reveal) are drawn again,
  each uniformly from that player's menu worked out in the world (engine/commit.py, `resample`): the
  bot never reads a sealed answer, as it never reads a hidden piece.
- The RNG is reseeded, so future draws, dice and shuffles are unknown.
- The deal and the new seed are applied to a clone of the position (a position
  is plain data, its continuation included: nothing is replayed); the world is
  kept only if `view(player)` is exactly the same as in the real position (menu
  included).  Otherwise the bot retries with other permutations, and as a last
  resort searches the real hidden layout with a reseeded RNG (counted in
  `stats["fallback"]`).  When nothing is hidden, the world is the position
  itself with a new seed.
"""

from __future__ import annotations

import json
from typing import Any

from ..core.decisions import RequireFailed
from ..engine.commit import resample, sealed_from
from ..engine.game import GameState
from ..core.rng import Rng
from ..core.state import State
from ..core.values import serialize
from ..core.values import Cell, ZoneRef

WORLD_TRIES = 3  # permutations tried before giving up on re-dealing the hidden pieces


def _hidden_place(state: State, place: Any, viewer: int) -> bool:
    """Whether `viewer` sees only a count of this place's pieces (the rule of view.py)."""
    if isinstance(place, Cell):
        name, owner = place.zone, place.owner
    elif isinstance(place, ZoneRef):
        name, owner = place.name, place.owner
    else:
        return False
    z = state.rules.zones.get(name)
    if z is None:  # the box: treated as known
        return False
    vis = z.decl.visibility
    return vis == "hidden" or (vis == "owner" and owner != viewer)


def _place_key(place: Any) -> tuple:
    """A canonical sort key for a place (zone or cell)."""
    if isinstance(place, Cell):
        return ("cell", place.zone, -1 if place.owner is None else place.owner, repr(place.pos))
    return ("zone", place.name, -1 if place.owner is None else place.owner, "")


def hidden_pools(state: State, viewer: int) -> list[list[int]]:
    """The pieces hidden from `viewer`, in pools whose members may exchange identities (see the module doc).

    Each pool lists its pieces in the order of their positions (places in a canonical
    order, each bottom to top), and the pools come in the order of their first positions: the result
    depends on where hidden pieces are, never on which pieces they are.
    """
    parent: dict[Any, Any] = {}

    def find(x: Any) -> Any:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    members: dict[Any, list[int]] = {}
    hidden = sorted((place for place, pids in state.places.items() if pids and _hidden_place(state, place, viewer)),
                    key=_place_key)
    for place in hidden:
        key = ("cell", place) if isinstance(place, Cell) else ("zone", place.name)
        find(key)
        for pid in state.places[place]:
            members.setdefault(key, []).append(pid)
            if not isinstance(place, Cell):
                a, b = find(key), find(("kind", state.kinds[pid]))
                if a != b:
                    parent[b] = a
    groups: dict[Any, list[int]] = {}
    for key, pids in members.items():  # in the order of the places' first positions
        groups.setdefault(find(key), []).extend(pids)
    return [p for p in groups.values() if len(p) > 1]


def _identity(state: State, pid: int) -> tuple[str, Any, int, Any]:
    """A piece's identity: kind, attributes and, when pieces carry abilities, the piece whose printed abilities
    go with them (its origin) and which abilities those are (a card's text travels with its face)."""
    ab = state.rules.abilities
    if ab is None:
        return state.kinds[pid], state.attrs[pid], pid, None
    origin = state.origin(pid)
    return state.kinds[pid], state.attrs[pid], origin, ab.row_key(origin, state.kinds[pid])


def _identity_key(identity: tuple[str, Any, int, Any]) -> tuple[str, str, str]:
    kind, attrs, _, row = identity
    return kind, json.dumps(serialize(attrs), sort_keys=True, default=str), repr(row)


def _varied(state: State, pool: list[int]) -> bool:
    """True if the pool holds at least two different identities (else shuffling it changes nothing)."""
    kind, attrs, _, row = _identity(state, pool[0])
    return any((k, a, r) != (kind, attrs, row) for k, a, _, r in (_identity(state, p) for p in pool[1:]))


class Deal:
    """What re-dealing one position's hidden pieces for one viewer takes, worked out once for a whole search
    (a search determinises the same position at every iteration): the pools that can change, and each pool's
    identities in their canonical order."""

    def __init__(self, gs: GameState, viewer: int):
        state = gs.state
        self.pools = [p for p in hidden_pools(state, viewer) if _varied(state, p)]
        # canonical order: the deal then depends on the multiset of hidden identities and the RNG only, not on
        # where the real pieces are
        self.identities = [sorted((_identity(state, p) for p in pool), key=_identity_key) for pool in self.pools]
        # the pending commit answers other players gave, drawn again in every world
        self.sealed = sealed_from(gs.pos, viewer)

    def hides(self) -> bool:
        """Whether a world can differ from the real position in more than its future draws."""
        return bool(self.pools or self.sealed)


def _relabel(state: State, deal: Deal, rng: Rng) -> None:
    """Deal the identities (kind, attributes) of each pool's pieces at random over its positions, in place."""
    state.kinds = list(state.kinds)  # clones share the list
    carried = state.rules.abilities is not None
    origins = list(state.origins or range(len(state.kinds))) if carried else None
    for pool, canonical in zip(deal.pools, deal.identities):
        ids = list(canonical)
        rng.shuffle(ids)
        for p, (kind, attrs, origin, _) in zip(pool, ids):
            state.kinds[p] = kind
            state.attrs[p] = attrs
            if origins is not None:
                origins[p] = origin
    if origins is not None:
        state.origins = origins
    state.version += 1  # values worked out from the old identities are out of date
    state.clock += 1
    state.derived = {}


def reseeded(gs: GameState, seed: int) -> GameState:
    """The same position with the RNG reseeded: what is drawn from now on (draws, dice, shuffles) is unknown.

    What was drawn before is in the position already, so reseeding never changes what a player has seen.
    """
    world = gs.clone()
    world.reseed(seed)
    return world


def determinise(gs: GameState, viewer: int, rng: Rng, target: dict[str, Any] | None = None,
                stats: dict[str, int] | None = None, deal: Deal | None = None) -> GameState:
    """A world consistent with what `viewer` sees of `gs`: hidden pieces re-dealt, the RNG reseeded.

    `target` is `gs.view(viewer)` when the caller has it.  `stats` counts the kind of world made:
    exact (nothing hidden: only the RNG changed), redealt (hidden pieces re-dealt, sealed answers drawn again
    and the RNG reseeded), fallback (no deal tried agreed with the view: the real hidden layout, reseeded;
    never with sealed answers, which are always drawn again).  The deal is made on
    a clone of the position itself (its continuation included), so nothing is replayed; `gs` itself is
    never changed.  `deal`: `Deal(gs, viewer)` when the caller keeps one (a search, for its every iteration).
    """
    stats = stats if stats is not None else {}

    def count(key: str) -> None:
        stats[key] = stats.get(key, 0) + 1

    if gs.is_terminal():
        count("exact")
        return gs.clone()
    deal = deal if deal is not None else Deal(gs, viewer)
    if not deal.hides():
        count("exact")
        return reseeded(gs, rng.next64())
    if target is None:
        target = gs.view(viewer)
    for _ in range(WORLD_TRIES):
        world = reseeded(gs, 0)
        if deal.pools:
            _relabel(world.state, deal, rng)
        if not _redraw(world, deal, rng):
            continue
        world.state.rng = Rng(rng.next64())
        if world.view(viewer) == target:
            count("redealt")
            return world
    count("fallback")
    world = reseeded(gs, rng.next64())
    _redraw(world, deal, rng)  # the real hidden pieces, never the real sealed answers (the real menus are not empty)
    return world


def _redraw(world: GameState, deal: Deal, rng: Rng) -> bool:
    """Draw the sealed answers again in `world` (its own copy); False if a menu is empty in this world."""
    if not deal.sealed:
        return True
    try:
        resample(world.pos, deal.sealed, rng)
    except RequireFailed:
        return False
    return True
