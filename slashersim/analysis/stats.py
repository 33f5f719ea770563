"""Interval estimates computed from counts."""
import math

#: two-sided 95 % normal quantile
Z95 = 1.959963984540054


def wilson_interval(successes, trials, z=Z95):
    """Wilson score interval ``(low, high)`` for a binomial proportion; ``(nan, nan)`` if no trials."""
    if trials <= 0:
        return (math.nan, math.nan)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
