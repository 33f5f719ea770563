"""Helpers shared by the policies: what a player knows of the partner's hand, what cards won
are worth, the exact last two tricks, and a few item-phase rules.

The heuristic (:mod:`.heuristic`) is built from them and the other policies reuse them: the
expert (:mod:`.expert`) the partner model, the trick tables, the closed-form trick terms, the
cost of the cards won and the exact endgame; search (:mod:`.search`) and omniscient
(:mod:`.omniscient`) the cost of a round. Their parameters are read at the heuristic's
indices, with which every parameterised policy's vector starts (:mod:`.params`).
"""
from numba import njit
import numpy as np

from ..core.layout import (
    C_AREA_FLEX,
    C_AREA_HAS_TRICK_RULE,
    C_AREA_HAS_TRICKS_WON_RULE,
    C_AREA_KILLER_ALL,
    C_AREA_PARITY,
    C_AREA_SAFE,
    C_AREA_SWEEP,
    C_ITEM_HEAL,
    C_ITEM_KIND,
    C_RED_KNIVES,
    C_WHITE_RED_KNIVES,
    S_AREA,
    S_DECK_N,
    S_HAND,
    S_HEALTH,
    S_HELD,
    S_LED,
    S_OUTCOME,
    S_PLAY_LOG,
    S_PLAYED,
    S_PLAYER_RNG,
    S_RNG,
    S_ROUND_LEADER,
    S_TRAP_ROUND,
    S_TRAPS,
    S_TRICK,
    S_TRICKS,
    S_TRUMP,
    S_TRUMP_CARD,
    S_WON,
)
from ..core.rules import (
    ALL_CARDS,
    COLOUR_GREEN,
    COLOUR_YELLOW,
    GREEN,
    KIND_ESCAPE,
    KIND_HEAL,
    KIND_KEEP_ONE_MORE,
    KIND_LOOK_AT_TOP,
    KIND_REMOVE_TRAP,
    KIND_TAKE_FROM_DISCARD,
    LOSS_HEALTH,
    LOSS_TRAPS,
    N_ITEM_KINDS,
    RED,
    SUIT_MASK,
    TRICKS_PER_ROUND,
    WHITE,
    WIN,
    YELLOW,
)
from ..engine.bits import lowest_bit, popcount
from ..engine.interface import borrowing, keepable, kind_items
from ..engine.playout import team_escapes
from ..engine.predicates import (
    area_breached_by_tricks_won,
    draw_count,
    greens_left,
    trick_winner,
    white_colour,
)
from ..engine.rng import AREAS, DEAL, ITEMS, POLICY, next_u32
from .baseline import aid_kits, first_aid_below
from .params import HEURISTIC, index_of

#: indices of the heuristic's parameters read here or by more than one policy
BREACH = index_of(HEURISTIC, "breach")
WRONG_WINNER = index_of(HEURISTIC, "wrong_winner")
DRAW_OVER = index_of(HEURISTIC, "draw_over")
DRAW_UNDER = index_of(HEURISTIC, "draw_under")
TARGET_DRAWS = index_of(HEURISTIC, "target_draws")
DAMAGE = index_of(HEURISTIC, "damage")
DEATH = index_of(HEURISTIC, "death")
KEEP_FLEXIBLE = index_of(HEURISTIC, "keep_flexible")
AID_LARGE_BELOW = index_of(HEURISTIC, "aid_large_below")
AID_SMALL_BELOW = index_of(HEURISTIC, "aid_small_below")

# --- the trick tables ------------------------------------------------------------------------
#: ``BEATS[trump, lead]``: bitmask of follow cards that win the trick against ``lead``
BEATS = np.zeros((4, 20), dtype=np.int64)


def _build_tables():
    winner = getattr(trick_winner, "py_func", trick_winner)
    for trump in range(4):
        for lead in range(20):
            for follow in range(20):
                if follow != lead and winner(lead, follow, trump):
                    BEATS[trump, lead] |= 1 << follow


_build_tables()


# --- the area card, through its hooks (core.layout.C_AREA_*) ------------------------------------
@njit(cache=True, inline='always')
def safe_answers(st, area, trump, lead):
    """Bitmask of the follow cards whose trick with ``lead`` keeps the area card's trick rule
    under ``trump`` (every card where the card has none)."""
    return st[C_AREA_SAFE + (area * 4 + trump) * 20 + lead]


#: ``SHARE_OF_38[n]`` = n / 38: the share of the 38 (lead, follow) pairs a card is in, read
#: instead of dividing in the players' inner loops
SHARE_OF_38 = np.arange(39) / 38.0


@njit(cache=True, inline='always')
def flexible(st, area, trump, card):
    """Share of the other cards that ``card`` meets without a breach of the trick rule, as
    leader or follower (1 where the card has no trick rule)."""
    return SHARE_OF_38[st[C_AREA_FLEX + (area * 4 + trump) * 20 + card]]


@njit(cache=True, inline='always')
def has_trick_rule(st, area):
    """Whether a single trick can break the area card's rule (Lakeside, Cabins, Woodland,
    Fire pit)."""
    return st[C_AREA_HAS_TRICK_RULE + area] != 0


@njit(cache=True, inline='always')
def final_parity(st, area):
    """0 when the area card wants each player to end the round with an even trick count (Tent
    site), 1 odd (Lodge), -1 when its rule is not of that kind."""
    return st[C_AREA_PARITY + area]


@njit(cache=True, inline='always')
def sweep_rule(st, area):
    """Whether the area card breaks as soon as both players have won a trick (Hideaway)."""
    return st[C_AREA_SWEEP + area] != 0


#: ``CHOOSE[n, k + 24]`` = n choose k for 0 <= n < 24 and -24 <= k <= 3 (0 for k < 0)
CHOOSE = np.zeros((24, 28), dtype=np.float64)
for _n in range(24):
    for _k in range(4):
        if _k <= _n:
            CHOOSE[_n, _k + 24] = [1, _n, _n * (_n - 1) // 2, _n * (_n - 1) * (_n - 2) // 6][_k]
#: ``INVERSE_CHOOSE[n, k + 24]`` = 1 / (n choose k), 0 where that is 0
INVERSE_CHOOSE = np.where(CHOOSE > 0, 1.0 / np.maximum(CHOOSE, 1.0), 0.0)


@njit(cache=True, inline='always')
def choose(n, k):
    """n choose k for the small counts of :func:`no_answer_probability` (0 when k < 0)."""
    return CHOOSE[n, k + 24]


# --- what the player knows about the partner's hand ----------------------------------------
@njit(cache=True)
def partner_voids(st, player):
    """Bitmask of the suits the partner showed void in this round (failed to follow)."""
    leader = st[S_ROUND_LEADER]
    voids = 0
    trump = st[S_TRUMP]
    for t in range(st[S_TRICK]):
        lead = st[S_PLAY_LOG + 2 * t]
        follow = st[S_PLAY_LOG + 2 * t + 1]
        voids |= ((leader == player) & (follow // 5 != lead // 5)) << (lead // 5)
        leader = leader ^ trick_winner(lead, follow, trump)
    return voids


@njit(cache=True, inline='always')
def partner_candidates(st, player):
    """Cards the partner may hold: unseen by ``player``, outside the partner's void suits.

    The partner holds all of them but ``hidden`` (the returned second value), which lie in the
    trump deck; every such set of ``hidden`` cards is equally likely.
    """
    unseen = ALL_CARDS & ~st[S_HAND + player] & ~st[S_PLAYED] & ~(1 << st[S_TRUMP_CARD])
    voids = partner_voids(st, player)
    cand = unseen
    for s in range(4):
        if (voids >> s) & 1:
            cand &= ~SUIT_MASK[s]
    partner_cards = TRICKS_PER_ROUND - st[S_TRICK] - (1 if st[S_LED] >= 0 else 0)
    return cand, popcount(cand) - partner_cards


@njit(cache=True, inline='always')
def no_answer_probability(good, follow, cand, hidden):
    """Chance that the partner holds no card of ``good`` it may play, over the hidden cards.

    The partner holds ``cand`` less ``hidden`` uniformly random cards; it must play from
    ``follow & hand`` when that is not empty, else from its whole hand. The bad sets of
    hidden cards are those that hold every good card of the led suit and (a) leave a card of
    the led suit or (b) hold the whole led suit and every other good card too.
    """
    u = popcount(cand)
    f = follow & cand
    a = popcount(f & good)
    b = popcount(f) - a
    c = popcount(cand & good) - a
    bad = choose(u - a, hidden - a) - choose(u - a - b, hidden - a - b) \
        + choose(u - a - b - c, hidden - a - b - c)
    return bad * INVERSE_CHOOSE[u, hidden + 24]


# --- the closed-form trick terms -------------------------------------------------------------
@njit(cache=True, inline='always')
def lead_terms(st, area, trump, rule, want, cand, hidden, card, params):
    """The closed-form cost of leading ``card``, the cards won aside: the chance that the
    partner (holding ``cand`` less ``hidden`` cards) has no answer that keeps the trick rule
    (where ``rule``), the flexibility spent, and the chance that it has none that makes the
    ``want`` player win (0 the leader, 1 the partner, -1 no wish). The heuristic and the
    expert weigh their leads by it."""
    follow = SUIT_MASK[card // 5]
    beats = BEATS[trump, card]
    good = ALL_CARDS
    cost = 0.0
    if rule:
        good = safe_answers(st, area, trump, card)
        cost += params[BREACH] * no_answer_probability(good, follow, cand, hidden) \
            + flexible(st, area, trump, card) * params[KEEP_FLEXIBLE]
    if want == 0:
        cost += params[WRONG_WINNER] * no_answer_probability(good & ~beats, follow, cand, hidden)
    elif want == 1:
        cost += params[WRONG_WINNER] * no_answer_probability(good & beats, follow, cand, hidden)
    return cost


@njit(cache=True, inline='always')
def answer_terms(st, cost, area, trump, rule, safe, beats, want, card, params):
    """``cost`` plus the closed-form cost of answering with ``card``, the cards won aside: a
    breach of the trick rule (where ``rule``; ``safe`` the safe answers), the flexibility spent,
    and a winner other than the ``want`` player (0 the leader, 1 the follower, -1 no wish;
    ``beats`` the answers that win). The heuristic and the expert weigh their answers by it."""
    if rule:
        cost += (1 - ((safe >> card) & 1)) * params[BREACH] \
            + flexible(st, area, trump, card) * params[KEEP_FLEXIBLE]
    w = (beats >> card) & 1
    cost += (want >= 0) * (w != want) * params[WRONG_WINNER]
    return cost


# --- what cards won are worth ---------------------------------------------------------------
#: ``HIT_CHANCE[draws, deck size]``: the rough chance ``min(1, draws / deck size)`` that a
#: draw of ``draws`` cards meets the Killer
HIT_CHANCE = np.minimum(1.0, np.arange(16)[:, None] / np.maximum(1, np.arange(25))[None, :])


@njit(cache=True, inline='always')
def colour_of_whites(st, player):
    """The colour ``player``'s whites would take in this round's item phase."""
    return white_colour(st, st[S_HEALTH + player], st[S_AREA])


@njit(cache=True, inline='always')
def card_effect(st, colour, card):
    """What one won card adds for a player whose whites take ``colour``: a packed
    ``greens + 16 * yellows + 256 * knives``."""
    # branch-free: the suits of the cards tried come in no order a branch could predict
    suit = card // 5
    white = 1 if colour == COLOUR_GREEN else 16 if colour == COLOUR_YELLOW else \
        256 * st[C_WHITE_RED_KNIVES]
    return (suit == GREEN) + 16 * (suit == YELLOW) \
        + (suit == RED) * 256 * st[C_RED_KNIVES + card % 5] + (suit == WHITE) * white


@njit(cache=True, inline='always')
def won_effects(st, player):
    """The packed greens, yellows and knives (see :func:`card_effect`) of ``player``'s cards
    won so far this round."""
    return won_effects_coloured(st, player, colour_of_whites(st, player))


@njit(cache=True, inline='always')
def won_effects_coloured(st, player, colour):
    """:func:`won_effects` with ``player``'s whites taking ``colour``."""
    won = st[S_WON + player]
    whites = popcount(won & SUIT_MASK[WHITE])
    total = popcount(won & SUIT_MASK[GREEN]) + 16 * popcount(won & SUIT_MASK[YELLOW]) \
        + whites * card_effect(st, colour, 5 * WHITE)
    reds = (won >> (5 * RED)) & 31
    for r in range(5):
        total += 256 * ((reds >> r) & 1) * st[C_RED_KNIVES + r]
    return total


@njit(cache=True, inline='always')
def effects_cost(st, player, packed, params):
    """Cost of ``player`` ending the play phase with the packed greens, yellows and knives.

    The yellows set the draws, and each draw may be the Killer (chance ``1 / deck size``),
    which takes 1 + the knives left (reds' knives net of greens, a rough, monotone stand-in
    for nullifying): the cost is the expected health lost, plus the chance that the Killer
    kills, plus draws off the target.
    """
    return effects_cost_at(st, packed, st[S_HEALTH + player], params)


@njit(cache=True, inline='always')
def effects_cost_at(st, packed, health, params):
    """:func:`effects_cost` for a player at ``health``."""
    greens = packed & 15
    yellows = (packed >> 4) & 15
    knives = packed >> 8
    area = st[S_AREA]
    greens = greens_left(st, area, greens)
    draws = draw_count(st, yellows, area)
    off = draws - params[TARGET_DRAWS]
    hit = health if st[C_AREA_KILLER_ALL + area] else 1 + max(0, knives - greens)
    p_hit = HIT_CHANCE[min(draws, 15), st[S_DECK_N]]
    # branch-free: these comparisons go either way from one card to the next
    return max(off, 0.0) * params[DRAW_OVER] + max(-off, 0.0) * params[DRAW_UNDER] \
        + p_hit * (min(hit, health) * params[DAMAGE] + (hit >= health) * params[DEATH])


@njit(cache=True, inline='always')
def take_cost(st, player, base, cards, params):
    """Extra cost of ``player``, holding the packed effects ``base``, winning ``cards``."""
    colour = colour_of_whites(st, player)
    more = base
    m = cards
    while m:
        more += card_effect(st, colour, lowest_bit(m))
        m &= m - 1
    return effects_cost(st, player, more, params) - effects_cost(st, player, base, params)


# --- tricks 7-8, exactly ------------------------------------------------------------------
@njit(cache=True, inline='always')
def last_two_tricks_breach(st, leader, lead, follow, leader_last, follower_last):
    """Whether tricks 7 and 8 breach the area: ``leader`` leads ``lead`` to ``follow`` in
    trick 7, then the last cards ``leader_last`` and ``follower_last`` (of trick 7's leader
    and follower) meet in trick 8, led by trick 7's winner."""
    area = st[S_AREA]
    trump = st[S_TRUMP]
    if not (safe_answers(st, area, trump, lead) >> follow) & 1:
        return True
    w = (BEATS[trump, lead] >> follow) & 1
    if w:
        lead8, follow8 = follower_last, leader_last
    else:
        lead8, follow8 = leader_last, follower_last
    if not (safe_answers(st, area, trump, lead8) >> follow8) & 1:
        return True
    if not st[C_AREA_HAS_TRICKS_WON_RULE + area]:
        return False
    w8 = (BEATS[trump, lead8] >> follow8) & 1
    winner7 = leader ^ w
    winner8 = winner7 ^ w8
    t0 = st[S_TRICKS] + (winner7 == 0) + (winner8 == 0)
    t1 = st[S_TRICKS + 1] + (winner7 == 1) + (winner8 == 1)
    return area_breached_by_tricks_won(st, area, t0, t1)


@njit(cache=True, inline='always')
def follower_breaches(st, player, lead, card, mine, cand):
    """How many of the leader's possible last cards ``cand`` make tricks 7-8 breach when
    ``player`` answers ``lead`` with ``card`` and keeps ``mine``, and how many there are."""
    bad = 0
    n = 0
    c = cand
    while c:
        theirs = lowest_bit(c)
        c &= c - 1
        n += 1
        bad += last_two_tricks_breach(st, 1 - player, lead, card, theirs, mine)
    return bad, n


@njit(cache=True, inline='always')
def leader_breaches(st, player, card, mine, cand):
    """How many of the partner's possible pairs of last cards (from ``cand``) leave it no
    answer that keeps tricks 7-8 from breaching when ``player`` leads ``card`` and keeps
    ``mine``, and how many pairs there are."""
    bad = 0
    n = 0
    c1 = cand
    while c1:
        x = lowest_bit(c1)
        c1 &= c1 - 1
        c2 = c1
        while c2:
            y = lowest_bit(c2)
            c2 &= c2 - 1
            n += 1
            pair = (1 << x) | (1 << y)
            follow = pair & SUIT_MASK[card // 5]
            options = follow if follow else pair
            ok = False
            if (options >> x) & 1 and not last_two_tricks_breach(st, player, card, x, mine, y):
                ok = True
            if (options >> y) & 1 and not last_two_tricks_breach(st, player, card, y, mine, x):
                ok = True
            bad += 0 if ok else 1
    return bad, n


@njit(cache=True)
def endgame_card(st, player, legal, params):
    """Trick 7: the card with the least chance that tricks 7-8 breach, over the leader's
    possible last cards (as follower, who also pays for the cards the trick gives) or over the
    partner's possible two cards, the partner answering as well as it can (as leader)."""
    lead = st[S_LED]
    hand = st[S_HAND + player]
    cand, _ = partner_candidates(st, player)
    best = -1
    best_cost = 1e300
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        mine = lowest_bit(hand & ~(1 << card))
        if lead < 0:
            bad, n = leader_breaches(st, player, card, mine, cand)
            cost = params[BREACH] * bad / max(1, n)
        else:
            bad, n = follower_breaches(st, player, lead, card, mine, cand)
            w = (BEATS[st[S_TRUMP], lead] >> card) & 1
            cost = params[BREACH] * bad / max(1, n) + \
                take_cost(st, (1 - player) ^ w, won_effects(st, (1 - player) ^ w),
                          (1 << lead) | (1 << card), params)
        if cost < best_cost:
            best_cost = cost
            best = card
    return best


@borrowing
def settled_card(st, player, legal, params):
    """The card the heuristic and the expert play without weighing the trick: the only legal
    one, or trick 7's exact choice (:func:`endgame_card`) outside a trap round; else -1.
    Called, not inlined: inlined, its branches would count references to ``st`` and
    ``params`` at every card played."""
    if not legal & (legal - 1):
        return lowest_bit(legal)
    if st[S_TRICK] == TRICKS_PER_ROUND - 2 and not st[S_TRAP_ROUND]:
        return endgame_card(st, player, legal, params)
    return -1


# --- the item phase --------------------------------------------------------------------------
#: how much the team wants a kept item of each kind (a heal item that heals 2 or more: 7; an
#: escape item the team lacks: 100, :func:`item_value`)
KIND_VALUE = np.zeros(N_ITEM_KINDS)
for _kind, _value in ((KIND_LOOK_AT_TOP, 9.0), (KIND_TAKE_FROM_DISCARD, 8.0),
                      (KIND_KEEP_ONE_MORE, 6.0), (KIND_HEAL, 5.0), (KIND_REMOVE_TRAP, 4.0)):
    KIND_VALUE[_kind] = _value


@njit(cache=True, inline='always')
def missing_escapes(st):
    """Bitmask of the escape items the team still lacks."""
    return kind_items(st, KIND_ESCAPE) & ~(st[S_HELD] | st[S_HELD + 1])


@njit(cache=True, inline='always')
def item_value(st, player, card):
    """How much the team wants ``player`` to keep ``card`` (an escape item it lacks = 100)."""
    if not keepable(st, card):
        return 0.0
    kind = st[C_ITEM_KIND + card]
    if kind == KIND_ESCAPE:
        return 100.0 if (missing_escapes(st) >> card) & 1 else 0.0
    if kind == KIND_HEAL and st[C_ITEM_HEAL + card] >= 2:
        return 7.0
    return KIND_VALUE[kind]


@njit(cache=True, inline='always')
def first_aid_now(st, player, params):
    """First Aid while the holder's health is at or below its threshold."""
    return first_aid_below(st, player, params[AID_LARGE_BELOW], params[AID_SMALL_BELOW])


@njit(cache=True)
def fire_pit_gift(st, player):
    """Fire pit: a heal item (a large one first, :func:`aid_kits`) to a partner with strictly
    less health."""
    if st[S_HEALTH + player] > st[S_HEALTH + 1 - player]:
        large, small = aid_kits(st, st[S_HELD + player])
        return large if large >= 0 else small
    return -1


@njit(cache=True)
def round_end_cost(before, after, params, escape_at, win_at):
    """Cost of the round from ``before`` to ``after``: a won game ``-params[win_at]``, a lost
    one ``+params[win_at]``; else traps, health lost, less the escape items gained (worth
    ``params[escape_at]`` each). The indices are the caller's named parameters."""
    if after[S_OUTCOME] == WIN:
        return -params[win_at]
    if after[S_OUTCOME] == LOSS_HEALTH or after[S_OUTCOME] == LOSS_TRAPS:
        return params[win_at]
    cost = params[BREACH] * (after[S_TRAPS] - before[S_TRAPS])
    for p in range(2):
        cost += params[DAMAGE] * (before[S_HEALTH + p] - after[S_HEALTH + p])
    gained = team_escapes(after) - team_escapes(before)
    return cost - params[escape_at] * gained


@njit(cache=True)
def fresh_streams(st, work):
    """Give ``work`` (a copy of ``st`` played forward) fresh deal, item and area streams and
    fresh streams for both players, drawn from ``st``'s own policy stream: a rollout reads
    neither the later deals and reshuffles nor the partner's dice from the real generators."""
    for stream in (DEAL, ITEMS, AREAS):
        work[S_RNG + stream] = np.int64((next_u32(st, POLICY) << np.uint64(32))
                                        | next_u32(st, POLICY))
    for p in range(2):
        work[S_PLAYER_RNG + p] = np.int64((next_u32(st, POLICY) << np.uint64(32))
                                          | next_u32(st, POLICY))
