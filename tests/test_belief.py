"""The belief player's reading of its partner's leads, and the open-hands yardstick.

The belief is checked on hand-built positions against a brute force: every deal of the cards
the follower did not see, replayed through the blueprint. The player's fairness at large is
``test_hygiene.py``'s (it runs on every fair registered player)."""
from itertools import combinations
import json

from helpers import c, cards, run_python
import numpy as np
from test_policies import lead, play_state

from slashersim.analysis import hygiene as Hy
from slashersim.core import layout as L
from slashersim.core.rules import GREEN, RED, WHITE, YELLOW
from slashersim.engine import interface
from slashersim.engine.tricks import legal_cards
from slashersim.policies import belief as B
from slashersim.policies import blueprint as BP
from slashersim.policies import is_omniscient, open_hands, param_vector

PARAMS = param_vector("belief", {"samples": 2})
ALL = (1 << 20) - 1

#: player 0's hand; the partner (1) leads trick 1 from the others (the trump deck's face-up card
#: is the lowest card left over)
MINE = cards(c(GREEN, 1), c(GREEN, 4), c(YELLOW, 2), c(YELLOW, 5), c(RED, 1), c(RED, 3),
             c(WHITE, 2), c(WHITE, 5))
THEIRS = cards(c(GREEN, 2), c(GREEN, 5), c(YELLOW, 1), c(YELLOW, 3), c(RED, 4), c(RED, 5),
               c(WHITE, 3), c(WHITE, 4))


def bits(mask):
    return [k for k in range(20) if (int(mask) >> k) & 1]


def led_position(seed=0, mine=MINE, theirs=THEIRS):
    """The partner (1) has led its blueprint card to trick 1; player 0 is to answer."""
    st = play_state(seed=seed, hands=(mine, theirs), leader=1)
    st[L.S_ROUND] = 1
    card = BP.card(st, 1, st[L.S_HAND + 1], PARAMS)
    lead(st, card)
    return st, card


def consistent_hands(st, card):
    """Brute force: the partner's hands now, over every deal of the 11 cards player 0 did not
    see, on which the blueprint leads ``card``."""
    universe = ALL & ~int(st[L.S_HAND]) & ~int(st[L.S_PLAYED]) & ~(1 << int(st[L.S_TRUMP_CARD]))
    universe |= 1 << card
    before = st.copy()
    before[L.S_LED] = -1
    before[L.S_PLAYED] &= ~(1 << card)
    kept = set()
    public = 0
    for hidden in combinations(bits(universe), 3):
        hand = universe & ~sum(1 << k for k in hidden)
        if not (hand >> card) & 1:
            continue
        public += 1
        before[L.S_HAND + 1] = hand
        if BP.card(before, 1, hand, PARAMS) == card:
            kept.add(hand & ~(1 << card))
    return kept, public


def belief_of(st):
    hands = np.empty(B.N_DEALS, dtype=np.int64)
    k = B.belief_hands(st, 0, True, hands)
    return set(int(h) for h in hands[:k])


def test_the_lead_keeps_exactly_the_hands_the_blueprint_leads_it_from():
    st, card = led_position()
    B.read_lead(st, 0, PARAMS)
    kept, public = consistent_hands(st, card)
    assert public == 120                      # the 8 of 11 unseen cards that hold the lead
    assert 0 < len(kept) < public             # the lead told something
    assert belief_of(st) == kept
    assert int(st[L.S_HAND + 1]) in kept      # the partner's true hand is never ruled out
    memory = st[L.S_MEMORY:L.S_MEMORY + L.MEMORY_SIZE].copy()
    B.read_lead(st, 0, PARAMS)                # a lead is read once
    assert (st[L.S_MEMORY:L.S_MEMORY + L.MEMORY_SIZE] == memory).all()
    assert not st[L.S_MEMORY + L.MEMORY_SIZE:L.S_MEMORY + 2 * L.MEMORY_SIZE].any()


def test_a_lead_no_hand_explains_is_not_read_and_a_new_round_forgets():
    st, card = led_position()
    other = next(k for k in bits(st[L.S_HAND + 1]) if k != card)
    st[L.S_HAND + 1] |= 1 << card
    st[L.S_PLAYED] &= ~(1 << card)
    st[L.S_PLAY_LOG] = other
    st[L.S_PLAYED] |= 1 << other
    st[L.S_HAND + 1] &= ~(1 << other)
    st[L.S_LED] = other
    kept, public = consistent_hands(st, other)
    B.read_lead(st, 0, PARAMS)
    assert belief_of(st) == kept if kept else len(belief_of(st)) == public
    st[L.S_ROUND] = 2
    hands = np.empty(B.N_DEALS, dtype=np.int64)
    assert B.belief_hands(st, 0, True, hands) == public


def test_the_yardstick_reads_the_partner_hand_and_is_registered_omniscient():
    """open_hands answers differently when only the partner's hand changes; belief does not.
    Its card is played in Python over the belief player's compiled search, so that the suite
    does not compile the yardstick of its own."""
    yardstick = getattr(open_hands.play_card, "py_func", open_hands.play_card)
    assert is_omniscient("open_hands") and not is_omniscient("belief")
    params = param_vector("open_hands", {"samples": 2})
    rng = np.random.default_rng(0)
    differs = 0
    for seed in range(12):
        st = play_state(seed=seed, leader=1)
        st[L.S_ROUND] = 1
        lead(st, BP.card(st, 1, st[L.S_HAND + 1], PARAMS))
        legal = legal_cards(st[L.S_HAND], st[L.S_LED])
        if not legal & (legal - 1):
            continue
        other = Hy.redraw_hidden(st, 0, rng)
        answers = [yardstick(s.copy(), 0, legal, params) for s in (st, other)]
        differs += answers[0] != answers[1]
        mine = [B.decide(interface.PLAY_CARD, 0, legal, s.copy(), PARAMS) for s in (st, other)]
        assert mine[0] == mine[1]
    assert differs > 0


_JIT_SCRIPT = """
import json
import numpy as np
from slashersim.policies import belief as B
from test_belief import PARAMS, led_position
st, card = led_position()
B.read_lead(st, 0, PARAMS)
hands = np.empty(B.N_DEALS, dtype=np.int64)
k = B.belief_hands(st, 0, True, hands)
print(json.dumps(sorted(int(h) for h in hands[:k])))
"""


def test_numba_on_and_off_read_the_lead_alike():
    script = "import sys; sys.path.insert(0, 'tests')\n" + _JIT_SCRIPT
    jit, py = (json.loads(run_python(script, off)) for off in (False, True))
    assert jit == py
