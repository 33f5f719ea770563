"""One player's view of a game, in the state's own layout, and the legal answers of a decision.

:func:`write_view` copies a state with every hidden channel of :mod:`slashersim.analysis.hygiene`
blanked (-1, or 0 for masks and random streams): the partner's hand, the trump deck below its
revealed card, the deal's shuffle, the order of the item-deck cards the player's own Flashlight
did not show it (those slots hold the cards that are in them, a public fact, in id order),
where the Killer started while it has not come up, the partner's first-deal yellows in round
1, area cards not turned up and the arrows of areas never turned up, the partner's memory, and
every random stream but the player's own (in the slot ``rng.POLICY``). A fair player's
decision is a function of this view, so it is what a plain-Python policy and
:class:`slashersim.api.player.Game` show a player.

A Python policy runs on the compiled engine through a small compiled policy that calls back
into Python (:mod:`slashersim.policies.python`); that policy keeps, after the engine's state
``st``, a block of ``VIEW_SIZE`` slots (``st[STATE_SIZE:]``, offsets ``V_*`` in
:mod:`.layout`): the view, then the decision, the player, its argument and the legal answers
(:func:`fill_view`). The engine never reads past ``STATE_SIZE``.
"""
from numba import njit

from ..core.layout import (
    C_AID_TARGET,
    C_AREA_DECK,
    C_ARROWS,
    C_ITEM_HEAL,
    C_N_AREAS,
    C_USABLE,
    DECK_CAPACITY,
    MEMORY_SIZE,
    S_AREA_DECK,
    S_AREA_N,
    S_AREA_POS,
    S_ARROW,
    S_DECK,
    S_DECK_N,
    S_DECK_SEEN,
    S_DISCARD,
    S_DISCARD_N,
    S_DRAWN,
    S_DRAWN_N,
    S_FIRST_YELLOWS,
    S_HAND,
    S_HELD,
    S_KILLER_DRAWS,
    S_KILLER_START,
    S_MEMORY,
    S_PERM,
    S_PICK,
    S_PLAYER_RNG,
    S_RNG,
    S_ROUND,
    S_ROUNDS_AREA,
    S_TRAPS,
    S_TRUMP_CARD,
    S_TRUMP_DECK,
    STATE_SIZE,
    V_ARG,
    V_DECISION,
    V_LEGAL,
    V_N_LEGAL,
    V_PLAYER,
)
from ..core.rules import (
    AID_EITHER,
    AREA_DECK_LEVELS,
    KIND_LOOK_AT_TOP,
    MAX_ITEM_IDS,
)
from . import interface
from .bits import lowest_bit
from .interface import N_FLASHLIGHT_ORDERS, keepable, of_kind
from .rng import POLICY


@njit(cache=True)
def write_view(st, player, out):
    """Write ``player``'s view of the state ``st`` into ``out[:STATE_SIZE]`` (see the module)."""
    out[:STATE_SIZE] = st[:STATE_SIZE]
    partner = 1 - player
    out[S_HAND + partner] = 0
    out[S_TRUMP_DECK] = 1 << st[S_TRUMP_CARD] if st[S_TRUMP_DECK] else 0
    for i in range(20):
        out[S_PERM + i] = 0
    if st[S_ROUND] <= 1:
        out[S_FIRST_YELLOWS + partner] = -1
    for s in range(4):
        if s != POLICY:
            out[S_RNG + s] = 0
    out[S_PLAYER_RNG] = 0
    out[S_PLAYER_RNG + 1] = 0
    for i in range(MEMORY_SIZE):
        out[S_MEMORY + partner * MEMORY_SIZE + i] = 0
    n = st[S_DECK_N]
    unseen = 0
    for i in range(DECK_CAPACITY):
        if i >= n:
            out[S_DECK + i] = -1
            out[S_DECK_SEEN + i] = 0
        elif not (st[S_DECK_SEEN + i] >> player) & 1:
            unseen |= 1 << st[S_DECK + i]
    for i in range(n):
        if not (st[S_DECK_SEEN + i] >> player) & 1:
            card = lowest_bit(unseen)
            unseen &= unseen - 1
            out[S_DECK + i] = card
    if st[S_KILLER_DRAWS] == 0:
        out[S_KILLER_START] = -1
    pos = st[S_AREA_POS]
    used = st[S_AREA_N]
    levels = st[C_AREA_DECK] == AREA_DECK_LEVELS
    first = pos if st[S_ROUND] == pos or levels else used
    for i in range(first, st[C_N_AREAS]):
        out[S_AREA_DECK + i] = -1
    for a in range(st[C_N_AREAS]):
        if st[S_ROUNDS_AREA + a] == 0 and st[C_ARROWS + a] < 0:
            out[S_ARROW + a] = -1


@njit(cache=True)
def legal_answers(decision, player, arg, st, out):
    """Write the answers the engine accepts at ``decision`` (``engine.interface``) into ``out``;
    their number. Card play: the legal cards of ``arg``; item-use windows: -1 (done) and each
    held usable item (a heal item also ``+ ON_PARTNER`` when ``first_aid_target = either``,
    a remove-trap item only with a trap set off); Flashlight: every order of the ``arg`` seen cards,
    on top or (``+ 6``) at the bottom; Cabins' extra card and the Backpack: 0 (no) or 1; keep:
    each keepable drawn card not picked yet, and -1 unless the first keep is mandatory;
    Walkie-talkie: -1 or a keepable card of the discard pile; gift: -1 or a held item."""
    n = 0
    if decision == interface.PLAY_CARD:
        for c in range(20):
            if (arg >> c) & 1:
                out[n] = c
                n += 1
    elif decision == interface.PHASE_START or decision == interface.BEFORE_DRAW or \
            decision == interface.PLAY_START or decision == interface.AFTER_TRICK:
        out[0] = -1
        n = 1
        held = st[S_HELD + player] & st[C_USABLE]
        for item in range(MAX_ITEM_IDS):
            if not (held >> item) & 1:
                continue
            aid = st[C_ITEM_HEAL + item] > 0
            if aid or of_kind(st, item, KIND_LOOK_AT_TOP) or st[S_TRAPS] > 0:
                out[n] = item
                n += 1
            if aid and st[C_AID_TARGET] == AID_EITHER:
                out[n] = item + interface.ON_PARTNER
                n += 1
    elif decision == interface.PEEK_ORDER:
        for bottom in range(2):
            for order in range(N_FLASHLIGHT_ORDERS[arg]):
                out[n] = order + 6 * bottom
                n += 1
    elif decision == interface.EXTRA_DRAW or decision == interface.USE_BACKPACK \
            or decision == interface.OPTIONAL_DRAW:
        out[0] = 0
        out[1] = 1
        n = 2
    elif decision == interface.KEEP:
        if arg > 0 or interface.may_keep_none(st):
            out[0] = -1
            n = 1
        for i in range(st[S_DRAWN_N]):
            if keepable(st, st[S_DRAWN + i]) and not (arg > 0 and st[S_PICK] == i):
                out[n] = i
                n += 1
    elif decision == interface.TAKE_DISCARD:
        out[0] = -1
        n = 1
        for i in range(st[S_DISCARD_N]):
            if keepable(st, st[S_DISCARD + i]):
                out[n] = i
                n += 1
    elif decision == interface.TRADE:
        out[0] = -1
        n = 1
        for item in range(MAX_ITEM_IDS):
            if (st[S_HELD + player] >> item) & 1:
                out[n] = item
                n += 1
    return n


@njit(cache=True)
def fill_view(decision, player, arg, st):
    """Fill the block after ``st``: ``player``'s view, the decision, its argument and its
    legal answers (for a Python policy's observation); the number of legal answers."""
    v = st[STATE_SIZE:]
    write_view(st, player, v)
    v[V_DECISION] = decision
    v[V_PLAYER] = player
    v[V_ARG] = arg
    n = legal_answers(decision, player, arg, st, v[V_LEGAL:])
    v[V_N_LEGAL] = n
    return n


@njit(cache=True)
def accept(answer, st, report):
    """After a Python policy answered: take its policy stream and its memory back from the
    view (it may have drawn from the one and written the other) and check the answer. An
    answer that is not legal is written to ``report`` (decision, player, argument, answer,
    then the legal answers, once per run: ``report[0]`` counts them) and replaced by the first
    legal answer."""
    v = st[STATE_SIZE:]
    st[S_RNG + POLICY] = v[S_RNG + POLICY]
    mine = S_MEMORY + v[V_PLAYER] * MEMORY_SIZE
    for i in range(MEMORY_SIZE):
        st[mine + i] = v[mine + i]
    n = v[V_N_LEGAL]
    for i in range(n):
        if v[V_LEGAL + i] == answer:
            return answer
    if report[0] == 0:
        report[1] = v[V_DECISION]
        report[2] = v[V_PLAYER]
        report[3] = v[V_ARG]
        report[4] = answer
        report[5] = n
        for i in range(n):
            report[6 + i] = v[V_LEGAL + i]
    report[0] += 1
    return v[V_LEGAL]
