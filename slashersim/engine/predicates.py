"""The rule predicates that both the game flow and the players ask: legal cards, the trick's
winner, area breaches (docs/rules.md, "The play phase"), the colour of whites, the greens an
area removes and the draw count (docs/rules.md, "The item phase"). An area's rules are its
card's hooks, read from the tables of the configuration (:mod:`slashersim.core.cards`), never from
its identity. Pure functions of their arguments and the rules
in ``st``; this module calls nobody, so the engine's flow (:mod:`.tricks`, :mod:`.items`) and
the policies import it without a circle, and only the flow calls players."""
from numba import njit

from ..core.layout import (
    C_AREA_DRAW_REDUCTION,
    C_AREA_GREENS_REMOVED,
    C_AREA_SAFE,
    C_AREA_TRICKS_BREAK,
    C_AREA_WHITE_SHIFT,
    C_WHITE_COLOUR,
    S_TRUMP,
)
from ..core.rules import COLOUR_GREEN, COLOUR_RED, SUIT_MASK


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
def area_breached_by_trick(st, area, lead, follow):
    """Whether the trick ``lead`` / ``follow`` breaks the area card's trick rule under this
    round's trump (the card's ``breaks_on_trick``, tabled in ``C_AREA_SAFE``)."""
    return not (st[C_AREA_SAFE + (area * 4 + st[S_TRUMP]) * 20 + lead] >> follow) & 1


@njit(cache=True, inline='always')
def area_breached_by_tricks_won(st, area, tricks0, tricks1):
    """Whether the tricks won so far break the area card's rule (its ``breaks_on_tricks_won``,
    tabled in ``C_AREA_TRICKS_BREAK``); asked after every trick."""
    return (st[C_AREA_TRICKS_BREAK + area * 9 + tricks0] >> tricks1) & 1 == 1


@njit(cache=True, inline='always')
def white_colour(st, health, area):
    """Colour a white card takes at ``health`` in ``area`` (the card's ``white_shift`` steps,
    within red .. green)."""
    c = st[C_WHITE_COLOUR + health] + st[C_AREA_WHITE_SHIFT + area]
    return min(COLOUR_GREEN, max(COLOUR_RED, c))


@njit(cache=True, inline='always')
def greens_left(st, area, greens):
    """Greens left after the area card removes its ``greens_removed`` (all if fewer)."""
    return max(0, greens - st[C_AREA_GREENS_REMOVED + area])


@njit(cache=True, inline='always')
def draw_count(st, yellows, area):
    """Cards to draw (step 4): one per yellow, one with no yellow, less the area card's
    ``draw_reduction`` (never below 0)."""
    n = yellows if yellows > 0 else 1
    return max(0, n - st[C_AREA_DRAW_REDUCTION + area])
