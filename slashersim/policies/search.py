"""The ``search`` policy: determinised Monte Carlo search over the play phase, fair.

For each card decision the player deals the partner ``samples`` hands consistent with what it
has seen (:func:`sample_partner_hand`: the unseen cards outside the partner's void suits, less
the hidden trump-deck cards, uniformly), and for every legal card plays the rest of the play
phase with the ``heuristic`` for both players on each sampled deal. The card with the lowest
mean cost wins; the cost is the heuristic's own model (:func:`round_cost`): a trap this
round, a game lost to traps, and what the cards won will do in the item phase. Every legal
card is scored on the same samples (common random numbers), so their differences are not
blurred by sampling noise. Item-phase decisions are the heuristic's.

The parameter vector is the heuristic's followed by search's own (:data:`.params.SEARCH`); the
heuristic's entries tune both the rollouts and the cost. The rollouts play the heuristic
through the engine's entry points for searches (:mod:`slashersim.engine.playout`), which numba
specialises on it.
"""
from numba import njit
import numpy as np

from ..core.layout import (
    CFG_SIZE,
    S_DECK,
    S_DECK_N,
    S_DECK_SEEN,
    S_HAND,
    S_OUTCOME,
    S_PLAYED,
    S_TRAP_ROUND,
    S_TRUMP_CARD,
    S_TRUMP_DECK,
    SLOT_TOP_GROUP,
)
from ..core.rules import ALL_CARDS, KILLER, LOSS_TRAPS
from ..engine import interface
from ..engine.bits import lowest_bit, nth_bit, popcount
from ..engine.playout import finish_play_phase, finish_round, play_given_card
from ..engine.rng import POLICY, rand_below
from . import heuristic as H
from .common import (
    BREACH,
    effects_cost,
    fresh_streams,
    partner_candidates,
    round_end_cost,
    won_effects,
)
from .params import SEARCH, index_of

SAMPLES = index_of(SEARCH, "samples")
#: 1: roll out the whole round, item phase included, on sampled item decks; 0: the play phase
WHOLE_ROUND = index_of(SEARCH, "whole_round")
#: rollout values of an escape item gained and of a game won (a game lost costs as much)
ESCAPE_VALUE = index_of(SEARCH, "escape_value")
WIN_VALUE = index_of(SEARCH, "win_value")
#: extra cost, in traps, of a game lost to traps
LOST_GAME_TRAPS = 10.0


@njit(cache=True)
def sample_partner_hand(st, work, player):
    """Give the partner in ``work`` a hand drawn uniformly from those ``player`` cannot rule
    out, and put the cards left over in the trump deck; draws from ``st``'s policy stream."""
    cand, hidden = partner_candidates(st, player)
    unseen = ALL_CARDS & ~st[S_HAND + player] & ~st[S_PLAYED] & ~(1 << st[S_TRUMP_CARD])
    hide = unseen & ~cand
    n = popcount(cand)
    for i in range(hidden):
        card = nth_bit(cand, rand_below(st, POLICY, n - i))
        cand &= ~(1 << card)
        hide |= 1 << card
    work[S_HAND + 1 - player] = cand
    work[S_TRUMP_DECK] = hide | (1 << st[S_TRUMP_CARD])


@njit(cache=True)
def sample_item_deck(st, work, player):
    """Give ``work`` an item-deck order drawn uniformly from those ``player`` cannot rule out:
    the cards its own Flashlight saw (``S_DECK_SEEN``) stay, the others are dealt afresh to the
    other slots, the Killer within the rulebook's top group while it lasts. The cards are taken
    in id order, so the draw depends on the deck's contents, never on its hidden order."""
    n = st[S_DECK_N]
    me = 1 << player
    free = 0
    zone = 0
    cards = 0
    killer = False
    for i in range(n):
        mark = st[S_DECK_SEEN + i]
        if not mark & me:
            free |= 1 << i
            if mark & SLOT_TOP_GROUP:
                zone |= 1 << i
            if st[S_DECK + i] == KILLER:
                killer = True
            else:
                cards |= 1 << st[S_DECK + i]
    if killer:
        if zone == 0:
            zone = free
        slot = nth_bit(zone, rand_below(st, POLICY, popcount(zone)))
        work[S_DECK + slot] = KILLER
        free &= ~(1 << slot)
    while free:
        slot = lowest_bit(free)
        free &= free - 1
        card = nth_bit(cards, rand_below(st, POLICY, popcount(cards)))
        cards &= ~(1 << card)
        work[S_DECK + slot] = card


@njit(cache=True)
def round_cost(st, params):
    """The heuristic's cost of a finished play phase: its trap, a game lost to traps, and the
    expected item-phase cost of both players' cards won."""
    cost = params[BREACH] * st[S_TRAP_ROUND]
    if st[S_OUTCOME] == LOSS_TRAPS:
        cost += params[BREACH] * LOST_GAME_TRAPS
    for p in range(2):
        cost += effects_cost(st, p, won_effects(st, p), params)
    return cost


@njit(cache=True)
def search_card(st, player, legal, params):
    """The legal card with the least mean :func:`round_cost` over sampled partner hands."""
    if not legal & (legal - 1):
        return lowest_bit(legal)
    totals = np.zeros(20)
    work = st.copy()
    trial = st.copy()
    whole = params[WHOLE_ROUND] > 0
    for _ in range(max(1, int(params[SAMPLES]))):
        sample_partner_hand(st, work, player)
        if whole:
            sample_item_deck(st, work, player)
        fresh_streams(st, work)
        m = legal
        while m:
            card = lowest_bit(m)
            m &= m - 1
            trial[CFG_SIZE:] = work[CFG_SIZE:]
            play_given_card(trial, player, card)
            if whole:
                finish_round(H.decide, trial, params)
                totals[card] += round_end_cost(st, trial, params, np.int64(ESCAPE_VALUE),
                                               np.int64(WIN_VALUE))
            else:
                finish_play_phase(H.decide, trial, params)
                totals[card] += round_cost(trial, params)
    best = -1
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        if best < 0 or totals[card] < totals[best]:
            best = card
    return best


@njit(cache=True)
def decide(decision, player, arg, st, params):
    """The search policy: searched card play, the heuristic's item-phase decisions."""
    if decision == interface.PLAY_CARD:
        return search_card(st, player, arg, params)
    return H.decide(decision, player, arg, st, params)
