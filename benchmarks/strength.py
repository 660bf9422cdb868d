#!/usr/bin/env python3
"""The strength table of docs/bots.md (issue 35 item 5): the default bot against random and greedy play.

    benchmarks/strength.py [--games 100] [--think 0.25] [--opponents random,greedy] [--seed 1]
                           [--jobs 1] [--out results.jsonl] [GAME ...]
    benchmarks/strength.py --table results.jsonl

The default bot is the one `orrery play` seats: the search bot (`mcts`) thinking `--think` seconds a TURN,
shared among the turn's decisions as at the table (bots/thinking.py's TurnBudget).  Here the budget is
CPU seconds of this process (time.process_time), not wall seconds, so that a machine shared with other work
(or a process paused for a while) plays the same strength: a stated budget, smaller than the table's
2 s when CPU is scarce.

Each game is played at two players (the fewest it allows when it takes no two: a solo game is then the
bot alone, and its row compares the bot's wins with those of random and greedy play alone).  For each
opponent (`random`, the one-ply `greedy` bot of bots/greedy.py) the default bot plays `--games` games in
every seat, the other seats the opponent's; game i of seat s uses seed `--seed + 1000 * s + i`.
Every game played is one JSON line (appended to `--out` as it ends, so a long run can be stopped and
resumed game by game: games already in the file are skipped); `--table FILE` prints the markdown table
from such a file: wins, draws (shared results included) and losses of the default bot, its win rate with a
Wilson 95 % interval, decisions and CPU seconds a game (every seat), and the default bot's CPU seconds a turn
(a turn: the decisions a seat makes in a row, what a person at the table waits for), mean and most.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from orrery.interpreter.bots.factory import apply_choice, make_bot  # noqa: E402
from orrery.interpreter.bots.mcts import MctsBot  # noqa: E402
from orrery.interpreter.bots.simulate import bot_seed  # noqa: E402
from orrery.interpreter.bots.thinking import TurnBudget  # noqa: E402
from orrery.interpreter.core.values import serialize  # noqa: E402
from orrery.interpreter.engine.game import load_game  # noqa: E402
from orrery.interpreter.engine.gamefiles import bundled_games  # noqa: E402

DEFAULT = "mcts"  # the bot under test: orrery play's default seat
MAX_DECISIONS = 20_000  # a game still going after this many decisions is recorded as unfinished


def table_players(name: str) -> int:
    """Two players where the game allows it, else its fewest."""
    rules = load_game(name).rules
    return 2 if rules.min_players <= 2 <= rules.max_players else rules.min_players


def play(name: str, seats: list[str], seed: int, think: float) -> dict[str, Any]:
    """One game: `seats` are bot names, `DEFAULT` the thinking search bot; the result as a JSON-able dict."""
    game = load_game(name)
    gs = game.new_initial_state(players=len(seats), seed=seed)
    bots: list[Any] = []
    budgets: dict[int, TurnBudget] = {}
    for i, kind in enumerate(seats):
        if kind == DEFAULT:
            bots.append(MctsBot(bot_seed(seed, i), seconds=think, clock=time.process_time))
            budgets[i] = TurnBudget(think, clock=time.process_time)
        else:
            bots.append(make_bot(kind, bot_seed(seed, i)))
    cpu = [0.0] * len(seats)
    turns = [0] * len(seats)  # a turn: the decisions one seat makes in a row (what a person waits for)
    turn_max = [0.0] * len(seats)  # the most CPU one turn of the seat took
    decisions, last, this_turn = 0, None, 0.0
    while not gs.is_terminal() and decisions < MAX_DECISIONS:
        p = gs.current_player()
        if p != last:
            turns[p] += 1
            last, this_turn = p, 0.0
        start = time.process_time()
        if p in budgets:  # (the move counted against the turn, as at the table)
            budgets[p].think(gs, p, bots[p], lambda c: apply_choice(gs, c))
        else:
            apply_choice(gs, bots[p].choose(gs))
        spent = time.process_time() - start
        cpu[p] += spent
        this_turn += spent
        turn_max[p] = max(turn_max[p], this_turn)
        decisions += 1
    out = gs.outcome()
    return {"game": name, "seats": seats, "seed": seed, "think": think, "decisions": decisions,
            "end": out.end if out else None, "winners": list(out.winners) if out else [],
            "scores": serialize(out.scores) if out else None, "returns": gs.returns(), "cpu": [round(c, 3) for c in cpu],
            "turns": turns, "turn_max": [round(c, 3) for c in turn_max]}


def tasks(name: str, opponents: list[str], games: int, seed: int) -> Iterator[tuple[str, list[str], int, str]]:
    """(game, seats, seed, opponent) of every game of one game's rows, game i of every row and seat before game
    i + 1 of any (a run stopped early leaves its rows and seats balanced)."""
    n = table_players(name)
    for i in range(games):
        if n == 1:  # alone: the default bot, then each opponent alone for comparison
            for kind in [DEFAULT, *opponents]:
                yield name, [kind], seed + i, kind
            continue
        for opponent in opponents:
            for seat in range(n):
                seats = [opponent] * n
                seats[seat] = DEFAULT
                yield name, seats, seed + 1000 * seat + i, opponent


def interleaved(names: list[str], opponents: list[str], games: int, seed: int) -> list[tuple[str, list[str], int, str]]:
    """Every game's tasks, round-robin across the games (each row grows at its own pace, none waits for the
    others to finish)."""
    streams = [list(tasks(name, opponents, games, seed)) for name in names]
    out: list[tuple[str, list[str], int, str]] = []
    for i in range(max((len(s) for s in streams), default=0)):
        out.extend(s[i] for s in streams if i < len(s))
    return out


def _key(record: dict[str, Any]) -> tuple:
    return record["game"], tuple(record["seats"]), record["seed"], record["think"]


def _run(task: tuple[str, list[str], int, str], think: float) -> dict[str, Any]:
    name, seats, seed, opponent = task
    return {**play(name, seats, seed, think), "opponent": opponent}


def run(names: list[str], opponents: list[str], games: int, seed: int, think: float, jobs: int,
        out: Path | None) -> list[dict[str, Any]]:
    """Play every game not yet in `out` (appending each as it ends); every record, old and new."""
    done = read(out) if out is not None and out.exists() else []
    seen = {_key(r) for r in done}
    todo = [t for t in interleaved(names, opponents, games, seed) if (t[0], tuple(t[1]), t[2], think) not in seen]
    records = list(done)

    def keep(record: dict[str, Any]) -> None:
        records.append(record)
        if out is not None:
            with out.open("a") as fh:
                fh.write(json.dumps(record) + "\n")
        print(f"{record['game']} {','.join(record['seats'])} seed {record['seed']}: winners {record['winners']} "
              f"({record['end']}, {record['decisions']} decisions, cpu {sum(record['cpu']):.1f} s)", file=sys.stderr,
              flush=True)

    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            for record in pool.map(_run, todo, [think] * len(todo)):
                keep(record)
    else:
        for t in todo:
            keep(_run(t, think))
    return records


def read(path: Path) -> list[dict[str, Any]]:
    """The records of a results file (one JSON object a line)."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson 95 % interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def score(record: dict[str, Any], kind: str) -> str:
    """'win', 'draw' (a shared win, a draw, or unfinished) or 'loss' for the seat(s) of `kind`."""
    mine = [i for i, s in enumerate(record["seats"]) if s == kind]
    winners = record["winners"]
    if not winners or record["end"] is None:
        return "draw"
    if all(w in mine for w in winners):
        return "win"
    return "draw" if any(w in mine for w in winners) else "loss"


def rows(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (game, think, opponent): the default bot's results, or each bot's alone in a solo game."""
    groups: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        groups[(r["game"], r["think"], r["opponent"])].append(r)
    out = []
    for (game, think, opponent), rs in sorted(groups.items()):
        solo = len(rs[0]["seats"]) == 1
        kind = opponent if solo else DEFAULT
        tally = {"win": 0, "draw": 0, "loss": 0}
        for r in rs:
            tally[score(r, kind)] += 1
        n = len(rs)
        lo, hi = wilson(tally["win"], n)
        out.append({"game": game, "players": len(rs[0]["seats"]), "think": think,
                    "against": f"{opponent} alone" if solo else opponent, "games": n, **tally,
                    "rate": tally["win"] / n, "low": lo, "high": hi,
                    "seats": sorted({r["seats"].index(DEFAULT) for r in rs if DEFAULT in r["seats"]}),
                    "decisions": sum(r["decisions"] for r in rs) / n,
                    "cpu": sum(sum(r["cpu"]) for r in rs) / n, **turn_cpu(rs)})
    return out


def turn_cpu(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The default bot's CPU seconds a turn, mean and most, over the records that counted turns (older ones did
    not): `turn_mean`, `turn_max` (None without any)."""
    spent, turns, most = 0.0, 0, 0.0
    for r in records:
        if "turns" not in r or DEFAULT not in r["seats"]:
            continue
        i = r["seats"].index(DEFAULT)
        spent, turns, most = spent + r["cpu"][i], turns + r["turns"][i], max(most, r["turn_max"][i])
    return {"turn_mean": spent / turns if turns else None, "turn_max": most if turns else None}


def ceiling(game: str, against: str) -> str:
    """What no bot can beat in a row, where it is known to be under 100 % (the table's last column)."""
    if (game, against) != ("tic-tac-toe", "random"):
        return ""
    from benchmarks.tic_tac_toe_vs_random import best_rates  # (exact: a made-up perfect player's rates)

    x, o = best_rates()
    return (f"the best possible: {100 * float((x + o) / 2):.1f} % (X {100 * float(x):.1f} %, O {100 * float(o):.1f} %; "
            "benchmarks/tic_tac_toe_vs_random.py)")


def markdown(records: list[dict[str, Any]]) -> str:
    """The table of docs/bots.md."""
    lines = ["| game | players | default bot (CPU s a turn) against | games | won | drawn | lost | won % (95 %) "
             "| decisions a game | CPU s a game | bot's CPU s a turn (mean, most) | note |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows(records):
        who = r["against"] if r["against"].endswith("alone") else f"mcts {r['think']:g} vs {r['against']}"
        lines.append(f"| {r['game']} | {r['players']} | {who} | {r['games']} | {r['win']} | {r['draw']} | "
                     f"{r['loss']} | {100 * r['rate']:.0f} % ({100 * r['low']:.0f}-{100 * r['high']:.0f}) | "
                     f"{r['decisions']:.0f} | {r['cpu']:.1f} | {_turns(r)} | {ceiling(r['game'], r['against'])} |")
    return "\n".join(lines)


def _turns(row: dict[str, Any]) -> str:
    if row["turn_mean"] is None:
        return "-"
    return f"{row['turn_mean']:.2f}, {row['turn_max']:.2f}"


def main() -> None:
    """Play the games asked for (default: every bundled game), or print the table of a results file."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*")
    ap.add_argument("--games", dest="count", type=int, default=100, help="games per seat and opponent")
    ap.add_argument("--think", type=float, default=0.25, help="CPU seconds the default bot thinks a turn")
    ap.add_argument("--opponents", default="random,greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, help="results file (JSON lines): games in it are not played again")
    ap.add_argument("--table", type=Path, help="print the markdown table of this results file and stop")
    args = ap.parse_args()
    if args.table:
        print(markdown(read(args.table)))
        return
    records = run(args.games or bundled_games(), args.opponents.split(","), args.count, args.seed, args.think,
                  args.jobs, args.out)
    print(markdown(records))


if __name__ == "__main__":
    main()
