"""The ``belief`` policy: a fair player that reads its partner's leads, and searches its answers.

Both seats play it. The partner is assumed to play a known, deterministic blueprint
(:mod:`.blueprint`: the expert's card as a function of its hand and public facts), and so it
does in one role: **every lead of the first ``search_leads_from`` tricks is the blueprint's
lead**; the follower always searches, and so does the leader from that trick on. The
follower's belief over the partner's hand keeps the hands on which the blueprint would have
led every card the partner led in those tricks this round (SPARTA's exact belief, Lerer et al.
2020), within what the public facts allow (cards played, suits shown void). The belief is
sound for both seats: the leads it reads were never searched (which tricks' leads are searched
is a rule both seats share), so replaying the blueprint explains them exactly; the searched
cards, whose choice depends on the searcher's belief and samples, are never read. (Letting
both seats search every card, SPARTA's "all agents search", would filter on plays the
blueprint did not make.) A partner that plays anything else only makes the belief wider: a
lead no remaining hand explains is not read.

The belief lives in the player's declared memory (``S_MEMORY``): the round it is for, the
tricks whose lead was read, and which of the partner's possible deals were ruled out — the
deal indexed by the three cards of the trump deck hidden below its face-up card, among the 11
cards the player did not see at the round's start (165 deals, one bit each). Each lead is
read at the follower's answer to it, when the state is the leader's view of the lead but for
the led card, so nothing is reconstructed (items used between tricks included).

A searched card, when more than one is legal, is the best of every legal card on ``samples``
partner hands drawn from the belief (each remaining hand in turn while they are fewer, else
uniformly), item decks drawn as :func:`.search.sample_item_deck` does, and fresh streams; each
is played out to the end of the round (item phase included) by the blueprint or the heuristic
(``rollout_blueprint``) and scored by :func:`.common.round_end_cost`. The blueprint's card
stands unless another is cheaper by more than ``threshold`` per sample. Item-phase
decisions are the heuristic's with the expert's parameters.
"""
from numba import njit
import numpy as np

from ..core.layout import (
    CFG_SIZE,
    MEMORY_SIZE,
    POLICY,
    S_HAND,
    S_LED,
    S_MEMORY,
    S_PLAY_LOG,
    S_PLAYED,
    S_ROUND,
    S_ROUND_LEADER,
    S_TRICK,
    S_TRICK_LEADER,
    S_TRUMP,
    S_TRUMP_CARD,
    S_TRUMP_DECK,
)
from ..core.rules import ALL_CARDS
from ..engine import interface
from ..engine.bits import lowest_bit
from ..engine.playout import finish_round, play_given_card
from ..engine.predicates import trick_winner
from ..engine.rng import rand_below
from . import blueprint as BP
from . import heuristic as H
from .common import fresh_streams, partner_candidates, round_end_cost
from .params import BELIEF, index_of
from .search import sample_item_deck

SAMPLES = index_of(BELIEF, "samples")
THRESHOLD = index_of(BELIEF, "threshold")
ROLLOUT_BLUEPRINT = index_of(BELIEF, "rollout_blueprint")
#: the play-outs' values of an escape item gained and of a game won
ROLLOUT_ESCAPE = index_of(BELIEF, "rollout_escape")
ROLLOUT_WIN = index_of(BELIEF, "rollout_win")
USE_BELIEF = index_of(BELIEF, "use_belief")
SEARCH_LEADS_FROM = index_of(BELIEF, "search_leads_from")

#: the memory slots: the round of the belief, the tricks whose lead it read, the deals ruled out
M_ROUND = 0
M_READ = 1
M_OUT = 2
#: the partner's possible deals from the round's start: 3 hidden cards of 11
N_DEALS = 165
assert M_OUT + (N_DEALS + 63) // 64 <= MEMORY_SIZE


@njit(cache=True)
def played_by(st, player):
    """The cards ``player`` played this round (the play log, replaying who led each trick)."""
    leader = st[S_ROUND_LEADER]
    trump = st[S_TRUMP]
    mine = 0
    for t in range(st[S_TRICK]):
        lead = st[S_PLAY_LOG + 2 * t]
        follow = st[S_PLAY_LOG + 2 * t + 1]
        mine |= (1 << lead) if leader == player else (1 << follow)
        leader ^= trick_winner(lead, follow, trump)
    if st[S_LED] >= 0 and st[S_TRICK_LEADER] == player:
        mine |= 1 << st[S_LED]
    return mine


@njit(cache=True)
def deal_universe(st, player):
    """The 11 cards ``player`` did not see at the round's start (its own dealt hand and the
    face-up trump card aside): the partner's hand and the hidden trump-deck cards."""
    dealt = st[S_HAND + player] | played_by(st, player)
    return ALL_CARDS & ~dealt & ~(1 << st[S_TRUMP_CARD])


@njit(cache=True)
def deal_hands(st, player, hands):
    """Fill ``hands[i]`` with the partner's dealt hand of deal ``i`` (all 165, indexed by the
    three hidden cards in lexicographic order); returns how many there are."""
    universe = deal_universe(st, player)
    cards = np.empty(16, dtype=np.int64)
    n = 0
    m = universe
    while m:
        cards[n] = lowest_bit(m)
        m &= m - 1
        n += 1
    k = 0
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                hands[k] = universe & ~((1 << cards[a]) | (1 << cards[b]) | (1 << cards[c]))
                k += 1
    return k


@njit(cache=True)
def fresh_memory(st, player):
    """``player``'s memory, reset at the first decision of a round."""
    m = S_MEMORY + player * MEMORY_SIZE
    if st[m + M_ROUND] != st[S_ROUND]:
        for i in range(MEMORY_SIZE):
            st[m + i] = 0
        st[m + M_ROUND] = st[S_ROUND]
    return m


@njit(cache=True, inline='always')
def ruled_out(st, m, i):
    return (st[m + M_OUT + i // 64] >> (i % 64)) & 1


@njit(cache=True)
def public_ok(st, player, dealt, cand):
    """Whether a dealt hand of the partner agrees with the public facts: it held every card the
    partner played, and what it holds now lies outside the suits it showed void in."""
    partner_played = st[S_PLAYED] & ~played_by(st, player)
    now = dealt & ~st[S_PLAYED]
    return (dealt & partner_played) == partner_played and (now & ~cand) == 0


@njit(cache=True)
def read_lead(st, player, params):
    """At ``player``'s answer to its partner's lead: rule out the deals on which the blueprint
    would have led another card (:func:`.blueprint.card` on the leader's view with each
    remaining hand). A lead that no remaining deal explains is not read."""
    m = fresh_memory(st, player)
    t = st[S_TRICK]
    if (st[m + M_READ] >> t) & 1 or t >= params[SEARCH_LEADS_FROM]:
        return
    st[m + M_READ] |= 1 << t
    lead = st[S_LED]
    partner = 1 - player
    hands = np.empty(N_DEALS, dtype=np.int64)
    n = deal_hands(st, player, hands)
    cand, _ = partner_candidates(st, player)
    at_lead = st.copy()
    at_lead[S_LED] = -1
    at_lead[S_PLAYED] &= ~(1 << lead)
    out = np.zeros(3, dtype=np.int64)
    kept = 0
    for i in range(n):
        if ruled_out(st, m, i) or not public_ok(st, player, hands[i], cand):
            continue
        hand = (hands[i] & ~st[S_PLAYED]) | (1 << lead)
        if not hand & (hand - 1):
            return
        at_lead[S_HAND + partner] = hand
        if BP.card(at_lead, partner, hand, params) == lead:
            kept += 1
        else:
            out[i // 64] |= np.int64(1) << np.int64(i % 64)
    if kept > 0:
        for j in range(3):
            st[m + M_OUT + j] |= out[j]


@njit(cache=True)
def belief_hands(st, player, use_memory, hands):
    """The partner's hands now (``hands[:k]``, returning ``k``) over the deals its leads and
    the public facts leave; the public facts alone when the memory is not used or leaves none."""
    m = S_MEMORY + player * MEMORY_SIZE
    dealt = np.empty(N_DEALS, dtype=np.int64)
    n = deal_hands(st, player, dealt)
    cand, _ = partner_candidates(st, player)
    memory = use_memory and st[m + M_ROUND] == st[S_ROUND]
    for _ in range(2):
        k = 0
        for i in range(n):
            if memory and ruled_out(st, m, i):
                continue
            if public_ok(st, player, dealt[i], cand):
                hands[k] = dealt[i] & ~st[S_PLAYED]
                k += 1
        if k > 0 or not memory:
            return k
        memory = False
    return 0


@njit(cache=True)
def rollout_cost(st, trial, params):
    """Finish the round in ``trial`` (the heuristic or the blueprint playing both seats) and
    return its cost from ``st``."""
    if params[ROLLOUT_BLUEPRINT] > 0:
        finish_round(BP.decide, trial, params)
    else:
        finish_round(H.decide, trial, params)
    return round_end_cost(st, trial, params, np.int64(ROLLOUT_ESCAPE),
                          np.int64(ROLLOUT_WIN))


@njit(cache=True)
def search_card(st, player, legal, default, hands, n_hands, params):
    """The legal card of least mean rollout cost over ``params[SAMPLES]`` partner hands from
    ``hands[:n_hands]`` (each in turn while they are fewer), the same deals for every card;
    ``default`` unless another is cheaper by more than ``params[THRESHOLD]`` per sample."""
    if not legal & (legal - 1) or n_hands == 0:
        return default
    partner = 1 - player
    unseen = ALL_CARDS & ~st[S_HAND + player] & ~st[S_PLAYED] & ~(1 << st[S_TRUMP_CARD])
    samples = max(1, int(params[SAMPLES]))
    totals = np.zeros(20)
    work = st.copy()
    trial = st.copy()
    for k in range(samples):
        hand = hands[k % n_hands] if n_hands <= samples else \
            hands[rand_below(st, POLICY, n_hands)]
        work[S_HAND + partner] = hand
        work[S_TRUMP_DECK] = (unseen & ~hand) | (1 << st[S_TRUMP_CARD])
        sample_item_deck(st, work, player)
        fresh_streams(st, work)
        m = legal
        while m:
            card = lowest_bit(m)
            m &= m - 1
            trial[CFG_SIZE:] = work[CFG_SIZE:]
            play_given_card(trial, player, card)
            totals[card] += rollout_cost(st, trial, params)
    best = default
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        if totals[card] < totals[best]:
            best = card
    if totals[default] - totals[best] > params[THRESHOLD] * samples:
        return best
    return default


@njit(cache=True)
def play_card(st, player, legal, params):
    """Lead as the blueprint (searched from trick ``search_leads_from`` on); answer by
    reading the lead and searching."""
    default = BP.card(st, player, legal, params)
    use = params[USE_BELIEF] > 0
    if st[S_LED] >= 0 and use:
        read_lead(st, player, params)
    if not legal & (legal - 1) or st[S_LED] < 0 and st[S_TRICK] < params[SEARCH_LEADS_FROM]:
        return default
    hands = np.empty(N_DEALS, dtype=np.int64)
    n = belief_hands(st, player, use, hands)
    return search_card(st, player, legal, default, hands, n, params)


@njit(cache=True)
def decide(decision, player, arg, st, params):
    """The belief policy: blueprint leads, searched answers on the belief, the heuristic's
    item-phase decisions."""
    if decision == interface.PLAY_CARD:
        return play_card(st, player, arg, params)
    return H.decide(decision, player, arg, st, params)
