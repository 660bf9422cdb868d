"""Lantern Fair's generated code written by hand: what a typed generator at its very best would emit.

Every function of games/lantern-fair/rules.yaml's generated module and flow that a playout runs, as a typed
generator would write it: typed locals (a parameter known to be a card is a piece id's attributes at once, a
player's track a dict item), native operators, no class check and no generic helper where the type is known, no
memo or depth bookkeeping that cannot pay (the end conditions' memo, the effects' depth count: nothing here
recurses), constants resolved at link time (the zones, the per-seat zones, the table's rows).  Kept: every guard
the language keeps where it can trigger: the loop limit charged per `while` iteration, per procedure call and
once per comprehension (item by item when the charge would pass the limit, so it stops where the reference
stops, with its message); numbers past the small-integer bound go to the reference's own checks; the tracks'
`min: 0`; a table lookup outside its rows goes to the table's own lookup (its error).

The engine's machinery is not part of the generated code and is called as the generated code calls it: the
driver and its frames (`FR_*`, `RUN_BLOCK`, `PARAMETER_MENUS`), quantities (`QTY`), costs (`FR_PAY`), events
and windows (`FR_START_Emit`), abilities (`FR_START_Use`), narration helpers (only when narrating).

The functions keep the generated names (e13, st185, act204, FLOW...): `ceiling_lantern_fair.install` runs them
in the generated namespaces (so the engine's tables pick them up by name) after finding each one's generated
counterpart by its kind and spec position (`# line L col C`), and binds the `LF_*` constants they read, each
found among the generated constants by what it is (a zone, an action, an AST node at a spec position), never by
its number.  Each function's comment gives the spec line it was generated from.
"""

from __future__ import annotations

# The names below that are not defined here (QTY, PLAYER, FR_ASK, LF_MARKET, ...) are the generated
# namespace's: these functions run with it as their globals (ceiling_lantern_fair.install).
# ruff: noqa: F821
# LF_SMALL is valueops._SMALL: a sum inside (-LF_SMALL, LF_SMALL) needs no check.



# ---------------------------------------------------------------- expressions the engine evaluates

def e13(it, env):  # line 183 col 20: buy's cost, price(current, c)
    return QTY(it, "price", LF_PRICE_SPAN, (PLAYER(it.s.cursor.current), env["c"]), ())


def e13_read(it, env):  # line 183 col 20: buy's cost, price(current, c) with the quantity's read written in
    # (the `hand_price` variant: not generated code today but the quantities' machinery: base c.price; the
    # modifiers of the cards in the reader's own stalls, the only ones whose `when` (p == owner) can hold:
    # Guild Seal adds -1, Night Bazaar halves spice; layers set, add, scale; rounded down; min 0)
    s = it.s
    attrs = s.attrs
    card = attrs[env["c"].id]
    value = card["price"]
    half = False
    stalls = s.places.get(LF_STALLS[s.cursor.current])
    if stalls:
        for pid in stalls:
            name = attrs[pid]["name"]
            if name == "Guild Seal":
                value -= 1
            elif name == "Night Bazaar" and card["ware"] == "spice":
                half = True
    if half:
        value //= 2
    return value if value > 0 else 0


def e14(it, env):  # line 182 col 17: buy's parameter c, from market
    return LF_MARKET


def e15(it, env):  # line 208 col 19: cheer's cost, 1
    return 1


def e16(it, env):  # line 200 col 17: play_trick's parameter t, from current.tricks
    return LF_TRICKS[it.s.cursor.current]


def e18(it, env):  # line 37 col 35: Silk Loom, event.player == owner and event.card.ware == "silk"
    ev = env["event"]
    return ev["player"] == env["owner"] and it.s.attrs[ev["card"].id]["ware"] == "silk"


def e21(it, env):  # line 44 col 35: Tea House, event.player != owner and event.card.ware == "tea"
    ev = env["event"]
    return ev["player"] != env["owner"] and it.s.attrs[ev["card"].id]["ware"] == "tea"


def e24(it, env):  # line 51 col 56: Guild Seal's add, -1
    return -1


def e25(it, env):  # line 51 col 38: Guild Seal's when, p == owner
    return env["p"] == env["owner"]


def e26(it, env):  # line 65 col 38: Night Bazaar's when, p == owner and c.ware == "spice"
    return env["p"] == env["owner"] and it.s.attrs[env["c"].id]["ware"] == "spice"


def e29(it, env):  # line 76 col 32: Fireworks empowered if, owner.coins >= 2
    return it.s.pvars[env["owner"]]["coins"] >= 2


def e30(it, env):  # line 91 col 14: a card's label, it.name
    return it.s.attrs[env["it"].id]["name"]


def e31(it, env):  # line 92 col 14: cards start in deck
    return LF_DECK


def e32(it, env):  # line 100 col 20: coins start 5
    return 5


def e33(it, env):  # line 101 col 19: fame start 0
    return 0


def e34(it, env):  # line 224 col 12: four_rounds, round > 4
    return it.s.cursor.round > 4


def e35(it, env):  # line 227 col 12: sold_out, size(market) == 0 and size(deck) == 0
    places = it.s.places
    return not places.get(LF_MARKET) and not places.get(LF_DECK)


def e38(it, env):  # line 154 col 17: first_player, lantern
    return it.s.vars.get("lantern")


def e39(it, env):  # line 170 col 14: the market phase starts with lantern
    return it.s.vars.get("lantern")


def e75(it, env):  # line 116 col 11: price's base, c.price
    return it.s.attrs[env["c"].id]["price"]


def e78(it, env):  # line 117 col 10: price's min, 0
    return 0


def e79(it, env):  # line 240 col 8: ranking, p.fame
    return it.s.pvars[env["p"]]["fame"]


def e80(it, env):  # line 240 col 16: ranking, p.coins
    return it.s.pvars[env["p"]]["coins"]


def e81(it, env):  # line 231 col 10: score, p.fame
    return it.s.pvars[env["p"]]["fame"]


def e82(it, env):  # line 104 col 35: lantern's start, players[0] (a game has at least 2 players)
    return it.s.players[0]


def e84(it, env):  # line 217 col 11: applause's who, [q for q in players where q != event.player]
    players = it.s.players
    n = it.loops + LEN(players)  # one tick an item, charged at once
    if n > it.limits.loop:
        for _ in players:
            TK(it, LF_WHO_SPAN)
    it.loops = n
    buyer = env["event"]["player"]
    return [q for q in players if q != buyer]


def e100(it, env):  # line 190 col 25: bought's card, c
    return env["c"]


def e106(it, env):  # line 204 col 11: use t.play, t
    return env["t"]


def e136(it, env):  # line 159 col 25: the bid menu, bid_steps[p.coins]
    coins = it.s.pvars[env["p"]]["coins"]
    rows = LF_BID_ROWS
    if 0 <= coins < LEN(rows):
        return rows[coins]
    if coins >= 0:  # above: last
        return rows[-1]
    return LF_BID_TABLE.lookup(coins, LF_BID_SPAN)  # (its error)


def e137(it, env):  # line 159 col 51: the bid's prompt
    return "Your secret bid for the lantern"


def e146(it, env):  # line 146 col 14: refill draws 1
    return 1


def e147(it, env):  # line 146 col 21: from deck
    return LF_DECK


def e148(it, env):  # line 146 col 29: to market
    return LF_MARKET


def e149(it, env):  # line 150 col 11: setup shuffles deck
    return LF_DECK


# ---------------------------------------------------------------- blocks that cannot ask

def LF_track_add(it, who, name, n, node):
    """`who.NAME += n` of a track with `min: 0` and no max (coins, fame): the reference's checks past LF_SMALL."""
    d = it.s.pvars[who]
    r = d[name] + n
    if not -LF_SMALL < r < LF_SMALL:
        r = CMB(it, node, d[name], n)
    d[name] = r if r >= 0 else 0
    it.s.version += 1


def LF_enter(it, call):
    """A procedure or effect call starts: one loop tick (the depth count cannot pay: nothing here recurses)."""
    it.loops += 1
    if it.loops > it.limits.loop:
        it.loops -= 1
        TK(it, call.span)


def b163(it, env):  # line 37 col 93: Silk Loom, fame_to(owner, 1)
    LF_enter(it, LF_CALL_SILK)
    LF_track_add(it, env["owner"], "fame", 1, LF_FAME_TO)


def b164(it, env):  # line 44 col 92: Tea House, coins_to(owner, 1)
    LF_enter(it, LF_CALL_TEA)
    LF_track_add(it, env["owner"], "coins", 1, LF_COINS_TO)


def b165(it, env):  # line 90 col 21: Fire Eater, coins_to(owner, 1) then fame_to(owner, 1)
    owner = env["owner"]
    LF_enter(it, LF_CALL_EATER_COINS)
    LF_track_add(it, owner, "coins", 1, LF_COINS_TO)
    LF_enter(it, LF_CALL_EATER_FAME)
    LF_track_add(it, owner, "fame", 1, LF_FAME_TO)


def b166(it, env):  # line 58 col 35: Spice Cart, coins_to(owner, 1)
    LF_enter(it, LF_CALL_CART)
    LF_track_add(it, env["owner"], "coins", 1, LF_COINS_TO)


def b167(it, env):  # line 76 col 55: Fireworks empowered, buy_fame(owner, 2, 2)
    owner = env["owner"]
    LF_enter(it, LF_CALL_BUY_FAME)
    LF_track_add(it, owner, "coins", -2, LF_BUY_FAME_COINS)
    LF_track_add(it, owner, "fame", 2, LF_BUY_FAME_FAME)


def b168(it, env):  # line 75 col 21: Fireworks, fame_to(owner, 1)
    LF_enter(it, LF_CALL_FIREWORKS)
    LF_track_add(it, env["owner"], "fame", 1, LF_FAME_TO)


def b169(it, env):  # line 83 col 21: Juggler, coins_to(owner, 2)
    LF_enter(it, LF_CALL_JUGGLER)
    LF_track_add(it, env["owner"], "coins", 2, LF_COINS_TO)


def b170(it, env):  # line 132 col 7: buy_fame's body (the calls above write it in; kept for a call from elsewhere)
    who = env["who"]
    LF_track_add(it, who, "coins", -env["cost"], LF_BUY_FAME_COINS)
    LF_track_add(it, who, "fame", env["n"], LF_BUY_FAME_FAME)


def b171(it, env):  # line 127 col 13: coins_to's body
    LF_track_add(it, env["who"], "coins", env["n"], LF_COINS_TO)


def b172(it, env):  # line 123 col 13: fame_to's body
    LF_track_add(it, env["who"], "fame", env["n"], LF_FAME_TO)


def LF_refill(it):
    """refill's body: while size(market) < 4 and size(deck) > 0 { draw 1 from deck to market } (neither zone
    has a capacity; deck is a deck: its top card)."""
    s = it.s
    places = s.places
    limit = it.limits.loop
    while True:
        market = places.get(LF_MARKET)
        if market is not None and LEN(market) >= 4:
            return
        deck = places.get(LF_DECK)
        if not deck:
            return
        it.loops += 1
        if it.loops > limit:
            it.loops -= 1
            TK(it, LF_REFILL_SPAN)
        s.move(deck[-1], LF_MARKET)


def b180(it, env):  # line 175 col 5: round_end, call refill()
    LF_enter(it, LF_CALL_REFILL_ROUND)
    LF_refill(it)


def b181(it, env):  # line 145 col 7: refill's body
    LF_refill(it)


def b184(it, env):  # line 150 col 3: setup, shuffle deck then call refill()
    s = it.s
    if s.places.get(LF_DECK):  # (_shuffle: an empty deck is left as it is)
        s.rng.shuffle(s.writable(LF_DECK))
        s._touch(LF_DECK)
    LF_enter(it, LF_CALL_REFILL_SETUP)
    LF_refill(it)


MODULE = [e13, e14, e15, e16, e18, e21, e24, e25, e26, e29, e30, e31, e32, e33, e34, e35, e38, e39, e75, e78,
          e79, e80, e81, e82, e84, e100, e106, e136, e137, e146, e147, e148, e149,
          b163, b164, b165, b166, b167, b168, b169, b170, b171, b172, b180, b181, b184]
MODULE_HELPERS = [LF_track_add, LF_enter, LF_refill]
