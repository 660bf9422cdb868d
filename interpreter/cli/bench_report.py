"""`orrery bench --report` and `benchmarks/run`: every figure of issue 17, from one run, with its target.

For each bundled game: random playouts per second on both engines and with the hand-written reference
in the checkout's `benchmarks/` folder (where one exists), cascade resolutions per second, MCTS
iterations per second from the start position, memory (bench_memory) and the thinking bot's slowest
decision against its budget (bench_think); then one game at a full table, normalised by a hand-written
reference measured in the same run, and the cost of a chain of decisions inside one effect
(benchmarks/chain_cost.py).  Which games have references, and every target, are data in the checkout's
benchmarks/targets.py: the engine names no game.  Ratios are taken within the run: the machine's speed moves
more between runs than the ratios do, so each ratio is the median of the ratios within a round (a round's
figures measured one right after the other, the order reversed every other round), reported with its spread.
The hand-written references and the chain game sit in the checkout, outside the installed package: without
them their figures are left out (reported as missing).  Rates are per second of this process's CPU time
(time.process_time, cli/bench.py and benchmarks/timing.py alike): on a shared machine a process that waits
for a core is not charged for it.
"""

from __future__ import annotations

import gc
import importlib
import os
import platform
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from .bench import bench_cascades, bench_lean, bench_playouts, bench_sampled, capture_positions
from .bench_start import start_times
from .bench_memory import memory_report
from .bench_think import think_times
from ..engine.game import Game, load_game
from ..engine.gamefiles import bundled_games
from ..bots.mcts import MctsBot

CHAIN_K = 128  # decisions in the long chain (benchmarks/chain_cost.py)


def table() -> Any:
    """The games' references and targets (benchmarks/targets.py in a checkout), or None: the engine names
    no game, so outside a checkout the report measures every bundled game and judges no target."""
    return benchmark_module("targets")


Progress = Callable[[str], None]


@dataclass
class Settings:
    """How long each figure runs; the defaults take a few minutes on a 2-core machine."""

    seconds: float = 2.0  # per playout, cascade, chain and MCTS figure
    rounds: int = 1  # playout and cascade figures: the median of this many rounds
    games: list[str] = field(default_factory=list)  # default: every bundled game
    think_budget: float = 0.2  # seconds a decision of the thinking bot
    think_decisions: int = 20  # decisions of one bot-against-bot game per game
    memory_seconds: float = 2.0  # the MCTS search whose tree is measured (playouts of 1 decision: more nodes)
    clones: int = 200
    cascade_positions: int = 30
    chain_k: int = CHAIN_K
    start_rounds: int = 3  # runs of each start-up figure (0: none)


# ------------------------------------------------------------------ the checkout's benchmarks/ folder


def checkout_root() -> Path | None:
    """The checkout holding `benchmarks/`, or None: beside the engine (an editable install), else the
    working folder or a folder on the import path (the README's plain install, run in the checkout)."""
    here = Path(__file__).resolve().parents[2]  # interpreter/cli/ -> the checkout
    for root in [here, Path.cwd(), *(Path(p) for p in sys.path if p)]:
        if (root / "benchmarks" / "targets.py").is_file():
            return root.resolve()
    return None


def benchmark_module(name: str) -> ModuleType | None:
    """`benchmarks.<name>` from the checkout, or None outside one."""
    root = checkout_root()
    if root is None:
        return None
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return importlib.import_module(f"benchmarks.{name}")


# ------------------------------------------------------------------ figures


def rounds_of(runs: dict[str, Callable[[int], float]], rounds: int) -> dict[str, list[float]]:
    """Each `run(round)` once a round, the rounds interleaved so that a busy spell of the machine slows every
    figure alike; every other round in the reverse order (no run always follows the same one), and the garbage
    of the last run collected before each (no run is charged for another's)."""
    seen: dict[str, list[float]] = {k: [] for k in runs}
    for r in range(rounds):
        for k in (list(runs) if r % 2 == 0 else list(runs)[::-1]):
            gc.collect()
            seen[k].append(round(runs[k](r), 2))
    return seen


def medians(seen: dict[str, list[float]]) -> dict[str, float]:
    """The median of each figure's rounds."""
    return {k: round(statistics.median(v), 2) for k, v in seen.items()}


def paired(seen: dict[str, list[float]], fast: str, slow: str, digits: int) -> tuple[float, list[float]]:
    """A ratio taken within each round (`fast` over the `slow` of the same round), its median and spread (the
    lowest and highest round): the machine's speed moves between rounds more than a ratio within one does."""
    ratios = [a / b for a, b in zip(seen[fast], seen[slow])]
    return round(statistics.median(ratios), digits), [round(min(ratios), digits), round(max(ratios), digits)]


def with_ratios(out: dict[str, Any], seen: dict[str, list[float]], pairs: dict[str, tuple[str, str, int]]) -> None:
    """Each ratio of `pairs` (name: fast, slow, digits) whose figures were measured, into `out`, with its
    spread over the rounds in out["spread"]."""
    spread = out.setdefault("spread", {})
    for name, (fast, slow, digits) in pairs.items():
        if fast in seen and slow in seen:
            out[name], spread[name] = paired(seen, fast, slow, digits)


RATIOS = {"compiled_vs_interpreted": ("compiled", "interpreted", 3), "lean_vs_compiled": ("lean", "compiled", 3),
          "compiled_vs_reference": ("compiled", "reference", 4), "lean_vs_reference": ("lean", "reference", 4)}


def playout_figures(name: str, st: Settings) -> dict[str, Any]:
    """Random playouts/s on both engines and with the hand-written reference, with their ratios (each the median
    of the rounds' own ratios)."""
    engines = {mode: load_game(name, mode=mode) for mode in ("interpreted", "compiled")}
    # (in this order, each ratio's two figures measured one right after the other)
    runs = {mode: (lambda r, g=g: bench_playouts(g, st.seconds, seed=1 + 1000 * r)["playouts_per_s"])
            for mode, g in engines.items()}
    t = table()
    ref = benchmark_module(t.REFERENCES[name]) if t and name in t.REFERENCES else None
    if ref is not None:
        runs["reference"] = lambda r: ref.bench(st.seconds, 1 + r)
    runs["lean"] = lambda r: bench_lean(engines["compiled"], st.seconds, seed=1 + 1000 * r)["playouts_per_s"]
    seen = rounds_of(runs, st.rounds)
    out: dict[str, Any] = {"playouts_per_s": medians(seen)}
    with_ratios(out, seen, RATIOS)
    if t and name in t.LUDII:
        out["compiled_vs_ludii_quoted"] = round(out["playouts_per_s"]["compiled"] / t.LUDII[name], 4)
    if engines["compiled"].rules.state_triggers:
        out["cascades"] = cascade_figures(name, engines, st)
    return out


def cascade_figures(name: str, engines: dict[str, Game], st: Settings) -> dict[str, Any]:
    """Cascade resolutions/s on captured positions, both engines and the hand-written reference if any."""
    # (captured on the fast path: both engines reach the same states, and bench_cascades puts each on the
    # engine it measures)
    positions = capture_positions(engines["compiled"], games=60, seed=5, limit=st.cascade_positions)
    if not positions:
        return {"positions": 0}
    runs = {mode: (lambda r, g=g: bench_cascades(g, positions, st.seconds)["resolutions_per_s"])
            for mode, g in engines.items()}
    t = table()
    ref = benchmark_module(t.CASCADE_REFERENCES[name]) if t and name in t.CASCADE_REFERENCES else None
    converted = [p for p in (ref.convert(s) for s in positions) if p is not None] if ref else []
    if converted:
        runs["reference"] = lambda r: ref.bench(converted, st.seconds)
    seen = rounds_of(runs, st.rounds)
    out: dict[str, Any] = {"positions": len(positions), "resolutions_per_s": medians(seen)}
    with_ratios(out, seen, {k: RATIOS[k] for k in ("compiled_vs_interpreted", "compiled_vs_reference")})
    if converted:
        out["reference_positions"] = len(converted)
    return out


def mcts_rate(game: Game, seconds: float, seed: int = 1) -> dict[str, Any]:
    """MCTS iterations per second from the start position: searches of 1, 2, 4, ... iterations (a fresh bot
    each) until one takes at least half of `seconds`; the last one's iterations over its CPU time (an absolute
    target on a shared machine: the process's own time, not the wall clock)."""
    gs = game.new_initial_state(seed=seed)
    n = 1
    while True:
        bot = MctsBot(seed, iterations=n, reuse=False)
        start = time.process_time()
        bot.choose(gs)
        elapsed = time.process_time() - start
        if elapsed >= seconds / 2 or bot.stats.get("proven"):
            break
        n *= 2
    done = bot.stats.get("iterations", 0)
    return {"iterations": done, "seconds": round(elapsed, 3), "iterations_per_s": round(done / elapsed, 1),
            "proven": bool(bot.stats.get("proven"))}


def full_table(st: Settings, spec: dict[str, Any], normaliser_rate: float | None) -> dict[str, Any]:
    """A game at a full table (targets.FULL_TABLE): random games/s, exact and sampled (as the search bot
    plays), and those rates scaled to the reference rate the target assumes."""
    game = load_game(spec["game"], mode="compiled")
    res = bench_playouts(game, st.seconds, players=spec["players"], seed=1)
    sampled = bench_sampled(game, st.seconds, players=spec["players"], seed=1)
    out = {"game": spec["game"], "players": spec["players"], "games_per_s": res["playouts_per_s"],
           "games": res["playouts"], "sampled_games_per_s": sampled["playouts_per_s"],
           "sampled_games": sampled["playouts"], "normaliser": spec["normaliser"],
           "normaliser_assumed_per_s": spec["normaliser_rate"]}
    if normaliser_rate:
        scale = spec["normaliser_rate"] / normaliser_rate
        out["normalised_games_per_s"] = round(res["playouts_per_s"] * scale, 3)
        out["sampled_normalised_games_per_s"] = round(sampled["playouts_per_s"] * scale, 3)
        out["normaliser_per_s"] = normaliser_rate
    return out


def chain_figures(st: Settings) -> dict[str, Any] | None:
    """Cost per decision of a chain of k decisions inside one effect over a chain of 1 (benchmarks/chain_cost.py)."""
    chain = benchmark_module("chain_cost")
    if chain is None:
        return None
    out: dict[str, Any] = {"k": st.chain_k}
    ks = (1, st.chain_k)
    with tempfile.TemporaryDirectory(prefix="orrery-chain-") as tmp:
        for mode in ("compiled", "interpreted"):
            games = {k: chain.load_chain(k, mode, Path(tmp)) for k in ks}
            for k in ks:  # warm up: the first game of a spec fills its caches
                chain.measure(games[k], k, 0.0, 1)
            runs = {str(k): (lambda r, k=k: chain.measure(games[k], k, st.seconds, 1 + r)["per_decision_us"])
                    for k in ks}
            seen = rounds_of(runs, st.rounds)
            us = list(medians(seen).values())
            ratio, spread = paired(seen, str(st.chain_k), "1", 2)
            out[mode] = {"per_decision_us_k1": us[0], f"per_decision_us_k{st.chain_k}": us[1],
                         "ratio": ratio, "spread": spread}
    return out


# ------------------------------------------------------------------ the report


def game_figures(name: str, st: Settings, say: Progress) -> dict[str, Any]:
    """Every per-game figure of one bundled game."""
    say(f"{name}: playouts")
    row: dict[str, Any] = {"game": name, **playout_figures(name, st)}
    game = load_game(name, mode="compiled")
    say(f"{name}: mcts")
    row["mcts"] = mcts_rate(game, st.seconds)
    say(f"{name}: memory")
    row["memory"] = memory_report(game, clones=st.clones, iterations=None, seconds=st.memory_seconds, playout=1)
    say(f"{name}: thinking bot")
    row["think"] = think_times(game, st.think_budget, st.think_decisions)
    row["source"] = source_counts(game)
    return row


def source_counts(game: Game) -> dict[str, dict[str, int]]:
    """Class checks, general helper calls and env lookups of the game's generated source, typed (as it runs) and
    untyped (the general generator alone: compiler/sourcecounts.py)."""
    from ..compiler.codegen import compile_rules
    from ..compiler.sourcecounts import counts
    from ..core.rules import Rules

    untyped = compile_rules(Rules(game.spec)).source
    return {"typed": counts(game.rules.compiled.source + game.flow_source),
            "untyped": counts(untyped + game.flow_source)}


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"python": platform.python_version(), "machine": platform.machine(), "system": platform.system(),
            "cpus": os.cpu_count(), "load_average_1min": load}


def run_report(st: Settings | None = None, say: Progress | None = None) -> dict[str, Any]:
    """Measure every figure of issue 17 in one run and check each against its target."""
    st = st or Settings()
    say = say or (lambda _msg: None)
    t = table()
    order = t.GAME_ORDER if t else []
    names = st.games or [g for g in order if g in bundled_games()] + [g for g in bundled_games() if g not in order]
    started = time.perf_counter()
    games = [game_figures(n, st, say) for n in names]
    report: dict[str, Any] = {"settings": asdict(st), "machine": machine(), "games": games, "full_table": None}
    if t is not None:
        spec = t.FULL_TABLE
        norm = spec["normaliser"]
        rate = next((g["playouts_per_s"].get("reference") for g in games if g["game"] == norm), None)
        if rate is None and norm in t.REFERENCES:
            rate = round(benchmark_module(t.REFERENCES[norm]).bench(st.seconds, 1), 1)
        say(f"{spec['game']}, {spec['players']} players")
        report["full_table"] = full_table(st, spec, rate)
    say("decision chain")
    report["chain"] = chain_figures(st)
    report["start"] = None
    if t is not None and st.start_rounds and t.START["game"] in names:
        say(f"starting {t.START['game']} in a new process")
        report["start"] = start_times(t.START["game"], t.START["players"], st.start_rounds)
    report["targets"] = targets(report)
    report["machine"]["load_average_end"] = machine()["load_average_1min"]
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


# ------------------------------------------------------------------ targets


def target(what: str, figure: float | None, goal: float, at_most: bool = False,
           spread: list[float] | None = None) -> dict[str, Any]:
    """One target: the figure, the goal, and whether it is met (None: not measured); a ratio taken in rounds
    also has its spread (the lowest and highest round)."""
    met = None if figure is None else (figure <= goal if at_most else figure >= goal)
    out = {"target": what, "figure": figure, "goal": f"{'<=' if at_most else '>='} {goal:g}", "met": met}
    if spread is not None:
        out["spread"] = spread
    return out


def targets(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Issues 17's and 34's targets (benchmarks/targets.py), in order, each with the figure of this run."""
    t = table()
    if t is None:
        return []
    rows = {g["game"]: g for g in report["games"]}
    def ratio(n: str, key: str, what: str, goal: float) -> dict[str, Any]:
        return target(f"{n}: {what}", rows[n].get(key), goal, spread=rows[n].get("spread", {}).get(key))

    out = [ratio(n, "lean_vs_reference", "lean playouts / hand-written", goal)
           for n, goal in t.VS_REFERENCE.items() if n in rows]
    out += [ratio(n, "compiled_vs_reference", "public API playouts / hand-written", goal * t.API_SHARE)
            for n, goal in t.VS_REFERENCE.items() if n in rows]
    out += [ratio(n, "compiled_vs_interpreted", "compiled / interpreted playouts", t.VS_INTERPRETER) for n in rows]
    full = report["full_table"] or {}
    where = f"{full.get('game')} {full.get('players')} players"
    norm = (f"games/s normalised to a {full.get('normaliser_assumed_per_s', 0):,.0f}/s hand-written "
            f"{full.get('normaliser')}")
    out.append(target(f"{where}: {norm}", full.get("normalised_games_per_s"), t.FULL_TABLE["games_per_s"]))
    out.append(target(f"{where}, sampled playouts (as the search bot plays them): {norm}",
                      full.get("sampled_normalised_games_per_s"), t.FULL_TABLE["games_per_s"]))
    chain = report["chain"] or {}
    for mode in ("compiled", "interpreted"):
        out.append(target(f"chain of {chain.get('k', CHAIN_K)} decisions, per decision / a chain of 1 ({mode})",
                          chain.get(mode, {}).get("ratio"), t.CHAIN_MAX, at_most=True,
                          spread=chain.get(mode, {}).get("spread")))
    out += [target(f"{n}: MCTS iterations per CPU second from the start", rows[n]["mcts"]["iterations_per_s"], goal)
            for n, goal in t.MCTS_TARGETS.items() if n in rows]
    out += [target(f"{n}: thinking bot's slowest decision / its budget", g["think"]["max_over_budget"], 1.0,
                   at_most=True) for n, g in rows.items()]
    start = report.get("start") or {}
    where = f"{t.START['game']} {t.START['players']} players"
    out.append(target(f"{where}: CPU seconds from a new process to the first decision, disk cache warm",
                      start.get("first_decision_warm_s"), t.START["warm_seconds"], at_most=True))
    out.append(target(f"{where}: CPU seconds to orrery play's first screen, disk cache warm",
                      start.get("first_screen_warm_s"), t.START["warm_seconds"], at_most=True))
    out.append(target(f"{where}: CPU seconds to orrery play's first screen, disk cache cold",
                      start.get("first_screen_cold_s"), t.START["cold_seconds"], at_most=True))
    return out
