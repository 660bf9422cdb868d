"""The ceiling of Bubble Singularity's compiled code: what a typed generator would have to emit, written by hand.

games/bubble-singularity/rules.yaml (4 players) as a typed generator (issue 34) would write it, over a flat
layout, with nothing of the engine around it but what the rules need:

- the layout: cells are ints (y * 5 + x); pieces keep the engine's ids (space cards 0-24, bubbles 25-84, nodes
  85-88, Maris 89-92, ability cards 93-112, markers 113-124); a place is a list of piece ids; a bubble's
  `color`, a card's `type` and `arrows` (a bit mask N E S W), an ability card's `face_up` and where it lies
  (`holder`: the player whose abilities hold it, so `has(p, NAME)` is one lookup) are columns; neighbour,
  wrap, move-step and king-distance tables are lists indexed by cell; each cell's change stamp (`changed_at`)
  is a column written at every change, as the engine stamps it;
- the rules' own algorithms: setup (shuffles and bag draws from the game's `Rng`, so it is the engine's setup
  for the seed), the turn's steps (recharge, move, action), `move_mari` with its `require` (an option is
  offered when some way of finishing the move completes: found by trying, depth first, as the look-ahead does,
  without copying the position: only the Mari's place and the supply's size can change the verdict),
  the Bubble Pop phase's cascade (matches queued by [matched_at, changed_at(c)], each firing's cause and
  origin, chains scored per origin), the abilities, the supply limit, the end conditions in the spec's order;
- every menu as the engine offers it: identical pieces merged (the first of each colour), `skip` last for
  optional choices, dead ends left out, a menu of one option answered without a decision;
- every guard the language keeps that can trigger: the cascade limit (10,000 firings); the loop limit
  (2,000,000 a stage), which only a runaway cascade can reach, charged there with its dominant terms (each
  firing's `before` comprehension and `pops +=` go over the pops so far, each scan over the 25 cells: the
  engine charges more, so it stops a runaway at most this late); the limit on automatic answers in a row
  (5,000: counted at the menus answered alone and the steps skipped); and the driver's step limit (20,000
  decisions: bots/simulate.play_game). The look-ahead budget (5,000 trials a menu) cannot be reached: only
  a Quantum Phaser's move can fail, and only through the other three Maris' spaces;
- what it leaves out, as the lean path does: history, narration, labels, option objects, causes beyond
  the origin the scoring reads, the `pops` entries' `line` (only a variant reads it).

`play(gseed)` plays the game `cli.bench.bench_playouts` plays for that seed (the engine's random bots, one
`Rng(bot_seed(gseed, seat))` per seat, draw at every decision of two options or more), so seed for seed it
plays the engine's games: benchmarks/bubble_singularity_lockstep.py checks it decision by decision.
"""

from __future__ import annotations

from orrery.interpreter.core.rng import Rng

W = H = 5
NCELLS = W * H
CENTER = (H // 2) * W + W // 2
START_EDGES = [((W - 1) // 2), (H // 2) * W, ((H - 1) // 2) * W + W - 1, (H - 1) * W + W // 2]
NODE_CELLS = [y * W + x for y in (H // 2 - 1, (H - 1) // 2 + 1) for x in (W // 2 - 1, (W - 1) // 2 + 1)]
CASCADE_LIMIT, AUTO_LIMIT, MAX_STEPS, LOOP_LIMIT = 10_000, 5_000, 20_000, 2_000_000
# A benchmark may set this: every look-ahead trial of the move first copies the whole flat state, as a generator
# that replays an option on a copy of the position would (the ceiling's own trial changes nothing it must undo).
COPY_TRIALS = False

# piece ids (the engine's: components in spec order)
CARDS, BUBBLES, NODES, MARIS, ABIL, MARKERS = range(0, 25), range(25, 85), range(85, 89), range(89, 93), \
    range(93, 113), range(113, 125)
WARP, GRAVITY, ROTATE, STATION, UNIVERSE = range(5)
_N, _E, _S, _WW = 1, 2, 4, 8
_LAYOUTS = [_N | _E, _S | _WW, _N | _E | _S, _E | _S | _WW, _N | _S | _WW, _N | _E | _S | _WW]
CARD_TYPE = [UNIVERSE] + [t for t in (WARP, GRAVITY, ROTATE, STATION) for _ in range(6)]
CARD_ARROWS = [15] + _LAYOUTS * 4
(DRIFTER, PHASER, EDGE_WALKER, SURFER, POPPER, HARVESTER, STACKER, PATH_EXT, AMPLIFIER, PROTECTOR, HARMONY,
 NODE_MASTER, PLACER, CONVERTER, ATTRACTOR, PLANNER, FOLDER, ROTATOR, SHIFTER, DIRECTOR) = range(93, 113)
CATEGORY = [None] * 93 + [k // 4 for k in range(20)]
ACTIVE = [False] * 93 + [k >= 12 for k in range(20)]
COLOR = [None] * 25 + [k // 15 for k in range(60)]  # the start colours (Color Converter changes a game's copy)
CHAIN_POINTS, CHAIN_BEYOND = [0, 1, 2, 5, 7, 11], 4
DRAW = -1  # the option "draw from the deck"

# directions: 0 N, 1 E, 2 S, 3 W (the arrows' bits), then NE SE SW NW (dirs("king") order)
_VEC = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)]


def _nb(c: int, d: int, k: int = 1, wrap: bool = False) -> int:
    x, y = c % W + _VEC[d][0] * k, c // W + _VEC[d][1] * k
    if wrap:
        x, y = x % W, y % H
    return y * W + x if 0 <= x < W and 0 <= y < H else -1


NB = [[_nb(c, d) for c in range(NCELLS)] for d in range(4)]  # neighbor(c, d)
NB2 = [[_nb(c, d, 2) for c in range(NCELLS)] for d in range(4)]  # neighbor(c, d, 2)
ADJ = [[n for n in (NB[d][c] for d in range(4)) if n >= 0] for c in range(NCELLS)]  # adjacent(c): N E S W


def _move_steps(c: int, king: bool, edge: bool) -> list[int]:
    out: list[int] = []
    for d in range(8 if king else 4):
        n = _nb(c, d)
        if n < 0 and edge:
            n = _nb(c, d, 1, True)
        if n >= 0 and n not in out:
            out.append(n)
    return out


# move_steps(c, who) by (Diagonal Drifter, Edge Walker)
MOVE_STEPS = [[_move_steps(c, k, e) for c in range(NCELLS)] for k in (False, True) for e in (False, True)]
# Node Shifter's targets: king distance 1-2, in cells(board) order
KING2 = [[t for t in range(NCELLS) if t != c and max(abs(t % W - c % W), abs(t // W - c // W)) <= 2]
         for c in range(NCELLS)]
ARROW_DIRS = [[d for d in range(4) if m >> d & 1] for m in range(16)]  # [d in N E S W where d in arrows]
ALL_CELLS = list(range(NCELLS))
CW = [((m << 1) | (m >> 3)) & 15 for m in range(16)]
CCW = [((m >> 1) | (m << 3)) & 15 for m in range(16)]

# menu tags (what the lock-step checker needs to name an option as the engine does)
T_ACTION, T_CELL, T_PIECE, T_DIR, T_WAY, T_BOOL, T_OFFER = range(7)


class RunawayError(RuntimeError):
    """A guard of the language fired (the engine raises its RunawayError there)."""


def random_asker(gseed: int):
    """The engine's random bots for game `gseed`: each seat's Rng draws at each of its decisions."""
    belows = [Rng(gseed * 7919 + k * 104729 + 1).below for k in range(4)]  # bots/simulate.bot_seed

    def ask(p: int, opts: list, tag: int):
        return opts[belows[p](len(opts))]
    return ask


def play(gseed: int, ask=None, n: int = 4, peek: dict | None = None) -> tuple[str, list[int], list[int], int]:
    """One 4-player game: (the end's name, the winners, the scores, the decisions made).  `ask(seat, options,
    tag)` answers each decision of two options or more (default: the engine's random bots); `peek`, when
    given, receives the state's lists (for the lock-step checker)."""
    if ask is None:
        ask = random_asker(gseed)
    rng = Rng(gseed)
    below = rng.below
    players = list(range(n))
    # ---------------------------------------------------------------- the state
    col = list(COLOR)
    arrows = list(CARD_ARROWS)
    card_of = [-1] * NCELLS
    bub: list[list[int]] = [[] for _ in range(NCELLS)]
    node = [0] * NCELLS
    occ = [0] * NCELLS  # Maris on the cell
    mcell = [-1] * n
    stamp = [0] * NCELLS
    clock = [0]  # (one counter: the engine stamps every change of every place; only cells' stamps are read)
    up = [True] * 113  # face_up
    holder = [-1] * 113  # the player whose abilities hold the card
    supply: list[list[int]] = [[] for _ in range(n)]
    abilities: list[list[int]] = [[] for _ in range(n)]
    markers = [0] * n
    score = [0] * n
    bag = list(BUBBLES)
    deck = list(ABIL)
    market: list[int] = []
    marker_pool = [12]
    bag_emptied = [False]
    counts = [0, 0]  # decisions made, automatic answers in a row
    if peek is not None:
        peek.update(bub=bub, supply=supply, bag=bag, score=score, markers=markers, card_of=card_of, arrows=arrows,
                    mcell=mcell, abilities=abilities, market=market, deck=deck, up=up, col=col, node=node,
                    stamp=stamp)

    def touch(c: int) -> None:
        clock[0] += 1
        stamp[c] = clock[0]

    def choose(p: int, opts: list, tag: int):
        if len(opts) == 1:
            counts[1] += 1
            if counts[1] > AUTO_LIMIT:
                raise RunawayError("automatic answers in a row (limit auto)")
            return opts[0]
        counts[1] = 0
        counts[0] += 1
        return ask(p, opts, tag)

    def skipped() -> None:  # a step with nothing offered, or a menu of one: answered automatically
        counts[1] += 1
        if counts[1] > AUTO_LIMIT:
            raise RunawayError("automatic answers in a row (limit auto)")

    def distinct(lst: list[int]) -> list[int]:
        """Identical pieces merged: the first bubble of each colour, in place order."""
        out = []
        seen = 0
        for b in lst:
            m = 1 << col[b]
            if not seen & m:
                seen |= m
                out.append(b)
        return out

    def has(p: int, card: int) -> bool:
        return holder[card] == p and up[card]

    def draw_bubbles(k: int, dest: list[int], cell: int = -1) -> None:
        for _ in range(k):
            if not bag:
                break
            dest.append(bag.pop(below(len(bag))))
            if cell >= 0:
                touch(cell)
        if not bag:
            bag_emptied[0] = True

    def guarded(who: int) -> int:
        """The colour only its owner may pop (Color Protector face up, held by another), or -1."""
        h = holder[PROTECTOR]
        return h if h >= 0 and h != who and up[PROTECTOR] else -1  # (a seat's colour is its number)

    def full(c: int, who: int) -> bool:
        bs = bub[c]
        if len(bs) < 2:
            return False
        g = guarded(who)
        if g < 0:
            k = len(bs)
            if k >= 3:
                return True
            return has(who, POPPER) and col[bs[0]] == who and col[bs[1]] == who
        k = own = 0
        for b in bs:
            cb = col[b]
            if cb != g:
                k += 1
                if cb == who:
                    own += 1
        return k >= 3 or (own >= 2 and has(who, POPPER))

    def is_node(c: int) -> bool:
        return node[c] > 0 or CARD_TYPE[card_of[c]] == UNIVERSE

    def send(b: int, c: int, d: int, dist: int, who: int) -> None:
        t = NB[d][c] if dist == 1 else NB2[d][c]
        bub[c].remove(b)
        touch(c)
        if t < 0:
            supply[who].append(b)
        else:
            bub[t].append(b)
            touch(t)

    # ---------------------------------------------------------------- the pop phase
    def take_ability(who: int) -> None:
        for _ in range(2 if has(who, NODE_MASTER) else 1):
            offers = market + [DRAW] if deck else list(market)
            if not offers:
                continue
            pick = choose(who, offers, T_OFFER)
            if pick == DRAW:
                got = deck.pop()
            else:
                market.remove(pick)
                got = pick
                if deck:
                    market.append(deck.pop())
            mine = abilities[who]
            mine.append(got)
            holder[got] = who
            cat = CATEGORY[got]
            for old in [a for a in mine if a != got and CATEGORY[a] == cat]:
                mine.remove(old)
                holder[old] = -1

    def burst(c: int, who: int) -> None:
        dirs = ARROW_DIRS[arrows[card_of[c]]]
        extended = False
        for d in dirs:
            g = guarded(who)
            pop = bub[c] if g < 0 else [b for b in bub[c] if col[b] != g]
            if pop:
                b = choose(who, distinct(pop), T_PIECE)
                dist = 1
                if not extended and has(who, PATH_EXT):
                    if choose(who, [False, True], T_BOOL):
                        dist = 2
                        extended = True
                send(b, c, d, dist, who)
        g = guarded(who)
        if has(who, STACKER):
            for b in [b for b in bub[c] if col[b] != g and col[b] == who]:
                d2 = choose(who, dirs + [None], T_DIR)
                if d2 is not None:
                    send(b, c, d2, 1, who)
        bs = bub[c]
        if g < 0:
            bub[c] = []
            rest = bs
        else:
            bub[c] = [b for b in bs if col[b] == g]
            rest = [b for b in bs if col[b] != g]
        for b in rest:  # move poppable(c, who) to who.supply
            touch(c)
            supply[who].append(b)

    def resolve_pops(who: int) -> None:
        first_seen: dict[int, int] = {}
        origin_of = [0]  # by firing id
        chains: list[int] = []  # origins, in order of first appearance
        length: dict[int, int] = {}
        scan = loops = 0
        while True:
            scan += 1
            loops += NCELLS  # (the scan's `for: c in cells(board)`: a lower bound of its charge)
            best = None
            for c in range(NCELLS):
                if len(bub[c]) >= 2 and full(c, who):
                    m = first_seen.setdefault(c, scan)
                    key = (m, stamp[c])
                    if best is None or key < best[0]:
                        best = (key, c)
                elif c in first_seen:
                    del first_seen[c]
            if best is None:
                break
            fid = len(origin_of)
            if fid > CASCADE_LIMIT:
                raise RunawayError("trigger 'bubble_pop' keeps firing (limit cascade)")
            # the loop limit: the firing's `before` comprehension and `pops +=` each go over the pops so far
            loops += 2 * fid
            if loops > LOOP_LIMIT:
                raise RunawayError("more than 2000000 loop iterations in one step (limit loop)")
            c = best[1]
            began = first_seen.pop(c)
            origin = fid if began == 1 else origin_of[began - 1]
            origin_of.append(origin)
            on_node = is_node(c) or (has(who, AMPLIFIER) and any(is_node(a) for a in ADJ[c]))
            if origin in length:
                length[origin] += 2 if on_node else 1
            else:
                chains.append(origin)
                length[origin] = 2 if on_node else 1
            if on_node:
                for p in players:
                    if has(p, HARMONY):
                        draw_bubbles(1, supply[p])
                take_ability(who)
            burst(c, who)
        for o in chains:
            k = length[o]
            score[who] += CHAIN_POINTS[k] if k < 6 else CHAIN_POINTS[5] + CHAIN_BEYOND * (k - 5)
            if k >= 4 and marker_pool[0] > 0:
                marker_pool[0] -= 1
                markers[who] += 1
            if k >= 3 and has(who, HARVESTER):
                draw_bubbles(2, supply[who])

    # ---------------------------------------------------------------- the end
    def ended() -> str | None:
        if max(markers) >= 5:
            return "five_markers"
        for p in players:
            if len(abilities[p]) >= 5 and len({CATEGORY[a] for a in abilities[p]}) >= 5:
                return "five_ability_types"
        if bag_emptied[0] or not bag:
            return "bag_empty"
        if not deck:
            return "deck_depleted"
        if max(score) >= 25:
            return "twenty_five_points"
        return None

    def outcome(end: str) -> tuple[str, list[int], list[int], int]:
        if end == "five_markers":
            winners = [p for p in players if markers[p] >= 5]
        elif end == "five_ability_types":
            winners = [p for p in players if len({CATEGORY[a] for a in abilities[p]}) >= 5]
        else:
            best = max((markers[p], score[p]) for p in players)
            winners = [p for p in players if (markers[p], score[p]) == best]
        return end, winners, list(score), counts[0]

    # ---------------------------------------------------------------- the actions' procedures
    def push_evenly(c: int, who: int) -> None:
        dirs = ARROW_DIRS[arrows[card_of[c]]]
        k = len(dirs)
        nb = len(bub[c])
        plan = [d for d in dirs for _ in range(nb // k)]
        spare = list(dirs)
        for _ in range(nb % k):
            extra = choose(who, spare, T_DIR)
            plan.append(extra)
            spare.remove(extra)
        for d in plan:
            send(choose(who, distinct(bub[c]), T_PIECE), c, d, 1, who)

    def space_station(who: int) -> None:
        for a in abilities[who]:
            up[a] = True
        draw_bubbles(5 if has(who, PLANNER) else 2, supply[who])
        todo = [a for a in abilities[who] if ACTIVE[a] and a != PLANNER]
        while todo:
            a = choose(who, todo, T_PIECE)
            todo.remove(a)
            if a == PLACER:
                place_bubbles(who)
            elif a == CONVERTER:
                convert_colors(who)
            elif a == ATTRACTOR:
                attract_bubbles(who)
            elif a == FOLDER:
                fold_space(who)
            elif a == ROTATOR:
                rotate_cards(who)
            elif a == SHIFTER:
                shift_node(who)
            elif a == DIRECTOR:
                direct_bubbles(who)

    def place_bubbles(who: int) -> None:
        sup = supply[who]
        placed = 0
        while placed < 2 and sup:
            b = choose(who, distinct(sup) + [None], T_PIECE)
            if b is None:
                return
            c = choose(who, ALL_CELLS, T_CELL)
            sup.remove(b)
            bub[c].append(b)
            touch(c)
            placed += 1

    def convert_colors(who: int) -> None:
        done = 0
        while done < 3:
            c = choose(who, [c for c in ALL_CELLS if any(col[b] != who for b in bub[c])] + [None], T_CELL)
            if c is None:
                return
            b = choose(who, distinct([b for b in bub[c] if col[b] != who]), T_PIECE)
            col[b] = who
            touch(c)
            done += 1

    def attract_bubbles(who: int) -> None:
        h = mcell[who]
        for a in ADJ[h]:
            pulled = 0
            while pulled < 2 and bub[a]:
                b = choose(who, distinct(bub[a]) + [None], T_PIECE)
                if b is None:
                    break
                bub[a].remove(b)
                touch(a)
                bub[h].append(b)
                touch(h)
                pulled += 1

    def fold_space(who: int) -> None:
        a = choose(who, ALL_CELLS + [None], T_CELL)
        if a is None:
            return
        b = choose(who, [c for c in ALL_CELLS if c != a], T_CELL)
        card_of[a], card_of[b] = card_of[b], card_of[a]
        touch(a)  # move ca to b at bottom
        touch(b)
        touch(b)  # move cb to a at bottom
        touch(a)
        ba, bb = bub[a], bub[b]
        for _ in ba:  # move ba to b
            touch(a)
            touch(b)
        for _ in bb:  # move bb to a
            touch(b)
            touch(a)
        bub[a], bub[b] = bb, ba

    def rotate_cards(who: int) -> None:
        turned: list[int] = []
        while len(turned) < 2:
            c = choose(who, [c for c in ALL_CELLS if c not in turned] + [None], T_CELL)
            if c is None:
                return
            way = choose(who, [1, -1], T_WAY)
            k = card_of[c]
            arrows[k] = CW[arrows[k]] if way == 1 else CCW[arrows[k]]
            touch(c)
            turned.append(c)

    def shift_node(who: int) -> None:
        f = choose(who, [c for c in ALL_CELLS if node[c]] + [None], T_CELL)
        if f is None:
            return
        t = choose(who, [t for t in KING2[f] if not node[t]], T_CELL)
        node[f] -= 1
        touch(f)
        node[t] += 1
        touch(t)

    def direct_bubbles(who: int) -> None:
        c = choose(who, [c for c in ALL_CELLS if bub[c]] + [None], T_CELL)
        if c is None:
            return
        d = choose(who, [0, 1, 2, 3], T_DIR)
        for b in list(bub[c]):
            send(b, c, d, 1, who)

    # ---------------------------------------------------------------- setup
    card_stack = list(CARDS)
    card_stack.remove(0)  # move the Universe to the centre
    card_of[CENTER] = 0
    touch(CENTER)
    rng.shuffle(card_stack)
    for c in range(NCELLS):
        if c != CENTER:
            card_of[c] = card_stack.pop()
            touch(c)
    node_pool = list(NODES)
    for c in NODE_CELLS:
        node_pool.pop()
        node[c] += 1
        touch(c)
    rng.shuffle(bag)
    for c in range(NCELLS):
        if CARD_TYPE[card_of[c]] == ROTATE:
            draw_bubbles(1, bub[c], c)
    rng.shuffle(deck)
    offer: list[list[int]] = []
    for p in players:
        draw_bubbles(5, supply[p])
        offer.append([deck.pop(), deck.pop()])
    for p in players:
        keep = choose(p, offer[p], T_PIECE)
        deck.append(offer[p][1] if keep == offer[p][0] else offer[p][0])
        offer[p] = [keep]
    for p in players:
        abilities[p].append(offer[p][0])
        holder[offer[p][0]] = p
    rng.shuffle(deck)
    for _ in range(3):
        market.append(deck.pop())
    taken: list[int] = []
    for p in players:
        start = choose(p, [c for c in START_EDGES if c not in taken], T_CELL)
        mcell[p] = start
        occ[start] += 1
        touch(start)
        taken.append(start)

    # ---------------------------------------------------------------- the turns
    cur = 0
    while True:
        if counts[0] >= MAX_STEPS:
            return "step_limit", [], list(score), counts[0]
        sup = supply[cur]
        # -- step recharge (optional)
        if not sup and any(up[a] for a in abilities[cur]):
            if choose(cur, ["recharge", None], T_ACTION) is not None:
                card = choose(cur, [a for a in abilities[cur] if up[a]], T_PIECE)
                up[card] = False
                draw_bubbles(5, sup)
                end = ended()
                if end:
                    return outcome(end)
        else:
            skipped()
        # -- step move: move_mari, offered when some way of moving completes
        here = mcell[cur]
        phaser, surfer = has(cur, PHASER), has(cur, SURFER)
        table = MOVE_STEPS[2 * has(cur, DRIFTER) + has(cur, EDGE_WALKER)]
        limit = 4 if phaser and not any(occ[a] for a in ADJ[here]) else 3

        def needs(c: int) -> bool:
            if surfer:
                for b in bub[c]:
                    if col[b] == cur:
                        return False
            return True

        def finishes(c: int, seen: int, moved: int, left: int) -> bool:
            """Whether the move, its Mari (hypothetically) on c, can still complete: it may stop here
            (`skip`, or the limit reached) when no other Mari is here, or step on to a space from which it
            completes."""
            if COPY_TRIALS:
                _copy = ([list(b) for b in bub], [list(x) for x in supply], list(bag), list(occ), list(stamp),
                         list(col), list(node), list(card_of), list(arrows), list(mcell), list(up), list(holder))
            if not occ[c]:
                return True
            if moved >= limit:
                return False
            for t in table[c]:
                if seen >> t & 1 or (occ[t] and not phaser):
                    continue
                need = needs(t)
                if need and not left:
                    continue
                if finishes(t, seen | 1 << t, moved + 1, left - need):
                    return True
            return False

        seen = 1 << here
        opts = []
        for t in table[here]:
            if occ[t] and not phaser:
                continue
            need = needs(t)
            if need and not sup:
                continue
            if finishes(t, seen | 1 << t, 1, len(sup) - need):
                opts.append(t)
        if opts:
            skipped()  # (the step menu: move_mari alone)
            moved = 0
            while True:
                t = choose(cur, opts, T_CELL)
                if t is None:
                    break
                occ[here] -= 1
                touch(here)
                occ[t] += 1
                mcell[cur] = t
                touch(t)
                if needs(t):
                    b = choose(cur, distinct(sup), T_PIECE)
                    sup.remove(b)
                    bub[t].append(b)
                    touch(t)
                here = t
                seen |= 1 << t
                moved += 1
                if moved >= limit:
                    break
                opts = []
                for t in table[here]:
                    if seen >> t & 1 or (occ[t] and not phaser):
                        continue
                    need = needs(t)
                    if need and not sup:
                        continue
                    if finishes(t, seen | 1 << t, moved + 1, len(sup) - need):
                        opts.append(t)
                if occ[here] == 1:
                    opts.append(None)
            end = ended()
            if end:
                return outcome(end)
        else:
            skipped()
        # -- step action (optional)
        kind = CARD_TYPE[card_of[here]]
        acts = []
        if kind == WARP or kind == UNIVERSE:
            acts.append("space_warp")
        if kind == GRAVITY or kind == UNIVERSE:
            targets = [c for c in range(NCELLS) if bub[c] and any(bub[a] for a in ADJ[c])]
            if targets:
                acts.append("gravity_pull")
        if kind == ROTATE or kind == UNIVERSE:
            spots = [c for c in range(NCELLS) if bub[c]]
            if spots:
                acts.append("rotate_push")
        if kind == STATION or kind == UNIVERSE:
            acts.append("space_station")
        acts.append(None)
        act = choose(cur, acts, T_ACTION)
        if act is not None:
            if act == "space_warp":
                if sup:
                    b = choose(cur, distinct(sup) + [None], T_PIECE)
                    if b is not None:
                        c = choose(cur, ALL_CELLS, T_CELL)
                        sup.remove(b)
                        bub[c].append(b)
                        touch(c)
                dest = choose(cur, [c for c in ALL_CELLS if occ[c] == (c == here)], T_CELL)
                occ[here] -= 1
                touch(here)
                occ[dest] += 1
                mcell[cur] = dest
                touch(dest)
            elif act == "gravity_pull":
                target = choose(cur, targets, T_CELL)
                source = choose(cur, [a for a in ADJ[target] if bub[a]], T_CELL)
                moving = bub[source]
                bub[source] = []
                for b in moving:
                    touch(source)
                    bub[target].append(b)
                    touch(target)
            elif act == "rotate_push":
                target = choose(cur, spots, T_CELL)
                way = choose(cur, [1, -1], T_WAY)
                k = card_of[target]
                arrows[k] = CW[arrows[k]] if way == 1 else CCW[arrows[k]]
                touch(target)
                push_evenly(target, cur)
            else:
                space_station(cur)
            end = ended()
            if end:
                return outcome(end)
        # -- turn end: the Bubble Pop phase, the supply limit
        resolve_pops(cur)
        for i in range(n):
            p = (cur + i) % n
            ps = supply[p]
            while len(ps) > 5:
                b = choose(p, distinct(ps), T_PIECE)
                ps.remove(b)
                bag.append(b)
        end = ended()
        if end:
            return outcome(end)
        cur = (cur + 1) % n
