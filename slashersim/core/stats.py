"""Interval estimates computed from counts: the base layer every other module may use.

Nothing here knows about games: these are binomial and paired-difference intervals from
integer counts (like :mod:`scipy.stats`, without the dependency). The runner, the sweep tables
and the analyses all build their rates and intervals here, so a rate is always a count over a
count and pooling is adding counts.
"""
import math

import numpy as np

#: two-sided 95 % normal quantile
Z95 = 1.959963984540054


def wilson_interval(successes, trials, z=Z95):
    """Wilson score interval ``(low, high)`` for a binomial proportion; ``(nan, nan)`` if no trials.

    The bounds are clamped to the observed rate as well as to [0, 1]: at 0 or ``trials``
    successes rounding would otherwise leave the rate a hair outside its own interval.
    """
    if trials <= 0:
        return (math.nan, math.nan)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p)))


def wilson_arrays(successes, trials, z=Z95):
    """:func:`wilson_interval` element-wise: ``(low, high)`` float arrays, NaN where
    ``trials`` is 0 (e.g. the trap rate of an area never played)."""
    s = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    low = np.full(np.broadcast(s, n).shape, np.nan)
    high = low.copy()
    for i in np.ndindex(low.shape):
        if n[i] > 0:
            low[i], high[i] = wilson_interval(int(s[i]), int(n[i]), z)
    return low, high


def rates(counts, trials):
    """``counts / trials`` element-wise as floats, NaN where ``trials`` is 0."""
    c = np.asarray(counts, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, c / np.where(n > 0, n, 1), np.nan)


def mean_interval(total, total_sq, n, z=Z95):
    """Mean of ``n`` observations from their sum and sum of squares, with its normal 95 %
    interval ``mean +- z * sd / sqrt(n)``; the interval is ``None`` for fewer than 2.

    Pass integer sums (e.g. of paired per-game differences in -1, 0, 1): the variance is then
    formed from exact integers, so the result does not depend on how the sums were chunked.
    """
    mean = total / n
    if n < 2:
        return mean, None
    var = (n * total_sq - total * total) / (n * (n - 1))
    half = z * math.sqrt(max(var, 0.0) / n)
    return mean, [mean - half, mean + half]


def unpaired_difference_interval(wins_a, n_a, wins_b, n_b, z=Z95):
    """Normal 95 % interval of ``p_b - p_a`` for two independent binomial samples."""
    p_a, p_b = wins_a / n_a, wins_b / n_b
    half = z * math.sqrt(p_a * (1 - p_a) / n_a + p_b * (1 - p_b) / n_b)
    return [p_b - p_a - half, p_b - p_a + half]
