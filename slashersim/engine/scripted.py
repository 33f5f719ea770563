"""The scripted player: it answers every decision from a script, and past the script it writes
down the decision it was asked and the legal answers to it.

It is the exact solver's hand on the engine (:mod:`.solver`): the solver replays a part of a
round under a script, reads what the engine asked next, and tries each answer. A winning line
is a script too, which this player plays through the engine's own game loop. It is no player
of the game: it reads nothing but its script and writes its notes into the players' memory.

The script sits in the parameters: ``params[P_CARDS]`` cards and ``params[P_ANSWERS]`` other
answers, listed from ``params[P_SCRIPT]``, the cards first; window (d) (after each trick) is
passed, except from round ``params[P_WINDOWS_FROM]`` on when that is above 0 (a line whose last
rounds a registered player played, window (d) included).
"""
from numba import njit
import numpy as np

from ..core.layout import S_MEMORY, S_ROUND
from ..core.rules import TRICKS_PER_ROUND
from . import interface
from .bits import lowest_bit
from .view import legal_answers

#: the scripted player's slots (the players' memory, which no fair player shares with it)
M_CARD = S_MEMORY            #: cards of the script played so far
M_ANSWER = S_MEMORY + 1      #: other answers of the script given so far
M_OPEN = S_MEMORY + 2        #: 1 once a decision beyond the script was met
M_DECISION = S_MEMORY + 3    #: that decision, its player and argument
M_PLAYER = S_MEMORY + 4
M_ARG = S_MEMORY + 5
M_N_LEGAL = S_MEMORY + 6     #: the number of its legal answers, listed from M_LEGAL
M_LEGAL = S_MEMORY + 7
MAX_LEGAL = 25
#: answers a script of one part of a round may hold
MAX_SCRIPT = 64
#: the script's length in cards and in other answers; in ``P_WINDOWS_FROM`` the first round
#: whose window (d) the script answers too (0: none, window (d) is passed); the script from
#: ``P_SCRIPT``
P_CARDS, P_ANSWERS, P_WINDOWS_FROM, P_SCRIPT = 0, 1, 2, 3
#: the search's count of the replays it made, after the longest script
P_NODES = P_SCRIPT + 2 * TRICKS_PER_ROUND + MAX_SCRIPT
PARAMS_SIZE = P_NODES + 1


@njit(cache=True)
def scripted(decision, player, arg, st, params):
    """The scripted player: cards from the script's cards, other answers from its answers
    (window (d) passed, save from round ``P_WINDOWS_FROM`` on). Past the script it writes the
    decision and its legal answers into its slots (``M_*``) once, then answers as a player
    that does nothing more."""
    if decision == interface.AFTER_TRICK and \
            (params[P_WINDOWS_FROM] == 0 or st[S_ROUND] < params[P_WINDOWS_FROM]):
        return -1
    if not st[M_OPEN]:
        if decision == interface.PLAY_CARD:
            i = st[M_CARD]
            if i < params[P_CARDS]:
                st[M_CARD] = i + 1
                return np.int64(params[P_SCRIPT + i])
        else:
            j = st[M_ANSWER]
            if j < params[P_ANSWERS]:
                st[M_ANSWER] = j + 1
                return np.int64(params[P_SCRIPT + np.int64(params[P_CARDS]) + j])
        st[M_OPEN] = 1
        st[M_DECISION] = decision
        st[M_PLAYER] = player
        st[M_ARG] = arg
        st[M_N_LEGAL] = legal_answers(decision, player, arg, st, st[M_LEGAL:M_LEGAL + MAX_LEGAL])
    if decision == interface.PLAY_CARD:
        return lowest_bit(arg)
    if decision == interface.PEEK_ORDER or decision == interface.EXTRA_DRAW or \
            decision == interface.USE_BACKPACK or decision == interface.OPTIONAL_DRAW:
        return 0
    return -1
