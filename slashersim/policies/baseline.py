"""The baseline policy (docs/rules.md, "The baseline player"): the fixed reference player,
not meant to play well.

Random legal cards; Lucky Charms at once; First Aid by health thresholds; the first-drawn
missing escape item, else a fixed item priority; Backpack whenever it helps; Walkie-talkie
for a missing escape item in the discard pile. Never Flashlight, Cabins' extra card or trades.
"""
from numba import njit
import numpy as np

from ..core.layout import (
    S_DISCARD,
    S_DISCARD_N,
    S_DRAWN,
    S_DRAWN_N,
    S_HEALTH,
    S_HELD,
    S_PICK,
    S_TRAPS,
)
from ..core.rules import (
    BACKPACK,
    FIRST_AID_LARGE,
    FIRST_AID_SMALL,
    FLASHLIGHT,
    LUCKY_CHARM,
    N_ESCAPES,
    WALKIE_TALKIE,
)
from ..engine import interface
from ..engine.bits import nth_bit, popcount
from ..engine.interface import keepable
from ..engine.rng import POLICY, rand_below

#: keep priority of normal items (higher first); escape items come before all of them
KEEP_PRIORITY = np.zeros(13, dtype=np.int64)
for _rank, _item in enumerate((FLASHLIGHT, BACKPACK, WALKIE_TALKIE, LUCKY_CHARM,
                               FIRST_AID_SMALL, FIRST_AID_LARGE)):
    KEEP_PRIORITY[_item] = _rank + 1
#: First Aid Large is used while health is at most this, then Small while at most the next
LARGE_AID_BELOW = 5
SMALL_AID_BELOW = 6


@njit(cache=True, inline='always')
def random_legal_card(legal, st):
    """A uniformly random card of the bitmask ``legal``."""
    return nth_bit(legal, rand_below(st, POLICY, popcount(legal)))


@njit(cache=True, inline='always')
def lucky_charm_now(st, player):
    """Use a held Lucky Charm while any trap is set off."""
    if (st[S_HELD + player] >> LUCKY_CHARM) & 1 and st[S_TRAPS] > 0:
        return LUCKY_CHARM
    return -1


@njit(cache=True, inline='always')
def first_aid_below(st, player, large_below, small_below):
    """First Aid Large while health <= ``large_below``, then Small while <= ``small_below``."""
    held = st[S_HELD + player]
    health = st[S_HEALTH + player]
    if (held >> FIRST_AID_LARGE) & 1 and health <= large_below:
        return FIRST_AID_LARGE
    if (held >> FIRST_AID_SMALL) & 1 and health <= small_below:
        return FIRST_AID_SMALL
    return -1


@njit(cache=True, inline='always')
def first_aid_now(st, player):
    """First Aid Large while health <= 5, then Small while health <= 6."""
    return first_aid_below(st, player, LARGE_AID_BELOW, SMALL_AID_BELOW)


@njit(cache=True, inline='always')
def keep_score(st, card, index):
    """How much the baseline wants a drawn card: missing escape items first (earliest first),
    then the item priority; 0 for a card it never keeps."""
    if not keepable(card):
        return 0
    if card < N_ESCAPES:
        if ((st[S_HELD] | st[S_HELD + 1]) >> card) & 1:
            return 0
        return 1000 - index
    return KEEP_PRIORITY[card]


@njit(cache=True)
def best_pick(st, pick):
    """Index of the drawn card to keep as pick number ``pick``, or -1."""
    best = -1
    best_score = 0
    for i in range(st[S_DRAWN_N]):
        if pick == 1 and st[S_PICK] == i:
            continue
        score = keep_score(st, st[S_DRAWN + i], i)
        if score > best_score:
            best = i
            best_score = score
    return best


@njit(cache=True)
def walkie_talkie_pick(st):
    """If no pick is an escape item, the earliest missing escape item in the discard pile."""
    for k in range(2):
        i = st[S_PICK + k]
        if i >= 0 and st[S_DRAWN + i] < N_ESCAPES:
            return -1
    team = st[S_HELD] | st[S_HELD + 1]
    for d in range(st[S_DISCARD_N]):
        card = st[S_DISCARD + d]
        if card < N_ESCAPES and not (team >> card) & 1:
            return d
    return -1


@njit(cache=True, inline='always')
def decide(decision, player, arg, st, params):
    """The baseline policy (docs/rules.md, "The baseline player")."""
    if decision == interface.PLAY_CARD:
        return random_legal_card(arg, st)
    if decision == interface.PHASE_START:
        return lucky_charm_now(st, player)
    if decision == interface.BEFORE_DRAW:
        return first_aid_now(st, player)
    if decision == interface.USE_BACKPACK or decision == interface.OPTIONAL_DRAW:
        return 1
    if decision == interface.KEEP:
        return best_pick(st, arg)
    if decision == interface.TAKE_DISCARD:
        return walkie_talkie_pick(st)
    if decision == interface.PEEK_ORDER or decision == interface.EXTRA_DRAW:
        return 0
    return -1
