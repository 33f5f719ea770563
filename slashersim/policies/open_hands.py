"""The ``open_hands`` policy: a yardstick, the belief player's search with both hands in view.

It plays as if the partners could talk about their hands: each card is searched as the belief
player's answers are (:func:`.belief.search_card`), but on the partner's true hand instead of
hands drawn from a belief; the item deck, the later deals and the area order stay unknown (item
decks are drawn as :func:`.search.sample_item_deck` does, the streams are fresh). The leads are
searched too (``search_leads``; 0 leads as the blueprint, as the belief player does). It reads
hidden information, so it is registered omniscient: the gap between it and the belief player
is what the rule against talking about hands costs this search.
"""
from numba import njit
import numpy as np

from ..core.layout import S_HAND, S_LED
from ..engine import interface
from . import belief as B
from . import blueprint as BP
from . import heuristic as H
from .params import BELIEF, OPEN_HANDS, index_of

SEARCH_LEADS = index_of(OPEN_HANDS, "search_leads")
assert all(index_of(OPEN_HANDS, p.name) == index_of(BELIEF, p.name)
           for p in BELIEF[:SEARCH_LEADS])


@njit(cache=True)
def play_card(st, player, legal, params):
    """The blueprint's card, or a cheaper one on the partner's true hand."""
    default = BP.card(st, player, legal, params)
    if st[S_LED] < 0 and params[SEARCH_LEADS] <= 0:
        return default
    hands = np.empty(1, dtype=np.int64)
    hands[0] = st[S_HAND + 1 - player]
    return B.search_card(st, player, legal, default, hands, np.int64(1), params)


@njit(cache=True)
def decide(decision, player, arg, st, params):
    """The open-hands policy (a yardstick, not a fair player)."""
    if decision == interface.PLAY_CARD:
        return play_card(st, player, arg, params)
    return H.decide(decision, player, arg, st, params)
