"""The rule predicates that both the game flow and the players ask: legal cards, the trick's
winner, area breaches (docs/rules.md, "The play phase"), the colour of whites, Lakeside and the
draw count (docs/rules.md, "The item phase"). Pure functions of their arguments and the rules
in ``st``; this module calls nobody, so the engine's flow (:mod:`.tricks`, :mod:`.items`) and
the policies import it without a circle, and only the flow calls players."""
from numba import njit

from ..rules import (
    CABINS,
    COLOUR_GREEN,
    COLOUR_RED,
    FIRE_PIT,
    HIDEAWAY,
    LAKESIDE,
    LODGE,
    RED,
    SUIT_MASK,
    TENT_SITE,
    TRICKS_PER_ROUND,
    WHITE,
    WOODLAND,
)
from .layout import C_LAKESIDE_REMOVE, C_TENT_REDUCTION, C_WHITE_COLOUR


@njit(cache=True, inline='always')
def legal_cards(hand, led):
    """Bitmask of the cards of ``hand`` that may be played; ``led`` is the led card or -1."""
    if led < 0:
        return hand
    follow = hand & SUIT_MASK[led // 5]
    return follow if follow else hand


@njit(cache=True, inline='always')
def trick_winner(lead, follow, trump):
    """0 if the leader's card ``lead`` wins against ``follow`` under trump suit ``trump``, else 1.

    The highest trump wins; without trumps the higher card of the led suit; a card of another
    suit never wins.
    """
    ls = lead // 5
    fs = follow // 5
    if fs == ls:
        return 1 if follow > lead else 0
    return 1 if fs == trump else 0


@njit(cache=True, inline='always')
def area_breached_by_trick(area, lead, follow, winning_card):
    """Whether one trick breaks the area's rule (Lakeside, Cabins, Woodland, Fire pit)."""
    r1 = lead % 5 + 1
    r2 = follow % 5 + 1
    if area == LAKESIDE:
        return abs(r1 - r2) > 2
    if area == CABINS:
        return r1 + r2 > 7
    if area == WOODLAND:
        s1 = lead // 5
        s2 = follow // 5
        return (s1 == WHITE and s2 == RED) or (s1 == RED and s2 == WHITE)
    if area == FIRE_PIT:
        return winning_card % 5 + 1 == 4
    return False


@njit(cache=True, inline='always')
def area_breached_by_tricks_won(area, tricks0, tricks1, tricks_played):
    """Whether the tricks won so far break the area's rule (Tent site, Lodge, Hideaway).

    Hideaway breaks as soon as both players have won a trick; Tent site (odd) and Lodge (even)
    are judged after the last trick.
    """
    if area == HIDEAWAY:
        return tricks0 > 0 and tricks1 > 0
    if tricks_played < TRICKS_PER_ROUND:
        return False
    if area == TENT_SITE:
        return tricks0 % 2 == 1
    if area == LODGE:
        return tricks0 % 2 == 0
    return False


@njit(cache=True, inline='always')
def white_colour(st, health, area):
    """Colour a white card takes at ``health`` in ``area`` (Lodge one step down, Woodland up)."""
    c = st[C_WHITE_COLOUR + health]
    if area == LODGE:
        c = max(COLOUR_RED, c - 1)
    elif area == WOODLAND:
        c = min(COLOUR_GREEN, c + 1)
    return c


@njit(cache=True, inline='always')
def lakeside_removal(st, greens):
    """Greens left after Lakeside removes ``C_LAKESIDE_REMOVE`` of them (all if fewer)."""
    return max(0, greens - st[C_LAKESIDE_REMOVE])


@njit(cache=True, inline='always')
def draw_count(st, yellows, area):
    """Cards to draw (step 4): one per yellow, one with no yellow; Tent site takes
    ``C_TENT_REDUCTION`` of them away (never below 0), so 0 takes nothing away."""
    n = yellows if yellows > 0 else 1
    if area == TENT_SITE:
        return max(0, n - st[C_TENT_REDUCTION])
    return n
