"""A generic search bot: MCTS (UCT) over determinised worlds, with random playouts.

The bot reads nothing game-specific: only the GameState API (`legal_actions`,
`apply`, `clone`, `is_terminal`, `returns`, `current_player`, `view`).

**Determinisation** (`worlds.determinise`).  Each iteration searches a *world*: a clone of the position
whose pieces hidden from the acting player are re-dealt among themselves and whose RNG is reseeded, kept
only if the player's view of it is the same as of the real position (see `worlds.py`).  When nothing is
hidden, the world is the position itself with a new seed.

**Search.**  One tree per decision (the subtree under the moves played since
the last search is reused), children keyed by option index (`legal_actions()`),
values from `returns()` (1 win, -1 loss, 0 draw) seen by the player who chose
the move into the node.  Forced decisions never appear: the GameState answers
them itself.  Selection is UCB1 whose mean is blended with a RAVE (all moves as
first) mean keyed by (player, option label) while a move has few visits.
Playouts are uniformly random and stop after `playout` decisions (the bot's
`playout=`, else the spec's `bots.playout`); a playout cut short is judged by
the spec's `bots.heuristic` (scaled to -1..1), or scored as a draw when the
spec has none.  Two modes:

- *Exact* (nothing hidden from the bot, so a world differs from the real game
  only in its future random draws):
  a node's position is *certain* as long as no random draw happens on the way
  (each playout starts from a reseeded copy); a node is expanded (all its
  children made) on its second visit, the root at once.  Positions are kept
  only in the root and in the first `keep` expanded nodes (DEFAULT_KEEP, the
  bot's `keep=`, `mcts:...:keep=N`; the first expanded are the nearest the
  root): a position costs kilobytes and a node's statistics a few hundred
  bytes.  Any other certain position is rebuilt when the search needs it (a new
  leaf's playout, an expansion) by cloning the last position kept on the path
  and replaying the moves since, which gives the same position (no move on the
  way draws at random), so the cap changes no choice.  Results are proven
  bottom-up (MCTS-Solver, max^n: a node is proven when its mover has a proven
  win, or when all its children are proven).  So a move that wins at once is
  found in the first iteration and played, and a move that lets another player
  win by force, once proven, is never chosen.  Below a move that draws at
  random the search goes on as in general mode.
- *General* (something hidden): single-observer information-set MCTS: each
  iteration runs in its own determinised world; a child's UCB1 counts the
  iterations in which it was legal (availability) rather than its parent's
  visits.  With a spec heuristic, a node's untried options are all tried at
  once in the iteration's world and judged (one visit each), and the
  iteration goes on from the best (`_judge_all`).  Before searching, every move is tried in the first world: one that
  ends the game with the bot winning there and in two freshly dealt worlds is
  played at once.

The move played: a proven win; else, among the moves not proven lost, the best
blended mean among the well-explored ones (at least half the visits of the most
visited); when every move is proven lost, the most visited one (it held out
longest: a fallible opponent may still miss the win).

A time budget (`mcts:Ts`, the table's `--think`) counts from the start of `choose`, the look for a
decisive move included; the search aims to end at 85% of it (RESERVE: the rest is for playing the
chosen move, whose look-ahead runs then, and for pauses such as garbage collection).  The clock is
read before every move the search makes, and the search stops when the longest step seen so far in
this decision would overrun that deadline (the iteration under way is dropped).  The clock is
`MctsBot.clock` or the `clock=` given (tests give a fake one).

Deterministic: all randomness comes from the bot's seed (an iteration budget
reproduces exactly; a time budget depends on the machine).
"""

from __future__ import annotations

import copy
import gc
import math
import re
import time
from typing import Any

from ..core.decisions import RequireFailed, RuleError, RunawayError
from ..engine.commit import sealed_from
from ..engine.flatapi import FlatGameState, as_flat
from ..engine.game import GameState, IllegalMove
from ..core.rng import Rng
from .worlds import WORLD_TRIES, Deal, determinise, hidden_pools, reseeded  # noqa: F401 (the bot's public names)

DEFAULT_ITERATIONS = 200
DEFAULT_PLAYOUT = 200  # decisions in one playout before it is scored as a draw
DEFAULT_C = 0.7  # UCB1 exploration constant, for values scaled to [0, 1]
DEFAULT_RAVE = 200.0  # RAVE equivalence: the visits at which a move's own mean and its AMAF mean weigh the same
DECISIVE_CHECKS = 2  # other worlds in which a move that wins at once must win too (hidden information)
# Of a time budget, the share left for playing the chosen move (the engine's look-ahead runs then) and for
# pauses the search cannot foresee (garbage collection, a busy machine): the search aims to end before it.
RESERVE = 0.15
# Exact mode: the most positions one tree keeps (see `MctsBot._keep`); the others are rebuilt when needed.
DEFAULT_KEEP = 1000

_SEARCH_ERRORS = (IllegalMove, RuleError, RequireFailed, RunawayError)


class _OutOfTime(Exception):
    """The time budget would run out before one more step of the search: the iteration is dropped."""


# ------------------------------------------------------------------ the tree


class _Node:
    """Statistics of one move (the edge into this node) and of the moves after it."""

    __slots__ = ("children", "visits", "value", "avail", "gs", "sure", "mover", "expanded", "proven", "label",
                 "amaf_n", "amaf_w")

    def __init__(self, label: str) -> None:
        self.label = label  # the option's label: the move's name for RAVE
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.value = 0.0  # sum of returns for the player who chose the move into this node
        self.avail = 0  # iterations in which this move was legal when its parent was visited
        self.sure = False  # exact mode: the position here is certain (no random draw on the way from the root)
        self.gs: GameState | None = None  # exact mode: that position, when the tree keeps it (never mutated)
        self.mover: int | None = None  # exact mode: the player to move in that position
        self.expanded = False  # exact mode: every child made
        self.proven: tuple[float, ...] | None = None  # exact mode: the result under best play (max^n)
        self.amaf_n = 0  # RAVE: simulations from the parent in which the mover played this label later on
        self.amaf_w = 0.0


def _kept(root: _Node) -> int:
    """The positions a tree keeps (a node keeps one only when it is expanded, or about to be)."""
    count, todo = 0, [root]
    while todo:
        node = todo.pop()
        count += node.gs is not None
        todo.extend(ch for ch in node.children.values() if ch.expanded or ch.gs is not None)
    return count


def _copy_tree(root: _Node | None) -> _Node | None:
    """A copy of a tree's statistics; the positions it keeps are shared (they are never mutated)."""
    if root is None:
        return None
    slots = _Node.__slots__
    top = _Node.__new__(_Node)
    todo = [(root, top)]
    while todo:
        node, twin = todo.pop()
        for name in slots:
            setattr(twin, name, getattr(node, name))
        twin.children = {}
        for index, child in node.children.items():
            twin.children[index] = dup = _Node.__new__(_Node)
            todo.append((child, dup))
    return top


def parse_budget(text: str | None) -> dict[str, Any]:
    """`200` (iterations), `2s` / `500ms` (time), or several joined by ':' (`200:2s`, `100:playout=50`, `c=1`)."""
    out: dict[str, Any] = {}
    if not text:
        return out
    for part in text.split(":"):
        p = part.strip().lower()
        try:
            if re.fullmatch(r"\d+", p):
                out["iterations"] = int(p)
            elif re.fullmatch(r"\d+(\.\d+)?ms", p):
                out["seconds"] = float(p[:-2]) / 1000
            elif re.fullmatch(r"\d+(\.\d+)?s", p):
                out["seconds"] = float(p[:-1])
            elif p.startswith("playout="):
                out["playout"] = int(p[len("playout="):])
                if out["playout"] < 0:
                    raise ValueError
            elif p.startswith("rave="):
                out["rave"] = float(p[len("rave="):])
                if not out["rave"] >= 0:
                    raise ValueError
            elif p.startswith("keep="):
                out["keep"] = int(p[len("keep="):])
                if out["keep"] < 1:
                    raise ValueError
            elif p.startswith("c="):
                out["c"] = float(p[2:])
                if not out["c"] >= 0:
                    raise ValueError
            else:
                raise ValueError
        except ValueError:
            raise ValueError(f"mcts: cannot read '{part}' in 'mcts:{text}' (use mcts:N for N iterations, mcts:Ts "
                             f"for T seconds, both as mcts:N:Ts, optionally :playout=N, :c=X, :rave=K and :keep=N)") from None
    if out.get("iterations") == 0 or out.get("seconds") == 0:
        raise ValueError(f"mcts: a budget of 0 in 'mcts:{text}' leaves nothing to search")
    return out


class MctsBot:
    """Information-set MCTS with determinised hidden information and random playouts (see the module doc)."""

    name = "mcts"

    clock = staticmethod(time.perf_counter)  # the time budget's clock (a test may give a fake one)

    def __init__(self, seed: int = 0, budget: str | None = None, *, iterations: int | None = None,
                 seconds: float | None = None, playout: int | None = None, c: float = DEFAULT_C,
                 rave: float = DEFAULT_RAVE, reuse: bool = True, clock: Any = None, keep: int | None = DEFAULT_KEEP):
        opts = parse_budget(budget)
        self.iterations = opts.get("iterations", iterations)
        self.seconds = opts.get("seconds", seconds)
        # no budget given: the spec's hint (bots.iterations) or DEFAULT_ITERATIONS, settled at the first search
        self._budgeted = self.iterations is not None or self.seconds is not None
        self.playout = opts.get("playout", playout)
        self.c = opts.get("c", c)
        self.rave = opts.get("rave", rave)
        self.reuse = reuse
        self.rng = Rng(seed)
        self.stats: dict[str, int] = {}
        self._root: _Node | None = None
        self._trail: list[tuple[int, int]] = []  # the real decisions (player, index) up to the root
        self._exact = False
        self.keep = opts.get("keep", keep)  # exact mode: the most positions a tree keeps (None: no limit)
        self._kept = 0  # positions the current tree keeps
        self.rebuilt = 0  # exact mode: moves replayed to rebuild positions the tree does not keep
        if clock is not None:  # the time source of a time budget (a test injects its own)
            self.clock = clock
        self._deadline: float | None = None
        self._last_tick = 0.0
        self._step_cost = 0.0  # the longest time between two clock checks in this search

    # -- entry point
    def choose(self, gs: GameState) -> int:
        """Search, then the move to play: a proven win, else the best of the well-explored moves not proven lost."""
        # Python's cycle collector is paused while the search runs: a full collection walks every object the
        # tree holds (80-120 ms in a bundled two-player game, half of a 0.2 s budget) at a moment the clock
        # cannot foresee, and a search makes no cyclic garbage (tests/test_mcts_clock.py checks it), so
        # refcounting frees what it drops; the collector runs again between decisions.
        paused = gc.isenabled()
        gc.disable()
        try:
            return self._search(gs)
        finally:
            if paused:
                gc.enable()

    def follow(self, gs: GameState) -> int:
        """A move without searching (the table's turn budget is spent, bots/thinking.py): the best move of the
        tree this bot's earlier searches grew below this position (the plan the turn's first searches made),
        else one at random.  Costs no iteration; not where another player's sealed answer is pending (the
        tree was grown in worlds that knew it), nor where the tree never reached: then at random."""
        legal = gs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self._bump({"followed": 1})
        if self._root is not None and not sealed_from(gs.pos, gs.current_player()):
            root = self._reused_root(gs, self._exact)
            if root.children:
                return self._best(root, legal, gs.current_player())
        self._bump({"followed_at_random": 1})
        return legal[self.rng.below(len(legal))]

    def snapshot(self) -> "MctsBot":
        """An independent copy as the bot is now (its RNG, statistics and search tree), to go back to: the
        table's undo, after which it answers the same position exactly as it did."""
        twin = copy.copy(self)
        twin.rng = self.rng.clone()
        twin.stats = dict(self.stats)
        twin._trail = list(self._trail)
        twin._root = _copy_tree(self._root)
        return twin

    def _search(self, gs: GameState) -> int:
        legal = gs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self._start_clock()
        me = gs.current_player()
        target = gs.view(me)
        probe: dict[str, int] = {}
        deal = Deal(gs, me)  # (the same position is determinised at every iteration)
        world: GameState | None = determinise(gs, me, self.rng, target, probe, deal)
        exact = "exact" in probe
        if exact:  # (nothing hidden: the search's positions on the flat flow where the spec has one)
            world = as_flat(world)
        self._bump(probe)
        root = self._reused_root(gs, exact, fresh=bool(deal.sealed))
        if exact:
            root.sure, root.mover = True, me
            if root.gs is None:
                self._keep(root, world, force=True)
        if not exact:
            win = self._decisive(gs, me, world, target, deal)
            if win is not None:
                self._bump({"decisive": 1, "searches": 1})
                return win
        if not self._budgeted:
            self.iterations = gs.bot_iterations() or DEFAULT_ITERATIONS
            self._budgeted = True
        done = 0
        while root.proven is None:
            if self.iterations is not None and done >= self.iterations:
                break
            try:
                self._tick()
                if exact:
                    self._iterate_exact(root)
                else:
                    if world is None:
                        world = determinise(gs, me, self.rng, target, self.stats, deal)
                    self._iterate_general(root, world, [])
                    world = None
            except _OutOfTime:
                self._bump({"timeout": 1})
                break
            done += 1
        self._bump({"iterations": done, "searches": 1, **({"proven": 1} if root.proven is not None else {})})
        return self._best(root, legal, me)

    def _start_clock(self) -> None:
        """Start the time budget of one decision (the look for a decisive move counts too)."""
        self._step_cost = 0.0
        self._deadline = None
        if self.seconds is not None:
            self._last_tick = self.clock()
            self._deadline = self._last_tick + self.seconds * (1 - RESERVE)

    def _tick(self) -> None:
        """Before one more step of the search: raise _OutOfTime if the longest step so far would overrun the
        budget.  Called before every move the search makes, so a decision overruns by less than one step."""
        if self._deadline is None:
            return
        now = self.clock()
        self._step_cost = max(self._step_cost, now - self._last_tick)
        self._last_tick = now
        if now + self._step_cost >= self._deadline:
            raise _OutOfTime()

    def _decisive(self, gs: GameState, me: int, world: GameState, target: dict[str, Any], deal: Deal) -> int | None:
        """With hidden information: a move that ends the game with the bot winning in this world and in
        DECISIVE_CHECKS more, freshly dealt ones (a win that does not hang on what is hidden), or None
        (also when the time budget runs out before every move was tried)."""
        try:
            return self._find_decisive(gs, me, world, target, deal)
        except _OutOfTime:
            self._bump({"timeout": 1})
            return None

    def _find_decisive(self, gs: GameState, me: int, world: GameState, target: dict[str, Any],
                       deal: Deal) -> int | None:
        """The search of `_decisive`; raises _OutOfTime when the budget runs out."""
        for opt in world.legal_options():
            if not self._wins(world, opt.index, me):
                continue
            for _ in range(DECISIVE_CHECKS):
                other = determinise(gs, me, self.rng, target, self.stats, deal)
                if not self._wins(other, opt.index, me):
                    break
            else:
                return opt.index
        return None

    def _wins(self, world: GameState, index: int, me: int) -> bool:
        """Whether playing `index` in `world` ends the game with `me` winning."""
        self._tick()
        g = world.clone()
        try:
            g.apply(index)
        except _SEARCH_ERRORS:
            return False
        return g.is_terminal() and g.returns()[me] >= 1

    def _bump(self, counts: dict[str, int]) -> None:
        for k, v in counts.items():
            self.stats[k] = self.stats.get(k, 0) + v

    def _reused_root(self, gs: GameState, exact: bool, fresh: bool = False) -> _Node:
        """The subtree reached by the decisions made since the last search, or a new root (`fresh`: always a new
        one, as while other players' commit answers are sealed: the subtree under the real answers was grown
        in worlds where they were known, so reusing it would read them)."""
        trail = [(s.player, s.index) for s in gs.steps if not s.auto]
        root = self._root
        if (self.reuse and not fresh and root is not None and exact == self._exact and len(trail) >= len(self._trail)
                and trail[:len(self._trail)] == self._trail):
            for _, index in trail[len(self._trail):]:
                root = root.children.get(index)
                if root is None:
                    break
            if root is not None and exact and not root.sure:
                root = None  # reached through a random draw: its statistics are not exact-mode ones
        else:
            root = None
        if root is None:
            root = _Node("")
        self._root, self._trail, self._exact = root, trail, exact
        self._kept = _kept(root) if exact else 0
        return root

    def _best(self, root: _Node, legal: list[int], me: int) -> int:
        children = [(a, root.children[a]) for a in legal if a in root.children]
        proven = [(a, ch) for a, ch in children if ch.proven is not None]
        if proven:
            a, ch = max(proven, key=lambda t: t[1].proven[me])
            if ch.proven[me] >= 1:
                return a  # a forced win
            if len(proven) == len(legal) and ch.proven[me] > -1:
                children = [(a, c) for a, c in proven if c.proven[me] == ch.proven[me]]  # the best known result
        if not children:
            return legal[0]
        safe = [(a, ch) for a, ch in children if ch.proven is None or ch.proven[me] > -1]
        if not safe:  # every move proven lost: the most visited held out longest (a fallible opponent may miss it)
            return max(children, key=lambda t: t[1].visits)[0]
        # the best mean (RAVE-blended) among the well-explored moves (at least half the visits of the most visited)
        most = max(ch.visits for _, ch in safe)
        best, best_key = safe[0][0], None
        for a, ch in safe:
            key = (ch.visits * 2 >= most, self._mean(ch) if ch.visits else -2.0, ch.visits)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    # -- exact mode: nothing hidden from the bot; positions reached without a random draw are certain
    def _child(self, node: _Node, parent: GameState, opt: Any) -> GameState | None:
        """Make the child of a certain position (`parent`, the node's) for one option; its position when it is
        certain and not terminal (the caller may play out from it), else None.

        The child is certain unless a random draw happened on the way (then the search below it goes on in
        general mode); its position is not kept (it is rebuilt when needed); a terminal child is proven at once.
        """
        g = self._fresh(parent)
        before = g.rng_state()
        try:
            g.apply(opt.index, keep=False)  # (a failed answer leaves g unusable: it is dropped)
        except _SEARCH_ERRORS:
            self._bump({"errors": 1})
            child = node.children[opt.index] = _Node(opt.label)
            child.proven = tuple([0.0] * parent.num_players)
            return None
        child = node.children[opt.index] = _Node(opt.label)
        if g.rng_state() != before:
            return None
        child.sure = True
        if g.is_terminal():
            child.proven = tuple(g.returns())
            return None
        child.mover = g.current_player()
        return g

    def _expand(self, node: _Node, gs: GameState) -> dict[int, GameState]:
        """Make every child of a certain position (`gs`, the node's; the root's at once: a decisive move is
        found in the first iteration); the positions of the new certain children, by option index."""
        made = {}
        for opt in gs.legal_options():
            if opt.index not in node.children:
                self._tick()
                g = self._child(node, gs, opt)
                if g is not None:
                    made[opt.index] = g
        node.expanded = True
        self._prove(node, node.mover)
        return made

    @staticmethod
    def _prove(node: _Node, mover: int) -> None:
        """Max^n backup: a node is proven when its mover has a proven win, or when every child is proven."""
        if node.proven is not None or not node.expanded:
            return
        kids = list(node.children.values())
        for ch in kids:
            if ch.proven is not None and ch.proven[mover] >= 1:
                node.proven = ch.proven
                return
        if all(ch.proven is not None for ch in kids):
            node.proven = max((ch.proven for ch in kids), key=lambda v: v[mover])

    def _iterate_exact(self, root: _Node) -> None:
        """Descend certain positions (expanding a node on its second visit), then play out or go on in general
        mode below a move that draws at random; back up, and propagate proofs up the certain path.

        Positions are kept in at most `keep` nodes (`_keep`); the others are rebuilt from the last position
        kept on the path by replaying the moves since (`_rebuild`)."""
        node = root
        path: list[tuple[_Node, int]] = []
        movers: list[int] = []  # the player to move at each certain node of the path (root first)
        played: list[tuple[int, str]] = []  # the playout's moves (player, label), for RAVE
        result: tuple[float, ...] | list[float] | None = None
        base: GameState | None = None  # the last position kept on the path
        moves: list[int] = []  # the moves from `base` to `node`
        made: dict[int, GameState] = {}  # the positions of the children of a node expanded in this iteration
        ready: GameState | None = None  # the position of `node` when it was just made
        try:
            while True:
                if node.proven is not None:
                    result = node.proven
                    break
                assert node.sure  # children reached through a random draw are left below
                if node.gs is not None:
                    base, moves = node.gs, []
                assert base is not None  # the root's position is always kept
                if node is not root and node.visits == 0:  # a new leaf (never terminal: that is proven)
                    result = self._playout(self._private(base, moves, ready), played)
                    break
                mover = node.mover
                movers.append(mover)
                if not node.expanded:  # on its second visit (the root: at once)
                    g = self._rebuild(base, moves)
                    if g is not base and self._keep(node, g):
                        base, moves = g, []
                    made = self._expand(node, g)
                    if node.proven is not None:
                        result = node.proven
                        break
                a = self._select(node, mover)
                child = node.children[a]
                path.append((child, mover))
                if not child.sure and child.proven is None:
                    g = self._private(base, moves, None)  # (the node has children: not terminal)
                    self._tick()
                    g.apply(a, keep=False)  # (a failure drops the iteration: g is not used again)
                    result = self._descend_general(child, g, path, played)
                    break
                moves.append(a)
                node, ready, made = child, made.get(a), {}
        except _SEARCH_ERRORS:
            self._bump({"errors": 1})
            result = None
        self._backup(root, path, result, played)
        # proofs found below propagate up the certain part of the path
        nodes = [root] + [n for n, _ in path]
        for n, mover in zip(reversed(nodes[:len(movers)]), reversed(movers)):
            self._prove(n, mover)

    def _private(self, base: GameState, moves: list[int], ready: GameState | None) -> GameState:
        """A private copy of the (non-terminal) position `moves` lead to from `base`, reseeded as `_fresh` makes
        it (one number of the bot's RNG): `ready` itself when given (a position just made), else rebuilt."""
        if ready is None:
            if not moves:
                return self._fresh(base)
            ready = self._rebuild(base, moves)
        ready.reseed(self.rng.next64())
        return ready

    def _rebuild(self, base: GameState, moves: list[int]) -> GameState:
        """The position `moves` lead to from `base`: `base` itself when there are none, else a private copy.

        No move on the way draws at random (the nodes are certain), so the same moves from the same position
        give the same position: only its RNG (reseeded before any use) differs from one made at expansion."""
        if not moves:
            return base
        g = base.clone()
        for a in moves:
            self._tick()
            g.apply(a, keep=False)
        self.rebuilt += len(moves)
        return g

    def _keep(self, node: _Node, gs: GameState, force: bool = False) -> bool:
        """Keep `gs` in `node` if the tree keeps fewer than `keep` positions (the first nodes expanded, the
        ones nearest the root, keep theirs; no position is dropped while the tree lives), or if `force`d
        (the root's)."""
        if not force and self.keep is not None and self._kept >= self.keep:
            return False
        node.gs = gs
        self._kept += 1
        return True

    def _fresh(self, cached: GameState) -> GameState:
        """A private copy of a certain position, with a new seed for what is drawn from now on."""
        if cached.is_terminal():
            return cached.clone()
        return reseeded(cached, self.rng.next64())

    def _select(self, node: _Node, mover: int) -> int:
        """UCB1 over the children of a cached position; proven losses for the mover only if nothing else."""
        children = list(node.children.items())
        ok, fresh = [], []  # (one pass: this runs at every node of every iteration)
        for a, ch in children:
            ch.avail += 1
            proven = ch.proven
            if proven is None or proven[mover] > -1:
                ok.append((a, ch))
                if ch.visits == 0:
                    fresh.append(a)
        if not ok:
            ok = children
            fresh = [a for a, ch in ok if ch.visits == 0]
        if fresh:
            return fresh[self.rng.below(len(fresh))]
        return self._ucb(ok)

    def _mean(self, ch: _Node) -> float:
        """A visited move's mean result, blended with its AMAF mean while its visits are few (RAVE)."""
        mean = ch.value / ch.visits
        k = self.rave
        if k and ch.amaf_n:
            beta = math.sqrt(k / (3 * ch.visits + k))
            mean = (1 - beta) * mean + beta * ch.amaf_w / ch.amaf_n
        return mean

    def _ucb(self, items: list[tuple[int, _Node]]) -> int:
        """UCB1 over availability; the mean blends in the AMAF mean (RAVE) while visits are few."""
        best, best_score = items[0][0], -math.inf
        k, c, sqrt, log = self.rave, self.c, math.sqrt, math.log
        for a, ch in items:
            visits = ch.visits
            if not visits:  # made by an iteration the time budget cut short: not tried yet
                return a
            mean = ch.value / visits  # (_mean written in: the same arithmetic, this loop is the tree's hot path)
            if k and ch.amaf_n:
                beta = sqrt(k / (3 * visits + k))
                mean = (1 - beta) * mean + beta * ch.amaf_w / ch.amaf_n
            score = (mean + 1.0) / 2.0 + c * sqrt(log(max(ch.avail, 1)) / visits)
            if score > best_score:
                best, best_score = a, score
        return best

    # -- general mode: every iteration in its own determinised world
    def _iterate_general(self, root: _Node, gs: GameState, path: list[tuple[_Node, int]]) -> None:
        played: list[tuple[int, str]] = []
        try:
            result = self._descend_general(root, gs, path, played)
        except _SEARCH_ERRORS:  # an impossible world or a broken spec: score the iteration as a draw
            self._bump({"errors": 1})
            result = None
        self._backup(root, path, result, played)

    def _descend_general(self, node: _Node, gs: GameState, path: list[tuple[_Node, int]],
                         played: list[tuple[int, str]]) -> list[float]:
        """Select and expand one node (children keyed by option index, UCB over availability), then play out."""
        rng = self.rng
        while not gs.is_terminal():
            options = gs.legal_options()
            legal = [o.index for o in options]
            mover = gs.current_player()
            untried = [o for o in options if o.index not in node.children]
            for a in legal:
                ch = node.children.get(a)
                if ch is not None:
                    ch.avail += 1
            if untried:
                if gs.game.rules.heuristic is not None:
                    child, gs = self._judge_all(node, gs, untried, mover)
                else:
                    opt = untried[rng.below(len(untried))]
                    self._tick()
                    child = node.children[opt.index] = _Node(opt.label)
                    child.avail = 1
                    gs.apply(opt.index)
                path.append((child, mover))
                break
            a = self._ucb([(a, node.children[a]) for a in legal])
            self._tick()
            gs.apply(a)
            node = node.children[a]
            path.append((node, mover))
        return self._playout(gs, played)

    def _judge_all(self, node: _Node, gs: GameState, untried: list[Any], mover: int) -> tuple[_Node, GameState]:
        """With a heuristic: make a child for every untried option, each judged once in this world (the end's
        result, or the heuristic), and go on from the best for the mover (ties: the earliest option).

        Trying one untried option at random per iteration needs as many iterations as a node has options
        before the search can tell a good move from a bad one; judging them all at once costs one step per
        option and lets even a small budget pick the best-looking move, as a greedy player would.

        Each option is answered with apply_sampled: the menu met next is not filtered by look-ahead, because
        the judged positions are either thrown away or played on by sample_step, which finds completable
        options itself (where every step can fail, that filtering was an eighth of a search: performance.md).
        The position judged is the one at that next decision, before any automatic answer.
        """
        best: tuple[float, _Node, GameState] | None = None
        for opt in untried:
            self._tick()
            g = gs.clone()
            try:
                g.apply_sampled(opt.index)
                judged = g.returns() if g.is_terminal() else g.heuristic_returns()
            except _SEARCH_ERRORS:
                self._bump({"errors": 1})
                judged = None
            if judged is None:
                continue  # left untried: a later iteration in another world tries it again
            self._bump({"judged": 1})
            child = node.children[opt.index] = _Node(opt.label)
            child.avail, child.visits, child.value = 1, 1, judged[mover]
            if best is None or judged[mover] > best[0]:
                best = (judged[mover], child, g)
        if best is None:
            raise RuleError("no option of this decision could be judged", None)
        return best[1], best[2]

    def _playout(self, gs: GameState, played: list[tuple[int, str]]) -> list[float]:
        """Random moves until the end or the playout cap; the moves go to `played`.

        A playout cut short is scored by the spec's heuristic (bots.heuristic), or as a draw.  The cap
        is the bot's `playout=`, else the spec's bots.playout, else DEFAULT_PLAYOUT.
        """
        steps = 0
        rng = self.rng
        cap = self.playout if self.playout is not None else gs.bot_playout()
        cap = DEFAULT_PLAYOUT if cap is None else cap

        if isinstance(gs, FlatGameState):
            tick = self._tick if self._deadline is not None else None  # (no budget in time: nothing to check)
            steps = gs.random_moves(rng, cap, played, tick)  # (the same moves, without the protocol)
        while not gs.is_terminal() and steps < cap:
            self._tick()
            real = len(gs.legal_actions()) > 1  # a lone option is no move of a player (as in the tree)
            # uniform over the options that can be completed, found by trying them in a random order
            # rather than by checking every one (engine.driver.GameState.sample_step)
            mover, label = gs.sample_step(rng)
            if real and label:
                played.append((mover, label))
                steps += 1
        if gs.is_terminal():
            return gs.returns()
        self._bump({"capped": 1})
        judged = gs.heuristic_returns()
        return [0.0] * gs.num_players if judged is None else judged

    def _backup(self, root: _Node, path: list[tuple[_Node, int]], result: Any, played: list[tuple[int, str]]) -> None:
        """Visits and values along the path; RAVE: every sibling whose label its mover played later on."""
        root.visits += 1
        for n, mover in path:
            n.visits += 1
            if result is not None:
                n.value += result[mover]
        if result is None or not self.rave:
            return
        parents = [root] + [n for n, _ in path[:-1]]
        later: dict[int, set[str]] = {}  # labels each player played after the current depth
        for p, label in played:
            mine = later.get(p)
            if mine is None:
                later[p] = {label}  # (no empty set made for every move, as setdefault(p, set()) would)
            else:
                mine.add(label)
        for depth in range(len(path) - 1, -1, -1):
            node, mover = path[depth]
            later.setdefault(mover, set()).add(node.label)
            seen = later[mover]
            win = result[mover]
            for ch in parents[depth].children.values():
                if ch.label in seen:
                    ch.amaf_n += 1
                    ch.amaf_w += win


def make_mcts(seed: int, budget: str | None = None) -> MctsBot:
    """The `mcts` bot factory (`mcts` or `mcts:BUDGET`)."""
    return MctsBot(seed, budget)
