"""Bit tricks on card bitmasks (bit ``c`` set = number card ``c`` present)."""
from numba import njit


@njit(cache=True)
def popcount(x):
    """Number of set bits of a non-negative int below 2**32."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True)
def lowest_bit(x):
    """Index of the lowest set bit of ``x > 0``."""
    i = 0
    while not (x >> i) & 1:
        i += 1
    return i


@njit(cache=True)
def nth_bit(x, n):
    """Index of the ``n``-th (0-based, from the lowest) set bit of ``x``."""
    for _ in range(n):
        x &= x - 1
    return lowest_bit(x)
