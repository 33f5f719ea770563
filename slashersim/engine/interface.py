"""The policy interface: the one signature every policy has, and the decisions it answers.

A policy is an ``@njit`` function

    decide(decision, player, arg, st, params) -> int64

called by the engine (through :func:`ask`) at each decision point of :mod:`.decisions`.
``st`` is the full game state (see :mod:`slashersim.core.layout`), rules and random streams
included; a fair policy reads only what ``player`` may see: its own hand
``st[S_HAND + player]``, played and won cards, the play log, public counters (health, traps,
area, trump, items held, deck size, the face-up discard pile, the drawn cards of the turn) —
never the partner's hand, the trump deck below its top card, the item-deck order or the
partner's stream and memory — and draws only from stream ``rng.POLICY`` (its own). It may
write only that stream and its own memory, ``st[S_MEMORY + player * MEMORY_SIZE:]``
(``MEMORY_SIZE`` slots, kept from one decision to the next, zero at the start of a game).
``params`` are the policy's tunable numbers, read-only to it: the engine hands them over as
a read-only array (:func:`readonly`), so a policy that writes them does not compile, and no
seat or game can leave a note there for another. The engine validates every answer; an illegal
one is replaced by the default (lowest legal card, "no") and flagged as ``V_POLICY``.

The engine's flow functions take the policy as an argument and call it; the runner compiles
them either for ``POLICY_TYPE``, the policy as a first-class function of ``POLICY_SIGNATURE``
(one compiled kernel for every such policy), or for one policy compiled in
(:mod:`slashersim.runner.kernels`). The engine imports no policy.
"""
from numba import config, njit, types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
import numpy as np

from ..core.layout import (
    C_CURSED_KEEP,
    C_KEEP_OPTIONAL,
    C_KEEPABLE,
    C_KIND_ITEMS,
    C_OBSERVE,
    POLICY,
    S_CURSED_DRAWN,
    S_PLAYER_RNG,
    S_RNG,
)
from .decisions import (  # noqa: F401 (the decisions are part of the policy interface)
    AFTER_TRICK,
    BEFORE_DRAW,
    DECISION_NAMES,
    EXTRA_DRAW,
    FLASHLIGHT_ORDERS,
    KEEP,
    N_DECISIONS,
    N_FLASHLIGHT_ORDERS,
    ON_PARTNER,
    OPTIONAL_DRAW,
    PEEK_ORDER,
    PHASE_START,
    PLAY_CARD,
    PLAY_START,
    TAKE_DISCARD,
    TRADE,
    USE_BACKPACK,
)

#: a policy's parameters as it receives them: read-only
PARAMS_TYPE = types.Array(types.float64, 1, "C", readonly=True)
POLICY_SIGNATURE = types.int64(types.int64, types.int64, types.int64, types.int64[::1],
                               PARAMS_TYPE)
POLICY_TYPE = types.FunctionType(POLICY_SIGNATURE)


@intrinsic
def readonly(typingctx, array):
    """The same array, typed read-only: compiled code given it cannot write it (numba refuses
    ``setitem`` on a read-only array at compile time)."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, sig, args):
        return impl_ret_borrowed(context, builder, sig.return_type, args[0])
    return array.copy(readonly=True)(array), codegen


if config.DISABLE_JIT:
    def readonly(array):   # noqa: F811 (the same in plain Python, where intrinsics do not run)
        """The same array, as a read-only view."""
        view = array.view()
        view.flags.writeable = False
        return view


@njit(inline='always')
def ask(policy, decision, player, arg, st, params):
    """``player``'s answer to ``decision`` from ``policy``, with that player's own random
    stream in the slot policies draw from (``rng.POLICY``) while it decides, and put back in
    the player's place after: a player's draws never touch, nor show, its partner's stream.
    The parameters go read-only (:func:`readonly`): both seats, and every game of a block,
    share them.
    The arguments go as ``int64``, never as literals, so each player compiles once."""
    st[S_RNG + POLICY] = st[S_PLAYER_RNG + player]
    answer = policy(np.int64(decision), np.int64(player), np.int64(arg), st, readonly(params))
    st[S_PLAYER_RNG + player] = st[S_RNG + POLICY]
    st[S_RNG + POLICY] = 0
    return answer


#: not a decision: in a recorded game (``C_OBSERVE``) the engine shows its recorder each
#: position a recorded game keeps (:func:`observe`); no player is asked it
OBSERVE = -1


@njit(inline='always')
def observe(policy, st, params, kind, turns, pending, extra_done):
    """Show a recorder where a recorded game stands, as a call ``policy(OBSERVE, kind, arg,
    st, params)`` whose answer is ignored: ``kind`` is a ``positions.SNAP_*``, ``arg`` packs
    the item phase's turns done, and within a draw the cards still to draw and whether the
    extra card is past (:func:`observed`). Nothing happens unless ``st[C_OBSERVE]``, which only
    the recorder sets, so no player is ever shown this."""
    if st[C_OBSERVE]:
        policy(np.int64(OBSERVE), np.int64(kind),
               np.int64(turns | (pending << 8) | (np.int64(extra_done) << 16)), st,
               readonly(params))


@njit(cache=True, inline='always')
def observed(arg):
    """The turns done, cards still to draw and extra-card flag packed in an observation's
    ``arg`` (:func:`observe`)."""
    return arg & 0xFF, (arg >> 8) & 0xFF, (arg >> 16) & 1


@njit(cache=True, inline='always')
def keepable(st, card):
    """Whether a drawn or discarded card (an id >= 0) may be kept: an item card whose kind is
    kept (not the cursed or junk kind; ``C_KEEPABLE``), never the Killer or a Junk card."""
    return (st[C_KEEPABLE] >> card) & 1 == 1


@njit(cache=True, inline='always')
def of_kind(st, item, kind):
    """Whether item ``item`` is of kind ``kind`` (``rules.KIND_*``, from the cards in play)."""
    return (st[C_KIND_ITEMS + kind] >> item) & 1 == 1


@njit(cache=True, inline='always')
def kind_items(st, kind):
    """The bitmask of the item ids of kind ``kind`` (``rules.KIND_*``)."""
    return st[C_KIND_ITEMS + kind]


@njit(cache=True, inline='always')
def may_keep_none(st):
    """Whether the first pick of the current draw may be declined (-1): where keeping is
    optional (``keep_optional``), or after a draw that held the Cursed Object when its keep is
    optional (``cursed_keep = "optional"``); a second pick may always be declined."""
    return st[C_KEEP_OPTIONAL] != 0 or (st[C_CURSED_KEEP] != 0 and st[S_CURSED_DRAWN] != 0)


#: the decorator of a policy's compiled helpers that neither allocate nor keep an array: numba
#: counts references to each array a compiled function receives or views (an atomic add on
#: entry and on exit), which took a fifth of the expert's time; the caller holds its arrays
#: for the call, so these helpers borrow them uncounted (numba's ``_nrt=False``; an
#: allocation inside one is a compile error)
borrowing = njit(cache=True, _nrt=False)
