"""The engine's entry points for players that search: play a chosen card, finish the round.

A searching player copies the state, fills in what it cannot see with its own guesses, and
plays the copy forward under a policy of its choice (:mod:`slashersim.policies.search`,
:mod:`slashersim.policies.omniscient`). Passing that policy's ``decide`` as ``policy`` lets
numba specialise the round on it and call it directly.
"""
from numba import njit

from ..core.layout import S_LED
from .game import finish_round
from .items import team_escapes
from .predicates import legal_cards
from .tricks import finish_play_phase, place_card, resolve_trick

__all__ = ["finish_play_phase", "finish_round", "legal_cards", "play_given_card",
           "team_escapes"]


@njit(cache=True, inline='always')
def play_given_card(st, player, card):
    """Play ``card`` for ``player``: lead it, or answer the led card and complete the trick."""
    if st[S_LED] < 0:
        place_card(st, player, card)
        st[S_LED] = card
    else:
        lead = st[S_LED]
        place_card(st, player, card)
        resolve_trick(st, lead, card)
