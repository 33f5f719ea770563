"""The ``omniscient`` policy: a yardstick that sees both hands and the item-deck order.

It is not a fair player; it shows what seeing every card is worth to a good player. It is no
upper bound: the exact solver (:mod:`slashersim.analysis.winnable`) wins games it loses.
Card play is a cooperative best response: the leader tries every pair (its lead, the partner's
answer), the follower every answer, and each line is played out with the ``heuristic`` to the
end of the round, item phase included, on the true hands and the true item deck
(:func:`line_cost`). Future randomness (later deals, area order and reshuffles) is not known:
the rollouts reshuffle their copies of those streams. The cost of a line is the round's trap,
the health lost and any death, less the escape items gained (:func:`.common.round_end_cost`).
Item-phase decisions that the deck order settles are exact: Cabins' extra card is drawn only
when it is not the Killer or the Cursed Object, and the Flashlight is used only when the Killer
is among one's next draws; the others are the heuristic's.
"""
from numba import njit
import numpy as np

from ..core.layout import (
    C_ITEM_EXTRA_DRAWS,
    CFG_SIZE,
    S_DECK,
    S_DECK_N,
    S_DRAWS,
    S_HAND,
    S_HELD,
    S_LED,
)
from ..core.rules import KILLER, KIND_CURSED, KIND_LOOK_AT_TOP
from ..engine import interface
from ..engine.bits import lowest_bit
from ..engine.interface import keepable, kind_items, of_kind
from ..engine.playout import finish_round, legal_cards, play_given_card
from . import heuristic as H
from .common import fresh_streams, item_value, round_end_cost
from .params import OMNISCIENT, index_of

#: rollout values of an escape item gained and of a game won
ESCAPE_VALUE = index_of(OMNISCIENT, "escape_value")
WIN_VALUE = index_of(OMNISCIENT, "win_value")


@njit(cache=True)
def forget_the_future(st, trial):
    """Give ``trial`` fresh streams (:func:`.common.fresh_streams`): the omniscient player
    sees the hands and the deck, not the future deals, reshuffles or dice."""
    fresh_streams(st, trial)


@njit(cache=True)
def line_cost(st, trial, params):
    """Finish the round in ``trial`` with the heuristic and return its cost from ``st``."""
    forget_the_future(st, trial)
    finish_round(H.decide, trial, params)
    return round_end_cost(st, trial, params, np.int64(ESCAPE_VALUE),
                          np.int64(WIN_VALUE))


@njit(cache=True)
def best_card(st, player, legal, params):
    """The card of the best line: the follower over its answers, the leader over pairs of its
    lead and the partner's best answer."""
    if not legal & (legal - 1):
        return lowest_bit(legal)
    leading = st[S_LED] < 0
    trial = st.copy()
    after_lead = st.copy()
    best = -1
    best_cost = 1e300
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        if leading:
            after_lead[CFG_SIZE:] = st[CFG_SIZE:]
            play_given_card(after_lead, player, card)
            answers = legal_cards(st[S_HAND + 1 - player], card)
            cost = 1e300
            a = answers
            while a:
                answer = lowest_bit(a)
                a &= a - 1
                trial[CFG_SIZE:] = after_lead[CFG_SIZE:]
                play_given_card(trial, 1 - player, answer)
                cost = min(cost, line_cost(st, trial, params))
        else:
            trial[CFG_SIZE:] = st[CFG_SIZE:]
            play_given_card(trial, player, card)
            cost = line_cost(st, trial, params)
        if cost < best_cost:
            best_cost = cost
            best = card
    return best


@njit(cache=True, inline='always')
def top_card(st, depth):
    """The item-deck card ``depth`` places below the top (0 = top), or -1."""
    n = st[S_DECK_N]
    return st[S_DECK + n - 1 - depth] if depth < n else -1


@njit(cache=True)
def killer_in_next_draws(st, player):
    """Whether the Killer is among the cards ``player``'s draw will take."""
    pending = st[S_DRAWS + player]
    depth = 0
    while pending > 0:
        card = top_card(st, depth)
        if card < 0:
            return False
        if card == KILLER:
            return True
        if of_kind(st, card, KIND_CURSED):
            pending += st[C_ITEM_EXTRA_DRAWS + card]
        pending -= 1
        depth += 1
    return False


@njit(cache=True)
def before_draw_item(st, player, params):
    """Lucky Charm and First Aid as the heuristic (:func:`.heuristic.charm_or_aid`); a
    look-at-top item (the Flashlight) only against the Killer in the next draw, its own or, in
    the partner's window (b), the partner's."""
    item = H.charm_or_aid(st, player, params)
    lights = st[S_HELD + player] & kind_items(st, KIND_LOOK_AT_TOP)
    if item < 0 and lights and killer_in_next_draws(st, H.drawing_player(st, player)):
        item = lowest_bit(lights)
    return item


@njit(cache=True)
def one_more_card(st, player):
    """The heuristic's :func:`.heuristic.one_more_card` with the deck seen: draw when the top
    card is worth keeping."""
    card = top_card(st, 0)
    return 1 if card >= 0 and keepable(st, card) and item_value(st, player, card) > 0 else 0


@njit(cache=True)
def decide(decision, player, arg, st, params):
    """The omniscient policy (a yardstick, not a fair player)."""
    if decision == interface.PLAY_CARD:
        return best_card(st, player, arg, params)
    if decision == interface.BEFORE_DRAW:
        return before_draw_item(st, player, params)
    if decision == interface.EXTRA_DRAW or decision == interface.OPTIONAL_DRAW:
        return one_more_card(st, player)
    return H.decide(decision, player, arg, st, params)
