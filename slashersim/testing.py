"""Test support for players: information hygiene, what one player may know of a game state.

The checker a fair player must pass (the suite runs it on every registered fair policy; run it
on your own with :func:`decision_points` and :func:`check_decisions`).

A fair player's decision is a function of its *view*: its own hand, the cards played and won,
the public piles and counters, the rules, the cards its own Flashlight showed it, and its own
random stream. :func:`redraw_hidden` returns a copy of a state with every hidden channel redrawn
uniformly among the values consistent with that view (and with the set-up rules), so a fair
player must decide identically on both; :func:`check_decisions` is that test over many decision
points (:func:`decision_points` collects them from real games). The hidden channels
(:data:`CHANNELS`):

- ``partner_hand``: the partner's hand, drawn from the cards the player has not seen, outside
  the suits the partner showed void in; the cards left over form the trump deck;
- ``undealt``: the trump deck below its revealed card, and ``deal_scratch``: the shuffle the deal
  leaves in ``S_PERM`` (rewritten as a shuffle that deals the redrawn hands);
- ``first_yellows``: in round 1, the partner's first-deal yellow count (a record field);
- ``item_deck``: the order of the item deck, except the cards the player's own Flashlight showed
  it (``S_DECK_SEEN``); in the rulebook's first deck the Killer stays within the top group's
  remaining slots (the set-up rule every player knows);
- ``partner_flashlight``: the cards the partner's Flashlight saw (their slots are redrawn with
  the rest of the deck);
- ``killer_start``: where the Killer started (a record field), while it has not come up;
- ``area_order``: the area cards not turned up yet in this pass (and those in the box), within
  their levels in the rulebook's first pass; ``arrows``: the arrows of areas never turned up;
- ``streams``: the deal, item and area random streams (they hold the future deals and
  reshuffles); ``partner_stream``: the partner's own random stream (a player never sees its
  partner's dice); the player's own stream is part of its view;
- ``partner_memory``: what the partner keeps in its declared memory.

A decision may also *write*: a fair policy writes only its own random stream (by drawing from
it) and its own memory (``S_MEMORY``), and what it writes must not change under the redraws
either, or it could carry what it may not know to a later decision. :func:`check_decisions`
holds the answer and every write to that, and names any write elsewhere in the state.

What a player might infer from *why* its partner acted (e.g. that a Flashlight block went to the
bottom because it held the Killer) is not part of the view: fair players here use public facts,
never a model of the partner's hidden reasons.
"""
import inspect

from numba import njit
import numpy as np

from . import rules
from .engine import api
from .engine import layout as L
from .engine import rng as R
from .engine.view import prepare
from .policies import get_policy, param_vector
from .policies.python import BRIDGE_STATE_SIZE, Observation, answerer
from .runner import drive

CHANNELS = ("partner_hand", "undealt", "deal_scratch", "first_yellows", "item_deck",
            "partner_flashlight", "killer_start", "area_order", "arrows", "streams",
            "partner_stream", "partner_memory")

_ALL = (1 << rules.N_NUMBER_CARDS) - 1


def _bits(mask):
    return [c for c in range(rules.N_NUMBER_CARDS) if (int(mask) >> c) & 1]


def _mask(cards):
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def played_by(st):
    """``(cards played this round by player 0, by player 1, partner voids seen by 0, by 1)``
    from the play log, replaying who led each trick."""
    played = [0, 0]
    voids = [0, 0]
    leader = int(st[L.S_ROUND_LEADER])
    trump = int(st[L.S_TRUMP])
    for t in range(int(st[L.S_TRICK])):
        lead = int(st[L.S_PLAY_LOG + 2 * t])
        follow = int(st[L.S_PLAY_LOG + 2 * t + 1])
        played[leader] |= 1 << lead
        played[1 - leader] |= 1 << follow
        if follow // 5 != lead // 5:
            voids[leader] |= 1 << (lead // 5)   # the follower (leader's partner) is void
        wins = (follow // 5 == lead // 5 and follow > lead) or \
            (follow // 5 != lead // 5 and follow // 5 == trump)
        leader = 1 - leader if wins else leader
    if st[L.S_LED] >= 0:
        played[leader] |= 1 << int(st[L.S_LED])
    return played, voids


def _redraw_number_cards(st, out, player, rng):
    partner = 1 - player
    trump_card = int(st[L.S_TRUMP_CARD])
    played, voids = played_by(st)
    unseen = _ALL & ~int(st[L.S_HAND + player]) & ~int(st[L.S_PLAYED]) & ~(1 << trump_card)
    cand = unseen
    for s in range(rules.N_SUITS):
        if (voids[player] >> s) & 1:
            cand &= ~int(rules.SUIT_MASK[s])
    n = bin(int(st[L.S_HAND + partner])).count("1")
    hand = _mask(rng.choice(_bits(cand), size=n, replace=False)) if n else 0
    rest = unseen & ~hand
    out[L.S_HAND + partner] = hand
    out[L.S_TRUMP_DECK] = rest | (1 << trump_card)
    dealt = [0, 0]
    dealt[player] = int(st[L.S_HAND + player]) | played[player]
    dealt[partner] = hand | played[partner]
    if bin(dealt[0]).count("1") == rules.HAND_SIZE and bin(dealt[1]).count("1") == rules.HAND_SIZE:
        perm = list(rng.permutation(_bits(dealt[0]))) + list(rng.permutation(_bits(dealt[1]))) \
            + [trump_card] + list(rng.permutation(_bits(rest)))
        out[L.S_PERM:L.S_PERM + rules.N_NUMBER_CARDS] = perm
        if st[L.S_ROUND] == 1:
            yellow = int(rules.SUIT_MASK[rules.YELLOW])
            out[L.S_FIRST_YELLOWS + partner] = bin(dealt[partner] & yellow).count("1")


def _redraw_item_deck(st, out, player, rng):
    n = int(st[L.S_DECK_N])
    deck = [int(x) for x in st[L.S_DECK:L.S_DECK + n]]
    seen = [int(x) for x in st[L.S_DECK_SEEN:L.S_DECK_SEEN + n]]
    free = [i for i in range(n) if not (seen[i] >> player) & 1]
    cards = [deck[i] for i in free]
    zone = [i for i in free if seen[i] & L.SLOT_TOP_GROUP]
    if rules.KILLER in cards and zone:
        k = int(rng.choice(zone))
        out[L.S_DECK + k] = rules.KILLER
        cards.remove(rules.KILLER)
        free.remove(k)
    for i, c in zip(free, rng.permutation(cards) if cards else []):
        out[L.S_DECK + i] = c
    if st[L.S_KILLER_DRAWS] == 0 and rules.KILLER in deck:
        n0 = int(sum(st[L.C_ITEM_IN:L.C_ITEM_IN + 12])) + 1
        top_group = st[L.C_ITEM_DECK] == rules.ITEM_DECK_KILLER_TOP_HALF
        slots = n0 // 2 + 1 if top_group else n0
        drawn = n0 - n
        at = deck.index(rules.KILLER)
        if drawn + 1 <= slots and not (seen[at] >> player) & 1:
            out[L.S_KILLER_START] = int(rng.integers(drawn + 1, slots + 1))


def _redraw_areas(st, out, rng):
    pool = int(sum(st[L.C_AREA_IN:L.C_AREA_IN + rules.N_AREAS]))
    pos = int(st[L.S_AREA_POS])
    used = int(st[L.S_AREA_N])
    levels = st[L.C_AREA_DECK] == rules.AREA_DECK_LEVELS
    size = used if levels else pool
    first_pass = st[L.S_ROUND] == pos
    hidden = list(range(pos, size)) if first_pass or levels else list(range(used, size))
    deck = [int(x) for x in st[L.S_AREA_DECK:L.S_AREA_DECK + size]]
    groups = [hidden]
    if levels and first_pass:
        groups = [[i for i in hidden if st[L.C_AREA_LEVEL + deck[i]] == lv] for lv in (1, 2)]
    for group in groups:
        for i, a in zip(group, rng.permutation([deck[i] for i in group]) if group else []):
            out[L.S_AREA_DECK + i] = a
    for a in range(rules.N_AREAS):
        if st[L.S_ROUNDS_AREA + a] == 0 and st[L.C_ARROWS + a] < 0:
            out[L.S_ARROW + a] = int(rng.integers(2))


def redraw_hidden(st, player, rng):
    """A copy of the state ``st`` with every hidden channel (:data:`CHANNELS`) redrawn
    uniformly among the values consistent with ``player``'s view; ``rng`` is a numpy
    ``Generator``."""
    out = st.copy()
    _redraw_number_cards(st, out, player, rng)
    _redraw_item_deck(st, out, player, rng)
    _redraw_areas(st, out, rng)
    for stream in (R.DEAL, R.ITEMS, R.AREAS):
        out[L.S_RNG + stream] = _random_word(rng)
    partner = 1 - player
    out[L.S_PLAYER_RNG + partner] = _random_word(rng)
    memory = L.S_MEMORY + partner * L.MEMORY_SIZE
    out[memory:memory + L.MEMORY_SIZE] = rng.integers(-2**63, 2**63 - 1, size=L.MEMORY_SIZE,
                                                      dtype=np.int64)
    return out


def _random_word(rng):
    return int(rng.integers(-2**63, 2**63 - 1, dtype=np.int64))


# --- decision points of real games ------------------------------------------------------------
#: columns of a decision point before the state: decision, player, arg, the answer played
POINT_HEADER = 4
_CONTROL = 4
_recorders = {}


def _recorder(name):
    """A policy that plays as registered policy ``name`` and, at a sampled share of its
    decisions, copies the state into the buffer that trails its parameter vector."""
    if name in _recorders:
        return _recorders[name]
    from .runner.kernels import as_function  # the kernels load when games are played
    entry = get_policy(name)
    inner = as_function(entry.decide)
    n_params = len(entry.default_params)
    rates_at = n_params
    ctl_at = rates_at + api.N_DECISIONS
    buf_at = ctl_at + _CONTROL
    row = POINT_HEADER + L.STATE_SIZE

    @njit(api.POLICY_SIGNATURE)
    def record(decision, player, arg, st, params):
        ctl = params[ctl_at:buf_at].view(np.int64)
        count = ctl[0]
        ctl[0] = count + 1
        h = R.splitmix64(np.uint64(ctl[3]) ^ np.uint64(count))
        u = np.float64(h >> np.uint64(11)) / 9007199254740992.0
        k = ctl[1]
        take = u < params[rates_at + decision] and k < ctl[2]
        if take:
            buf = params[buf_at + k * row:buf_at + (k + 1) * row].view(np.int64)
            buf[0] = decision
            buf[1] = player
            buf[2] = arg
            buf[POINT_HEADER:] = st
            ctl[1] = k + 1
        answer = inner(decision, player, arg, st, params[:n_params])
        if take:
            buf = params[buf_at + k * row:buf_at + (k + 1) * row].view(np.int64)
            buf[3] = answer
        return answer

    _recorders[name] = (record, n_params, rates_at, ctl_at, buf_at, row)
    return _recorders[name]


def decision_points(policy, config, games, seed=0, rates=None, capacity=2000, params=None):
    """Decision points of ``games`` games of ``policy`` under ``config``: an
    ``ndarray(int64, (n, POINT_HEADER + STATE_SIZE))`` of rows ``decision, player, arg,
    answer, state...``, each decision kept with probability ``rates[decision]`` (default:
    card play 0.03, every other decision 0.5), at most ``capacity`` of them. Played on one
    thread (the recorder's counters are shared)."""
    from .runner.kernels import chunk  # the kernels load when games are played
    record, n_params, rates_at, ctl_at, buf_at, row = _recorder(policy)
    vec = np.zeros(buf_at + capacity * row, dtype=np.float64)
    vec[:n_params] = param_vector(policy) if params is None else params
    r = np.full(api.N_DECISIONS, 0.5)
    r[api.PLAY_CARD] = 0.03
    if rates is not None:
        for k, v in dict(rates).items():
            r[k] = v
    vec[rates_at:ctl_at] = r
    ctl = vec[ctl_at:buf_at].view(np.int64)
    ctl[:] = (0, 0, capacity, seed)
    records = np.zeros((games, L.RECORD_SIZE), dtype=np.int32)
    cfg = config.to_array()
    drive(games, lambda start, n: chunk(record, cfg, vec, seed, start, records[start:start + n],
                                        0, 1), threads=1)
    n = int(ctl[1])
    return vec[buf_at:buf_at + n * row].view(np.int64).reshape(n, row).copy()


def _policy(policy, params):
    """``(decide function, parameter vector)`` of a registered policy name, a jitted function
    of ``engine.api.POLICY_SIGNATURE`` (parameters default to none), or a Python player (an
    object with ``act(observation)`` or a function of the observation, asked through its
    view as the engine asks it)."""
    if isinstance(policy, str):
        return get_policy(policy).decide, param_vector(policy) if params is None else params
    if hasattr(policy, "act") or _arity(policy) == 1:
        return _python_decide(answerer(policy)), np.zeros(0)
    return policy, np.zeros(0) if params is None else params


def _arity(fn):
    try:
        return len(inspect.signature(getattr(fn, "py_func", fn)).parameters)
    except (TypeError, ValueError):
        return None


def _python_decide(act):
    """A Python player as a function of the state, as the bridge runs it: the view written
    after the state, the observation asked, its stream and memory taken back."""
    def decide_(decision, player, arg, st, params):
        full = np.zeros(BRIDGE_STATE_SIZE, dtype=np.int64)
        full[:L.STATE_SIZE] = st
        prepare(decision, player, arg, full)
        obs = Observation(full[L.STATE_SIZE:].copy())
        answer = act(obs)
        st[L.S_RNG + R.POLICY] = obs.state[L.S_RNG + R.POLICY]
        mine = L.S_MEMORY + player * L.MEMORY_SIZE
        st[mine:mine + L.MEMORY_SIZE] = obs.state[mine:mine + L.MEMORY_SIZE]
        return answer
    return decide_


def allowed_writes(player):
    """The state slots a decision of ``player`` may write: its stream and its memory."""
    mine = L.S_MEMORY + player * L.MEMORY_SIZE
    return frozenset([L.S_RNG + R.POLICY, *range(mine, mine + L.MEMORY_SIZE)])


def decide(policy, point, state=None, params=None):
    """``policy``'s answer at a decision point (optionally on another ``state``), and what it
    wrote: ``(answer, ((offset, value), ...))`` for every state slot it changed. The state is
    copied, never changed. ``policy`` is a registered name, a jitted policy function or a
    Python player."""
    fn, vec = _policy(policy, params)
    before = (point[POINT_HEADER:] if state is None else state).copy()
    st = before.copy()
    answer = fn(int(point[0]), int(point[1]), int(point[2]), st, vec)
    changed = np.flatnonzero(st != before)
    return int(answer), tuple((int(i), int(st[i])) for i in changed)


def check_decisions(policy, points, redraws=2, seed=0, params=None):
    """The decision points (of :func:`decision_points`) where ``policy`` is not fair: a list
    of ``(index, decision name, what it did, what it did after a redraw)``, empty for a fair
    policy. A decision is unfair when its answer or anything it writes changes once the
    hidden channels are redrawn from the deciding player's view (both entries are then
    ``(answer, writes)``), or when it writes outside its stream and memory (then the third
    entry names the slots and the fourth is None)."""
    fn, vec = _policy(policy, params)
    rng = np.random.default_rng(seed)
    bad = []
    for i, point in enumerate(points):
        name = api.DECISION_NAMES[int(point[0])]
        allowed = allowed_writes(int(point[1]))
        st = point[POINT_HEADER:]
        base = decide(fn, point, params=vec)
        for k in range(redraws + 1):
            other = base if k == 0 else \
                decide(fn, point, redraw_hidden(st, int(point[1]), rng), vec)
            stray = [off for off, _ in other[1] if off not in allowed]
            if stray:
                bad.append((i, name, "wrote " + ", ".join(map(L.state_field, stray)), None))
                break
            if other != base:
                bad.append((i, name, base, other))
                break
    return bad
