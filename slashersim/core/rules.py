"""Card, area and item ids of The Slasher, and the rule tables of both editions.

Everything here is plain integers and numpy arrays so that the numba kernels read the same
definitions as the Python side. The rules themselves are stated in ``docs/rules.md``; the
comments below name its sections.
"""

from typing import NamedTuple

import numpy as np

# --- number cards (docs/rules.md, "The cards") --------------------------------------------
#: suits; a number card's id is ``suit * 5 + rank - 1``
WHITE, GREEN, YELLOW, RED = 0, 1, 2, 3
N_SUITS = 4
N_RANKS = 5
N_NUMBER_CARDS = 20
HAND_SIZE = 8
TRICKS_PER_ROUND = 8
SUIT_NAMES = ("white", "green", "yellow", "red")
#: bitmask of all number cards
ALL_CARDS = (1 << N_NUMBER_CARDS) - 1
#: ``SUIT_MASK[s]``: bitmask of the five cards of suit ``s``
SUIT_MASK = np.array([0b11111 << (5 * s) for s in range(N_SUITS)], dtype=np.int64)


def card_id(suit, rank):
    """Id of the number card of ``suit`` (0..3) and ``rank`` (1..5)."""
    return int(suit) * N_RANKS + rank - 1


def card_name(card):
    """``'red 5'`` for the id of the red 5."""
    return f"{SUIT_NAMES[card // N_RANKS]} {card % N_RANKS + 1}"

# --- areas (docs/rules.md, "The cards", "The areas and their traps") ----------------------
TENT_SITE, LODGE, LAKESIDE, HIDEAWAY, CABINS, WOODLAND, FIRE_PIT = range(7)
#: the printed game's area cards
N_AREAS = 7
#: the most area cards a card set may hold: the printed seven and new ones beside them
MAX_AREAS = 12
AREA_NAMES = ("tent_site", "lodge", "lakeside", "hideaway", "cabins", "woodland", "fire_pit")

# --- item cards (docs/rules.md, "The cards", "The items") ---------------------------------
(MAP, CAR_KEY, GASOLINE, BOLT_CUTTERS, BASEBALL_BAT, FIRST_AID_SMALL, FIRST_AID_LARGE,
 FLASHLIGHT, BACKPACK, LUCKY_CHARM, WALKIE_TALKIE, CURSED_OBJECT, KILLER) = range(13)
#: the five Junk cards of the instructions edition have ids ``JUNK .. JUNK + 4``
JUNK = 13
N_JUNK = 5
N_ITEM_IDS = JUNK + N_JUNK
#: the most item cards a card file may add beside the twelve; theirs are the ids
#: ``FIRST_ADDED_ITEM ..`` after the Junk
MAX_ADDED_ITEMS = 6
FIRST_ADDED_ITEM = N_ITEM_IDS
#: room for every item id: the twelve, the Killer, the Junk and the added items
MAX_ITEM_IDS = FIRST_ADDED_ITEM + MAX_ADDED_ITEMS
N_ESCAPES = 5
#: bitmask (over item ids) of the escape items
ITEM_NAMES = ("map", "car_key", "gasoline", "bolt_cutters", "baseball_bat", "first_aid_small",
              "first_aid_large", "flashlight", "backpack", "lucky_charm", "walkie_talkie",
              "cursed_object", "killer") + tuple(f"junk_{i + 1}" for i in range(N_JUNK))


class ItemKind(NamedTuple):
    """What an item card does, its kind (docs/cards.md, "Item kinds"): its ``name``, whether a
    drawn card of the kind may be kept (``kept``) and is used in a use window (``usable``: the
    windows of the item phase, and of the play phase with ``item_timing = any_time``), and what
    an item of the kind does (``does``)."""

    name: str
    kept: bool
    usable: bool
    does: str


#: the item kinds, in the order of their codes ``KIND_*``
ITEM_KIND_TABLE = (
    ItemKind("escape", True, False,
             "an escape item: the team wins holding `escapes_needed` different ones"),
    ItemKind("heal", True, True,
             "used in a use window: +`heal` health to its holder (or the partner where "
             "`first_aid_target = either`), never above the maximum"),
    ItemKind("look_at_top", True, True,
             "used before a draw: look at the top 3 cards and put them back in any order, on "
             "top or at the bottom"),
    ItemKind("keep_one_more", True, False,
             "used after a draw of two or more keepable cards: keep one more"),
    ItemKind("remove_trap", True, True, "used in a use window: remove one set-off trap"),
    ItemKind("take_from_discard", True, False,
             "used after drawing: take a card from the discard pile instead"),
    ItemKind("cursed", False, False,
             "never kept: drawn, it leaves the game and adds its `extra_draws`"),
    ItemKind("junk", False, False, "never kept: drawn, it is discarded"),
)
ITEM_KINDS = tuple(kind.name for kind in ITEM_KIND_TABLE)
#: the code of each kind, ``KIND_<NAME>``
(KIND_ESCAPE, KIND_HEAL, KIND_LOOK_AT_TOP, KIND_KEEP_ONE_MORE, KIND_REMOVE_TRAP,
 KIND_TAKE_FROM_DISCARD, KIND_CURSED, KIND_JUNK) = range(len(ITEM_KINDS))
N_ITEM_KINDS = len(ITEM_KINDS)
#: the 12 item cards of the retail game (Killer and Junk excluded)
STANDARD_ITEMS = tuple(range(CURSED_OBJECT + 1))
#: their names, by item id: the keys of the item statistics (used and kept counts)
ITEM_STAT_NAMES = ITEM_NAMES[:CURSED_OBJECT + 1]

# --- health and white colours (docs/rules.md, "Colours of the whites") --------------------
MAX_HEALTH = 7
#: colour codes of a white card in the item phase, ordered so that "one step down" is -1
COLOUR_RED, COLOUR_YELLOW, COLOUR_GREEN = 0, 1, 2

# --- editions (docs/rules.md, "The two editions side by side") ----------------------------
RULEBOOK, INSTRUCTIONS = 0, 1
EDITION_NAMES = ("rulebook", "instructions")



#: area-deck modes
AREA_DECK_LEVELS, AREA_DECK_CYCLE = 0, 1
#: round-leader modes
LEADER_ARROW, LEADER_LAST_TRICK = 0, 1
#: item-deck set-up modes
ITEM_DECK_KILLER_TOP_HALF, ITEM_DECK_SHUFFLED = 0, 1
#: the rulebook's top item group with an odd number of items in play (``top_group``)
TOP_GROUP_CHOICES = ("half_up", "half_down")


def top_group_size(n_items, top_group="half_up"):
    """Item cards (the Killer not counted) in the top group of the rulebook's first item deck
    when ``n_items`` are in play (docs/rules.md, "The item deck"): the text splits the twelve
    into "two groups of six"; with an odd count the top group takes half rounded up
    (``"half_up"``) or down (``"half_down"``)."""
    return (n_items + (top_group == "half_up")) // 2
#: what happens after the Killer is drawn
KILLER_RESHUFFLE_AT_CLEANUP, KILLER_RESHUFFLE_AT_ONCE = 0, 1
#: where a used item goes
USED_TO_DISCARD, USED_OUT_OF_GAME = 0, 1
#: item windows (docs/rules.md, "Item windows"): (a) and (b) only, or also (c) and (d)
ITEM_TIMING_ITEM_PHASE, ITEM_TIMING_ANY_TIME = 0, 1
#: who draws first in the item phase (docs/rules.md, "The item phase")
DRAW_ROUND_LEADER, DRAW_LAST_TRICK_WINNER = 0, 1
#: Fire pit gifts (docs/rules.md, "Fire pit gifts"): one-way gifts in three windows, or none
GIFTS_ONE_WAY, GIFTS_NONE = 0, 1
#: whom First Aid heals (docs/rules.md, "The items"): its holder, or either player
AID_HOLDER, AID_EITHER = 0, 1
#: the keep of a draw that held the Cursed Object (docs/rules.md, "Keeping"): as any keep, or
#: optional even where keeping is mandatory
CURSED_KEEP_AS_KEEPING, CURSED_KEEP_OPTIONAL = 0, 1
#: the one card of a player who won no yellow (docs/rules.md, "The draw count"): drawn, or
#: drawn only if the player chooses
NO_YELLOW_DRAW_MUST, NO_YELLOW_DRAW_MAY = 0, 1
#: who may use items in window (b), before a player's own draw (docs/rules.md, "Item
#: windows"): the drawing player only, or both players
BEFORE_DRAW_DRAWING_PLAYER, BEFORE_DRAW_BOTH_PLAYERS = 0, 1

#: per-edition values of the rule settings that differ; ``GameConfig`` fills the fields left at
#: ``None`` from here (docs/rules.md, "The two editions side by side")
EDITION_DEFAULTS = {
    "rulebook": dict(hideaway=False, area_deck="levels", leader="arrow",
                     item_deck="killer_top_half", killer_reshuffle="cleanup",
                     used_items="discard", junk=0, item_timing="item_phase",
                     keep_optional=True,
                     white_colours=("red", "red", "yellow", "yellow", "yellow", "green", "green")),
    "instructions": dict(hideaway=True, area_deck="cycle", leader="last_trick",
                         item_deck="shuffled", killer_reshuffle="at_once", used_items="out",
                         junk=N_JUNK, item_timing="any_time", keep_optional=False,
                         white_colours=("red", "red", "red", "yellow", "yellow", "yellow",
                                        "green")),
}

#: the difficulty knobs (docs/rules.md, "The difficulty knobs") that the tuner turns by default
DIFFICULTY_KNOBS = ("health", "hideaway", "cursed_object", "escapes_needed", "traps")

# --- outcomes (docs/rules.md, "Winning and losing") ---------------------------------------
RUNNING, WIN, LOSS_HEALTH, LOSS_TRAPS, TIMEOUT = range(5)
OUTCOME_NAMES = ("running", "win", "loss_health", "loss_traps", "timeout")
