"""Games written down as they play, by a policy around the player's that writes to a tape
whose address follows the player's parameters (a policy's parameters are read-only to it, so
the recorder writes where they point). It never changes an answer.

- :func:`play_recorded`: a registered player's every answer, in the engine's order. The exact
  solver tries such players first: a game one of them wins is winnable, and the answers it
  gave are a line the scripted player replays through the engine.
- :func:`record_positions`: the positions of a game (the luck timeline's), those the engine's
  own flow shows a recorder (:func:`engine.interface.observe`), down to each card drawn.
- :func:`record_moments`: both, in the order they came: each position, and each decision with
  its answer and the state it was asked in (the equity view's), written by the equity view's
  scripted player (:func:`.tape.write_moment`).
"""
import functools

from numba import carray
import numpy as np

from ..core.layout import C_OBSERVE, MEMORY_SIZE, S_MEMORY, S_ROUND, STATE_SIZE, new_state
from ..engine import interface
from ..engine.deal import setup_game
from ..engine.lazy import closure_njit
from ..engine.luck_kernels import X_SCRIPT, X_TAPE
from ..engine.positions import INFO_SIZE, SNAP_END
from ..engine.rng import seed_streams
from ..policies import get_policy, param_vector
from .tape import HEAD, MOMENT_HEAD, pointer

#: a tape row: the round, the decision, the answer
ROW = 3


@functools.cache
def _recorder(decide, n_params):
    """The recorder of the compiled policy ``decide`` (``n_params`` parameters)."""
    from .kernels import as_function  # the kernels load when games are played
    inner = as_function(decide)

    @closure_njit(interface.POLICY_SIGNATURE)
    def record(decision, player, arg, st, params):
        answer = inner(decision, player, arg, st, params[:n_params])
        address = np.int64(params[n_params])
        head = carray(pointer(address), (HEAD,), np.int64)
        k = head[0]
        if 0 <= k < head[1]:
            tape = carray(pointer(address), (HEAD + ROW * head[1],), np.int64)
            tape[HEAD + ROW * k] = st[S_ROUND]
            tape[HEAD + ROW * k + 1] = decision
            tape[HEAD + ROW * k + 2] = answer
            head[0] = k + 1
        else:
            head[0] = -1
        return answer

    return record


def play_recorded(name, st, capacity=4096):
    """Registered player ``name`` (its default parameters) plays the game on from ``st``
    (between two rounds; its memory starts empty) to the end. Returns the finished state and
    its answers as rows ``round, decision, answer``, or ``None`` for the rows if there were
    more than ``capacity``."""
    from .kernels import play_on
    entry = get_policy(name)
    params = param_vector(name)
    record = _recorder(entry.decide, len(params))
    tape = np.zeros(HEAD + ROW * capacity, dtype=np.int64)
    tape[1] = capacity
    vec = np.append(params, float(tape.ctypes.data))
    out = st.copy()
    out[S_MEMORY:S_MEMORY + 2 * MEMORY_SIZE] = 0
    play_on(record, out, vec)
    n = int(tape[0])
    rows = None if n < 0 else tape[HEAD:HEAD + ROW * n].reshape(n, ROW).copy()
    return out, rows


@functools.cache
def _observer(decide, n_params):
    """A policy that plays as the compiled policy ``decide`` (``n_params`` parameters) and
    writes each position the engine shows it to the tape: its info (``positions.INFO_SIZE``
    columns: kind, round, turns done, cards still to draw, extra card past), then the state."""
    from .kernels import as_function  # the kernels load when games are played
    inner = as_function(decide)
    row = INFO_SIZE + STATE_SIZE

    @closure_njit(interface.POLICY_SIGNATURE)
    def observer(decision, player, arg, st, params):
        if decision != interface.OBSERVE:
            return inner(decision, player, arg, st, params[:n_params])
        address = np.int64(params[n_params])
        head = carray(pointer(address), (HEAD,), np.int64)
        k = head[0]
        if k < head[1]:
            tape = carray(pointer(address), (HEAD + row * head[1],), np.int64)
            at = HEAD + row * k
            turns, pending, extra_done = interface.observed(arg)
            tape[at] = player
            tape[at + 1] = st[S_ROUND]
            tape[at + 2] = turns
            tape[at + 3] = pending
            tape[at + 4] = extra_done
            tape[at + INFO_SIZE:at + row] = st
        head[0] = k + 1
        return 0

    return observer


def record_positions(decide, cfg, params, seed, game, capacity=256):
    """Game ``game`` of a run with ``seed`` under the rules ``cfg``, played by the compiled
    policy ``decide`` with ``params``, as the engine plays it, and its positions: ``(snaps,
    info)``, a state and an info row (``positions.INFO_SIZE``) per position, the last the
    finished game."""
    from .kernels import play_on
    observer = _observer(decide, len(params))
    row = INFO_SIZE + STATE_SIZE
    while True:
        st = new_state(cfg)
        st[C_OBSERVE] = 1
        seed_streams(st, np.int64(seed), np.int64(game), np.int64(0), np.int64(0))
        setup_game(st)
        tape = np.zeros(HEAD + row * capacity, dtype=np.int64)
        tape[1] = capacity
        play_on(observer, st, np.append(params, float(tape.ctypes.data)))
        n = int(tape[0])
        if n < capacity:
            break
        capacity = n + 1             # the game is the same again: with room for all
    rows = tape[HEAD:HEAD + row * n].reshape(n, row)
    snaps = np.concatenate([rows[:, INFO_SIZE:], st[None, :]])
    snaps[:, C_OBSERVE] = 0
    info = np.concatenate([rows[:, :INFO_SIZE], np.zeros((1, INFO_SIZE), dtype=np.int64)])
    info[-1, :2] = SNAP_END, st[S_ROUND]
    return snaps, info


def record_moments(decide, cfg, params, seed, game, capacity=1024):
    """Game ``game`` of a run with ``seed`` under the rules ``cfg``, played by the compiled
    policy ``decide`` with ``params``: ``(heads, states, final)``, a head row
    (:data:`MOMENT_HEAD` columns) and a state per moment (position or decision, in the order
    the engine came to them), and the finished game's state. A decision's state is the one it
    was asked in (the answer not yet applied). The player is the equity view's scripted one
    (:func:`.kernels.scripted_function`) with no script: it answers as ``decide`` and writes
    each moment to the tape whose address is in ``st[X_TAPE]``."""
    from .kernels import play_on, scripted_function
    recorder = scripted_function(decide)
    row = MOMENT_HEAD + STATE_SIZE
    while True:
        st = np.zeros(X_SCRIPT, dtype=np.int64)
        st[:STATE_SIZE] = new_state(cfg)
        st[C_OBSERVE] = 1
        seed_streams(st, np.int64(seed), np.int64(game), np.int64(0), np.int64(0))
        setup_game(st)
        tape = np.zeros(HEAD + row * capacity, dtype=np.int64)
        tape[1] = capacity
        st[X_TAPE] = tape.ctypes.data
        play_on(recorder, st, params)
        n = int(tape[0])
        if n <= capacity:
            break
        capacity = n + 1             # the game is the same again: with room for all
    rows = tape[HEAD:HEAD + row * n].reshape(n, row)
    states = rows[:, MOMENT_HEAD:].copy()
    states[:, C_OBSERVE] = 0
    final = st[:STATE_SIZE].copy()
    final[C_OBSERVE] = 0
    return rows[:, :MOMENT_HEAD].copy(), states, final
