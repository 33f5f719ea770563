"""The decisions a player is asked: their codes, when each is asked, what its answers mean.

Plain data, so that a policy's answers can be named and checked without compiling anything;
:mod:`.interface` holds the signature of the compiled function that answers them, and
:data:`DECISIONS` says, decision by decision, when it is asked, what ``arg`` holds and what
the legal answers mean (the engine's ``legal_answers`` lists them; any other answer is an
illegal one, replaced by the first legal answer and flagged).
"""
from typing import NamedTuple

import numpy as np

#: choose a card: ``arg`` = bitmask of legal cards; answer a card id from it
PLAY_CARD = 0
#: window (a), the start of the item phase, colours fixed: answer an item to use (First Aid,
#: Lucky Charm, Flashlight), or -1; asked again until -1
PHASE_START = 1
#: window (b), before a player's draw: as PHASE_START; asked of the drawing player, and under
#: ``before_draw_items = both_players`` of its partner too (``st[S_TURN]`` is the drawing player)
BEFORE_DRAW = 2
#: after a Flashlight: ``st[S_PEEK:S_PEEK+arg]`` are the top ``arg`` cards, top first; answer
#: ``order + 6 * bottom``: ``FLASHLIGHT_ORDERS[arg - 1, order]`` lists the peeked
#: indices top first, and ``bottom`` = 1 puts them under the deck in that order
PEEK_ORDER = 3
#: an area whose card allows one more draw (the Cabins): answer 1 to draw one more card
EXTRA_DRAW = 4
#: answer 1 to use a held Backpack (``arg`` = keepable cards drawn)
USE_BACKPACK = 5
#: keep: answer the index into ``st[S_DRAWN:]`` of pick number ``arg`` (0 or 1), or -1
KEEP = 6
#: with a Walkie-talkie held: answer the index into ``st[S_DISCARD:]`` to take instead of the
#: first pick, or -1 to keep the Walkie-talkie
TAKE_DISCARD = 7
#: Fire pit gift window ``arg`` (0, 1: before each turn; 2: after both): answer an item id
#: to give to the partner, or -1
TRADE = 8
#: ``item_timing = any_time``, window (c) at the start of the play phase, after the deal:
#: answer an item to use, or -1
PLAY_START = 9
#: ``item_timing = any_time``, window (d) right after trick ``arg`` (1..8): answer an item to
#: use, or -1
AFTER_TRICK = 10
#: ``no_yellow_draw = may``: a player who won no yellow answers 1 to draw its one card, 0 not to
OPTIONAL_DRAW = 11
N_DECISIONS = 12
DECISION_NAMES = ("play_card", "phase_start", "before_draw", "peek_order", "extra_draw",
                  "use_backpack", "keep", "take_discard", "trade", "play_start",
                  "after_trick", "optional_draw")
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


class Decision(NamedTuple):
    """What a player is asked at one kind of decision."""

    code: int
    name: str
    when: str       #: when the engine asks it
    arg: str        #: what the decision's argument holds
    answers: str    #: what each legal answer means


#: every decision, by name, in code order
DECISIONS = {d.name: d for d in (
    Decision(PLAY_CARD, "play_card",
             "each card of each trick: the leader first, then the follower",
             "the legal cards, as a bitmask of card ids (the follower must follow suit if it "
             "can)",
             "a legal card id (``suit * 5 + rank - 1``)"),
    Decision(PHASE_START, "phase_start",
             "window (a) at the start of the item phase, after the colours are fixed, each "
             "player in draw order while it holds a First Aid kit, a Lucky Charm or a "
             "Flashlight; asked again after each item used, until it answers -1",
             "0",
             "-1 (done), or a held item to use: a First Aid kit (its id, or its id + "
             "``ON_PARTNER`` to heal the partner when ``first_aid_target = either``), a Lucky "
             "Charm (only while a trap is set off), a Flashlight (then a ``peek_order`` "
             "decision follows)"),
    Decision(BEFORE_DRAW, "before_draw",
             "window (b), in an item turn before its player draws, while the player asked "
             "holds a usable item; asked again until -1. The drawing player is asked, and under "
             "``before_draw_items = both_players`` both players are, the first to draw first "
             "(the observation's ``turn`` is the drawing player)",
             "0", "as ``phase_start``"),
    Decision(PEEK_ORDER, "peek_order",
             "right after the player used a Flashlight, when the item deck is not empty",
             "k, the number of top cards seen (1..3); they are the observation's ``peek``, top "
             "first",
             "``order + 6 * bottom``: ``FLASHLIGHT_ORDERS[k - 1, order]`` lists the seen cards "
             "(indices into ``peek``) top first; ``bottom`` = 0 puts them back on top in that "
             "order, 1 under the deck"),
    Decision(EXTRA_DRAW, "extra_draw",
             "in an area whose card allows one more draw (the Cabins), after the player's draw "
             "when it drew no Killer and the deck is not empty",
             "0", "1 to draw one more card, 0 not to"),
    Decision(USE_BACKPACK, "use_backpack",
             "before keeping, when the player holds a Backpack and drew at least two cards it "
             "may keep",
             "the number of keepable cards drawn",
             "1 to use the Backpack (keep two cards), 0 not to"),
    Decision(KEEP, "keep",
             "after the draw, once per pick allowed (1, or 2 with the Backpack), while keepable "
             "cards remain and no pick has won the game",
             "the pick number, 0 or 1; the picks made so far in this draw are the "
             "observation's ``picks``",
             "the index of a drawn card to keep (the observation's ``drawn``; not one picked "
             "already; not Junk, the Killer or the Cursed Object), or -1 to keep none (for the "
             "first pick only where keeping is optional)"),
    Decision(TAKE_DISCARD, "take_discard",
             "after the picks, when no pick has won the game, the player holds a "
             "Walkie-talkie, the discard pile is not empty and it drew a card (or "
             "``walkie_talkie_without_draw``)",
             "0",
             "the index of a keepable card in the discard pile (the observation's "
             "``discard``), taken in place of the first pick, or -1 to keep the Walkie-talkie"),
    Decision(TRADE, "trade",
             "in the gift windows (before each turn and after the second) of an area whose "
             "card allows gifts (the Fire pit), each player in draw order while it holds an "
             "item; asked again until -1",
             "the gift window: 0 before the first turn, 1 before the second, 2 after both",
             "a held item id to give to the partner, or -1"),
    Decision(PLAY_START, "play_start",
             "with ``item_timing = any_time``, window (c) after the deal, before the first "
             "trick, the round leader first, while the player holds a usable item",
             "0", "as ``phase_start``"),
    Decision(AFTER_TRICK, "after_trick",
             "with ``item_timing = any_time``, window (d) after each trick of a game still "
             "running, the round leader first, while the player holds a usable item",
             "the trick just played, 1..8", "as ``phase_start``"),
    Decision(OPTIONAL_DRAW, "optional_draw",
             "with ``no_yellow_draw = may``, at the start of the draw of a player who won no "
             "yellow (its one card comes from the minimum), when the deck is not empty",
             "0", "1 to draw the card, 0 to draw none"),
)}
