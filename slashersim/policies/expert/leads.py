"""The expert's leads: the heuristic's closed-form terms plus the value of the cards won.

For each class of equivalent legal cards (:func:`representatives`) the lead's cost is its
least closed-form cost (:func:`lead_costs`: the trick rule, the plan's wish, flexibility; from
trick ``dd_from`` on the exact parity check) plus ``lead_weight`` times the mean item-phase
cost of both players' piles at the end of ``lead_samples`` rollouts
(:func:`.rollouts.lead_rollouts`). Classes far worse in closed form get no rollouts.
"""
from numba import njit
import numpy as np

from ...core.layout import (
    C_RED_KNIVES,
    S_AREA,
    S_HAND,
    S_LED,
    S_PLAYED,
    S_TRAP_ROUND,
    S_TRUMP,
    S_TRUMP_CARD,
)
from ...core.rules import ALL_CARDS, RED
from ...engine import interface
from ...engine.bits import lowest_bit
from ..common import (
    BREACH,
    has_trick_rule,
    lead_terms,
    partner_candidates,
)
from .lcg import lcg_seed
from .plan import parity_failures, planned_area, sole_sweep_winner
from .rollouts import lead_rollouts
from .slots import (
    DD_HANDS,
    F_BEST,
    F_EFF,
    F_LEAD_SIZE,
    F_OUT,
    I_CARD,
    I_PARTNER,
    I_SIZE,
    LEAD_SAMPLES,
    LEAD_WEIGHT,
    MOST_HANDS,
    PRUNE_MARGIN,
    zero,
)


@njit(cache=True)
def representatives(st, player, legal):
    """The legal cards that stand for their class: cards of one suit with the same item-phase
    effect and no card the player has not seen (nor the led card) between them win and lose
    alike (their trick-rule costs still differ, and are kept per card)."""
    unseen = ALL_CARDS & ~st[S_HAND + player] & ~st[S_PLAYED] & ~(1 << st[S_TRUMP_CARD])
    if st[S_LED] >= 0:
        unseen |= 1 << st[S_LED]
    reps = 0
    prev = -1
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if prev >= 0 and prev // 5 == c // 5 and \
                (unseen >> (prev + 1)) & ((1 << (c - prev - 1)) - 1) == 0 and \
                (c // 5 != RED or st[C_RED_KNIVES + c % 5] == st[C_RED_KNIVES + prev % 5]):
            prev = c
            continue
        reps |= 1 << c
        prev = c
    return reps


@interface.borrowing
def lead_costs(st, player, legal, params, out):
    """The heuristic's closed-form lead costs (:func:`..common.lead_terms`) per legal card,
    the winner the plan wishes for from :func:`.plan.sole_sweep_winner` until the exact check
    takes over."""
    area = st[S_AREA]
    trump = st[S_TRUMP]
    rule = has_trick_rule(st, area) and not st[S_TRAP_ROUND]
    want = -1 if planned_area(st, params) else sole_sweep_winner(st, player)
    cand, hidden = partner_candidates(st, player)
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        out[card] = lead_terms(st, area, trump, rule, want, cand, hidden, card, params)


@njit(cache=True)
def class_offsets(legal, reps, out, best, card):
    """``best[rep]``: the least closed-form cost ``out`` of a member of each class of leads,
    ``card[rep]``: its first member of that cost (the class's lead, as its rollouts are
    shared)."""
    rep = -1
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if (reps >> c) & 1:
            rep = c
        if rep == c or out[c] < best[rep]:
            best[rep] = out[c]
            card[rep] = c


@njit(cache=True)
def lead_card(st, player, legal, params):
    """The lead of least closed-form cost plus the mean end-of-round cost of both piles over
    ``lead_samples`` sampled partner hands and random-priority rollouts
    (:func:`.rollouts.lead_rollouts`), which only the classes within ``prune_margin`` of the
    best closed-form cost get."""
    fl = np.empty(F_LEAD_SIZE)
    # out and eff accumulate; cost_constants writes pc
    zero(fl, F_OUT, F_OUT + 20)
    zero(fl, F_EFF, F_EFF + 20)
    ints = np.empty(I_SIZE, dtype=np.int64)
    out = fl[F_OUT:F_OUT + 20]
    eff = fl[F_EFF:F_EFF + 20]
    lead_costs(st, player, legal, params, out)
    x = lcg_seed(st)
    if planned_area(st, params):
        x = parity_failures(st, player, legal, np.bool_(True), int(params[DD_HANDS]),
                            ints[I_PARTNER:I_PARTNER + MOST_HANDS], out, x, params[BREACH])
    reps = representatives(st, player, legal)
    # classes worth sampling: some member's closed-form cost is near the best
    class_best = fl[F_BEST:F_BEST + 20]
    class_card = ints[I_CARD:I_CARD + 20]
    class_offsets(legal, reps, out, class_best, class_card)
    best = 1e300
    m = reps
    while m:
        best = min(best, class_best[lowest_bit(m)])
        m &= m - 1
    live = 0
    m = reps
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if class_best[c] <= best + params[PRUNE_MARGIN]:
            live |= 1 << c
    n = int(params[LEAD_SAMPLES])
    if not live & (live - 1):
        n = 0
    if n > 0:
        lead_rollouts(st, player, live, params, fl, ints, x, n)
    choice = -1
    choice_cost = 1e300
    m = reps
    while m:
        rep = lowest_bit(m)
        m &= m - 1
        cost = class_best[rep]
        if n > 0:
            cost += params[LEAD_WEIGHT] * eff[rep] / n if (live >> rep) & 1 else 1e6
        if cost < choice_cost:
            choice_cost = cost
            choice = class_card[rep]
    return choice
