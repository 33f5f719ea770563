"""Hand-worked tests of the item phase (docs/rules.md: "The item phase" from
its windows on, "The items", "Winning and losing", "The exerciser player").

Every expected value is worked out by hand from the rules in a comment next to it, never read
from the engine. Positions are built with ``helpers`` (decks TOP first); decisions come from
``scripted`` (tests/scripted.py), whose answers are read from its ``params`` vector (see
``script``) and which logs every decision it is asked, so a test can check who was asked what,
and when.
"""
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
    set_discard,
    set_drawn,
)
import numpy as np
import pytest
from scripted import asked, draw_cards, log, script, scripted

from slashersim.core import layout as L
from slashersim.core import rules as R
from slashersim.core.rules import (
    BACKPACK,
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
from slashersim.engine import deal, game, interface, items, steps
from slashersim.policies.baseline import decide as baseline
from slashersim.policies.exerciser import decide as exerciser

COL_R, COL_Y, COL_G = R.COLOUR_RED, R.COLOUR_YELLOW, R.COLOUR_GREEN
NO_PARAMS = np.zeros(0)
NO_PARAMS.flags.writeable = False      # as the engine hands parameters to a policy

# the kernels under test take the policy as a first-class function (engine.steps)
item_phase, item_phase_start, item_turn, keep_items, use_items, draw_items, play_phase = (
    steps.item_phase, steps.item_phase_start, steps.item_turn, steps.keep_items,
    steps.use_items, steps.draw_items, steps.play_phase)


# --- positions ----------------------------------------------------------------------------
def put_deck(st, top_first):
    """The item deck, top first, with no Flashlight sightings or set-up marks on any slot."""
    st[L.S_DECK_SEEN:L.S_DECK_SEEN + L.DECK_CAPACITY] = 0
    cards_ = list(reversed(top_first))
    st[L.S_DECK_N] = len(cards_)
    st[L.S_DECK:L.S_DECK + len(cards_)] = cards_


def seen(st):
    """Flashlight sightings per deck slot, top first: bit p = player p saw the card there."""
    return [int(x) & 3 for x in st[L.S_DECK_SEEN:L.S_DECK_SEEN + st[L.S_DECK_N]][::-1]]


def yellows(k):
    """``k`` yellow number cards (a draw count of k outside the Tent site)."""
    return cards(*[c(YELLOW, r) for r in range(1, k + 1)])


def phase_state(edition="rulebook", area=WOODLAND, leader=0, **knobs):
    """A game at the item phase of a round in ``area`` led by ``leader``, nothing won yet,
    the discard pile empty."""
    st = make_state(edition, area=area, **knobs)
    st[L.S_ROUND_LEADER] = leader
    st[L.S_TRICK_LEADER] = leader
    set_discard(st, [])
    return st


def used(st):
    """Items used so far (S_USED), by item id, zero counts left out."""
    return {i: int(st[L.S_USED + i]) for i in range(12) if st[L.S_USED + i]}


def kept(st):
    """Items kept so far (S_KEPT_ITEM), by item id, zero counts left out."""
    return {i: int(st[L.S_KEPT_ITEM + i]) for i in range(12) if st[L.S_KEPT_ITEM + i]}


def violated(st):
    return bool(st[L.S_VIOLATIONS] & L.V_POLICY)


# ==========================================================================================
# drawing: the Cursed Object
# ==========================================================================================
def test_cursed_object_drawn_first_turns_a_single_draw_into_three():
    # n = 1 (nothing won, no yellow). The Cursed Object is that one draw and leaves the game;
    # then 3 more: Map, Car Key, Gasoline. Keep pick 1 = Car Key; Flashlight stays on the deck.
    st = phase_state()
    put_deck(st, [CURSED_OBJECT, MAP, CAR_KEY, GASOLINE, FLASHLIGHT])
    st[L.S_WHITE_COLOUR] = COL_G
    p = script(keep=(1, -1))
    item_turn(scripted, 0, st, p)
    assert st[L.S_DRAWS] == 1
    assert held(st, 0) == {CAR_KEY}
    assert discard(st) == [MAP, GASOLINE]
    assert deck(st) == [FLASHLIGHT]
    assert is_out(st, CURSED_OBJECT) and CURSED_OBJECT not in discard(st)
    assert log(p, interface.KEEP)[0][3] == 3            # the keep saw 3 drawn cards


def test_cursed_object_drawn_mid_way_adds_three_after_the_remaining_draws():
    # n = 3: Map (1), Cursed Object (2), Flashlight (3), then its 3: Car Key, Gasoline, Backpack
    st = make_state()
    put_deck(st, [MAP, CURSED_OBJECT, FLASHLIGHT, CAR_KEY, GASOLINE, BACKPACK, LUCKY_CHARM])
    st[L.S_DRAWN_N] = 0
    assert not draw_cards(st, 3)
    assert drawn(st) == [MAP, FLASHLIGHT, CAR_KEY, GASOLINE, BACKPACK]
    assert deck(st) == [LUCKY_CHARM]
    assert is_out(st, CURSED_OBJECT)


def test_cursed_object_drawn_last_adds_three_draws():
    # n = 2: Map (1), Cursed Object (2, the last of the n), then 3: Car Key, Gasoline, Flashlight
    st = make_state()
    put_deck(st, [MAP, CURSED_OBJECT, CAR_KEY, GASOLINE, FLASHLIGHT, BACKPACK])
    st[L.S_DRAWN_N] = 0
    assert not draw_cards(st, 2)
    assert drawn(st) == [MAP, CAR_KEY, GASOLINE, FLASHLIGHT]
    assert deck(st) == [BACKPACK]
    assert is_out(st, CURSED_OBJECT)


def test_cursed_object_stays_out_when_the_killer_comes_among_its_extra_draws():
    # instructions, Cabins, n = 1: Cursed Object (+3), Map, Killer -> stop. Damage 1 + 0
    # knives = 1 (7 -> 6); nothing kept; no Cabins extra card after the Killer. At once the
    # drawn cards (Map, Killer) and 1 Junk are shuffled into the rest (Car Key): the Cursed
    # Object stays out of the game.
    st = phase_state("instructions", area=CABINS)
    put_deck(st, [CURSED_OBJECT, MAP, KILLER, CAR_KEY])
    st[L.S_WHITE_COLOUR] = COL_G
    p = script(cabins=1)
    item_turn(scripted, 0, st, p)
    assert st[L.S_HEALTH] == 6 and st[L.S_DAMAGE] == 1
    assert held(st, 0) == set()
    assert asked(p, interface.EXTRA_DRAW, interface.KEEP) == []
    assert sorted(deck(st)) == sorted([MAP, KILLER, CAR_KEY, JUNK])
    assert discard(st) == []
    assert is_out(st, CURSED_OBJECT)
    assert used(st) == {CURSED_OBJECT: 1}


def test_cursed_object_on_the_last_card_leaves_nothing_more_to_draw():
    # n = 2 (two yellows, Lodge): Map, Cursed Object (+3) -> the deck is empty, the draw stops
    # without the Killer; Map is kept.
    st = phase_state(area=LODGE)
    put_deck(st, [MAP, CURSED_OBJECT])
    st[L.S_WON] = yellows(2)
    st[L.S_WHITE_COLOUR] = COL_R
    p = script()
    item_turn(scripted, 0, st, p)
    assert st[L.S_DRAWS] == 2
    assert deck(st) == []
    assert held(st, 0) == {MAP}
    assert discard(st) == []
    assert is_out(st, CURSED_OBJECT)
    assert st[L.S_HEALTH] == 7 and st[L.S_OUTCOME] == R.RUNNING


# ==========================================================================================
# keeping: Backpack, Walkie-talkie, Junk, keeping
# ==========================================================================================
def test_backpack_not_offered_with_one_keepable_card():
    # instructions: Junk, Map, Junk drawn -> 1 keepable card: the Backpack is not offered
    # (even to a policy that would say yes), one pick, the Map; both Junk discarded.
    st = make_state("instructions")
    hold(st, 0, BACKPACK)
    set_drawn(st, [JUNK, MAP, JUNK + 1])
    p = script(backpack=1, keep=(1, 2))
    keep_items(scripted, 0, st, p)
    assert asked(p) == [(interface.KEEP, 0)]
    assert held(st, 0) == {BACKPACK, MAP}
    assert discard(st) == [JUNK, JUNK + 1]
    assert not violated(st)


def test_backpack_with_two_keepable_cards_keeps_both():
    # Flashlight, Lucky Charm drawn: Backpack offered with arg 2; picks 1 then 0 keep both;
    # the used Backpack goes to the discard pile (rulebook).
    st = make_state()
    hold(st, 0, BACKPACK)
    set_drawn(st, [FLASHLIGHT, LUCKY_CHARM])
    p = script(backpack=1, keep=(1, 0))
    keep_items(scripted, 0, st, p)
    assert log(p, interface.USE_BACKPACK)[0][2] == 2
    assert held(st, 0) == {FLASHLIGHT, LUCKY_CHARM}
    assert discard(st) == [BACKPACK]
    assert st[L.S_KEPT] == 2
    assert used(st) == {BACKPACK: 1} and kept(st) == {FLASHLIGHT: 1, LUCKY_CHARM: 1}


def test_backpack_with_three_keepable_cards_keeps_the_two_chosen():
    # Map, First Aid Small, Gasoline drawn: offered with arg 3; picks 2 and 1 keep Gasoline
    # and First Aid Small; the Map is discarded after the used Backpack.
    st = make_state()
    hold(st, 0, BACKPACK)
    set_drawn(st, [MAP, FIRST_AID_SMALL, GASOLINE])
    p = script(backpack=1, keep=(2, 1))
    keep_items(scripted, 0, st, p)
    assert log(p, interface.USE_BACKPACK)[0][2] == 3
    assert held(st, 0) == {GASOLINE, FIRST_AID_SMALL}
    assert discard(st) == [BACKPACK, MAP]
    assert kept(st) == {GASOLINE: 1, FIRST_AID_SMALL: 1}


def test_backpack_second_pick_stays_optional_under_mandatory_keep():
    # instructions (keep mandatory): the Backpack is used, pick 1 = Car Key, pick 2 declined:
    # legal, nothing flagged; the Backpack leaves the game (instructions), Map discarded.
    st = make_state("instructions")
    hold(st, 0, BACKPACK)
    set_drawn(st, [MAP, CAR_KEY])
    keep_items(scripted, 0, st, script(backpack=1, keep=(1, -1)))
    assert held(st, 0) == {CAR_KEY}
    assert is_out(st, BACKPACK)
    assert discard(st) == [MAP]
    assert not violated(st)


def test_backpack_second_pick_of_junk_is_refused():
    # instructions: Map, Junk, Car Key (2 keepable): Backpack used, pick 1 = Map, pick 2 =
    # the Junk -> refused and flagged; only the Map is kept, Junk and Car Key discarded.
    st = make_state("instructions")
    hold(st, 0, BACKPACK)
    set_drawn(st, [MAP, JUNK, CAR_KEY])
    keep_items(scripted, 0, st, script(backpack=1, keep=(0, 1)))
    assert held(st, 0) == {MAP}
    assert violated(st)
    assert discard(st) == [JUNK, CAR_KEY]


def test_walkie_talkie_cannot_take_junk_from_the_discard_pile():
    # instructions: Flashlight drawn and kept (pick 0); the Walkie-talkie asks for the Junk on
    # the discard pile -> refused and flagged; the Walkie-talkie stays held, the Junk stays.
    st = make_state("instructions")
    hold(st, 0, WALKIE_TALKIE)
    set_discard(st, [JUNK])
    set_drawn(st, [FLASHLIGHT])
    keep_items(scripted, 0, st, script(walkie=0))
    assert held(st, 0) == {WALKIE_TALKIE, FLASHLIGHT}
    assert discard(st) == [JUNK]
    assert violated(st)


def test_walkie_talkie_with_backpack_and_one_keepable_card():
    # Backpack and Walkie-talkie held, only the Flashlight drawn: no Backpack offer; the
    # Walkie-talkie takes the Gasoline from the discard pile instead of the pick; the
    # Flashlight and the used Walkie-talkie are discarded; the Backpack is still held.
    st = make_state()
    hold(st, 0, BACKPACK, WALKIE_TALKIE)
    set_discard(st, [GASOLINE])
    set_drawn(st, [FLASHLIGHT])
    p = script(backpack=1, keep=(0, 1), walkie=0)
    keep_items(scripted, 0, st, p)
    assert asked(p) == [(interface.KEEP, 0), (interface.TAKE_DISCARD, 0)]
    assert held(st, 0) == {BACKPACK, GASOLINE}
    assert sorted(discard(st)) == sorted([WALKIE_TALKIE, FLASHLIGHT])
    assert kept(st) == {GASOLINE: 1} and used(st) == {WALKIE_TALKIE: 1}


@pytest.mark.parametrize("allowed", [True, False])
def test_walkie_talkie_after_a_zero_card_tent_site_draw(allowed):
    # Tent site, one yellow won: n = 1 - 1 = 0, nothing drawn. With walkie_talkie_without_draw
    # the Walkie-talkie still takes Car Key from the discard pile; without it, it is not even
    # offered. The deck (Map) is untouched either way.
    st = phase_state(area=TENT_SITE, walkie_talkie_without_draw=allowed)
    put_deck(st, [MAP])
    set_discard(st, [CAR_KEY])
    hold(st, 0, WALKIE_TALKIE)
    st[L.S_WON] = yellows(1)
    st[L.S_WHITE_COLOUR] = COL_G
    p = script(walkie=0)
    item_turn(scripted, 0, st, p)
    assert st[L.S_DRAWS] == 0
    assert deck(st) == [MAP]
    if allowed:
        assert held(st, 0) == {CAR_KEY} and discard(st) == [WALKIE_TALKIE]
    else:
        assert asked(p, interface.TAKE_DISCARD) == []
        assert held(st, 0) == {WALKIE_TALKIE} and discard(st) == [CAR_KEY]


def test_mandatory_keep_turns_a_declined_pick_into_the_first_keepable_card():
    # instructions (keep mandatory): Junk, Flashlight, Map drawn, the pick declined (-1) ->
    # the first keepable card (Flashlight) is kept and the answer flagged.
    st = make_state("instructions")
    set_drawn(st, [JUNK, FLASHLIGHT, MAP])
    keep_items(scripted, 0, st, script(keep=(-1, -1)))
    assert held(st, 0) == {FLASHLIGHT}
    assert violated(st)
    assert discard(st) == [JUNK, MAP]


@pytest.mark.parametrize("answer", [0, 1])
def test_a_player_with_no_yellow_may_decline_its_card(answer):
    # no_yellow_draw = may: player 0 won no yellow (n = 1) and is asked once its window (b) is
    # past; 0 draws nothing (no extra card offered either, in the Cabins), 1 draws the Map.
    # Player 1 won a yellow and is never asked. Under "must" (default) nobody is asked.
    for rule, asks in (("may", True), ("must", False)):
        st = phase_state(area=CABINS, no_yellow_draw=rule)
        st[L.S_WON + 1] = yellows(1)
        put_deck(st, [MAP, CAR_KEY, GASOLINE, BACKPACK])
        p = script(optional_draw=answer)
        item_phase(scripted, st, p)
        assert asked(p, interface.OPTIONAL_DRAW) == ([(interface.OPTIONAL_DRAW, 0)] if asks else [])
        drew = not asks or answer == 1
        assert held(st, 0) == ({MAP} if drew else set())
        assert asked(p, interface.EXTRA_DRAW).count((interface.EXTRA_DRAW, 0)) == drew
        assert held(st, 1) == ({CAR_KEY} if drew else {MAP})


@pytest.mark.parametrize("cursed_keep", ["as_keeping", "optional"])
def test_the_keep_after_the_cursed_object_may_be_declined_when_it_is_optional(cursed_keep):
    # instructions (keep mandatory), n = 1: the Cursed Object, then its three: Flashlight, Map,
    # Car Key; the pick declined (-1). "can acquire one" read as optional keeps nothing, flags
    # nothing; read as any keep, the Flashlight is kept and the answer flagged. A later draw
    # without the Cursed Object is mandatory again.
    st = make_state("instructions", cursed_keep=cursed_keep)
    put_deck(st, [CURSED_OBJECT, FLASHLIGHT, MAP, CAR_KEY, BACKPACK, LUCKY_CHARM])
    st[L.S_DRAWS] = 1
    p = script(keep=(-1, -1))
    assert not draw_items(scripted, 0, st, p)
    keep_items(scripted, 0, st, p)
    optional = cursed_keep == "optional"
    assert held(st, 0) == (set() if optional else {FLASHLIGHT})
    assert violated(st) == (not optional)
    st[L.S_VIOLATIONS] = 0
    assert not draw_items(scripted, 0, st, p)
    keep_items(scripted, 0, st, p)
    assert BACKPACK in held(st, 0) and violated(st)


def test_keep_is_optional_under_the_rulebook():
    # rulebook (keep optional): declining keeps nothing, flags nothing, discards both
    st = make_state()
    set_drawn(st, [FLASHLIGHT, MAP])
    keep_items(scripted, 0, st, script(keep=(-1, -1)))
    assert held(st, 0) == set()
    assert not violated(st)
    assert discard(st) == [FLASHLIGHT, MAP]
    assert st[L.S_KEPT] == 0


def test_win_checked_after_the_backpacks_second_keep_ends_the_phase():
    # Player 1 holds Gasoline and Bolt Cutters; player 0 (first to draw, n = 2) draws Map and
    # Car Key and keeps both with the Backpack: 4 escape items -> win; player 1 never draws.
    st = phase_state()
    hold(st, 1, GASOLINE, BOLT_CUTTERS)
    hold(st, 0, BACKPACK)
    st[L.S_WON] = yellows(2)
    put_deck(st, [MAP, CAR_KEY, LUCKY_CHARM])
    p = script(backpack=1, keep=(0, 1))
    item_phase(scripted, st, p)
    assert st[L.S_OUTCOME] == R.WIN
    assert held(st, 0) == {MAP, CAR_KEY}
    assert deck(st) == [LUCKY_CHARM]
    assert all(pl == 0 for _, pl in asked(p))


def test_the_pick_that_wins_ends_the_keep_and_the_game():
    # Player 1 holds Gasoline, Bolt Cutters and Car Key; player 0 holds a Backpack and a
    # Walkie-talkie, the discard pile a First Aid Kit Small. Player 0 drew Map and Lucky Charm:
    # the Backpack is offered (2 keepable) and used; pick 1 = Map makes 4 escape items: the
    # game is won at that keep, so neither the second pick nor the Walkie-talkie is asked. The
    # Lucky Charm goes to the discard pile after the used Backpack, the Walkie-talkie stays held.
    st = make_state()
    hold(st, 1, GASOLINE, BOLT_CUTTERS, CAR_KEY)
    hold(st, 0, BACKPACK, WALKIE_TALKIE)
    set_discard(st, [FIRST_AID_SMALL])
    set_drawn(st, [MAP, LUCKY_CHARM])
    p = script(backpack=1, keep=(0, 1), walkie=0)
    keep_items(scripted, 0, st, p)
    assert st[L.S_OUTCOME] == R.WIN
    assert asked(p) == [(interface.USE_BACKPACK, 0), (interface.KEEP, 0)]
    assert held(st, 0) == {WALKIE_TALKIE, MAP}
    assert discard(st) == [FIRST_AID_SMALL, BACKPACK, LUCKY_CHARM]
    assert kept(st) == {MAP: 1} and used(st) == {BACKPACK: 1}
    assert st[L.S_KEPT] == 1


def test_a_pick_that_does_not_win_leaves_the_walkie_talkie_its_keep_that_wins():
    # the same team, player 0 holding only the Walkie-talkie, drew the Lucky Charm: pick 1 =
    # Lucky Charm (3 escape items, no win), then the Walkie-talkie takes the Map from the
    # discard pile instead: 4 escape items, won; the Lucky Charm and the Walkie-talkie discarded
    st = make_state()
    hold(st, 1, GASOLINE, BOLT_CUTTERS, CAR_KEY)
    hold(st, 0, WALKIE_TALKIE)
    set_discard(st, [MAP])
    set_drawn(st, [LUCKY_CHARM])
    p = script(keep=(0, 1), walkie=0)
    keep_items(scripted, 0, st, p)
    assert asked(p) == [(interface.KEEP, 0), (interface.TAKE_DISCARD, 0)]
    assert st[L.S_OUTCOME] == R.WIN
    assert held(st, 0) == {MAP}
    assert discard(st) == [WALKIE_TALKIE, LUCKY_CHARM]


# ==========================================================================================
# the items: Flashlight
# ==========================================================================================
def test_flashlight_sends_a_block_with_the_killer_under_the_deck():
    # Woodland, n = 2. Before drawing, the Flashlight sees Map, Killer, Car Key and puts them
    # at the bottom in that order (answer 6): deck Gasoline, Backpack, Map, Killer, Car Key.
    # The 2 draws are Gasoline and Backpack: no Killer, Gasoline kept.
    st = phase_state()
    put_deck(st, [MAP, KILLER, CAR_KEY, GASOLINE, BACKPACK])
    hold(st, 0, FLASHLIGHT)
    st[L.S_WON] = yellows(2)
    st[L.S_WHITE_COLOUR] = COL_G
    p = script(before_draw=FLASHLIGHT, flashlight=6)
    item_turn(scripted, 0, st, p)
    assert log(p, interface.PEEK_ORDER)[0][2] == 3
    assert st[L.S_HEALTH] == 7 and st[L.S_KILLER_DRAWS] == 0
    assert held(st, 0) == {GASOLINE}
    assert deck(st) == [MAP, KILLER, CAR_KEY]
    assert discard(st) == [FLASHLIGHT, BACKPACK]
    assert not violated(st)


def test_flashlight_with_one_card_left_sees_only_that_card():
    # one card left: the Flashlight is asked with arg 1; "all at the bottom" of one card leaves
    # the deck as it was; the card is marked as seen by player 0; the Flashlight is used up.
    st = make_state()
    put_deck(st, [MAP])
    set_discard(st, [])
    hold(st, 0, FLASHLIGHT)
    p = script(before_draw=FLASHLIGHT, flashlight=6)
    use_items(scripted, interface.BEFORE_DRAW, 0, st, p)
    assert log(p, interface.PEEK_ORDER)[0][2] == 1
    assert deck(st) == [MAP]
    assert seen(st) == [1]
    assert discard(st) == [FLASHLIGHT] and held(st, 0) == set()
    assert not violated(st)


def test_flashlight_order_beyond_the_seen_cards_is_refused():
    # two cards seen have 2 orders (0, 1): order 2 is illegal -> flagged, the cards go back
    # as they were (order 0, on top)
    st = make_state()
    put_deck(st, [MAP, CAR_KEY])
    set_discard(st, [])
    hold(st, 0, FLASHLIGHT)
    use_items(scripted, interface.BEFORE_DRAW, 0, st, script(before_draw=FLASHLIGHT, flashlight=2))
    assert violated(st)
    assert deck(st) == [MAP, CAR_KEY]


def test_flashlight_block_at_the_bottom_is_drawn_last_former_top_card_first():
    # Map, Car Key, Gasoline seen and put at the bottom in the order seen (answer 6): deck
    # Backpack, Lucky Charm, Map, Car Key, Gasoline; drawing through it: the rest first, then
    # the block, the former top card (Map) first.
    st = make_state()
    put_deck(st, [MAP, CAR_KEY, GASOLINE, BACKPACK, LUCKY_CHARM])
    set_discard(st, [])
    hold(st, 0, FLASHLIGHT)
    use_items(scripted, interface.BEFORE_DRAW, 0, st, script(before_draw=FLASHLIGHT, flashlight=6))
    assert deck(st) == [BACKPACK, LUCKY_CHARM, MAP, CAR_KEY, GASOLINE]
    st[L.S_DRAWN_N] = 0
    assert not draw_cards(st, 5)
    assert drawn(st) == [BACKPACK, LUCKY_CHARM, MAP, CAR_KEY, GASOLINE]


def test_flashlight_sightings_move_with_the_cards():
    # Player 0 sees Map, Car Key, Gasoline and puts them at the bottom: deck Backpack, Lucky
    # Charm, Map, Car Key, Gasoline, marks 0 0 1 1 1. Player 1 then sees Backpack, Lucky Charm,
    # Map and puts them back on top reversed (order 5 = indices 2, 1, 0): deck Map, Lucky Charm,
    # Backpack, Car Key, Gasoline; Map was seen by both (3), Lucky Charm and Backpack by player 1
    # (2), Car Key and Gasoline by player 0 (1).
    st = make_state()
    put_deck(st, [MAP, CAR_KEY, GASOLINE, BACKPACK, LUCKY_CHARM])
    set_discard(st, [])
    hold(st, 0, FLASHLIGHT)
    use_items(scripted, interface.BEFORE_DRAW, 0, st, script(before_draw=FLASHLIGHT, flashlight=6))
    assert seen(st) == [0, 0, 1, 1, 1]
    set_discard(st, [])
    hold(st, 1, FLASHLIGHT)
    use_items(scripted, interface.BEFORE_DRAW, 1, st, script(before_draw=FLASHLIGHT, flashlight=5))
    assert deck(st) == [MAP, LUCKY_CHARM, BACKPACK, CAR_KEY, GASOLINE]
    assert seen(st) == [3, 2, 2, 1, 1]


def test_flashlight_sightings_cleared_when_the_cards_are_drawn():
    # Map, Car Key, Gasoline seen and left on top (order 0): marks 1 1 1 0 0; drawing 2 leaves
    # Gasoline (seen), Backpack, Lucky Charm, and the two emptied slots carry no mark.
    st = make_state()
    put_deck(st, [MAP, CAR_KEY, GASOLINE, BACKPACK, LUCKY_CHARM])
    set_discard(st, [])
    hold(st, 0, FLASHLIGHT)
    use_items(scripted, interface.BEFORE_DRAW, 0, st, script(before_draw=FLASHLIGHT, flashlight=0))
    assert seen(st) == [1, 1, 1, 0, 0]
    st[L.S_DRAWN_N] = 0
    draw_cards(st, 2)
    assert deck(st) == [GASOLINE, BACKPACK, LUCKY_CHARM]
    assert seen(st) == [1, 0, 0]
    assert list(st[L.S_DECK_SEEN + 3:L.S_DECK_SEEN + 5]) == [0, 0]


@pytest.mark.parametrize("edition", ["rulebook", "instructions"])
def test_flashlight_sightings_cleared_when_the_deck_is_reshuffled(edition):
    # Player 0 sees the top 3 and leaves them on top; then the Killer is drawn (by hand): the
    # discard pile goes back into the deck and it is shuffled - at cleanup (rulebook) or at
    # once (instructions) - so no card is known any more.
    st = make_state(edition)
    put_deck(st, [MAP, CAR_KEY, GASOLINE, BACKPACK])
    set_discard(st, [LUCKY_CHARM])
    hold(st, 0, FLASHLIGHT)
    use_items(scripted, interface.BEFORE_DRAW, 0, st, script(before_draw=FLASHLIGHT, flashlight=0))
    assert seen(st) == [1, 1, 1, 0]
    set_drawn(st, [KILLER])
    items.resolve_killer(st, 1)
    game.cleanup(st)
    assert discard(st) == []
    # 4 + Lucky Charm + Killer + the used Flashlight (rulebook) or a Junk (instructions)
    assert len(deck(st)) == 7
    assert not any(seen(st))


# ==========================================================================================
# drawing: Cabins' extra card
# ==========================================================================================
def test_cabins_extra_card_not_offered_on_an_empty_deck():
    # n = 1 takes the last card; the extra card is not offered, not counted
    st = make_state(area=CABINS)
    put_deck(st, [MAP])
    st[L.S_DRAWS] = 1
    p = script(cabins=1)
    assert not draw_items(scripted, 0, st, p)
    assert drawn(st) == [MAP]
    assert asked(p) == []
    assert st[L.S_EXTRA_DRAWS] == 0


def test_cabins_extra_card_offered_after_the_cursed_objects_extras():
    # n = 1: Cursed Object (+3): Map, Car Key, Gasoline; only then (3 cards drawn) the extra
    # card is offered: Backpack. Lucky Charm stays.
    st = make_state(area=CABINS)
    put_deck(st, [CURSED_OBJECT, MAP, CAR_KEY, GASOLINE, BACKPACK, LUCKY_CHARM])
    st[L.S_DRAWS] = 1
    p = script(cabins=1)
    assert not draw_items(scripted, 0, st, p)
    assert log(p) == [(interface.EXTRA_DRAW, 0, 0, 3, 0, 7)]
    assert drawn(st) == [MAP, CAR_KEY, GASOLINE, BACKPACK]
    assert deck(st) == [LUCKY_CHARM]
    assert st[L.S_EXTRA_DRAWS] == 1


# ==========================================================================================
# the Killer
# ==========================================================================================
def _two_killer_draws(junk_aside):
    # instructions, Woodland, player 0 first. Deck: the Killer alone. Player 0 (n = 1) draws
    # it: 1 damage; at once Killer (+ 1 Junk if any is aside) shuffled into the empty deck.
    # Player 1 (n = 2) draws from that new deck: Junk then Killer, or the Killer at once -
    # either way the Killer: 1 damage, and the next Junk (if any) goes in.
    st = phase_state("instructions")
    st[L.S_JUNK_ASIDE] = junk_aside
    put_deck(st, [KILLER])
    st[L.S_WON + 1] = yellows(2)
    item_phase(scripted, st, script())
    return st


def test_instructions_killer_reshuffles_at_once_with_a_junk_before_the_next_draw():
    st = _two_killer_draws(junk_aside=5)
    assert (st[L.S_HEALTH], st[L.S_HEALTH + 1]) == (6, 6)
    assert st[L.S_KILLER_DRAWS] == 2
    assert sorted(deck(st)) == [KILLER, JUNK, JUNK + 1]
    assert st[L.S_JUNK_ASIDE] == 3
    assert discard(st) == []


def test_instructions_killer_reshuffles_without_junk_when_none_is_left():
    st = _two_killer_draws(junk_aside=0)
    assert (st[L.S_HEALTH], st[L.S_HEALTH + 1]) == (6, 6)
    assert st[L.S_KILLER_DRAWS] == 2
    assert deck(st) == [KILLER]
    assert st[L.S_JUNK_ASIDE] == 0


def test_hideaway_killer_takes_all_of_full_health():
    # Hideaway, player 0 at 7 draws the Killer first: health 0, damage 7, game lost; player 1
    # never draws (the Map stays on the deck).
    st = phase_state(area=HIDEAWAY)
    put_deck(st, [KILLER, MAP])
    p = script()
    item_phase(scripted, st, p)
    assert st[L.S_HEALTH] == 0 and st[L.S_DAMAGE] == 7
    assert st[L.S_OUTCOME] == R.LOSS_HEALTH
    assert st[L.S_HEALTH + 1] == 7
    assert deck(st) == [MAP]


# ==========================================================================================
# colours of the whites, Lakeside
# ==========================================================================================
# hand-worked from "Colours of the whites" and the editions' table: health -> colour, per
# edition and area
SHIFTED = {
    ("rulebook", LODGE): {1: COL_R, 2: COL_R, 3: COL_R, 4: COL_R, 5: COL_R, 6: COL_Y, 7: COL_Y},
    ("rulebook", WOODLAND): {1: COL_Y, 2: COL_Y, 3: COL_G, 4: COL_G, 5: COL_G, 6: COL_G,
                             7: COL_G},
    ("instructions", LODGE): {1: COL_R, 2: COL_R, 3: COL_R, 4: COL_R, 5: COL_R, 6: COL_R,
                              7: COL_Y},
    ("instructions", WOODLAND): {1: COL_Y, 2: COL_Y, 3: COL_Y, 4: COL_G, 5: COL_G, 6: COL_G,
                                 7: COL_G},
}


@pytest.mark.parametrize("edition, area", list(SHIFTED),
                         ids=[f"{e}-{R.AREA_NAMES[a]}" for e, a in SHIFTED])
def test_lodge_and_woodland_shift_whites_at_each_health_band(edition, area):
    # rulebook 6-7 G / 3-5 Y / 1-2 R, instructions 7 G / 4-6 Y / 1-3 R; Lodge one step down
    # (red stays), Woodland one step up (green stays); fixed at the item phase's start
    for health in range(1, 8):
        st = phase_state(edition, area=area)
        st[L.S_HEALTH] = health
        st[L.S_HEALTH + 1] = 8 - health
        item_phase_start(scripted, st, script())
        table = SHIFTED[edition, area]
        assert (st[L.S_WHITE_COLOUR], st[L.S_WHITE_COLOUR + 1]) == \
            (table[health], table[8 - health]), health


def test_lakeside_removes_a_lone_white_turned_green_so_the_red_keeps_its_knife():
    # Lakeside, health 7: player 0 won white 2 (-> green) and red 1. The one green is removed
    # (1 if only 1), so red 1's knife stays: n = 1, the Killer: damage 1 + 1 = 2 (7 -> 5).
    # Player 1 then draws the Map (the Killer went to the discard pile under the rulebook).
    st = phase_state(area=LAKESIDE)
    st[L.S_WON] = cards(c(WHITE, 2), c(RED, 1))
    put_deck(st, [KILLER, MAP])
    item_phase(scripted, st, script())
    assert st[L.S_WHITE_COLOUR] == COL_G
    assert (st[L.S_GREENS], st[L.S_KNIVES]) == (0, 1)
    assert st[L.S_HEALTH] == 5
    assert held(st, 1) == {MAP}


# ==========================================================================================
# the items: Lucky Charm, First Aid
# ==========================================================================================
def test_lucky_charm_at_zero_traps_is_refused_and_flagged():
    # no trap set off: using the charm is illegal; flagged, the window closes, charm kept
    st = make_state()
    hold(st, 0, LUCKY_CHARM)
    p = script(phase_start=LUCKY_CHARM)
    use_items(scripted, interface.PHASE_START, 0, st, p)
    assert violated(st)
    assert held(st, 0) == {LUCKY_CHARM}
    assert st[L.S_TRAPS] == 0
    assert asked(p) == [(interface.PHASE_START, 0)]
    assert used(st) == {}


def test_first_aid_at_full_health_is_used_up_without_overheal():
    # health 7 = the maximum: First Aid Large heals nothing but is spent (discard pile)
    st = make_state()
    set_discard(st, [])
    hold(st, 0, FIRST_AID_LARGE)
    use_items(scripted, interface.BEFORE_DRAW, 0, st, script(before_draw=FIRST_AID_LARGE))
    assert st[L.S_HEALTH] == 7
    assert held(st, 0) == set()
    assert discard(st) == [FIRST_AID_LARGE]
    assert used(st) == {FIRST_AID_LARGE: 1}
    assert not violated(st)


def test_first_aid_on_the_partner_heals_the_partner_under_either_target():
    # first_aid_target = either: First Aid Small + ON_PARTNER heals player 1 (3 -> 4)
    st = make_state(first_aid_target="either")
    set_discard(st, [])
    hold(st, 0, FIRST_AID_SMALL)
    st[L.S_HEALTH + 1] = 3
    p = script(before_draw=FIRST_AID_SMALL + interface.ON_PARTNER)
    use_items(scripted, interface.BEFORE_DRAW, 0, st, p)
    assert (st[L.S_HEALTH], st[L.S_HEALTH + 1]) == (7, 4)
    assert held(st, 0) == set() and discard(st) == [FIRST_AID_SMALL]
    assert not violated(st)


def test_first_aid_on_the_partner_is_refused_under_holder_target():
    # first_aid_target = holder (default): the same answer is illegal; flagged, nothing spent
    st = make_state()
    set_discard(st, [])
    hold(st, 0, FIRST_AID_SMALL)
    st[L.S_HEALTH + 1] = 3
    use_items(scripted, interface.BEFORE_DRAW, 0, st,
                    script(before_draw=FIRST_AID_SMALL + interface.ON_PARTNER))
    assert violated(st)
    assert (st[L.S_HEALTH], st[L.S_HEALTH + 1]) == (7, 3)
    assert held(st, 0) == {FIRST_AID_SMALL} and discard(st) == []


# ==========================================================================================
# Fire pit gifts
# ==========================================================================================
def test_fire_pit_gifted_first_aid_is_used_at_the_receivers_draw():
    # exerciser, Fire pit, player 0 first. Player 0 (7) holds both kits, player 1 is at 4.
    # Window before player 0's turn: 7 > 4, player 0 gives Large, then Small (2 gifts); player
    # 1 gives nothing. Player 0 draws and keeps the Map. Window before player 1's turn: no kit
    # left to give. Player 1's draw: baseline First Aid, Large at 4 (<= 5) -> 6, then Small at
    # 6 (<= 6) -> 7; draws and keeps the Car Key. Last window: 7 = 7, nothing.
    st = phase_state(area=FIRE_PIT)
    hold(st, 0, FIRST_AID_LARGE, FIRST_AID_SMALL)
    st[L.S_HEALTH + 1] = 4
    put_deck(st, [MAP, CAR_KEY])
    item_phase(exerciser, st, NO_PARAMS)
    assert st[L.S_GIFTS] == 2
    assert (st[L.S_HEALTH], st[L.S_HEALTH + 1]) == (7, 7)
    assert held(st, 0) == {MAP} and held(st, 1) == {CAR_KEY}
    assert used(st) == {FIRST_AID_LARGE: 1, FIRST_AID_SMALL: 1}
    assert discard(st) == [FIRST_AID_LARGE, FIRST_AID_SMALL]


def test_fire_pit_gift_windows_before_each_turn_and_after_both_first_drawer_first():
    # player 1 leads and draws first: windows (1, 0), turn 1, windows (1, 0), turn 0,
    # windows (1, 0); each asked once (answer -1) since each holds an item
    st = phase_state(area=FIRE_PIT, leader=1)
    hold(st, 0, MAP)
    hold(st, 1, CAR_KEY)
    put_deck(st, [BACKPACK, LUCKY_CHARM])
    p = script()
    item_phase(scripted, st, p)
    T, K = interface.TRADE, interface.KEEP
    assert asked(p) == [(T, 1), (T, 0), (K, 1), (T, 1), (T, 0), (K, 0), (T, 1), (T, 0)]
    assert held(st, 1) == {CAR_KEY, BACKPACK} and held(st, 0) == {MAP, LUCKY_CHARM}


def test_fire_pit_gift_windows_follow_the_draw_order_under_last_trick_winner():
    # draw_order = last_trick_winner: round leader 0, but player 1 won the last trick and
    # draws first, so every gift window asks player 1 first ([choice] reading: the gift
    # windows go "first to draw first"; the source text says "round leader first", which is
    # the same player under the default draw order)
    st = phase_state(area=FIRE_PIT, draw_order="last_trick_winner")
    st[L.S_TRICK_LEADER] = 1
    hold(st, 0, MAP)
    hold(st, 1, CAR_KEY)
    put_deck(st, [BACKPACK, LUCKY_CHARM])
    p = script()
    item_phase(scripted, st, p)
    assert asked(p, interface.TRADE) == [(interface.TRADE, 1), (interface.TRADE, 0)] * 3

def test_no_gift_window_after_a_turn_that_ends_the_game():
    # escapes_needed = 1: player 0 (first) keeps the Map and wins; no window follows
    st = phase_state(area=FIRE_PIT, escapes_needed=1)
    hold(st, 0, BACKPACK)
    hold(st, 1, FLASHLIGHT)
    put_deck(st, [MAP, CAR_KEY])
    p = script()
    item_phase(scripted, st, p)
    assert st[L.S_OUTCOME] == R.WIN
    assert asked(p, interface.TRADE, interface.KEEP) == [
        (interface.TRADE, 0), (interface.TRADE, 1), (interface.KEEP, 0)]


def test_fire_pit_gifts_none_opens_no_gift_window():
    # fire_pit_gifts = none: a policy that would give the Map is never asked
    st = phase_state(area=FIRE_PIT, fire_pit_gifts="none")
    hold(st, 0, MAP)
    put_deck(st, [CAR_KEY, GASOLINE])
    p = script(trade=MAP)
    item_phase(scripted, st, p)
    assert asked(p, interface.TRADE) == []
    assert held(st, 0) == {MAP, CAR_KEY} and held(st, 1) == {GASOLINE}
    assert st[L.S_GIFTS] == 0


# ==========================================================================================
# item windows: the windows of item_timing = any_time
# ==========================================================================================
# p0 wins all 8 tricks with trump white (the lowest legal card each time):
# (W1,Y1) (W2,Y2) (W3,Y3) (W4,Y4) (W5,Y5) (G1,R1) (G2,R2) (G3,R3) with p0 leading; led by p1
# the first trick is (Y1, W1), then p0 leads the rest. Tent site: 8-0 is even, no trap.
DEAL_A = (cards(*[c(WHITE, r) for r in range(1, 6)], *[c(GREEN, r) for r in range(1, 4)]),
          cards(*[c(YELLOW, r) for r in range(1, 6)], *[c(RED, r) for r in range(1, 4)]))
# p0 leads white 1, p1 must follow with white 5: ranks differ by 4 (Lakeside breach)
DEAL_B = (cards(*[c(WHITE, r) for r in range(1, 5)], *[c(GREEN, r) for r in range(1, 5)]),
          cards(*[c(YELLOW, r) for r in range(1, 5)], *[c(RED, r) for r in range(1, 4)],
                c(WHITE, 5)))


def play_state(deal_, edition="instructions", area=TENT_SITE, leader=0, **knobs):
    st = phase_state(edition, area=area, leader=leader, **knobs)
    st[L.S_TRUMP] = WHITE
    st[L.S_HAND], st[L.S_HAND + 1] = deal_
    return st


def test_any_time_window_c_opens_at_the_play_phase_start():
    # instructions (any_time): player 0 at 5 uses First Aid Small after the deal, before any
    # trick (tricks played 0): 6
    st = play_state(DEAL_A)
    hold(st, 0, FIRST_AID_SMALL)
    st[L.S_HEALTH] = 5
    p = script(p0=dict(play_start=FIRST_AID_SMALL))
    play_phase(scripted, st, p)
    assert log(p)[0] == (interface.PLAY_START, 0, 0, 0, 0, 5)
    assert st[L.S_HEALTH] == 6
    assert asked(p, interface.PLAY_START) == [(interface.PLAY_START, 0)]


def test_any_time_window_d_opens_after_each_trick():
    # both hold a kit and decline: after each trick t = 1..8 (t tricks played), player 0
    # (the round leader) then player 1
    st = play_state(DEAL_A)
    hold(st, 0, FIRST_AID_SMALL)
    hold(st, 1, FIRST_AID_LARGE)
    p = script()
    play_phase(scripted, st, p)
    after = [(e[1], e[4]) for e in log(p, interface.AFTER_TRICK)]
    assert after == [(pl, t) for t in range(1, 9) for pl in (0, 1)]


def test_after_trick_window_is_told_the_trick_number():
    # interface.AFTER_TRICK: 'window (d) right after trick arg (1..8)'
    st = play_state(DEAL_A)
    hold(st, 0, FIRST_AID_SMALL)
    p = script()
    play_phase(scripted, st, p)
    assert [e[2] for e in log(p, interface.AFTER_TRICK)] == list(range(1, 9))


def test_play_windows_ask_the_round_leader_first():
    # player 1 leads the round but player 0 wins trick 1 (white 1 trumps yellow 1) and leads
    # the rest: every window still asks player 1 first
    st = play_state(DEAL_A, leader=1)
    hold(st, 0, FIRST_AID_SMALL)
    hold(st, 1, FIRST_AID_LARGE)
    p = script()
    play_phase(scripted, st, p)
    assert st[L.S_TRICKS] == 8
    windows = asked(p, interface.PLAY_START, interface.AFTER_TRICK)
    assert windows == [(interface.PLAY_START, 1), (interface.PLAY_START, 0)] + \
        [(interface.AFTER_TRICK, pl) for _ in range(8) for pl in (1, 0)]


def test_first_aid_after_trick_8_colours_that_rounds_whites():
    # instructions, Tent site, player 0 at 6 wins all 16 cards (5 whites, 3 greens, 5 yellows,
    # reds 1-3). First Aid Small after trick 8: 7 at the item phase's start -> whites green:
    # 8 greens nullify reds 1-3 (4 greens for 4 knives), 5 yellows -> Tent site n = 4, the
    # Map is drawn and kept. (At 6 they would be yellow: 10 yellows, n = 9, and 3 greens
    # leave 1 knife.)
    st = play_state(DEAL_A)
    hold(st, 0, FIRST_AID_SMALL)
    st[L.S_HEALTH] = 6
    put_deck(st, [MAP])
    p = script(p0=dict(after_trick=FIRST_AID_SMALL, at_trick=8))
    play_phase(scripted, st, p)
    assert [e[4] for e in log(p, interface.AFTER_TRICK)] == list(range(1, 9))
    assert st[L.S_HEALTH] == 7
    item_phase(scripted, st, p)
    assert st[L.S_WHITE_COLOUR] == COL_G
    assert (st[L.S_GREENS], st[L.S_YELLOWS], st[L.S_KNIVES], st[L.S_DRAWS]) == (8, 5, 0, 4)
    assert held(st, 0) == {MAP} and deck(st) == []


def test_no_play_window_after_a_trap_that_ends_the_game():
    # instructions, Lakeside, 2 traps set off: trick 1 (white 1, white 5) is the third: lost
    # at once; player 0's Lucky Charm is never offered after it (only at the play start)
    st = play_state(DEAL_B, area=LAKESIDE)
    st[L.S_TRAPS] = 2
    hold(st, 0, LUCKY_CHARM)
    p = script(p0=dict(after_trick=LUCKY_CHARM))
    play_phase(scripted, st, p)
    assert st[L.S_OUTCOME] == R.LOSS_TRAPS and st[L.S_TRAPS] == 3
    assert asked(p) == [(interface.PLAY_START, 0)]
    assert held(st, 0) == {LUCKY_CHARM}


@pytest.mark.parametrize("edition, knobs", [("rulebook", {}),
                                            ("instructions", {"item_timing": "item_phase"})])
def test_play_windows_never_open_under_item_phase_timing(edition, knobs):
    # item_timing = item_phase: no window (c) or (d); the kits stay unused
    st = play_state(DEAL_A, edition=edition, **knobs)
    hold(st, 0, FIRST_AID_SMALL)
    hold(st, 1, FIRST_AID_LARGE)
    st[L.S_HEALTH] = st[L.S_HEALTH + 1] = 4
    p = script(play_start=FIRST_AID_SMALL, after_trick=FIRST_AID_SMALL)
    play_phase(scripted, st, p)
    assert st[L.S_TRICK] == 8
    assert log(p) == []
    assert (st[L.S_HEALTH], st[L.S_HEALTH + 1]) == (4, 4)


# ==========================================================================================
# item windows: who uses items in window (b)
# ==========================================================================================
@pytest.mark.parametrize("rule", ["drawing_player", "both_players"])
def test_a_partners_flashlight_before_the_other_players_draw(rule):
    # Woodland, nothing won: each draws n = 1; player 0 draws first. Player 1 holds the
    # Flashlight and answers it in every window (b) it is asked in; the seen cards go under
    # the deck as a block (answer 6). Window (a): player 1 asked, declines.
    # both_players: before player 0's draw, player 1 sees Killer, Map, Car Key and sends them
    #   under: deck Gasoline, Backpack, Killer, Map, Car Key. Player 0 draws and keeps the
    #   Gasoline, player 1 the Backpack; nobody is hurt.
    # drawing_player: player 0 (holding nothing usable) draws the Killer: 7 - (1 + 0 knives) =
    #   6, the Killer discarded. Before its own draw player 1 sees Map, Car Key, Gasoline, sends
    #   them under, and draws and keeps the Backpack.
    st = phase_state(before_draw_items=rule)
    hold(st, 1, FLASHLIGHT)
    put_deck(st, [KILLER, MAP, CAR_KEY, GASOLINE, BACKPACK])
    p = script(p1=dict(before_draw=FLASHLIGHT, flashlight=6))
    item_phase(scripted, st, p)
    PS, BD, PO, K = interface.PHASE_START, interface.BEFORE_DRAW, interface.PEEK_ORDER, \
        interface.KEEP
    assert held(st, 1) == {BACKPACK}
    if rule == "both_players":
        assert asked(p) == [(PS, 1), (BD, 1), (PO, 1), (K, 0), (K, 1)]
        assert (st[L.S_HEALTH], st[L.S_HEALTH + 1]) == (7, 7)
        assert held(st, 0) == {GASOLINE}
        assert deck(st) == [KILLER, MAP, CAR_KEY]
        assert discard(st) == [FLASHLIGHT]
    else:
        assert asked(p) == [(PS, 1), (BD, 1), (PO, 1), (K, 1)]
        assert (st[L.S_HEALTH], st[L.S_HEALTH + 1]) == (6, 7)
        assert held(st, 0) == set()
        assert deck(st) == [MAP, CAR_KEY, GASOLINE]
        assert discard(st) == [KILLER, FLASHLIGHT]


@pytest.mark.parametrize("rule", ["drawing_player", "both_players"])
def test_window_b_of_both_players_asks_the_first_to_act_first(rule):
    # player 1 leads and draws first; both at health 3. Player 0 holds First Aid Small and a
    # Flashlight, player 1 First Aid Large and a Lucky Charm (no trap: legal answer -1 only).
    # Each answers its kit while it holds it, then -1. Window (a): 1 then 0, declined.
    # drawing_player: before 1's draw only 1 (Large: 3 -> 5, then -1); 1 keeps the Map;
    #   before 0's draw only 0 (Small: 3 -> 4, then -1); 0 keeps the Car Key.
    # both_players: before 1's draw, 1 (Large, then -1), then 0 (Small, then -1); before 0's
    #   draw, 1 (-1), then 0 (-1). The same health and keeps, 0's kit used a draw earlier.
    st = phase_state(leader=1, before_draw_items=rule)
    st[L.S_HEALTH] = st[L.S_HEALTH + 1] = 3
    hold(st, 0, FIRST_AID_SMALL, FLASHLIGHT)
    hold(st, 1, FIRST_AID_LARGE, LUCKY_CHARM)
    put_deck(st, [MAP, CAR_KEY])
    p = script(p0=dict(before_draw=FIRST_AID_SMALL), p1=dict(before_draw=FIRST_AID_LARGE))
    item_phase(scripted, st, p)
    PS, BD, K = interface.PHASE_START, interface.BEFORE_DRAW, interface.KEEP
    if rule == "both_players":
        assert asked(p) == [(PS, 1), (PS, 0), (BD, 1), (BD, 1), (BD, 0), (BD, 0), (K, 1),
                            (BD, 1), (BD, 0), (K, 0)]
    else:
        assert asked(p) == [(PS, 1), (PS, 0), (BD, 1), (BD, 1), (K, 1), (BD, 0), (BD, 0),
                            (K, 0)]
    assert (st[L.S_HEALTH], st[L.S_HEALTH + 1]) == (4, 5)
    assert held(st, 1) == {LUCKY_CHARM, MAP} and held(st, 0) == {FLASHLIGHT, CAR_KEY}


def test_the_reference_players_use_nothing_before_the_partners_draw():
    # health 3, First Aid Large and a Flashlight held, both draw counts 1: before its own draw
    # (turn 0) the exerciser and the baseline take the Large kit; before the partner's draw
    # (turn 1, window (b) of both_players) neither uses anything
    st = make_state(before_draw_items="both_players")
    hold(st, 0, FIRST_AID_LARGE, FLASHLIGHT)
    st[L.S_HEALTH] = 3
    st[L.S_DRAWS] = st[L.S_DRAWS + 1] = 1
    put_deck(st, [MAP, KILLER, CAR_KEY])
    for turn, answer in ((0, FIRST_AID_LARGE), (1, -1)):
        st[L.S_TURN] = turn
        assert exerciser(interface.BEFORE_DRAW, 0, 0, st, NO_PARAMS) == answer
        assert baseline(interface.BEFORE_DRAW, 0, 0, st, NO_PARAMS) == answer


# ==========================================================================================
# draw order, Tent site reduction, arrows
# ==========================================================================================
def test_last_trick_winner_draws_first_under_draw_order_last_trick_winner():
    # round leader 0, but player 1 won the last trick: player 1 acts first in window (a)
    # (both hold a usable item, declined) and draws (and keeps) first
    st = phase_state(draw_order="last_trick_winner")
    st[L.S_TRICK_LEADER] = 1
    st[L.S_TRAPS] = 1
    hold(st, 0, LUCKY_CHARM)
    hold(st, 1, FIRST_AID_SMALL)
    put_deck(st, [MAP, CAR_KEY, GASOLINE])
    p = script()
    item_phase(scripted, st, p)
    assert asked(p, interface.PHASE_START, interface.KEEP) == [
        (interface.PHASE_START, 1), (interface.PHASE_START, 0), (interface.KEEP, 1),
        (interface.KEEP, 0)]
    assert held(st, 1) == {FIRST_AID_SMALL, MAP} and held(st, 0) == {LUCKY_CHARM, CAR_KEY}
    assert deck(st) == [GASOLINE]


@pytest.mark.parametrize("n_yellow, n", [(0, 1), (1, 1), (2, 2), (4, 4)])
def test_tent_site_reduction_zero_takes_nothing_away(n_yellow, n):
    # tent_site_reduction = 0: the Tent site draws like any area, yellows (1 with none)
    st = make_state(area=TENT_SITE, tent_site_reduction=0)
    st[L.S_WON] = yellows(n_yellow)
    st[L.S_WHITE_COLOUR] = COL_R
    items.sort_won_cards(st, 0)
    assert st[L.S_DRAWS] == n


@pytest.mark.parametrize("arrows", [1, 0, (1, 0, 1, 0, 0, 1, 1)])
def test_fixed_arrows_name_the_round_leader_under_the_rulebook(arrows):
    # rulebook: the round leader is the area card's arrow player, here fixed by the config
    for seed in range(3):
        st = make_state(seed=seed, arrows=arrows)
        for _ in range(12):
            deal.start_round(st)
            area = int(st[L.S_AREA])
            want = arrows if isinstance(arrows, int) else arrows[area]
            assert st[L.S_ROUND_LEADER] == want, (seed, area)


# ==========================================================================================
# item statistics
# ==========================================================================================
def test_item_statistics_count_exactly_what_happened():
    # Cabins, player 0 first (n = 1), holding Flashlight and Backpack; player 1 (n = 1) at 4
    # holding First Aid Large.
    # p0: Flashlight (used), top 3 left as they are; draws the Cursed Object (used, +3): Map,
    #     Car Key, Lucky Charm; takes the extra card (1): Gasoline; Backpack (used) keeps Map
    #     and Gasoline (kept 1 each).
    # p1: First Aid Large (used, 4 -> 6); draws the Walkie-talkie, declines the extra card,
    #     keeps it (kept 1). No gift (not the Fire pit).
    st = phase_state(area=CABINS)
    hold(st, 0, FLASHLIGHT, BACKPACK)
    hold(st, 1, FIRST_AID_LARGE)
    st[L.S_HEALTH + 1] = 4
    put_deck(st, [CURSED_OBJECT, MAP, CAR_KEY, LUCKY_CHARM, GASOLINE, WALKIE_TALKIE,
                  BOLT_CUTTERS])
    p = script(p0=dict(before_draw=FLASHLIGHT, flashlight=0, cabins=1, backpack=1,
                       keep=(0, 3)),
               p1=dict(before_draw=FIRST_AID_LARGE, cabins=0))
    item_phase(scripted, st, p)
    assert used(st) == {FLASHLIGHT: 1, CURSED_OBJECT: 1, BACKPACK: 1, FIRST_AID_LARGE: 1}
    assert kept(st) == {MAP: 1, GASOLINE: 1, WALKIE_TALKIE: 1}
    assert st[L.S_EXTRA_DRAWS] == 1 and st[L.S_GIFTS] == 0
    assert held(st, 0) == {MAP, GASOLINE} and held(st, 1) == {WALKIE_TALKIE}
    assert st[L.S_HEALTH + 1] == 6
    assert deck(st) == [BOLT_CUTTERS]
    assert (st[L.S_KEPT], st[L.S_KEPT + 1]) == (2, 1)
    rec = np.zeros(L.RECORD_SIZE, dtype=np.int32)
    game.write_record(st, rec)
    assert [int(rec[L.R_USED + i]) for i in (FLASHLIGHT, CURSED_OBJECT, BACKPACK,
                                              FIRST_AID_LARGE)] == [1, 1, 1, 1]
    assert int(rec[L.R_USED:L.R_USED + 12].sum()) == 4
    assert int(rec[L.R_KEPT_ITEM:L.R_KEPT_ITEM + 12].sum()) == 3
    assert (rec[L.R_EXTRA_DRAWS], rec[L.R_GIFTS]) == (1, 0)


# ==========================================================================================
# the exerciser's decisions
# ==========================================================================================
def test_exerciser_uses_first_aid_before_the_flashlight():
    # health 5, Large, Small and Flashlight held, n = 1: Large (5 -> 7), Small not (7 > 6),
    # then the Flashlight; the seen top (Map, Car Key) holds no Killer: back on top, the
    # lacking escape items first - already in that order
    st = make_state()
    set_discard(st, [])
    hold(st, 0, FIRST_AID_LARGE, FIRST_AID_SMALL, FLASHLIGHT)
    st[L.S_HEALTH] = 5
    st[L.S_DRAWS] = 1
    put_deck(st, [MAP, CAR_KEY])
    assert exerciser(interface.BEFORE_DRAW, 0, 0, st, NO_PARAMS) == FIRST_AID_LARGE
    use_items(exerciser, interface.BEFORE_DRAW, 0, st, NO_PARAMS)
    assert st[L.S_HEALTH] == 7
    assert discard(st) == [FIRST_AID_LARGE, FLASHLIGHT]
    assert held(st, 0) == {FIRST_AID_SMALL}
    assert deck(st) == [MAP, CAR_KEY] and seen(st) == [1, 1]


@pytest.mark.parametrize("n, deck_size, answer", [(1, 1, FLASHLIGHT), (3, 5, FLASHLIGHT),
                                                  (0, 4, -1), (2, 0, -1)])
def test_exerciser_flashlight_needs_a_draw_and_a_card_in_the_deck(n, deck_size, answer):
    st = make_state()
    hold(st, 0, FLASHLIGHT)
    st[L.S_DRAWS] = n
    put_deck(st, [MAP, CAR_KEY, GASOLINE, BACKPACK, LUCKY_CHARM][:deck_size])
    assert exerciser(interface.BEFORE_DRAW, 0, 0, st, NO_PARAMS) == answer
    assert exerciser(interface.PHASE_START, 0, 0, st, NO_PARAMS) == -1    # only before its draw


def test_exerciser_flashlight_moves_a_seen_killer_out_of_its_draw():
    # Woodland, n = 2, health 7 (no First Aid): the Flashlight sees Map, Killer, Car Key ->
    # all to the bottom in that order; the draws are Gasoline and Backpack; the baseline keeps
    # the missing escape item (Gasoline)
    st = phase_state()
    put_deck(st, [MAP, KILLER, CAR_KEY, GASOLINE, BACKPACK])
    hold(st, 0, FLASHLIGHT)
    st[L.S_WON] = yellows(2)
    st[L.S_WHITE_COLOUR] = COL_G
    item_turn(exerciser, 0, st, NO_PARAMS)
    assert st[L.S_HEALTH] == 7 and st[L.S_KILLER_DRAWS] == 0
    assert held(st, 0) == {GASOLINE}
    assert deck(st) == [MAP, KILLER, CAR_KEY]
    assert seen(st) == [1, 1, 1]
    assert discard(st) == [FLASHLIGHT, BACKPACK]

def _flashlight_answer(peek, team=()):
    st = make_state()
    hold(st, 1, *team)
    st[L.S_PEEK:L.S_PEEK + len(peek)] = peek
    return exerciser(interface.PEEK_ORDER, 0, len(peek), st, NO_PARAMS)


@pytest.mark.parametrize("peek", [[MAP, KILLER, CAR_KEY], [KILLER, BACKPACK], [KILLER],
                                  [FLASHLIGHT, BACKPACK, KILLER]])
def test_exerciser_sends_seen_cards_with_the_killer_to_the_bottom_in_order_seen(peek):
    assert _flashlight_answer(peek) == 6          # order 0 (as seen), bottom


@pytest.mark.parametrize("peek, team, answer", [
    ([MAP, GASOLINE, FLASHLIGHT], (), 0),                 # 0 1 2 already
    ([FLASHLIGHT, MAP, BACKPACK], (), 2),                 # Map first: 1 0 2
    ([BACKPACK, GASOLINE, MAP], (), 3),                   # 1 2 0
    ([FLASHLIGHT, LUCKY_CHARM, BOLT_CUTTERS], (), 4),     # 2 0 1
    ([BACKPACK, MAP], (), 1),                             # two cards: 1 0
    ([GASOLINE, MAP, CAR_KEY], (GASOLINE,), 3),           # partner "holds" Gasoline: 1 2 0
    ([FLASHLIGHT, BACKPACK, LUCKY_CHARM], (), 0),         # nothing lacking: as seen
])
def test_exerciser_puts_lacking_escape_items_on_top_then_the_rest(peek, team, answer):
    # FLASHLIGHT_ORDERS[2]: 0 = 012, 1 = 021, 2 = 102, 3 = 120, 4 = 201, 5 = 210
    assert _flashlight_answer(peek, team) == answer


def test_exerciser_always_draws_the_cabins_extra_card():
    # n = 1: Map, then the extra card (Car Key); Gasoline stays
    st = make_state(area=CABINS)
    put_deck(st, [MAP, CAR_KEY, GASOLINE])
    st[L.S_DRAWS] = 1
    assert not draw_items(exerciser, 0, st, NO_PARAMS)
    assert drawn(st) == [MAP, CAR_KEY]
    assert st[L.S_EXTRA_DRAWS] == 1


def test_exerciser_counts_the_cabins_extra_card_for_the_backpack():
    # the exerciser: Cabins' extra card counts as the last drawn card. n = 1: Flashlight, then the
    # extra card First Aid Small: 2 keepable -> the held Backpack is used and both are kept.
    st = phase_state(area=CABINS)
    hold(st, 0, BACKPACK)
    put_deck(st, [FLASHLIGHT, FIRST_AID_SMALL, MAP])
    st[L.S_WHITE_COLOUR] = COL_G
    item_turn(exerciser, 0, st, NO_PARAMS)
    assert st[L.S_EXTRA_DRAWS] == 1
    assert held(st, 0) == {FLASHLIGHT, FIRST_AID_SMALL}
    assert discard(st) == [BACKPACK] and deck(st) == [MAP]

@pytest.mark.parametrize("mine, health, partner, answer", [
    ((FIRST_AID_SMALL, FIRST_AID_LARGE), 6, 5, FIRST_AID_LARGE),   # Large first
    ((FIRST_AID_SMALL, MAP), 7, 1, FIRST_AID_SMALL),
    ((FIRST_AID_LARGE,), 5, 5, -1),                                # not strictly above
    ((FIRST_AID_LARGE,), 3, 6, -1),
    ((MAP, LUCKY_CHARM, FLASHLIGHT, BACKPACK, WALKIE_TALKIE), 7, 1, -1),   # kits only
])
def test_exerciser_gifts_only_first_aid_kits_to_a_weaker_partner(mine, health, partner,
                                                                  answer):
    st = make_state(area=FIRE_PIT)
    hold(st, 0, *mine)
    st[L.S_HEALTH], st[L.S_HEALTH + 1] = health, partner
    assert exerciser(interface.TRADE, 0, 0, st, NO_PARAMS) == answer


def test_exerciser_never_uses_the_play_windows():
    st = make_state("instructions")
    hold(st, 0, FIRST_AID_LARGE, LUCKY_CHARM, FLASHLIGHT)
    st[L.S_HEALTH] = 2
    st[L.S_TRAPS] = 2
    st[L.S_DRAWS] = 2
    for decision, arg in ((interface.PLAY_START, 0), (interface.AFTER_TRICK, 3)):
        assert exerciser(decision, 0, arg, st, NO_PARAMS) == -1
