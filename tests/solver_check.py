"""An exhaustive check of the exact solver, written apart from it.

The solver (:mod:`slashersim.analysis.winnable`) merges positions and skips answers it can show
change nothing: positions of the play phase that agree on what the item phase reads, window (d),
gifts and item uses in any order but one. This check does none of that. From a hand-built
position a few tricks before a round's end, it plays every legal answer of every decision the
engine asks, window (d) included, one script at a time through the engine's own flow, and says
whether any of them wins. Plain Python, small positions only: the last round of a game
(``max_rounds`` ends it), few tricks left, a few items in hand.
"""
import numpy as np

from slashersim import GameConfig
from slashersim.analysis import winnable as W
from slashersim.core import layout as L
from slashersim.core.rules import ITEM_NAMES, RUNNING, WIN
from slashersim.engine import scripted as S
from slashersim.engine import solver
from slashersim.engine.decisions import PLAY_CARD
from slashersim.engine.playout import legal_cards, play_given_card


def exhaustive(position, limit=200_000):
    """Whether some sequence of legal answers from ``position`` (between two tricks) wins;
    ``None`` past ``limit`` scripts tried."""
    todo = [([], [])]
    tried = 0
    while todo:
        cards, answers = todo.pop()
        tried += 1
        if tried > limit:
            return None
        params = np.array([len(cards), len(answers), 1] + cards + answers, dtype=np.float64)
        st = position.copy()
        solver.finish_game(st, params)
        if not st[S.M_OPEN]:
            if st[L.S_OUTCOME] == WIN:
                return True
            continue
        for j in range(st[S.M_N_LEGAL]):
            answer = int(st[S.M_LEGAL + j])
            if st[S.M_DECISION] == PLAY_CARD:
                todo.append((cards + [answer], answers))
            else:
                todo.append((cards, answers + [answer]))
    return False


def position(config, seed, game, tricks_left, items=(), area=None):
    """Game ``game``'s first round ``tricks_left`` tricks before its end, as the last round of
    the game: player 0 holds ``items[0::2]`` and player 1 ``items[1::2]`` (names, taken out of
    the item deck), the round's area is ``area`` (an index) if given, and each player has
    played its lowest legal card so far."""
    cfg = GameConfig(**config).to_array()
    st = W.start_state(cfg, seed, game)
    for k, name in enumerate(items):
        item = ITEM_NAMES.index(name)
        deck = [int(c) for c in st[L.S_DECK:L.S_DECK + st[L.S_DECK_N]] if c != item]
        st[L.S_DECK_N] = len(deck)
        st[L.S_DECK:L.S_DECK + len(deck)] = deck
        st[L.S_HELD + k % 2] |= 1 << item
    st = solver.begun_round(st)
    if area is not None:
        st[L.S_AREA] = area
    solver.start_scripted(st, np.zeros(S.P_SCRIPT, dtype=np.float64))
    for _ in range(8 - tricks_left):
        leader = int(st[L.S_TRICK_LEADER])
        for player in (leader, 1 - leader):
            legal = int(legal_cards(st[L.S_HAND + player], st[L.S_LED]))
            play_given_card(st, np.int64(player), np.int64((legal & -legal).bit_length() - 1))
    st[L.C_MAX_ROUNDS] = st[L.S_ROUND]
    return st if st[L.S_OUTCOME] == RUNNING else None
