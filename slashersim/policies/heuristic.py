"""The ``heuristic`` policy: a rule-aware cooperative player that sees only its own view.

Trick play scores every legal card. The follower knows the led card, so it knows exactly whether
a card breaches the area, who wins and what each player takes. The leader does not know the
partner's hand; it knows the partner holds all but three of the cards it has not seen (the
three hidden trump-deck cards), minus the suits the partner has shown void in. Over the
uniformly random hidden three it computes in closed form the chance that the partner has no
answer that keeps the area (:func:`.common.no_answer_probability`), assuming the partner
follows the same rules. Area plans:

- trick rules (Lakeside, Cabins, Woodland, Fire pit): avoid a breaching trick;
- Tent site / Lodge (parity of tricks won) and Hideaway (one player takes all): the trick's
  winner is chosen so that "the winner of this trick wins the rest" ends with the right
  counts (:func:`sweep_winner`), and the leader leads so that the partner can make it so;
- cards won are valued by what they do in the item phase (:func:`.common.effects_cost`): draws
  from yellows against a target, knives from reds net of greens, whites by their colour.

Item-phase decisions each have their own function, and every weight or threshold is one entry
of the parameter vector (:data:`.params.HEURISTIC`), so experiments can vary them. The helpers
other policies share live in :mod:`.common`. Nothing here reads the partner's hand, the hidden
trump-deck cards or the item-deck order; the tests prove it.
"""
from numba import njit
import numpy as np

from ..core.layout import (
    C_AID_TARGET,
    C_ITEM_EXTRA_DRAWS,
    C_ITEM_HEAL,
    C_ITEM_IN,
    S_AREA,
    S_DECK_N,
    S_DISCARD,
    S_DISCARD_N,
    S_DRAWN,
    S_DRAWN_N,
    S_DRAWS,
    S_HEALTH,
    S_HELD,
    S_KNIVES,
    S_LED,
    S_OUT,
    S_PEEK,
    S_PICK,
    S_TRAP_ROUND,
    S_TRICKS,
    S_TRUMP,
)
from ..core.rules import (
    AID_EITHER,
    ALL_CARDS,
    KILLER,
    KIND_CURSED,
    KIND_ESCAPE,
    KIND_HEAL,
    KIND_LOOK_AT_TOP,
    MAX_HEALTH,
    MAX_ITEM_IDS,
    SUIT_MASK,
    TRICKS_PER_ROUND,
)
from ..engine import interface
from ..engine.bits import lowest_bit, popcount
from ..engine.interface import FLASHLIGHT_ORDERS, N_FLASHLIGHT_ORDERS, kind_items, of_kind
from ..engine.predicates import white_colour
from .baseline import aid_kits, lucky_charm_now, partners_turn
from .common import (
    AID_LARGE_BELOW,
    AID_SMALL_BELOW,
    BEATS,
    answer_terms,
    card_effect,
    colour_of_whites,
    effects_cost,
    effects_cost_at,
    final_parity,
    fire_pit_gift,
    first_aid_now,
    has_trick_rule,
    item_value,
    lead_terms,
    missing_escapes,
    no_answer_probability,
    partner_candidates,
    safe_answers,
    settled_card,
    sweep_rule,
    won_effects,
    won_effects_coloured,
)
from .params import HEURISTIC, index_of

#: indices of the heuristic's own parameters (the shared ones are :mod:`.common`'s)
FLASHLIGHT_RISK = index_of(HEURISTIC, "flashlight_risk")
CABINS_GAIN = index_of(HEURISTIC, "cabins_gain")
KILLER_COST = index_of(HEURISTIC, "killer_cost")
BACKPACK_MIN = index_of(HEURISTIC, "backpack_min")
ANY_TIME_ITEMS = index_of(HEURISTIC, "any_time_items")
KEEP_MIN = index_of(HEURISTIC, "keep_min")


# --- the area plan -------------------------------------------------------------------------
@njit(cache=True, inline='always')
def sweep_winner(st, leader):
    """Who should win this trick so that "this trick's winner wins the rest" ends right: 0 the
    trick's leader, 1 the follower, -1 none (an area without such a plan, or a trap went off).

    Hideaway: the leader has won every trick so far, so it must win this one. Tent site (even
    counts) and Lodge (odd counts): the player whose sweep ends right, the leader when both or
    neither do (the expert's :func:`.expert.plan.sole_sweep_winner` has no wish then).
    """
    area = st[S_AREA]
    if st[S_TRAP_ROUND]:
        return -1
    if sweep_rule(st, area):
        return 0
    parity = final_parity(st, area)
    if parity < 0:
        return -1
    t_lead = st[S_TRICKS + leader]
    t_follow = st[S_TRICKS + 1 - leader]
    lose_ok = t_follow % 2 == parity
    win_ok = t_lead % 2 == parity
    if win_ok and not lose_ok:
        return 1
    return 0


# --- trick play -----------------------------------------------------------------------------
@interface.borrowing
def choose_follow(st, player, legal, params):
    """The follower's card: keep the area, let the wanted player win, take cards well, and
    keep the flexible cards."""
    lead = st[S_LED]
    leader = 1 - player
    area = st[S_AREA]
    trump = st[S_TRUMP]
    rule = has_trick_rule(st, area) and not st[S_TRAP_ROUND]
    want = sweep_winner(st, leader)
    safe = safe_answers(st, area, trump, lead) if rule else ALL_CARDS
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
        cost = answer_terms(st, 0.0, area, trump, rule, safe, beats, want, card, params)
        w = (beats >> card) & 1
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


@interface.borrowing
def choose_lead(st, player, legal, params):
    """The leader's card: least chance that the partner cannot keep the area or make the
    wanted player win, then the expected cost of the cards taken and the flexibility spent."""
    area = st[S_AREA]
    trump = st[S_TRUMP]
    rule = has_trick_rule(st, area) and not st[S_TRAP_ROUND]
    want = sweep_winner(st, player)
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
        cost = lead_terms(st, area, trump, rule, want, cand, hidden, card, params)
        if want == 0:
            p_lose = 0.0
        elif want == 1:
            p_lose = 1.0
        else:
            p_lose = 1.0 - no_answer_probability(BEATS[trump, card], SUIT_MASK[card // 5],
                                                 cand, hidden)
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
def choose_card(st, player, legal, params):
    """A card from ``legal``: as the trick's leader or as its follower; tricks 7-8 exactly."""
    card = settled_card(st, player, legal, params)
    if card >= 0:
        return card
    if st[S_LED] < 0:
        return choose_lead(st, player, legal, params)
    return choose_follow(st, player, legal, params)


# --- the item deck as the public sees it ----------------------------------------------------
@njit(cache=True, inline='always')
def pile_mask(st, at, n):
    """Bitmask of the ``n`` item ids stored from ``st[at]`` on (the discards, the cards
    drawn)."""
    m = 0
    for i in range(n):
        m |= 1 << st[at + i]
    return m


@njit(cache=True, inline='always')
def unseen_items(st):
    """Bitmask of the item ids that must be in the deck (everything not seen elsewhere)."""
    every = 1 << KILLER
    for i in range(MAX_ITEM_IDS):
        if st[C_ITEM_IN + i]:
            every |= 1 << i
    return every & ~pile_mask(st, S_DISCARD, st[S_DISCARD_N]) \
        & ~pile_mask(st, S_DRAWN, st[S_DRAWN_N]) & ~st[S_HELD] & ~st[S_HELD + 1] & ~st[S_OUT]


@njit(cache=True, inline='always')
def killer_chance_per_draw(st):
    """Chance that the next draw is the Killer, from the public piles alone."""
    n = st[S_DECK_N]
    if n <= 0 or not (unseen_items(st) >> KILLER) & 1:
        return 0.0
    return 1.0 / n


# --- item-phase decisions ---------------------------------------------------------------------
@njit(cache=True, inline='always')
def flashlight_now(st, player, params, drawer):
    """Use a look-at-top item (the Flashlight) before ``drawer``'s draw when the Killer may be
    among the cards it draws."""
    lights = st[S_HELD + player] & kind_items(st, KIND_LOOK_AT_TOP)
    if not lights or st[S_DRAWS + drawer] <= 0:
        return -1
    risk = killer_chance_per_draw(st) * st[S_DRAWS + drawer]
    if risk > params[FLASHLIGHT_RISK] and st[S_DECK_N] >= 2:
        return lowest_bit(lights)
    return -1


@njit(cache=True, inline='always')
def drawing_player(st, player):
    """The player whose draw comes next in window (b): the partner in its turn, else
    ``player``."""
    return 1 - player if partners_turn(st, player) else player


@njit(cache=True, inline='always')
def healed(st, player, kit):
    """``player``'s health after using First Aid ``kit`` (or -1: none)."""
    heal = st[C_ITEM_HEAL + kit] if 0 <= kit < MAX_ITEM_IDS else 0
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
    for kit in aid_kits(st, st[S_HELD + player]):
        if kit >= 0:
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
    if item < 0 and decision == interface.AFTER_TRICK and arg == TRICKS_PER_ROUND:
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
            not st[S_HELD + partner] & kind_items(st, KIND_HEAL):
        health = st[S_HEALTH + partner]
        large, small = aid_kits(st, st[S_HELD + player])
        if large >= 0 and health <= params[AID_LARGE_BELOW]:
            item = large + interface.ON_PARTNER
        elif small >= 0 and health <= params[AID_SMALL_BELOW]:
            item = small + interface.ON_PARTNER
    return item


@interface.borrowing
def charm_or_aid(st, player, params):
    """Before a draw, the Flashlight aside: a Lucky Charm, then First Aid (the omniscient
    player's rule too)."""
    item = lucky_charm_now(st, player)
    if item < 0:
        item = first_aid_now(st, player, params)
    return item


@njit(cache=True)
def before_draw_item(st, player, params):
    """Lucky Charm, then First Aid, then the Flashlight; in the partner's window (b)
    (``before_draw_items = "both_players"``), the Flashlight for the partner's draw, only when
    the partner holds none of its own."""
    item = charm_or_aid(st, player, params)
    drawer = drawing_player(st, player)
    if item < 0 and (drawer == player
                     or not st[S_HELD + drawer] & kind_items(st, KIND_LOOK_AT_TOP)):
        item = flashlight_now(st, player, params, drawer)
    return item


@njit(cache=True)
def flashlight_order(st, player, k, params):
    """Order the ``k`` peeked cards: no Killer in one's own draws, wanted items first, and the
    Killer as deep as possible; under the deck when it holds the Killer and one's draws would
    reach it (the partner's draws, for a Flashlight used in the partner's window (b))."""
    draws = st[S_DRAWS + drawing_player(st, player)]
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
                    if of_kind(st, card, KIND_CURSED):
                        pending += st[C_ITEM_EXTRA_DRAWS + card]
                    elif (missing >> card) & 1:
                        gain = 100.0
                score += gain
            if score > best_score:
                best_score = score
                best = order + 6 * bottom
    return best


@njit(cache=True)
def one_more_card(st, player, params):
    """Draw one more card (an area's extra draw, or the optional card of a player who won no
    yellow) if the chance of a missing escape item outweighs the Killer's."""
    for i in range(st[S_DRAWN_N]):
        c = st[S_DRAWN + i]
        if (missing_escapes(st) >> c) & 1:
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
    first, _ = ranked_pick(st, player, np.int64(-1))
    second, value = ranked_pick(st, player, first)
    if second >= 0 and of_kind(st, st[S_DRAWN + first], KIND_ESCAPE) and \
            of_kind(st, st[S_DRAWN + second], KIND_ESCAPE):
        return 1
    return 1 if value >= params[BACKPACK_MIN] else 0


@njit(cache=True)
def keep_pick(st, player, pick, params):
    """Pick number ``pick``: the most wanted drawn card not picked yet (an escape item the
    team lacks first), or -1; where keeping is optional, none worth less than ``keep_min``."""
    skip = st[S_PICK] if pick == 1 else -1
    best, value = ranked_pick(st, player, skip)
    if interface.may_keep_none(st) and value < params[KEEP_MIN]:
        return -1
    return best


@njit(cache=True)
def walkie_talkie_pick(st, player):
    """Take a missing escape item from the discard pile when no pick is one."""
    for k in range(2):
        i = st[S_PICK + k]
        if i >= 0 and of_kind(st, st[S_DRAWN + i], KIND_ESCAPE):
            return -1
    missing = missing_escapes(st)
    for d in range(st[S_DISCARD_N]):
        card = st[S_DISCARD + d]
        if (missing >> card) & 1:
            return d
    return -1


@njit(cache=True, inline='always')
def decide(decision, player, arg, st, params):
    """The heuristic policy: each decision in its own function above."""
    if decision == interface.PLAY_CARD:
        return choose_card(st, player, arg, params)
    if decision == interface.PHASE_START:
        return phase_start_item(st, player, params)
    if decision == interface.BEFORE_DRAW:
        return before_draw_item(st, player, params)
    if decision == interface.PEEK_ORDER:
        return flashlight_order(st, player, arg, params)
    if decision == interface.EXTRA_DRAW or decision == interface.OPTIONAL_DRAW:
        return one_more_card(st, player, params)
    if decision == interface.USE_BACKPACK:
        return use_backpack(st, player, params)
    if decision == interface.KEEP:
        return keep_pick(st, player, arg, params)
    if decision == interface.TAKE_DISCARD:
        return walkie_talkie_pick(st, player)
    if decision == interface.TRADE:
        return fire_pit_gift(st, player)
    return any_time_item(st, player, decision, arg, params)
