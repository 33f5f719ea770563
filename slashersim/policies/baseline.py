"""The baseline policy (docs/rules.md, "The baseline player"): the fixed reference player,
not meant to play well.

Random legal cards; Lucky Charms at once; First Aid by health thresholds before its own draw
(nothing in the partner's window (b)); the first-drawn missing escape item, else a fixed item
priority; Backpack whenever it helps; Walkie-talkie for a missing escape item in the discard
pile. Never Flashlight, Cabins' extra card or trades.
"""
from numba import njit
import numpy as np

from ..core.layout import (
    C_ITEM_HEAL,
    C_ITEM_KIND,
    S_DISCARD,
    S_DISCARD_N,
    S_DRAWN,
    S_DRAWN_N,
    S_HEALTH,
    S_HELD,
    S_PICK,
    S_TRAPS,
    S_TURN,
)
from ..core.rules import (
    KIND_ESCAPE,
    KIND_HEAL,
    KIND_KEEP_ONE_MORE,
    KIND_LOOK_AT_TOP,
    KIND_REMOVE_TRAP,
    KIND_TAKE_FROM_DISCARD,
    N_ITEM_KINDS,
)
from ..engine import interface
from ..engine.bits import lowest_bit, nth_bit, popcount
from ..engine.interface import keepable, kind_items, of_kind
from ..engine.rng import POLICY, rand_below

#: keep priority of an item by its kind (higher first; a heal item: that of a small kit, one
#: more for a large one, which heals 2 or more); escape items come before all of them
KIND_PRIORITY = np.zeros(N_ITEM_KINDS, dtype=np.int64)
for _rank, _kind in enumerate((KIND_LOOK_AT_TOP, KIND_KEEP_ONE_MORE, KIND_TAKE_FROM_DISCARD,
                               KIND_REMOVE_TRAP, KIND_HEAL)):
    KIND_PRIORITY[_kind] = _rank + 1
#: First Aid Large is used while health is at most this, then Small while at most the next
LARGE_AID_BELOW = 5
SMALL_AID_BELOW = 6


@njit(cache=True, inline='always')
def random_legal_card(legal, st):
    """A uniformly random card of the bitmask ``legal``."""
    return nth_bit(legal, rand_below(st, POLICY, popcount(legal)))


@njit(cache=True, inline='always')
def lucky_charm_now(st, player):
    """Use a held remove-trap item (the Lucky Charm) while any trap is set off."""
    charms = st[S_HELD + player] & kind_items(st, KIND_REMOVE_TRAP)
    if charms and st[S_TRAPS] > 0:
        return lowest_bit(charms)
    return -1


@njit(cache=True, inline='always')
def aid_kits(st, held):
    """``(large, small)``: the first heal item of ``held`` that heals 2 or more (First Aid
    Large as printed) and the first that heals 1 (Small); -1 where there is none."""
    large = -1
    small = -1
    kits = held & kind_items(st, KIND_HEAL)
    while kits:
        item = lowest_bit(kits)
        kits &= kits - 1
        if st[C_ITEM_HEAL + item] >= 2:
            if large < 0:
                large = item
        elif small < 0:
            small = item
    return large, small


@njit(cache=True, inline='always')
def first_aid_below(st, player, large_below, small_below):
    """A large heal item (:func:`aid_kits`) while health <= ``large_below``, then a small one
    while <= ``small_below``."""
    large, small = aid_kits(st, st[S_HELD + player])
    health = st[S_HEALTH + player]
    if large >= 0 and health <= large_below:
        return large
    if small >= 0 and health <= small_below:
        return small
    return -1


@njit(cache=True, inline='always')
def first_aid_now(st, player):
    """First Aid Large while health <= 5, then Small while health <= 6."""
    return first_aid_below(st, player, LARGE_AID_BELOW, SMALL_AID_BELOW)


@njit(cache=True, inline='always')
def partners_turn(st, player):
    """Whether the item turn under way is the partner's: ``player`` is asked in window (b)
    before the partner's draw (``before_draw_items = "both_players"``)."""
    return st[S_TURN] == 1 - player


@njit(cache=True, inline='always')
def keep_score(st, card, index):
    """How much the baseline wants a drawn card: missing escape items first (earliest first),
    then the item priority; 0 for a card it never keeps."""
    if not keepable(st, card):
        return 0
    if of_kind(st, card, KIND_ESCAPE):
        if ((st[S_HELD] | st[S_HELD + 1]) >> card) & 1:
            return 0
        return 1000 - index
    kind = st[C_ITEM_KIND + card]
    return KIND_PRIORITY[kind] + (kind == KIND_HEAL and st[C_ITEM_HEAL + card] >= 2)


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
        if i >= 0 and of_kind(st, st[S_DRAWN + i], KIND_ESCAPE):
            return -1
    team = st[S_HELD] | st[S_HELD + 1]
    for d in range(st[S_DISCARD_N]):
        card = st[S_DISCARD + d]
        if of_kind(st, card, KIND_ESCAPE) and not (team >> card) & 1:
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
        return -1 if partners_turn(st, player) else first_aid_now(st, player)
    if decision == interface.USE_BACKPACK or decision == interface.OPTIONAL_DRAW:
        return 1
    if decision == interface.KEEP:
        return best_pick(st, arg)
    if decision == interface.TAKE_DISCARD:
        return walkie_talkie_pick(st)
    if decision == interface.PEEK_ORDER or decision == interface.EXTRA_DRAW:
        return 0
    return -1
