"""The ``heuristic`` policy: a rule-aware cooperative player that sees only its own view.

Trick play scores every legal card. The follower knows the led card, so it knows exactly whether
a card breaches the area, who wins and what each player takes. The leader does not know the
partner's hand; it knows the partner holds all but three of the cards it has not seen (the
three hidden trump-deck cards), minus the suits the partner has shown void in. Over the
uniformly random hidden three it computes in closed form the chance that the partner has no
answer that keeps the area (:func:`no_answer_probability`), assuming the partner follows the
same rules. Area plans:

- trick rules (Lakeside, Cabins, Woodland, Fire pit): avoid a breaching trick;
- Tent site / Lodge (parity of tricks won) and Hideaway (one player takes all): the trick's
  winner is chosen so that "the winner of this trick wins the rest" ends with the right
  counts (:func:`wanted_winner`), and the leader leads so that the partner can make it so;
- cards won are valued by what they do in the item phase (:func:`effects_cost`): draws from
  yellows against a target, knives from reds net of greens, whites by their colour.

Item-phase decisions each have their own function, and every weight or threshold is one entry
of the parameter vector (:data:`.params.HEURISTIC`), so experiments can vary them. Nothing here
reads the partner's hand, the hidden trump-deck cards or the item-deck order; the tests prove
it.
"""
import numpy as np
from numba import njit

from ..engine import api
from ..engine.api import FLASHLIGHT_ORDERS, N_FLASHLIGHT_ORDERS, keepable
from ..engine.bits import lowest_bit, popcount
from ..engine.layout import (C_AID_TARGET, C_CURSED_EXTRA, C_ITEM_IN, C_KEEP_OPTIONAL,
                             C_LAKESIDE_REMOVE, C_RED_KNIVES, C_WHITE_RED_KNIVES, S_AREA,
                             S_DECK_N, S_DISCARD, S_DISCARD_N, S_DRAWN, S_DRAWN_N, S_DRAWS,
                             S_HAND, S_HEALTH, S_HELD, S_KNIVES, S_LED, S_OUT, S_PEEK, S_PICK,
                             S_PLAY_LOG, S_PLAYED, S_ROUND_LEADER, S_TRAP_ROUND,
                             S_TRICK, S_TRICKS, S_TRUMP, S_TRUMP_CARD, S_WON)
from ..rules import (AID_EITHER, ALL_CARDS, BACKPACK, CABINS, COLOUR_GREEN, COLOUR_YELLOW,
                     CURSED_OBJECT, ESCAPE_MASK, FIRE_PIT, FIRST_AID_LARGE, FIRST_AID_SMALL,
                     FLASHLIGHT, GREEN, HIDEAWAY, KILLER, LAKESIDE, LODGE, LUCKY_CHARM,
                     MAX_HEALTH, N_ESCAPES, RED, SUIT_MASK, TENT_SITE, TRICKS_PER_ROUND,
                     WALKIE_TALKIE, WHITE, WOODLAND, YELLOW)
from ..engine.predicates import (area_breached_by_trick, area_breached_by_tricks_won, draw_count,
                                 trick_winner, white_colour)
from .baseline import first_aid_below, lucky_charm_now
from .params import HEURISTIC, index_of

#: indices of the parameters (:data:`.params.HEURISTIC`)
BREACH = index_of(HEURISTIC, "breach")
WRONG_WINNER = index_of(HEURISTIC, "wrong_winner")
DRAW_OVER = index_of(HEURISTIC, "draw_over")
DRAW_UNDER = index_of(HEURISTIC, "draw_under")
TARGET_DRAWS = index_of(HEURISTIC, "target_draws")
DAMAGE = index_of(HEURISTIC, "damage")
DEATH = index_of(HEURISTIC, "death")
KEEP_FLEXIBLE = index_of(HEURISTIC, "keep_flexible")
FLASHLIGHT_RISK = index_of(HEURISTIC, "flashlight_risk")
CABINS_GAIN = index_of(HEURISTIC, "cabins_gain")
KILLER_COST = index_of(HEURISTIC, "killer_cost")
BACKPACK_MIN = index_of(HEURISTIC, "backpack_min")
AID_LARGE_BELOW = index_of(HEURISTIC, "aid_large_below")
AID_SMALL_BELOW = index_of(HEURISTIC, "aid_small_below")
ANY_TIME_ITEMS = index_of(HEURISTIC, "any_time_items")
KEEP_MIN = index_of(HEURISTIC, "keep_min")

#: ``SAFE_ANSWERS[area, trump, lead]``: bitmask of follow cards whose trick keeps the area's
#: trick rule (every card for Tent site, Lodge and Hideaway)
SAFE_ANSWERS = np.zeros((7, 4, 20), dtype=np.int64)
#: ``BEATS[trump, lead]``: bitmask of follow cards that win the trick against ``lead``
BEATS = np.zeros((4, 20), dtype=np.int64)


def _build_tables():
    winner = getattr(trick_winner, "py_func", trick_winner)
    breached = getattr(area_breached_by_trick, "py_func", area_breached_by_trick)
    for trump in range(4):
        for lead in range(20):
            for follow in range(20):
                if follow == lead:
                    continue
                w = winner(lead, follow, trump)
                if w:
                    BEATS[trump, lead] |= 1 << follow
                for area in range(7):
                    if not breached(area, lead, follow, follow if w else lead):
                        SAFE_ANSWERS[area, trump, lead] |= 1 << follow


_build_tables()
#: ``FLEXIBLE[area, trump, card]``: share of the other cards that ``card`` meets without a breach
#: of the trick rule, as leader or follower (1 for every card of Tent site, Lodge, Hideaway)
FLEXIBLE = np.zeros((7, 4, 20), dtype=np.float64)
for _a in range(7):
    for _t in range(4):
        for _c in range(20):
            _n = bin(int(SAFE_ANSWERS[_a, _t, _c])).count("1")
            _n += sum(1 for _o in range(20) if _o != _c and (SAFE_ANSWERS[_a, _t, _o] >> _c) & 1)
            FLEXIBLE[_a, _t, _c] = _n / 38.0
#: ``CHOOSE[n, k + 24]`` = n choose k for 0 <= n < 24 and -24 <= k <= 3 (0 for k < 0)
CHOOSE = np.zeros((24, 28), dtype=np.float64)
for _n in range(24):
    for _k in range(4):
        if _k <= _n:
            CHOOSE[_n, _k + 24] = [1, _n, _n * (_n - 1) // 2, _n * (_n - 1) * (_n - 2) // 6][_k]


#: ``HIT_CHANCE[draws, deck size]``: the rough chance ``min(1, draws / deck size)`` that a
#: draw of ``draws`` cards meets the Killer
HIT_CHANCE = np.minimum(1.0, np.arange(16)[:, None] / np.maximum(1, np.arange(25))[None, :])
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


# --- the area plan -------------------------------------------------------------------------
@njit(cache=True, inline='always')
def wanted_winner(st, leader):
    """0 if the area wants the trick's leader to win it, 1 for the follower, -1 for no wish.

    Hideaway: the leader has won every trick so far, so it must win this one. Tent site (even
    counts) and Lodge (odd counts): the option after which "this trick's winner wins the rest"
    ends right, the leader's win when both or neither do.
    """
    area = st[S_AREA]
    if st[S_TRAP_ROUND]:
        return -1
    if area == HIDEAWAY:
        return 0
    if area != TENT_SITE and area != LODGE:
        return -1
    parity = 0 if area == TENT_SITE else 1
    t_lead = st[S_TRICKS + leader]
    t_follow = st[S_TRICKS + 1 - leader]
    lose_ok = t_follow % 2 == parity
    win_ok = t_lead % 2 == parity
    if win_ok and not lose_ok:
        return 1
    return 0


# --- what cards won are worth ---------------------------------------------------------------
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
    if area == LAKESIDE:
        greens = max(0, greens - st[C_LAKESIDE_REMOVE])
    draws = draw_count(st, yellows, area)
    off = draws - params[TARGET_DRAWS]
    hit = health if area == HIDEAWAY else 1 + max(0, knives - greens)
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


@njit(cache=True, inline='always')
def flexibility(st, card, params):
    """Value of still holding ``card`` for later tricks: the share of cards it meets safely.

    Playing a card that few others meet safely (Cabins' 5s, Lakeside's 1s and 5s, Fire pit's
    4s) while it is safe keeps the cards that are easy to place for the end of the round.
    """
    if st[S_TRAP_ROUND]:
        return 0.0
    return FLEXIBLE[st[S_AREA], st[S_TRUMP], card] * params[KEEP_FLEXIBLE]


# --- trick play -----------------------------------------------------------------------------
@njit(cache=True)
def choose_follow(st, player, legal, params):
    """The follower's card: keep the area, let the wanted player win, take cards well, and
    keep the flexible cards."""
    lead = st[S_LED]
    leader = 1 - player
    area = st[S_AREA]
    trump = st[S_TRUMP]
    rule = has_trick_rule(area) and not st[S_TRAP_ROUND]
    want = wanted_winner(st, leader)
    safe = SAFE_ANSWERS[area, trump, lead] if rule else ALL_CARDS
    beats = BEATS[trump, lead]
    base_leader = won_effects(st, leader)
    base_mine = won_effects(st, player)
    colour_leader = colour_of_whites(st, leader)
    colour_mine = colour_of_whites(st, player)
    lead_leader = base_leader + card_effect(st, colour_leader, lead)
    cost_leader = effects_cost(st, leader, base_leader, params)
    lead_mine = base_mine + card_effect(st, colour_mine, lead)
    cost_mine = effects_cost(st, player, base_mine, params)
    best = -1
    best_cost = 1e300
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        cost = 0.0
        if rule:
            cost += (1 - ((safe >> card) & 1)) * params[BREACH] \
                + FLEXIBLE[area, trump, card] * params[KEEP_FLEXIBLE]
        w = (beats >> card) & 1
        cost += (want >= 0) * (w != want) * params[WRONG_WINNER]
        # both outcomes are costed and one kept: a branch on the winner would mispredict
        if_won = effects_cost(st, player, lead_mine + card_effect(st, colour_mine, card),
                              params) - cost_mine
        if_lost = effects_cost(st, leader, lead_leader + card_effect(st, colour_leader, card),
                               params) - cost_leader
        cost += w * if_won + (1 - w) * if_lost
        if cost < best_cost:
            best_cost = cost
            best = card
    return best


@njit(cache=True, inline='always')
def has_trick_rule(area):
    """Whether the area is breached by single tricks (Lakeside, Cabins, Woodland, Fire pit)."""
    return area == LAKESIDE or area == CABINS or area == WOODLAND or area == FIRE_PIT


@njit(cache=True)
def choose_lead(st, player, legal, params):
    """The leader's card: least chance that the partner cannot keep the area or make the
    wanted player win, then the expected cost of the cards taken and the flexibility spent."""
    area = st[S_AREA]
    trump = st[S_TRUMP]
    rule = has_trick_rule(area) and not st[S_TRAP_ROUND]
    want = wanted_winner(st, player)
    cand, hidden = partner_candidates(st, player)
    partner = 1 - player
    colour_mine = colour_of_whites(st, player)
    colour_theirs = colour_of_whites(st, partner)
    mine = won_effects(st, player)
    theirs = won_effects(st, partner)
    cost_mine = effects_cost(st, player, mine, params)
    cost_theirs = effects_cost(st, partner, theirs, params)
    best = -1
    best_cost = 1e300
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
            cost += params[BREACH] * no_answer_probability(good, follow, cand, hidden) \
                + FLEXIBLE[area, trump, card] * params[KEEP_FLEXIBLE]
        if want == 0:
            cost += params[WRONG_WINNER] * no_answer_probability(good & ~beats, follow, cand,
                                                                 hidden)
            p_lose = 0.0
        elif want == 1:
            cost += params[WRONG_WINNER] * no_answer_probability(good & beats, follow, cand,
                                                                 hidden)
            p_lose = 1.0
        else:
            p_lose = 1.0 - no_answer_probability(beats, follow, cand, hidden)
        if_won = effects_cost(st, player, mine + card_effect(st, colour_mine, card),
                              params) - cost_mine
        if_lost = effects_cost(st, partner, theirs + card_effect(st, colour_theirs, card),
                               params) - cost_theirs
        cost += (1.0 - p_lose) * if_won + p_lose * if_lost
        if cost < best_cost:
            best_cost = cost
            best = card
    return best


@njit(cache=True, inline='always')
def last_two_tricks_breach(st, leader, lead, follow, leader_last, follower_last):
    """Whether tricks 7 and 8 breach the area: ``leader`` leads ``lead`` to ``follow`` in
    trick 7, then the last cards ``leader_last`` and ``follower_last`` (of trick 7's leader
    and follower) meet in trick 8, led by trick 7's winner."""
    area = st[S_AREA]
    trump = st[S_TRUMP]
    if not (SAFE_ANSWERS[area, trump, lead] >> follow) & 1:
        return True
    w = (BEATS[trump, lead] >> follow) & 1
    if w:
        lead8, follow8 = follower_last, leader_last
    else:
        lead8, follow8 = leader_last, follower_last
    if not (SAFE_ANSWERS[area, trump, lead8] >> follow8) & 1:
        return True
    if area != TENT_SITE and area != LODGE and area != HIDEAWAY:
        return False
    w8 = (BEATS[trump, lead8] >> follow8) & 1
    winner7 = leader ^ w
    winner8 = winner7 ^ w8
    t0 = st[S_TRICKS] + (winner7 == 0) + (winner8 == 0)
    t1 = st[S_TRICKS + 1] + (winner7 == 1) + (winner8 == 1)
    return area_breached_by_tricks_won(area, t0, t1, TRICKS_PER_ROUND)


@njit(cache=True)
def endgame_follow(st, player, legal, params):
    """Trick 7 as follower: the card with the least chance that tricks 7-8 breach, over the
    leader's possible last cards."""
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
        bad = 0
        n = 0
        c = cand
        while c:
            theirs = lowest_bit(c)
            c &= c - 1
            n += 1
            bad += last_two_tricks_breach(st, 1 - player, lead, card, theirs, mine)
        w = (BEATS[st[S_TRUMP], lead] >> card) & 1
        cost = params[BREACH] * bad / max(1, n) + \
            take_cost(st, (1 - player) ^ w, won_effects(st, (1 - player) ^ w),
                      (1 << lead) | (1 << card), params)
        if cost < best_cost:
            best_cost = cost
            best = card
    return best


@njit(cache=True)
def endgame_lead(st, player, legal, params):
    """Trick 7 as leader: the card with the least chance that tricks 7-8 breach, over the
    partner's possible two cards, the partner answering as well as it can."""
    hand = st[S_HAND + player]
    cand, _ = partner_candidates(st, player)
    best = -1
    best_cost = 1e300
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        mine = lowest_bit(hand & ~(1 << card))
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
        cost = params[BREACH] * bad / max(1, n)
        if cost < best_cost:
            best_cost = cost
            best = card
    return best


@njit(cache=True, inline='always')
def choose_card(st, player, legal, params):
    """A card from ``legal``: as the trick's leader or as its follower; tricks 7-8 exactly."""
    if not legal & (legal - 1):
        return lowest_bit(legal)
    endgame = st[S_TRICK] == TRICKS_PER_ROUND - 2 and not st[S_TRAP_ROUND]
    if st[S_LED] < 0:
        if endgame:
            return endgame_lead(st, player, legal, params)
        return choose_lead(st, player, legal, params)
    if endgame:
        return endgame_follow(st, player, legal, params)
    return choose_follow(st, player, legal, params)


# --- the item deck as the public sees it ----------------------------------------------------
@njit(cache=True, inline='always')
def discard_mask(st):
    m = 0
    for i in range(st[S_DISCARD_N]):
        m |= 1 << st[S_DISCARD + i]
    return m


@njit(cache=True, inline='always')
def drawn_mask(st):
    m = 0
    for i in range(st[S_DRAWN_N]):
        m |= 1 << st[S_DRAWN + i]
    return m


@njit(cache=True, inline='always')
def unseen_items(st):
    """Bitmask of the item ids that must be in the deck (everything not seen elsewhere)."""
    every = 1 << KILLER
    for i in range(12):
        if st[C_ITEM_IN + i]:
            every |= 1 << i
    return every & ~discard_mask(st) & ~drawn_mask(st) & ~st[S_HELD] & ~st[S_HELD + 1] \
        & ~st[S_OUT]


@njit(cache=True, inline='always')
def missing_escapes(st):
    """Bitmask of the escape items the team still lacks."""
    return ESCAPE_MASK & ~(st[S_HELD] | st[S_HELD + 1])


@njit(cache=True, inline='always')
def killer_chance_per_draw(st):
    """Chance that the next draw is the Killer, from the public piles alone."""
    n = st[S_DECK_N]
    if n <= 0 or not (unseen_items(st) >> KILLER) & 1:
        return 0.0
    return 1.0 / n


@njit(cache=True, inline='always')
def item_value(st, player, card):
    """How much the team wants ``player`` to keep ``card`` (an escape item it lacks = 100)."""
    if not keepable(card):
        return 0.0
    if card < N_ESCAPES:
        return 100.0 if (missing_escapes(st) >> card) & 1 else 0.0
    if card == FLASHLIGHT:
        return 9.0
    if card == WALKIE_TALKIE:
        return 8.0
    if card == FIRST_AID_LARGE:
        return 7.0
    if card == BACKPACK:
        return 6.0
    if card == FIRST_AID_SMALL:
        return 5.0
    if card == LUCKY_CHARM:
        return 4.0
    return 0.0


# --- item-phase decisions ---------------------------------------------------------------------
@njit(cache=True, inline='always')
def first_aid_now(st, player, params):
    """First Aid while the holder's health is at or below its threshold."""
    return first_aid_below(st, player, params[AID_LARGE_BELOW], params[AID_SMALL_BELOW])


@njit(cache=True, inline='always')
def flashlight_now(st, player, params):
    """Use the Flashlight before a draw when the Killer may be among the cards drawn."""
    if not (st[S_HELD + player] >> FLASHLIGHT) & 1 or st[S_DRAWS + player] <= 0:
        return -1
    risk = killer_chance_per_draw(st) * st[S_DRAWS + player]
    if risk > params[FLASHLIGHT_RISK] and st[S_DECK_N] >= 2:
        return FLASHLIGHT
    return -1


@njit(cache=True, inline='always')
def healed(st, player, kit):
    """``player``'s health after using First Aid ``kit`` (or -1: none)."""
    heal = 2 if kit == FIRST_AID_LARGE else (1 if kit == FIRST_AID_SMALL else 0)
    return min(MAX_HEALTH, st[S_HEALTH + player] + heal)


@njit(cache=True)
def colour_aid(st, player, params):
    """After the last trick (window (d)): a First Aid kit whose healing now gives the whites
    won a colour that lowers the cost of the cards won, against waiting for the draw (when the
    threshold rule may heal anyway, without changing the colour)."""
    area = st[S_AREA]
    now = white_colour(st, st[S_HEALTH + player], area)
    later = healed(st, player, first_aid_now(st, player, params))
    best = -1
    best_cost = effects_cost_at(st, won_effects_coloured(st, player, now), later, params)
    for kit in (FIRST_AID_LARGE, FIRST_AID_SMALL):
        if (st[S_HELD + player] >> kit) & 1:
            health = healed(st, player, kit)
            colour = white_colour(st, health, area)
            cost = effects_cost_at(st, won_effects_coloured(st, player, colour), health, params)
            if colour != now and cost < best_cost - 1e-9:
                best = kit
                best_cost = cost
    return best


@njit(cache=True)
def any_time_item(st, player, decision, arg, params):
    """Windows (c) and (d) of ``item_timing = any_time``: a Lucky Charm as soon as a trap is
    set off, and First Aid after the last trick when it colours the whites better."""
    if params[ANY_TIME_ITEMS] <= 0:
        return -1
    item = lucky_charm_now(st, player)
    if item < 0 and decision == api.AFTER_TRICK and arg == TRICKS_PER_ROUND:
        item = colour_aid(st, player, params)
    return item


@njit(cache=True)
def phase_start_item(st, player, params):
    """Window (a): Lucky Charms; where First Aid may heal either player, a kit for a partner
    with less health, none of its own, and health at its First Aid threshold."""
    item = lucky_charm_now(st, player)
    partner = 1 - player
    if item < 0 and st[C_AID_TARGET] == AID_EITHER and \
            st[S_HEALTH + partner] < st[S_HEALTH + player] and \
            not st[S_HELD + partner] & ((1 << FIRST_AID_LARGE) | (1 << FIRST_AID_SMALL)):
        health = st[S_HEALTH + partner]
        held = st[S_HELD + player]
        if (held >> FIRST_AID_LARGE) & 1 and health <= params[AID_LARGE_BELOW]:
            item = FIRST_AID_LARGE + api.ON_PARTNER
        elif (held >> FIRST_AID_SMALL) & 1 and health <= params[AID_SMALL_BELOW]:
            item = FIRST_AID_SMALL + api.ON_PARTNER
    return item


@njit(cache=True)
def before_draw_item(st, player, params):
    """Lucky Charm, then First Aid, then the Flashlight."""
    item = lucky_charm_now(st, player)
    if item < 0:
        item = first_aid_now(st, player, params)
    if item < 0:
        item = flashlight_now(st, player, params)
    return item


@njit(cache=True)
def flashlight_order(st, player, k, params):
    """Order the ``k`` peeked cards: no Killer in one's own draws, wanted items first, and the
    Killer as deep as possible; under the deck when it holds the Killer and one's draws would
    reach it."""
    draws = st[S_DRAWS + player]
    missing = missing_escapes(st)
    unknown_killer = killer_chance_per_draw(st) > 0.0
    best = 0
    best_score = -1e300
    for bottom in range(2):
        for order in range(N_FLASHLIGHT_ORDERS[k]):
            score = 0.0
            if bottom:
                has_killer = False
                for i in range(k):
                    has_killer |= st[S_PEEK + i] == KILLER
                if not has_killer and unknown_killer:
                    rest = st[S_DECK_N] - k
                    score -= params[KILLER_COST] * 100.0 * min(1.0, draws / max(1, rest))
            else:
                pending = draws
                gain = 0.0
                for i in range(k):
                    card = st[S_PEEK + FLASHLIGHT_ORDERS[k - 1, order, i]]
                    if pending <= 0:
                        if card == KILLER:
                            score += i
                        continue
                    pending -= 1
                    if card == KILLER:
                        score -= params[KILLER_COST] * 100.0
                        pending = 0
                        gain = 0.0
                        continue
                    if card == CURSED_OBJECT:
                        pending += st[C_CURSED_EXTRA]
                    elif card < N_ESCAPES and (missing >> card) & 1:
                        gain = 100.0
                score += gain
            if score > best_score:
                best_score = score
                best = order + 6 * bottom
    return best


@njit(cache=True)
def cabins_extra(st, player, params):
    """Draw Cabins' extra card if the chance of a missing escape item outweighs the Killer's."""
    for i in range(st[S_DRAWN_N]):
        c = st[S_DRAWN + i]
        if c < N_ESCAPES and (missing_escapes(st) >> c) & 1:
            return 0
    n = st[S_DECK_N]
    if n <= 0:
        return 0
    escapes = popcount(unseen_items(st) & missing_escapes(st))
    gain = escapes / n - params[KILLER_COST] * killer_chance_per_draw(st) * \
        (1 + st[S_KNIVES + player])
    return 1 if gain > params[CABINS_GAIN] else 0


@njit(cache=True)
def ranked_pick(st, player, skip):
    """Index of the most wanted drawn card other than index ``skip``, and its value."""
    best = -1
    best_value = 0.0
    for i in range(st[S_DRAWN_N]):
        if i == skip:
            continue
        v = item_value(st, player, st[S_DRAWN + i])
        if v > best_value:
            best = i
            best_value = v
    return best, best_value


@njit(cache=True)
def use_backpack(st, player, params):
    """Use the Backpack when the second-best drawn card is worth keeping too."""
    first, _ = ranked_pick(st, player, -1)
    second, value = ranked_pick(st, player, first)
    if st[S_DRAWN + first] < N_ESCAPES and second >= 0 and st[S_DRAWN + second] < N_ESCAPES:
        return 1
    return 1 if value >= params[BACKPACK_MIN] else 0


@njit(cache=True)
def keep_pick(st, player, pick, params):
    """Pick number ``pick``: the most wanted drawn card not picked yet (an escape item the
    team lacks first), or -1; where keeping is optional, none worth less than ``keep_min``."""
    skip = st[S_PICK] if pick == 1 else -1
    best, value = ranked_pick(st, player, skip)
    if st[C_KEEP_OPTIONAL] and value < params[KEEP_MIN]:
        return -1
    return best


@njit(cache=True)
def walkie_talkie_pick(st, player):
    """Take a missing escape item from the discard pile when no pick is one."""
    for k in range(2):
        i = st[S_PICK + k]
        if i >= 0 and st[S_DRAWN + i] < N_ESCAPES:
            return -1
    missing = missing_escapes(st)
    for d in range(st[S_DISCARD_N]):
        card = st[S_DISCARD + d]
        if card < N_ESCAPES and (missing >> card) & 1:
            return d
    return -1


@njit(cache=True)
def trade_item(st, player):
    """Fire pit: hand First Aid to a partner with less health who needs it more."""
    partner = 1 - player
    held = st[S_HELD + player]
    if st[S_HEALTH + partner] < st[S_HEALTH + player]:
        if (held >> FIRST_AID_LARGE) & 1:
            return FIRST_AID_LARGE
        if (held >> FIRST_AID_SMALL) & 1:
            return FIRST_AID_SMALL
    return -1


@njit(cache=True, inline='always')
def decide(decision, player, arg, st, params):
    """The heuristic policy: each decision in its own function above."""
    if decision == api.PLAY_CARD:
        return choose_card(st, player, arg, params)
    if decision == api.PHASE_START:
        return phase_start_item(st, player, params)
    if decision == api.BEFORE_DRAW:
        return before_draw_item(st, player, params)
    if decision == api.FLASHLIGHT:
        return flashlight_order(st, player, arg, params)
    if decision == api.CABINS_EXTRA:
        return cabins_extra(st, player, params)
    if decision == api.USE_BACKPACK:
        return use_backpack(st, player, params)
    if decision == api.KEEP:
        return keep_pick(st, player, arg, params)
    if decision == api.WALKIE_TALKIE:
        return walkie_talkie_pick(st, player)
    if decision == api.TRADE:
        return trade_item(st, player)
    return any_time_item(st, player, decision, arg, params)
