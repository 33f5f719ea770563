"""The baseline policy's decisions (docs/rules.md, "The baseline player") on hand-built states.

Expected answers are worked out by hand from those rules. ``baseline(decision, player, arg, st,
params)`` is called directly, or through the engine's keep/use kernels where the decision only makes
sense there (Backpack, Walkie-talkie, repeated First Aid).
"""
import random

from helpers import discard, held, hold, make_state, set_discard, set_drawn
import numpy as np
import pytest

from slashersim.core import layout as L
from slashersim.core import rules as R
from slashersim.core.config import GameConfig
from slashersim.core.rules import (
    BACKPACK,
    BASEBALL_BAT,
    CABINS,
    CAR_KEY,
    FIRE_PIT,
    FIRST_AID_LARGE,
    FIRST_AID_SMALL,
    FLASHLIGHT,
    GASOLINE,
    GREEN,
    JUNK,
    LUCKY_CHARM,
    MAP,
    RED,
    WALKIE_TALKIE,
    WHITE,
    YELLOW,
)
from slashersim.engine import interface, steps
from slashersim.policies.baseline import decide as baseline
from slashersim.runner.kernels import chunk_baseline

P = np.zeros(0)
P.flags.writeable = False      # as the engine hands parameters to a policy
#: the baseline's keep priority of normal items, best first
PRIORITY = [FIRST_AID_LARGE, FIRST_AID_SMALL, LUCKY_CHARM, WALKIE_TALKIE, BACKPACK, FLASHLIGHT]


def keep(st, pick=0, player=0):
    return baseline(interface.KEEP, player, pick, st, P)


# --- keep ---------------------------------------------------------------------------------
def test_keep_first_drawn_missing_escape_item():
    st = make_state()
    hold(st, 1, CAR_KEY)
    set_drawn(st, [FIRST_AID_LARGE, GASOLINE, MAP])
    assert keep(st) == 1


def test_keep_escape_item_over_every_normal_item():
    st = make_state()
    set_drawn(st, PRIORITY + [BASEBALL_BAT])
    assert keep(st) == len(PRIORITY)


def test_keep_priority_of_normal_items():
    st = make_state()
    for i, better in enumerate(PRIORITY):
        for worse in PRIORITY[i + 1:]:
            set_drawn(st, [worse, better])
            assert keep(st) == 1, (better, worse)
            set_drawn(st, [better, worse])
            assert keep(st) == 0, (better, worse)
    for i in range(len(PRIORITY)):
        rest = PRIORITY[i:][::-1]                 # worst first: the best is drawn last
        set_drawn(st, rest)
        assert keep(st) == len(rest) - 1


def test_keep_nothing_when_nothing_keepable():
    st = make_state("instructions")
    set_drawn(st, [JUNK, JUNK + 1])
    assert keep(st) == -1


def test_second_pick_is_the_next_best():
    st = make_state()
    set_drawn(st, [FLASHLIGHT, MAP, FIRST_AID_SMALL, LUCKY_CHARM])
    assert keep(st, 0) == 1
    st[L.S_PICK] = 1
    assert keep(st, 1) == 2


# --- Backpack -----------------------------------------------------------------------------
def test_backpack_used_with_two_keepable_keeping_best_two():
    st = make_state()
    hold(st, 0, BACKPACK)
    set_discard(st, [])
    set_drawn(st, [FLASHLIGHT, MAP, FIRST_AID_SMALL])
    assert baseline(interface.USE_BACKPACK, 0, 3, st, P) == 1
    steps.keep_items(baseline, 0, st, P)
    assert held(st, 0) == {MAP, FIRST_AID_SMALL}
    assert sorted(discard(st)) == sorted([BACKPACK, FLASHLIGHT])


def test_backpack_not_used_with_one_keepable():
    st = make_state("instructions")
    hold(st, 0, BACKPACK)
    set_drawn(st, [JUNK, FLASHLIGHT])
    steps.keep_items(baseline, 0, st, P)
    assert held(st, 0) == {BACKPACK, FLASHLIGHT}
    assert discard(st) == [JUNK]


# --- Walkie-talkie ------------------------------------------------------------------------
def test_walkie_talkie_takes_earliest_missing_escape_from_discard():
    st = make_state()
    hold(st, 0, WALKIE_TALKIE)
    hold(st, 1, CAR_KEY)
    set_discard(st, [FLASHLIGHT, GASOLINE, MAP])
    set_drawn(st, [FIRST_AID_LARGE])
    st[L.S_PICK] = 0
    assert baseline(interface.TAKE_DISCARD, 0, 0, st, P) == 1
    set_drawn(st, [FIRST_AID_LARGE])
    steps.keep_items(baseline, 0, st, P)
    assert held(st, 0) == {GASOLINE}             # replaces the First Aid pick
    assert sorted(discard(st)) == sorted([FLASHLIGHT, MAP, WALKIE_TALKIE, FIRST_AID_LARGE])


def test_walkie_talkie_not_used_when_pick_is_escape_item():
    st = make_state()
    hold(st, 0, WALKIE_TALKIE)
    set_discard(st, [GASOLINE])
    set_drawn(st, [FIRST_AID_LARGE, BASEBALL_BAT])
    steps.keep_items(baseline, 0, st, P)
    assert held(st, 0) == {WALKIE_TALKIE, BASEBALL_BAT}
    assert discard(st) == [GASOLINE, FIRST_AID_LARGE]


def test_walkie_talkie_not_used_without_missing_escape_in_discard():
    st = make_state()
    hold(st, 0, WALKIE_TALKIE)
    set_discard(st, [FLASHLIGHT, BACKPACK])
    set_drawn(st, [FIRST_AID_SMALL])
    steps.keep_items(baseline, 0, st, P)
    assert held(st, 0) == {WALKIE_TALKIE, FIRST_AID_SMALL}


def test_walkie_talkie_with_backpack_replaces_first_pick():
    st = make_state()
    hold(st, 0, WALKIE_TALKIE, BACKPACK)
    set_discard(st, [MAP])
    set_drawn(st, [FLASHLIGHT, FIRST_AID_SMALL])
    steps.keep_items(baseline, 0, st, P)         # picks: First Aid Small, then Flashlight
    assert held(st, 0) == {MAP, FLASHLIGHT}


# --- First Aid, Lucky Charm -----------------------------------------------------------------
@pytest.mark.parametrize("aids, health, answer", [
    ((FIRST_AID_LARGE, FIRST_AID_SMALL), 5, FIRST_AID_LARGE),
    ((FIRST_AID_LARGE, FIRST_AID_SMALL), 6, FIRST_AID_SMALL),
    ((FIRST_AID_LARGE, FIRST_AID_SMALL), 7, -1),
    ((FIRST_AID_LARGE,), 5, FIRST_AID_LARGE),
    ((FIRST_AID_LARGE,), 1, FIRST_AID_LARGE),
    ((FIRST_AID_LARGE,), 6, -1),
    ((FIRST_AID_SMALL,), 6, FIRST_AID_SMALL),
    ((FIRST_AID_SMALL,), 2, FIRST_AID_SMALL),
    ((FIRST_AID_SMALL,), 7, -1),
    ((), 1, -1),
])
def test_first_aid_before_draw(aids, health, answer):
    st = make_state()
    hold(st, 0, *aids)
    st[L.S_HEALTH] = health
    assert baseline(interface.BEFORE_DRAW, 0, 0, st, P) == answer


@pytest.mark.parametrize("health, after, left", [
    (3, 6, set()),                                # Large (5), then Small (6)
    (5, 7, {FIRST_AID_SMALL}),                    # Large to 7; Small not needed
    (6, 7, {FIRST_AID_LARGE}),                    # only Small (health 6)
])
def test_first_aid_large_then_small(health, after, left):
    st = make_state()
    hold(st, 0, FIRST_AID_LARGE, FIRST_AID_SMALL)
    st[L.S_HEALTH] = health
    steps.use_items(baseline, interface.BEFORE_DRAW, 0, st, P)
    assert st[L.S_HEALTH] == after
    assert held(st, 0) == left


@pytest.mark.parametrize("hold_charm, traps, answer", [
    (True, 1, LUCKY_CHARM), (True, 2, LUCKY_CHARM), (True, 0, -1), (False, 2, -1),
])
def test_lucky_charm_at_phase_start_while_traps(hold_charm, traps, answer):
    st = make_state()
    if hold_charm:
        hold(st, 1, LUCKY_CHARM)
    hold(st, 1, FIRST_AID_SMALL)
    st[L.S_TRAPS] = traps
    st[L.S_HEALTH + 1] = 3
    assert baseline(interface.PHASE_START, 1, 0, st, P) == answer


def test_lucky_charm_used_by_either_holder():
    st = make_state()
    hold(st, 1, LUCKY_CHARM)
    st[L.S_TRAPS] = 2
    steps.use_items(baseline, interface.PHASE_START, 1, st, P)
    assert st[L.S_TRAPS] == 1
    assert held(st, 1) == set()


# --- never --------------------------------------------------------------------------------
def test_never_uses_flashlight():
    st = make_state()
    hold(st, 0, FLASHLIGHT)
    st[L.S_HEALTH] = 1
    st[L.S_TRAPS] = 2
    assert baseline(interface.PHASE_START, 0, 0, st, P) == -1
    assert baseline(interface.BEFORE_DRAW, 0, 0, st, P) == -1


def test_never_takes_cabins_extra_draw():
    st = make_state(area=CABINS)
    assert baseline(interface.EXTRA_DRAW, 0, 0, st, P) != 1


def test_never_trades():
    st = make_state(area=FIRE_PIT)
    hold(st, 0, MAP, FIRST_AID_LARGE)
    hold(st, 1, GASOLINE)
    for p in (0, 1):
        assert baseline(interface.TRADE, p, 0, st, P) == -1


# --- cards --------------------------------------------------------------------------------
def test_play_card_is_legal():
    st = make_state(seed=3)
    r = random.Random(1)
    for _ in range(500):
        legal = r.randrange(1, 1 << 20)
        card = baseline(interface.PLAY_CARD, r.randrange(2), legal, st, P)
        assert 0 <= card < 20 and (legal >> card) & 1


def test_play_card_is_roughly_uniform():
    st = make_state(seed=5)
    legal_cards = [R.card_id(WHITE, 5), R.card_id(GREEN, 1), R.card_id(YELLOW, 3),
                   R.card_id(RED, 4)]
    legal = sum(1 << x for x in legal_cards)
    counts = {x: 0 for x in legal_cards}
    for i in range(3000):
        counts[baseline(interface.PLAY_CARD, i % 2, legal, st, P)] += 1
    assert sum(counts.values()) == 3000
    assert all(600 <= n <= 900 for n in counts.values()), counts


@pytest.mark.parametrize("edition", ["rulebook", "instructions"])
def test_full_games_without_policy_or_invariant_violations(edition):
    cfg = GameConfig(edition=edition, check_invariants=True).to_array()
    records = np.zeros((300, L.RECORD_SIZE), dtype=np.int32)
    chunk_baseline(cfg, P, 11, 0, records, 0, 1)
    assert (records[:, L.R_VIOLATIONS] == 0).all()
    assert (records[:, L.R_OUTCOME] != R.RUNNING).all()
