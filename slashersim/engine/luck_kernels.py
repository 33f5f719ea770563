"""Kernels of the luck analyses: play-outs of a position, and a game replayed step by step.
(Games sharing a random stream are :func:`game.simulate_chunk`'s ``held`` streams.)

- A *position* is a game state ``st`` and a description ``pos`` (offsets ``P_*``) of where
  the game stands and what of it is known. :func:`rollouts` plays it out many times: each
  play-out reseeds the streams, redraws everything unknown (:func:`resample_hidden`)
  consistently with what is known and the set-up rules, and continues with the engine's own
  round functions (:func:`continue_game`).
- A recorded game's positions (the timeline's) are those the engine's own flow shows a recorder
  (:func:`interface.observe`), down to each card of a player's draw; a play-out can start
  between two cards (:func:`items.draw_rest`).
- A *decision's* play-outs (:func:`decision_rollouts`, the equity view) start from the last
  such position before it, with what the deciding seat could not know redrawn (the partner's
  unplayed cards too, :func:`redraw_partner`), replay the answers given since that position,
  then give each answer in turn, on the same redraws (common random numbers). The replay
  is the policy's job: a policy that answers from the script at ``st[X_SCRIPT:]`` first (the
  runner's ``scripted_function``), which the state's extra slots ``X_*`` after
  ``STATE_SIZE`` hold.
"""
from numba import njit, prange
import numpy as np

from ..core.layout import (
    C_AREA_DECK,
    C_AREA_IN,
    C_AREA_LEVEL,
    C_ARROWS,
    C_CHECK,
    C_LEADER,
    C_N_AREAS,
    CFG_SIZE,
    S_AREA,
    S_AREA_DECK,
    S_AREA_N,
    S_AREA_POS,
    S_ARROW,
    S_DECK,
    S_DECK_N,
    S_HAND,
    S_OUTCOME,
    S_ROUND,
    S_ROUND_LEADER,
    S_TRICK_LEADER,
    S_TRUMP,
    S_TRUMP_CARD,
    S_TRUMP_DECK,
    STATE_SIZE,
)
from ..core.rules import (
    ALL_CARDS,
    AREA_DECK_LEVELS,
    KILLER,
    LEADER_ARROW,
    N_AREAS,
    N_NUMBER_CARDS,
    RUNNING,
    SUIT_MASK,
)
from .bits import nth_bit, popcount
from .game import block_size, check_invariants, cleanup, play_rounds
from .items import draw_rest, end_turn, item_first_player, item_phase, item_phase_part
from .positions import (
    P_AREA_FIXED,
    P_ARROWS,
    P_EXTRA_DONE,
    P_HANDS,
    P_KILLER,
    P_KILLER_SPAN,
    P_LEADER,
    P_PENDING,
    P_PHASE,
    P_TOP,
    P_TRUMP,
    P_TRUMP_CARD,
    P_TURNS,
    PHASE_DEALT,
    PHASE_DRAW,
    PHASE_ITEMS,
    PHASE_START,
)
from .rng import AREAS, DEAL, ITEMS, rand_below, seed_streams
from .tricks import play_phase


@njit(cache=True, inline='always')
def shuffle_places(st, base, places, stream):
    """Fisher-Yates shuffle of the entries ``st[base + i]`` for the set bits ``i`` of
    ``places``, in place."""
    while popcount(places) > 1:
        last = nth_bit(places, popcount(places) - 1)
        j = base + nth_bit(places, rand_below(st, stream, popcount(places)))
        t = st[base + last]
        st[base + last] = st[j]
        st[j] = t
        places &= ~(1 << last)


@njit(cache=True)
def resample_item_deck(st, pos):
    """Redraw the order of the item deck below its known top cards.

    A known Killer stays where it is; a Killer within the top ``P_KILLER_SPAN`` cards (the
    rulebook's first deck: it was shuffled into the top group and has not come up) is placed
    uniformly there; the other cards are shuffled uniformly.
    """
    n = st[S_DECK_N]
    m = n - pos[P_TOP]          # deck indices 0..m-1 (index 0 = bottom) are unknown
    killer = -1
    for i in range(m):
        if st[S_DECK + i] == KILLER:
            killer = i
    if killer >= 0 and not pos[P_KILLER] and pos[P_KILLER_SPAN] > 0:
        low = max(0, n - pos[P_KILLER_SPAN])
        j = low + rand_below(st, ITEMS, m - low)
        st[S_DECK + killer] = st[S_DECK + j]
        st[S_DECK + j] = KILLER
        killer = j
    elif not pos[P_KILLER]:
        killer = -1
    free = (1 << m) - 1
    if killer >= 0:
        free &= ~(1 << killer)
    shuffle_places(st, S_DECK, free, ITEMS)


@njit(cache=True)
def resample_area_deck(st, pos):
    """Redraw the unknown places of the area deck and the unknown arrows.

    In the first pass through the deck the rulebook's levels still hold, so cards are
    exchanged only within their level; afterwards (a reshuffled deck) freely.
    """
    n = st[S_AREA_N]
    if st[C_AREA_DECK] != AREA_DECK_LEVELS:
        n = 0
        for a in range(st[C_N_AREAS]):
            n += st[C_AREA_IN + a]
    free = ((1 << n) - 1) & ~pos[P_AREA_FIXED]
    if st[C_AREA_DECK] == AREA_DECK_LEVELS and st[S_ROUND] == st[S_AREA_POS]:
        for level in (1, 2):
            group = 0
            for i in range(n):
                if (free >> i) & 1 and st[C_AREA_LEVEL + st[S_AREA_DECK + i]] == level:
                    group |= 1 << i
            shuffle_places(st, S_AREA_DECK, group, AREAS)
    else:
        shuffle_places(st, S_AREA_DECK, free, AREAS)
    for a in range(st[C_N_AREAS]):
        if not (pos[P_ARROWS] >> a) & 1 and (a < N_AREAS or st[C_AREA_IN + a]):
            st[S_ARROW + a] = rand_below(st, AREAS, 2)
            if st[C_ARROWS + a] >= 0:
                st[S_ARROW + a] = st[C_ARROWS + a]


@njit(cache=True)
def resample_deal(st, pos):
    """Phase 1: deal the unknown hands and the trump deck from the cards no known hand holds;
    a known trump suit takes a uniform card of that suit as the trump card."""
    free = (1 << N_NUMBER_CARDS) - 1
    for p in range(2):
        if (pos[P_HANDS] >> p) & 1:
            free &= ~st[S_HAND + p]
    trump_card = -1
    if pos[P_TRUMP_CARD]:
        trump_card = st[S_TRUMP_CARD]
    elif pos[P_TRUMP] >= 0:
        suit = free & SUIT_MASK[pos[P_TRUMP]]
        trump_card = nth_bit(suit, rand_below(st, DEAL, popcount(suit)))
    if trump_card >= 0:
        free &= ~(1 << trump_card)
    for p in range(2):
        if not (pos[P_HANDS] >> p) & 1:
            hand = 0
            for _ in range(8):
                c = nth_bit(free, rand_below(st, DEAL, popcount(free)))
                hand |= 1 << c
                free &= ~(1 << c)
            st[S_HAND + p] = hand
    if trump_card < 0:
        trump_card = nth_bit(free, rand_below(st, DEAL, popcount(free)))
    st[S_TRUMP_DECK] = free | (1 << trump_card)
    st[S_TRUMP_CARD] = trump_card
    st[S_TRUMP] = trump_card // 5


@njit(cache=True)
def resample_hidden(st, pos):
    """Redraw everything ``pos`` says is unknown, from the streams of ``st``."""
    resample_item_deck(st, pos)
    resample_area_deck(st, pos)
    phase = pos[P_PHASE]
    if phase == PHASE_DEALT:
        resample_deal(st, pos)
    if not pos[P_LEADER]:
        if phase == PHASE_START:
            st[S_TRICK_LEADER] = rand_below(st, DEAL, 2)
        elif st[C_LEADER] == LEADER_ARROW:
            st[S_ROUND_LEADER] = st[S_ARROW + st[S_AREA]]
        else:
            st[S_ROUND_LEADER] = rand_below(st, DEAL, 2)


@njit(cache=True)
def end_round(st):
    """The end of :func:`game.play_round`: invariant checks on request, clean-up."""
    if st[C_CHECK]:
        check_invariants(st)
    cleanup(st)


@njit
def continue_game(policy, st, params, pos):
    """Play the position to the end of the game with the engine's round functions."""
    phase = pos[P_PHASE]
    if phase == PHASE_DEALT:
        play_phase(policy, st, params)
        if st[S_OUTCOME] == RUNNING:
            item_phase(policy, st, params)
        end_round(st)
    elif phase == PHASE_ITEMS:
        if st[S_OUTCOME] == RUNNING and pos[P_TURNS] < 2:
            item_phase_part(policy, st, params, pos[P_TURNS], np.int64(2))
        end_round(st)
    elif phase == PHASE_DRAW:
        turns = pos[P_TURNS]
        player = item_first_player(st) ^ turns
        draw_rest(policy, player, st, params, turns, pos[P_PENDING], pos[P_EXTRA_DONE] != 0)
        end_turn(policy, player, st, params)
        if st[S_OUTCOME] == RUNNING:
            item_phase_part(policy, st, params, turns + 1, np.int64(2))
        end_round(st)
    play_rounds(policy, st, params)


@njit(parallel=True)
def rollouts(policy, base, params, pos, seed, first, out):
    """Play the position ``(base, pos)`` out ``len(out)`` times; play-out ``i`` draws from the
    streams of game ``first + i`` of ``seed``; ``out[i]`` is its outcome code."""
    n = out.shape[0]
    size = block_size(n)
    for b in prange((n + size - 1) // size):
        st = base.copy()
        for i in range(b * size, min(n, (b + 1) * size)):
            st[CFG_SIZE:] = base[CFG_SIZE:]     # the rules never change in play
            seed_streams(st, seed, first + i, np.int64(0), np.int64(0))
            resample_hidden(st, pos)
            continue_game(policy, st, params, pos)
            out[i] = st[S_OUTCOME]


@njit
def continue_as_is(policy, st, params, pos):
    """Play the position ``(st, pos)`` to the end in place, nothing redrawn and the streams as
    they are in ``st``: a recorded position so continued ends as the recorded game did (a
    check of :func:`continue_game`). Returns the outcome code."""
    continue_game(policy, st, params, pos)
    return st[S_OUTCOME]


# --- a decision's play-outs (the equity view) -----------------------------------------------
#: the slots after ``STATE_SIZE`` of a decision's play-out: the script's next entry, a flag
#: set when the engine asked other than the script says (the replay left the game as played),
#: the script's length, the address of a tape the moments of a recorded game go to (0: none;
#: ``runner.recorded.record_moments``), then the script's entries, two slots each:
#: ``decision * 2 + player``, answer
X_NEXT = STATE_SIZE
X_ASTRAY = STATE_SIZE + 1
X_LENGTH = STATE_SIZE + 2
X_TAPE = STATE_SIZE + 3
X_SCRIPT = STATE_SIZE + 4
#: columns of a decision's ``view`` row: the partner whose unplayed cards are redrawn (-1:
#: none), the cards it may hold as the deciding seat sees them, how many of those lie in the
#: trump deck instead, the cards it played before the decision this round
W_PARTNER, W_CANDIDATES, W_HIDDEN, W_PLAYED = 0, 1, 2, 3
W_SIZE = 4
#: outcome code of a play-out whose replay went astray
ASTRAY = -1


@njit(cache=True)
def redraw_partner(st, view):
    """Deal the partner of a dealt position (``st`` before its first card) the cards it played
    before the decision and ``popcount(candidates) - hidden`` of the candidates, uniformly
    (stream ``DEAL``); the rest of the cards in neither hand are the trump deck."""
    p = view[W_PARTNER]
    if p < 0:
        return
    cand = view[W_CANDIDATES]
    for _ in range(view[W_HIDDEN]):
        c = nth_bit(cand, rand_below(st, DEAL, popcount(cand)))
        cand &= ~(1 << c)
    st[S_HAND + p] = cand | view[W_PLAYED]
    st[S_TRUMP_DECK] = ALL_CARDS & ~(st[S_HAND] | st[S_HAND + 1])


@njit(cache=True, inline='always')
def load_script(st, scripts, start, stop, answer, decided):
    """Put ``scripts[start:stop]`` (rows ``decision * 2 + player, answer``) and, when
    ``answer`` is not ``None``-like (``decided >= 0``: the decision, packed as a script row),
    the answer to try after it into the script slots of ``st``."""
    n = stop - start
    for k in range(n):
        st[X_SCRIPT + 2 * k] = scripts[start + k, 0]
        st[X_SCRIPT + 2 * k + 1] = scripts[start + k, 1]
    if decided >= 0:
        st[X_SCRIPT + 2 * n] = decided
        st[X_SCRIPT + 2 * n + 1] = answer
        n += 1
    st[X_NEXT] = 0
    st[X_ASTRAY] = 0
    st[X_LENGTH] = n


@njit(parallel=True)
def decision_rollouts(policy, bases, poses, views, scripts, script_at, decided, answers,
                      n_answers, params, seed, first, out):
    """Play-outs of decision points: point ``j`` starts from position ``(bases[j],
    poses[j])``, redraws what its seat cannot know (:func:`resample_hidden`,
    :func:`redraw_partner` with ``views[j]``), replays ``scripts[script_at[j]:script_at[j +
    1]]`` and then answers ``decided[j]`` (``decision * 2 + player``; -1: a position, no
    decision) with each of ``answers[j, :n_answers[j]]`` in turn, on the same redraw and
    streams; with no answer (``n_answers[j] == 0``) the position is played out as it is.
    Play-out ``i`` of every point draws from the streams of game ``first + i`` of ``seed``;
    ``out[j, a, i]`` is the outcome code (:data:`ASTRAY` if the replay left the game).
    ``policy`` must answer from the script slots (``X_*``) while it lasts."""
    m, n = out.shape[0], out.shape[2]
    longest = 0
    for j in range(m):
        longest = max(longest, script_at[j + 1] - script_at[j])
    size = X_SCRIPT + 2 * (longest + 1)
    tasks = m * n
    for t in prange(tasks):
        j = t // n
        i = t % n
        st = np.zeros(size, dtype=np.int64)
        drawn = np.zeros(size, dtype=np.int64)
        drawn[:STATE_SIZE] = bases[j]
        seed_streams(drawn, seed, first + i, np.int64(0), np.int64(0))
        resample_hidden(drawn, poses[j])
        redraw_partner(drawn, views[j])
        for a in range(max(1, n_answers[j])):
            st[:STATE_SIZE] = drawn[:STATE_SIZE]
            load_script(st, scripts, script_at[j], script_at[j + 1], answers[j, a],
                        decided[j] if n_answers[j] > 0 else np.int64(-1))
            continue_game(policy, st, params, poses[j])
            out[j, a, i] = ASTRAY if st[X_ASTRAY] else st[S_OUTCOME]
