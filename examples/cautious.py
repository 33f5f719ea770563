"""A compiled policy in one file: the worked example of docs/howto/own-player.md, "A compiled
player". Register it with one line in ``POLICIES`` (``slashersim/policies/__init__.py``)::

    "cautious": PolicySpec("examples.cautious"),

(a file inside the package, ``slashersim/policies/cautious.py``, is ``PolicySpec(".cautious")``)
and every command, sweep and comparison can play it: ``slashersim simulate --policy
cautious``.

The player follows with its lowest legal card and leads the lowest card of its longest suit
that is not trumps; it uses a Lucky Charm as soon as a trap is set off and First Aid at health
4 or less, keeps a missing escape item first (else the first card it may keep), always uses a
Backpack, and never a Flashlight, Cabins' extra card, the Walkie-talkie or a gift. It reads
only its own view (its hand, the led card, the public counters and piles), so it is fair, and
it never draws from its random stream.
"""
from numba import njit

from slashersim.core import layout as L
from slashersim.core.rules import KIND_ESCAPE, KIND_HEAL, KIND_REMOVE_TRAP, SUIT_MASK
from slashersim.engine import interface
from slashersim.engine.bits import lowest_bit, popcount


@njit(cache=True)
def lead_card(hand, trump):
    """The lowest card of the longest suit of ``hand`` other than ``trump`` (trumps if that
    is all it holds)."""
    best, best_n = -1, 0
    for s in range(4):
        n = popcount(hand & SUIT_MASK[s])
        if s != trump and n > best_n:
            best, best_n = s, n
    return lowest_bit(hand if best < 0 else hand & SUIT_MASK[best])


@njit(cache=True)
def item_to_use(st, player):
    """A Lucky Charm while a trap is set off, else First Aid (the one that heals most) at
    health <= 4. An item is judged by its kind, as the cards in play say (a card file may give
    an item another kind)."""
    held = st[L.S_HELD + player]
    charms = held & interface.kind_items(st, KIND_REMOVE_TRAP)
    if charms and st[L.S_TRAPS] > 0:
        return lowest_bit(charms)
    best = -1
    if st[L.S_HEALTH + player] <= 4:
        kits = held & interface.kind_items(st, KIND_HEAL)
        while kits:
            item = lowest_bit(kits)
            kits &= kits - 1
            if best < 0 or st[L.C_ITEM_HEAL + item] > st[L.C_ITEM_HEAL + best]:
                best = item
    return best


@njit(cache=True)
def card_to_keep(st, pick):
    """A drawn escape item the team lacks, else the first drawn card that may be kept."""
    team = st[L.S_HELD] | st[L.S_HELD + 1]
    first = -1
    for i in range(st[L.S_DRAWN_N]):
        card = st[L.S_DRAWN + i]
        if not interface.keepable(st, card) or (pick > 0 and st[L.S_PICK] == i):
            continue
        if interface.of_kind(st, card, KIND_ESCAPE) and not (team >> card) & 1:
            return i
        if first < 0:
            first = i
    return first


@njit(cache=True)
def decide(decision, player, arg, st, params):
    """The engine's one policy signature (``engine.interface``): answer ``decision``."""
    if decision == interface.PLAY_CARD:
        return lowest_bit(arg) if st[L.S_LED] >= 0 else lead_card(arg, st[L.S_TRUMP])
    if decision in (interface.PHASE_START, interface.BEFORE_DRAW, interface.PLAY_START,
                    interface.AFTER_TRICK):
        return item_to_use(st, player)
    if decision == interface.USE_BACKPACK:
        return 1
    if decision == interface.KEEP:
        return card_to_keep(st, arg)
    if decision == interface.EXTRA_DRAW:
        return 0
    return -1
