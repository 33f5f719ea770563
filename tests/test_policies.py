"""The heuristic, search and omniscient policies: decisions on hand-built positions, the
closed-form breach chance against brute force, information hygiene on many random positions,
legal play in whole games, and numba on/off agreement."""
from itertools import combinations
import json
import os
import subprocess
import sys

from helpers import ROOT, c, cards, hold, make_state, run_python, set_deck, set_discard, set_drawn
import numpy as np
import pytest

from slashersim.core import layout as L
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
    HIDEAWAY,
    KILLER,
    LAKESIDE,
    LODGE,
    LUCKY_CHARM,
    MAP,
    RED,
    TENT_SITE,
    WHITE,
    WOODLAND,
    YELLOW,
)
from slashersim.engine import deal, steps, tricks
from slashersim.policies import common as C
from slashersim.policies import heuristic as H
from slashersim.policies import param_vector
from slashersim.policies import search as S
from slashersim.runner import simulate

HP = param_vector("heuristic")


def play_state(area=CABINS, seed=0, trump=GREEN, hands=None, leader=0):
    """A round in ``area`` at its first trick; ``hands`` = (mask0, mask1) overrides the deal."""
    st = make_state(seed=seed, area=area)
    deal.deal_round(st)
    st[L.S_AREA] = area
    st[L.S_TRUMP] = trump
    if hands is not None:
        st[L.S_HAND], st[L.S_HAND + 1] = hands
        rest = ((1 << 20) - 1) & ~(hands[0] | hands[1])
        st[L.S_TRUMP_DECK] = rest
        st[L.S_TRUMP_CARD] = int(np.flatnonzero([(rest >> k) & 1 for k in range(20)])[0])
    for f in (L.S_TRICK, L.S_WON, L.S_WON + 1, L.S_TRICKS, L.S_TRICKS + 1, L.S_PLAYED,
              L.S_TRAP_ROUND):
        st[f] = 0
    st[L.S_ROUND_LEADER] = st[L.S_TRICK_LEADER] = leader
    st[L.S_LED] = -1
    return st


def lead(st, card):
    """The trick leader plays ``card``; the follower is to answer."""
    tricks.place_card(st, st[L.S_TRICK_LEADER], card)
    st[L.S_LED] = card


def follow_choice(st):
    """The heuristic follower's card (the hands here are small, so only the follower rule)."""
    p = 1 - st[L.S_TRICK_LEADER]
    return H.choose_follow(st, p, tricks.legal_cards(st[L.S_HAND + p], st[L.S_LED]), HP)


# --- trick play on hand-built positions -------------------------------------------------------
def test_follower_keeps_cabins_sum_at_most_seven():
    st = play_state(CABINS, hands=(cards(c(RED, 5), c(WHITE, 2)),
                                   cards(c(RED, 2), c(RED, 4), c(WHITE, 1))))
    lead(st, c(RED, 5))
    assert follow_choice(st) == c(RED, 2)


def test_follower_keeps_lakeside_ranks_within_two():
    st = play_state(LAKESIDE, hands=(cards(c(YELLOW, 1), c(WHITE, 2)),
                                     cards(c(YELLOW, 4), c(YELLOW, 3), c(WHITE, 1))))
    lead(st, c(YELLOW, 1))
    assert follow_choice(st) == c(YELLOW, 3)


def test_follower_void_never_puts_red_on_white_in_woodland():
    st = play_state(WOODLAND, trump=YELLOW,
                    hands=(cards(c(WHITE, 3), c(GREEN, 4)), cards(c(RED, 1), c(GREEN, 2))))
    lead(st, c(WHITE, 3))
    assert follow_choice(st) == c(GREEN, 2)


def test_follower_beats_a_led_four_in_the_fire_pit():
    st = play_state(FIRE_PIT, trump=YELLOW,
                    hands=(cards(c(GREEN, 4), c(WHITE, 1)), cards(c(GREEN, 5), c(GREEN, 1))))
    lead(st, c(GREEN, 4))
    assert follow_choice(st) == c(GREEN, 5)


def test_follower_ducks_in_the_hideaway():
    st = play_state(HIDEAWAY, trump=RED,
                    hands=(cards(c(WHITE, 3), c(GREEN, 4)), cards(c(WHITE, 5), c(WHITE, 1))))
    lead(st, c(WHITE, 3))
    assert follow_choice(st) == c(WHITE, 1)


@pytest.mark.parametrize("area,t_lead,t_follow,want", [
    (HIDEAWAY, 3, 0, 0),
    (TENT_SITE, 2, 2, 0),   # either works (both even); the leader's win is preferred
    (TENT_SITE, 2, 3, 1),   # the follower's 3 is odd: it must win the rest instead
    (TENT_SITE, 3, 2, 0),   # the follower's 2 stays even while the leader takes the rest
    (LODGE, 2, 1, 0),
    (LODGE, 1, 2, 1),
    (CABINS, 1, 1, -1),
])
def test_sweep_winner_follows_the_area_plan(area, t_lead, t_follow, want):
    st = play_state(area)
    st[L.S_TRICKS] = t_lead
    st[L.S_TRICKS + 1] = t_follow
    st[L.S_TRICK] = t_lead + t_follow
    assert H.sweep_winner(st, 0) == want


def test_no_trap_is_wished_for_once_one_went_off():
    st = play_state(TENT_SITE)
    st[L.S_TRAP_ROUND] = 1
    assert H.sweep_winner(st, 0) == -1


def test_no_answer_probability_matches_brute_force():
    rng = np.random.default_rng(4)
    for _ in range(300):
        u = int(rng.integers(3, 12))
        cand_cards = rng.choice(20, size=u, replace=False)
        cand = int(sum(1 << int(x) for x in cand_cards))
        hidden = int(rng.integers(0, min(3, u - 1) + 1))
        good = int(rng.integers(0, 1 << 20))
        follow = int(rng.choice([0b11111 << (5 * s) for s in range(4)]))
        bad = 0
        subsets = list(combinations(cand_cards, hidden))
        for hide in subsets:
            hand = cand & ~sum(1 << int(x) for x in hide)
            options = hand & follow or hand
            bad += not options & good
        got = C.no_answer_probability(good, follow, cand, hidden)
        assert got == pytest.approx(bad / len(subsets)), (cand, hidden, good, follow)


def test_partner_candidates_hold_the_partners_hand_and_nothing_seen():
    voids = 0
    for st in random_positions(120, seed=1):
        player = st[L.S_TRICK_LEADER] if st[L.S_LED] < 0 else 1 - st[L.S_TRICK_LEADER]
        cand, hidden = C.partner_candidates(st, player)
        partner = st[L.S_HAND + 1 - player]
        assert partner & ~cand == 0
        assert not cand & (st[L.S_HAND + player] | st[L.S_PLAYED] | 1 << st[L.S_TRUMP_CARD])
        assert 0 <= hidden <= 3
        assert bin(int(cand)).count("1") - hidden == bin(int(partner)).count("1")
        voids += C.partner_voids(st, player) != 0
    assert voids > 10  # void suits were inferred in many positions


# --- item-phase decisions -------------------------------------------------------------------
def item_state(area=CABINS, player=0):
    st = make_state(area=area)
    st[L.S_TURN] = player
    return st


def test_keep_prefers_a_missing_escape_item():
    st = item_state()
    hold(st, 1, MAP)
    set_drawn(st, [FIRST_AID_LARGE, MAP, CAR_KEY])
    assert H.keep_pick(st, 0, 0, HP) == 2


def test_walkie_talkie_fetches_a_missing_escape_from_the_discard():
    st = item_state()
    set_discard(st, [FIRST_AID_SMALL, GASOLINE])
    set_drawn(st, [FIRST_AID_LARGE])
    st[L.S_PICK] = 0
    assert H.walkie_talkie_pick(st, 0) == 1
    set_drawn(st, [BASEBALL_BAT])
    st[L.S_PICK] = 0
    assert H.walkie_talkie_pick(st, 0) == -1


def test_backpack_is_used_for_two_escape_items_and_not_for_a_small_second_pick():
    st = item_state()
    set_drawn(st, [MAP, CAR_KEY])
    assert H.use_backpack(st, 0, HP) == 1
    set_drawn(st, [MAP, LUCKY_CHARM])
    assert H.use_backpack(st, 0, HP) == 0


def test_cabins_extra_card_only_without_an_escape_drawn():
    st = item_state(CABINS)
    set_deck(st, [FIRST_AID_SMALL, GASOLINE, BACKPACK])
    set_drawn(st, [MAP])
    assert H.one_more_card(st, 0, HP) == 0
    set_drawn(st, [FIRST_AID_LARGE])
    assert H.one_more_card(st, 0, HP) == 1


def test_flashlight_keeps_the_killer_out_of_ones_draws():
    st = item_state()
    set_deck(st, [KILLER, FIRST_AID_SMALL, MAP, BACKPACK, GASOLINE])
    st[L.S_DRAWS] = 1
    from slashersim.engine.items import peek_top, reorder_top
    n = peek_top(st, 0)
    answer = H.flashlight_order(st, 0, n, HP)
    reorder_top(st, answer)
    top = st[L.S_DECK + st[L.S_DECK_N] - 1]
    assert top != KILLER
    assert top == MAP  # the escape item comes to the top for this player's one draw


def test_flashlight_before_the_partners_draw_is_ordered_for_the_partners_draws():
    """Window (b) of both players (``before_draw_items = both_players``), player 1 about to draw
    one card, player 0 drawing none: player 0 uses its Flashlight for the partner's draw (the
    Killer not seen anywhere, so in the deck), and orders the seen Killer, First Aid Small, Map
    for that one draw: the Map on top. Not for a partner drawing nothing, nor for one holding a
    look-at-top item of its own (a card file may add one)."""
    from slashersim.engine.items import peek_top, reorder_top
    st = item_state(player=1)
    hold(st, 0, FLASHLIGHT)
    set_deck(st, [KILLER, FIRST_AID_SMALL, MAP, BACKPACK, GASOLINE])
    st[L.S_DRAWS], st[L.S_DRAWS + 1] = 0, 1
    assert H.before_draw_item(st, 0, HP) == FLASHLIGHT
    n = peek_top(st, 0)
    reorder_top(st, H.flashlight_order(st, 0, n, HP))
    assert st[L.S_DECK + st[L.S_DECK_N] - 1] == MAP
    st[L.S_DRAWS + 1] = 0
    assert H.before_draw_item(st, 0, HP) == -1
    st[L.S_DRAWS + 1] = 1
    hold(st, 1, FLASHLIGHT)
    assert H.before_draw_item(st, 0, HP) == -1


def test_first_aid_and_lucky_charm_rules():
    st = item_state()
    hold(st, 0, FIRST_AID_LARGE, FIRST_AID_SMALL, LUCKY_CHARM)
    st[L.S_HEALTH] = 6
    assert C.first_aid_now(st, 0, HP) == FIRST_AID_SMALL
    st[L.S_HEALTH] = 4
    assert C.first_aid_now(st, 0, HP) == FIRST_AID_LARGE
    st[L.S_TRAPS] = 0
    assert H.lucky_charm_now(st, 0) == -1
    st[L.S_TRAPS] = 1
    assert H.lucky_charm_now(st, 0) == LUCKY_CHARM


def test_fire_pit_gift_gives_first_aid_to_a_weaker_partner():
    """The heuristic's and the exerciser's gift rule: First Aid, Large first, to a partner with
    strictly less health."""
    st = item_state(FIRE_PIT)
    hold(st, 0, FIRST_AID_SMALL, FLASHLIGHT)
    st[L.S_HEALTH], st[L.S_HEALTH + 1] = 6, 3
    assert C.fire_pit_gift(st, 0) == FIRST_AID_SMALL
    hold(st, 0, FIRST_AID_SMALL, FIRST_AID_LARGE)
    assert C.fire_pit_gift(st, 0) == FIRST_AID_LARGE
    st[L.S_HEALTH + 1] = 6
    assert C.fire_pit_gift(st, 0) == -1
    st[L.S_HEALTH + 1] = 7
    assert C.fire_pit_gift(st, 0) == -1


# --- positions (strict information hygiene: tests/test_hygiene.py) -------------------------------
def random_positions(n, seed=0):
    """Positions at random tricks of random rounds (as leader and as follower)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        area = int(rng.integers(0, 7))
        st = play_state(area, seed=i, trump=int(rng.integers(0, 4)), leader=int(rng.integers(2)))
        for _ in range(int(rng.integers(0, 8))):
            steps.play_trick(H.decide, st, HP)
        if rng.integers(2):
            tricks.place_card(st, st[L.S_TRICK_LEADER],
                              H.choose_card(st, st[L.S_TRICK_LEADER], st[L.S_HAND +
                                                                       st[L.S_TRICK_LEADER]], HP))
            st[L.S_LED] = st[L.S_PLAY_LOG + 2 * st[L.S_TRICK]]
        out.append(st)
    return out


def test_sampled_partner_hands_are_consistent_with_the_players_view():
    for st in random_positions(60, seed=9):
        player = st[L.S_TRICK_LEADER] if st[L.S_LED] < 0 else 1 - st[L.S_TRICK_LEADER]
        work = st.copy()
        S.sample_partner_hand(st.copy(), work, player)
        hand = work[L.S_HAND + 1 - player]
        assert bin(int(hand)).count("1") == bin(int(st[L.S_HAND + 1 - player])).count("1")
        assert not hand & (st[L.S_HAND + player] | st[L.S_PLAYED])
        assert not (hand >> st[L.S_TRUMP_CARD]) & 1
        assert hand | work[L.S_TRUMP_DECK] | st[L.S_HAND + player] | st[L.S_PLAYED] \
            == (1 << 20) - 1
        cand, _ = C.partner_candidates(st, player)
        assert not hand & ~cand  # never a card of a suit the partner showed void in


# --- whole games --------------------------------------------------------------------------------
@pytest.mark.parametrize("policy,games", [("heuristic", 3000), ("search", 40),
                                           ("omniscient", 200)])
@pytest.mark.parametrize("edition", ["rulebook", "instructions"])
def test_policies_play_legal_games_that_keep_every_invariant(policy, games, edition):
    cfg = GameConfig(edition=edition, hideaway=True, check_invariants=True)
    params = param_vector(policy, {"samples": 4} if policy == "search" else None)
    r = simulate(cfg, policy, games=games, seed=5, params=params)
    assert r.summary()["invariant_violations"] == 0
    assert r.outcome("running") == 0


def test_search_and_omniscient_give_the_same_games_on_one_and_two_threads():
    for policy in ("search", "omniscient"):
        params = param_vector(policy, {"samples": 3} if policy == "search" else None)
        a = simulate(policy=policy, games=24, seed=2, threads=1, keep_records=True,
                     params=params, chunk_size=7)
        b = simulate(policy=policy, games=24, seed=2, threads=2, keep_records=True,
                     params=params)
        assert a.records.equals(b.records), policy


_JIT_SCRIPT = """
import json
from slashersim.core.config import GameConfig
from slashersim.policies import param_vector
from slashersim.runner import simulate
out = {}
for policy, games, over in (("heuristic", 40, None), ("search", 2, {"samples": 2}),
                            ("omniscient", 1, None)):
    for edition in ("rulebook", "instructions"):
        r = simulate(GameConfig(edition=edition, hideaway=True, check_invariants=True), policy,
                     games=games, seed=13, keep_records=True,
                     params=param_vector(policy, over))
        out[f"{policy}-{edition}"] = r.records.drop(columns=["outcome"]).to_numpy().tolist()
print(json.dumps(out))
"""


def test_numba_on_and_off_play_the_same_policy_games():
    jit, py = (json.loads(run_python(_JIT_SCRIPT, off)) for off in (False, True))
    assert jit == py


@pytest.mark.parametrize("module", ["slashersim.engine.tricks", "slashersim.engine.items",
                                    "slashersim.policies", "slashersim.engine.luck_kernels",
                                    "slashersim.policies.heuristic", "slashersim.policies.common",
                                    "slashersim.policies.expert", "slashersim.engine.predicates"])
def test_every_module_imports_first(module):
    """The engine and the policies import each other; any of them may be imported first."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-c", f"import {module}\nfrom slashersim.policies import "
                    "get_policy\nget_policy('omniscient'); get_policy('search')"],
                   env=env, cwd=ROOT, check=True, capture_output=True)
