"""The blueprint of the belief player (:mod:`.belief`): the expert made a function of public facts
and its own hand, so that its partner can replay it on any hand it might hold.

The expert (:mod:`.expert`) is fair but draws its rollouts from the policy stream, which the
partner never sees, and reads the item-deck cards its own Flashlight showed it. The blueprint
plays the expert's card with both replaced: its random numbers are seeded from a hash of its
own hand, the cards played, the round, the trick and its seat (:func:`view_seed`), and the
Flashlight's marks of its own seat are cleared while it decides, so the item deck is read by
its contents and public marks alone. The same view gives the same card, whoever computes it.
Item-phase decisions are the heuristic's, as the expert's.
"""
from numba import njit
import numpy as np

from ..core.layout import POLICY, S_DECK_N, S_DECK_SEEN, S_HAND, S_PLAYED, S_RNG, S_ROUND, S_TRICK
from ..engine import interface
from ..engine.rng import splitmix64
from . import expert as EX
from . import heuristic as H


@njit(cache=True)
def view_seed(st, player):
    """A 64-bit hash of ``player``'s hand, the cards played, the round, the trick and the seat."""
    h = splitmix64(np.uint64(st[S_HAND + player]))
    h = splitmix64(h ^ np.uint64(st[S_PLAYED]))
    h = splitmix64(h ^ np.uint64(st[S_ROUND] * 64 + st[S_TRICK] * 2 + player))
    return np.int64(h)


@njit(cache=True)
def card(st, player, legal, params):
    """The expert's card from ``legal`` on ``player``'s public view: random numbers from
    :func:`view_seed`, the seat's own Flashlight marks ignored. ``st`` is left as it was."""
    me = 1 << player
    n = st[S_DECK_N]
    seen = 0
    for i in range(n):
        if st[S_DECK_SEEN + i] & me:
            seen |= 1 << i
            st[S_DECK_SEEN + i] &= ~me
    saved = st[S_RNG + POLICY]
    st[S_RNG + POLICY] = view_seed(st, player)
    choice = EX.choose_card(st, player, legal, params)
    st[S_RNG + POLICY] = saved
    for i in range(n):
        if (seen >> i) & 1:
            st[S_DECK_SEEN + i] |= me
    return choice


@njit(cache=True)
def decide(decision, player, arg, st, params):
    """The blueprint policy: :func:`card`, the heuristic's item-phase decisions."""
    if decision == interface.PLAY_CARD:
        return card(st, player, arg, params)
    return H.decide(decision, player, arg, st, params)
