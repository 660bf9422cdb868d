"""Hand-written reference: the Bubble Singularity pop cascade (the `bubble_pop` trigger) in plain Python.

Same rules as games/bubble-singularity/rules.yaml, `triggers: bubble_pop` with the procedures it
calls (`burst`, `send`, `take_ability`) and the functions it reads (`full`, `poppable`, `protected`,
`node_pop`, `is_node`, `has`):

* A space is *full* for the active player when it holds 3+ poppable bubbles (a bubble is poppable
  unless its colour is that of another player holding a face-up Color Protector), or 2+ poppable
  bubbles of the player's colour with Color Popper.
* Pops form a queue ordered by `[matched_at, changed_at(c)]`, then board order (row by row from
  a1): `matched_at` is the scan (one scan per pop) in which the space last started to be full, and
  it restarts when a space stops being full or pops; `changed_at` is the space's last change.
* A pop adds 1 to `chain` (the engine: the pop's `count` in `pops`, summed by `chain_counts`); on a Node or the Universe (or next to one, with Node Amplifier) it adds
  1 more, every player with Harmony Collector draws a bubble from the bag (at random, with the
  game's SplitMix64 RNG), and the popper takes an ability card (twice with Node Master).
* Then the burst: along each arrow of the card, N, E, S, W, the bottom-most poppable bubble moves
  one space (off the board: to the popper's supply); with Color Stacker each remaining bubble of
  the popper's colour is sent too; the rest of the poppable bubbles go to the popper's supply.

Decisions take their first option, as the engine does with answers [0]*64: the first market card
(or the deck when the market is empty), the bottom-most bubble, "no" to Path Extender, the first
arrow for Color Stacker. Like the engine, only *real* decisions (2+ distinct options) use up one of
the 64 answers; when a 65th would be needed the engine suspends mid-cascade, and the reference
stops at the same point (outcome "asked"). A cascade of more than `limits.cascade` pops stops with
outcome "error" as the engine's RunawayError does. Scoring the chain is not part of the cascade: the
rules split the phase's pops into causal chains and score each in `resolve_pops` after `settle` returns,
and neither the engine's `bench_cascades` nor this reference do that; `summary` reports the total the
pops add up to (`chain`).

Representation (read once from an Orrery State by `convert`): bubbles per space as lists of colour
codes bottom-first (spaces indexed y*W + x, as `cells(board)` orders them), per space the tuple of
target spaces of its arrows in N, E, S, W order (-1 off the board), node flags, one change stamp
per space, supplies and the bag as lists of colour codes, ability cards as small ints in lists
(market, deck, discard, each player's abilities).
"""

from __future__ import annotations

import time
from typing import Any

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
ANSWERS = 64  # the engine's bench answers every decision of a cascade from [0] * 64

STEPS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


class Suspended(Exception):
    """A decision beyond the answers given: the engine would suspend here."""


class Position:
    """What the cascade reads and writes. Static parts are shared between copies."""

    __slots__ = (
        # static (shared by copies)
        "width", "height", "targets", "node", "near_node", "n", "current", "colors", "color_names",
        "card_names", "card_cats", "card_face_up", "protected", "cascade_limit", "popping",
        # mutable
        "cells", "stamp", "clock", "supply", "bag", "rng", "abilities", "market", "deck", "discard",
        "chain", "firings", "asks", "outcome", "scores")

    def copy(self) -> "Position":
        """An independent copy of the mutable parts (the static ones are shared)."""
        p = Position.__new__(Position)
        p.width = self.width
        p.height = self.height
        p.targets = self.targets
        p.node = self.node
        p.near_node = self.near_node
        p.n = self.n
        p.current = self.current
        p.colors = self.colors
        p.color_names = self.color_names
        p.card_names = self.card_names
        p.card_cats = self.card_cats
        p.card_face_up = self.card_face_up
        p.protected = self.protected
        p.cascade_limit = self.cascade_limit
        p.popping = self.popping
        p.cells = [c[:] for c in self.cells]
        p.stamp = self.stamp[:]
        p.clock = self.clock
        p.supply = [s[:] for s in self.supply]
        p.bag = self.bag[:]
        p.rng = self.rng
        p.abilities = [a[:] for a in self.abilities]
        p.market = self.market[:]
        p.deck = self.deck[:]
        p.discard = self.discard[:]
        p.chain = self.chain
        p.firings = self.firings
        p.asks = self.asks
        p.outcome = self.outcome
        p.scores = self.scores
        return p


# ---------------------------------------------------------------------- reading an Orrery State


def convert(state: Any) -> Position | None:
    """Read an Orrery State (just before the cascade) into a Position; None if it is not supported.

    Everything the cascade can meet is supported; None is kept for states this reader does not
    understand (a space without exactly one Space Card, bubbles with attributes besides `color`).
    """
    from orrery.interpreter.core.values import Cell, ZoneRef  # only the reader needs the engine's types

    s = state
    decl = s.rules.zones["board"].decl
    w, h = decl.width, decl.height
    n = s.n
    kinds, attrs = s.kinds, s.attrs
    color_names: list[str] = ["red", "green", "blue", "yellow"]
    code: dict[str, int] = {c: i for i, c in enumerate(color_names)}

    def color_code(name: str) -> int:
        if name not in code:
            code[name] = len(color_names)
            color_names.append(name)
        return code[name]

    def bubble_code(pid: int) -> int:
        a = attrs[pid]
        if len(a) != 1 or "color" not in a:
            raise _Unsupported
        return color_code(a["color"])

    # ability cards as small ints
    card_ids: dict[int, int] = {}
    names: list[str] = []
    cats: list[str] = []
    face_up: list[bool] = []

    def card(pid: int) -> int:
        if pid not in card_ids:
            card_ids[pid] = len(names)
            a = attrs[pid]
            names.append(a["name"])
            cats.append(a["category"])
            face_up.append(bool(a.get("face_up", True)))
        return card_ids[pid]

    try:
        cells: list[list[int]] = []
        stamp: list[int] = []
        arrows: list[list[str]] = []
        is_node: list[bool] = []
        for y in range(h):
            for x in range(w):
                c = Cell("board", None, (x, y))
                stack = s.places.get(c, [])
                space_cards = [pid for pid in stack if kinds[pid] == "space_card"]
                if len(space_cards) != 1:
                    raise _Unsupported
                a = attrs[space_cards[0]]
                arrows.append(list(a["arrows"]))
                is_node.append(a["type"] == "universe" or any(kinds[pid] == "node" for pid in stack))
                cells.append([bubble_code(pid) for pid in stack if kinds[pid] == "bubble"])
                stamp.append(s.stamps.get(c, 0))
        supply = [[bubble_code(pid) for pid in s.places.get(ZoneRef("supply", p), [])] for p in range(n)]
        bag = [bubble_code(pid) for pid in s.places.get(ZoneRef("bag"), [])]
        abilities = [[card(pid) for pid in s.places.get(ZoneRef("abilities", p), [])] for p in range(n)]
        market = [card(pid) for pid in s.places.get(ZoneRef("market"), [])]
        deck = [card(pid) for pid in s.places.get(ZoneRef("ability_deck"), [])]
        discard = [card(pid) for pid in s.places.get(ZoneRef("ability_discard"), [])]
        colors = tuple(color_code(s.pvars[p]["color"]) for p in range(n))
    except _Unsupported:
        return None

    targets = []
    near_node = []
    for i in range(w * h):
        x, y = i % w, i // w
        out = []
        for d in "NESW":  # burst takes the arrows in this order, whatever order the card lists them in
            if d in arrows[i]:
                dx, dy = STEPS[d]
                tx, ty = x + dx, y + dy
                out.append(ty * w + tx if 0 <= tx < w and 0 <= ty < h else -1)
        targets.append(tuple(out))
        near = is_node[i]
        for dx, dy in STEPS.values():
            tx, ty = x + dx, y + dy
            if 0 <= tx < w and 0 <= ty < h and is_node[ty * w + tx]:
                near = True
        near_node.append(near)

    who = s.cursor.current
    # protected(b, who): b's colour is that of another player with a face-up Color Protector. Nobody
    # but the popper gains or loses cards during a cascade, so this is fixed for the whole cascade.
    protected = frozenset(colors[q] for q in range(n) if q != who
                          and any(names[k] == "Color Protector" and face_up[k] for k in abilities[q]))

    p = Position.__new__(Position)
    p.width, p.height = w, h
    p.targets = tuple(targets)
    p.node = tuple(is_node)
    p.near_node = tuple(near_node)
    p.n = n
    p.current = who
    p.colors = colors
    p.color_names = tuple(color_names)
    p.card_names = tuple(names)
    p.card_cats = tuple(cats)
    p.card_face_up = tuple(face_up)
    p.protected = protected
    p.cascade_limit = _cascade_limit()
    p.popping = bool(s.vars.get("popping"))
    p.cells = cells
    p.stamp = stamp
    p.clock = max([s.clock] + stamp)
    p.supply = supply
    p.bag = bag
    p.rng = s.rng.state
    p.abilities = abilities
    p.market = market
    p.deck = deck
    p.discard = discard
    p.chain = chain_counts(s)
    p.firings = 0
    p.asks = 0
    p.outcome = "settled"
    p.scores = tuple(s.pvars[q].get("score", 0) for q in range(n))
    return p


class _Unsupported(Exception):
    pass


def _cascade_limit() -> int:
    """The engine's default cascade limit (the bench runs with the game's limits, the defaults)."""
    from orrery.interpreter.core.valueops import Limits

    return Limits().cascade


# ---------------------------------------------------------------------- the cascade


def _below(rng: int, n: int) -> tuple[int, int]:
    """SplitMix64 `below(n)` as the engine's Rng does it: (value in [0, n), new RNG state)."""
    limit = _MASK - (_MASK % n)
    while True:
        rng = (rng + _GOLDEN) & _MASK
        z = rng
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        v = z ^ (z >> 31)
        if v < limit:
            return v % n, rng


def resolve(pos: Position) -> Position:
    """Resolve the whole cascade in place; returns `pos` (outcome "settled", "asked" or "error")."""
    if not pos.popping:
        return pos
    try:
        _cascade(pos)
    except Suspended:
        pos.outcome = "asked"
    return pos


def _cascade(pos: Position) -> None:
    who = pos.current
    mine = pos.colors[who]
    prot = pos.protected
    cells = pos.cells
    stamp = pos.stamp
    targets = pos.targets
    supply = pos.supply[who]
    names = pos.card_names
    face_up = pos.card_face_up
    cats = pos.card_cats
    ncells = len(cells)

    def flags() -> tuple[bool, bool, bool, bool, bool]:
        held = {names[k] for k in pos.abilities[who] if face_up[k]}
        return ("Color Popper" in held, "Node Amplifier" in held, "Color Stacker" in held,
                "Path Extender" in held, "Node Master" in held)

    popper, amplifier, stacker, extender, master = flags()

    def full(c: int) -> bool:
        b = cells[c]
        if prot:
            b = [x for x in b if x not in prot]
        if len(b) >= 3:
            return True
        return popper and b.count(mine) >= 2

    def ask() -> None:
        pos.asks += 1
        if pos.asks > ANSWERS:
            raise Suspended

    # matched_at per full space; every space full now started matching in scan 1
    queue = {c: 1 for c in range(ncells) if full(c)}
    scan = 1
    while queue:
        c = min(queue, key=lambda k: (queue[k], stamp[k], k))
        pos.firings += 1
        if pos.firings > pos.cascade_limit:
            pos.outcome = "error"
            return
        del queue[c]
        pos.chain += 1
        touched = {c}
        popper_before = popper
        if pos.node[c] or (amplifier and pos.near_node[c]):
            pos.chain += 1
            for p in range(pos.n):  # Harmony Collector: every holder draws one bubble from the bag
                if pos.bag and any(names[k] == "Harmony Collector" and face_up[k] for k in pos.abilities[p]):
                    i, pos.rng = _below(pos.rng, len(pos.bag))
                    pos.supply[p].append(pos.bag.pop(i))
            # take_ability: the first market card, or the deck when the market is empty
            mine_cards = pos.abilities[who]
            for _ in range(2 if master else 1):
                offers = len(pos.market) + (1 if pos.deck else 0)
                if not offers:
                    continue
                if offers >= 2:
                    ask()
                if pos.market:
                    got = pos.market.pop(0)
                    mine_cards.append(got)
                    if pos.deck:
                        pos.market.append(pos.deck.pop())
                else:
                    got = pos.deck.pop()
                    mine_cards.append(got)
                for old in [k for k in mine_cards if k != got and cats[k] == cats[got]]:
                    mine_cards.remove(old)
                    pos.discard.append(old)
            popper, amplifier, stacker, extender, master = flags()

        # burst
        stack = cells[c]
        for t in targets[c]:
            if prot:
                j = next((j for j, x in enumerate(stack) if x not in prot), -1)
                if j < 0:
                    continue
                kinds = {x for x in stack if x not in prot}
            else:
                if not stack:
                    continue
                j = 0
                kinds = stack
            first = stack[j]
            if any(x != first for x in kinds):  # 2+ distinct bubbles: a real decision
                ask()
            if extender:  # "move this bubble 2 spaces?" [no, yes]: the first answer is no
                ask()
            del stack[j]
            pos.clock += 1
            stamp[c] = pos.clock
            if t < 0:
                supply.append(first)
            else:
                cells[t].append(first)
                pos.clock += 1
                stamp[t] = pos.clock
                touched.add(t)
        if stacker and mine not in prot and targets[c]:
            first_arrow = targets[c][0]
            for _ in range(stack.count(mine)):
                ask()  # optional choice among the arrows: always a real decision; the first arrow
                stack.remove(mine)
                pos.clock += 1
                stamp[c] = pos.clock
                if first_arrow < 0:
                    supply.append(mine)
                else:
                    cells[first_arrow].append(mine)
                    pos.clock += 1
                    stamp[first_arrow] = pos.clock
                    touched.add(first_arrow)
        if prot:
            rest = [x for x in stack if x not in prot]
            stack[:] = [x for x in stack if x in prot]
        else:
            rest = stack[:]
            stack.clear()
        if rest:
            supply.extend(rest)
            pos.clock += len(rest)
            stamp[c] = pos.clock

        scan += 1
        for k in (range(ncells) if popper != popper_before else touched):
            if full(k):
                if k not in queue:
                    queue[k] = scan
            else:
                queue.pop(k, None)


# ---------------------------------------------------------------------- comparing and timing


def summary(pos: Position) -> tuple:
    """The position after a cascade, in engine-independent terms (compare with `engine_summary`)."""
    cn = pos.color_names
    nm = pos.card_names
    return (
        pos.outcome, pos.firings, pos.chain, pos.scores,
        tuple(tuple(cn[x] for x in cell) for cell in pos.cells),
        tuple(tuple(cn[x] for x in s) for s in pos.supply),
        tuple(cn[x] for x in pos.bag),
        pos.rng,
        tuple(tuple(nm[k] for k in a) for a in pos.abilities),
        tuple(nm[k] for k in pos.market),
        tuple(nm[k] for k in pos.deck),
        tuple(nm[k] for k in pos.discard),
    )


def engine_resolve(game: Any, state: Any) -> tuple[str, Any]:
    """The engine's cascade on a copy of `state`, as `interpreter.bench.resolve` runs it: (outcome, state)."""
    from orrery.interpreter.cli.bench import settle_first
    from orrery.interpreter.core.decisions import GameEnded, RuleError, RunawayError

    s = state.clone()
    try:
        outcome = "settled" if settle_first(game, s) is None else "asked"
    except RunawayError:
        outcome = "error"
    except (GameEnded, RuleError) as exc:
        outcome = f"other: {exc}"
    return outcome, s


def engine_summary(state: Any, outcome: str = "settled") -> tuple:
    """`summary`'s tuple read from an Orrery State after the engine's cascade."""
    from orrery.interpreter.core.values import Cell, ZoneRef

    s = state
    decl = s.rules.zones["board"].decl
    kinds, attrs = s.kinds, s.attrs

    def bubbles(place: Any) -> tuple:
        return tuple(attrs[pid]["color"] for pid in s.places.get(place, []) if kinds[pid] == "bubble")

    def cards(place: Any) -> tuple:
        return tuple(attrs[pid]["name"] for pid in s.places.get(place, []))

    n = s.n
    return (
        outcome, s.cascade, chain_counts(s), tuple(s.pvars[q].get("score", 0) for q in range(n)),
        tuple(bubbles(Cell("board", None, (x, y))) for y in range(decl.height) for x in range(decl.width)),
        tuple(bubbles(ZoneRef("supply", q)) for q in range(n)),
        bubbles(ZoneRef("bag")),
        s.rng.state,
        tuple(cards(ZoneRef("abilities", q)) for q in range(n)),
        cards(ZoneRef("market")),
        cards(ZoneRef("ability_deck")),
        cards(ZoneRef("ability_discard")),
    )


def chain_counts(s: Any) -> int:
    """What the pops of this pop phase add up to in the engine (each pop 1, or 2 on a Node): the `count` of every
    [run, chain, count, line] entry of `pops`.  The rules split them into causal chains and score each after
    `settle`; this reference keeps the total only (scoring is not part of the cascade)."""
    return sum(e[2] for e in s.vars.get("pops") or [])


def bench(positions: list[Position], seconds: float) -> float:
    """Cascade resolutions per second over `positions` (cycled), copying each position first."""
    done = 0
    start = time.process_time()
    while True:
        for p in positions:
            resolve(p.copy())
        done += len(positions)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done / elapsed
