"""Bit tricks on card bitmasks (bit ``c`` set = number card ``c`` present)."""
from numba import njit


@njit(cache=True, inline='always')
def popcount(x):
    """Number of set bits of a non-negative int below 2**32."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True, inline='always')
def lowest_bit(x):
    """Index of the lowest set bit of ``x > 0``."""
    return popcount((x & -x) - 1)


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
