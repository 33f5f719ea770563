"""The fast engine against the plain-Python rules model in ``naive.py``.

The two share no code and no random numbers, so they are compared statistically: each
outcome rate must agree within 4.5 standard errors of the difference, and so must each mean
per game (rounds, item statistics), with standard errors from the per-game values.
"""
import math
from pathlib import Path
import statistics

import naive
import pytest

from slashersim.core import layout as L
from slashersim.core.config import GameConfig
from slashersim.runner import simulate

DATA = Path(__file__).parent / "data"
#: card files, read by the engine through slashersim.core.cards and by the model through its own
#: interpreter: the how-to's changed Cabins, new Bog and added Bonfire, and a file that changes
#: every hook
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
HOWTO_CARD = str(EXAMPLES / "cabins_eight.toml")
NEW_CARD = str(EXAMPLES / "bog.toml")
ADDED_CARD = str(EXAMPLES / "bonfire.toml")
MIXED_CARDS = str(DATA / "cards_mixed.toml")
CASES = [
    {"edition": "rulebook"},
    {"edition": "instructions"},
    {"edition": "rulebook", "hideaway": True, "health": 4},
    {"edition": "instructions", "hideaway": False, "cursed_object": False},
    {"edition": "rulebook", "escapes_needed": 2, "traps": 2},
    {"edition": "rulebook", "cards": HOWTO_CARD},
    {"edition": "rulebook", "cards": NEW_CARD},
    {"edition": "rulebook", "cards": ADDED_CARD},
    {"edition": "instructions", "cards": MIXED_CARDS},
]


def _close(p1, n1, p2, n2, z=4.5):
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2) or 1e-9
    return abs(p1 - p2) <= z * se + 1e-12


def _id(case):
    return "-".join(f"{k}={Path(v).name if k == 'cards' else v}" for k, v in case.items())


@pytest.mark.parametrize("case", CASES, ids=_id)
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


# --- the exerciser (docs/rules.md): Flashlight, Cabins' extra card, Fire pit gifts ---------
EXERCISER_CASES = [
    {"edition": "rulebook"},
    {"edition": "instructions"},
    # Cabins and Fire pit only: the extra card every round it is played, gifts after damage
    {"edition": "rulebook", "removed_areas": ("tent_site", "lodge", "woodland", "lakeside"),
     "traps": 4, "health": 5},
    {"edition": "instructions", "hideaway": False,
     "removed_areas": ("tent_site", "lodge", "lakeside", "woodland"), "traps": 4},
    {"edition": "instructions", "traps": 4, "cards": MIXED_CARDS},
]
#: per-game means compared; the engine's records name them alike (``simulate(...).records``)
EXERCISER_MEANS = {"rounds": "rounds", "flashlight_used": "used_flashlight",
                   "cabins_extra_draws": "extra_draws", "gifts": "gifts",
                   "killer_draws": "killer_draws"}
EXERCISER_ITEMS = naive.ESCAPE_ITEMS + naive.NORMAL_ITEMS


def _close_mean(a, b, z=4.5):
    """Whether the means of the per-game values ``a`` and ``b`` agree within ``z`` standard
    errors of their difference."""
    a = [float(x) for x in a]
    b = [float(x) for x in b]
    se = math.sqrt(statistics.pvariance(a) / len(a) + statistics.pvariance(b) / len(b)) \
        or 1e-9
    return abs(statistics.fmean(a) - statistics.fmean(b)) <= z * se + 1e-12


@pytest.mark.parametrize("case", EXERCISER_CASES, ids=_id)
def test_engine_exerciser_matches_naive_model(case):
    n_naive, n_fast = 6_000, 100_000
    ref = naive.simulate(case, games=n_naive, seed=2, policy="exerciser")
    fast = simulate(GameConfig(**case), policy="exerciser", games=n_fast, seed=2,
                    keep_records=True)
    rec = fast.records
    assert fast.counts[L.K_VIOLATIONS] == 0
    for outcome in ("win", "loss_health", "loss_traps", "timeout"):
        key = "wins" if outcome == "win" else outcome
        assert _close(ref[key] / n_naive, n_naive, fast.outcome(outcome) / n_fast, n_fast), \
            (outcome, ref[key] / n_naive, fast.outcome(outcome) / n_fast)
    for mine, theirs in EXERCISER_MEANS.items():
        assert _close_mean(ref["per_game"][mine], rec[theirs]), \
            (mine, statistics.fmean(ref["per_game"][mine]), rec[theirs].mean())
    for item in EXERCISER_ITEMS:
        for what in ("used", "kept"):
            key = f"{what}_{item}"
            if key in rec:
                assert _close_mean(ref["per_game"][key], rec[key]), \
                    (key, statistics.fmean(ref["per_game"][key]), rec[key].mean())
    stats = fast.item_stats()
    assert stats["used"]["flashlight"] == rec["used_flashlight"].sum() > 0
    assert stats["extra_draws"] == rec["extra_draws"].sum() > 0
    assert stats["gifts"] == rec["gifts"].sum() > 0
    fast_traps = fast.trap_rate_by_area()
    for area, rounds in ref["rounds_by_area"].items():
        if rounds >= 300:
            p = ref["traps_by_area"][area] / rounds
            assert _close(p, rounds, fast_traps[area], fast.rounds_by_area()[area]), area
