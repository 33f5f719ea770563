"""Bit tricks on card bitmasks (bit ``c`` set = number card ``c`` present).

Compiled, ``popcount`` and ``lowest_bit`` are LLVM's ``ctpop`` and ``cttz`` (one instruction
each on current CPUs); with ``NUMBA_DISABLE_JIT=1`` they fall back to the plain-Python
versions, which give the same results.
"""
from llvmlite import ir
from numba import config, njit, types
from numba.core.extending import intrinsic


def _popcount_py(x):
    return bin(int(x)).count("1")


def _lowest_bit_py(x):
    x = int(x)
    return (x & -x).bit_length() - 1


@intrinsic
def _ctpop(typingctx, src):
    """LLVM ``ctpop`` of an int64."""
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return src(src), codegen


@intrinsic
def _cttz(typingctx, src):
    """LLVM ``cttz`` of an int64 (undefined for 0)."""
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return src(src), codegen


if config.DISABLE_JIT:
    popcount = _popcount_py
    lowest_bit = _lowest_bit_py
else:
    @njit(cache=True, inline='always')
    def popcount(x):
        """Number of set bits of a non-negative int64."""
        return _ctpop(x)

    @njit(cache=True, inline='always')
    def lowest_bit(x):
        """Index of the lowest set bit of ``x > 0``."""
        return _cttz(x)


@njit(cache=True, inline='always')
def nth_bit(x, n):
    """Index of the ``n``-th (0-based, from the lowest) set bit of ``x < 2**32``.

    A branch-free binary search on popcounts: random card choices would mispredict a loop.
    """
    pos = 0
    for width in (16, 8, 4, 2, 1):
        low = popcount(x & ((1 << width) - 1))
        step = width * (n >= low)
        n -= low * (n >= low)
        x >>= step
        pos += step
    return pos
