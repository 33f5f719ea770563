"""The expert's item model: both players' piles valued by what the player may know of the item
deck ahead.

:func:`item_prepare` reads where the Killer can lie (the slots the player has not seen, within
the rulebook's top group while it lasts, or its own Flashlight's sight), who draws first
(:func:`first_drawer`) and which escape items the team still lacks; :func:`item_cell` then
values a pair of draw counts, the first drawer's and the second's, filled on first use: the
Killer's chance for each, and the escape items either may draw (``escape_value`` each,
``win_value`` when they win the game). :func:`joint_cost` values two piles with it; the leads'
rollouts read the same numbers from tables made once per lead (:func:`pile_tables`).
"""
from numba import njit
import numpy as np

from ...core.layout import (
    C_AREA_DRAW_REDUCTION,
    C_AREA_GREENS_REMOVED,
    C_AREA_KILLER_ALL,
    C_DRAW_ORDER,
    C_ESCAPES_NEEDED,
    C_KILLER_RESHUFFLE,
    C_RED_KNIVES,
    C_WHITE_RED_KNIVES,
    DECK_CAPACITY,
    S_AREA,
    S_DECK,
    S_DECK_N,
    S_DECK_SEEN,
    S_HEALTH,
    S_HELD,
    S_ROUND_LEADER,
    S_TRICK_LEADER,
    SLOT_TOP_GROUP,
)
from ...core.rules import (
    COLOUR_GREEN,
    COLOUR_YELLOW,
    DRAW_LAST_TRICK_WINNER,
    GREEN,
    KILLER,
    KILLER_RESHUFFLE_AT_ONCE,
    KIND_ESCAPE,
    RED,
    SUIT_MASK,
    WHITE,
    YELLOW,
)
from ...engine import interface
from ...engine.bits import popcount
from ..common import DAMAGE, DEATH, colour_of_whites
from .slots import (
    DT_STRIDE,
    ESCAPE_VALUE,
    IT_AT_ONCE,
    IT_DONE,
    IT_FIXED,
    IT_FREE,
    IT_KSEEN,
    IT_N,
    IT_NEED,
    IT_Z,
    IT_ZONE,
    ITEM_N,
    KNIVES_MAX,
    PC_COLOUR,
    PC_DRAW_REDUCTION,
    PC_GREENS_REMOVED,
    PC_HEALTH,
    PC_KILLER_ALL,
    PC_RED,
    PC_REDS,
    PC_STRIDE,
    PC_WHITE_KNIVES,
    PT_GREEN,
    PT_LAKESIDE,
    PT_N,
    PT_RED,
    PT_STRIDE,
    PT_WHITE,
    PT_WHITE_KNIVES,
    PT_YELLOW,
    T_G,
    T_HF,
    T_HS,
    T_NONE,
    WIN_VALUE,
)

#: ``RECIPROCAL[i]`` = 1 / i (0 for i = 0)
RECIPROCAL = np.array([0.0] + [1.0 / i for i in range(1, DECK_CAPACITY + 1)])


# --- the piles ---------------------------------------------------------------------------------
@interface.borrowing
def cost_constants(st, pc):
    """Fill ``pc`` with what the piles' costs read of ``st``: per player its health, the colour
    of its whites and the area's effects (``PC_*`` of :mod:`.layout`), then the reds'
    knives."""
    area = st[S_AREA]
    for p in range(2):
        o = PC_STRIDE * p
        pc[o + PC_HEALTH] = st[S_HEALTH + p]
        pc[o + PC_COLOUR] = colour_of_whites(st, p)
        pc[o + PC_GREENS_REMOVED] = st[C_AREA_GREENS_REMOVED + area]
        pc[o + PC_KILLER_ALL] = 1.0 if st[C_AREA_KILLER_ALL + area] else 0.0
        pc[o + PC_DRAW_REDUCTION] = st[C_AREA_DRAW_REDUCTION + area]
        pc[o + PC_WHITE_KNIVES] = st[C_WHITE_RED_KNIVES]
    for r in range(5):
        pc[PC_RED + r] = st[C_RED_KNIVES + r]
    # the reds' knives read into locals: the table's stores could alias them
    r0, r1, r2, r3, r4 = pc[PC_RED], pc[PC_RED + 1], pc[PC_RED + 2], pc[PC_RED + 3], pc[PC_RED + 4]
    for m in range(32):
        pc[PC_REDS + m] = (m & 1) * r0 + ((m >> 1) & 1) * r1 + ((m >> 2) & 1) * r2 \
            + ((m >> 3) & 1) * r3 + ((m >> 4) & 1) * r4


@njit(cache=True)
def pile_counts(won, p, pc):
    """Greens (after Lakeside), yellows and knives of player p's pile ``won``."""
    o = PC_STRIDE * p
    greens = popcount(won & SUIT_MASK[GREEN])
    yellows = popcount(won & SUIT_MASK[YELLOW])
    whites = popcount(won & SUIT_MASK[WHITE])
    knives = pc[PC_REDS + ((won >> (5 * RED)) & 31)]
    colour = pc[o + PC_COLOUR]
    greens += whites * (colour == COLOUR_GREEN)
    yellows += whites * (colour == COLOUR_YELLOW)
    knives += whites * (colour < COLOUR_YELLOW) * pc[o + PC_WHITE_KNIVES]
    return max(0.0, greens - pc[o + PC_GREENS_REMOVED]), yellows, knives


# --- the item phase ahead -------------------------------------------------------------------------
@interface.borrowing
def item_prepare(st, player, tab, it):
    """What ``player`` may know of the item phase ahead, for :func:`item_cell`: the Killer lies
    uniformly in the slots the player has not seen, within the rulebook's top group while it
    lasts (as :func:`..search.sample_item_deck` deals it), and the other unseen cards uniformly
    in the rest."""
    n = st[S_DECK_N]
    me = 1 << player
    held = st[S_HELD] | st[S_HELD + 1]
    escapes = interface.kind_items(st, KIND_ESCAPE)
    missing = escapes & ~held
    free = 0
    zone = 0
    fixed = 0
    k_seen = -1
    killer = False
    unseen_esc = 0
    for i in range(n):
        pos = n - 1 - i
        mark = st[S_DECK_SEEN + i]
        card = st[S_DECK + i]
        if mark & me:
            if card == KILLER:
                k_seen = pos
            elif (missing >> card) & 1:
                fixed |= 1 << pos
        else:
            free |= 1 << pos
            if mark & SLOT_TOP_GROUP:
                zone |= 1 << pos
            if card == KILLER:
                killer = True
            else:
                unseen_esc += (missing >> card) & 1
    if zone == 0:
        zone = free
    if not killer:
        zone = 0
    f_cards = popcount(free) - (1 if killer else 0)
    tab[T_NONE] = 1.0
    for j in range(1, DECK_CAPACITY + 1):
        num = f_cards - unseen_esc - (j - 1)
        tab[T_NONE + j] = tab[T_NONE + j - 1] * num * RECIPROCAL[f_cards - (j - 1)] \
            if num > 0 else 0.0
    it[IT_N] = n
    it[IT_Z] = popcount(zone)
    it[IT_NEED] = st[C_ESCAPES_NEEDED] - popcount(held & escapes)
    it[IT_AT_ONCE] = st[C_KILLER_RESHUFFLE] == KILLER_RESHUFFLE_AT_ONCE
    it[IT_FREE] = free
    it[IT_FIXED] = fixed
    it[IT_ZONE] = zone
    it[IT_KSEEN] = k_seen
    it[IT_DONE] = 0


@njit(cache=True, inline='always')
def slots_in(lo, hi, it):
    """``(unseen slots among draws lo..hi-1, 1 if a known one holds a missing escape)``."""
    r = ((np.int64(1) << hi) - 1) & ~((np.int64(1) << lo) - 1) if hi > lo else np.int64(0)
    return popcount(r & it[IT_FREE]), int(r & it[IT_FIXED] != 0)


@njit(cache=True)
def gains_value(a, fa, b, fb, tab, need, esc_value, win_value):
    """The value of the escape items gained when the first drawer's cards hold ``a`` unseen
    slots (``fa``: a known escape among them) and the second's ``b`` (``fb``), the missing
    escapes spread uniformly over the unseen card slots; each player keeps one."""
    pa0 = 0.0 if fa else tab[T_NONE + a]
    pb0 = 0.0 if fb else tab[T_NONE + b]
    pab0 = 0.0 if fa or fb else tab[T_NONE + a + b]
    gained = 2.0 - pa0 - pb0
    if need <= 0:
        win = 1.0
    elif need == 1:
        win = 1.0 - pab0
    elif need == 2:
        win = 1.0 - pa0 - pb0 + pab0
    else:
        win = 0.0
    return esc_value * gained + win_value * win


@njit(cache=True)
def item_cell(tab, it, nf, ns, params):
    """The table's cell for ``nf`` draws of the first drawer and ``ns`` of the second, filled
    by :func:`fill_item_cell` on first use."""
    cell = nf * ITEM_N + ns
    if not (it[IT_DONE] >> cell) & 1:
        fill_item_cell(tab, it, nf, ns, cell, params)
    return cell


@interface.borrowing
def fill_item_cell(tab, it, nf, ns, cell, params):
    """Fill the table's cell for ``nf`` draws of the first drawer and ``ns`` of the second: the
    first draws the top cards and stops on the Killer, the second draws on from there (after
    the Killer, ``ns`` cards taken as unseen; under a reshuffle at once, from a fresh deck),
    each keeps an escape item the team lacks if it drew one."""
    it[IT_DONE] |= np.int64(1) << cell
    n = it[IT_N]
    need = it[IT_NEED]
    at_once = it[IT_AT_ONCE]
    esc_value = params[ESCAPE_VALUE]
    win_value = params[WIN_VALUE]
    none = np.int64(0)  # no slots: typed int64, not a literal that would compile gains_value again
    fe = min(nf, n)
    end = min(fe + ns, n)
    a, fa = slots_in(0, fe, it)
    b, fb = slots_in(fe, end, it)
    z = it[IT_Z]
    if z > 0:
        zone = it[IT_ZONE]
        lo = (np.int64(1) << fe) - 1
        mid = ((np.int64(1) << end) - 1) & ~lo
        z1 = popcount(zone & lo) / z
        z2 = popcount(zone & mid) / z
        g = (1.0 - z1 - z2) * gains_value(a, fa, b, fb, tab, need, esc_value, win_value)
        g += z2 * gains_value(a, fa, none, none, tab, need, esc_value, win_value)
        if not at_once and z1 > 0.0:
            # after the Killer, the second draws ``ns`` cards taken as unseen
            g += z1 * gains_value(none, none, min(ns, n - 1), none, tab, need, esc_value, win_value)
        hs = z2 + (z1 * min(1.0, ns / max(1, n)) if at_once else 0.0)
        hf = z1
    else:
        k_seen = it[IT_KSEEN]
        hf = 1.0 if 0 <= k_seen < fe else 0.0
        if hf > 0:
            b, fb = slots_in(k_seen + 1, min(k_seen + 1 + ns, n), it)
            g = 0.0 if at_once else gains_value(none, none, b, fb, tab, need, esc_value, win_value)
            hs = min(1.0, ns / max(1, n)) if at_once else 0.0
        elif fe <= k_seen < end:
            g = gains_value(a, fa, none, none, tab, need, esc_value, win_value)
            hs = 1.0
        else:
            g = gains_value(a, fa, b, fb, tab, need, esc_value, win_value)
            hs = 0.0
    tab[T_HF + nf] = hf
    tab[T_HS + cell] = hs
    tab[T_G + cell] = g


@njit(cache=True, inline='always')
def first_drawer(st):
    """The player who will draw first (``C_DRAW_ORDER``; under "last trick winner", the
    trick's leader now stands in)."""
    if st[C_DRAW_ORDER] == DRAW_LAST_TRICK_WINNER:
        return st[S_TRICK_LEADER]
    return st[S_ROUND_LEADER]


@njit(cache=True)
def draws_and_damage(won, p, pc, params):
    """Player p's draws (at most ``ITEM_N - 1``) for the pile ``won`` and the cost of the
    Killer's damage if it comes."""
    o = PC_STRIDE * p
    greens, yellows, knives = pile_counts(won, p, pc)
    n = max(0.0, max(1, yellows) - pc[o + PC_DRAW_REDUCTION])
    health = pc[o + PC_HEALTH]
    hit = 1.0 + max(0.0, knives - greens)
    hit = hit + pc[o + PC_KILLER_ALL] * (health - hit)
    return min(int(n), ITEM_N - 1), \
        min(hit, health) * params[DAMAGE] + (hit >= health) * params[DEATH]


@njit(cache=True)
def joint_cost(w0, w1, first, tab, it, pc, params):
    """The item-phase cost of players 0 and 1 ending the play phase with the piles ``w0``
    and ``w1``, ``first`` drawing first (:func:`item_cell`). The leads' rollouts compute it
    from :func:`pile_tables` (tested equal)."""
    n0, d0 = draws_and_damage(w0, np.int64(0), pc, params)
    n1, d1 = draws_and_damage(w1, np.int64(1), pc, params)
    nf, df, ns, ds = (n0, d0, n1, d1) if first == 0 else (n1, d1, n0, d0)
    cell = item_cell(tab, it, nf, ns, params)
    return tab[T_HF + nf] * df + tab[T_HS + cell] * ds - tab[T_G + cell]


@interface.borrowing
def pile_tables(pc, params, pt, dt):
    """What :func:`joint_cost` reads of a pile, tabulated once per lead for its rollouts: per
    player p, ``pt[PT_STRIDE p:]`` the masks of the cards that count as yellows, as greens and
    as knives (whites), Lakeside's greens removed, a white's knives, the draws' index by
    yellows (``PT_N``) and the red knives by the mask of reds (``PT_RED``); ``dt[DT_STRIDE p + k]``
    the cost of the Killer's damage at net knives ``k`` (from ``KNIVES_MAX`` on, the hit is
    above any health and costs the same)."""
    for p in range(2):
        o = PC_STRIDE * p
        b = PT_STRIDE * p
        colour = pc[o + PC_COLOUR]
        pt[b + PT_YELLOW] = SUIT_MASK[YELLOW] | (SUIT_MASK[WHITE] if colour == COLOUR_YELLOW else 0)
        pt[b + PT_GREEN] = SUIT_MASK[GREEN] | (SUIT_MASK[WHITE] if colour == COLOUR_GREEN else 0)
        pt[b + PT_WHITE] = SUIT_MASK[WHITE] if colour < COLOUR_YELLOW else 0
        pt[b + PT_LAKESIDE] = int(pc[o + PC_GREENS_REMOVED])
        pt[b + PT_WHITE_KNIVES] = int(pc[o + PC_WHITE_KNIVES])
        for y in range(21):
            n = max(0.0, max(1, y) - pc[o + PC_DRAW_REDUCTION])
            pt[b + PT_N + y] = min(int(n), ITEM_N - 1)
        for m in range(32):
            pt[b + PT_RED + m] = int(pc[PC_REDS + m])
        health = pc[o + PC_HEALTH]
        for k in range(KNIVES_MAX + 1):
            hit = 1.0 + max(0.0, float(k))
            hit = hit + pc[o + PC_KILLER_ALL] * (health - hit)
            dt[DT_STRIDE * p + k] = min(hit, health) * params[DAMAGE] \
                + (hit >= health) * params[DEATH]


@njit(cache=True)
def tabled_draws_and_damage(won, p, pt, dt):
    """:func:`draws_and_damage` from the tables of :func:`pile_tables`."""
    b = PT_STRIDE * p
    greens = max(0, popcount(won & pt[b + PT_GREEN]) - pt[b + PT_LAKESIDE])
    knives = pt[b + PT_RED + ((won >> (5 * RED)) & 31)] \
        + popcount(won & pt[b + PT_WHITE]) * pt[b + PT_WHITE_KNIVES]
    return pt[b + PT_N + popcount(won & pt[b + PT_YELLOW])], \
        dt[DT_STRIDE * p + min(max(0, knives - greens), KNIVES_MAX)]
