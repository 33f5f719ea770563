"""The ``expert`` policy: a fair player that values the cards won at the end of the round.

The heuristic (:mod:`.heuristic`) values a trick's cards by what they add to the taker's pile
*now*; the cards still in the hands are ignored, although every one of them ends up in a pile
too. That is where it loses most against ``search`` (measured on common random numbers by
``experiments/derive_expert.py``: search with the item-phase terms of its cost switched off
wins no more often than the heuristic, and the heuristic's closed-form trap terms plus the
end-of-round value of the cards won by *random* rollouts keep most of search's lead). The
expert keeps the heuristic's closed-form trap and plan terms and adds that value, cheaply:

- **Leads** (:func:`lead_card`): for each class of equivalent legal cards
  (:func:`representatives`), the mean item-phase cost of both players' piles
  (:func:`joint_cost`) at the end of ``lead_samples`` rollouts, each on a partner hand drawn
  from the player's view and played out by random priorities (:func:`rollout`, branch-free,
  up to four classes at a time), the same deal and priorities for every class.
- **Answers** (:func:`follow_card`): no sampling. The cards left in the hands go to either
  player by rough chances of winning their tricks (:func:`win_chance`), independently, so
  each player's future yellows and net knives have closed-form distributions
  (:func:`future_distributions`); each answer is taken out of them (:func:`deconvolve`) and
  its expected end-of-round cost is exact under that model (:func:`expected_joint`).
- **Tent site / Lodge**: the plan wishes for a trick winner only when exactly one of "the
  leader wins the rest" and "the follower wins the rest" ends with the right parity
  (:func:`sole_sweep_winner`). From trick ``dd_from`` on, each card is charged the trap cost
  times the share of the partner's possible hands (all of them, or ``dd_hands`` samples) on
  which no line of play keeps the area any more (:func:`parity_solvable`). The Hideaway,
  whose Killer kills, is not played to be kept.
- **The item phase ahead**: both piles are valued together by what the player may know of
  the item deck (:func:`item_prepare`, :func:`item_cell`): where the Killer can lie (the
  rulebook's top group while it lasts, its own Flashlight's sights), who draws first and
  where the second drawer starts, and the escape items either may draw (``escape_value``
  each, ``win_value`` when they win the game).
- Tricks 7-8 are the heuristic's exact endgame; item-phase decisions are the heuristic's,
  with the parameters tuned for the expert (the defaults of :data:`.params.EXPERT`).

Everything is drawn from the player's view: the partner's hand from :func:`.common.
partner_candidates` (unseen cards outside its void suits, less the hidden trump-deck cards),
random numbers from two draws of the policy stream per decision.

Settings measured to lose are gone from the player; their measurements stay in ``results/``:
the heuristic's closed form for the piles instead of the item model and the plan to keep the
Hideaway (``results/expert_items.md``, ``results/derive_expert.txt``), and raced lead rollouts
(``results/expert_items.md``, ``results/expert_frontier.md``). Other ideas for the leads that
lost (balanced partner hands, rollouts played by rank, fewer rollouts for later leads, leads
valued by closed-form futures) are patches of ``experiments/variants/``, measured by
``experiments/expert_variants.py``; leads valued by models fitted to the rollouts
(``lead_model.patch``), by ``experiments/lead_distill.py``.
"""
import numpy as np
from numba import njit

from ..engine import api
from ..engine.bits import lowest_bit, nth_bit, popcount
from ..engine.layout import (C_DRAW_ORDER, C_ESCAPES_NEEDED, C_KILLER_RESHUFFLE,
                             C_LAKESIDE_REMOVE, C_RED_KNIVES, C_TENT_REDUCTION,
                             C_WHITE_RED_KNIVES, DECK_CAPACITY, S_AREA, S_DECK, S_DECK_N,
                             S_DECK_SEEN, S_HAND, S_HEALTH, S_HELD, S_LED, S_PLAYED,
                             S_ROUND_LEADER, S_TRAP_ROUND, S_TRICK, S_TRICK_LEADER, S_TRICKS,
                             S_TRUMP, S_TRUMP_CARD, S_WON, SLOT_TOP_GROUP)
from ..engine.rng import POLICY, next_u32
from ..engine.predicates import legal_cards, trick_winner
from ..rules import (ALL_CARDS, COLOUR_GREEN, COLOUR_YELLOW, DRAW_LAST_TRICK_WINNER,
                     ESCAPE_MASK, GREEN, HIDEAWAY, KILLER, KILLER_RESHUFFLE_AT_ONCE, LAKESIDE,
                     LODGE, MAX_HEALTH, RED, SUIT_MASK, TENT_SITE, TRICKS_PER_ROUND, WHITE, YELLOW)
from . import heuristic as H
from .common import (BEATS, BREACH, DAMAGE, DEATH, DRAW_OVER, DRAW_UNDER, FLEXIBLE, KEEP_FLEXIBLE,
                     SAFE_ANSWERS, TARGET_DRAWS, WRONG_WINNER, colour_of_whites, endgame_follow,
                     endgame_lead, has_trick_rule, no_answer_probability, partner_candidates)
from .params import EXPERT, index_of

#: indices of the expert's own parameters (:data:`.params.EXPERT`: the heuristic's, then these)
LEAD_SAMPLES = index_of(EXPERT, "lead_samples")
DD_FROM = index_of(EXPERT, "dd_from")
DD_HANDS = index_of(EXPERT, "dd_hands")
LEAD_WEIGHT = index_of(EXPERT, "lead_weight")
FOLLOW_WEIGHT = index_of(EXPERT, "follow_weight")
PRUNE_MARGIN = index_of(EXPERT, "prune_margin")
ESCAPE_VALUE = index_of(EXPERT, "escape_value")
WIN_VALUE = index_of(EXPERT, "win_value")

#: ``BEATEN[trump, card]``: the led cards that ``card`` beats as the answer
BEATEN = np.zeros((4, 20), dtype=np.int64)
for _t in range(4):
    for _led in range(20):
        _m = int(BEATS[_t, _led])
        for _c in range(20):
            if (_m >> _c) & 1:
                BEATEN[_t, _c] |= 1 << _led
#: offsets of 0 yellows and of 0 net knives in the distributions (zero padding on both sides
#: keeps the convolutions branch-free); their length
YOFF = 8
DOFF = 32
NDIST = 72
#: the slots of the constants of :func:`cost_constants`
PC_SIZE = 56
#: draw counts 0..ITEM_N - 1 in the tables of :func:`item_cell` (more are counted as the most)
ITEM_N = 8
#: float slots of an item table: the first drawer's chance of the Killer by its draws; the
#: second's by both draws; the value gained (escape items, the game won) by both draws; the
#: chance that j unseen slots hold no escape item the team lacks
T_HF, T_HS = 0, ITEM_N
T_G = T_HS + ITEM_N * ITEM_N
T_NONE = T_G + ITEM_N * ITEM_N
T_SIZE = T_NONE + DECK_CAPACITY + 1
#: int slots: deck size, Killer slots, escapes needed, reshuffle at once, unseen slots,
#: slots known to hold a missing escape, the Killer's possible slots, its known slot (or -1),
#: cells done (a bit per cell)
IT_N, IT_Z, IT_NEED, IT_AT_ONCE, IT_FREE, IT_FIXED, IT_ZONE, IT_KSEEN, IT_DONE = range(9)
IT_SIZE = 9
#: draw counts less likely than this are left out of :func:`expected_joint`
NEGLIGIBLE = 1e-3
#: ``RECIPROCAL[i]`` = 1 / i (0 for i = 0)
RECIPROCAL = np.array([0.0] + [1.0 / i for i in range(1, DECK_CAPACITY + 1)])
#: the per-decision scratch: float slots (``F_DIST``: the yellows of players 0 and 1, their net
#: knives, then the yellows and knives less an answer)
F_OUT, F_EFF, F_PC, F_RS, F_DIST = 0, 20, 40, 96, 136
F_TY = F_DIST + 4 * NDIST
F_TD = F_DIST + 5 * NDIST
F_PN = F_DIST + 8 * NDIST
F_EDMG = F_PN + 2 * ITEM_N
F_TAB = F_EDMG + 2
F_SIZE = F_TAB + T_SIZE
#: ... and int slots of :func:`expected_joint`: per player the offset and bounds of the
#: yellows' and the knives' distributions, the yellows and knives the trick adds; then the
#: item table's ints
J_YO, J_YLO, J_YHI, J_DO, J_DLO, J_DHI, J_ADD_Y, J_ADD_D = range(0, 16, 2)
J_IT = 16
#: ... leads (:func:`lead_card`): a rollout's cost of each class rolled out, by slot; each
#: class's least closed-form cost
F_COST = F_RS + T_SIZE
F_BEST = F_COST + 8
#: ... and int slots (``I_PARTNER``: the partner's possible hands of the exact checks)
I_POS, I_INV, I_SUITP, I_PSUIT, I_HANDS, I_PARTNER = 0, 20, 40, 44, 64, 72
MOST_HANDS = 128
I_IT = I_PARTNER + MOST_HANDS
#: ... leads: each class's member of least closed-form cost (:func:`class_offsets`)
I_CARD = I_IT + IT_SIZE
#: ... leads: the rollouts' pile tables (:func:`pile_tables`), a player's after another's
PT_N, PT_RED, PT_STRIDE = 5, 26, 58
I_PT = I_CARD + 20
#: ... leads: the cards player 0 won in a sample's rollout, by class slot
I_WON = I_PT + 2 * PT_STRIDE
I_SIZE = I_WON + 8
#: net knives from which the Killer's hit (1 + knives) is above any health
KNIVES_MAX = 15
assert KNIVES_MAX >= MAX_HEALTH
#: ... and their damage costs, 16 float slots per player
F_DT = F_BEST + 20


# --- the area plan ------------------------------------------------------------------------------
@njit(cache=True, inline='always')
def sole_sweep_winner(st, leader):
    """The trick winner whose sweep of the rest is the only one that ends right: 0 the trick's
    leader, 1 the follower, -1 for no wish.

    Tent site (even counts) and Lodge (odd): "the leader wins the rest" (the follower's count
    stays) and "the follower wins the rest"; a wish only when exactly one of them ends right.
    When both or neither do, either outcome of this trick leaves exactly one such plan, so
    there is no wish (the heuristic's :func:`.heuristic.sweep_winner` wishes for the leader
    then, which in the "neither" case ends wrong). No wish elsewhere (the Hideaway, whose
    Killer kills, is not played to be kept) or once a trap went off.
    """
    area = st[S_AREA]
    if st[S_TRAP_ROUND]:
        return -1
    if area != TENT_SITE and area != LODGE:
        return -1
    parity = 0 if area == TENT_SITE else 1
    lead_rest = st[S_TRICKS + 1 - leader] % 2 == parity
    follow_rest = st[S_TRICKS + leader] % 2 == parity
    if lead_rest and not follow_rest:
        return 0
    if follow_rest and not lead_rest:
        return 1
    return -1


@njit(cache=True, inline='always')
def zero(a, lo, hi):
    """``a[lo:hi] = 0`` (scratch comes from ``np.empty``: only what is read before it is
    written needs zeroing)."""
    for i in range(lo, hi):
        a[i] = 0.0


# --- random numbers: one draw of the policy stream per decision ----------------------------------
@njit(cache=True, inline='always')
def lcg_seed(st):
    """A 64-bit generator state from two draws of ``st``'s policy stream."""
    return np.int64((next_u32(st, POLICY) << np.uint64(32)) | next_u32(st, POLICY))


@njit(cache=True, inline='always')
def lcg_next(x):
    """The next state of a 64-bit linear congruential generator (wrapping int64 arithmetic)."""
    return x * np.int64(6364136223846793005) + np.int64(1442695040888963407)


@njit(cache=True, inline='always')
def lcg_below(x, n):
    """A number in ``0..n-1`` from the high 32 bits of state ``x`` (``n`` < 2**16: the bias
    is below 2**-16)."""
    return (((x >> 32) & 0xFFFFFFFF) * n) >> 32


# --- exact parity play (Tent site, Lodge) on a known deal -----------------------------------------
#: ``RANKS_FROM[k]``: the cards of rank ``k`` (0-based, within the suit) or higher
RANKS_FROM = tuple(sum(1 << (5 * s + r) for s in range(4) for r in range(k, 5)) for k in range(5))
RANKS_FROM_1, RANKS_FROM_2, RANKS_FROM_3, RANKS_FROM_4 = RANKS_FROM[1:]


@njit(cache=True, inline='always')
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


@njit(cache=True, inline='always')
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


@api.borrowing
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


@njit(cache=True, inline='always')
def planned_area(st, params):
    """Whether the exact check of :func:`parity_failures` runs: Tent site or Lodge, no trap yet
    this round, from trick ``dd_from`` on."""
    area = st[S_AREA]
    return (area == TENT_SITE or area == LODGE) and not st[S_TRAP_ROUND] and \
        st[S_TRICK] >= params[DD_FROM]


@api.borrowing
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


@api.borrowing
def parity_failures(st, player, legal, leading, most, hands, out, x, weight):
    """Add ``weight`` times the share of the partner's possible hands on which playing each
    legal card leaves no line of play that ends with the area's parity (Tent site: even
    counts, Lodge: odd) to ``out``; returns the generator state.
    Equivalent cards (:func:`distinct` against every card the hands or the trick may hold)
    share one count, and so do equivalent answers within the search."""
    cand, hidden = partner_candidates(st, player)
    n, x = partner_hands(cand, hidden, hands, min(most, hands.shape[0]), x)
    parity = 0 if st[S_AREA] == TENT_SITE else 1
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


# --- the cards won, valued ---------------------------------------------------------------------
@api.borrowing
def cost_constants(st, pc):
    """``pc[8p:8p+7]``: player p's health, white colour, greens Lakeside removes, (unused),
    Hideaway flag, Tent site's draw reduction, a white-red's knives; ``pc[16:21]`` the
    knives of red 1..5, ``pc[24 + m]`` those of the reds in the 5-bit mask ``m``."""
    area = st[S_AREA]
    for p in range(2):
        pc[8 * p] = st[S_HEALTH + p]
        pc[8 * p + 1] = colour_of_whites(st, p)
        pc[8 * p + 2] = st[C_LAKESIDE_REMOVE] if area == LAKESIDE else 0
        pc[8 * p + 4] = 1.0 if area == HIDEAWAY else 0.0
        pc[8 * p + 5] = st[C_TENT_REDUCTION] if area == TENT_SITE else 0
        pc[8 * p + 6] = st[C_WHITE_RED_KNIVES]
        pc[8 * p + 7] = 0.0
    for r in range(5):
        pc[16 + r] = st[C_RED_KNIVES + r]
    # the reds' knives read into locals: the table's stores could alias them
    r0, r1, r2, r3, r4 = pc[16], pc[17], pc[18], pc[19], pc[20]
    for m in range(32):
        pc[24 + m] = (m & 1) * r0 + ((m >> 1) & 1) * r1 + ((m >> 2) & 1) * r2 \
            + ((m >> 3) & 1) * r3 + ((m >> 4) & 1) * r4


@njit(cache=True, inline='always')
def pile_counts(won, p, pc):
    """Greens (after Lakeside), yellows and knives of player p's pile ``won``."""
    o = 8 * p
    greens = popcount(won & SUIT_MASK[GREEN])
    yellows = popcount(won & SUIT_MASK[YELLOW])
    whites = popcount(won & SUIT_MASK[WHITE])
    knives = pc[24 + ((won >> (5 * RED)) & 31)]
    colour = pc[o + 1]
    greens += whites * (colour == COLOUR_GREEN)
    yellows += whites * (colour == COLOUR_YELLOW)
    knives += whites * (colour < COLOUR_YELLOW) * pc[o + 6]
    return max(0.0, greens - pc[o + 2]), yellows, knives


# --- the item phase, valued -----------------------------------------------------------------------


@api.borrowing
def item_prepare(st, player, tab, it):
    """What ``player`` may know of the item phase ahead, for :func:`item_cell`: the Killer lies
    uniformly in the slots the player has not seen, within the rulebook's top group while it
    lasts (as :func:`search.sample_item_deck` deals it), and the other unseen cards uniformly
    in the rest."""
    n = st[S_DECK_N]
    me = 1 << player
    held = st[S_HELD] | st[S_HELD + 1]
    missing = ESCAPE_MASK & ~held
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
    it[IT_NEED] = st[C_ESCAPES_NEEDED] - popcount(held & ESCAPE_MASK)
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


@njit(cache=True, inline='always')
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


@njit(cache=True, inline='always')
def item_cell(tab, it, nf, ns, params):
    """The table's cell for ``nf`` draws of the first drawer and ``ns`` of the second, filled
    by :func:`fill_item_cell` on first use."""
    cell = nf * ITEM_N + ns
    if not (it[IT_DONE] >> cell) & 1:
        fill_item_cell(tab, it, nf, ns, cell, params)
    return cell


@api.borrowing
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
        g += z2 * gains_value(a, fa, 0, 0, tab, need, esc_value, win_value)
        if not at_once and z1 > 0.0:
            # after the Killer, the second draws ``ns`` cards taken as unseen
            g += z1 * gains_value(0, 0, min(ns, n - 1), 0, tab, need, esc_value, win_value)
        hs = z2 + (z1 * min(1.0, ns / max(1, n)) if at_once else 0.0)
        hf = z1
    else:
        k_seen = it[IT_KSEEN]
        hf = 1.0 if 0 <= k_seen < fe else 0.0
        if hf > 0:
            b, fb = slots_in(k_seen + 1, min(k_seen + 1 + ns, n), it)
            g = 0.0 if at_once else gains_value(0, 0, b, fb, tab, need, esc_value, win_value)
            hs = min(1.0, ns / max(1, n)) if at_once else 0.0
        elif fe <= k_seen < end:
            g = gains_value(a, fa, 0, 0, tab, need, esc_value, win_value)
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


@njit(cache=True, inline='always')
def draws_and_damage(won, p, pc, params):
    """Player p's draws (at most ``ITEM_N - 1``) for the pile ``won`` and the cost of the
    Killer's damage if it comes."""
    o = 8 * p
    greens, yellows, knives = pile_counts(won, p, pc)
    n = max(0.0, max(1, yellows) - pc[o + 5])
    health = pc[o]
    hit = 1.0 + max(0.0, knives - greens)
    hit = hit + pc[o + 4] * (health - hit)
    return min(int(n), ITEM_N - 1), \
        min(hit, health) * params[DAMAGE] + (hit >= health) * params[DEATH]


@njit(cache=True, inline='always')
def joint_cost(w0, w1, first, tab, it, pc, params):
    """The item-phase cost of players 0 and 1 ending the play phase with the piles ``w0``
    and ``w1``, ``first`` drawing first (:func:`item_cell`). The leads' rollouts compute it
    from :func:`pile_tables` (tested equal)."""
    n0, d0 = draws_and_damage(w0, 0, pc, params)
    n1, d1 = draws_and_damage(w1, 1, pc, params)
    nf, df, ns, ds = (n0, d0, n1, d1) if first == 0 else (n1, d1, n0, d0)
    cell = item_cell(tab, it, nf, ns, params)
    return tab[T_HF + nf] * df + tab[T_HS + cell] * ds - tab[T_G + cell]


@api.borrowing
def pile_tables(pc, params, pt, dt):
    """What :func:`joint_cost` reads of a pile, tabulated once per lead for its rollouts: per
    player p, ``pt[PT_STRIDE p:]`` the masks of the cards that count as yellows, as greens and
    as knives (whites), Lakeside's greens removed, a white's knives, the draws' index by
    yellows (``PT_N``) and the red knives by the mask of reds (``PT_RED``); ``dt[16 p + k]``
    the cost of the Killer's damage at net knives ``k`` (from ``KNIVES_MAX`` on, the hit is
    above any health and costs the same)."""
    for p in range(2):
        o = 8 * p
        b = PT_STRIDE * p
        colour = pc[o + 1]
        pt[b] = SUIT_MASK[YELLOW] | (SUIT_MASK[WHITE] if colour == COLOUR_YELLOW else 0)
        pt[b + 1] = SUIT_MASK[GREEN] | (SUIT_MASK[WHITE] if colour == COLOUR_GREEN else 0)
        pt[b + 2] = SUIT_MASK[WHITE] if colour < COLOUR_YELLOW else 0
        pt[b + 3] = int(pc[o + 2])
        pt[b + 4] = int(pc[o + 6])
        for y in range(21):
            n = max(0.0, max(1, y) - pc[o + 5])
            pt[b + PT_N + y] = min(int(n), ITEM_N - 1)
        for m in range(32):
            pt[b + PT_RED + m] = int(pc[24 + m])
        health = pc[o]
        for k in range(KNIVES_MAX + 1):
            hit = 1.0 + max(0.0, float(k))
            hit = hit + pc[o + 4] * (health - hit)
            dt[16 * p + k] = min(hit, health) * params[DAMAGE] \
                + (hit >= health) * params[DEATH]


@njit(cache=True, inline='always')
def tabled_draws_and_damage(won, p, pt, dt):
    """:func:`draws_and_damage` from the tables of :func:`pile_tables`."""
    b = PT_STRIDE * p
    greens = max(0, popcount(won & pt[b + 1]) - pt[b + 3])
    knives = pt[b + PT_RED + ((won >> (5 * RED)) & 31)] + popcount(won & pt[b + 2]) * pt[b + 4]
    return pt[b + PT_N + popcount(won & pt[b])], \
        dt[16 * p + min(max(0, knives - greens), KNIVES_MAX)]


# --- leads: rollouts ----------------------------------------------------------------------------
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


@api.borrowing
def lead_costs(st, player, legal, params, out):
    """The heuristic's closed-form lead costs other than the cards won, per legal card: the
    chance that the partner has no answer that keeps the trick rule, or none that gives the
    winner the plan wishes for (:func:`sole_sweep_winner`, until the exact check takes over),
    and the flexibility spent."""
    area = st[S_AREA]
    trump = st[S_TRUMP]
    rule = has_trick_rule(area) and not st[S_TRAP_ROUND]
    want = -1 if planned_area(st, params) else sole_sweep_winner(st, player)
    cand, hidden = partner_candidates(st, player)
    breach = params[BREACH]
    wrong = params[WRONG_WINNER]
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        follow = SUIT_MASK[card // 5]
        beats = BEATS[trump, card]
        good = ALL_CARDS
        cost = 0.0
        if rule:
            good = SAFE_ANSWERS[area, trump, card]
            cost += breach * no_answer_probability(good, follow, cand, hidden) \
                + FLEXIBLE[area, trump, card] * params[KEEP_FLEXIBLE]
        if want == 0:
            cost += wrong * no_answer_probability(good & ~beats, follow, cand, hidden)
        elif want == 1:
            cost += wrong * no_answer_probability(good & beats, follow, cand, hidden)
        out[card] = cost


@njit(cache=True)
def lead_card(st, player, legal, params):
    """The lead of least closed-form cost plus the mean end-of-round cost of both piles over
    ``lead_samples`` sampled partner hands and random-priority rollouts (:func:`lead_rollouts`),
    which only the classes within ``prune_margin`` of the best closed-form cost get."""
    fl = np.empty(F_DT + 32)
    zero(fl, F_OUT, F_PC)  # out and eff accumulate; cost_constants writes pc
    ints = np.empty(I_SIZE, dtype=np.int64)
    out = fl[F_OUT:F_OUT + 20]
    eff = fl[F_EFF:F_EFF + 20]
    lead_costs(st, player, legal, params, out)
    x = lcg_seed(st)
    if planned_area(st, params):
        x = parity_failures(st, player, legal, True, int(params[DD_HANDS]), ints[I_PARTNER:],
                            out, x, params[BREACH])
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


@njit(cache=True, inline='always')
def lead_rollouts(st, player, live, params, fl, ints, x, n):
    """Add to ``fl[F_EFF + rep]`` the end-of-round cost of both piles (:func:`joint_cost`, from
    the tables of :func:`pile_tables`) of each class ``rep`` of ``live`` (at least two) over
    ``n`` sampled partner hands and random-priority rollouts, the same deal and priorities for
    every class."""
    eff = fl[F_EFF:F_EFF + 20]
    pc = fl[F_PC:F_PC + PC_SIZE]
    cost_constants(st, pc)
    tab = fl[F_RS:F_RS + T_SIZE]
    it = ints[I_IT:I_IT + IT_SIZE]
    first = first_drawer(st)
    pt = ints[I_PT:I_PT + 2 * PT_STRIDE]
    dt = fl[F_DT:F_DT + 32]
    won = ints[I_WON:I_WON + 8]
    item_prepare(st, player, tab, it)
    pile_tables(pc, params, pt, dt)
    cand, hidden = partner_candidates(st, player)
    beats = BEATS[st[S_TRUMP]]
    mine = st[S_HAND + player]
    cls = ints[I_HANDS:I_HANDS + 8]
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
        # the piles' costs (:func:`joint_cost` from the tables), here rather than in a
        # function: an inlined function that may call fill_item_cell costs numba reference
        # counts on every call
        for k in range(ncls):
            p0 = w0 | won[k]
            p1 = w1 | (both & ~won[k])
            n0, d0 = tabled_draws_and_damage(p0, 0, pt, dt)
            n1, d1 = tabled_draws_and_damage(p1, 1, pt, dt)
            nf, df, ns, ds = (n0, d0, n1, d1) if first == 0 else (n1, d1, n0, d0)
            cell = nf * ITEM_N + ns
            if not (it[IT_DONE] >> cell) & 1:
                fill_item_cell(tab, it, nf, ns, cell, params)
            v[k] = tab[T_HF + nf] * df + tab[T_HS + cell] * ds - tab[T_G + cell]
        for k in range(ncls):
            eff[cls[k]] += v[k]


@njit(cache=True, inline='always')
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


# --- answers: closed-form futures --------------------------------------------------------------
@njit(cache=True, inline='always')
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


@njit(cache=True, inline='always')
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


@njit(cache=True, inline='always')
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


@api.borrowing
def expected_joint(st, a, ji, first, pc, params):
    """E[:func:`joint_cost`] when player p ends with its pile so far, ``ji[J_ADD_Y + p]``
    yellows and ``ji[J_ADD_D + p]`` net knives more, and futures distributed as
    ``a[ji[J_YO + p]:]`` (yellows, over ``ji[J_YLO + p]..ji[J_YHI + p]``) and
    ``a[ji[J_DO + p]:]`` (net knives, ``J_DLO``, ``J_DHI``), all independently (the item
    table's ints at ``ji[J_IT:]``); draws off ``target_draws`` cost as in the heuristic."""
    tab = a[F_TAB:F_TAB + T_SIZE]
    it = ji[J_IT:J_IT + IT_SIZE]
    for i in range(2 * ITEM_N):
        a[F_PN + i] = 0.0
    extra = 0.0
    for p in range(2):
        o = 8 * p
        greens, yellows, knives = pile_counts(st[S_WON + p], p, pc)
        health = pc[o]
        add_y = ji[J_ADD_Y + p]
        yo = ji[J_YO + p]
        for j in range(ji[J_YLO + p], ji[J_YHI + p] + 1):
            n = max(0.0, max(1, yellows + add_y + j - YOFF) - pc[o + 5])
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
            hit = hit + pc[o + 4] * (health - hit)
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


@api.borrowing
def future_distributions(st, player, fl):
    """The distributions of each player's future yellows and net knives: every card left in
    the hands (the partner's as the share of the unseen cards it holds) goes to the player
    who wins its trick, by :func:`win_chance`, independently. Writes ``fl[F_DIST:]`` (yellows
    of player 0, 1, knives of 0, 1) and ``fl[F_RS + 2 card + p]`` (card's chance to go to
    p); returns the bounds."""
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
        fl[F_RS + 2 * c] = r0
        fl[F_RS + 2 * c + 1] = r1
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


@njit(cache=True)
def follow_card(st, player, legal, params):
    """The answer of least cost: the heuristic's closed-form terms (the trick rule, the plan's
    wish, flexibility) plus the expected end-of-round cost of both piles when the trick
    goes to its winner and the rest of the cards as :func:`future_distributions` says, the
    answer itself taken out of them (:func:`deconvolve`)."""
    reps = representatives(st, player, legal)
    futures = reps & (reps - 1) != 0
    fl = np.empty(F_SIZE if futures else F_RS)
    # out accumulates and the distributions need their zero padding; every other slot is
    # written before it is read
    zero(fl, F_OUT, F_OUT + 20)
    if futures:
        zero(fl, F_DIST, F_DIST + 4 * NDIST)
    lead = st[S_LED]
    leader = 1 - player
    area = st[S_AREA]
    trump = st[S_TRUMP]
    rule = has_trick_rule(area) and not st[S_TRAP_ROUND]
    want = sole_sweep_winner(st, leader)
    out = fl[F_OUT:F_OUT + 20]
    pc = fl[F_PC:F_PC + PC_SIZE]
    if planned_area(st, params):
        want = -1
        parity_failures(st, player, legal, False, int(params[DD_HANDS]),
                        np.empty(MOST_HANDS, dtype=np.int64), out,
                        lcg_seed(st), params[BREACH])
    safe = SAFE_ANSWERS[area, trump, lead]
    beats = BEATS[trump, lead]
    breach = params[BREACH]
    wrong = params[WRONG_WINNER]
    value = 0.0
    b = (0, 0, 0, 0, 0, 0, 0, 0)
    first = first_drawer(st)
    ji = np.empty(J_IT + IT_SIZE, dtype=np.int64)
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
        if rule:
            cost += (1 - ((safe >> card) & 1)) * breach \
                + FLEXIBLE[area, trump, card] * params[KEEP_FLEXIBLE]
        w = (beats >> card) & 1
        cost += (want >= 0) * (w != want) * wrong
        taker = player if w else leader
        if (reps >> card) & 1 and futures:
            # a new class: its members share the value of the cards won
            for p in range(2):
                yo = F_DIST + p * NDIST
                do = F_DIST + (2 + p) * NDIST
                ylo, yhi = (b[0], b[1]) if p == 0 else (b[2], b[3])
                dlo, dhi = (b[4], b[5]) if p == 0 else (b[6], b[7])
                col = pc[8 * p + 1]
                kind, v = card_value(st, card, col)
                if kind == 0:
                    ty = F_TY + 2 * p * NDIST
                    ylo, yhi = deconvolve(fl, yo, ty, ylo, yhi, 1, fl[F_RS + 2 * card + p])
                    yo = ty
                else:
                    td = F_TD + 2 * p * NDIST
                    dlo, dhi = deconvolve(fl, do, td, dlo, dhi, v, fl[F_RS + 2 * card + p])
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


# --- the policy ---------------------------------------------------------------------------------
@njit(cache=True, inline='always')
def choose_card(st, player, legal, params):
    """A card from ``legal``: forced, the heuristic's exact tricks 7-8, or searched."""
    if not legal & (legal - 1):
        return lowest_bit(legal)
    if st[S_TRICK] == TRICKS_PER_ROUND - 2 and not st[S_TRAP_ROUND]:
        if st[S_LED] < 0:
            return endgame_lead(st, player, legal, params)
        return endgame_follow(st, player, legal, params)
    if st[S_LED] < 0:
        return lead_card(st, player, legal, params)
    return follow_card(st, player, legal, params)


@njit(cache=True, inline='always')
def decide(decision, player, arg, st, params):
    """The expert policy: its card play, the heuristic's item-phase decisions."""
    if decision == api.PLAY_CARD:
        return choose_card(st, player, arg, params)
    return H.decide(decision, player, arg, st, params)
