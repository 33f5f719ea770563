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
- ``killer_start``: where the Killer started (a record field), while it has not come up,
  redrawn over every slot the set-up allows;
- ``area_order``: the area cards not turned up yet in this pass (and those in the box), within
  their levels in the rulebook's first pass; ``arrows``: the arrows of areas never turned up;
- ``streams``: the deal, item and area random streams (they hold the future deals and
  reshuffles); ``partner_stream``: the partner's own random stream (a player never sees its
  partner's dice); the player's own stream is part of its view;
- ``partner_memory``: what the partner keeps in its declared memory.

A decision may also *write*: a fair policy writes only its own random stream (by drawing from
it) and its own memory (``S_MEMORY``), and what it writes must not change under the redraws
either, or it could carry what it may not know to a later decision. :func:`check_decisions`
holds the answer and every write to that, and names any write elsewhere: in the state, the
parameters, and for a Python player its object and what its code shares beyond it (module
globals, the attributes of the modules it names, class attributes, closures), which every
copy of the player reaches, the partner's included.

What a player might infer from *why* its partner acted (e.g. that a Flashlight block went to the
bottom because it held the Killer) is not part of the view: fair players here use public facts,
never a model of the partner's hidden reasons.
"""
import copy
import functools
import inspect
import pickle

from numba import carray
import numpy as np

from ..core import layout as L
from ..core import rules
from ..engine import interface
from ..engine import rng as R
from ..engine.lazy import closure_njit
from ..engine.view import fill_view
from ..policies import Pair, get_policy, param_vector
from ..policies.python import BRIDGE_STATE_SIZE, REPORT_AT, Observation, answerer
from ..policies.reach import shared
from ..runner import drive
from ..runner.tape import pointer

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
    _redraw_killer_start(st, out, rng)


def _redraw_killer_start(st, out, rng):
    """While the Killer has not come up (the view blanks where it started), its start is
    redrawn over every slot the set-up allows (all of them when no rule fixes it): a superset
    of what the view leaves possible, which is sound because no rule reads the start during
    play (it is a record field), so no fair decision can depend on it; the wider the redraw,
    the surer a player that reads it is caught, whoever's Flashlight has moved the Killer."""
    if st[L.S_KILLER_DRAWS] != 0 or st[L.C_KILLER_POSITION] > 0:
        return
    n0 = int(sum(st[L.C_ITEM_IN:L.C_ITEM_IN + rules.MAX_ITEM_IDS])) + 1
    top_group = st[L.C_ITEM_DECK] == rules.ITEM_DECK_KILLER_TOP_HALF
    slots = int(st[L.C_TOP_GROUP]) + 1 if top_group else n0
    out[L.S_KILLER_START] = int(rng.integers(1, slots + 1))


def _redraw_areas(st, out, rng):
    pool = int(sum(st[L.C_AREA_IN:L.C_AREA_IN + st[L.C_N_AREAS]]))
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
    for a in range(st[L.C_N_AREAS]):
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


def _recorder(name):
    """A policy that plays as registered policy ``name`` and, at a sampled share of its
    decisions, copies the state into a tape: its parameters are the policy's, then the
    sampling rates, then the tape's address (a policy's parameters are read-only to it, so the
    recorder writes where they point: test machinery, not a channel a fair player has)."""
    entry = get_policy(name)
    return _recorder_of(entry.decide, len(entry.default_params))


@functools.cache
def _recorder_of(decide, n_params):
    """The recorder around policy function ``decide``, compiled once per function (a name
    registered anew gets a recorder of its own): ``(record, n_params, rates_at, address_at,
    row)``."""
    from ..runner.kernels import as_function  # the kernels load when games are played
    inner = as_function(decide)
    rates_at = n_params
    address_at = rates_at + interface.N_DECISIONS
    row = POINT_HEADER + L.STATE_SIZE

    @closure_njit(interface.POLICY_SIGNATURE)
    def record(decision, player, arg, st, params):
        head = carray(pointer(np.int64(params[address_at])), (_CONTROL,), np.int64)
        count = head[0]
        head[0] = count + 1
        h = R.splitmix64(np.uint64(head[3]) ^ np.uint64(count))
        u = np.float64(h >> np.uint64(11)) / 9007199254740992.0
        k = head[1]
        take = u < params[rates_at + decision] and k < head[2]
        tape = carray(pointer(np.int64(params[address_at])), (_CONTROL + head[2] * row,),
                      np.int64)
        if take:
            at = _CONTROL + k * row
            tape[at] = decision
            tape[at + 1] = player
            tape[at + 2] = arg
            tape[at + POINT_HEADER:at + row] = st
            head[1] = k + 1
        answer = inner(decision, player, arg, st, params[:n_params])
        if take:
            tape[_CONTROL + k * row + 3] = answer
        return answer

    return record, n_params, rates_at, address_at, row


def decision_points(policy, config, games, seed=0, rates=None, capacity=2000, params=None,
                    first_game=0):
    """Decision points of ``games`` games of ``policy`` under ``config`` (games
    ``first_game ..`` of a run with ``seed``): an ``ndarray(int64, (n, POINT_HEADER +
    STATE_SIZE))`` of rows ``decision, player, arg, answer, state...``, each decision kept with
    probability ``rates[decision]`` (default: card play 0.03, every other decision 0.5), at
    most ``capacity`` of them, in the order they were asked. Played on one thread (the
    recorder's counters are shared)."""
    from ..runner.kernels import chunk  # the kernels load when games are played
    record, n_params, rates_at, address_at, row = _recorder(policy)
    vec = np.zeros(address_at + 1, dtype=np.float64)
    vec[:n_params] = param_vector(policy) if params is None else params
    r = np.full(interface.N_DECISIONS, 0.5)
    r[interface.PLAY_CARD] = 0.03
    if rates is not None:
        for k, v in dict(rates).items():
            r[k] = v
    vec[rates_at:address_at] = r
    tape = np.zeros(_CONTROL + capacity * row, dtype=np.int64)
    tape[:_CONTROL] = (0, 0, capacity, seed)
    vec[address_at] = tape.ctypes.data
    records = np.zeros((games, L.RECORD_SIZE), dtype=np.int32)
    cfg = config.to_array()
    drive(games, lambda start, n: chunk(record, cfg, vec, seed, first_game + start,
                                        records[start:start + n],
                                        0, 1), threads=1)
    n = int(tape[1])
    return tape[_CONTROL:_CONTROL + n * row].reshape(n, row).copy()


class _Checked:
    """A policy as the checker runs it: its decide function, its parameters (read-only, as
    the engine hands them over) and, for a Python player, the object that answers and the
    state its code shares beyond it (:func:`~slashersim.policies.reach.shared`)."""

    def __init__(self, policy, params):
        self.player = None
        self.shared = ()
        if isinstance(policy, _Checked):
            self.decide, self.params = policy.decide, policy.params
            self.player, self.shared = policy.player, policy.shared
            return
        if isinstance(policy, str):
            self.decide = get_policy(policy).decide
            if isinstance(self.decide, Pair):
                from ..runner.kernels import as_function  # a pair is compiled when it plays
                self.decide = as_function(self.decide)
            vec = param_vector(policy) if params is None else params
        elif hasattr(policy, "act") or _arity(policy) == 1:
            self.player = policy
            self.decide = _python_decide(answerer(policy))
            self.shared = tuple(shared(policy))
            vec = ()
        else:
            self.decide = policy
            vec = () if params is None else params
        self.params = np.array(vec, dtype=np.float64)
        self.params.flags.writeable = False

    def reach(self):
        """What a decision could write besides the state, by name: the parameters' bytes and,
        for a Python player, its object (its pickle, or for a function its closure and
        defaults) and each module global, class attribute and closure its code reaches."""
        out = {"params": self.params.tobytes()}
        if self.player is not None:
            out["its object"] = _snapshot(_own_parts(self.player))
        out.update((what, _snapshot(read())) for what, read in self.shared)
        return out


def _own_parts(player):
    if inspect.isfunction(player):
        return ([c.cell_contents for c in player.__closure__ or ()], player.__defaults__,
                player.__kwdefaults__)
    return player


def _snapshot(target):
    try:
        return pickle.dumps(target)
    except Exception:               # noqa: BLE001 (an object that cannot be pickled: copy it)
        return repr(copy.deepcopy(target).__dict__) if hasattr(target, "__dict__") \
            else repr(target)


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
        fill_view(decision, player, arg, full)
        obs = Observation(full[L.STATE_SIZE:REPORT_AT].copy())
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
    wrote: ``(answer, ((offset, value), ...))`` for every state slot it changed, and
    ``("params", None)`` or ``("its object", None)`` when it changed its parameters or (a
    Python player) its own object, ``("global mod.NOTES", None)``, ``("class attribute
    Player.seen", None)``, ... when it changed what its code shares beyond its object
    (:func:`~slashersim.policies.reach.shared`). The state is copied, never changed.
    ``policy`` is a registered name, a jitted policy function or a Python player."""
    checked = _Checked(policy, params)
    before = (point[POINT_HEADER:] if state is None else state).copy()
    st = before.copy()
    reach = checked.reach()
    answer = checked.decide(int(point[0]), int(point[1]), int(point[2]), st, checked.params)
    changed = np.flatnonzero(st != before)
    wrote = tuple((int(i), int(st[i])) for i in changed)
    after = checked.reach()
    wrote += tuple((what, None) for what, old in reach.items() if after[what] != old)
    return int(answer), wrote


def check_decisions(policy, points, redraws=2, seed=0, params=None):
    """The decision points (of :func:`decision_points`) where ``policy`` is not fair: a list
    of ``(index, decision name, what it did, what it did after a redraw)``, empty for a fair
    policy. A decision is unfair when its answer or anything it writes changes once the
    hidden channels are redrawn from the deciding player's view (both entries are then
    ``(answer, writes)``), or when it writes outside its stream and memory: another state
    slot, its parameters, or (a Python player) its own object or the module globals, class
    attributes and closures its code reaches, the channels by which one decision could pass
    on what it may not know, to a later decision or to the partner (then the third entry
    names them, ``wrote global mod.NOTES``, and the fourth is None)."""
    checked = _Checked(policy, params)
    rng = np.random.default_rng(seed)
    bad = []
    for i, point in enumerate(points):
        name = interface.DECISION_NAMES[int(point[0])]
        allowed = allowed_writes(int(point[1]))
        st = point[POINT_HEADER:]
        base = decide(checked, point)
        for k in range(redraws + 1):
            other = base if k == 0 else \
                decide(checked, point, redraw_hidden(st, int(point[1]), rng))
            stray = [off for off, _ in other[1] if off not in allowed]
            if stray:
                bad.append((i, name, "wrote " + ", ".join(
                    off if isinstance(off, str) else L.state_field(off) for off in stray), None))
                break
            if other != base:
                bad.append((i, name, base, other))
                break
    return bad
