"""Could the game have been won? The compiled parts of the exact solver.

Once a game's seed is fixed, everything random in it is fixed too: round ``r``'s deal, the area
order and every reshuffle of the item deck come from the game's counter-based streams
(:mod:`.rng`), which move only with the game's own flow. What is left are the players'
decisions; the solver asks whether some sequence of them, both players seeing everything,
wins. It never restates a rule: every step is the engine's own flow, driven by a scripted
player (:func:`.scripted.scripted`) that answers from a script and, at the first decision the script
does not cover, writes down the decision and its legal answers (:func:`.view.legal_answers`)
so that the search can try each of them.

A round is expanded into the distinct states it can end in (:func:`expand_round`):

1. the round begins (:func:`.game.begin_round`) and window (c) is played under every script;
2. the eight tricks are searched card by card with :func:`.playout.play_given_card`, merging
   positions that agree on everything the rest of the round reads: both hands, the leader,
   the tricks each player won, the trap state, and of each player's won cards the count of
   whites, greens and yellows and the set of reds (all :func:`.items.sort_won_cards` reads);
3. the item phase and clean-up (:func:`.game.end_round`) are played under every script.

Two reductions keep this exact. Window (d) (after each trick, ``item_timing = any_time``) is
not searched: health and the item deck do not move during the play phase, so a First Aid kit
or a Flashlight used there acts as it would in window (c) or (a), and a Lucky Charm as in
window (c) (before this round's trap) or (a) (after it). Within one window, items used (or
given) one after another are tried in increasing id only, as their effects commute, and in a
gift window the second player gives back nothing it was just given (every sharing of the
team's items is still reached once); in the gift windows before a turn, the player to draw
gives nothing (but First Aid where its partner may use items before that draw) and its
partner no escape item, as either can give them later to the same effect
(:func:`_deferred_gifts`). The
independent check (``tests/solver_check.py``) plays every legal answer of the engine without
either reduction and must agree.
"""
from numba import njit, types
from numba.typed import Dict
import numpy as np

from ..core.layout import (
    C_BEFORE_DRAW_ITEMS,
    C_N_AREAS,
    S_AREA,
    S_AREA_DECK,
    S_AREA_N,
    S_AREA_POS,
    S_ARROW,
    S_DECK,
    S_DECK_N,
    S_DISCARD,
    S_DISCARD_N,
    S_DRAWS,
    S_GREENS,
    S_HAND,
    S_HEALTH,
    S_HELD,
    S_JUNK_ASIDE,
    S_KILLER_DRAWN,
    S_KNIVES,
    S_LED,
    S_OUT,
    S_OUTCOME,
    S_PLAY_LOG,
    S_PLAYED,
    S_RNG,
    S_ROUND,
    S_TRAP_ROUND,
    S_TRAPS,
    S_TRAPS_AREA,
    S_TRICK,
    S_TRICK_LEADER,
    S_TRICKS,
    S_WHITE_COLOUR,
    S_WON,
    S_YELLOWS,
    STATE_SIZE,
)
from ..core.rules import (
    BEFORE_DRAW_BOTH_PLAYERS,
    KILLER,
    KIND_ESCAPE,
    KIND_HEAL,
    MAX_ITEM_IDS,
    RUNNING,
    TRICKS_PER_ROUND,
    WIN,
)
from . import interface
from . import scripted as script  # as a module attribute, which numba's cache takes
from .bits import lowest_bit, popcount
from .game import begin_round, end_round, finish_round, play_game, play_rounds
from .items import item_first_player, sort_won_cards
from .playout import play_given_card
from .predicates import legal_cards, white_colour
from .scripted import (
    M_ANSWER,
    M_ARG,
    M_CARD,
    M_DECISION,
    M_LEGAL,
    M_N_LEGAL,
    M_OPEN,
    M_PLAYER,
    MAX_SCRIPT,
    P_ANSWERS,
    P_CARDS,
    P_NODES,
    P_SCRIPT,
    P_WINDOWS_FROM,
)
from .tricks import finish_play_phase, start_play_phase

#: the key of a position of the play phase (:func:`_play_key`)
_KEY = types.UniTuple(types.int64, 2)
#: item windows whose repeated uses commute
_WINDOWS = (interface.PHASE_START, interface.BEFORE_DRAW, interface.PLAY_START, interface.TRADE)


@njit(cache=True)
def _mix(h, w):
    """One word into a running 64-bit hash (SplitMix64's finaliser)."""
    z = np.uint64(h) ^ np.uint64(w)
    z = (z + np.uint64(0x9E3779B97F4A7C15))
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _key_words(st, out):
    """The words of ``st`` that a game's future reads between rounds, into ``out``; their
    number. Two states with the same words have the same futures (statistics aside)."""
    n = 0
    for off in (S_ROUND, S_TRAPS, S_OUTCOME, S_HEALTH, S_HEALTH + 1, S_HELD, S_HELD + 1, S_OUT,
                S_JUNK_ASIDE, S_RNG, S_RNG + 1, S_RNG + 2, S_AREA_N, S_AREA_POS,
                S_TRICK_LEADER, S_KILLER_DRAWN, S_DECK_N, S_DISCARD_N):
        out[n] = st[off]
        n += 1
    for i in range(st[S_DECK_N]):
        out[n] = st[S_DECK + i]
        n += 1
    for i in range(st[S_DISCARD_N]):
        out[n] = st[S_DISCARD + i]
        n += 1
    for i in range(st[C_N_AREAS]):
        out[n] = st[S_AREA_DECK + i]
        out[n + 1] = st[S_ARROW + i]
        n += 2
    return n


@njit(cache=True)
def round_key(st):
    """A 128-bit hash of the state between rounds (:func:`_key_words`), as two int64."""
    words = np.empty(128, dtype=np.int64)
    n = _key_words(st, words)
    h1 = np.uint64(0x243F6A8885A308D3)
    h2 = np.uint64(0x13198A2E03707344)
    for i in range(n):
        h1 = _mix(h1, words[i])
        h2 = _mix(h2 ^ np.uint64(i), words[i] * 0x5851F42D4C957F2D)
    return np.int64(h1), np.int64(h2)


@njit(cache=True)
def _won_summary(won):
    """What the item phase reads of a player's won cards: whites, greens, yellows, reds."""
    return popcount(won & 0x1F) | popcount(won & 0x3E0) << 3 | popcount(won & 0x7C00) << 6 \
        | ((won >> 15) & 0x1F) << 9


@njit(cache=True)
def _play_key(st):
    """The key under which two positions of the play phase have the same rest of the round."""
    k1 = st[S_HAND] | st[S_HAND + 1] << 20
    k2 = st[S_TRICK_LEADER] | st[S_TRAP_ROUND] << 1 | st[S_TRAPS] << 2 | st[S_TRICKS] << 5 \
        | st[S_OUTCOME] << 9 | _won_summary(st[S_WON]) << 12 | _won_summary(st[S_WON + 1]) << 26
    return k1, k2


@njit(cache=True)
def _run_part(part, st, params):
    """Part 0: window (c) of a begun round; part 1: the item phase and clean-up."""
    if part == 0:
        start_play_phase(script.scripted, st, params)
    else:
        end_round(script.scripted, st, params)


@njit(cache=True)
def _deferred_gifts(st):
    """The items not tried as gifts in the gift window of the scripted player's notes: before
    a turn, the player about to draw gives nothing (holding an item only adds choices to its
    turn; it can give it after), and the partner gives no escape item (it serves no turn, and
    the last window can place it). Where both players use items before a draw
    (``before_draw_items = "both_players"``), the player about to draw may give First Aid: its
    partner may heal itself with it before that draw, and the health it gives colours the next
    item phase's whites, which a later gift does not always reach in time."""
    window = st[M_ARG]
    if window >= 2:
        return 0
    if st[M_PLAYER] == item_first_player(st) ^ window:
        kept = ((1 << MAX_ITEM_IDS) - 1) & ~(1 << KILLER)
        if st[C_BEFORE_DRAW_ITEMS] == BEFORE_DRAW_BOTH_PLAYERS:
            kept &= ~interface.kind_items(st, KIND_HEAL)
        return kept
    return interface.kind_items(st, KIND_ESCAPE)


@njit(cache=True)
def _received(script, kinds, m, kind):
    """The items the partner gave in the gifts just before the player's own in ``script``
    (their answers at the end of its first ``m``): a gift window reaches every sharing of the
    team's items when the second player gives back nothing it was given, so it may not."""
    i = m
    while i > 0 and kinds[i - 1] == kind:
        i -= 1
    partner = kind ^ 1
    received = 0
    while i > 0 and kinds[i - 1] == partner:
        i -= 1
        if script[i] >= 0:
            received |= 1 << script[i]
    return received


@njit(cache=True)
def explore_part(part, start, states, scripts, lengths, params):
    """Every way ``part`` (:func:`_run_part`) can go from ``start``: each distinct ending state
    (:func:`round_key`) into a row of ``states`` with its answers in ``scripts`` (``lengths`` of
    them); their number.
    Stops at the first ending in a won game, which is then the only row. -1 if the rows are
    too few, -2 if the search's stack is, -3 if a script would be longer than ``MAX_SCRIPT``."""
    return explore_from(part, start, np.empty(0, dtype=np.int64), states, scripts, lengths,
                        params)


@njit(cache=True)
def explore_from(part, start, prefix, states, scripts, lengths, params):
    """:func:`explore_part` with the part's first answers fixed to ``prefix`` (a game as it
    was played, up to a decision): every way the rest of the part can go. The reductions that
    compare an answer with the one before it never reach into the prefix, so the endings
    reached are every ending the prefix leaves open."""
    stack = np.empty((4096, MAX_SCRIPT), dtype=np.int64)
    stack_n = np.empty(4096, dtype=np.int64)
    kinds = np.empty((4096, MAX_SCRIPT), dtype=np.int64)
    top = 1
    fixed = prefix.shape[0]
    if fixed > MAX_SCRIPT:
        return -3
    stack[0, :fixed] = prefix
    kinds[0, :fixed] = -1           # no kind: no reduction looks back into the prefix
    stack_n[0] = fixed
    n_out = 0
    seen = Dict.empty(key_type=_KEY, value_type=types.int64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    while top > 0:
        top -= 1
        params[P_NODES] += 1
        m = stack_n[top]
        params[P_CARDS] = 0
        params[P_ANSWERS] = m
        params[P_WINDOWS_FROM] = 0
        for i in range(m):
            params[P_SCRIPT + i] = stack[top, i]
        st[:] = start
        st[M_CARD] = 0
        st[M_ANSWER] = 0
        st[M_OPEN] = 0
        _run_part(part, st, params)
        if not st[M_OPEN]:
            key = round_key(st)
            if key in seen:
                continue
            seen[key] = n_out
            if n_out >= states.shape[0]:
                return -1
            states[n_out] = st
            scripts[n_out, :m] = stack[top, :m]
            lengths[n_out] = m
            n_out += 1
            if st[S_OUTCOME] == WIN:   # one line is enough
                states[0] = st
                scripts[0, :m] = stack[top, :m]
                lengths[0] = m
                return 1
            continue
        if m >= MAX_SCRIPT:
            return -3
        decision = st[M_DECISION]
        player = st[M_PLAYER]
        kind = decision * 2 + player
        floor = -1
        if m > 0 and kinds[top, m - 1] == kind and stack[top, m - 1] >= 0:
            for w in _WINDOWS:
                if decision == w:
                    floor = stack[top, m - 1] % interface.ON_PARTNER
        received = 0
        if decision == interface.TRADE:
            received = _received(stack[top], kinds[top], m, kind) | _deferred_gifts(st)
        row = stack[top].copy()
        krow = kinds[top].copy()
        for j in range(st[M_N_LEGAL]):
            answer = st[M_LEGAL + j]
            if floor >= 0 and answer >= 0 and answer % interface.ON_PARTNER <= floor:
                continue
            if answer >= 0 and (received >> answer) & 1:
                continue
            if top >= stack.shape[0]:
                return -2
            stack[top, :m] = row[:m]
            stack[top, m] = answer
            kinds[top, :m] = krow[:m]
            kinds[top, m] = kind
            stack_n[top] = m + 1
            top += 1
    return n_out


#: the words of a position of the play phase that its tricks change (:func:`play_tricks`)
_PLAY_WORDS = np.array([S_HAND, S_HAND + 1, S_WON, S_WON + 1, S_TRICKS, S_TRICKS + 1, S_TRICK,
                        S_TRICK_LEADER, S_TRAP_ROUND, S_TRAPS, S_OUTCOME, S_PLAYED],
                       dtype=np.int64)


@njit(cache=True)
def _item_phase_key(st):
    """What the item phase reads of a finished play phase (the leader of the last trick, the
    trap state, and each player's greens, yellows, knives and draws as
    :func:`.items.sort_won_cards` finds them with the whites' colours of the phase's start):
    two positions with the same key have the same item phase."""
    k = st[S_TRICK_LEADER] | st[S_TRAP_ROUND] << 1 | st[S_TRAPS] << 2 | st[S_OUTCOME] << 5
    for p in range(2):
        st[S_WHITE_COLOUR + p] = white_colour(st, st[S_HEALTH + p], st[S_AREA])
        sort_won_cards(st, p)
        k = k << 24 | st[S_GREENS + p] | st[S_YELLOWS + p] << 6 | st[S_KNIVES + p] << 12 \
            | st[S_DRAWS + p] << 18
    return k


@njit(cache=True)
def _merge_by_item_phase(start, level, level_cards, n, scratch):
    """Keep one of the finished play phases in ``level`` with each :func:`_item_phase_key`,
    moved to the front; their number."""
    seen = Dict.empty(key_type=types.int64, value_type=types.int64)
    kept = 0
    for i in range(n):
        for w in range(_PLAY_WORDS.shape[0]):
            scratch[_PLAY_WORDS[w]] = level[i, w]
        key = _item_phase_key(scratch)
        if key in seen:
            continue
        seen[key] = kept
        level[kept] = level[i]
        level_cards[kept] = level_cards[i]
        kept += 1
    return kept


@njit(cache=True)
def play_tricks(start, states, cards):
    """Every way the tricks left can go from ``start`` (a play phase between two tricks),
    positions merged by :func:`_play_key`: the distinct positions after the last trick into
    ``states`` with their cards in play order in ``cards`` (-1 for the tricks played before
    ``start``); their number (a round lost to a trap is left out), one for each way the item
    phase can start (:func:`_item_phase_key`). -1 if the rows are too few.

    Each trick is played by the engine on one scratch state, into which a position's few
    changing words (``_PLAY_WORDS``) are loaded."""
    words = _PLAY_WORDS
    nw = words.shape[0]
    scratch = start.copy()
    level = np.empty((1, nw), dtype=np.int64)
    for w in range(nw):
        level[0, w] = start[words[w]]
    level_cards = np.full((1, 2 * TRICKS_PER_ROUND), -1, dtype=np.int64)
    n_level = 1
    for trick in range(start[S_TRICK], TRICKS_PER_ROUND):
        seen = Dict.empty(key_type=_KEY, value_type=types.int64)
        cap = max(64, n_level * 8)
        nxt = np.empty((cap, nw), dtype=np.int64)
        nxt_cards = np.empty((cap, 2 * TRICKS_PER_ROUND), dtype=np.int64)
        n_next = 0
        for i in range(n_level):
            for w in range(nw):
                scratch[words[w]] = level[i, w]
            leader = scratch[S_TRICK_LEADER]
            leads = legal_cards(level[i, leader], -1)          # words 0, 1: the hands
            while leads:
                lead = lowest_bit(leads)
                leads &= leads - 1
                follows = legal_cards(level[i, 1 - leader], lead)
                while follows:
                    follow = lowest_bit(follows)
                    follows &= follows - 1
                    for w in range(nw):
                        scratch[words[w]] = level[i, w]
                    scratch[S_LED] = -1
                    play_given_card(scratch, leader, lead)
                    play_given_card(scratch, 1 - leader, follow)
                    if scratch[S_OUTCOME] != RUNNING:
                        continue
                    key = _play_key(scratch)
                    if key in seen:
                        continue
                    if n_next == cap:
                        cap *= 2
                        grown = np.empty((cap, nw), dtype=np.int64)
                        grown[:n_next] = nxt[:n_next]
                        nxt = grown
                        grown_cards = np.empty((cap, 2 * TRICKS_PER_ROUND), dtype=np.int64)
                        grown_cards[:n_next] = nxt_cards[:n_next]
                        nxt_cards = grown_cards
                    seen[key] = n_next
                    for w in range(nw):
                        nxt[n_next, w] = scratch[words[w]]
                    nxt_cards[n_next] = level_cards[i]
                    nxt_cards[n_next, 2 * trick] = lead
                    nxt_cards[n_next, 2 * trick + 1] = follow
                    n_next += 1
        level = nxt
        level_cards = nxt_cards
        n_level = n_next
        if n_level == 0:
            break
    n_level = _merge_by_item_phase(start, level, level_cards, n_level, scratch)
    if n_level > states.shape[0]:
        return -1
    for i in range(n_level):
        states[i] = start
        for w in range(nw):
            states[i, words[w]] = level[i, w]
        states[i, S_LED] = -1
        for k in range(2 * start[S_TRICK], 2 * TRICKS_PER_ROUND):
            states[i, S_PLAY_LOG + k] = level_cards[i, k]
        states[i, S_TRAPS_AREA + start[S_AREA]] += states[i, S_TRAP_ROUND]
    cards[:n_level] = level_cards[:n_level]
    return n_level


@njit(cache=True)
def begun_round(st):
    """A copy of ``st`` (between rounds) with the next round begun: area, deal, trump."""
    s = st.copy()
    begin_round(s)
    return s



@njit(cache=True)
def finish_game(st, params):
    """Play the game on from ``st`` (between two tricks of a play phase) to its end with the
    scripted player (:func:`.scripted.scripted`) following the script in ``params``."""
    st[M_CARD] = 0
    st[M_ANSWER] = 0
    st[M_OPEN] = 0
    finish_round(script.scripted, st, params)
    play_rounds(script.scripted, st, params)


@njit(cache=True)
def play_scripted_game(st, params, seed, game):
    """Game ``game`` of a run with ``seed``, played from its set-up with the scripted player."""
    play_game(script.scripted, st, params, seed, game)


@njit(cache=True)
def start_scripted(st, params):
    """Window (c) of a begun round with the scripted player (nothing used, or the script's)."""
    st[M_CARD] = 0
    st[M_ANSWER] = 0
    st[M_OPEN] = 0
    start_play_phase(script.scripted, st, params)


@njit(cache=True)
def finish_play_scripted(st, params):
    """The rest of the play phase from ``st`` (between two tricks, or a led card waiting for
    its answer) with the scripted player following the script in ``params`` (window (d)
    answered from round ``params[P_WINDOWS_FROM]``): the position the item phase starts from.
    Returns 1 if the script ran out before the play phase ended, else 0."""
    st[M_CARD] = 0
    st[M_ANSWER] = 0
    st[M_OPEN] = 0
    finish_play_phase(script.scripted, st, params)
    return st[M_OPEN]


@njit(cache=True)
def give_card(st, player, card):
    """:func:`.playout.play_given_card` on ``st``: ``player`` leads ``card``, or answers the led
    card with it and the trick is resolved."""
    play_given_card(st, player, card)
