"""The engine's flow functions as entry points that take the policy as a first-class function
(``interface.POLICY_TYPE``): called from Python with any policy, they are compiled once, for every
policy, and cached on disk — instead of once per policy object, which is what calling
:mod:`.tricks` or :mod:`.items` directly from Python with a policy costs. For tests of single
rules; the kernels themselves call the flow directly.

Importing this module compiles (or loads) its functions."""
from numba import njit, types
import numpy as np

from . import game, items, tricks
from .interface import PARAMS_TYPE, POLICY_TYPE

_P, _ST, _PAR, _I = POLICY_TYPE, types.int64[::1], PARAMS_TYPE, types.int64


@njit(types.int64(_P, _ST, _PAR), cache=True)
def play_trick(policy, st, params):
    """:func:`tricks.play_trick`: one trick; its winner."""
    return tricks.play_trick(policy, st, params)


@njit(types.void(_P, _ST, _PAR), cache=True)
def play_phase(policy, st, params):
    """:func:`tricks.play_phase`: the round's eight tricks and the any_time windows."""
    tricks.play_phase(policy, st, params)


@njit(types.void(_P, _ST, _PAR), cache=True)
def finish_round(policy, st, params):
    """:func:`game.finish_round`: the rest of the round from any point of its play phase."""
    game.finish_round(policy, st, params)


@njit(types.void(_P, _ST, _PAR), cache=True)
def item_phase(policy, st, params):
    """:func:`items.item_phase`."""
    items.item_phase(policy, st, params)


@njit(types.void(_P, _ST, _PAR), cache=True)
def item_phase_start(policy, st, params):
    """:func:`items.item_phase_start`: colours and window (a)."""
    items.item_phase_start(policy, st, params)


@njit(types.void(_P, _I, _ST, _PAR), cache=True)
def item_turn(policy, player, st, params):
    """:func:`items.item_turn`: one player's turn."""
    items.item_turn(policy, player, st, params, np.int64(0))


@njit(types.void(_P, _I, _ST, _PAR), cache=True)
def keep_items(policy, player, st, params):
    """:func:`items.keep_items`."""
    items.keep_items(policy, player, st, params)


@njit(types.void(_P, _I, _I, _ST, _PAR), cache=True)
def use_items(policy, decision, player, st, params):
    """:func:`items.use_items`: items used in one window (a, b or c)."""
    items.use_items(policy, decision, player, st, params, np.int64(0))


@njit(types.boolean(_P, _I, _ST, _PAR), cache=True)
def draw_items(policy, player, st, params):
    """A player's draw, :func:`items.open_draw` then :func:`items.draw_rest`: True on the
    Killer."""
    n = items.open_draw(policy, player, st, params)
    return items.draw_rest(policy, player, st, params, np.int64(0), max(n, 0), n < 0)


@njit(types.void(_P, _ST, _PAR, _I), cache=True)
def gift_window(policy, st, params, window):
    """:func:`items.gift_window`: gift window ``window`` (0, 1: before each turn; 2: after)."""
    items.gift_window(policy, st, params, window)
