#!/usr/bin/env python3
"""Load and replay a long log and save (issue 19): time and peak memory for 10 000 to 100 000 decisions.

    benchmarks/load_replay.py [--sizes 10000,30000,100000] [--folder DIR]

A two-player game that never ends (tests/hostile/never_ends.yaml) is played by the `first` option for N
decisions, written as a log (LogWriter) and as a save (write_save).  Each measurement runs in a fresh
process, so that its peak memory (ru_maxrss) is its own:

- `read save`: read_save (bounded read, JSON, schema, positions);
- `resume save`: read_save + replay_save (every decision re-applied);
- `replay log`: `orrery replay` (header, then each line read, checked and replayed);
- `refuse log at step 5`: the same log with step 5 wrong: the refusal must not depend on N.

Not a timed test: it prints a table (also as JSON with --json) for docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "tests" / "hostile" / "never_ends.yaml"

MEASURE = r"""
import sys, time
from orrery.interpreter.cli.main import main
from orrery.interpreter.engine.game import Game
from orrery.interpreter.files.save import read_save, replay_save
from orrery.rulespec.loader import load_spec
what, path, spec = sys.argv[1:4]
start = time.perf_counter()
if what == "read save":
    read_save(path)
elif what == "resume save":
    replay_save(read_save(path), Game(load_spec(spec)))
else:
    code = main(["replay", path, "--game", spec])
    assert code == (1 if "refuse" in what else 0), code
took = time.perf_counter() - start
# VmHWM, not ru_maxrss: Linux carries the forking parent's peak over into ru_maxrss across exec
peak_kb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(took, peak_kb)
"""


def make_files(n: int, folder: Path) -> tuple[Path, Path, Path]:
    """A log and a save of n decisions, and the log with step 5 wrong."""
    from orrery.interpreter.engine.game import Game
    from orrery.interpreter.files.log import LogWriter
    from orrery.interpreter.files.save import make_save, write_save
    from orrery.rulespec.loader import load_spec

    log_path, save_path, bad_path = folder / f"{n}.jsonl", folder / f"{n}.orrery-save.json", folder / f"{n}-bad.jsonl"
    if bad_path.exists():  # made by an earlier run with --folder
        return log_path, save_path, bad_path
    game = Game(load_spec(SPEC))
    gs = game.new_initial_state(players=2, seed=0)
    log = LogWriter(log_path, game, str(SPEC), gs, [], ["first", "first"])
    for _ in range(n):
        d = gs.decision
        opt = d.options[0]
        gs.apply(opt.index)
        log.step(d.player, opt.index, opt.label, d.prompt, gs)
    log.finish(gs)
    write_save(save_path, make_save(game, str(SPEC), [], ["first", "first"], gs))
    lines = log_path.read_text().splitlines(keepends=True)
    lines[5] = lines[5].replace('"digest": "', '"digest": "0')
    bad_path.write_text("".join(lines))
    return log_path, save_path, bad_path


def measure(what: str, path: Path) -> tuple[float, float]:
    """(seconds, peak resident MB) of one measurement in a fresh process."""
    out = subprocess.run([sys.executable, "-c", MEASURE, what, str(path), str(SPEC)], capture_output=True,
                         text=True, check=True).stdout.splitlines()[-1].split()
    return float(out[0]), int(out[1]) / 1024


def main() -> int:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,30000,100000")
    ap.add_argument("--folder", help="where to write the files (default: a temporary folder)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    folder = Path(args.folder or tempfile.mkdtemp(prefix="orrery-bench-"))
    rows = []
    for n in sizes:
        start = time.perf_counter()
        log, save, bad = make_files(n, folder)
        made = time.perf_counter() - start
        for what, path in (("read save", save), ("resume save", save), ("replay log", log),
                           ("refuse log at step 5", bad)):
            secs, mb = measure(what, path)
            rows.append({"decisions": n, "what": what, "seconds": round(secs, 3), "peak_mb": round(mb, 1),
                         "file_mb": round(path.stat().st_size / 1e6, 2)})
        print(f"# {n} decisions: files written in {made:.1f} s", file=sys.stderr)
    if args.json:
        print(json.dumps(rows))
        return 0
    print("| decisions | what | file (MB) | seconds | peak memory (MB) |\n|---:|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r['decisions']} | {r['what']} | {r['file_mb']} | {r['seconds']} | {r['peak_mb']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
