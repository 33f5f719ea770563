"""A scripted, logging policy for the hand-worked rule tests (``test_rules``,
``test_item_rules``): it plays the lowest legal card and answers every other decision from its
``params`` vector (:func:`script`), and writes each decision it is asked (except card play)
into a log at the end of that vector (:func:`log`, :func:`asked`), so a test can check who was
asked what, and when. Every decision code has its own slot, the keep picks and the trick of
window (d) slots after them.
"""
from helpers import writable
import numba
import numpy as np

from slashersim.core import layout as L
from slashersim.engine import interface, steps

_STRIDE = 16
#: per player: slot d answers decision d (1..10); the keep picks; the trick of window (d)
_KEEP0, _KEEP1, _AT_TRICK = 12, 13, 14
_LOG = 2 * _STRIDE          #: params[_LOG] = entries logged; then _ENTRY values per entry
_ENTRY = 6                  #: decision, player, arg, drawn cards, tricks played, health
_LOG_MAX = 64
_ITEM_WINDOWS = (interface.PHASE_START, interface.BEFORE_DRAW, interface.TRADE,
                 interface.PLAY_START, interface.AFTER_TRICK)


@numba.njit(interface.POLICY_SIGNATURE, cache=True)
def scripted(decision, player, arg, st, params):
    """Plays the lowest legal card; every other answer comes from ``params`` (see script).

    Item uses and gifts answer the scripted item only while the player still holds it (so the
    engine's ask-again loops end); window (d) answers only after the scripted trick (0: any),
    read from ``st[S_TRICK]`` (the engine does not pass it as ``arg``, see
    test_after_trick_window_is_told_the_trick_number).
    Each decision but card play is logged with the drawn cards, tricks played and the asked
    player's health at that moment (into the parameters, through ``helpers.writable``).
    """
    if decision == interface.PLAY_CARD:
        card = 0
        while not (arg >> card) & 1:
            card += 1
        return card
    n = np.int64(params[_LOG])
    if n < _LOG_MAX:
        e = _LOG + 1 + _ENTRY * n
        tape = writable(params)
        tape[e] = decision
        tape[e + 1] = player
        tape[e + 2] = arg
        tape[e + 3] = st[L.S_DRAWN_N]
        tape[e + 4] = st[L.S_TRICK]
        tape[e + 5] = st[L.S_HEALTH + player]
        tape[_LOG] = n + 1
    base = player * _STRIDE
    if decision == interface.KEEP:
        return np.int64(params[base + _KEEP0 + arg])
    a = np.int64(params[base + decision])
    if decision == interface.PHASE_START or decision == interface.BEFORE_DRAW \
            or decision == interface.TRADE or decision == interface.PLAY_START \
            or decision == interface.AFTER_TRICK:
        at = np.int64(params[base + _AT_TRICK])
        if decision == interface.AFTER_TRICK and at > 0 and st[L.S_TRICK] != at:
            return -1
        if a >= 0 and (st[L.S_HELD + player] >> (a % interface.ON_PARTNER)) & 1:
            return a
        return -1
    return a


_DEFAULTS = dict(phase_start=-1, before_draw=-1, flashlight=0, cabins=0, backpack=0,
                 keep=(0, 1), walkie=-1, trade=-1, play_start=-1, after_trick=-1, at_trick=0,
                 optional_draw=0)
_SLOTS = dict(phase_start=interface.PHASE_START, before_draw=interface.BEFORE_DRAW,
              flashlight=interface.PEEK_ORDER, cabins=interface.EXTRA_DRAW,
              backpack=interface.USE_BACKPACK,
              walkie=interface.TAKE_DISCARD, trade=interface.TRADE, play_start=interface.PLAY_START,
              after_trick=interface.AFTER_TRICK, at_trick=_AT_TRICK,
              optional_draw=interface.OPTIONAL_DRAW)


def script(p0=None, p1=None, **both):
    """``params`` for ``scripted``: answers in ``both`` apply to both players, ``p0`` / ``p1``
    (dicts) override them per player; unnamed answers are "no" / -1 / picks (0, 1)."""
    p = np.zeros(_LOG + 1 + _ENTRY * _LOG_MAX)
    for pl, own in ((0, p0), (1, p1)):
        answers = {**_DEFAULTS, **both, **(own or {})}
        b = pl * _STRIDE
        for name, slot in _SLOTS.items():
            p[b + slot] = answers[name]
        p[b + _KEEP0], p[b + _KEEP1] = answers["keep"]
    return p


def draw_cards(st, count):
    """Player 0 draws ``count`` cards through the engine's draw, taking no extra card: True on
    the Killer."""
    st[L.S_DRAWS] = count
    return steps.draw_items(scripted, 0, st, script())


def log(params, *decisions):
    """The logged decisions ``(decision, player, arg, drawn, trick, health)``, only those
    of the codes ``decisions`` if any are named."""
    out = []
    for n in range(int(params[_LOG])):
        e = _LOG + 1 + _ENTRY * n
        entry = tuple(int(x) for x in params[e:e + _ENTRY])
        if not decisions or entry[0] in decisions:
            out.append(entry)
    return out


def asked(params, *decisions):
    """``(decision, player)`` of the logged decisions (of the codes ``decisions``)."""
    return [e[:2] for e in log(params, *decisions)]
