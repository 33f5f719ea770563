"""The ``search`` policy: determinised Monte Carlo search over the play phase, fair.

For each card decision the player deals the partner ``samples`` hands consistent with what it
has seen (:func:`sample_partner_hand`: the unseen cards outside the partner's void suits, less
the hidden trump-deck cards, uniformly), and for every legal card plays the rest of the play
phase with the ``heuristic`` for both players on each sampled deal. The card with the lowest
mean cost wins; the cost is the heuristic's own model (:func:`round_cost`): a trap this
round, a game lost to traps, and what the cards won will do in the item phase. Every legal
card is scored on the same samples (common random numbers), so their differences are not
blurred by sampling noise. Item-phase decisions are the heuristic's.

The parameter vector is the heuristic's followed by ``samples``; the heuristic's entries tune
both the rollouts and the cost. (The engine imports the policies, so engine functions are
reached as ``engine.<module>.<function>``, resolved when numba compiles this policy.)
"""
import numpy as np
from numba import njit

from ..engine import api
from ..engine.bits import lowest_bit, nth_bit, popcount
from ..engine.layout import (S_FAST_POLICY, S_HAND, S_LED, S_OUTCOME, S_PLAYED, S_TRAP_ROUND,
                             S_TRUMP_CARD, S_TRUMP_DECK)
from ..engine.rng import POLICY, rand_below
from .. import engine
from ..rules import ALL_CARDS, LOSS_TRAPS
from . import heuristic as H
from .dispatch import FAST_HEURISTIC

PARAM_NAMES = H.PARAM_NAMES + ("samples",)
SAMPLES = len(H.PARAM_NAMES)
DEFAULT_PARAMS = np.concatenate([H.DEFAULT_PARAMS, np.array([24.0])])
#: extra cost, in traps, of a game lost to traps
LOST_GAME_TRAPS = 10.0


@njit(cache=True)
def sample_partner_hand(st, work, player):
    """Give the partner in ``work`` a hand drawn uniformly from those ``player`` cannot rule
    out, and put the cards left over in the trump deck; draws from ``st``'s policy stream."""
    cand, hidden = H.partner_candidates(st, player)
    unseen = ALL_CARDS & ~st[S_HAND + player] & ~st[S_PLAYED] & ~(1 << st[S_TRUMP_CARD])
    hide = unseen & ~cand
    n = popcount(cand)
    for i in range(hidden):
        card = nth_bit(cand, rand_below(st, POLICY, n - i))
        cand &= ~(1 << card)
        hide |= 1 << card
    work[S_HAND + 1 - player] = cand
    work[S_TRUMP_DECK] = hide | (1 << st[S_TRUMP_CARD])


@njit(cache=True, inline='always')
def play_given_card(st, player, card):
    """Play ``card`` for ``player``: lead it, or answer the led card and complete the trick."""
    if st[S_LED] < 0:
        engine.tricks.place_card(st, player, card)
        st[S_LED] = card
    else:
        lead = st[S_LED]
        engine.tricks.place_card(st, player, card)
        engine.tricks.resolve_trick(st, lead, card)


@njit(cache=True)
def round_cost(st, params):
    """The heuristic's cost of a finished play phase: its trap, a game lost to traps, and the
    expected item-phase cost of both players' cards won."""
    cost = params[H.BREACH] * st[S_TRAP_ROUND]
    if st[S_OUTCOME] == LOSS_TRAPS:
        cost += params[H.BREACH] * LOST_GAME_TRAPS
    for p in range(2):
        cost += H.effects_cost(st, p, H.won_effects(st, p), params)
    return cost


@njit(cache=True)
def search_card(st, player, legal, params):
    """The legal card with the least mean :func:`round_cost` over sampled partner hands."""
    if not legal & (legal - 1):
        return lowest_bit(legal)
    totals = np.zeros(20)
    work = st.copy()
    trial = st.copy()
    work[S_FAST_POLICY] = FAST_HEURISTIC
    for _ in range(max(1, int(params[SAMPLES]))):
        sample_partner_hand(st, work, player)
        m = legal
        while m:
            card = lowest_bit(m)
            m &= m - 1
            trial[:] = work
            play_given_card(trial, player, card)
            engine.tricks.finish_play_phase(H.heuristic, trial, params)
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
def search(decision, player, arg, st, params):
    """The search policy: searched card play, the heuristic's item-phase decisions."""
    if decision == api.PLAY_CARD:
        return search_card(st, player, arg, params)
    return H.decide(decision, player, arg, st, params)
