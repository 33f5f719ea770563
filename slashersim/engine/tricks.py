"""The play phase (docs/rules.md, "The play phase"): choosing cards, tricks, traps; the rule
predicates (legal cards, trick winner, area breaches) are in :mod:`.predicates`."""
from numba import njit
import numpy as np

from ..core.layout import (
    C_TRAPS,
    S_AREA,
    S_HAND,
    S_LED,
    S_LOST_ROUND,
    S_OUTCOME,
    S_PLAY_LOG,
    S_PLAYED,
    S_ROUND,
    S_ROUND_LEADER,
    S_TRAP_ROUND,
    S_TRAPS,
    S_TRAPS_AREA,
    S_TRICK,
    S_TRICK_LEADER,
    S_TRICKS,
    S_TRUMP,
    S_VIOLATIONS,
    S_WON,
    V_POLICY,
)
from ..core.rules import LOSS_TRAPS, TRICKS_PER_ROUND
from . import interface, items
from .bits import lowest_bit
from .interface import ask
from .predicates import (  # noqa: F401
    area_breached_by_trick,
    area_breached_by_tricks_won,
    legal_cards,
    trick_winner,
)


@njit(cache=True, inline='always')
def set_off_trap(st):
    """Set off this round's trap if none went off yet; reaching ``C_TRAPS`` loses at once."""
    if st[S_TRAP_ROUND]:
        return
    st[S_TRAP_ROUND] = 1
    st[S_TRAPS] += 1
    st[S_TRAPS_AREA + st[S_AREA]] += 1
    if st[S_TRAPS] >= st[C_TRAPS]:
        st[S_OUTCOME] = LOSS_TRAPS
        st[S_LOST_ROUND] = st[S_ROUND]


@njit(cache=True, inline='always')
def place_card(st, player, card):
    """Move ``card`` from ``player``'s hand to the table (played cards and the play log)."""
    st[S_HAND + player] &= ~(1 << card)
    st[S_PLAYED] |= 1 << card
    st[S_PLAY_LOG + 2 * st[S_TRICK] + (0 if st[S_LED] < 0 else 1)] = card


@njit(inline='always')
def choose_card(policy, player, st, params):
    """Ask ``policy`` for ``player``'s card; an illegal answer becomes the lowest legal card."""
    legal = legal_cards(st[S_HAND + player], st[S_LED])
    card = ask(policy, interface.PLAY_CARD, player, legal, st, params)
    if card < 0 or card >= 20 or not (legal >> card) & 1:
        st[S_VIOLATIONS] |= V_POLICY
        card = lowest_bit(legal)
    place_card(st, player, card)
    return card


@njit(cache=True, inline='always')
def resolve_trick(st, lead, follow):
    """The trick ``lead`` / ``follow`` is complete: its winner takes both cards and leads next,
    and the area rule is checked. Returns the winner."""
    leader = st[S_TRICK_LEADER]
    st[S_LED] = -1
    w = trick_winner(lead, follow, st[S_TRUMP])
    winner = leader ^ w
    st[S_WON + winner] |= (1 << lead) | (1 << follow)
    st[S_TRICKS + winner] += 1
    st[S_TRICK] += 1
    st[S_TRICK_LEADER] = winner
    if not st[S_TRAP_ROUND]:
        area = st[S_AREA]
        if area_breached_by_trick(st, area, lead, follow) or \
                area_breached_by_tricks_won(st, area, st[S_TRICKS], st[S_TRICKS + 1]):
            set_off_trap(st)
    return winner


@njit(inline='always')
def play_trick(policy, st, params):
    """Play one trick; the winner takes both cards and leads next. Returns the winner."""
    leader = st[S_TRICK_LEADER]
    st[S_LED] = -1
    lead = choose_card(policy, leader, st, params)
    st[S_LED] = lead
    follow = choose_card(policy, 1 - leader, st, params)
    return resolve_trick(st, lead, follow)


@njit
def finish_play_phase(policy, st, params):
    """Play the rest of the play phase from the current position, a led card still waiting
    for its answer included (search policies continue rounds this way); stops on a lost game."""
    if st[S_LED] >= 0:
        lead = st[S_LED]
        follow = choose_card(policy, 1 - st[S_TRICK_LEADER], st, params)
        resolve_trick(st, lead, follow)
        items.play_window(policy, interface.AFTER_TRICK, st[S_TRICK], st, params)
    while st[S_TRICK] < TRICKS_PER_ROUND and not st[S_OUTCOME]:
        play_trick(policy, st, params)
        items.play_window(policy, interface.AFTER_TRICK, st[S_TRICK], st, params)


@njit(inline='always')
def start_play_phase(policy, st, params):
    """The play phase up to its first trick: no trick played or won yet, the round leader to
    lead, and window (c) of ``item_timing = any_time``."""
    st[S_TRICK] = 0
    st[S_TRICK_LEADER] = st[S_ROUND_LEADER]
    st[S_WON] = 0
    st[S_WON + 1] = 0
    st[S_TRICKS] = 0
    st[S_TRICKS + 1] = 0
    st[S_PLAYED] = 0
    st[S_TRAP_ROUND] = 0
    items.play_window(policy, interface.PLAY_START, np.int64(0), st, params)


@njit(inline='always')
def play_phase(policy, st, params):
    """The eight tricks of a round, led first by the round leader, with the item windows (c)
    and (d) of ``item_timing = any_time``; stops on a lost game."""
    start_play_phase(policy, st, params)
    for _ in range(TRICKS_PER_ROUND):
        play_trick(policy, st, params)
        if st[S_OUTCOME]:
            return
        items.play_window(policy, interface.AFTER_TRICK, st[S_TRICK], st, params)
