"""Waiting on a child process by the CPU time it uses, not by the wall clock.

A wall-clock timeout is a guess about the machine: on a loaded one (or while the test is paused) it runs out
while the child is still working, and on an idle one it makes a stuck child cost the whole timeout.  A child's
CPU time grows only while it works: `wait_until` gives up when the child has used `cpu_limit` CPU seconds, or
when it sits idle (no CPU used, nothing new) for `idle_samples` checks in a row, which is how a child blocked on
its input (a swallowed Ctrl-C, a prompt nobody answers) looks, and fails at once instead of after a timeout.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")
CPU_LIMIT = 120.0  # CPU seconds a child may use before a wait gives up (the slowest wait needs a few)
IDLE_SAMPLES = 40  # checks in a row with no CPU used and nothing new: the child waits for something
INTERVAL = 0.2  # seconds between checks


def cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) used by process `pid` and its running children; None once it has gone."""
    total, todo, found = 0, [pid], False
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
            found = True
            for task in Path(f"/proc/{p}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, IndexError, ValueError):
            continue  # (a process that ended meanwhile)
    return total / os.sysconf("SC_CLK_TCK") if found else None


def wait_until(check: Callable[[], T | None], pid: int | Callable[[], int | None], what: str,
               cpu_limit: float = CPU_LIMIT, idle_samples: int = IDLE_SAMPLES) -> T:
    """The first truthy `check()`, polled while process `pid` (or the pid a callable gives) works; TimeoutError
    saying `what` was awaited when the process has used `cpu_limit` CPU seconds since the wait began, has sat
    idle for `idle_samples` checks, or has gone."""
    start: float | None = None
    last: float | None = None
    idle = 0
    while True:
        found = check()
        if found:
            return found
        p = pid() if callable(pid) else pid
        cpu = cpu_seconds(p) if p is not None else None
        if cpu is None:
            idle += 1  # gone: give the last output a few checks to arrive
        else:
            start = cpu if start is None else start
            idle = idle + 1 if cpu == last else 0
        if idle >= (5 if cpu is None else idle_samples):
            state = "ended" if cpu is None else "sat idle"
            raise TimeoutError(f"{what} never came: the process {state}")
        if cpu is not None and start is not None and cpu - start > cpu_limit:
            raise TimeoutError(f"{what} never came: the process used {cpu - start:.0f} s of CPU")
        last = cpu
        time.sleep(INTERVAL)


__all__ = ["cpu_seconds", "wait_until", "CPU_LIMIT", "IDLE_SAMPLES"]
