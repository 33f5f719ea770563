"""The tapes recorders write to: an ``int64`` array whose address a recorder reads from a slot
of the read-only parameters (or of the state), its head (rows written, rows it holds) then its
rows. Shared by the recorders (:mod:`.recorded`, :mod:`slashersim.analysis.hygiene`) and the
equity view's scripted player (:func:`.kernels.scripted_function`), which writes moments.
"""
import ctypes

from numba import carray, config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic
import numpy as np

from ..core.layout import STATE_SIZE
from ..engine.positions import INFO_SIZE

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


#: columns of a moment before its state: 0 for a position (then its ``INFO_SIZE`` info), 1 for a
#: decision (then decision, player, arg, answer, round)
MOMENT_HEAD = 1 + INFO_SIZE


@njit(cache=True)
def write_moment(st, address, kind, a, b, c, d, e):
    """Append a moment (head ``kind, a .. e``, then ``st[:STATE_SIZE]``) to the tape at
    ``address`` (its head: rows written, rows it holds); past its room only the count grows."""
    row = MOMENT_HEAD + STATE_SIZE
    head = carray(pointer(address), (HEAD,), np.int64)
    k = head[0]
    if k < head[1]:
        tape = carray(pointer(address), (HEAD + row * head[1],), np.int64)
        at = HEAD + row * k
        tape[at] = kind
        tape[at + 1] = a
        tape[at + 2] = b
        tape[at + 3] = c
        tape[at + 4] = d
        tape[at + 5] = e
        tape[at + MOMENT_HEAD:at + row] = st[:STATE_SIZE]
    head[0] = k + 1
