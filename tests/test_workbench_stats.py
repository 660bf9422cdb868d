"""The workbench's statistics against known values (checked against scipy.stats: t.sf, t.ppf, ttest_rel)."""

import math

import pytest

from orrery.interpreter.workbench.stats import holm, mean_interval, paired_t, t_quantile, t_sf, wilson


@pytest.mark.parametrize("t, df, expected", [
    (2.0, 10, 0.036694),      # pt(2, 10, lower=FALSE)
    (1.0, 1, 0.25),           # Cauchy: exactly 1/4
    (0.0, 5, 0.5),
    (3.5, 30, 0.000737),
])
def test_t_tail(t, df, expected):
    assert t_sf(t, df) == pytest.approx(expected, abs=2e-6)


@pytest.mark.parametrize("df, expected", [(1, 12.7062), (10, 2.2281), (100, 1.9840)])
def test_t_quantile(df, expected):
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)


def test_wilson_stays_inside_0_1_and_matches_the_formula():
    e = wilson(0, 10)
    assert e.value == 0 and e.low == 0 and 0.25 < e.high < 0.35  # 0.2775 (Wilson, z 1.96)
    e = wilson(55, 100)
    assert (round(e.low, 4), round(e.high, 4)) == (0.4524, 0.6439)
    assert math.isnan(wilson(0, 0).value)


def test_mean_interval_uses_t():
    e = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert e.value == 2.5
    half = 3.182446 * math.sqrt(5 / 3) / 2  # t(0.975, 3) * sd / sqrt(n)
    assert e.low == pytest.approx(2.5 - half, abs=1e-4) and e.high == pytest.approx(2.5 + half, abs=1e-4)


def test_paired_t_known_value_and_degenerate_cases():
    a = [10.0, 12.0, 9.0, 11.0, 13.0]
    b = [11.0, 14.0, 9.5, 12.0, 15.0]
    r = paired_t(a, b)  # scipy.stats.ttest_rel(b, a): t = 4.3333, df = 4, p = 0.0123174
    assert r.diff.value == pytest.approx(1.3)
    assert r.p == pytest.approx(0.0123174, abs=1e-6)
    assert paired_t(a, a).p == 1.0                      # identical games: no difference at all
    assert paired_t(a, [x + 1 for x in a]).p == 0.0     # the same shift every time: certain


def test_holm_step_down():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5]) == [0.5]
    assert holm([0.2, 0.9]) == pytest.approx([0.4, 0.9])
