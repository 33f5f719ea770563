"""A whole game (docs/rules.md, "Winning and losing", "Clean-up"), invariant checks, and the
parallel chunk of games."""
from numba import njit, prange, types
import numpy as np

from ..core.layout import (
    C_CHECK,
    C_JUNK,
    C_KEEPABLE,
    C_KILLER_RESHUFFLE,
    C_MAX_HEALTH,
    C_MAX_ROUNDS,
    C_N_ADDED_ITEMS,
    CFG_SIZE,
    COUNT_ANYS,
    COUNT_GAMES,
    COUNT_HISTS,
    COUNT_SUMS,
    COUNT_TOTALS,
    K_FIXED_SIZE,
    OPEN_COUNTS,
    R_ESCAPES,
    R_OUTCOME,
    RECORD_COPY,
    S_AREA,
    S_CHARMS_ROUND,
    S_DECK,
    S_DECK_N,
    S_DISCARD,
    S_DISCARD_N,
    S_HAND,
    S_HEALTH,
    S_HELD,
    S_JUNK_ASIDE,
    S_KILLER_DRAWN,
    S_OUT,
    S_OUTCOME,
    S_PLAYED,
    S_ROUND,
    S_ROUNDS_AREA,
    S_TRAP_ROUND,
    S_TRAPS,
    S_TRAPS_AT_START,
    S_TRICK,
    S_TRUMP_DECK,
    S_VIOLATIONS,
    S_WON,
    STATE_SIZE,
    V_CARDS,
    V_HEALTH,
    V_ITEMS,
    V_TRAPS,
)
from ..core.rules import (
    ALL_CARDS,
    FIRST_ADDED_ITEM,
    JUNK,
    KILLER,
    KILLER_RESHUFFLE_AT_CLEANUP,
    RUNNING,
    TIMEOUT,
)
from .bits import popcount
from .deal import setup_game, start_round
from .interface import observe
from .items import item_phase, reshuffle_item_deck, team_escapes
from .lazy import lazy_njit
from .positions import SNAP_DEALT, SNAP_START
from .rng import seed_streams
from .tricks import finish_play_phase, play_phase

#: games one parallel task plays in a row with one scratch state
BLOCK = 256


@njit(cache=True, inline='always')
def cleanup(st):
    """Clean-up (docs/rules.md, "Clean-up"): under the rulebook a drawn Killer sends the discard
    pile back."""
    if st[S_KILLER_DRAWN] and st[C_KILLER_RESHUFFLE] == KILLER_RESHUFFLE_AT_CLEANUP:
        reshuffle_item_deck(st)
    st[S_KILLER_DRAWN] = 0


@njit(cache=True)
def check_invariants(st):
    """Flag broken invariants in ``st[S_VIOLATIONS]`` at the end of a round.

    The 20 number cards are each in exactly one place; every item card is in exactly one of
    deck, discard, a player's items, out of the game or (Junk) aside; health is within
    0..max; at most one trap went off and the trap count moved only by it and Lucky Charms.
    """
    hands = st[S_HAND] | st[S_HAND + 1]
    won = st[S_WON] | st[S_WON + 1]
    parts = (st[S_HAND], st[S_HAND + 1], st[S_WON], st[S_WON + 1], st[S_TRUMP_DECK])
    total = 0
    union = 0
    for m in parts:
        total += popcount(m)
        union |= m
    if total != 20 or union != ALL_CARDS or popcount(st[S_TRUMP_DECK]) != 4 \
            or st[S_PLAYED] != won or popcount(won) != 2 * st[S_TRICK] \
            or popcount(hands) != 16 - 2 * st[S_TRICK]:
        st[S_VIOLATIONS] |= V_CARDS
    seen = 0
    dup = False
    for i in range(st[S_DECK_N]):
        c = st[S_DECK + i]
        dup |= (seen >> c) & 1 == 1
        seen |= 1 << c
    for i in range(st[S_DISCARD_N]):
        c = st[S_DISCARD + i]
        dup |= (seen >> c) & 1 == 1
        seen |= 1 << c
    for m in (st[S_HELD], st[S_HELD + 1], st[S_OUT]):
        dup |= (seen & m) != 0
        seen |= m
    aside = st[S_JUNK_ASIDE]
    for j in range(st[C_JUNK] - aside, st[C_JUNK]):
        dup |= (seen >> (JUNK + j)) & 1 == 1
        seen |= 1 << (JUNK + j)
    expected = (1 << 12) - 1 | (1 << KILLER)
    for j in range(st[C_JUNK]):
        expected |= 1 << (JUNK + j)
    for j in range(st[C_N_ADDED_ITEMS]):
        expected |= 1 << (FIRST_ADDED_ITEM + j)
    if dup or seen != expected or (st[S_HELD] | st[S_HELD + 1]) & ~st[C_KEEPABLE]:
        st[S_VIOLATIONS] |= V_ITEMS
    for p in range(2):
        if st[S_HEALTH + p] < 0 or st[S_HEALTH + p] > st[C_MAX_HEALTH]:
            st[S_VIOLATIONS] |= V_HEALTH
    if st[S_TRAP_ROUND] > 1 or st[S_TRAPS] < 0 or \
            st[S_TRAPS] != st[S_TRAPS_AT_START] + st[S_TRAP_ROUND] - st[S_CHARMS_ROUND]:
        st[S_VIOLATIONS] |= V_TRAPS


@njit(inline='always')
def end_round(policy, st, params):
    """After the play phase: the item phase (unless the game is over), checks, clean-up."""
    if st[S_OUTCOME] == RUNNING:
        item_phase(policy, st, params)
    if st[C_CHECK]:
        check_invariants(st)
    cleanup(st)


@njit(cache=True, inline='always')
def begin_round(st):
    """A round up to its play phase: the trap count it starts from, area card, deal, trump."""
    st[S_TRAPS_AT_START] = st[S_TRAPS]
    st[S_CHARMS_ROUND] = 0
    start_round(st)
    st[S_ROUNDS_AREA + st[S_AREA]] += 1


@njit
def play_round(policy, st, params):
    """One round: area, deal, play phase, item phase, clean-up; a recorder is shown the round
    before its deal and after it (:func:`interface.observe`)."""
    observe(policy, st, params, SNAP_START, 0, 0, False)
    begin_round(st)
    observe(policy, st, params, SNAP_DEALT, 0, 0, False)
    play_phase(policy, st, params)
    end_round(policy, st, params)


@njit
def finish_round(policy, st, params):
    """The rest of the current round from any point of its play phase (for search policies)."""
    finish_play_phase(policy, st, params)
    end_round(policy, st, params)


@njit
def play_game(policy, st, params, seed, game):
    """Play game ``game`` of a run with ``seed`` to its end; the result is left in ``st``."""
    seed_streams(st, seed, game, np.int64(0), np.int64(0))
    setup_game(st)
    play_rounds(policy, st, params)


@njit(inline='always')
def play_rounds(policy, st, params):
    """Play rounds until the game is over or reaches ``C_MAX_ROUNDS`` (a timeout)."""
    while st[S_OUTCOME] == RUNNING:
        if st[S_ROUND] >= st[C_MAX_ROUNDS]:
            st[S_OUTCOME] = TIMEOUT
            break
        play_round(policy, st, params)


@njit(cache=True)
def write_record(st, rec):
    """Copy the per-game summary of a finished ``st`` into ``rec``, an
    ``ndarray(int32, (RECORD_SIZE,))``: each field of the record (``core.fields.RECORDS``) from
    its state field (``layout.RECORD_COPY``), and the escape items the team holds."""
    for j in range(RECORD_COPY.shape[0]):
        s, r = RECORD_COPY[j, 0], RECORD_COPY[j, 1]
        for k in range(RECORD_COPY[j, 2]):
            rec[r + k] = st[s + k]
    rec[R_ESCAPES] = team_escapes(st)


@njit
def play_block(policy, cfg, params, seed, game0, records, block, size, held, repeats):
    """Play block ``block`` of a chunk, games ``game0 + block * size ...``, one record row each.

    One scratch state serves the whole block. Game ``g`` depends only on ``(seed, g)``, never
    on the thread or block that plays it; the streams in the bitmask ``held`` are seeded from
    group ``g // repeats`` instead (as game ``g // repeats`` seeds them), so each ``repeats``
    consecutive games share them (``held = 0``: every game its own).
    """
    n = records.shape[0]
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[:CFG_SIZE] = cfg
    for i in range(block * size, min(n, (block + 1) * size)):
        g = game0 + i
        seed_streams(st, seed, g, held, g // repeats)
        setup_game(st)
        play_rounds(policy, st, params)
        write_record(st, records[i])


@njit
def play_games(policy, cfg, params, seed, game0, records, st):
    """Games ``game0 .. game0 + len(records) - 1`` one after another in the caller's state
    ``st`` (at least ``STATE_SIZE`` long: a Python player keeps its view after it), one record
    row each: exactly the games of :func:`simulate_chunk`."""
    st[:CFG_SIZE] = cfg
    for i in range(records.shape[0]):
        play_game(policy, st, params, seed, game0 + i)
        write_record(st, records[i])


#: a chunk is cut into at least this many blocks while blocks can stay above one game
MIN_BLOCKS = 32


@njit(cache=True)
def block_size(n):
    """Games per parallel block of a chunk of ``n``: ``BLOCK``, or fewer when the chunk is
    small, so that a slow policy's kernel calls (a few dozen games) still give every thread
    work. Which thread or block plays a game never changes the game."""
    return max(1, min(BLOCK, n // MIN_BLOCKS))


@njit(parallel=True)
def simulate_chunk(policy, cfg, params, seed, game0, records, held, repeats):
    """Play games ``game0 .. game0 + len(records) - 1`` in parallel blocks, one record row each
    (``held``, ``repeats``: streams shared by groups of games, see :func:`play_block`).

    Generic in ``policy``: the runner compiles it once per kind of policy
    (:mod:`slashersim.runner.kernels`).
    """
    size = block_size(records.shape[0])
    for b in prange((records.shape[0] + size - 1) // size):
        play_block(policy, cfg, params, seed, game0, records, np.int64(b), size, held, repeats)


@lazy_njit(types.void(types.int32[:, ::1], types.int64[::1]), cache=True)
def aggregate(records, counts):
    """Add the records of a chunk into ``counts`` (laid out by ``layout.K_*``): each count of
    the field registry (``core.fields.COUNTS``) reduces its record field as ``layout.COUNT_*``
    say, for the games of the outcomes it counts; a histogram by round at the open end of the
    counts has ``max_rounds + 1`` slots."""
    open_slots = (counts.shape[0] - K_FIXED_SIZE) // len(OPEN_COUNTS)
    for i in range(records.shape[0]):
        r = records[i]
        outcome = np.int64(1) << r[R_OUTCOME]
        for j in range(COUNT_GAMES.shape[0]):
            if COUNT_GAMES[j, 4] & outcome:
                counts[COUNT_GAMES[j, 1]] += 1
        for j in range(COUNT_SUMS.shape[0]):
            if COUNT_SUMS[j, 4] & outcome:
                src, dst = COUNT_SUMS[j, 0], COUNT_SUMS[j, 1]
                for k in range(COUNT_SUMS[j, 2]):
                    counts[dst + k] += r[src + k]
        for j in range(COUNT_TOTALS.shape[0]):
            if COUNT_TOTALS[j, 4] & outcome:
                src, dst = COUNT_TOTALS[j, 0], COUNT_TOTALS[j, 1]
                for k in range(COUNT_TOTALS[j, 2]):
                    counts[dst] += r[src + k]
        for j in range(COUNT_ANYS.shape[0]):
            if COUNT_ANYS[j, 4] & outcome and r[COUNT_ANYS[j, 0]] != 0:
                counts[COUNT_ANYS[j, 1]] += 1
        for j in range(COUNT_HISTS.shape[0]):
            if COUNT_HISTS[j, 4] & outcome:
                dst, bins = COUNT_HISTS[j, 1], COUNT_HISTS[j, 3]
                if bins == 0:
                    dst, bins = K_FIXED_SIZE + dst * open_slots, open_slots
                counts[dst + min(r[COUNT_HISTS[j, 0]], bins - 1)] += 1
