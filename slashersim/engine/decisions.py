"""The decisions a policy is asked, their codes and the meaning of their answers.

Plain numbers, so that a policy's answers can be named and checked without compiling anything;
:mod:`.api` holds the signature of the function that answers them.
"""
import numpy as np

#: choose a card: ``arg`` = bitmask of legal cards; answer a card id from it
PLAY_CARD = 0
#: window (a), the start of the item phase, colours fixed: answer an item to use (First Aid,
#: Lucky Charm, Flashlight), or -1; asked again until -1
PHASE_START = 1
#: window (b), before the player's own draw: as PHASE_START
BEFORE_DRAW = 2
#: Flashlight: ``st[S_PEEK:S_PEEK+arg]`` are the top ``arg`` cards, top first; answer
#: ``order + 6 * bottom``: ``FLASHLIGHT_ORDERS[arg - 1, order]`` lists the peeked
#: indices top first, and ``bottom`` = 1 puts them under the deck in that order
FLASHLIGHT = 3
#: Cabins: answer 1 to draw one more card
CABINS_EXTRA = 4
#: answer 1 to use a held Backpack (``arg`` = keepable cards drawn)
USE_BACKPACK = 5
#: keep: answer the index into ``st[S_DRAWN:]`` of pick number ``arg`` (0 or 1), or -1
KEEP = 6
#: Walkie-talkie: answer the index into ``st[S_DISCARD:]`` to take instead of the first pick,
#: or -1 to keep the Walkie-talkie
WALKIE_TALKIE = 7
#: Fire pit gift window: answer an item id to give to the partner, or -1
TRADE = 8
#: ``item_timing = any_time``, window (c) at the start of the play phase, after the deal:
#: answer an item to use, or -1
PLAY_START = 9
#: ``item_timing = any_time``, window (d) right after trick ``arg`` (1..8): answer an item to
#: use, or -1
AFTER_TRICK = 10
N_DECISIONS = 11
DECISION_NAMES = ("play_card", "phase_start", "before_draw", "flashlight", "cabins_extra",
                  "use_backpack", "keep", "walkie_talkie", "trade", "play_start",
                  "after_trick")
#: added to a First Aid kit's id in an item-use answer: heal the partner instead of oneself
#: (allowed when ``first_aid_target = either``)
ON_PARTNER = 32

#: ``FLASHLIGHT_ORDERS[k - 1, order]``: the peeked indices (top first) of order ``order`` of
#: ``k`` cards, in lexicographic order; unused entries are -1
FLASHLIGHT_ORDERS = np.array([
    [[0, -1, -1]] + [[-1, -1, -1]] * 5,
    [[0, 1, -1], [1, 0, -1]] + [[-1, -1, -1]] * 4,
    [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]],
], dtype=np.int64)
#: number of orders of ``k`` cards, ``k = 0..3``
N_FLASHLIGHT_ORDERS = np.array([1, 1, 2, 6], dtype=np.int64)
