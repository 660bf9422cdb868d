"""The text of `orrery bench --report`: the figures of bench_report.run_report as tables, then the targets."""

from __future__ import annotations

from typing import Any


def _num(x: Any, digits: int = 2) -> str:
    """A figure for a table: thousands separated, '-' when missing."""
    if x is None:
        return "-"
    if isinstance(x, float) and abs(x) < 100:
        return f"{x:,.{digits}f}"
    return f"{x:,.0f}"


def header(r: dict[str, Any]) -> list[str]:
    """The command line's settings and the machine."""
    st, m = r["settings"], r["machine"]
    load = ("" if m["load_average_1min"] is None else
            f", load average {m['load_average_1min']:.2f} at the start, {m['load_average_end']:.2f} at the end")
    return [f"# orrery bench --report --seconds {st['seconds']:g} --rounds {st['rounds']} "
            f"--think {st['think_budget']:g}  (Python {m['python']}, {m['cpus']} cpus{load}; {r['seconds']:.0f} s)"]


def playouts(r: dict[str, Any]) -> list[str]:
    """Random playouts per second: both engines through the API, the lean path, and hand-written."""
    out = ["", "Random playouts per second (API: the public GameState API, as simulate --bots random; lean: "
               "engine/lean.py):",
           f"{'game':20} {'interpreted':>11} {'API':>9} {'x interp':>9} {'lean':>9} {'hand-written':>13} "
           f"{'API x hand':>10} {'lean x hand':>11} {'x Ludii*':>9}"]
    for g in r["games"]:
        m = g["playouts_per_s"]
        out.append(f"{g['game']:20} {_num(m['interpreted']):>11} {_num(m['compiled']):>9} "
                   f"{_num(g['compiled_vs_interpreted']):>9} {_num(m.get('lean')):>9} {_num(m.get('reference')):>13} "
                   f"{_num(g.get('compiled_vs_reference'), 4):>10} {_num(g.get('lean_vs_reference'), 4):>11} "
                   f"{_num(g.get('compiled_vs_ludii_quoted'), 4):>9}")
    out.append(f"(figures: the median of {r['settings']['rounds']} rounds, the rounds interleaved; each ratio the "
               "median of the ratios within a round, its spread over the rounds with the targets)")
    return out


def sources(r: dict[str, Any]) -> list[str]:
    """The generated source's class checks, general helper calls and env lookups, untyped -> typed."""
    out = ["", "Generated source (module and flow), untyped -> typed (compiler/sourcecounts.py):",
           f"{'game':20} {'class checks':>14} {'helper calls':>14} {'env lookups':>14}"]
    for g in r["games"]:
        c = g.get("source")
        if c:
            u, t = c["untyped"], c["typed"]
            out.append(f"{g['game']:20} " + " ".join(f"{u[k]:>6} -> {t[k]:<5}" for k in
                                                     ("class_checks", "helper_calls", "env_lookups")))
    return out


def start(r: dict[str, Any]) -> list[str]:
    """Start-up from a new process (cli/bench_start.py)."""
    s = r.get("start")
    if not s:
        return []
    return ["", f"Starting {s['game']} ({s['players']} players) in a new process, median of {s['rounds']}, CPU seconds "
                f"(wall clock): first decision {_secs(s, 'first_decision_warm')} warm, "
                f"{_secs(s, 'first_decision_cold')} cold; orrery play's first screen {_secs(s, 'first_screen_warm')} "
                f"warm, {_secs(s, 'first_screen_cold')} cold (warm/cold: the disk cache of specs and compiled code)"]


def _secs(s: dict[str, Any], key: str) -> str:
    """A start-up figure: CPU seconds, and the wall clock's in brackets where measured."""
    wall = s.get(f"{key}_wall_s")
    return f"{s[f'{key}_s']:.3f} s" + ("" if wall is None else f" ({wall:.3f})")


def cascades(r: dict[str, Any]) -> list[str]:
    """Cascade resolutions per second on captured positions."""
    out = []
    for g in r["games"]:
        c = g.get("cascades")
        if c and c["positions"]:
            m = c["resolutions_per_s"]
            out.append(f"cascades {g['game']}: {c['positions']} positions, interpreted {_num(m['interpreted'])}/s, "
                       f"compiled {_num(m['compiled'])}/s (x{_num(c['compiled_vs_interpreted'])})"
                       + (f", hand-written {_num(m['reference'])}/s (x{_num(c['compiled_vs_reference'], 4)})"
                          if "reference" in m else ""))
    return [""] + out if out else []


def singles(r: dict[str, Any]) -> list[str]:
    """The game at a full table and the decision chain."""
    b = r["full_table"]
    out = [""]
    if b is not None:
        out += [f"{b['game']}, {b['players']} players: {_num(b['games_per_s'])} random games/s ({b['games']} games)"
                + (f"; x {_num(b['normaliser_assumed_per_s'])} / {_num(b['normaliser_per_s'])} (hand-written "
                   f"{b['normaliser']}, this run) = {_num(b['normalised_games_per_s'])}"
                   if "normalised_games_per_s" in b else ""),
                f"  sampled playouts (as the search bot plays them): {_num(b['sampled_games_per_s'])} games/s "
                f"({b['sampled_games']} games)" + (f", normalised {_num(b['sampled_normalised_games_per_s'])}"
                                                    if "sampled_normalised_games_per_s" in b else "")]
    ch = r["chain"]
    if ch is None:
        out.append("decision chain: benchmarks/chain_cost.py not found (not a checkout)")
        return out
    k = ch["k"]
    for mode in ("compiled", "interpreted"):
        c = ch[mode]
        out.append(f"chain of {k} decisions in one effect, {mode}: {_num(c[f'per_decision_us_k{k}'], 1)} us a "
                   f"decision against {_num(c['per_decision_us_k1'], 1)} us for a chain of 1: x{_num(c['ratio'])}")
    return out


def search(r: dict[str, Any]) -> list[str]:
    """MCTS iterations per second, memory, and the thinking bot's decision times."""
    out = ["", "Search and memory (compiled engine):",
           f"{'game':20} {'MCTS it/s*':>10} {'B/position':>11} {'B/GameState':>12} {'MB/10k nodes':>13} "
           f"{'peak MB/10k':>12} {'nodes':>6} {'think max s':>12} {'/ budget':>9} {'over':>5}"]
    for g in r["games"]:
        mem, t = g["memory"], g["think"]
        out.append(f"{g['game']:20} {_num(g['mcts']['iterations_per_s'], 1):>10} "
                   f"{_num(mem['clone_bytes']['position']):>11} {_num(mem['clone_bytes']['game_state']):>12} "
                   f"{_num(mem['mcts']['bytes_per_10k_nodes'] / 1e6, 1):>13} "
                   f"{_num(mem['mcts']['peak_bytes_per_10k_nodes'] / 1e6, 1):>12} {mem['mcts']['nodes']:>6} "
                   f"{t['max_s']:>12.3f} {t['max_over_budget']:>9.2f} {t['over_budget']:>2}/{t['decisions']:<2}")
    out.append("MCTS it/s*: iterations per CPU second (the process's own time). "
               "B/position: bytes per clone of a mid-game position (state + frames); B/GameState: with its history; "
               "MB/10k nodes: memory an MCTS tree holds (peak: during the search), per 10,000 nodes; think: the "
               "thinking bot's slowest decision (first decisions of a bot-against-bot game), over its budget")
    return out


def targets(r: dict[str, Any]) -> list[str]:
    """Each target of issues 17 and 34, met or missed."""
    out = ["", "Targets (issues 17 and 34):"]
    for t in r["targets"]:
        state = {True: "met   ", False: "MISSED", None: "n/a   "}[t["met"]]
        fig = "-" if t["figure"] is None else f"{t['figure']:,.4g}"
        if t.get("spread") and r["settings"]["rounds"] > 1:
            fig += f" (rounds {t['spread'][0]:,.4g}-{t['spread'][1]:,.4g})"
        out.append(f"  {state} {t['target']}: {fig} (target {t['goal']})")
    met = sum(1 for t in r["targets"] if t["met"])
    out.append(f"  {met} of {len(r['targets'])} met")
    return out


def render(r: dict[str, Any]) -> str:
    """The whole report as text."""
    lines = header(r) + playouts(r) + cascades(r) + singles(r) + search(r) + sources(r) + start(r) + targets(r)
    lines.append("* Ludii: the figures quoted in issue 6, measured on another 2-core machine.")
    return "\n".join(lines) + "\n"
