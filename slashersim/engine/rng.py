"""Counter-based random streams, one set per game.

Game ``g`` of a run with seed ``s`` owns ``N_STREAMS`` independent PCG32 generators. Stream
``k`` starts from a state derived only from ``(s, g, k)``, so a game's randomness does not
depend on which thread, chunk or worker plays it, and two configurations played with the same
seed see the same deals, deck orders and area orders (common random numbers) for as long as
they consume their streams alike.

The derivation is one-way: stream ``k``'s first state is SipHash-2-4 (Aumasson and Bernstein,
2012), keyed by the run seed, of the message ``(g, k)``. A player may read its own stream (and
PCG32 can be stepped back to its first state), but recovering the key, or another stream's
state, from one SipHash output is as hard as breaking the pseudo-random function, so the own
stream says nothing about the deals, decks, area order or the partner's dice. (The seed itself
is not a secret: a run's seed is in its command line, and this guards what a player's own
inputs carry, not what a player could compute from a seed it was never given.)

- ``DEAL``: the 20-card shuffle of every round (a fixed 19 draws per round, so round ``r``'s deal
  is the same in every configuration).
- ``ITEMS``: item-deck set-up and every reshuffle of it.
- ``AREAS``: area-deck order, arrows and reshuffles.
- one stream per player (streams ``POLICY + p``): every random choice that player's policy
  makes. A player never sees its partner's: between decisions each lives in
  ``st[S_PLAYER_RNG + p]`` (hidden from the partner), and while a player decides the engine
  moves its own into the slot ``st[S_RNG + POLICY]``, the one a policy draws from.

The stream states live in the game state as the int64 bit patterns of the uint64 states:
``st[S_RNG:S_RNG + 3]`` (deal, items, areas) and ``st[S_PLAYER_RNG:S_PLAYER_RNG + 2]``.

PCG32 is the XSH-RR variant of O'Neill (2014); bounded integers use Lemire's (2019)
multiply-shift with rejection, so they are exactly uniform.
"""
from numba import njit
import numpy as np

from ..core.layout import AREAS, DEAL, ITEMS, N_STREAMS, POLICY, S_PLAYER_RNG, S_RNG  # noqa: F401 (the streams)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_PCG_MULT = np.uint64(6364136223846793005)
_PCG_INC = np.uint64(1442695040888963407)
_MASK32 = np.uint64(0xFFFFFFFF)


@njit(cache=True)
def splitmix64(x):
    """SplitMix64 finaliser of ``x + golden ratio``: a bijective 64-bit hash."""
    z = np.uint64(x) + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline='always')
def _sip_round(v0, v1, v2, v3):
    """One SipRound (the ARX permutation of SipHash's four words)."""
    v0 += v1
    v1 = ((v1 << np.uint64(13)) | (v1 >> np.uint64(51))) ^ v0
    v0 = (v0 << np.uint64(32)) | (v0 >> np.uint64(32))
    v2 += v3
    v3 = ((v3 << np.uint64(16)) | (v3 >> np.uint64(48))) ^ v2
    v0 += v3
    v3 = ((v3 << np.uint64(21)) | (v3 >> np.uint64(43))) ^ v0
    v2 += v1
    v1 = ((v1 << np.uint64(17)) | (v1 >> np.uint64(47))) ^ v2
    v2 = (v2 << np.uint64(32)) | (v2 >> np.uint64(32))
    return v0, v1, v2, v3


@njit(cache=True)
def siphash24(k0, k1, m0, m1):
    """SipHash-2-4 with key ``(k0, k1)`` of the 16-byte message of the little-endian words
    ``m0, m1`` (all uint64): a keyed pseudo-random function, one-way in its key."""
    v0 = k0 ^ np.uint64(0x736F6D6570736575)
    v1 = k1 ^ np.uint64(0x646F72616E646F6D)
    v2 = k0 ^ np.uint64(0x6C7967656E657261)
    v3 = k1 ^ np.uint64(0x7465646279746573)
    for m in (m0, m1, np.uint64(16) << np.uint64(56)):   # the two words, then the length
        v3 ^= m
        for _ in range(2):
            v0, v1, v2, v3 = _sip_round(v0, v1, v2, v3)
        v0 ^= m
    v2 ^= np.uint64(0xFF)
    for _ in range(4):
        v0, v1, v2, v3 = _sip_round(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


@njit(cache=True)
def stream_seed(seed, game, stream):
    """Initial state of stream ``stream`` of game ``game`` under run seed ``seed``: SipHash-2-4
    keyed by the seed (spread by SplitMix64) of ``(game, stream)``."""
    k0 = splitmix64(np.uint64(seed))
    k1 = splitmix64(k0)
    return siphash24(k0, k1, np.uint64(game), np.uint64(stream))


@njit(cache=True)
def seed_streams(st, seed, game, held, group):
    """Start the streams of game ``game`` of a run with seed ``seed`` in ``st``: deal, items,
    areas, and each player's own stream (stream ``POLICY + p``). The streams in the bitmask
    ``held`` (bit ``POLICY``: both players') are seeded as those of game ``group`` instead
    (``held = 0``: none)."""
    for k in range(N_STREAMS):
        g = group if (held >> min(k, POLICY)) & 1 else game
        value = np.int64(stream_seed(seed, g, k))
        if k < POLICY:
            st[S_RNG + k] = value
        else:
            st[S_PLAYER_RNG + k - POLICY] = value
    st[S_RNG + POLICY] = 0


@njit(cache=True, inline='always')
def next_u32(st, stream):
    """Advance PCG32 stream ``stream`` of ``st`` and return 32 random bits (as uint64)."""
    old = np.uint64(st[S_RNG + stream])
    st[S_RNG + stream] = np.int64(old * _PCG_MULT + _PCG_INC)
    xorshifted = (((old >> np.uint64(18)) ^ old) >> np.uint64(27)) & _MASK32
    rot = old >> np.uint64(59)
    return ((xorshifted >> rot) | (xorshifted << ((np.uint64(32) - rot) & np.uint64(31)))) & _MASK32


@njit(cache=True, inline='always')
def rand_below(st, stream, n):
    """A uniform integer in ``0..n-1`` (``1 <= n < 2**32``) from stream ``stream``."""
    bound = np.uint64(n)
    m = next_u32(st, stream) * bound
    low = m & _MASK32
    if low < bound:
        threshold = ((_MASK32 + np.uint64(1)) - bound) % bound
        while low < threshold:
            m = next_u32(st, stream) * bound
            low = m & _MASK32
    return np.int64(m >> np.uint64(32))


@njit(cache=True, inline='always')
def shuffle_slice(st, start, stop, stream):
    """Fisher-Yates shuffle of ``st[start:stop]`` in place; draws ``stop - start - 1`` numbers."""
    for i in range(stop - 1, start, -1):
        j = start + rand_below(st, stream, i - start + 1)
        t = st[i]
        st[i] = st[j]
        st[j] = t
