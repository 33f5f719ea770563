"""The expert's random numbers: a 64-bit linear congruential generator that a decision seeds
from two draws of the game's policy stream, so the stream advances alike however many numbers
the decision then takes."""
from numba import njit
import numpy as np

from ...engine.rng import POLICY, next_u32


@njit(cache=True, inline='always')
def lcg_seed(st):
    """A 64-bit generator state from two draws of ``st``'s policy stream."""
    return np.int64((next_u32(st, POLICY) << np.uint64(32)) | next_u32(st, POLICY))


@njit(cache=True, inline='always')
def lcg_next(x):
    """The next state of a 64-bit linear congruential generator (wrapping int64 arithmetic)."""
    return x * np.int64(6364136223846793005) + np.int64(1442695040888963407)


@njit(cache=True, inline='always')
def lcg_below(x, n):
    """A number in ``0..n-1`` from the high 32 bits of state ``x`` (``n`` < 2**16: the bias
    is below 2**-16)."""
    return (((x >> 32) & 0xFFFFFFFF) * n) >> 32
