"""Strict information hygiene: every fair policy decides identically when every hidden channel
is redrawn consistently with the deciding player's view (``slashersim.testing``), at more than
1,000 decision points of its own games; and for each channel a test-only policy that peeks at
exactly that channel is caught by the same test."""
from numba import njit
import numpy as np
import pytest

from slashersim import testing as Hy
from slashersim.config import GameConfig
from slashersim.engine import api
from slashersim.engine import layout as L
from slashersim.engine.bits import nth_bit, popcount
from slashersim.policies import POLICIES, param_vector
from slashersim.policies import exerciser as X

FAIR = [name for name, entry in POLICIES.items() if not entry.omniscient]
CONFIGS = (GameConfig(), GameConfig(edition="instructions"),
           GameConfig(hideaway=True, health=4, escapes_needed=5))
#: cheap settings for the slow policies; the decision code is the same
FAST_PARAMS = {"search": {"samples": 6}}


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
    assert {api.PLAY_CARD, api.KEEP, api.PHASE_START} <= kinds
    assert Hy.check_decisions(policy, points, params=params) == []


# --- the test can fail: one peeking policy per hidden channel ----------------------------------
@njit
def _other(st, player):
    return 1 - player


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


def cheater(peek):
    """The exerciser, except that its card play follows ``peek``'s hidden value."""
    @njit(api.POLICY_SIGNATURE)
    def cheat(decision, player, arg, st, params):
        if decision == api.PLAY_CARD and popcount(arg) > 1:
            v = peek(st, player)
            if v >= 0:
                return nth_bit(arg, v % popcount(arg))
        return X.decide(decision, player, arg, st, params)
    return cheat


CHEATERS = {"partner_hand": peek_partner_hand, "undealt": peek_undealt,
            "deal_scratch": peek_deal_scratch, "first_yellows": peek_first_yellows,
            "item_deck": peek_item_deck, "partner_flashlight": peek_partner_flashlight,
            "killer_start": peek_killer_start, "area_order": peek_area_order,
            "arrows": peek_arrows, "streams": peek_streams,
            "partner_stream": peek_partner_stream, "partner_memory": peek_partner_memory}


@pytest.fixture(scope="module")
def exerciser_points():
    return points_of("exerciser", 400)


def test_every_hidden_channel_has_a_cheater():
    assert set(CHEATERS) == set(Hy.CHANNELS)


@pytest.mark.parametrize("channel", sorted(CHEATERS))
def test_a_policy_peeking_at_one_channel_is_caught(channel, exerciser_points):
    bad = Hy.check_decisions(cheater(CHEATERS[channel]), exerciser_points)
    assert bad, channel


# --- what a decision writes ----------------------------------------------------------------------
@njit(api.POLICY_SIGNATURE)
def hides_hands_in_a_spare_slot(decision, player, arg, st, params):
    """The hidden-memory cheat: fair answers, but both hands written into a state slot the
    engine does not use at this point."""
    st[L.S_PEEK + 2] = st[L.S_HAND] ^ (st[L.S_HAND + 1] << 20)
    return X.decide(decision, player, arg, st, params)


@njit(api.POLICY_SIGNATURE)
def launders_through_memory(decision, player, arg, st, params):
    """Fair answers, but the partner's hand written into the player's own memory, for a later
    decision to read."""
    st[L.S_MEMORY + player * L.MEMORY_SIZE] = st[L.S_HAND + 1 - player]
    return X.decide(decision, player, arg, st, params)


@njit(api.POLICY_SIGNATURE)
def launders_through_its_stream(decision, player, arg, st, params):
    """Fair answers, but the partner's hand folded into the player's own random stream."""
    st[L.S_RNG + L.POLICY] ^= st[L.S_HAND + 1 - player]
    return X.decide(decision, player, arg, st, params)


@njit(api.POLICY_SIGNATURE)
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
