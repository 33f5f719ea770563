"""A registered player's game written down as it plays: every answer, in the engine's order.

The exact solver tries such players first: a game one of them wins is winnable, and the answers
it gave are a line the scripted player replays through the engine. The recorder is a policy
that asks the registered player and writes each answer, with its round and decision, to a tape
whose address follows the player's parameters (a policy's parameters are read-only to it, so
the recorder writes where they point). It never changes an answer.
"""
import ctypes
import functools

from numba import carray, config, types
from numba.core import cgutils
from numba.extending import intrinsic
import numpy as np

from ..core.layout import MEMORY_SIZE, S_MEMORY, S_ROUND
from ..engine import interface
from ..engine.lazy import closure_njit
from ..policies import get_policy, param_vector

#: a tape row: the round, the decision, the answer
ROW = 3
#: the tape's head: rows written (-1 once it overflowed), rows it holds
HEAD = 2


@intrinsic
def pointer(typingctx, address):
    """The integer ``address`` as a pointer (for :func:`numba.carray`)."""
    if not isinstance(address, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)
    return types.voidptr(address), codegen


if config.DISABLE_JIT:
    def pointer(address):  # noqa: F811 (the same in plain Python, where intrinsics do not run)
        return ctypes.c_void_p(int(address))


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
