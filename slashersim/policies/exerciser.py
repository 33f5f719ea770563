"""The ``exerciser`` policy (docs/rules.md, "The exerciser player"): the reference player for
every item rule.

The baseline never uses a Flashlight, Cabins' extra card or a Fire pit gift, so those
rules are held against independent implementations through this second fixed player: the
baseline in every decision, plus

- the Flashlight before its holder's own draw (after any First Aid; nothing before the
  partner's) when the draw count is at least 1 and the deck is not empty; seen cards holding
  the Killer go to the bottom as a block in the order seen, otherwise back on top, the escape
  items the team lacks first;
- Cabins' extra card whenever it is offered;
- in every Fire pit gift window, a player with more health than the partner gives the partner
  every First Aid kit it holds.

It never uses the play-phase windows of ``item_timing = any_time``. It reads only public
facts and, at its own Flashlight, the cards it sees.
"""
from numba import njit
import numpy as np

from ..core.layout import S_DECK_N, S_DRAWS, S_HELD, S_PEEK
from ..core.rules import KILLER, KIND_ESCAPE, KIND_LOOK_AT_TOP
from ..engine import interface
from ..engine.bits import lowest_bit
from ..engine.interface import FLASHLIGHT_ORDERS, N_FLASHLIGHT_ORDERS, kind_items
from . import baseline as B
from .common import fire_pit_gift


@njit(cache=True)
def flashlight_now(st, player):
    """After the baseline's First Aid: a look-at-top item (the Flashlight), when the draw
    count n >= 1 and the deck is not empty."""
    item = B.first_aid_now(st, player)
    lights = st[S_HELD + player] & kind_items(st, KIND_LOOK_AT_TOP)
    if item < 0 and lights and st[S_DRAWS + player] >= 1 and st[S_DECK_N] > 0:
        item = lowest_bit(lights)
    return item


@njit(cache=True)
def flashlight_order(st, k):
    """The answer for ``k`` seen cards (``interface.PEEK_ORDER``): with the Killer among them, all
    to the bottom in the order seen; otherwise on top, the escape items the team lacks first,
    then the rest, each group in the order seen."""
    lacking = kind_items(st, KIND_ESCAPE) & ~(st[S_HELD] | st[S_HELD + 1])
    wanted = np.empty(3, dtype=np.int64)
    n = 0
    for i in range(k):
        if st[S_PEEK + i] == KILLER:
            return 6
    for i in range(k):
        if (lacking >> st[S_PEEK + i]) & 1:
            wanted[n] = i
            n += 1
    for i in range(k):
        if not (lacking >> st[S_PEEK + i]) & 1:
            wanted[n] = i
            n += 1
    for order in range(N_FLASHLIGHT_ORDERS[k]):
        same = True
        for i in range(k):
            same &= FLASHLIGHT_ORDERS[k - 1, order, i] == wanted[i]
        if same:
            return order
    return 0


@njit(cache=True, inline='always')
def decide(decision, player, arg, st, params):
    """The exerciser policy (docs/rules.md, "The exerciser player")."""
    if decision == interface.BEFORE_DRAW:
        return -1 if B.partners_turn(st, player) else flashlight_now(st, player)
    if decision == interface.PEEK_ORDER:
        return flashlight_order(st, arg)
    if decision == interface.EXTRA_DRAW:
        return 1
    if decision == interface.TRADE:
        return fire_pit_gift(st, player)
    return B.decide(decision, player, arg, st, params)
