"""Unit tests of the engine kernels against the rules (docs/rules.md).

Every expected value is worked out by hand from the rules, never taken from the engine. States
are built with the small helpers below; scripted decisions come from ``scripted``
(tests/scripted.py, shared with test_item_rules), a policy whose answers are read from its
``params`` vector (see ``script``), so every kernel that takes a policy is compiled once for it.

Conventions of the engine used here: the item deck is ``st[S_DECK : S_DECK + st[S_DECK_N]]``
with index 0 the BOTTOM; the helpers take and return decks TOP FIRST.
"""
from collections import Counter

from helpers import (
    c,
    cards,
    deck,
    discard,
    drawn,
    held,
    hold,
    is_out,
    make_state,
    set_deck,
    set_discard,
    set_drawn,
)
import numpy as np
import pytest
from scripted import draw_cards, script, scripted

from slashersim.core import layout as L
from slashersim.core import rules as R
from slashersim.core.config import ConfigError, GameConfig
from slashersim.core.rules import (
    BACKPACK,
    BASEBALL_BAT,
    BOLT_CUTTERS,
    CABINS,
    CAR_KEY,
    CURSED_OBJECT,
    FIRE_PIT,
    FIRST_AID_LARGE,
    FIRST_AID_SMALL,
    FLASHLIGHT,
    GASOLINE,
    GREEN,
    HIDEAWAY,
    JUNK,
    KILLER,
    LAKESIDE,
    LODGE,
    LUCKY_CHARM,
    MAP,
    RED,
    TENT_SITE,
    WALKIE_TALKIE,
    WHITE,
    WOODLAND,
    YELLOW,
)
from slashersim.engine import deal, game, interface, items, predicates, steps, tricks

COL_R, COL_Y, COL_G = R.COLOUR_RED, R.COLOUR_YELLOW, R.COLOUR_GREEN
NO_PARAMS = np.zeros(0)
NO_PARAMS.flags.writeable = False      # as the engine hands parameters to a policy


# ==========================================================================================
# Tricks
# ==========================================================================================
def test_follow_suit_higher_rank_wins():
    assert tricks.trick_winner(c(GREEN, 3), c(GREEN, 5), RED) == 1
    assert tricks.trick_winner(c(GREEN, 5), c(GREEN, 3), RED) == 0


def test_off_suit_card_loses():
    assert tricks.trick_winner(c(GREEN, 1), c(YELLOW, 5), RED) == 0
    assert tricks.trick_winner(c(YELLOW, 2), c(WHITE, 5), GREEN) == 0


def test_trump_beats_led_suit():
    assert tricks.trick_winner(c(GREEN, 5), c(RED, 1), RED) == 1      # follower trumps in
    assert tricks.trick_winner(c(RED, 1), c(GREEN, 5), RED) == 0      # leader's trump holds


def test_both_trump_higher_trump_wins():
    assert tricks.trick_winner(c(RED, 2), c(RED, 4), RED) == 1
    assert tricks.trick_winner(c(RED, 4), c(RED, 2), RED) == 0


def test_white_can_be_trump():
    assert tricks.trick_winner(c(YELLOW, 5), c(WHITE, 1), WHITE) == 1
    assert tricks.trick_winner(c(WHITE, 1), c(YELLOW, 5), WHITE) == 0
    # white led but not trump: an off-suit non-trump card still loses
    assert tricks.trick_winner(c(WHITE, 1), c(YELLOW, 5), GREEN) == 0


def test_legal_cards_must_follow_suit():
    hand = cards(c(GREEN, 2), c(GREEN, 4), c(RED, 5), c(WHITE, 1))
    assert tricks.legal_cards(hand, -1) == hand                       # leader: anything
    assert tricks.legal_cards(hand, c(GREEN, 1)) == cards(c(GREEN, 2), c(GREEN, 4))
    assert tricks.legal_cards(hand, c(YELLOW, 3)) == hand             # void: anything


def test_trick_winner_takes_both_cards_and_leads_next():
    st = make_state(area=CABINS)
    st[L.S_TRUMP] = GREEN
    st[L.S_TRICK_LEADER] = 1
    st[L.S_HAND + 1] = cards(c(GREEN, 1), c(YELLOW, 2))
    st[L.S_HAND + 0] = cards(c(GREEN, 3), c(RED, 5))
    # scripted plays the lowest legal card: player 1 leads green 1, player 0 must follow green
    assert steps.play_trick(scripted, st, script()) == 0
    assert st[L.S_WON + 0] == cards(c(GREEN, 1), c(GREEN, 3))
    assert st[L.S_WON + 1] == 0
    assert st[L.S_TRICKS + 0] == 1 and st[L.S_TRICKS + 1] == 0
    assert st[L.S_TRICK_LEADER] == 0
    assert st[L.S_TRICK] == 1
    assert st[L.S_HAND + 0] == cards(c(RED, 5)) and st[L.S_HAND + 1] == cards(c(YELLOW, 2))


# --- area rules ------------------------------------------------------------------------
def _by_tricks_won(area, tricks0, tricks1, played):
    """The area card's rule on the tricks won, as the engine reads it from the printed cards."""
    assert played == tricks0 + tricks1
    return tricks.area_breached_by_tricks_won(make_state(), area, tricks0, tricks1)


def _by_trick(area, lead, follow, won):
    """The area card's trick rule, as the engine reads it; ``won``, the card that wins, is the
    winner under a trump that neither card is (which only the Fire pit reads)."""
    st = make_state()
    st[L.S_TRUMP] = next(t for t in range(4) if t not in (lead // 5, follow // 5))
    assert won == (follow if predicates.trick_winner(lead, follow, st[L.S_TRUMP]) else lead) \
        or area != FIRE_PIT
    return tricks.area_breached_by_trick(st, area, lead, follow)


def test_tent_site_breached_by_odd_tricks_after_trick_8_only():
    f = _by_tricks_won
    assert f(TENT_SITE, 5, 3, 8)
    assert f(TENT_SITE, 1, 7, 8)
    assert not f(TENT_SITE, 4, 4, 8)
    assert not f(TENT_SITE, 8, 0, 8)
    assert not f(TENT_SITE, 5, 2, 7)          # odd before the end does not count


def test_lodge_breached_by_even_tricks_after_trick_8_only():
    f = _by_tricks_won
    assert f(LODGE, 4, 4, 8)
    assert f(LODGE, 8, 0, 8)
    assert f(LODGE, 0, 8, 8)
    assert not f(LODGE, 5, 3, 8)
    assert not f(LODGE, 4, 2, 6)


def test_lakeside_breached_by_rank_difference_over_2():
    f = _by_trick
    assert f(LAKESIDE, c(GREEN, 1), c(GREEN, 4), c(GREEN, 4))
    assert f(LAKESIDE, c(RED, 5), c(WHITE, 1), c(RED, 5))
    assert not f(LAKESIDE, c(GREEN, 2), c(YELLOW, 4), c(GREEN, 2))    # difference exactly 2
    assert not f(LAKESIDE, c(GREEN, 3), c(YELLOW, 3), c(GREEN, 3))


def test_hideaway_breached_when_both_players_won_a_trick():
    f = _by_tricks_won
    assert f(HIDEAWAY, 1, 1, 2)
    assert f(HIDEAWAY, 7, 1, 8)
    assert not f(HIDEAWAY, 3, 0, 3)
    assert not f(HIDEAWAY, 0, 8, 8)


def test_cabins_breached_by_rank_sum_over_7():
    f = _by_trick
    assert f(CABINS, c(GREEN, 3), c(RED, 5), c(GREEN, 3))
    assert f(CABINS, c(WHITE, 4), c(WHITE, 5), c(WHITE, 5))
    assert f(CABINS, c(GREEN, 4), c(YELLOW, 4), c(GREEN, 4))
    assert not f(CABINS, c(GREEN, 3), c(GREEN, 4), c(GREEN, 4))       # sum exactly 7


def test_woodland_breached_by_white_and_red():
    f = _by_trick
    assert f(WOODLAND, c(WHITE, 1), c(RED, 2), c(WHITE, 1))
    assert f(WOODLAND, c(RED, 5), c(WHITE, 5), c(RED, 5))
    assert not f(WOODLAND, c(WHITE, 1), c(WHITE, 2), c(WHITE, 2))
    assert not f(WOODLAND, c(RED, 1), c(GREEN, 2), c(RED, 1))
    assert not f(WOODLAND, c(WHITE, 3), c(YELLOW, 3), c(WHITE, 3))


def test_fire_pit_breached_when_a_4_wins():
    f = _by_trick
    assert f(FIRE_PIT, c(GREEN, 4), c(GREEN, 2), c(GREEN, 4))
    assert not f(FIRE_PIT, c(GREEN, 5), c(GREEN, 4), c(GREEN, 5))     # a 4 that loses


@pytest.mark.parametrize("lead, follow, trump, trapped", [
    (c(GREEN, 5), c(RED, 4), RED, True),      # a trump 4 beats the led 5
    (c(GREEN, 5), c(GREEN, 4), RED, False),   # the 4 loses to the 5
    (c(YELLOW, 4), c(GREEN, 5), RED, True),   # off-suit 5 loses, the led 4 wins
])
def test_fire_pit_trick_played_uses_the_winning_card(lead, follow, trump, trapped):
    st = make_state(area=FIRE_PIT)
    st[L.S_TRUMP] = trump
    st[L.S_TRICK_LEADER] = 0
    st[L.S_HAND + 0] = cards(lead)
    st[L.S_HAND + 1] = cards(follow)
    steps.play_trick(scripted, st, script())
    assert st[L.S_TRAPS] == int(trapped)


def test_at_most_one_trap_per_round():
    st = make_state()
    tricks.set_off_trap(st)
    tricks.set_off_trap(st)
    assert st[L.S_TRAPS] == 1
    assert st[L.S_OUTCOME] == R.RUNNING


def test_reaching_trap_limit_loses():
    st = make_state()                         # traps = 3
    st[L.S_TRAPS] = 2
    tricks.set_off_trap(st)
    assert st[L.S_TRAPS] == 3
    assert st[L.S_OUTCOME] == R.LOSS_TRAPS


def test_the_trap_that_loses_notes_its_round():
    st = make_state()                         # traps = 3
    st[L.S_ROUND], st[L.S_TRAPS] = 5, 1
    tricks.set_off_trap(st)                   # the 2nd trap: the game goes on
    assert (st[L.S_OUTCOME], st[L.S_LOST_ROUND]) == (R.RUNNING, 0)
    st[L.S_ROUND], st[L.S_TRAP_ROUND] = 6, 0
    tricks.set_off_trap(st)                   # the 3rd, in round 6
    assert (st[L.S_OUTCOME], st[L.S_LOST_ROUND]) == (R.LOSS_TRAPS, 6)


def test_trap_limit_is_a_parameter():
    st = make_state(traps=1)
    tricks.set_off_trap(st)
    assert st[L.S_OUTCOME] == R.LOSS_TRAPS


# Two hand-played rounds (trump white, player 0 leads, lowest legal card each time).
# Deal A: p0 wins all 8 tricks; tricks (1,1) (2,2) (3,3) (4,4) (5,5) (1,1) (2,2) (3,3),
#         the 4th won by white 4.
DEAL_A = (cards(*[c(WHITE, r) for r in range(1, 6)], *[c(GREEN, r) for r in range(1, 4)]),
          cards(*[c(YELLOW, r) for r in range(1, 6)], *[c(RED, r) for r in range(1, 4)]))
# Deal B: p1 wins trick 1 (white 5 over white 1), p0 the other 7; tricks (1,5) (1,2) (3,2)
#         (4,3) (1,4) (2,1) (3,2) (4,3), tricks 4 and 8 won by a 4.
DEAL_B = (cards(*[c(WHITE, r) for r in range(1, 5)], *[c(GREEN, r) for r in range(1, 5)]),
          cards(*[c(YELLOW, r) for r in range(1, 5)], *[c(RED, r) for r in range(1, 4)],
                c(WHITE, 5)))


def _play_round(deal_, area, traps_before=0):
    st = make_state(area=area)
    st[L.S_TRUMP] = WHITE
    st[L.S_ROUND_LEADER] = 0
    st[L.S_HAND], st[L.S_HAND + 1] = deal_
    st[L.S_TRAPS] = traps_before
    steps.play_phase(scripted, st, script())
    return st


@pytest.mark.parametrize("area, traps_a, traps_b", [
    (TENT_SITE, 0, 1), (LODGE, 1, 0), (LAKESIDE, 0, 1), (HIDEAWAY, 0, 1), (CABINS, 1, 0),
    (WOODLAND, 0, 0), (FIRE_PIT, 1, 1),
], ids=[R.AREA_NAMES[a] for a in (TENT_SITE, LODGE, LAKESIDE, HIDEAWAY, CABINS, WOODLAND,
                                  FIRE_PIT)])
def test_play_phase_area_traps(area, traps_a, traps_b):
    st = _play_round(DEAL_A, area)
    assert (st[L.S_TRICKS], st[L.S_TRICKS + 1]) == (8, 0)
    assert st[L.S_WON] == DEAL_A[0] | DEAL_A[1]
    assert st[L.S_TRAPS] == traps_a           # Cabins (2 breaches) and Fire pit: still 1
    st = _play_round(DEAL_B, area)
    assert (st[L.S_TRICKS], st[L.S_TRICKS + 1]) == (7, 1)
    assert st[L.S_TRAPS] == traps_b           # Lakeside/Hideaway breach several times: 1


def test_breach_reaching_trap_limit_ends_play_at_once():
    st = _play_round(DEAL_B, LAKESIDE, traps_before=2)     # trick 1 (1 vs 5) breaches
    assert st[L.S_OUTCOME] == R.LOSS_TRAPS
    assert st[L.S_TRICK] == 1


# ==========================================================================================
# the item phase: colours of the whites
# ==========================================================================================
RULEBOOK_COLOURS = {1: COL_R, 2: COL_R, 3: COL_Y, 4: COL_Y, 5: COL_Y, 6: COL_G, 7: COL_G}
INSTRUCTIONS_COLOURS = {1: COL_R, 2: COL_R, 3: COL_R, 4: COL_Y, 5: COL_Y, 6: COL_Y, 7: COL_G}


@pytest.mark.parametrize("edition, table", [("rulebook", RULEBOOK_COLOURS),
                                            ("instructions", INSTRUCTIONS_COLOURS)])
@pytest.mark.parametrize("health", range(1, 8))
def test_white_colour_by_health(edition, table, health):
    st = make_state(edition)
    assert items.white_colour(st, health, CABINS) == table[health]


@pytest.mark.parametrize("health, expected", [(7, COL_Y), (6, COL_Y), (5, COL_R), (3, COL_R),
                                              (2, COL_R), (1, COL_R)])
def test_lodge_shifts_white_one_step_down(health, expected):
    assert items.white_colour(make_state(), health, LODGE) == expected


@pytest.mark.parametrize("health, expected", [(1, COL_Y), (2, COL_Y), (3, COL_G), (5, COL_G),
                                              (7, COL_G)])
def test_woodland_shifts_white_one_step_up(health, expected):
    assert items.white_colour(make_state(), health, WOODLAND) == expected


def test_instructions_lodge_and_woodland_shifts():
    st = make_state("instructions")
    assert items.white_colour(st, 7, LODGE) == COL_Y
    assert items.white_colour(st, 4, LODGE) == COL_R
    assert items.white_colour(st, 3, WOODLAND) == COL_Y
    assert items.white_colour(st, 6, WOODLAND) == COL_G


def test_whites_coloured_by_health_before_items_are_used():
    # player 0 at health 5 uses First Aid Large at the start of the phase (-> 7); the two whites
    # still count as yellow (health 5), so 2 draws, not 1
    st = make_state(area=CABINS)
    st[L.S_ROUND_LEADER] = 0
    st[L.S_HEALTH] = 5
    hold(st, 0, FIRST_AID_LARGE)
    st[L.S_WON] = cards(c(WHITE, 1), c(WHITE, 2))
    set_deck(st, [FLASHLIGHT, BACKPACK, MAP, CAR_KEY])
    steps.item_phase(scripted, st, script(p0=dict(phase_start=FIRST_AID_LARGE)))
    assert st[L.S_HEALTH] == 7
    assert st[L.S_WHITE_COLOUR] == COL_Y
    assert st[L.S_DRAWS] == 2


# ==========================================================================================
# the item phase: Lakeside, nullifying reds, the draw count
# ==========================================================================================
def _sort(st, won, colour=COL_R, player=0):
    st[L.S_WON + player] = won
    st[L.S_WHITE_COLOUR + player] = colour
    items.sort_won_cards(st, player)
    return (int(st[L.S_GREENS + player]), int(st[L.S_YELLOWS + player]),
            int(st[L.S_KNIVES + player]), int(st[L.S_DRAWS + player]))


def test_lakeside_removes_two_greens():
    st = make_state(area=LAKESIDE)
    greens, _, _, _ = _sort(st, cards(c(GREEN, 1), c(GREEN, 2), c(GREEN, 5)))
    assert greens == 1


def test_lakeside_removes_the_only_green():
    st = make_state(area=LAKESIDE)
    assert _sort(st, cards(c(GREEN, 3)))[0] == 0


def test_lakeside_counts_whites_turned_green():
    st = make_state(area=LAKESIDE)
    won = cards(c(WHITE, 1), c(WHITE, 2), c(GREEN, 1))
    assert _sort(st, won, colour=COL_G)[0] == 1       # 3 greens - 2


def test_lakeside_greens_are_removed_before_nullifying():
    won = cards(c(GREEN, 1), c(GREEN, 2), c(RED, 3))
    assert _sort(make_state(area=LAKESIDE), won)[2] == 2      # no green left: red 3's 2 knives
    assert _sort(make_state(area=CABINS), won)[2] == 0        # 2 greens nullify red 3


def _reds(*ranks):
    return cards(*[c(RED, r) for r in ranks])


@pytest.mark.parametrize("reds, red_whites, greens, knives_left", [
    ((5, 3), 0, 2, 3),       # only red 3 can go (2 greens): red 5's 3 knives stay
    ((5, 3), 0, 3, 2),       # red 5 (3 greens) beats red 3: 2 knives stay
    ((5, 3), 0, 5, 0),
    ((1, 5), 0, 0, 4),
    ((1, 2, 4), 0, 2, 2),    # red 1 + red 2 or red 4: 2 of 4 knives removed
    ((1, 2, 4), 0, 3, 1),    # red 1 + red 4
    ((5, 3, 4), 0, 4, 3),    # red 3 + red 4 (4 knives) beats the greedy red 5 (3 knives)
    ((1, 2, 3, 4, 5), 0, 10, 0),
    ((), 2, 1, 1),           # whites turned red: 1 knife, 1 green each
    ((5,), 1, 1, 3),         # the green goes to the white: red 5 stays
    ((5,), 1, 3, 1),         # red 5 nullified, the white's knife stays
    ((5,), 1, 4, 0),
    ((), 0, 3, 0),
])
def test_nullify_leaves_fewest_knives(reds, red_whites, greens, knives_left):
    st = make_state()
    assert items.nullify(st, _reds(*reds), red_whites, greens) == knives_left


def test_nullify_ignores_non_red_cards_in_mask():
    st = make_state()
    assert items.nullify(st, _reds(3) | cards(c(GREEN, 5), c(WHITE, 5)), 0, 0) == 2


def test_nullify_with_custom_red_table():
    # knives 1..5 = (1, 2, 3, 4, 5), greens needed (1, 1, 1, 1, 5)
    st = make_state(red_knives=(1, 2, 3, 4, 5), red_greens=(1, 1, 1, 1, 5))
    assert items.nullify(st, _reds(3, 4, 5), 0, 2) == 5       # red 3 + red 4 go, red 5 stays
    assert items.nullify(st, _reds(3, 4, 5), 0, 5) == 5       # red 3 + red 4 still best
    assert items.nullify(st, _reds(3, 4, 5), 0, 6) == 3       # red 5 + red 4 (9 knives)
    assert items.nullify(st, _reds(3, 4, 5), 0, 7) == 0
    assert items.nullify(st, _reds(1), 0, 0) == 1


def test_nullify_white_turned_red_is_a_parameter():
    st = make_state(white_red_knives=2, white_red_greens=2)
    assert items.nullify(st, 0, 1, 1) == 2
    assert items.nullify(st, 0, 1, 2) == 0


def test_sort_won_cards_counts_whites_by_colour():
    won = cards(c(WHITE, 3), c(WHITE, 4), c(YELLOW, 2), c(RED, 1))
    st = make_state()
    assert _sort(st, won, colour=COL_Y) == (0, 3, 1, 3)      # whites yellow: 3 yellows
    assert _sort(st, won, colour=COL_G) == (2, 1, 0, 1)      # whites green nullify red 1
    assert _sort(st, won, colour=COL_R) == (0, 1, 3, 1)      # red 1 + two whites: 3 knives


@pytest.mark.parametrize("yellows, area, n", [
    (3, CABINS, 3), (1, CABINS, 1), (0, CABINS, 1), (5, LODGE, 5),
    (3, TENT_SITE, 2), (2, TENT_SITE, 1), (1, TENT_SITE, 0), (0, TENT_SITE, 0),
])
def test_draw_count(yellows, area, n):
    assert items.draw_count(make_state(), yellows, area) == n


# ==========================================================================================
# the item phase: drawing
# ==========================================================================================
def test_draw_stops_at_the_killer():
    st = make_state()
    set_deck(st, [FLASHLIGHT, KILLER, MAP])
    st[L.S_DRAWN_N] = 0
    assert draw_cards(st, 3)
    assert drawn(st) == [FLASHLIGHT, KILLER]
    assert deck(st) == [MAP]


def test_draw_stops_on_empty_deck():
    st = make_state()
    set_deck(st, [MAP])
    st[L.S_DRAWN_N] = 0
    assert not draw_cards(st, 3)
    assert drawn(st) == [MAP]
    assert deck(st) == []


def test_cursed_object_counts_as_a_draw_leaves_game_and_adds_three():
    st = make_state()
    set_deck(st, [CURSED_OBJECT, FLASHLIGHT, BASEBALL_BAT, BOLT_CUTTERS, GASOLINE, CAR_KEY, MAP])
    st[L.S_DRAWN_N] = 0
    assert not draw_cards(st, 2)          # cursed + 1 more, then 3 extra
    assert drawn(st) == [FLASHLIGHT, BASEBALL_BAT, BOLT_CUTTERS, GASOLINE]
    assert deck(st) == [CAR_KEY, MAP]
    assert is_out(st, CURSED_OBJECT)


def test_cursed_object_extra_draws_stop_at_the_killer():
    st = make_state()
    set_deck(st, [MAP, CURSED_OBJECT, FLASHLIGHT, KILLER, CAR_KEY])
    st[L.S_DRAWN_N] = 0
    assert draw_cards(st, 2)
    assert drawn(st) == [MAP, FLASHLIGHT, KILLER]
    assert deck(st) == [CAR_KEY]


def test_junk_is_drawn_but_not_keepable():
    st = make_state("instructions")
    set_deck(st, [JUNK, MAP])
    st[L.S_DRAWN_N] = 0
    draw_cards(st, 1)
    assert drawn(st) == [JUNK]
    assert not items.keepable(st, JUNK) and not items.keepable(st, JUNK + 4)
    steps.keep_items(scripted, 0, st, script(keep=(0, 1)))   # nothing keepable: not even asked
    assert held(st, 0) == set()
    assert discard(st) == [JUNK]


def test_junk_pick_is_refused():
    st = make_state("instructions", keep_optional=True)
    set_drawn(st, [JUNK, FLASHLIGHT])
    steps.keep_items(scripted, 0, st, script(keep=(0, 1)))   # index 0 is the Junk
    assert held(st, 0) == set()
    assert st[L.S_VIOLATIONS] & L.V_POLICY
    assert sorted(discard(st)) == sorted([JUNK, FLASHLIGHT])


def test_junk_pick_under_mandatory_keep_becomes_the_first_keepable_card():
    st = make_state("instructions")
    set_drawn(st, [JUNK, FLASHLIGHT])
    steps.keep_items(scripted, 0, st, script(keep=(0, 1)))   # index 0 is the Junk
    assert held(st, 0) == {FLASHLIGHT}
    assert st[L.S_VIOLATIONS] & L.V_POLICY
    assert discard(st) == [JUNK]


@pytest.mark.parametrize("answer, expect_drawn", [(1, [MAP, CAR_KEY]), (0, [MAP])])
def test_cabins_extra_draw(answer, expect_drawn):
    st = make_state(area=CABINS)
    set_deck(st, [MAP, CAR_KEY, GASOLINE])
    st[L.S_DRAWS] = 1
    assert not steps.draw_items(scripted, 0, st, script(cabins=answer))
    assert drawn(st) == expect_drawn


def test_no_extra_draw_outside_cabins():
    st = make_state(area=WOODLAND)
    set_deck(st, [MAP, CAR_KEY, GASOLINE])
    st[L.S_DRAWS] = 1
    steps.draw_items(scripted, 0, st, script(cabins=1))
    assert drawn(st) == [MAP]


# ==========================================================================================
# the item phase: the Killer
# ==========================================================================================
def _killer_state(edition="rulebook", area=CABINS, health=7, knives=0):
    st = make_state(edition, area=area)
    set_deck(st, [MAP, CAR_KEY])
    set_discard(st, [BACKPACK])
    set_drawn(st, [FLASHLIGHT, KILLER])
    st[L.S_HEALTH] = health
    st[L.S_KNIVES] = knives
    return st


def test_killer_damage_is_one_plus_knives():
    st = _killer_state(knives=2)
    items.resolve_killer(st, 0)
    assert st[L.S_HEALTH] == 4
    assert st[L.S_DAMAGE] == 3
    assert st[L.S_OUTCOME] == R.RUNNING
    assert st[L.S_HEALTH + 1] == 7


def test_killer_in_hideaway_takes_all_health():
    st = _killer_state(area=HIDEAWAY, health=6)
    items.resolve_killer(st, 0)
    assert st[L.S_HEALTH] == 0
    assert st[L.S_OUTCOME] == R.LOSS_HEALTH


def test_killer_health_floors_at_zero_and_loses():
    st = _killer_state(health=2, knives=4)
    items.resolve_killer(st, 0)
    assert st[L.S_HEALTH] == 0
    assert st[L.S_DAMAGE] == 2
    assert st[L.S_OUTCOME] == R.LOSS_HEALTH


def test_the_killer_that_takes_the_last_health_notes_its_round():
    st = _killer_state(health=5, knives=1)    # 2 damage: the game goes on
    st[L.S_ROUND] = 4
    items.resolve_killer(st, 0)
    assert (st[L.S_HEALTH], st[L.S_LOST_ROUND]) == (3, 0)
    st = _killer_state(health=2, knives=1)
    st[L.S_ROUND] = 9
    items.resolve_killer(st, 0)
    assert (st[L.S_OUTCOME], st[L.S_LOST_ROUND]) == (R.LOSS_HEALTH, 9)


def test_killer_damage_uses_knives_left_after_nullify():
    # won red 5 + red 3 + 2 greens: red 3 nullified, 3 knives -> 4 damage; MAP drawn first
    # is not kept (nothing kept on a Killer)
    st = make_state(area=CABINS)
    st[L.S_WON] = cards(c(RED, 5), c(RED, 3), c(GREEN, 1), c(GREEN, 2),
                        c(YELLOW, 1), c(YELLOW, 2))
    set_deck(st, [MAP, KILLER, CAR_KEY])
    set_discard(st, [])
    steps.item_turn(scripted, 0, st, script())
    assert st[L.S_HEALTH] == 3
    assert MAP not in held(st, 0)
    assert discard(st) == [MAP, KILLER]


def test_edition_killer_rulebook_discards_then_reshuffles_at_cleanup():
    st = _killer_state("rulebook")
    items.resolve_killer(st, 0)
    assert discard(st) == [BACKPACK, FLASHLIGHT, KILLER]
    assert deck(st) == [MAP, CAR_KEY]                  # untouched until cleanup
    assert st[L.S_KILLER_DRAWN] == 1
    game.cleanup(st)
    assert sorted(deck(st)) == sorted([MAP, CAR_KEY, BACKPACK, FLASHLIGHT, KILLER])
    assert discard(st) == []
    assert st[L.S_KILLER_DRAWN] == 0


def test_rulebook_cleanup_without_killer_keeps_discard():
    st = make_state()
    set_deck(st, [MAP])
    set_discard(st, [BACKPACK])
    game.cleanup(st)
    assert deck(st) == [MAP] and discard(st) == [BACKPACK]


def test_edition_killer_instructions_reshuffles_at_once_with_junk():
    st = _killer_state("instructions")
    assert st[L.S_JUNK_ASIDE] == 5
    items.resolve_killer(st, 0)
    assert sorted(deck(st)) == sorted([MAP, CAR_KEY, BACKPACK, FLASHLIGHT, KILLER, JUNK])
    assert discard(st) == []
    assert st[L.S_JUNK_ASIDE] == 4
    game.cleanup(st)                                    # nothing more at cleanup
    assert sorted(deck(st)) == sorted([MAP, CAR_KEY, BACKPACK, FLASHLIGHT, KILLER, JUNK])


def test_instructions_killer_adds_no_junk_when_none_aside():
    st = _killer_state("instructions")
    st[L.S_JUNK_ASIDE] = 0
    items.resolve_killer(st, 0)
    assert sorted(deck(st)) == sorted([MAP, CAR_KEY, BACKPACK, FLASHLIGHT, KILLER])
    assert st[L.S_JUNK_ASIDE] == 0


def test_instructions_second_killer_adds_a_different_junk():
    st = _killer_state("instructions")
    items.resolve_killer(st, 0)
    set_drawn(st, [KILLER])
    set_deck(st, [x for x in deck(st) if x != KILLER])
    items.resolve_killer(st, 1)
    d = deck(st)
    assert Counter(d)[JUNK] == 1 and Counter(d)[JUNK + 1] == 1
    assert st[L.S_JUNK_ASIDE] == 3


# ==========================================================================================
# the item phase: keeping; the items
# ==========================================================================================
def test_keep_one_card_rest_to_discard():
    st = make_state()
    set_drawn(st, [MAP, FLASHLIGHT, CAR_KEY])
    steps.keep_items(scripted, 0, st, script(keep=(1, 2)))
    assert held(st, 0) == {FLASHLIGHT}
    assert discard(st) == [MAP, CAR_KEY]
    assert st[L.S_KEPT] == 1
    assert drawn(st) == []


def test_backpack_keeps_two():
    st = make_state()
    hold(st, 0, BACKPACK)
    set_drawn(st, [MAP, CAR_KEY, FLASHLIGHT])
    steps.keep_items(scripted, 0, st, script(backpack=1, keep=(0, 2)))
    assert held(st, 0) == {MAP, FLASHLIGHT}
    assert sorted(discard(st)) == sorted([BACKPACK, CAR_KEY])


def test_backpack_not_used_keeps_one():
    st = make_state()
    hold(st, 0, BACKPACK)
    set_drawn(st, [MAP, CAR_KEY])
    steps.keep_items(scripted, 0, st, script(backpack=0, keep=(0, 1)))
    assert held(st, 0) == {BACKPACK, MAP}
    assert discard(st) == [CAR_KEY]


def test_walkie_talkie_pick_from_discard_replaces_first_pick():
    st = make_state()
    hold(st, 0, WALKIE_TALKIE)
    set_discard(st, [GASOLINE, BASEBALL_BAT])
    set_drawn(st, [FLASHLIGHT])
    steps.keep_items(scripted, 0, st, script(keep=(0, 1), walkie=1))
    assert held(st, 0) == {BASEBALL_BAT}
    assert sorted(discard(st)) == sorted([GASOLINE, WALKIE_TALKIE, FLASHLIGHT])


def test_walkie_talkie_with_backpack_replaces_only_first_pick():
    st = make_state()
    hold(st, 0, WALKIE_TALKIE, BACKPACK)
    set_discard(st, [GASOLINE])
    set_drawn(st, [FLASHLIGHT, MAP, CAR_KEY])
    steps.keep_items(scripted, 0, st, script(backpack=1, keep=(1, 2), walkie=0))
    assert held(st, 0) == {GASOLINE, CAR_KEY}
    assert sorted(discard(st)) == sorted([BACKPACK, WALKIE_TALKIE, FLASHLIGHT, MAP])


@pytest.mark.parametrize("allowed", [True, False])
def test_walkie_talkie_after_drawing_nothing_is_a_parameter(allowed):
    """[choice] walkie_talkie_without_draw: with no card drawn (Tent site, empty deck) the
    Walkie-talkie may still take the pick from the discard pile (default) or not."""
    st = make_state(walkie_talkie_without_draw=allowed)
    hold(st, 0, WALKIE_TALKIE)
    set_discard(st, [GASOLINE])
    set_drawn(st, [])
    steps.keep_items(scripted, 0, st, script(walkie=0))
    if allowed:
        assert held(st, 0) == {GASOLINE} and discard(st) == [WALKIE_TALKIE]
    else:
        assert held(st, 0) == {WALKIE_TALKIE} and discard(st) == [GASOLINE]


def test_cabins_extra_card_can_be_the_cursed_object():
    """Cabins' optional card is a draw like any other: the Cursed Object adds 3 more."""
    st = make_state(area=CABINS)
    set_deck(st, [MAP, CURSED_OBJECT, CAR_KEY, GASOLINE, FLASHLIGHT, BACKPACK])
    st[L.S_DRAWS] = 1
    assert not steps.draw_items(scripted, 0, st, script(cabins=1))
    assert drawn(st) == [MAP, CAR_KEY, GASOLINE, FLASHLIGHT]
    assert deck(st) == [BACKPACK] and is_out(st, CURSED_OBJECT)


@pytest.mark.parametrize("edition", ["rulebook", "instructions"])
def test_edition_used_items(edition):
    st = make_state(edition)
    set_discard(st, [])
    hold(st, 0, FIRST_AID_SMALL)
    st[L.S_HEALTH] = 5
    assert items.use_item(st, 0, FIRST_AID_SMALL, 0)
    assert FIRST_AID_SMALL not in held(st, 0)
    if edition == "rulebook":
        assert discard(st) == [FIRST_AID_SMALL] and not is_out(st, FIRST_AID_SMALL)
    else:
        assert discard(st) == [] and is_out(st, FIRST_AID_SMALL)


def test_instructions_used_backpack_and_walkie_talkie_leave_game():
    st = make_state("instructions")
    hold(st, 0, BACKPACK, WALKIE_TALKIE)
    set_discard(st, [MAP])
    set_drawn(st, [FLASHLIGHT, CAR_KEY])
    steps.keep_items(scripted, 0, st, script(backpack=1, keep=(0, 1), walkie=0))
    assert held(st, 0) == {MAP, CAR_KEY}
    assert is_out(st, BACKPACK) and is_out(st, WALKIE_TALKIE)
    assert discard(st) == [FLASHLIGHT]


@pytest.mark.parametrize("item, before, after", [
    (FIRST_AID_SMALL, 4, 5), (FIRST_AID_LARGE, 4, 6), (FIRST_AID_LARGE, 6, 7),
    (FIRST_AID_SMALL, 7, 7), (FIRST_AID_LARGE, 7, 7),
])
def test_first_aid_heals_holder_capped_at_7(item, before, after):
    st = make_state()
    hold(st, 1, item)
    st[L.S_HEALTH + 1] = before
    st[L.S_HEALTH] = 3
    assert items.use_item(st, 1, item, 0)
    assert st[L.S_HEALTH + 1] == after
    assert st[L.S_HEALTH] == 3


def test_lucky_charm_removes_a_trap():
    st = make_state()
    hold(st, 0, LUCKY_CHARM)
    st[L.S_TRAPS] = 2
    assert items.use_item(st, 0, LUCKY_CHARM, 0)
    assert st[L.S_TRAPS] == 1
    assert held(st, 0) == set()


def test_lucky_charm_without_traps_is_not_used():
    st = make_state()
    hold(st, 0, LUCKY_CHARM)
    assert not items.use_item(st, 0, LUCKY_CHARM, 0)
    assert held(st, 0) == {LUCKY_CHARM}


def test_item_not_held_cannot_be_used():
    st = make_state()
    st[L.S_HEALTH] = 4
    assert not items.use_item(st, 0, FIRST_AID_LARGE, 0)
    assert st[L.S_HEALTH] == 4


FIVE = [MAP, CAR_KEY, GASOLINE, BOLT_CUTTERS, BASEBALL_BAT]     # top first


@pytest.mark.parametrize("order, bottom, expected", [
    (0, 0, FIVE),
    (5, 0, [GASOLINE, CAR_KEY, MAP, BOLT_CUTTERS, BASEBALL_BAT]),       # (2, 1, 0) on top
    (3, 0, [CAR_KEY, GASOLINE, MAP, BOLT_CUTTERS, BASEBALL_BAT]),       # (1, 2, 0) on top
    (0, 1, [BOLT_CUTTERS, BASEBALL_BAT, MAP, CAR_KEY, GASOLINE]),       # under, same order
    (5, 1, [BOLT_CUTTERS, BASEBALL_BAT, GASOLINE, CAR_KEY, MAP]),       # under, reversed
])
def test_flashlight_reorders_top_three(order, bottom, expected):
    assert list(interface.FLASHLIGHT_ORDERS[2, order]) == \
        [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]][order]
    st = make_state()
    set_deck(st, FIVE)
    hold(st, 0, FLASHLIGHT)
    steps.use_items(scripted, interface.BEFORE_DRAW, 0, st,
                    script(before_draw=FLASHLIGHT, flashlight=order + 6 * bottom))
    assert st[L.S_VIOLATIONS] == 0
    assert deck(st) == expected
    seen = [int(x) & 3 for x in st[L.S_DECK_SEEN:L.S_DECK_SEEN + 5][::-1]]   # top first
    assert seen == ([1, 1, 1, 0, 0] if not bottom else [0, 0, 1, 1, 1])
    assert st[L.S_PEEK_N] == 0 and list(st[L.S_PEEK:L.S_PEEK + 3]) == [-1, -1, -1]
    assert FLASHLIGHT not in held(st, 0) and discard(st)[-1] == FLASHLIGHT


def test_flashlight_with_two_cards_left():
    st = make_state()
    set_deck(st, [MAP, CAR_KEY])
    hold(st, 0, FLASHLIGHT)
    steps.use_items(scripted, interface.BEFORE_DRAW, 0, st,
                    script(before_draw=FLASHLIGHT, flashlight=1))
    assert deck(st) == [CAR_KEY, MAP]
    assert [int(x) for x in st[L.S_DECK_SEEN:L.S_DECK_SEEN + 2]] == [1, 1]


def test_fire_pit_trade_moves_an_item():
    st = make_state(area=FIRE_PIT)
    st[L.S_ROUND_LEADER] = 0
    hold(st, 0, MAP, FLASHLIGHT)
    steps.gift_window(scripted, st, script(p0=dict(trade=MAP)), 0)
    assert held(st, 0) == {FLASHLIGHT}
    assert held(st, 1) == {MAP}


@pytest.mark.parametrize("area, traded", [(FIRE_PIT, True), (CABINS, False), (LODGE, False)])
def test_trades_only_in_fire_pit_item_phase(area, traded):
    st = make_state(area=area)
    st[L.S_ROUND_LEADER] = 0
    hold(st, 0, LUCKY_CHARM)
    set_deck(st, [FLASHLIGHT, BACKPACK, FIRST_AID_SMALL])
    set_discard(st, [])
    steps.item_phase(scripted, st, script(p0=dict(trade=LUCKY_CHARM)))
    assert (LUCKY_CHARM in held(st, 1)) == traded
    assert (LUCKY_CHARM in held(st, 0)) != traded


def test_item_phase_draw_order_round_leader_first():
    st = make_state(area=CABINS)
    st[L.S_ROUND_LEADER] = 1
    set_deck(st, [FLASHLIGHT, BACKPACK, FIRST_AID_SMALL])
    steps.item_phase(scripted, st, script())     # no cards won: 1 draw each, keep it
    assert held(st, 1) == {FLASHLIGHT}
    assert held(st, 0) == {BACKPACK}
    assert deck(st) == [FIRST_AID_SMALL]


def test_win_when_team_holds_escapes_needed():
    st = make_state()
    hold(st, 0, MAP, CAR_KEY)
    hold(st, 1, GASOLINE)
    set_drawn(st, [BOLT_CUTTERS])
    steps.keep_items(scripted, 1, st, script())
    assert st[L.S_OUTCOME] == R.WIN


def test_no_win_with_fewer_escapes():
    st = make_state()
    hold(st, 0, MAP, FIRST_AID_LARGE)
    hold(st, 1, GASOLINE)
    set_drawn(st, [BOLT_CUTTERS])
    steps.keep_items(scripted, 1, st, script())
    assert st[L.S_OUTCOME] == R.RUNNING


def test_escapes_needed_is_a_parameter():
    st = make_state(escapes_needed=1)
    set_drawn(st, [BASEBALL_BAT])
    steps.keep_items(scripted, 0, st, script())
    assert st[L.S_OUTCOME] == R.WIN


# ==========================================================================================
# setting up
# ==========================================================================================
def _killer_pos(st):
    """Killer's position from the top (1 = top) in the item deck."""
    return deck(st).index(KILLER) + 1


def test_setup_health_traps_and_outcome():
    st = make_state(health=5)
    assert st[L.S_HEALTH] == 5 and st[L.S_HEALTH + 1] == 5
    assert st[L.S_TRAPS] == 0
    assert st[L.S_OUTCOME] == R.RUNNING


def test_rulebook_item_deck_killer_in_top_7():
    seen = set()
    for seed in range(300):
        st = make_state(seed=seed)
        assert sorted(deck(st)) == list(range(13))
        pos = _killer_pos(st)
        assert st[L.S_KILLER_START] == pos
        seen.add(pos)
    assert seen == set(range(1, 8))


def test_rulebook_item_deck_without_cursed_object_killer_in_top_7():
    seen = set()
    for seed in range(300):
        st = make_state(seed=seed, cursed_object=False)
        assert sorted(deck(st)) == [i for i in range(13) if i != CURSED_OBJECT]
        assert is_out(st, CURSED_OBJECT)
        seen.add(_killer_pos(st))
    assert seen == set(range(1, 8))           # ceil(11 / 2) + 1 = 7


def test_top_group_half_down_puts_the_killer_in_the_top_6_of_eleven():
    # "two groups of six" (rulebook, setup 3) with eleven items: the top group of five, the
    # Killer among the top six; with all twelve the two readings are the same deck
    assert GameConfig(cursed_object=False, top_group="half_down").killer_positions == 6
    assert GameConfig(top_group="half_down").killer_positions == 7
    seen = set()
    for seed in range(300):
        st = make_state(seed=seed, cursed_object=False, top_group="half_down")
        seen.add(_killer_pos(st))
        marks = [int(st[L.S_DECK_SEEN + st[L.S_DECK_N] - 1 - i]) for i in range(12)]
        assert marks == [L.SLOT_TOP_GROUP] * 6 + [0] * 6
    assert seen == set(range(1, 7))
    same = [deck(make_state(seed=s, top_group=g)) for s in range(20)
            for g in ("half_up", "half_down")]
    assert same[0::2] == same[1::2]


def test_top_group_refuses_an_unknown_reading():
    with pytest.raises(ConfigError, match="unknown top_group 'half'; expected one of: "
                                          "half_up, half_down"):
        GameConfig(top_group="half")


@pytest.mark.parametrize("k", [1, 4, 7])
def test_killer_position_is_forced(k):
    for seed in range(5):
        st = make_state(seed=seed, killer_position=k)
        assert _killer_pos(st) == k
        assert st[L.S_KILLER_START] == k


def test_killer_position_out_of_range_is_refused():
    with pytest.raises(ConfigError):
        GameConfig(killer_position=8)


def test_edition_item_deck():
    assert GameConfig().killer_positions == 7
    assert GameConfig(edition="instructions").killer_positions == 13
    seen = set()
    for seed in range(300):
        st = make_state("instructions", seed=seed)
        assert sorted(deck(st)) == list(range(13))        # no Junk in the deck
        assert st[L.S_JUNK_ASIDE] == 5
        seen.add(_killer_pos(st))
    assert seen == set(range(1, 14))


def _area_deck(st):
    return [int(x) for x in st[L.S_AREA_DECK:L.S_AREA_DECK + st[L.S_AREA_N]]]


def _areas_of_rounds(st, rounds):
    out = []
    for _ in range(rounds):
        deal.next_area(st)
        out.append(int(st[L.S_AREA]))
    return out


LV1 = {TENT_SITE, LODGE, WOODLAND}
LV2 = {LAKESIDE, CABINS, FIRE_PIT}


def test_rulebook_area_deck_lv1_on_top_no_hideaway():
    firsts = set()
    for seed in range(50):
        st = make_state(seed=seed)
        areas = _areas_of_rounds(st, 6)
        assert set(areas[:3]) == LV1
        assert set(areas[3:]) == LV2
        firsts.add(areas[0])
        assert all(st[L.S_ARROW + a] in (0, 1) for a in range(7))
    assert firsts == LV1                      # Lv.1 is shuffled


def test_rulebook_area_deck_reshuffles_all_when_out():
    orders = set()
    for seed in range(50):
        st = make_state(seed=seed)
        arrows = list(st[L.S_ARROW:L.S_ARROW + 7])
        areas = _areas_of_rounds(st, 18)
        assert list(st[L.S_ARROW:L.S_ARROW + 7]) == arrows      # arrows fixed for the game
        assert set(areas[6:12]) == LV1 | LV2 and set(areas[12:]) == LV1 | LV2
        orders.add(tuple(areas[6:9]))
    assert any(set(o) != LV1 for o in orders)  # levels no longer kept apart


def test_rulebook_hideaway_only_when_configured():
    in_lv2 = set()
    for seed in range(50):
        st = make_state(seed=seed, hideaway=True)
        areas = _areas_of_rounds(st, 7)
        assert set(areas[:3]) == LV1
        assert set(areas[3:]) == LV2 | {HIDEAWAY}
        in_lv2.add(areas.index(HIDEAWAY))
    assert in_lv2 == {3, 4, 5, 6}


def test_edition_areas_instructions_four_cycling():
    seen = Counter()
    for seed in range(100):
        st = make_state("instructions", seed=seed)
        areas = _areas_of_rounds(st, 12)
        assert len(set(areas[:4])) == 4
        assert areas[4:8] == areas[:4] and areas[8:12] == areas[:4]
        seen.update(areas[:4])
    assert set(seen) == set(range(7))         # all 7 in the pool, Hideaway included
    st = make_state()
    assert st[L.S_AREA_N] == 6                # rulebook: 6 areas


def test_instructions_without_hideaway():
    for seed in range(50):
        st = make_state("instructions", seed=seed, hideaway=False)
        assert HIDEAWAY not in _area_deck(st)


def test_deal_8_8_4_and_trump_is_suit_of_top_trump_card():
    trumps = set()
    for seed in range(200):
        st = make_state(seed=seed)
        deal.deal_round(st)
        h0, h1, td = (int(st[L.S_HAND]), int(st[L.S_HAND + 1]), int(st[L.S_TRUMP_DECK]))
        assert bin(h0).count("1") == 8 and bin(h1).count("1") == 8 and bin(td).count("1") == 4
        assert h0 | h1 | td == R.ALL_CARDS
        assert (td >> st[L.S_TRUMP_CARD]) & 1
        assert st[L.S_TRUMP] == st[L.S_TRUMP_CARD] // 5
        trumps.add(int(st[L.S_TRUMP]))
    assert trumps == {WHITE, GREEN, YELLOW, RED}   # white can be trump


def test_edition_round_leader():
    leaders = set()
    for seed in range(40):
        st = make_state(seed=seed)            # rulebook: the area's arrow
        deal.start_round(st)
        assert st[L.S_ROUND_LEADER] == st[L.S_ARROW + st[L.S_AREA]]
        leaders.add(int(st[L.S_ROUND_LEADER]))
    assert leaders == {0, 1}
    st = make_state("instructions")           # instructions: player 0, then last trick winner
    deal.start_round(st)
    assert st[L.S_ROUND_LEADER] == 0
    st[L.S_TRICK_LEADER] = 1                  # player 1 won the last trick
    deal.start_round(st)
    assert st[L.S_ROUND_LEADER] == 1
    st = make_state("instructions", first_leader=1)
    deal.start_round(st)
    assert st[L.S_ROUND_LEADER] == 1


def test_edition_white_colours():
    rb, ins = make_state("rulebook"), make_state("instructions")
    assert [items.white_colour(rb, h, CABINS) for h in (6, 3)] == [COL_G, COL_Y]
    assert [items.white_colour(ins, h, CABINS) for h in (6, 3)] == [COL_Y, COL_R]


def test_edition_junk():
    assert make_state("rulebook")[L.S_JUNK_ASIDE] == 0
    assert make_state("instructions")[L.S_JUNK_ASIDE] == 5
    st = _killer_state("rulebook")
    items.resolve_killer(st, 0)
    game.cleanup(st)
    assert all(x < JUNK for x in deck(st))


# ==========================================================================================
# winning and losing
# ==========================================================================================
def test_timeout_after_max_rounds():
    from slashersim.policies.baseline import decide as baseline
    from slashersim.runner.kernels import chunk
    # one round cannot bring 4 escapes or 3 traps; only a Killer can end it early
    records = np.zeros((40, L.RECORD_SIZE), dtype=np.int32)
    chunk(baseline, GameConfig(max_rounds=1).to_array(), NO_PARAMS, 7, 0, records, 0, 1)
    assert (records[:, L.R_ROUNDS] == 1).all()
    outcomes = set(records[:, L.R_OUTCOME].tolist())
    assert outcomes <= {R.TIMEOUT, R.LOSS_HEALTH}
    assert R.TIMEOUT in outcomes
