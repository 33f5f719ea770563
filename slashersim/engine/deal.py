"""Set-up and the per-round deal, area and clean-up steps (docs/rules.md, "Setting up",
"The deal", "Clean-up")."""
from numba import njit
import numpy as np

from ..core.layout import (
    C_AREA_DECK,
    C_AREA_IN,
    C_AREA_LEVEL,
    C_AREAS_USED,
    C_ARROWS,
    C_FIRST_AREA,
    C_FIRST_LEADER,
    C_FIRST_TRUMP,
    C_FIRST_YELLOWS,
    C_ITEM_DECK,
    C_ITEM_IN,
    C_JUNK,
    C_KILLER_POSITION,
    C_LEADER,
    C_N_ADDED_ITEMS,
    C_N_AREAS,
    C_START_HEALTH,
    C_TOP_GROUP,
    S_AREA,
    S_AREA_DECK,
    S_AREA_N,
    S_AREA_POS,
    S_ARROW,
    S_DECK,
    S_DECK_N,
    S_DECK_SEEN,
    S_DISCARD_N,
    S_DYNAMIC,
    S_FIRST_AREA,
    S_FIRST_TRUMP,
    S_FIRST_YELLOWS,
    S_HAND,
    S_HEALTH,
    S_JUNK_ASIDE,
    S_KILLER_START,
    S_LED,
    S_OUT,
    S_PERM,
    S_RNG,
    S_ROUND,
    S_ROUND_LEADER,
    S_TRICK_LEADER,
    S_TRUMP,
    S_TRUMP_CARD,
    S_TRUMP_DECK,
    S_TURN,
    SLOT_TOP_GROUP,
)
from ..core.rules import (
    AREA_DECK_LEVELS,
    CURSED_OBJECT,
    FIRST_ADDED_ITEM,
    HAND_SIZE,
    ITEM_DECK_KILLER_TOP_HALF,
    KILLER,
    LEADER_ARROW,
    N_AREAS,
    N_NUMBER_CARDS,
    SUIT_MASK,
    YELLOW,
)
from .bits import nth_bit, popcount
from .rng import AREAS, DEAL, ITEMS, rand_below, shuffle_slice, splitmix64


@njit(cache=True)
def setup_area_deck(st):
    """Build the area deck (docs/rules.md, "The area deck"): arrows for the seven printed
    cards, the deck of the pool, then arrows for any card added beside them.

    Rulebook: each level group shuffled, Lv.1 on top; instructions: the pool shuffled and the
    first ``C_AREAS_USED`` kept, cycling. Arrows are drawn for every area id so that removing an
    area does not change the others' arrows, and drawn even where ``C_ARROWS`` fixes them, so
    that fixing them leaves the rest of the game's randomness unchanged. A card added beside
    the printed seven gets its arrow last, and only while it is in the deck, so that a card
    added and left out of the deck changes no game.
    """
    for a in range(N_AREAS):
        draw_arrow(st, a)
    n = np.int64(0)
    if st[C_AREA_DECK] == AREA_DECK_LEVELS:
        for level in (1, 2):
            start = n
            for a in range(st[C_N_AREAS]):
                if st[C_AREA_IN + a] and st[C_AREA_LEVEL + a] == level:
                    st[S_AREA_DECK + n] = a
                    n += 1
            shuffle_slice(st, S_AREA_DECK + start, S_AREA_DECK + n, AREAS)
    else:
        for a in range(st[C_N_AREAS]):
            if st[C_AREA_IN + a]:
                st[S_AREA_DECK + n] = a
                n += 1
        shuffle_slice(st, S_AREA_DECK, S_AREA_DECK + n, AREAS)
    for a in range(N_AREAS, st[C_N_AREAS]):
        if st[C_AREA_IN + a]:
            draw_arrow(st, a)
    force_first_area(st, n)
    if st[C_AREA_DECK] != AREA_DECK_LEVELS:
        n = min(n, st[C_AREAS_USED])
    st[S_AREA_N] = n
    st[S_AREA_POS] = 0


@njit(cache=True, inline='always')
def draw_arrow(st, a):
    """The player area ``a``'s arrow points to: drawn, then ``C_ARROWS`` where it fixes it."""
    st[S_ARROW + a] = rand_below(st, AREAS, 2)
    if st[C_ARROWS + a] >= 0:
        st[S_ARROW + a] = st[C_ARROWS + a]


@njit(cache=True)
def force_first_area(st, n):
    """``C_FIRST_AREA``: swap the chosen area card to the top of the deck of ``n`` cards.

    The shuffled order of the others stays uniform, so the deck is generated conditioned on
    its first card, not filtered.
    """
    forced = st[C_FIRST_AREA] - 1
    if forced >= 0:
        for i in range(n):
            if st[S_AREA_DECK + i] == forced:
                st[S_AREA_DECK + i] = st[S_AREA_DECK]
                st[S_AREA_DECK] = forced


@njit(cache=True, inline='always')
def next_area(st):
    """Turn up the round's area card (docs/rules.md, "Clean-up"): the next card, reshuffling or
    cycling when out."""
    if st[S_AREA_POS] == st[S_AREA_N]:
        if st[C_AREA_DECK] == AREA_DECK_LEVELS:
            shuffle_slice(st, S_AREA_DECK, S_AREA_DECK + st[S_AREA_N], AREAS)
        st[S_AREA_POS] = 0
    st[S_AREA] = st[S_AREA_DECK + st[S_AREA_POS]]
    st[S_AREA_POS] += 1


@njit(cache=True)
def setup_item_deck(st):
    """Build the first item deck (docs/rules.md, "The item deck") and record the Killer's
    position (1 = top).

    The items in play (the twelve, then any a card file added) are shuffled; the Killer is
    then inserted at a uniform position among the top ``C_TOP_GROUP + 1`` (rulebook: shuffled
    into the top group) or all ``n + 1`` (instructions: fully shuffled). ``C_KILLER_POSITION >
    0`` forces that position; the random draw is made anyway so that the rest of the game's
    randomness is unchanged.
    """
    n = 0
    for i in range(CURSED_OBJECT + 1 + st[C_N_ADDED_ITEMS]):
        item = i if i <= CURSED_OBJECT else i - CURSED_OBJECT - 1 + FIRST_ADDED_ITEM
        if st[C_ITEM_IN + item]:
            st[S_PERM + n] = item
            n += 1
        else:
            st[S_OUT] |= 1 << item
    shuffle_slice(st, S_PERM, S_PERM + n, ITEMS)
    if st[C_ITEM_DECK] == ITEM_DECK_KILLER_TOP_HALF:
        slots = st[C_TOP_GROUP] + 1
    else:
        slots = n + 1
    k = rand_below(st, ITEMS, slots)
    if st[C_KILLER_POSITION] > 0:
        k = st[C_KILLER_POSITION] - 1
    # deck index 0 is the bottom: position p from the top (0-based) sits at index n - p
    j = 0
    for p in range(n + 1):
        if p == k:
            card = KILLER
        else:
            card = st[S_PERM + j]
            j += 1
        st[S_DECK + n - p] = card
        if slots <= n and p < slots:
            st[S_DECK_SEEN + n - p] = SLOT_TOP_GROUP
    st[S_DECK_N] = n + 1
    st[S_DISCARD_N] = 0
    st[S_JUNK_ASIDE] = st[C_JUNK]
    st[S_KILLER_START] = k + 1


@njit(cache=True)
def setup_game(st):
    """Reset ``st`` to the start of a game (docs/rules.md, "Setting up")."""
    st[S_DYNAMIC:] = 0
    st[S_HEALTH] = st[C_START_HEALTH]
    st[S_HEALTH + 1] = st[C_START_HEALTH]
    st[S_TRICK_LEADER] = st[C_FIRST_LEADER]
    st[S_TURN] = -1
    st[S_LED] = -1
    setup_area_deck(st)
    setup_item_deck(st)


@njit(cache=True, inline='always')
def deal_round(st):
    """Shuffle the 20 number cards, deal 8 to each player, reveal the trump (docs/rules.md,
    "The deal").

    The shuffle starts from the identity and draws exactly 19 numbers (one more in round 1
    with ``C_FIRST_TRUMP`` set), so a round's deal depends only on the game's deal stream and
    the round number.
    """
    for c in range(N_NUMBER_CARDS):
        st[S_PERM + c] = c
    shuffle_slice(st, S_PERM, S_PERM + N_NUMBER_CARDS, DEAL)
    if st[C_FIRST_TRUMP] > 0 and st[S_ROUND] == 1:
        force_first_trump(st, st[C_FIRST_TRUMP] - 1)
    if (st[C_FIRST_YELLOWS] | st[C_FIRST_YELLOWS + 1]) and st[S_ROUND] == 1:
        force_first_yellows(st)
    for p in range(2):
        hand = 0
        for i in range(HAND_SIZE):
            hand |= 1 << st[S_PERM + p * HAND_SIZE + i]
        st[S_HAND + p] = hand
    rest = 0
    for i in range(2 * HAND_SIZE, N_NUMBER_CARDS):
        rest |= 1 << st[S_PERM + i]
    st[S_TRUMP_DECK] = rest
    st[S_TRUMP_CARD] = st[S_PERM + 2 * HAND_SIZE]
    st[S_TRUMP] = st[S_TRUMP_CARD] // 5


@njit(cache=True)
def force_first_trump(st, suit):
    """``C_FIRST_TRUMP``: swap a uniformly chosen card of ``suit`` into the trump card's place.

    Every deal whose trump card has that suit is then equally likely (generated, not
    filtered). The choice takes one more number from the deal stream, in round 1 only.
    """
    card = suit * 5 + rand_below(st, DEAL, 5)
    for i in range(N_NUMBER_CARDS):
        if st[S_PERM + i] == card:
            st[S_PERM + i] = st[S_PERM + 2 * HAND_SIZE]
            st[S_PERM + 2 * HAND_SIZE] = card
            break


#: salt of the side stream that places the yellows under ``C_FIRST_YELLOWS``
_YELLOW_SALT = 0x59454C4C4F5753


@njit(cache=True)
def force_first_yellows(st):
    """``C_FIRST_YELLOWS``: rearrange round 1's shuffle so that player ``p`` gets exactly
    ``C_FIRST_YELLOWS[p] - 1`` yellows (``0``: any number).

    A uniform shuffle is three independent uniform parts: the order of the five yellows, the
    order of the fifteen others, and the set of places holding yellows. The last is redrawn
    uniformly among the sets with the wanted counts (the yellows a constrained player does not
    take fall uniformly on the other places) and the two orders are kept, so the deal is
    generated conditioned on the counts, not filtered. The new set comes from a side stream
    hashed from the deal stream, which itself is left as it was: later rounds deal alike.
    """
    saved = st[S_RNG + DEAL]
    st[S_RNG + DEAL] = np.int64(splitmix64(np.uint64(saved) ^ np.uint64(_YELLOW_SALT)))
    places = 0
    free = (1 << N_NUMBER_CARDS) - 1
    left = 5
    for p in range(2):
        want = st[C_FIRST_YELLOWS + p] - 1
        seat = ((1 << HAND_SIZE) - 1) << (p * HAND_SIZE)
        if want >= 0:
            free &= ~seat
            for t in range(want):
                pick = nth_bit(seat, rand_below(st, DEAL, HAND_SIZE - t))
                seat &= ~(1 << pick)
                places |= 1 << pick
            left -= want
    for _ in range(left):
        pick = nth_bit(free, rand_below(st, DEAL, popcount(free)))
        free &= ~(1 << pick)
        places |= 1 << pick
    st[S_RNG + DEAL] = saved
    # stable compaction of the others to the front, yellows in order packed 5 bits each
    packed = 0
    n_yellow = 0
    n_other = 0
    for i in range(N_NUMBER_CARDS):
        card = st[S_PERM + i]
        if card // 5 == YELLOW:
            packed |= card << (5 * n_yellow)
            n_yellow += 1
        else:
            st[S_PERM + n_other] = card
            n_other += 1
    for i in range(N_NUMBER_CARDS - 1, -1, -1):
        if (places >> i) & 1:
            n_yellow -= 1
            st[S_PERM + i] = (packed >> (5 * n_yellow)) & 31
        else:
            n_other -= 1
            st[S_PERM + i] = st[S_PERM + n_other]


@njit(cache=True, inline='always')
def start_round(st):
    """Begin round ``st[S_ROUND] + 1``: area card, deal, trump and round leader
    (docs/rules.md, "Who leads")."""
    st[S_ROUND] += 1
    next_area(st)
    deal_round(st)
    if st[C_LEADER] == LEADER_ARROW:
        st[S_ROUND_LEADER] = st[S_ARROW + st[S_AREA]]
    else:
        st[S_ROUND_LEADER] = st[S_TRICK_LEADER]
    if st[S_ROUND] == 1:
        st[S_FIRST_AREA] = st[S_AREA]
        st[S_FIRST_TRUMP] = st[S_TRUMP]
        for p in range(2):
            st[S_FIRST_YELLOWS + p] = popcount(st[S_HAND + p] & SUIT_MASK[YELLOW])
