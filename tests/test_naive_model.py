"""The fast engine against the plain-Python rules model in ``naive.py``.

The two share no code and no random numbers, so they are compared statistically: each
outcome rate must agree within 4.5 standard errors of the difference.
"""
import math

import pytest

from slashersim.config import GameConfig
from slashersim.runner import simulate

import naive

CASES = [
    {"edition": "rulebook"},
    {"edition": "instructions"},
    {"edition": "rulebook", "hideaway": True, "health": 4},
    {"edition": "instructions", "hideaway": False, "cursed_object": False},
    {"edition": "rulebook", "escapes_needed": 2, "traps": 2},
]


def _close(p1, n1, p2, n2, z=4.5):
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2) or 1e-9
    return abs(p1 - p2) <= z * se + 1e-12


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_engine_matches_naive_model(case):
    n_naive, n_fast = 3000, 100_000
    ref = naive.simulate(case, games=n_naive, seed=1)
    fast = simulate(GameConfig(**case), games=n_fast, seed=1)
    for outcome in ("win", "loss_health", "loss_traps", "timeout"):
        key = "wins" if outcome == "win" else outcome
        assert _close(ref[key] / n_naive, n_naive, fast.outcome(outcome) / n_fast, n_fast), \
            (outcome, ref[key] / n_naive, fast.outcome(outcome) / n_fast)
    assert abs(ref["mean_rounds"] - fast.summary()["mean_rounds"]) < 0.25
    fast_traps = fast.trap_rate_by_area()
    for area, rounds in ref["rounds_by_area"].items():
        if rounds >= 300:
            p = ref["traps_by_area"][area] / rounds
            assert _close(p, rounds, fast_traps[area], fast.rounds_by_area()[area]), area
