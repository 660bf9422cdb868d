"""The statistics of the workbench: intervals for rates and means, the paired t-test, Holm's correction.

Pure Python (math only), so `orrery compare` needs no optional package: Student's t distribution through the
regularized incomplete beta function (a continued fraction, as in Numerical Recipes §6.4), Wilson's score
interval for a rate (it stays inside 0..1 and behaves at 0 and n, where the normal interval does not).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

Z95 = 1.959963984540054  # the standard normal's 97.5 % quantile


@dataclass(frozen=True)
class Estimate:
    """A value with its 95 % interval and the number of observations it rests on."""

    value: float
    low: float
    high: float
    n: int

    def as_dict(self) -> dict[str, float | int]:
        """JSON-able form."""
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


def wilson(successes: float, n: int, z: float = Z95) -> Estimate:
    """A rate and its Wilson score interval (successes may be fractional: a shared win counts 1/k)."""
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def mean_interval(xs: Sequence[float]) -> Estimate:
    """The mean and its 95 % t interval (a single value or identical values: the interval is the value)."""
    n = len(xs)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    m = sum(xs) / n
    if n == 1:
        return Estimate(m, m, m, 1)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = t_quantile(0.975, n - 1) * sd / math.sqrt(n)
    return Estimate(m, m - half, m + half, n)


@dataclass(frozen=True)
class PairedTest:
    """The mean of paired differences (B - A) with its interval and the two-sided p-value of the t-test."""

    diff: Estimate
    p: float


def paired_t(a: Sequence[float], b: Sequence[float]) -> PairedTest:
    """Student's paired t-test of b - a; differences that are all equal get p 1 (no difference) or 0."""
    d = [y - x for x, y in zip(a, b)]
    n = len(d)
    est = mean_interval(d)
    if n < 2:
        return PairedTest(est, 1.0)
    sd = math.sqrt(sum((x - est.value) ** 2 for x in d) / (n - 1))
    if sd == 0:
        return PairedTest(est, 1.0 if est.value == 0 else 0.0)
    t = est.value / (sd / math.sqrt(n))
    return PairedTest(est, 2 * t_sf(abs(t), n - 1))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (step-down, kept monotone): reject where adjusted p < alpha."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


# ------------------------------------------------------------------ Student's t


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with df degrees of freedom (t >= 0)."""
    x = df / (df + t * t)
    return 0.5 * betainc(df / 2, 0.5, x)


def t_quantile(q: float, df: float) -> float:
    """The q quantile (q > 0.5) of Student's t, by bisection on t_sf."""
    lo, hi = 0.0, 1.0
    while t_sf(hi, df) > 1 - q:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_sf(mid, df) > 1 - q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1 - x) / b


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)), -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h
