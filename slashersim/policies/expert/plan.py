"""The expert's area plan for Tent site and Lodge, and its exact parity checks.

The plan wishes for a trick winner only when exactly one of "the leader wins the rest" and "the
follower wins the rest" ends with the right parity (:func:`sole_sweep_winner`). From trick
``dd_from`` on (:func:`planned_area`) the wish gives way to an exact check instead: each card is
charged the trap cost times the share of the partner's possible hands on which no line of play
keeps the area any more (:func:`parity_failures`, :func:`parity_solvable`). The Hideaway, whose
Killer kills, is not played to be kept.
"""
from numba import njit

from ...core.layout import S_AREA, S_HAND, S_LED, S_TRAP_ROUND, S_TRICK, S_TRICKS, S_TRUMP
from ...engine import interface
from ...engine.bits import lowest_bit, nth_bit, popcount
from ...engine.predicates import legal_cards, trick_winner
from ..common import final_parity, partner_candidates
from .lcg import lcg_below, lcg_next
from .slots import DD_FROM


# --- the area plan ------------------------------------------------------------------------------
@njit(cache=True)
def sole_sweep_winner(st, leader):
    """The trick winner whose sweep of the rest is the only one that ends right: 0 the trick's
    leader, 1 the follower, -1 for no wish.

    Tent site (even counts) and Lodge (odd): "the leader wins the rest" (the follower's count
    stays) and "the follower wins the rest"; a wish only when exactly one of them ends right.
    When both or neither do, either outcome of this trick leaves exactly one such plan, so
    there is no wish (the heuristic's :func:`..heuristic.sweep_winner` wishes for the leader
    then, which in the "neither" case ends wrong). No wish elsewhere (the Hideaway, whose
    Killer kills, is not played to be kept) or once a trap went off.
    """
    if st[S_TRAP_ROUND]:
        return -1
    parity = final_parity(st, st[S_AREA])
    if parity < 0:
        return -1
    lead_rest = st[S_TRICKS + 1 - leader] % 2 == parity
    follow_rest = st[S_TRICKS + leader] % 2 == parity
    if lead_rest and not follow_rest:
        return 0
    if follow_rest and not lead_rest:
        return 1
    return -1


@njit(cache=True, inline='always')
def planned_area(st, params):
    """Whether the exact check of :func:`parity_failures` runs: Tent site or Lodge, no trap yet
    this round, from trick ``dd_from`` on."""
    return final_parity(st, st[S_AREA]) >= 0 and not st[S_TRAP_ROUND] and \
        st[S_TRICK] >= params[DD_FROM]


# --- exact parity play (Tent site, Lodge) on a known deal -----------------------------------------
#: ``RANKS_FROM[k]``: the cards of rank ``k`` (0-based, within the suit) or higher
RANKS_FROM = tuple(sum(1 << (5 * s + r) for s in range(4) for r in range(k, 5)) for k in range(5))
RANKS_FROM_1, RANKS_FROM_2, RANKS_FROM_3, RANKS_FROM_4 = RANKS_FROM[1:]


@njit(cache=True)
def distinct(h, occ):
    """``h`` less each card whose next lower card of its suit in ``occ`` is in ``h`` too: one
    card of each run of cards of ``h`` with nothing of ``occ`` between them (``h`` within
    ``occ``), which win and lose alike against every card of ``occ``."""
    gap = ~(occ << 1)
    same = h & (h << 1) & RANKS_FROM_1
    same |= h & (h << 2) & gap & RANKS_FROM_2
    gap &= ~(occ << 2)
    same |= h & (h << 3) & gap & RANKS_FROM_3
    gap &= ~(occ << 3)
    same |= h & (h << 4) & gap & RANKS_FROM_4
    return h & ~same


@njit(cache=True, inline='always')
def parity_last(hl, hf, tl, tf, parity, trump):
    """:func:`parity_solvable` when each hand holds one card."""
    if trick_winner(lowest_bit(hl), lowest_bit(hf), trump) == 0:
        return (tl + 1) % 2 == parity
    return (tf + 1) % 2 == parity


@njit(cache=True)
def parity_two(hl, hf, tl, tf, parity, trump):
    """:func:`parity_solvable` when each hand holds two cards (no call)."""
    m = hl
    while m:
        c = lowest_bit(m)
        m &= m - 1
        a = legal_cards(hf, c)
        while a:
            f = lowest_bit(a)
            a &= a - 1
            if trick_winner(c, f, trump) == 0:
                if parity_last(hl & ~(1 << c), hf & ~(1 << f), tl + 1, tf, parity, trump):
                    return True
            elif parity_last(hf & ~(1 << f), hl & ~(1 << c), tf + 1, tl, parity, trump):
                return True
    return False


@interface.borrowing
def parity_solvable(hl, hf, tl, tf, parity, trump):
    """Whether some line of play of the hands ``hl`` (the trick's leader, ``tl`` tricks won)
    and ``hf`` (the follower, ``tf``) ends with the leader's count ``% 2 == parity`` (both
    players' counts have the same parity at the end, 8 being even). Equivalent cards
    (:func:`distinct`) are tried once; the last two tricks are played out without a call."""
    if hl == 0:
        return tl % 2 == parity
    nl = popcount(hl)
    nf = popcount(hf)
    if nl == 1 and nf == 1:
        return parity_last(hl, hf, tl, tf, parity, trump)
    if nl == 2 and nf == 2:
        return parity_two(hl, hf, tl, tf, parity, trump)
    short = nl == 3 and nf == 3
    occ = hl | hf
    m = distinct(hl, occ)
    while m:
        c = lowest_bit(m)
        m &= m - 1
        a = distinct(legal_cards(hf, c), occ)
        while a:
            f = lowest_bit(a)
            a &= a - 1
            if trick_winner(c, f, trump) == 0:
                if short:
                    ok = parity_two(hl & ~(1 << c), hf & ~(1 << f), tl + 1, tf, parity, trump)
                else:
                    ok = parity_solvable(hl & ~(1 << c), hf & ~(1 << f), tl + 1, tf, parity,
                                         trump)
            elif short:
                ok = parity_two(hf & ~(1 << f), hl & ~(1 << c), tf + 1, tl, parity, trump)
            else:
                ok = parity_solvable(hf & ~(1 << f), hl & ~(1 << c), tf + 1, tl, parity, trump)
            if ok:
                return True
    return False


@interface.borrowing
def partner_hands(cand, hidden, out, most, x):
    """Fill ``out`` with the partner's possible hands, ``cand`` less ``hidden`` cards: all of
    them if there are at most ``most``, else ``most`` uniform samples drawn from generator
    state ``x``. Returns their number and the generator state."""
    u = popcount(cand)
    total = 1
    if hidden == 1:
        total = u
    elif hidden == 2:
        total = u * (u - 1) // 2
    elif hidden >= 3:
        total = u * (u - 1) * (u - 2) // 6
    if hidden > 3 or total > most:
        for i in range(most):
            h = cand
            for j in range(hidden):
                x = lcg_next(x)
                h &= ~(1 << nth_bit(h, lcg_below(x, u - j)))
            out[i] = h
        return most, x
    if hidden == 0:
        out[0] = cand
        return 1, x
    k = 0
    a = cand
    while a:
        p = lowest_bit(a)
        a &= a - 1
        if hidden == 1:
            out[k] = cand & ~(1 << p)
            k += 1
            continue
        b = a
        while b:
            q = lowest_bit(b)
            b &= b - 1
            if hidden == 2:
                out[k] = cand & ~(1 << p) & ~(1 << q)
                k += 1
                continue
            c = b
            while c:
                r = lowest_bit(c)
                c &= c - 1
                out[k] = cand & ~(1 << p) & ~(1 << q) & ~(1 << r)
                k += 1
    return k, x


@interface.borrowing
def parity_failures(st, player, legal, leading, most, hands, out, x, weight):
    """Add ``weight`` times the share of the partner's possible hands on which playing each
    legal card leaves no line of play that ends with the area's parity (Tent site: even
    counts, Lodge: odd) to ``out``; returns the generator state.
    Equivalent cards (:func:`distinct` against every card the hands or the trick may hold)
    share one count, and so do equivalent answers within the search."""
    cand, hidden = partner_candidates(st, player)
    n, x = partner_hands(cand, hidden, hands, min(most, hands.shape[0]), x)
    parity = final_parity(st, st[S_AREA])
    trump = st[S_TRUMP]
    mine = st[S_HAND + player]
    tp = st[S_TRICKS + player]
    tq = st[S_TRICKS + 1 - player]
    led = st[S_LED]
    occ = mine | cand
    if led >= 0:
        occ |= 1 << led
    reps = distinct(legal, occ)
    charge = 0.0
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if not (reps >> c) & 1:
            # the next lower legal card, equivalent: the same count
            out[c] += charge
            continue
        hm = mine & ~(1 << c)
        bad = 0
        for i in range(n):
            theirs = hands[i]
            good = False
            if leading:
                a = distinct(legal_cards(theirs, c), mine | theirs)
                while a and not good:
                    f = lowest_bit(a)
                    a &= a - 1
                    if trick_winner(c, f, trump) == 0:
                        good = parity_solvable(hm, theirs & ~(1 << f), tp + 1, tq, parity, trump)
                    else:
                        good = parity_solvable(theirs & ~(1 << f), hm, tq + 1, tp, parity, trump)
            elif trick_winner(led, c, trump) == 0:
                good = parity_solvable(theirs, hm, tq + 1, tp, parity, trump)
            else:
                good = parity_solvable(hm, theirs, tp + 1, tq, parity, trump)
            bad += not good
        charge = weight * bad / max(1, n)
        out[c] += charge
    return x
