"""Property tests of the interval estimates in :mod:`slashersim.core.stats` (hypothesis)."""
import math

from hypothesis import given
from hypothesis import strategies as st
import numpy as np
import pytest

from slashersim.core.stats import (
    mean_interval,
    rates,
    unpaired_difference_interval,
    wilson_arrays,
    wilson_interval,
)

counts = st.integers(min_value=1, max_value=10**9).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n)))


@given(counts)
def test_wilson_contains_the_rate_within_0_1(kn):
    k, n = kn
    low, high = wilson_interval(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0
    assert high - low > 0


@given(counts)
def test_wilson_is_symmetric(kn):
    """Failures and successes swap places: the interval of n - k mirrors that of k."""
    k, n = kn
    low, high = wilson_interval(k, n)
    low2, high2 = wilson_interval(n - k, n)
    assert low2 == pytest.approx(1 - high, abs=1e-12)
    assert high2 == pytest.approx(1 - low, abs=1e-12)


@given(st.integers(1, 10**6), st.integers(0, 10**6), st.integers(2, 50))
def test_wilson_narrows_with_n(n, k, factor):
    """The same rate observed over more trials gives a narrower interval."""
    k = min(k, n)
    lo1, hi1 = wilson_interval(k, n)
    lo2, hi2 = wilson_interval(k * factor, n * factor)
    assert hi2 - lo2 < hi1 - lo1


def test_wilson_without_trials_is_nan():
    assert all(math.isnan(v) for v in wilson_interval(0, 0))


@given(st.lists(counts, min_size=1, max_size=20))
def test_wilson_arrays_match_the_scalar_function(kns):
    k = np.array([a for a, _ in kns] + [0])
    n = np.array([b for _, b in kns] + [0])
    low, high = wilson_arrays(k, n)
    for i in range(len(kns)):
        assert (low[i], high[i]) == wilson_interval(int(k[i]), int(n[i]))
    assert np.isnan(low[-1]) and np.isnan(high[-1])
    r = rates(k, n)
    assert np.isnan(r[-1]) and np.allclose(r[:-1], k[:-1] / n[:-1])


@given(st.lists(st.integers(-1, 1), min_size=2, max_size=400))
def test_paired_mean_interval_from_integer_sums(d):
    """The interval from integer sums equals the textbook one, contains the mean, and does not
    depend on how the sums were split into chunks."""
    d = np.array(d)
    n = d.size
    mean, ci = mean_interval(int(d.sum()), int((d * d).sum()), n)
    assert mean == pytest.approx(d.mean())
    half = 1.959963984540054 * d.std(ddof=1) / math.sqrt(n)
    assert ci[0] == pytest.approx(mean - half, abs=1e-12)
    assert ci[1] == pytest.approx(mean + half, abs=1e-12)
    cut = n // 2
    parts = [(int(p.sum()), int((p * p).sum())) for p in (d[:cut], d[cut:])]
    again = mean_interval(sum(p[0] for p in parts), sum(p[1] for p in parts), n)
    assert again == (mean, ci)


def test_paired_mean_of_one_game_has_no_interval():
    assert mean_interval(1, 1, 1) == (1.0, None)


@given(counts, counts)
def test_unpaired_difference_is_centred_and_antisymmetric(a, b):
    (ka, na), (kb, nb) = a, b
    lo, hi = unpaired_difference_interval(ka, na, kb, nb)
    diff = kb / nb - ka / na
    assert lo <= diff + 1e-12 and diff - 1e-12 <= hi
    lo2, hi2 = unpaired_difference_interval(kb, nb, ka, na)
    assert lo2 == pytest.approx(-hi, abs=1e-12) and hi2 == pytest.approx(-lo, abs=1e-12)
