"""The leads' rollouts: the play phase finished by random priorities on sampled partner hands.

Each sample deals the partner a hand from the player's view (:func:`sample_hand`) and gives
every card in the two hands a random priority (:func:`shuffle_in_play`); each player then plays
its legal card of highest priority (:func:`rollout`, branch-free). Every class of leads is
rolled out on the same deal and priorities, up to four at a time (:func:`rollout2`,
:func:`rollout4`: independent chains the processor overlaps), and the piles each rollout ends
with are valued by the item model (:func:`lead_rollouts`).
"""
from numba import njit
import numpy as np

from ...core.layout import S_HAND, S_TRICK, S_TRUMP, S_WON
from ...core.rules import TRICKS_PER_ROUND
from ...engine.bits import lowest_bit, nth_bit, popcount
from ..common import BEATS, partner_candidates
from .item_model import (
    cost_constants,
    fill_item_cell,
    first_drawer,
    item_prepare,
    pile_tables,
    tabled_draws_and_damage,
)
from .lcg import lcg_below, lcg_next
from .slots import (
    DT_STRIDE,
    F_COST,
    F_DT,
    F_EFF,
    F_LEAD_TAB,
    F_PC,
    I_CLASSES,
    I_INV,
    I_IT,
    I_POS,
    I_PSUIT,
    I_PT,
    I_SUITP,
    I_WON,
    IT_DONE,
    IT_SIZE,
    ITEM_N,
    PC_SIZE,
    PT_STRIDE,
    T_G,
    T_HF,
    T_HS,
    T_SIZE,
)


@njit(cache=True, inline='always')
def sample_hand(cand, hidden, x):
    """The partner's hand, ``cand`` less ``hidden`` uniformly random cards; and the state."""
    n = popcount(cand)
    for i in range(hidden):
        x = lcg_next(x)
        cand &= ~(1 << nth_bit(cand, lcg_below(x, n - i)))
    return cand, x


@njit(cache=True, inline='always')
def shuffle_in_play(mine, theirs, ints, x):
    """Random priorities for the cards in the two hands: ``ints[I_POS + card]`` its priority
    bit, ``ints[I_INV + bit]`` the card, ``ints[I_SUITP + suit]`` the suit masks in priority
    bits and ``ints[I_PSUIT + bit]`` the mask of the suit of that bit's card. Returns both
    hands in priority bits and the generator state."""
    n = 0
    m = mine | theirs
    while m:
        c = lowest_bit(m)
        m &= m - 1
        x = lcg_next(x)
        j = lcg_below(x, n + 1)
        ints[I_INV + n] = ints[I_INV + j]
        ints[I_INV + j] = c
        n += 1
    for s in range(4):
        ints[I_SUITP + s] = 0
    hm = 0
    ht = 0
    for i in range(n):
        c = ints[I_INV + i]
        ints[I_POS + c] = i
        ints[I_SUITP + c // 5] |= 1 << i
        if (mine >> c) & 1:
            hm |= 1 << i
        else:
            ht |= 1 << i
    for i in range(n):
        ints[I_PSUIT + i] = ints[I_SUITP + ints[I_INV + i] // 5]
    return hm, ht, x


@njit(cache=True, inline='always')
def trick(hl, hf, lp, leader, won0, beats, ints):
    """One trick of a rollout (hands in priority bits): player ``leader``, holding ``hl``
    besides it, leads its card of priority bit ``lp``; the follower (``hf``) answers with its
    legal card of highest priority. ``beats[card]`` are the cards that beat ``card`` led.
    Branch-free (the branches of random play mispredict). Returns the next leader's and
    follower's hands, the next leader and ``won0`` with the trick's cards if player 0 took
    them."""
    lead = ints[I_INV + lp]
    fol = hf & ints[I_PSUIT + lp]
    fol |= hf & (np.int64(0) - np.int64(fol == 0))
    fp = lowest_bit(fol)
    hf &= ~(1 << fp)
    f = ints[I_INV + fp]
    w = (beats[lead] >> f) & 1
    leader ^= w
    won0 |= ((1 << lead) | (1 << f)) & (np.int64(leader) - 1)
    z = np.int64(0) - w
    return (hf & z) | (hl & ~z), (hl & z) | (hf & ~z), leader, won0


@njit(cache=True, inline='always')
def rollout(hl, hf, lp, leader, tricks, beats, ints):
    """Finish the play phase on a known deal from trick ``tricks``: the leader ``leader``
    (holding ``hl`` besides it) leads its card of priority bit ``lp``, then each player plays
    its legal card of highest priority (:func:`trick`). Returns the cards player 0 won."""
    hl, hf, leader, won0 = trick(hl, hf, lp, leader, 0, beats, ints)
    for _ in range(tricks + 1, TRICKS_PER_ROUND):
        lp = lowest_bit(hl)
        hl &= hl - 1
        hl, hf, leader, won0 = trick(hl, hf, lp, leader, won0, beats, ints)
    return won0


@njit(cache=True, inline='always')
def rollout2(h, hf, lp0, lp1, leader, tricks, beats, ints):
    """Two :func:`rollout` at once from the same hands ``h`` (the leader's, holding the led
    cards of priority bits ``lp0``, ``lp1``) and ``hf`` (independent chains the processor
    overlaps)."""
    a0, a1, al, aw = trick(h & ~(1 << lp0), hf, lp0, leader, 0, beats, ints)
    b0, b1, bl, bw = trick(h & ~(1 << lp1), hf, lp1, leader, 0, beats, ints)
    for _ in range(tricks + 1, TRICKS_PER_ROUND):
        ap = lowest_bit(a0)
        bp = lowest_bit(b0)
        a0, a1, al, aw = trick(a0 & (a0 - 1), a1, ap, al, aw, beats, ints)
        b0, b1, bl, bw = trick(b0 & (b0 - 1), b1, bp, bl, bw, beats, ints)
    return aw, bw


@njit(cache=True, inline='always')
def rollout4(h, hf, lp0, lp1, lp2, lp3, leader, tricks, beats, ints):
    """Four :func:`rollout` at once, as :func:`rollout2`."""
    a0, a1, al, aw = trick(h & ~(1 << lp0), hf, lp0, leader, 0, beats, ints)
    b0, b1, bl, bw = trick(h & ~(1 << lp1), hf, lp1, leader, 0, beats, ints)
    c0, c1, cl, cw = trick(h & ~(1 << lp2), hf, lp2, leader, 0, beats, ints)
    d0, d1, dl, dw = trick(h & ~(1 << lp3), hf, lp3, leader, 0, beats, ints)
    for _ in range(tricks + 1, TRICKS_PER_ROUND):
        ap = lowest_bit(a0)
        bp = lowest_bit(b0)
        cp = lowest_bit(c0)
        dp = lowest_bit(d0)
        a0, a1, al, aw = trick(a0 & (a0 - 1), a1, ap, al, aw, beats, ints)
        b0, b1, bl, bw = trick(b0 & (b0 - 1), b1, bp, bl, bw, beats, ints)
        c0, c1, cl, cw = trick(c0 & (c0 - 1), c1, cp, cl, cw, beats, ints)
        d0, d1, dl, dw = trick(d0 & (d0 - 1), d1, dp, dl, dw, beats, ints)
    return aw, bw, cw, dw


@njit(cache=True, inline='always')
def lead_rollouts(st, player, live, params, fl, ints, x, n):
    """Add to ``fl[F_EFF + rep]`` the end-of-round cost of both piles (:func:`.items.joint_cost`,
    from the tables of :func:`.items.pile_tables`) of each class ``rep`` of ``live`` (at least
    two) over ``n`` sampled partner hands and random-priority rollouts, the same deal and
    priorities for every class."""
    eff = fl[F_EFF:F_EFF + 20]
    pc = fl[F_PC:F_PC + PC_SIZE]
    cost_constants(st, pc)
    tab = fl[F_LEAD_TAB:F_LEAD_TAB + T_SIZE]
    it = ints[I_IT:I_IT + IT_SIZE]
    first = first_drawer(st)
    pt = ints[I_PT:I_PT + 2 * PT_STRIDE]
    dt = fl[F_DT:F_DT + 2 * DT_STRIDE]
    won = ints[I_WON:I_WON + 8]
    item_prepare(st, player, tab, it)
    pile_tables(pc, params, pt, dt)
    cand, hidden = partner_candidates(st, player)
    beats = BEATS[st[S_TRUMP]]
    mine = st[S_HAND + player]
    cls = ints[I_CLASSES:I_CLASSES + 8]
    ncls = 0
    m = live
    while m:
        cls[ncls] = lowest_bit(m)
        m &= m - 1
        ncls += 1
    v = fl[F_COST:F_COST + 8]
    w0 = st[S_WON]
    w1 = st[S_WON + 1]
    tricks = st[S_TRICK]
    for _ in range(n):
        theirs, x = sample_hand(cand, hidden, x)
        hp_me, hp_th, x = shuffle_in_play(mine, theirs, ints, x)
        both = mine | theirs
        k = 0
        while k < ncls:
            left = ncls - k
            if left >= 3:
                k3 = min(k + 3, ncls - 1)
                won[k], won[k + 1], won[k + 2], won[k3] = rollout4(
                    hp_me, hp_th, ints[I_POS + cls[k]], ints[I_POS + cls[k + 1]],
                    ints[I_POS + cls[k + 2]], ints[I_POS + cls[k3]], player, tricks, beats, ints)
                k += 4
            elif left == 2:
                won[k], won[k + 1] = rollout2(hp_me, hp_th, ints[I_POS + cls[k]],
                                              ints[I_POS + cls[k + 1]], player, tricks, beats,
                                              ints)
                k += 2
            else:
                lp = ints[I_POS + cls[k]]
                won[k] = rollout(hp_me & ~(1 << lp), hp_th, lp, player, tricks, beats, ints)
                k += 1
        # the piles' costs (:func:`.items.joint_cost` from the tables), here rather than in a
        # function: an inlined function that may call fill_item_cell costs numba reference
        # counts on every call
        for k in range(ncls):
            p0 = w0 | won[k]
            p1 = w1 | (both & ~won[k])
            n0, d0 = tabled_draws_and_damage(p0, np.int64(0), pt, dt)
            n1, d1 = tabled_draws_and_damage(p1, np.int64(1), pt, dt)
            nf, df, ns, ds = (n0, d0, n1, d1) if first == 0 else (n1, d1, n0, d0)
            cell = nf * ITEM_N + ns
            if not (it[IT_DONE] >> cell) & 1:
                fill_item_cell(tab, it, nf, ns, cell, params)
            v[k] = tab[T_HF + nf] * df + tab[T_HS + cell] * ds - tab[T_G + cell]
        for k in range(ncls):
            eff[cls[k]] += v[k]
