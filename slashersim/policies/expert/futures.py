"""The expert's answers: the heuristic's closed-form terms plus closed-form futures.

No sampling: the cards left in the hands go to either player by rough chances of winning their
tricks (:func:`win_chance`), independently, so each player's future yellows and net knives have
closed-form distributions (:func:`future_distributions`); each answer is taken out of them
(:func:`deconvolve`) and its expected end-of-round cost under that model is exact, the piles
valued by the item model (:func:`expected_joint`).
"""
from numba import njit
import numpy as np

from ...core.layout import (
    C_RED_KNIVES,
    C_WHITE_RED_KNIVES,
    S_AREA,
    S_HAND,
    S_LED,
    S_PLAYED,
    S_TRAP_ROUND,
    S_TRICK,
    S_TRICK_LEADER,
    S_TRUMP,
    S_TRUMP_CARD,
    S_WON,
)
from ...core.rules import (
    ALL_CARDS,
    COLOUR_GREEN,
    COLOUR_YELLOW,
    GREEN,
    RED,
    SUIT_MASK,
    TRICKS_PER_ROUND,
    WHITE,
    YELLOW,
)
from ...engine import interface
from ...engine.bits import lowest_bit, popcount
from ..common import (
    BEATS,
    BREACH,
    DAMAGE,
    DEATH,
    DRAW_OVER,
    DRAW_UNDER,
    TARGET_DRAWS,
    answer_terms,
    colour_of_whites,
    has_trick_rule,
    partner_candidates,
    safe_answers,
)
from .item_model import cost_constants, first_drawer, item_cell, item_prepare, pile_counts
from .lcg import lcg_seed
from .leads import representatives
from .plan import parity_failures, planned_area, sole_sweep_winner
from .slots import (
    DD_HANDS,
    DOFF,
    F_CHANCE,
    F_DIST,
    F_EDMG,
    F_LESS,
    F_OUT,
    F_PC,
    F_PN,
    F_SHARED,
    F_SIZE,
    F_TAB,
    FOLLOW_WEIGHT,
    IT_SIZE,
    ITEM_N,
    J_ADD_D,
    J_ADD_Y,
    J_DHI,
    J_DLO,
    J_DO,
    J_IT,
    J_SIZE,
    J_YHI,
    J_YLO,
    J_YO,
    MOST_HANDS,
    NDIST,
    PC_COLOUR,
    PC_DRAW_REDUCTION,
    PC_HEALTH,
    PC_KILLER_ALL,
    PC_SIZE,
    PC_STRIDE,
    T_G,
    T_HF,
    T_HS,
    T_SIZE,
    YOFF,
    zero,
)

#: ``BEATEN[trump, card]``: the led cards that ``card`` beats as the answer
BEATEN = np.zeros((4, 20), dtype=np.int64)
for _t in range(4):
    for _led in range(20):
        _m = int(BEATS[_t, _led])
        for _c in range(20):
            if (_m >> _c) & 1:
                BEATEN[_t, _c] |= 1 << _led
#: draw counts less likely than this are left out of :func:`expected_joint`
NEGLIGIBLE = 1e-3


@njit(cache=True)
def win_chance(trump, x, opp):
    """Rough chance that card ``x`` wins the trick it is played in against the cards ``opp``
    (uniformly random): half the time it leads (and the answer follows suit if it can), half
    the time it answers a random lead."""
    n = popcount(opp)
    if n == 0:
        return 0.5
    ins = opp & SUIT_MASK[x // 5]
    beats_x = BEATS[trump, x]
    if ins:
        p_lead = 1.0 - popcount(ins & beats_x) / popcount(ins)
    else:
        p_lead = 1.0 - popcount(opp & beats_x) / n
    return 0.5 * p_lead + 0.5 * popcount(opp & BEATEN[trump, x]) / n


@njit(cache=True)
def card_value(st, card, colour):
    """``(0, 1)`` for a card that adds a yellow, else ``(1, net knives it adds)`` (-1 for a
    green) for a player whose whites take ``colour``."""
    suit = card // 5
    if suit == YELLOW or (suit == WHITE and colour == COLOUR_YELLOW):
        return 0, 1
    if suit == GREEN or (suit == WHITE and colour == COLOUR_GREEN):
        return 1, -1
    if suit == RED:
        return 1, st[C_RED_KNIVES + card % 5]
    return 1, st[C_WHITE_RED_KNIVES]


@njit(cache=True, inline='always')
def convolve(a, o, lo, hi, v, r):
    """Add a card worth ``v`` (!= 0, |v| <= 8), taken with chance ``r``, to the distribution
    ``a[o:o + NDIST]`` held over ``lo..hi`` (zero outside, with at least 8 slots of padding on
    either side); returns the new bounds."""
    q = 1.0 - r
    if v > 0:
        for j in range(o + hi + v, o + lo - 1, -1):
            a[j] = a[j] * q + a[j - v] * r
        return lo, hi + v
    for j in range(o + lo + v, o + hi + 1):
        a[j] = a[j] * q + a[j - v] * r
    return lo + v, hi


@njit(cache=True)
def deconvolve(a, src, dst, lo, hi, v, r):
    """``a[dst:dst + NDIST]`` = the distribution ``a[src:src + NDIST]`` less a card worth ``v``
    taken with chance ``r`` (the inverse of :func:`convolve`, solved from its stable end; the
    result is zero outside the new bounds); returns the new bounds."""
    if v > 0:
        nlo, nhi = lo, hi - v
    else:
        nlo, nhi = lo - v, hi
    for j in range(dst + lo - 8, dst + hi + 9):
        a[j] = 0.0
    s = src - dst
    if r <= 0.5:
        q = 1.0 - r
        if v > 0:
            for j in range(dst + nlo, dst + nhi + 1):
                a[j] = (a[j + s] - r * a[j - v]) / q
        else:
            for j in range(dst + nhi, dst + nlo - 1, -1):
                a[j] = (a[j + s] - r * a[j - v]) / q
    elif v > 0:
        for j in range(dst + nhi, dst + nlo - 1, -1):
            a[j] = (a[j + s + v] - (1.0 - r) * a[j + v]) / r
    else:
        for j in range(dst + nlo, dst + nhi + 1):
            a[j] = (a[j + s + v] - (1.0 - r) * a[j + v]) / r
    return nlo, nhi


@interface.borrowing
def expected_joint(st, a, ji, first, pc, params):
    """E[:func:`.items.joint_cost`] when player p ends with its pile so far,
    ``ji[J_ADD_Y + p]`` yellows and ``ji[J_ADD_D + p]`` net knives more, and futures
    distributed as ``a[ji[J_YO + p]:]`` (yellows, over ``ji[J_YLO + p]..ji[J_YHI + p]``) and
    ``a[ji[J_DO + p]:]`` (net knives, ``J_DLO``, ``J_DHI``), all independently (the item
    table's ints at ``ji[J_IT:]``); draws off ``target_draws`` cost as in the heuristic."""
    tab = a[F_TAB:F_TAB + T_SIZE]
    it = ji[J_IT:J_IT + IT_SIZE]
    for i in range(2 * ITEM_N):
        a[F_PN + i] = 0.0
    extra = 0.0
    for p in range(2):
        o = PC_STRIDE * p
        greens, yellows, knives = pile_counts(st[S_WON + p], p, pc)
        health = pc[o + PC_HEALTH]
        add_y = ji[J_ADD_Y + p]
        yo = ji[J_YO + p]
        for j in range(ji[J_YLO + p], ji[J_YHI + p] + 1):
            n = max(0.0, max(1, yellows + add_y + j - YOFF) - pc[o + PC_DRAW_REDUCTION])
            off = n - params[TARGET_DRAWS]
            q = a[yo + j]
            a[F_PN + p * ITEM_N + min(int(n), ITEM_N - 1)] += q
            extra += q * (max(off, 0.0) * params[DRAW_OVER]
                          + max(-off, 0.0) * params[DRAW_UNDER])
        d = 0.0
        base = knives - greens + ji[J_ADD_D + p] - DOFF
        do = ji[J_DO + p]
        for j in range(ji[J_DLO + p], ji[J_DHI + p] + 1):
            hit = 1.0 + max(0.0, base + j)
            hit = hit + pc[o + PC_KILLER_ALL] * (health - hit)
            d += a[do + j] * (min(hit, health) * params[DAMAGE]
                              + (hit >= health) * params[DEATH])
        a[F_EDMG + p] = d
    f = F_PN + first * ITEM_N
    s = F_PN + (1 - first) * ITEM_N
    df = a[F_EDMG + first]
    ds = a[F_EDMG + 1 - first]
    lo = ITEM_N
    hi = -1
    for ns in range(ITEM_N):
        if a[s + ns] > NEGLIGIBLE:
            lo = min(lo, ns)
            hi = ns
    cost = extra
    for nf in range(ITEM_N):
        qf = a[f + nf]
        if qf <= NEGLIGIBLE:
            continue
        inner = 0.0
        for ns in range(lo, hi + 1):
            cell = item_cell(tab, it, nf, ns, params)
            inner += a[s + ns] * (tab[T_HS + cell] * ds - tab[T_G + cell])
        cost += qf * (inner + tab[T_HF + nf] * df)
    return cost


@interface.borrowing
def future_distributions(st, player, fl):
    """The distributions of each player's future yellows and net knives: every card left in
    the hands (the partner's as the share of the unseen cards it holds) goes to the player
    who wins its trick, by :func:`win_chance`, independently. Writes ``fl[F_DIST:]`` (yellows
    of player 0, 1, knives of 0, 1) and ``fl[F_CHANCE + 2 card + p]`` (card's chance to go
    to p); returns the bounds."""
    trump = st[S_TRUMP]
    unseen = ALL_CARDS & ~st[S_HAND + player] & ~st[S_PLAYED] & ~(1 << st[S_TRUMP_CARD])
    mine = st[S_HAND + player]
    cand, _ = partner_candidates(st, player)
    held = TRICKS_PER_ROUND - st[S_TRICK] - (1 if st[S_LED] >= 0 and
                                             st[S_TRICK_LEADER] != player else 0)
    frac = held / max(1, popcount(unseen))
    yd0 = F_DIST
    yd1 = F_DIST + NDIST
    dd0 = F_DIST + 2 * NDIST
    dd1 = F_DIST + 3 * NDIST
    fl[yd0 + YOFF] = 1.0
    fl[yd1 + YOFF] = 1.0
    fl[dd0 + DOFF] = 1.0
    fl[dd1 + DOFF] = 1.0
    ylo0, yhi0, ylo1, yhi1 = YOFF, YOFF, YOFF, YOFF
    dlo0, dhi0, dlo1, dhi1 = DOFF, DOFF, DOFF, DOFF
    col0 = colour_of_whites(st, 0)
    col1 = colour_of_whites(st, 1)
    m = mine | unseen
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if (mine >> c) & 1:
            w = win_chance(trump, c, cand)
            r_me = w
            r_pa = 1.0 - w
        else:
            w = win_chance(trump, c, mine)
            r_me = frac * (1.0 - w)
            r_pa = frac * w
        r0 = r_me if player == 0 else r_pa
        r1 = r_pa if player == 0 else r_me
        fl[F_CHANCE + 2 * c] = r0
        fl[F_CHANCE + 2 * c + 1] = r1
        kind, v = card_value(st, c, col0)
        if kind == 0:
            ylo0, yhi0 = convolve(fl, yd0, ylo0, yhi0, 1, r0)
        else:
            dlo0, dhi0 = convolve(fl, dd0, dlo0, dhi0, v, r0)
        kind, v = card_value(st, c, col1)
        if kind == 0:
            ylo1, yhi1 = convolve(fl, yd1, ylo1, yhi1, 1, r1)
        else:
            dlo1, dhi1 = convolve(fl, dd1, dlo1, dhi1, v, r1)
    return ylo0, yhi0, ylo1, yhi1, dlo0, dhi0, dlo1, dhi1


@interface.borrowing
def answer_costs(st, legal, want, params, out):
    """Add the heuristic's closed-form answer costs (:func:`..common.answer_terms`) to
    ``out`` per legal card, ``want`` the winner the plan wishes for (-1: none): a borrowing
    pass of its own, as inlined in :func:`follow_card` they would count references to ``st``
    and ``params`` for every card."""
    lead = st[S_LED]
    area = st[S_AREA]
    trump = st[S_TRUMP]
    rule = has_trick_rule(st, area) and not st[S_TRAP_ROUND]
    safe = safe_answers(st, area, trump, lead)
    beats = BEATS[trump, lead]
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        out[card] = answer_terms(st, out[card], area, trump, rule, safe, beats, want, card,
                                 params)


@njit(cache=True)
def follow_card(st, player, legal, params):
    """The answer of least cost: the heuristic's closed-form terms (the trick rule, the plan's
    wish of :func:`.plan.sole_sweep_winner` or the exact check, flexibility) plus the expected
    end-of-round cost of both piles when the trick goes to its winner and the rest of the cards
    as :func:`future_distributions` says, the answer itself taken out of them
    (:func:`deconvolve`)."""
    reps = representatives(st, player, legal)
    futures = reps & (reps - 1) != 0
    fl = np.empty(F_SIZE if futures else F_SHARED)
    # out accumulates and the distributions need their zero padding; every other slot is
    # written before it is read
    zero(fl, F_OUT, F_OUT + 20)
    if futures:
        zero(fl, F_DIST, F_DIST + 4 * NDIST)
    lead = st[S_LED]
    leader = 1 - player
    want = sole_sweep_winner(st, leader)
    out = fl[F_OUT:F_OUT + 20]
    pc = fl[F_PC:F_PC + PC_SIZE]
    if planned_area(st, params):
        want = -1
        parity_failures(st, player, legal, np.bool_(False), int(params[DD_HANDS]),
                        np.empty(MOST_HANDS, dtype=np.int64), out,
                        lcg_seed(st), params[BREACH])
    answer_costs(st, legal, want, params, out)
    beats = BEATS[st[S_TRUMP], lead]
    value = 0.0
    b = (0, 0, 0, 0, 0, 0, 0, 0)
    first = first_drawer(st)
    ji = np.empty(J_SIZE, dtype=np.int64)
    it = ji[J_IT:]
    if futures:
        cost_constants(st, pc)
        b = future_distributions(st, player, fl)
        item_prepare(st, player, fl[F_TAB:F_TAB + T_SIZE], it)
    best = -1
    best_cost = 1e300
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        cost = out[card]
        w = (beats >> card) & 1
        taker = player if w else leader
        if (reps >> card) & 1 and futures:
            # a new class: its members share the value of the cards won
            for p in range(2):
                yo = F_DIST + p * NDIST
                do = F_DIST + (2 + p) * NDIST
                ylo, yhi = (b[0], b[1]) if p == 0 else (b[2], b[3])
                dlo, dhi = (b[4], b[5]) if p == 0 else (b[6], b[7])
                col = np.int64(pc[PC_STRIDE * p + PC_COLOUR])
                kind, v = card_value(st, card, col)
                if kind == 0:
                    ty = F_LESS + 2 * p * NDIST
                    ylo, yhi = deconvolve(fl, yo, ty, ylo, yhi, np.int64(1),
                                          fl[F_CHANCE + 2 * card + p])
                    yo = ty
                else:
                    td = F_LESS + (2 * p + 1) * NDIST
                    dlo, dhi = deconvolve(fl, do, td, dlo, dhi, v, fl[F_CHANCE + 2 * card + p])
                    do = td
                add_y = 0
                add_d = 0
                if p == taker:
                    for z in (lead, card):
                        kz, vz = card_value(st, z, col)
                        add_y += 1 - kz
                        add_d += kz * vz
                ji[J_YO + p] = yo
                ji[J_YLO + p] = ylo
                ji[J_YHI + p] = yhi
                ji[J_DO + p] = do
                ji[J_DLO + p] = dlo
                ji[J_DHI + p] = dhi
                ji[J_ADD_Y + p] = add_y
                ji[J_ADD_D + p] = add_d
            value = expected_joint(st, fl, ji, first, pc, params)
        cost += params[FOLLOW_WEIGHT] * value
        if cost < best_cost:
            best_cost = cost
            best = card
    return best
