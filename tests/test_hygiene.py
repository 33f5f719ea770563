"""Strict information hygiene: every fair policy decides identically when every hidden channel
is redrawn consistently with the deciding player's view (``slashersim.analysis.hygiene``), at
more than 1,000 decision points of its own games; and for each channel a test-only policy that
peeks at exactly that channel is caught by the same test."""
from pathlib import Path

from helpers import writable
from numba import njit
import numpy as np
import pytest

from slashersim.analysis import hygiene as Hy
from slashersim.core import layout as L
from slashersim.core.config import GameConfig
from slashersim.engine import interface
from slashersim.engine.bits import nth_bit, popcount
from slashersim.policies import POLICIES, param_vector
from slashersim.policies import exerciser as X

FAIR = [name for name, entry in POLICIES.items() if not entry.omniscient]
CONFIGS = (GameConfig(), GameConfig(edition="instructions", no_yellow_draw="may"),
           GameConfig(hideaway=True, health=4, escapes_needed=5, before_draw_items="both_players"))
#: cheap settings for the slow policies; the decision code is the same
FAST_PARAMS = {"search": {"samples": 6}, "belief": {"samples": 2}}


def points_of(policy, games, params=None):
    return np.concatenate([Hy.decision_points(policy, cfg, games, seed=11 + i, params=params)
                           for i, cfg in enumerate(CONFIGS)])


#: every fair policy with its defaults
CASES = [(name, FAST_PARAMS.get(name)) for name in FAIR]


@pytest.mark.parametrize("policy,overrides", CASES,
                         ids=[f"{n}-{'-'.join(f'{k}={v}' for k, v in (o or {}).items())}"
                              .rstrip("-") for n, o in CASES])
def test_fair_policies_decide_alike_whatever_the_hidden_cards(policy, overrides):
    params = param_vector(policy, overrides)
    games = 60 if policy == "search" else 250
    points = points_of(policy, games, params)
    assert len(points) >= 1000
    kinds = set(int(d) for d in points[:, 0])
    assert {interface.PLAY_CARD, interface.KEEP, interface.PHASE_START} <= kinds
    assert Hy.check_decisions(policy, points, params=params) == []


def test_a_mixed_pair_decides_alike_whatever_the_hidden_cards():
    """novice+expert: each seat's player sees only its own view through the pair (seat 0 the
    baseline, seat 1 the expert, each on its own seat's decisions)."""
    points = np.concatenate([Hy.decision_points("novice+expert", cfg, 40, seed=21 + i)
                             for i, cfg in enumerate(CONFIGS)])
    assert len(points) >= 500
    assert min((points[:, 1] == 0).sum(), (points[:, 1] == 1).sum()) > 200
    assert Hy.check_decisions("novice+expert", points) == []


# --- the test can fail: one peeking policy per hidden channel ----------------------------------
@njit
def peek_partner_hand(st, player):
    return st[L.S_HAND + 1 - player]


@njit
def peek_undealt(st, player):
    return st[L.S_TRUMP_DECK] & ~(1 << st[L.S_TRUMP_CARD])


@njit
def peek_deal_scratch(st, player):
    return st[L.S_PERM + 2] * 20 + st[L.S_PERM + 9]


@njit
def peek_first_yellows(st, player):
    return st[L.S_FIRST_YELLOWS + 1 - player] if st[L.S_ROUND] == 1 else -1


@njit
def peek_item_deck(st, player):
    n = st[L.S_DECK_N]
    return st[L.S_DECK + n - 1] + 13 * st[L.S_DECK + n // 2] if n > 0 else -1


@njit
def peek_partner_flashlight(st, player):
    total = -1
    for i in range(st[L.S_DECK_N]):
        mark = st[L.S_DECK_SEEN + i]
        if (mark >> (1 - player)) & 1 and not (mark >> player) & 1:
            total += (i + 1) * st[L.S_DECK + i]
    return total


@njit
def peek_killer_start(st, player):
    return st[L.S_KILLER_START]


@njit
def peek_area_order(st, player):
    return st[L.S_AREA_DECK + st[L.S_AREA_POS]] if st[L.S_AREA_POS] < st[L.S_AREA_N] else -1


@njit
def peek_arrows(st, player):
    total = 0
    for a in range(7):
        total = 2 * total + st[L.S_ARROW + a]
    return total


@njit
def peek_streams(st, player):
    return (st[L.S_RNG] ^ st[L.S_RNG + 1] ^ st[L.S_RNG + 2]) & 0xFFFF


@njit
def peek_partner_stream(st, player):
    """The shared-stream cheat: the partner's dice (its stream state tells its last draw)."""
    return st[L.S_PLAYER_RNG + 1 - player] & 0xFFFF


@njit
def peek_partner_memory(st, player):
    total = 0
    for i in range(L.MEMORY_SIZE):
        total ^= st[L.S_MEMORY + (1 - player) * L.MEMORY_SIZE + i]
    return total & 0xFFFF


CHEATERS = {"partner_hand": peek_partner_hand, "undealt": peek_undealt,
            "deal_scratch": peek_deal_scratch, "first_yellows": peek_first_yellows,
            "item_deck": peek_item_deck, "partner_flashlight": peek_partner_flashlight,
            "killer_start": peek_killer_start, "area_order": peek_area_order,
            "arrows": peek_arrows, "streams": peek_streams,
            "partner_stream": peek_partner_stream, "partner_memory": peek_partner_memory}
#: the channels in the order :func:`peek` numbers them
CHANNEL_ORDER = tuple(CHEATERS)


@njit
def peek(channel, st, player):
    """The value hidden channel number ``channel`` (of :data:`CHANNEL_ORDER`) shows
    ``player``."""
    if channel == 0:
        return peek_partner_hand(st, player)
    if channel == 1:
        return peek_undealt(st, player)
    if channel == 2:
        return peek_deal_scratch(st, player)
    if channel == 3:
        return peek_first_yellows(st, player)
    if channel == 4:
        return peek_item_deck(st, player)
    if channel == 5:
        return peek_partner_flashlight(st, player)
    if channel == 6:
        return peek_killer_start(st, player)
    if channel == 7:
        return peek_area_order(st, player)
    if channel == 8:
        return peek_arrows(st, player)
    if channel == 9:
        return peek_streams(st, player)
    if channel == 10:
        return peek_partner_stream(st, player)
    return peek_partner_memory(st, player)


@njit
def cheater(decision, player, arg, st, params):
    """The exerciser, except that its card play follows the value the hidden channel number
    ``params[0]`` shows: one policy, compiled once, peeking at the channel its parameter
    names (a parameter is public: it carries nothing hidden)."""
    if decision == interface.PLAY_CARD and popcount(arg) > 1:
        v = peek(np.int64(params[0]), st, player)
        if v >= 0:
            return nth_bit(arg, v % popcount(arg))
    return X.decide(decision, player, arg, st, params[:0])


def channel_params(channel):
    return np.array([CHANNEL_ORDER.index(channel)], dtype=np.float64)


@pytest.fixture(scope="module")
def exerciser_points():
    return points_of("exerciser", 400)


@pytest.fixture(scope="module")
def channel_points(exerciser_points):
    """The exerciser's points, and more card plays where the partner's Flashlight marks are
    still in the deck (rare: a few dozen in a thousand games): the cheaters peek when they
    play a card."""
    more = np.concatenate([Hy.decision_points("exerciser", cfg, 400, seed=11 + i,
                                              rates={interface.PLAY_CARD: 0.2}, capacity=4000)
                           for i, cfg in enumerate(CONFIGS)])
    marked = [p for p in more if peek_partner_flashlight(p[Hy.POINT_HEADER:], int(p[1])) >= 0]
    return np.concatenate([exerciser_points, np.array(marked)])


def test_every_hidden_channel_has_a_cheater():
    assert set(CHEATERS) == set(Hy.CHANNELS)


def test_the_cheater_peeks_at_the_channel_its_parameter_names(channel_points):
    for k, name in enumerate(CHANNEL_ORDER):
        for p in channel_points[::50]:
            st, player = p[Hy.POINT_HEADER:], int(p[1])
            assert peek(k, st, player) == CHEATERS[name](st, player), name


@pytest.mark.parametrize("channel", sorted(CHEATERS))
def test_a_policy_peeking_at_one_channel_is_caught(channel, channel_points):
    bad = Hy.check_decisions(cheater, channel_points, params=channel_params(channel))
    assert bad, channel


# --- what a decision writes ----------------------------------------------------------------------
@njit
def hides_hands_in_a_spare_slot(decision, player, arg, st, params):
    """The hidden-memory cheat: fair answers, but both hands written into a state slot the
    engine does not use at this point."""
    st[L.S_PEEK + 2] = st[L.S_HAND] ^ (st[L.S_HAND + 1] << 20)
    return X.decide(decision, player, arg, st, params)


@njit
def launders_through_memory(decision, player, arg, st, params):
    """Fair answers, but the partner's hand written into the player's own memory, for a later
    decision to read."""
    st[L.S_MEMORY + player * L.MEMORY_SIZE] = st[L.S_HAND + 1 - player]
    return X.decide(decision, player, arg, st, params)


@njit
def launders_through_its_stream(decision, player, arg, st, params):
    """Fair answers, but the partner's hand folded into the player's own random stream."""
    st[L.S_RNG + L.POLICY] ^= st[L.S_HAND + 1 - player]
    return X.decide(decision, player, arg, st, params)


@njit
def counts_its_decisions(decision, player, arg, st, params):
    """Fair: its memory holds what it may know (how many decisions it took, its last hand)."""
    mine = L.S_MEMORY + player * L.MEMORY_SIZE
    st[mine] += 1
    st[mine + 1] = st[L.S_HAND + player]
    return X.decide(decision, player, arg, st, params)


def test_a_write_outside_stream_and_memory_is_named(exerciser_points):
    bad = Hy.check_decisions(hides_hands_in_a_spare_slot, exerciser_points)
    assert len(bad) >= 1000
    assert all(b[2] == "wrote peek[2]" and b[3] is None for b in bad)


@pytest.mark.parametrize("cheat", [launders_through_memory, launders_through_its_stream],
                         ids=["memory", "stream"])
def test_laundering_what_it_may_not_know_is_caught(cheat, exerciser_points):
    bad = Hy.check_decisions(cheat, exerciser_points)
    assert len(bad) >= 1000
    assert bad[0][2][0] == bad[0][3][0]            # the same answer, other writes


def test_memory_of_what_it_may_know_is_fair(exerciser_points):
    assert Hy.check_decisions(counts_its_decisions, exerciser_points) == []


def notebook_players():
    """The players ``notebooks/your_own_player.py`` defines (its imports, functions and
    classes, without running its cells)."""
    import ast
    from pathlib import Path
    import sys
    folder = Path(__file__).resolve().parents[1] / "notebooks"
    source = folder / "your_own_player.py"
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    tree = ast.parse(source.read_text())
    keep = [n for n in tree.body
            if isinstance(n, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef))]
    namespace = {}
    exec(compile(ast.Module(keep, []), str(source), "exec"), namespace)
    return [v for v in namespace.values() if isinstance(v, type) and hasattr(v, "act")]


def test_the_example_players_are_fair():
    """The worked compiled example, its Python twin and the notebook's Python player, each on
    1,000 decision points or more in three configurations."""
    from pathlib import Path
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from test_player import CautiousInPython

    from examples.cautious import decide as cautious
    points = points_of("exerciser", 250)
    assert len(points) >= 1000
    players = [cautious, CautiousInPython(), *(cls() for cls in notebook_players())]
    assert len(players) >= 3
    for player in players:
        assert Hy.check_decisions(player, points) == [], player


def test_the_points_hold_cards_the_partners_flashlight_saw(exerciser_points):
    """The partner_flashlight cheater is caught on positions where the partner's Flashlight
    marks are still in the deck, not only by accident."""
    marked = [p for p in exerciser_points
              if peek_partner_flashlight(p[Hy.POINT_HEADER:], int(p[1])) >= 0]
    assert len(marked) >= 5


def test_the_redraw_keeps_the_view():
    """What the player sees survives a redraw: its hand, the table, the piles, the deck's
    contents, the slots its Flashlight saw, the areas turned up; the partner's hand keeps its
    size and avoids the suits the partner showed void in."""
    rng = np.random.default_rng(3)
    points = points_of("exerciser", 60)
    changed = 0
    for p in points:
        st = p[Hy.POINT_HEADER:]
        me = int(p[1])
        other = Hy.redraw_hidden(st, me, rng)
        for f in (L.S_HAND + me, L.S_PLAYED, L.S_TRUMP_CARD, L.S_DECK_N, L.S_DISCARD_N,
                  L.S_HELD, L.S_HELD + 1, L.S_AREA, L.S_AREA_POS, L.S_RNG + 3):
            assert other[f] == st[f]
        n = int(st[L.S_DECK_N])
        assert sorted(other[L.S_DECK:L.S_DECK + n]) == sorted(st[L.S_DECK:L.S_DECK + n])
        for i in range(n):
            if (st[L.S_DECK_SEEN + i] >> me) & 1:
                assert other[L.S_DECK + i] == st[L.S_DECK + i]
        assert list(other[L.S_AREA_DECK:L.S_AREA_DECK + int(st[L.S_AREA_POS])]) == \
            list(st[L.S_AREA_DECK:L.S_AREA_DECK + int(st[L.S_AREA_POS])])
        hand = int(other[L.S_HAND + 1 - me])
        assert popcount(hand) == popcount(st[L.S_HAND + 1 - me])
        _, voids = Hy.played_by(st)
        for s in range(4):
            if (voids[me] >> s) & 1:
                assert not (hand >> (5 * s)) & 31
        assert hand | int(other[L.S_TRUMP_DECK]) == hand ^ int(other[L.S_TRUMP_DECK])
        changed += hand != st[L.S_HAND + 1 - me]
    assert changed > 100


# --- channels a cheater could build, each closed -------------------------------------------------
_MASK64 = (1 << 64) - 1
_GOLDEN, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_PCG_MULT, _PCG_INC = 6364136223846793005, 1442695040888963407


def _splitmix64(x):
    z = (x + _GOLDEN) & _MASK64
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
    return z ^ (z >> 31)


def _unshift(y, s):
    x = y
    for _ in range(64 // s + 1):
        x = y ^ (x >> s)
    return x


def _unsplitmix64(z):
    """SplitMix64 is a bijection: its inverse, as a cheater would write it."""
    z = _unshift(z, 31)
    z = (z * pow(_MIX2, -1, 1 << 64)) & _MASK64
    z = _unshift(z, 27)
    z = (z * pow(_MIX1, -1, 1 << 64)) & _MASK64
    z = _unshift(z, 30)
    return (z - _GOLDEN) & _MASK64


def _pcg_back(state, steps):
    """PCG32's state ``steps`` draws earlier: its step is an affine map mod 2**64."""
    inverse = pow(_PCG_MULT, -1, 1 << 64)
    for _ in range(steps):
        state = ((state - _PCG_INC) * inverse) & _MASK64
    return state


def _chained_seed(seed, game, stream):
    """How the streams were seeded before they were seeded one-way: SplitMix64 chained."""
    h = _splitmix64(_splitmix64(seed & _MASK64) ^ game)
    return _splitmix64(h ^ stream)


def _walk_back(own_first, own_stream):
    """The walk back from a player's own stream to the game's root, then to every stream."""
    root = _unsplitmix64(own_first) ^ own_stream
    return [_splitmix64(root ^ k) for k in range(L.N_STREAMS)]


def test_the_walk_back_from_the_own_stream_finds_no_other_stream():
    """A player may read its own stream, and PCG32 steps back to its first state exactly; under
    the old chained seeding, inverting the seeding from there gave the game's root and every
    other stream (the partner's hand, the decks, every future deal). Under the one-way seeding
    the same walk finds none of them."""
    from slashersim.engine import rng as R
    found_old = found_new = 0
    for seed in (0, 7, 2026, 2**40 + 3):
        for game in range(40):
            for p in (0, 1):
                own = R.POLICY + p
                old = [_chained_seed(seed, game, k) for k in range(L.N_STREAMS)]
                found_old += _walk_back(old[own], own) == old
                new = [int(R.stream_seed(seed, game, k)) for k in range(L.N_STREAMS)]
                guess = _walk_back(new[own], own)
                found_new += sum(g == t for k, (g, t) in enumerate(zip(guess, new)) if k != own)
    assert found_old == 4 * 40 * 2
    assert found_new == 0


def test_a_players_stream_steps_back_to_its_first_state():
    """The step back the cheater relies on works: so the own stream's first state is what a
    player may learn, and the seeding above is what must keep it from the others."""
    from slashersim.engine import rng as R
    st = np.zeros(L.STATE_SIZE, dtype=np.int64)
    first = int(R.stream_seed(3, 5, R.POLICY))
    st[L.S_RNG + R.POLICY] = np.int64(np.uint64(first))
    for _ in range(37):
        R.rand_below(st, R.POLICY, 20)
    assert _pcg_back(int(np.uint64(st[L.S_RNG + R.POLICY])), 37) == first


def test_the_seeding_is_siphash_2_4():
    """The one-way step is SipHash-2-4: the reference test vector of a 16-byte message."""
    from slashersim.engine import rng as R
    k0, k1 = np.uint64(0x0706050403020100), np.uint64(0x0F0E0D0C0B0A0908)
    assert int(R.siphash24(k0, k1, k0, k1)) == 0x3F2ACC7F57C29BDB


def test_a_policy_that_writes_its_parameters_does_not_compile():
    """The blackboard: both seats and every game of a block share one parameter vector, so a
    player that wrote its hand there could read its partner's. The engine hands parameters
    over read-only, and numba refuses the write."""
    from numba.core.errors import TypingError

    def blackboard(decision, player, arg, st, params):
        params[player] = st[L.S_HAND + player]
        return X.decide(decision, player, arg, st, params)

    with pytest.raises(TypingError):
        njit(interface.POLICY_SIGNATURE)(blackboard)


@njit
def blackboard_through_a_pointer(decision, player, arg, st, params):
    """The blackboard again, past the compiler: a writable array made from the parameters'
    address (what native code can always do); its card play follows the partner's note."""
    board = writable(params)
    board[player] = st[L.S_HAND + player]
    note = np.int64(board[1 - player])
    if decision == interface.PLAY_CARD and popcount(arg) > 1 and note > 0:
        return nth_bit(arg, note % popcount(arg))
    return X.decide(decision, player, arg, st, params)


def test_a_blackboard_in_the_parameters_is_caught(exerciser_points):
    bad = Hy.check_decisions(blackboard_through_a_pointer, exerciser_points, params=np.zeros(2))
    assert len(bad) >= 1000
    assert all(b[2] == "wrote params" for b in bad)


class SharedNotes:
    """One Python object for both seats would be a blackboard: each seat notes its hand in an
    attribute and reads its partner's. Each seat of each game plays its own copy, so there is
    never a partner's note to read; ``SEEN`` counts the decisions that found one."""

    SEEN = []

    def __init__(self):
        self.notes = {}

    def act(self, obs):
        self.notes[obs.player] = obs.hand
        partner = self.notes.get(1 - obs.player)
        if partner is not None:
            SharedNotes.SEEN.append(partner)
        return obs.legal[len(partner or ()) % len(obs.legal)]


def test_one_python_object_never_plays_both_seats():
    from slashersim import simulate
    SharedNotes.SEEN.clear()
    r = simulate(policy=SharedNotes(), games=20, seed=3)
    assert r.games == 20
    assert SharedNotes.SEEN == []


def test_a_python_player_that_writes_its_object_is_caught(exerciser_points):
    """Within a seat, an attribute would be memory the redraws cannot reach: a decision that
    changes the player's own object is named."""
    bad = Hy.check_decisions(SharedNotes(), exerciser_points[:50])
    seen = "class attribute SharedNotes.SEEN"     # the test's counter, shared by every copy
    assert {b[2] for b in bad} == {"wrote its object", f"wrote its object, {seen}",
                                   f"wrote {seen}"}


#: what each seat of the cheater below saw: a module's dict, which every copy of it reaches
NOTES = {}
#: the partner's notes the cheater found when it played a card, in real games
FOUND = []


class ReadsPartnersNotes:
    """The module-level channel: at every decision it notes its hand in the module's
    ``NOTES``, and when it plays a card it reads its partner's note and leads a suit the
    partner holds (the lowest card otherwise). Copying the object per seat does not close it:
    the dict is the module's."""

    def act(self, obs):
        NOTES[obs.player] = obs.hand
        partner = NOTES.get(1 - obs.player)
        if obs.kind != "play_card":
            return obs.legal[0]
        suits = {c // 5 for c in partner or ()}
        return min([c for c in obs.legal if c // 5 in suits] or obs.legal)


class NotesInItsClass:
    """The same channel in a class attribute, which no copy of the object copies."""

    notes = {}

    def act(self, obs):
        self.notes[obs.player] = obs.hand
        partner = self.notes.get(1 - obs.player, ())
        return obs.legal[sum(partner) % len(obs.legal)]


class NotesInADefault:
    """The same channel in a method's default, which belongs to the class's function."""

    def act(self, obs, notes={}):  # noqa: B006 (the channel under test)
        notes[obs.player] = obs.hand
        partner = notes.get(1 - obs.player, ())
        return obs.legal[sum(partner) % len(obs.legal)]


def note_the_last_hand(obs):
    """The same channel in a global the player binds anew at each decision."""
    global LAST_HAND
    seen = globals().get("LAST_HAND", ())
    LAST_HAND = obs.hand
    return obs.legal[sum(seen) % len(obs.legal)]


class CountsWhatItFinds(ReadsPartnersNotes):
    """The cheater, noting in ``FOUND`` each partner's note it found when it played a card."""

    def act(self, obs):
        if obs.kind == "play_card" and 1 - obs.player in NOTES:
            FOUND.append(NOTES[1 - obs.player])
        return super().act(obs)


def test_a_module_level_dict_reaches_the_partner_in_real_games():
    """The threat: played by ``simulate`` (each seat on its own copy), the cheater finds its
    partner's notes at its card plays."""
    from slashersim import simulate
    NOTES.clear()
    FOUND.clear()
    assert simulate(policy=CountsWhatItFinds(), games=10, seed=3).games == 10
    assert len(FOUND) > 100


@pytest.mark.parametrize("cheat,channel,per_seat", [
    (ReadsPartnersNotes(), f"global {__name__}.NOTES", True),
    (NotesInItsClass(), "class attribute NotesInItsClass.notes", True),
    (NotesInADefault(), "defaults of NotesInADefault.act", True),
    (note_the_last_hand, f"global {__name__}.LAST_HAND", False),
], ids=["module dict", "class attribute", "method's default", "global"])
def test_a_channel_in_module_or_class_state_is_caught(cheat, channel, per_seat,
                                                      exerciser_points):
    """What the player's code shares beyond its object is held like the object: a decision
    that writes it is named, at exactly the decision points (checked in order) where the hand
    it notes differs from the one noted before (by the same seat, for a note per seat)."""
    NOTES.clear()
    globals().pop("LAST_HAND", None)
    NotesInItsClass.notes.clear()
    NotesInADefault.act.__defaults__[0].clear()
    points = exerciser_points[:200]
    noted, changed = {}, []
    for i, p in enumerate(points):
        seat = int(p[1]) if per_seat else 0
        hand = int(p[Hy.POINT_HEADER + L.S_HAND + int(p[1])])
        if noted.get(seat) != hand:
            changed.append(i)
        noted[seat] = hand
    bad = Hy.check_decisions(cheat, points)
    assert [b[0] for b in bad] == changed and len(changed) > 100
    assert {b[2] for b in bad} == {f"wrote {channel}"} and all(b[3] is None for b in bad)


def test_the_killer_start_is_redrawn_after_a_flashlight_moved_the_killer():
    """The position the review found: the partner's Flashlight put the Killer under the deck and
    the top group has been drawn past; the start was left as it was. Built by hand from a
    rulebook game's first decision: the Killer at the bottom, 5 cards drawn of a top group of
    7 slots."""
    st = next(p[Hy.POINT_HEADER:] for p in points_of("exerciser", 10)
              if p[Hy.POINT_HEADER + L.C_ITEM_DECK] == 0 and p[Hy.POINT_HEADER + L.S_ROUND] == 1
              and p[Hy.POINT_HEADER + L.S_KILLER_DRAWS] == 0).copy()
    from slashersim.core import rules
    assert st[L.C_ITEM_DECK] == rules.ITEM_DECK_KILLER_TOP_HALF
    n = int(st[L.S_DECK_N])
    deck = [int(c) for c in st[L.S_DECK:L.S_DECK + n] if c != rules.KILLER]
    kept = deck[-(n - 6):]
    st[L.S_DECK:L.S_DECK + len(kept) + 1] = [rules.KILLER, *kept]
    st[L.S_DECK_N] = len(kept) + 1
    st[L.S_DECK_SEEN:L.S_DECK_SEEN + len(kept) + 1] = 0
    st[L.S_DECK_SEEN] = 1 << (1 - 0)          # the partner's Flashlight saw the bottom card
    st[L.S_KILLER_START] = 2
    rng = np.random.default_rng(0)
    starts = {int(Hy.redraw_hidden(st, 0, rng)[L.S_KILLER_START]) for _ in range(40)}
    assert len(starts) > 1 and starts <= set(range(1, 8))


# --- fair under a changed card -------------------------------------------------------------------
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize("policy", [p for p in FAIR if p != "search"])
@pytest.mark.parametrize("card", ["bog.toml", "energy_bar.toml", "../tests/data/cards_added.toml"])
def test_fair_policies_are_fair_under_the_how_tos_cards(policy, card):
    """A card file changes what the players read (the hooks, an item's kind), never what they
    may see; the area decks hold the changed card and few others, so its rounds are many (and
    cards added beside the printed ones are cards like them)."""
    config = GameConfig(cards=str(EXAMPLES / card), removed_areas=("tent_site", "lodge"))
    points = Hy.decision_points(policy, config, 120, seed=5)
    assert len(points) >= 300
    assert Hy.check_decisions(policy, points) == []


def test_a_name_registered_anew_is_recorded_as_its_new_player():
    """The recorder of a name is the recorder of the player registered under it now, not of
    one registered under that name before."""
    from slashersim.policies import PolicySpec, get_policy, registered
    with registered("someone", PolicySpec(".baseline")):
        first = Hy._recorder("someone")
    with registered("someone", PolicySpec(".exerciser")):
        assert get_policy("someone").decide is get_policy("exerciser").decide
        second = Hy._recorder("someone")
        assert second[0] is not first[0]
        assert Hy._recorder("someone") is second
