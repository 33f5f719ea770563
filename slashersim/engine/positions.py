"""Where a described position stands and what of it is known: the offsets ``P_*`` of the
``pos`` array the luck kernels take (:mod:`slashersim.engine.luck_kernels`) and its phases, and the
kinds of positions a recorded game keeps.

Plain numbers, so that a position can be read and checked without compiling any kernel.
"""
#: phase: 0 before the round's area card and deal, 1 dealt (play phase next),
#: 2 in the item phase (``P_TURNS`` turns done), 3 in the middle of a player's draw (``P_TURNS``
#: turns done before it; its cards so far in ``st[S_DRAWN:]``, ``P_PENDING`` still to draw)
P_PHASE = 0
P_TURNS = 1
#: bit ``p`` set: player ``p``'s hand is known (phase 1)
P_HANDS = 2
#: phase 1: trump suit known (-1: unknown); ignored when ``P_TRUMP_CARD`` is set
P_TRUMP = 3
#: phase 1: 1 if ``st[S_TRUMP_CARD]`` is the known trump card
P_TRUMP_CARD = 4
#: number of known cards on top of the item deck (as placed in ``st``)
P_TOP = 5
#: 1 if the Killer's place in the item deck of ``st`` is known
P_KILLER = 6
#: > 0: the Killer, place unknown, lies within the top ``P_KILLER_SPAN`` cards
P_KILLER_SPAN = 7
#: bitmask of area-deck places whose card is known
P_AREA_FIXED = 8
#: bitmask of areas whose arrow is known
P_ARROWS = 9
#: 1 if the leader (``S_TRICK_LEADER`` in phase 0, ``S_ROUND_LEADER`` later) is known
P_LEADER = 10
#: phase 3: cards the player still has to draw (before any Cabins extra card)
P_PENDING = 11
#: phase 3: 1 once the Cabins extra-card choice is past (or the Killer came up)
P_EXTRA_DONE = 12
P_SIZE = 13

PHASE_START, PHASE_DEALT, PHASE_ITEMS, PHASE_DRAW = 0, 1, 2, 3

#: kinds of recorded positions: before a round's area card and deal, after the deal, in the
#: item phase after 0, 1 or 2 turns (2: before clean-up), after a card of a player's draw;
#: END is the finished game
SNAP_START, SNAP_DEALT, SNAP_ITEMS, SNAP_END, SNAP_DRAW = 0, 1, 2, 3, 4
#: columns of a recorded position's ``info``: kind, round, turns done (for SNAP_DRAW: before
#: the draw's turn), and for SNAP_DRAW the cards still to draw and the Cabins flag
#: (``P_PENDING``, ``P_EXTRA_DONE``)
INFO_SIZE = 5
