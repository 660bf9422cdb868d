"""Variant A/B: both sides play the same seeds, and every metric's paired difference gets an interval and a test.

Game i of each side uses seed `seed + i` and the same seeded bots, so the two games of a pair share their luck as
far as the rules let them (a variant that changes nothing plays identical games).  Each metric is compared on
the pairs where both games define it, by Student's paired t-test (two-sided, 95 % interval of the mean
difference B - A); the p-values are corrected for the number of metrics by Holm's step-down method, and a
difference is called significant when its corrected p is below 0.05.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from .metrics import end_names, game_metrics
from .stats import holm, paired_t
from .trials import Trial

ALPHA = 0.05
TEST_NAME = "paired t-test (two-sided), Holm-corrected over the metrics"


@dataclass
class MetricDiff:
    """One metric on both sides and their paired difference."""

    metric: str
    a: float
    b: float
    diff: float
    low: float
    high: float
    p: float
    p_holm: float
    n: int

    @property
    def significant(self) -> bool:
        """Whether the corrected p-value is below ALPHA."""
        return self.p_holm < ALPHA

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"metric": self.metric, "a": self.a, "b": self.b, "diff": self.diff, "low": self.low,
                "high": self.high, "p": self.p, "p_holm": self.p_holm, "n": self.n, "significant": self.significant}


def compare_trials(game_a: Any, trials_a: Sequence[Trial], game_b: Any, trials_b: Sequence[Trial]) -> list[MetricDiff]:
    """Every metric both sides define, paired game by game (the trials must share their seeds, in order)."""
    if [t.seed for t in trials_a] != [t.seed for t in trials_b]:
        raise ValueError("the two sides must play the same seeds")
    ends = list(dict.fromkeys(end_names(game_a, trials_a) + end_names(game_b, trials_b)))
    ma = [game_metrics(t, ends) for t in trials_a]
    mb = [game_metrics(t, ends) for t in trials_b]
    names = [n for n in (ma[0] if ma else {}) if n in (mb[0] if mb else {})]
    rows: list[tuple[str, list[float], list[float], Any]] = []
    for name in names:
        pairs = [(x[name], y[name]) for x, y in zip(ma, mb) if x[name] is not None and y[name] is not None]
        if not pairs:
            continue
        xa, xb = [p[0] for p in pairs], [p[1] for p in pairs]
        rows.append((name, xa, xb, paired_t(xa, xb)))
    adjusted = holm([r[3].p for r in rows])
    return [MetricDiff(name, _mean(xa), _mean(xb), test.diff.value, test.diff.low, test.diff.high, test.p, adj,
                       len(xa))
            for (name, xa, xb, test), adj in zip(rows, adjusted)]


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else math.nan


def format_table(diffs: Sequence[MetricDiff], label_a: str, label_b: str) -> str:
    """The comparison as a text table for the terminal."""
    head = f"{'metric':28} {label_a[:12]:>12} {label_b[:12]:>12} {'B - A':>9}  {'95% interval':>20} {'p (Holm)':>9}"
    lines = [head, "-" * len(head)]
    for d in diffs:
        mark = "  *" if d.significant else ""
        lines.append(f"{d.metric[:28]:28} {_num(d.a):>12} {_num(d.b):>12} {_num(d.diff, sign=True):>9}  "
                     f"{'[' + _num(d.low, sign=True) + ', ' + _num(d.high, sign=True) + ']':>20} "
                     f"{_p(d.p_holm):>9}{mark}")
    lines.append(f"* significant at {ALPHA:g} ({TEST_NAME}; n = pairs of games)")
    return "\n".join(lines)


def _num(x: float, sign: bool = False) -> str:
    if math.isnan(x):
        return "-"
    text = f"{x:+.3f}" if sign else f"{x:.3f}"
    return text if abs(x) < 1000 else (f"{x:+.0f}" if sign else f"{x:.0f}")


def _p(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"
