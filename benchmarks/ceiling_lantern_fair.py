#!/usr/bin/env python3
"""A measured ceiling for Lantern Fair's compiled / interpreted ratio (issue 34): its generated code by hand.

Issue 34 asks compiled / interpreted >= 10 of random playouts; Lantern Fair measures about 1.0-1.4.  A profile
(docs/performance.md, session 9, machinery) puts its generated code at ~14 % of a compiled playout, the rest
being the engine's machinery both engines run.  This measures it on written-out code: Lantern Fair's generated
module and flow written by hand as a typed generator at its very best would emit them
(ceiling_lantern_fair_code.py: expressions and blocks; _frames.py: the steps of frames that may ask;
_flow.py: the flow), run by the engine in place of the generated code,
in this process only:

- `install()` wraps `compiler/link.link` (the one place generated source becomes running code) as
  compiler/codegen.py and engine/flowcompiled.py call it: for Lantern Fair's module and flow (found by their
  constants' spans naming games/lantern-fair/rules.yaml), after the generated source has run in its namespace,
  each hand-written function is run in that same namespace under the name of its generated counterpart, found
  by kind and spec position (`e` + `# line L col C`), and the `LF_*` constants they read are bound, each found
  among the generated constants by what it is.  The engine's tables (functions by node, block, action and event
  steps, the flow frame's step) are read from the namespace after the link returns, so they hold these;
- `load(mode)` loads the game with the interpreter, the generated code or the hand-written code;
- `check(...)` plays seeded random games both ways through the public API: the same legal actions at every
  decision and the same digest after every step and at the end;
- `main` measures, in one process, interleaved rounds of `cli/bench.bench_playouts` (the report's playouts) on
  the three engines, and plays N seeded games for instruction counts (cachegrind, minus a 0-game run).

    nice -n 5 .venv/bin/python benchmarks/ceiling_lantern_fair.py rates [--seconds S] [--rounds R] [--players P]
        [--modes interpreted generated hand hand_price]
    .venv/bin/python benchmarks/ceiling_lantern_fair.py check [--mode hand|hand_price] [--games N] [--players P]
    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/ceiling_lantern_fair.py games MODE N [--players P]   (MODE: interpreted,
        generated, hand, hand_price; N = 0 for the base)
    .venv/bin/python benchmarks/ceiling_lantern_fair.py profile [--mode generated|hand] [--games N] [--players P]
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import random
import re
import statistics
import sys
import time
from pathlib import Path
from types import FunctionType
from typing import Any, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import ceiling_lantern_fair_code as CODE  # noqa: E402
from benchmarks import ceiling_lantern_fair_flow as FLOWCODE  # noqa: E402
from benchmarks import ceiling_lantern_fair_frames as FRAMES  # noqa: E402
from orrery.interpreter.compiler import codegen  # noqa: E402
from orrery.interpreter.compiler import link as linkmod  # noqa: E402
from orrery.interpreter.engine import flowcompiled  # noqa: E402
from orrery.interpreter.core.values import ZoneRef  # noqa: E402
from orrery.interpreter.core.valueops import _SMALL as SMALL  # noqa: E402

GAME = "lantern-fair"
MODES = ("interpreted", "generated", "hand", "hand_price")
HAND_FILES = frozenset({CODE.__file__, FRAMES.__file__, FLOWCODE.__file__})
MODULE = CODE.MODULE + FRAMES.FRAMES  # (the generated module's functions a playout runs, by hand)
_SPEC = "lantern-fair/rules.yaml"
_HEADER = re.compile(r"^def ([a-z]+)(\d+)\((?:it, env|self, pos)\):  # line (\d+) col (\d+)", re.M)
_POSITION = re.compile(r"# line (\d+) col (\d+)")


# ------------------------------------------------------------------ linking the hand-written code


def _consts(ns: dict[str, Any]) -> list[Any]:
    return [v for k, v in ns.items() if k[0] == "K" and k[1:].isdigit()]


def _one(values: list[Any], what: str, pred: Any) -> Any:
    """The one object among the generated constants that `pred` accepts (several constants may hold it)."""
    found = {id(v): v for v in values if _safe(pred, v)}
    if len(found) != 1:
        raise RuntimeError(f"the generated constants hold {len(found)} {what}, not one: the generated code "
                           f"changed; check benchmarks/ceiling_lantern_fair_code.py against it")
    return next(iter(found.values()))


def _safe(pred: Any, v: Any) -> bool:
    try:
        return bool(pred(v))
    except (AttributeError, TypeError):
        return False


def _named(cls: str) -> Any:
    return lambda v: type(v).__name__ == cls


def _at(cls: str, line: int, col: int | None = None, **attrs: Any) -> Any:
    """A constant of class `cls` whose span starts at line (and col), with these attribute values."""
    def pred(v: Any) -> bool:
        span = v if cls == "Span" else v.span
        return (type(v).__name__ == cls and _SPEC in str(span.file) and span.line == line
                and (col is None or span.col == col) and all(getattr(v, k) == x for k, x in attrs.items()))
    return pred


def _is_lantern_fair(ns: dict[str, Any]) -> bool:
    return any(type(v).__name__ == "Span" and str(v.file).endswith(_SPEC) for v in _consts(ns))


def _module_constants(ns: dict[str, Any]) -> dict[str, Any]:
    k = _consts(ns)
    buy = _one(k, "buy actions", lambda v: _named("ActionInfo")(v) and v.name == "buy")
    cheer = _one(k, "cheer actions", lambda v: _named("ActionInfo")(v) and v.name == "cheer")
    table = _one(k, "bid_steps tables", lambda v: _named("TableRef")(v) and v.name == "bid_steps")
    if not (isinstance(table.values, list) and table.decl.above == "last"):
        raise RuntimeError("bid_steps is no longer a list of rows with `above: last`")
    out = {
        "LF_MARKET": ZoneRef("market"), "LF_DECK": ZoneRef("deck"), "LF_DISCARD": ZoneRef("discard"),
        "LF_TRICKS": tuple(ZoneRef("tricks", i) for i in range(3)),
        "LF_STALLS": tuple(ZoneRef("stalls", i) for i in range(3)),
        "LF_PRICE_SPAN": _one(k, "price spans", _at("Span", 183, 20)),
        "LF_WHO_SPAN": _one(k, "who spans", _at("Span", 217, 14)),
        "LF_BID_TABLE": table, "LF_BID_ROWS": table.values,
        "LF_BID_SPAN": _one(k, "bid spans", _at("Span", 159, 25)),
        "LF_FAME_TO": _one(k, "fame_to bodies", _at("Assign", 123)),
        "LF_COINS_TO": _one(k, "coins_to bodies", _at("Assign", 127)),
        "LF_BUY_FAME_COINS": _one(k, "buy_fame coins", _at("Assign", 132)),
        "LF_BUY_FAME_FAME": _one(k, "buy_fame fame", _at("Assign", 133)),
        "LF_PAY_BID": _one(k, "bid payments", _at("Assign", 163)),
        "LF_BUY_GAIN_FAME": _one(k, "buy's fame", _at("Assign", 188)),
        "LF_BUSK_ASSIGN": _one(k, "busk's coins", _at("Assign", 194)),
        "LF_CHEER_ASSIGN": _one(k, "cheer's fame", _at("Assign", 210)),
        "LF_CALL_SILK": _one(k, "Silk Loom calls", _at("CallProc", 37, name="fame_to")),
        "LF_CALL_TEA": _one(k, "Tea House calls", _at("CallProc", 44, name="coins_to")),
        "LF_CALL_EATER_COINS": _one(k, "Fire Eater coins", _at("CallProc", 90, name="coins_to")),
        "LF_CALL_EATER_FAME": _one(k, "Fire Eater fame", _at("CallProc", 90, name="fame_to")),
        "LF_CALL_CART": _one(k, "Spice Cart calls", _at("CallProc", 58, name="coins_to")),
        "LF_CALL_BUY_FAME": _one(k, "Fireworks' buy_fame", _at("CallProc", 76, name="buy_fame")),
        "LF_CALL_FIREWORKS": _one(k, "Fireworks' fame_to", _at("CallProc", 75, name="fame_to")),
        "LF_CALL_JUGGLER": _one(k, "Juggler calls", _at("CallProc", 83, name="coins_to")),
        "LF_CALL_REFILL_ROUND": _one(k, "round_end refills", _at("CallProc", 175, name="refill")),
        "LF_CALL_REFILL_SETUP": _one(k, "setup refills", _at("CallProc", 151, name="refill")),
        "LF_REFILL_SPAN": _one(k, "refill loop spans", _at("Span", 145, 7)),
        "LF_EMIT_BOUGHT": _one(k, "bought events", lambda v: _named("Emit")(v) and v.event == "bought"),
        "LF_USE_PLAY": _one(k, "use t.play", lambda v: _named("Use")(v) and v.part == "play"),
        "LF_COMMIT_BID": _one(k, "bid commits", lambda v: _named("Commit")(v) and v.var == "bid"),
        "LF_SMALL": SMALL, "LF_MAX": max, "LF_MAX_ERRORS": (TypeError, ValueError),
        "LF_MAXIMUM": _one(k, "max built-ins", lambda v: _named("function")(v) and v.__name__ == "maximum"),
        "LF_MAX_SPAN": _one(k, "max spans", _at("Span", 160, 19)),
        "LF_HIGH_SPAN": _one(k, "high spans", _at("Span", 161, 23)),
        "LF_TEXT": next(v for v in k if _named("function")(v) and v.__name__ == "text"),  # (equal closures)
        "LF_TEXT_SPAN": _one(k, "text(top) spans", _at("Span", 165, 59)),
        "LF_SAY_BUYS": _one(k, "buys lines", lambda v: _at("Binary", 185)(v) and _named("Binary")(v.left)),
        "LF_SAY_BUYS_SPAN": _one(k, "buys spans", _at("Span", 185, 11)),
        "LF_SAY_PLAYS": _one(k, "plays lines", lambda v: _at("Binary", 202)(v) and _named("Binary")(v.left)),
        "LF_SAY_PLAYS_SPAN": _one(k, "plays spans", _at("Span", 202, 11)),
        "LF_SAY_TAKES": _one(k, "takes lines", lambda v: _at("Binary", 165)(v) and _named("Binary")(v.left)),
        "LF_SAY_TAKES_SPAN": _one(k, "takes spans", _at("Span", 165, 15)),
        "LF_SAY_KEEPS": _one(k, "keeps lines", lambda v: _at("Binary", 167)(v) and _named("Binary")(v.left)),
        "LF_SAY_KEEPS_SPAN": _one(k, "keeps spans", _at("Span", 167, 46)),
        "LF_SAY_BUSKS": _one(k, "busks lines", _at("Binary", 195)),
        "LF_SAY_BUSKS_SPAN": _one(k, "busks spans", _at("Span", 195, 11)),
        "LF_SAY_CHEERS": _one(k, "cheers lines", _at("Binary", 211)),
        "LF_SAY_CHEERS_SPAN": _one(k, "cheers spans", _at("Span", 211, 11)),
        "LF_BUY": buy, "LF_BUY_EFFECT": buy.effect, "LF_CHEER": cheer, "LF_CHEER_LIMIT": cheer.limit,
        "LF_BUY_C_SPAN": _one(k, "buy's c spans", _at("Span", 182, 10)),
        "LF_BUY_C_SITE": _one(k, "buy's c sites", lambda v: v == ("buy", 0)),
        "LF_TRICK_T_SPAN": _one(k, "play_trick's t spans", _at("Span", 200, 10)),
        "LF_TRICK_T_SITE": _one(k, "play_trick's t sites", lambda v: v == ("play_trick", 0)),
        "LF_TRICK_EFFECT": _one(k, "play_trick actions",
                                lambda v: _named("ActionInfo")(v) and v.name == "play_trick").effect,
    }
    if cheer.limit is None or buy.effect is None or out["LF_TRICK_EFFECT"] is None:
        raise RuntimeError("cheer has no limit or buy/play_trick no effect: the spec changed")
    return out


def _flow_constants(ns: dict[str, Any]) -> dict[str, Any]:
    k = _consts(ns)
    phases = {v.index: v for v in k if _named("PhaseInfo")(v)}
    if sorted(phases) != [0, 1] or phases[0].name != "bidding" or phases[1].name != "market":
        raise RuntimeError("Lantern Fair's phases are no longer bidding and market")
    return {"LF_PHASE0": phases[0], "LF_PHASE1": phases[1], "LF_MARKET": ZoneRef("market"),
            "LF_DECK": ZoneRef("deck"), "LF_STEP_ACTIONS": frozenset({"buy", "busk", "play_trick"}),
            "LF_STEP_SPAN": _one(k, "step spans", _at("Span", 169, 7))}


def _rebind(fn: FunctionType, ns: dict[str, Any], name: str) -> FunctionType:
    """`fn` run in the generated namespace `ns` (its globals), named as its generated counterpart."""
    new = FunctionType(fn.__code__, ns, name, fn.__defaults__, fn.__closure__)
    new.__qualname__ = name
    return new


def _position(fn: FunctionType) -> tuple[str, int, int]:
    """(kind, line, col) of a hand-written function: its name's letters, its first line's `# line L col C`."""
    first = inspect.getsourcelines(fn)[0][0]
    m = _POSITION.search(first)
    if m is None:
        raise RuntimeError(f"{fn.__name__} names no spec position")
    return re.match(r"[a-z]+", fn.__name__).group(0), int(m.group(1)), int(m.group(2))


def install_module(source: str, ns: dict[str, Any], price_read: bool = False) -> list[str]:
    """Put the hand-written module functions in the generated module's namespace; their generated names.
    `price_read`: buy's cost reads the price quantity written in (e13_read) instead of through QTY."""
    generated: dict[tuple[str, int, int], list[str]] = {}
    for kind, num, line, col in _HEADER.findall(source):
        generated.setdefault((kind, int(line), int(col)), []).append(kind + num)
    ns.update(_module_constants(ns))
    for fn in CODE.MODULE_HELPERS:
        ns[fn.__name__] = _rebind(fn, ns, fn.__name__)
    names = []
    for fn in MODULE:
        if price_read and fn is CODE.e13:
            fn = CODE.e13_read
        names_at = generated.get(_position(fn), [])
        if len(names_at) != 1:
            raise RuntimeError(f"{fn.__name__}: {len(names_at)} generated functions at {_position(fn)}")
        ns[names_at[0]] = _rebind(fn, ns, names_at[0])
        names.append(names_at[0])
    return names


def install_flow(ns: dict[str, Any]) -> list[str]:
    """Put the hand-written flow in the generated flow's namespace (the stage tables too)."""
    ns.update(_flow_constants(ns))
    for fn in FLOWCODE.FLOW_HELPERS:
        ns[fn.__name__] = _rebind(fn, ns, fn.__name__)
    names = []
    for fn in FLOWCODE.FLOW_FUNCTIONS:
        if fn.__name__ not in ns:
            raise RuntimeError(f"the generated flow has no {fn.__name__}")
        ns[fn.__name__] = _rebind(fn, ns, fn.__name__)
        names.append(fn.__name__)
    for table in ("TURN_START", "STEP", "TURN_END", "PHASE_START", "PHASE_END"):
        ns[table] = tuple(ns[f.__name__] for f in ns[table])
    return names


class Installed:
    """What `install` replaced: the generated names, and the generated functions' code objects."""

    def __init__(self) -> None:
        self.module: list[str] = []
        self.flow: list[str] = []
        self.replaced_code: set[Any] = set()  # the generated code objects no longer called


@contextlib.contextmanager
def install(price_read: bool = False) -> Iterator[Installed]:
    """While active, Lantern Fair's compiled module and flow are linked with the hand-written code (with the
    price quantity's read written in too: `price_read`)."""
    done = Installed()
    original = linkmod.link

    def link(source: str, tag: str, namespace: dict[str, Any]) -> dict[str, Any]:
        ns = original(source, tag, namespace)
        if not _is_lantern_fair(ns):
            return ns
        if tag == "compiled" and len(_HEADER.findall(source)) >= len(MODULE):  # (not a node compiled late)
            before = {n: ns[n].__code__ for n in ns if re.fullmatch(r"(e|b|st|act)\d+", n)}
            done.module = install_module(source, ns, price_read)
            done.replaced_code |= {before[n] for n in done.module}
        elif tag == "flow":
            before = {f.__name__: ns[f.__name__].__code__ for f in FLOWCODE.FLOW_FUNCTIONS}
            done.flow = install_flow(ns)
            done.replaced_code |= set(before.values())
        return ns

    codegen.link = flowcompiled.link = link
    try:
        yield done
    finally:
        codegen.link, flowcompiled.link = original, original


def load(mode: str) -> Any:
    """Lantern Fair on the interpreter, the generated code, the hand-written code, or that with the price
    quantity's read written in (hand_price)."""
    from orrery.interpreter.engine.game import load_game

    if mode == "interpreted":
        return load_game(GAME, mode="interpreted")
    if mode == "generated":
        return load_game(GAME, mode="compiled")
    with install(price_read=mode == "hand_price") as done:
        game = load_game(GAME, mode="compiled")
    if not done.module or not done.flow:
        raise RuntimeError("the hand-written code was not linked (module or flow not found)")
    game.hand_installed = done
    check_spec(game)
    return game


def check_spec(game: Any) -> None:
    """What the hand-written code takes as known from the spec: no capacity on the zones it moves pieces into,
    the tracks coins and fame with `min: 0` and no max, deck a deck (a draw takes its top card)."""
    r = game.rules
    for z in ("market", "deck", "discard", "tricks", "stalls"):
        if r.zones[z].decl.capacity is not None:
            raise RuntimeError(f"zone {z} has a capacity now: the hand-written moves skip its check")
    if r.zones["deck"].type == "bag":
        raise RuntimeError("deck is a bag now: a draw picks at random")
    for t in ("coins", "fame"):
        if r.tracks[t].min != 0 or r.tracks[t].max is not None:
            raise RuntimeError(f"track {t} bounds changed: the hand-written writes clamp at 0 only")
    if r.max_players > 3:
        raise RuntimeError("more than 3 seats: the per-seat zone tables have 3")


# ------------------------------------------------------------------ the same games


def same_games(a: Any, b: Any, seeds: range, players: int) -> int:
    """Play seeded random games on two loaded games through the public API, checking after every step that
    both offer the same legal actions (and labels) and reach the same digest; the decisions made."""
    decisions = 0
    for seed in seeds:
        ga, gb = a.new_initial_state(players=players, seed=seed), b.new_initial_state(players=players, seed=seed)
        rng = random.Random(seed)
        while True:
            where = f"seed {seed}, {players} players, decision {decisions}"
            if ga.digest() != gb.digest():
                raise AssertionError(f"digests differ at {where}")
            if ga.is_terminal() or gb.is_terminal():
                if not (ga.is_terminal() and gb.is_terminal()):
                    raise AssertionError(f"one game ended, the other did not, at {where}")
                if ga.returns() != gb.returns():
                    raise AssertionError(f"returns differ at {where}")
                break
            la, lb = ga.legal_actions(), gb.legal_actions()
            if la != lb or [o.label for o in ga.legal_options()] != [o.label for o in gb.legal_options()]:
                raise AssertionError(f"legal actions differ at {where}: {la} / {lb}")
            if ga.current_player() != gb.current_player():
                raise AssertionError(f"players to move differ at {where}")
            index = la[rng.randrange(len(la))]
            ga.apply(index)
            gb.apply(index)
            decisions += 1
    return decisions


def same_narration(a: Any, b: Any, seed: int, players: int) -> list[str]:
    """A narrated seeded random game on both: the same lines (the narration code runs only when narrating)."""
    lines = []
    for g in (a, b):
        gs = g.new_initial_state(players=players, seed=seed, narrate=True)
        rng = random.Random(seed)
        while not gs.is_terminal():
            la = gs.legal_actions()
            gs.apply(la[rng.randrange(len(la))])
        lines.append(list(gs.narration))
    if lines[0] != lines[1]:
        raise AssertionError(f"narrations differ (seed {seed}, {players} players)")
    return lines[0]


def code_calls(run: Any) -> dict[str, int]:
    """Calls made while `run()` runs, by where their code lives: 'hand' (this ceiling's files), 'generated'
    (any `<orrery-...>` source), 'other'."""
    import cProfile
    import pstats

    prof = cProfile.Profile()
    prof.runcall(run)
    out = {"hand": 0, "generated": 0, "other": 0}
    for (file, _, _), (_, calls, _, _, _) in pstats.Stats(prof).stats.items():
        kind = "hand" if file in HAND_FILES else "generated" if file.startswith("<orrery-") else "other"
        out[kind] += calls
    return out


def play(game: Any, games: int, players: int, seed: int = 1) -> None:
    """`games` random playouts as cli/bench.bench_playouts plays them (RandomBots, play_game)."""
    from orrery.interpreter.cli.bench import bench_playouts

    if games:
        bench_playouts(game, 0.0, players=players, seed=seed, min_playouts=games)


# ------------------------------------------------------------------ measuring


def rates(seconds: float, rounds: int, players: int, modes: tuple[str, ...] = MODES) -> dict[str, Any]:
    """Interleaved rounds of the report's playouts on the engines `modes` (the first one interpreted): games per
    CPU second, and each one's ratio to the interpreter (median, lowest and highest of the rounds' ratios)."""
    from orrery.interpreter.cli.bench import bench_playouts

    games = {mode: load(mode) for mode in modes}
    for g in games.values():  # warm up: the first game of a Game fills its caches
        play(g, 3, players)
    seen: dict[str, list[float]] = {m: [] for m in modes}
    for r in range(rounds):
        for mode in modes:
            got = bench_playouts(games[mode], seconds, players=players, seed=1 + 1000 * r)
            seen[mode].append(got["playouts_per_s"])
    out: dict[str, Any] = {"players": players, "rounds": rounds, "seconds": seconds, "per_s": seen,
                           "median": {m: round(statistics.median(v), 1) for m, v in seen.items()}}
    for fast in modes[1:]:
        rs = [f / i for f, i in zip(seen[fast], seen[modes[0]])]
        out[f"{fast}_vs_{modes[0]}"] = (round(statistics.median(rs), 3), round(min(rs), 3), round(max(rs), 3))
    return out


def profile_share(mode: str, games: int, players: int) -> dict[str, Any]:
    """CPU profile of `games` playouts on `mode` (generated or hand): the self time of the game's own code (the
    hand-written files, or the generated `<orrery-...>` sources) over all the time profiled."""
    import cProfile
    import pstats

    g = load(mode)
    play(g, 3, players)
    prof = cProfile.Profile(time.process_time)
    prof.runcall(play, g, games, players)
    total = hand = generated = 0.0
    for (file, _, _), (_, _, tt, _, _) in pstats.Stats(prof).stats.items():
        total += tt
        hand += tt if file in HAND_FILES else 0.0
        generated += tt if file.startswith("<orrery-") else 0.0
    return {"mode": mode, "games": games, "players": players, "profiled_s": round(total, 3),
            "hand_share": round(hand / total, 4), "generated_share": round(generated / total, 4)}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    r = sub.add_parser("rates")
    r.add_argument("--seconds", type=float, default=1.0)
    r.add_argument("--rounds", type=int, default=5)
    r.add_argument("--players", type=int, default=2)
    r.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    c = sub.add_parser("check")
    c.add_argument("--mode", choices=MODES[2:], default="hand")
    c.add_argument("--games", type=int, default=200)
    c.add_argument("--players", type=int, default=2)
    gm = sub.add_parser("games")
    gm.add_argument("mode", choices=MODES)
    gm.add_argument("n", type=int)
    gm.add_argument("--players", type=int, default=2)
    pr = sub.add_parser("profile")
    pr.add_argument("--mode", choices=MODES[1:], default="hand")  # (generated: the generated code's share)
    pr.add_argument("--games", type=int, default=300)
    pr.add_argument("--players", type=int, default=2)
    args = p.parse_args(argv)
    if args.what == "rates":
        print(rates(args.seconds, args.rounds, args.players, tuple(args.modes)))
    elif args.what == "check":
        gen, hand = load("generated"), load(args.mode)
        n = same_games(gen, hand, range(1, args.games + 1), args.players)
        same_narration(gen, hand, 1, args.players)
        calls = code_calls(lambda: play(hand, 20, args.players))
        print(f"{args.games} seeded {args.players}-player games, {n} decisions: the same legal actions, labels and "
              f"digests; calls in 20 playouts: {calls}")
        if calls["generated"] or not calls["hand"]:
            raise SystemExit("generated code ran on the hand-written engine")
    elif args.what == "games":
        g = load(args.mode)
        play(g, args.n, args.players)
    else:
        print(profile_share(args.mode, args.games, args.players))


if __name__ == "__main__":
    main()
