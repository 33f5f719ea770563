"""The item phase (docs/rules.md, "The item phase"): sorting the cards won, nullifying, windows
and items, draws, the Killer, keeping, gifts; the colour of whites, Lakeside and the draw count
are in :mod:`.predicates`."""
from numba import njit
import numpy as np

from ..core.layout import (
    C_AID_TARGET,
    C_AREA_EXTRA_DRAW,
    C_AREA_GIFTS,
    C_AREA_KILLER_ALL,
    C_BEFORE_DRAW_ITEMS,
    C_DRAW_ORDER,
    C_ESCAPES_NEEDED,
    C_GIFTS,
    C_ITEM_EXTRA_DRAWS,
    C_ITEM_HEAL,
    C_ITEM_TIMING,
    C_JUNK,
    C_KILLER_RESHUFFLE,
    C_MAX_HEALTH,
    C_NO_YELLOW_DRAW,
    C_RED_GREENS,
    C_RED_KNIVES,
    C_USABLE,
    C_USED_ITEMS,
    C_WALKIE_WITHOUT_DRAW,
    C_WHITE_RED_GREENS,
    C_WHITE_RED_KNIVES,
    KNAPSACK_CAPACITY,
    S_AREA,
    S_CHARMS_ROUND,
    S_CURSED_DRAWN,
    S_DAMAGE,
    S_DECK,
    S_DECK_N,
    S_DECK_SEEN,
    S_DISCARD,
    S_DISCARD_N,
    S_DRAWN,
    S_DRAWN_N,
    S_DRAWS,
    S_EXTRA_DRAWS,
    S_GIFTS,
    S_GREENS,
    S_HEALTH,
    S_HELD,
    S_JUNK_ASIDE,
    S_KEPT,
    S_KEPT_ITEM,
    S_KILLER_DRAWN,
    S_KILLER_DRAWS,
    S_KNAPSACK,
    S_KNIVES,
    S_LOST_ROUND,
    S_OUT,
    S_OUTCOME,
    S_PEEK,
    S_PEEK_N,
    S_PICK,
    S_PICKS,
    S_ROUND,
    S_ROUND_LEADER,
    S_TRAPS,
    S_TRICK_LEADER,
    S_TURN,
    S_USED,
    S_VIOLATIONS,
    S_WHITE_COLOUR,
    S_WON,
    S_YELLOWS,
    V_POLICY,
)
from ..core.rules import (
    AID_EITHER,
    BEFORE_DRAW_BOTH_PLAYERS,
    COLOUR_GREEN,
    COLOUR_YELLOW,
    DRAW_LAST_TRICK_WINNER,
    GIFTS_NONE,
    GREEN,
    ITEM_TIMING_ANY_TIME,
    JUNK,
    KILLER,
    KILLER_RESHUFFLE_AT_ONCE,
    KIND_CURSED,
    KIND_ESCAPE,
    KIND_KEEP_ONE_MORE,
    KIND_LOOK_AT_TOP,
    KIND_REMOVE_TRAP,
    KIND_TAKE_FROM_DISCARD,
    LOSS_HEALTH,
    MAX_ITEM_IDS,
    NO_YELLOW_DRAW_MAY,
    RED,
    RUNNING,
    SUIT_MASK,
    USED_TO_DISCARD,
    WHITE,
    WIN,
    YELLOW,
)
from . import interface
from .bits import lowest_bit, popcount
from .interface import (
    FLASHLIGHT_ORDERS,
    N_FLASHLIGHT_ORDERS,
    ask,
    keepable,
    kind_items,
    may_keep_none,
    observe,
    of_kind,
)
from .positions import SNAP_DRAW, SNAP_ITEMS
from .predicates import draw_count, greens_left, white_colour  # noqa: F401
from .rng import ITEMS, shuffle_slice

#: most items one phase may use or trade before the engine stops asking (guards bad policies)
_MAX_ACTIONS = 32


# --- step 1-4: colours, Lakeside, nullify, draw count --------------------------------------
@njit(cache=True, inline='always')
def nullify(st, red_mask, red_whites, greens):
    """Knives left after spending ``greens`` optimally on the reds (docs/rules.md,
    "Nullifying reds").

    ``red_mask`` is the bitmask of red number cards won, ``red_whites`` the whites turned red.
    Each green nullifies one green's worth whatever its rank, each is used once, and the
    choice maximises the knives removed: a 0/1 knapsack over at most ten reds, solved
    exactly by dynamic programming over the greens spent (scratch in ``st[S_KNAPSACK:]``).
    """
    if red_mask == 0 and red_whites == 0:
        return 0
    best = S_KNAPSACK  # st[best + g]: most knives removable with g greens
    cap = min(greens, KNAPSACK_CAPACITY)
    for g in range(cap + 1):
        st[best + g] = 0
    total = 0
    for r in range(5):
        if (red_mask >> (RED * 5 + r)) & 1:
            k = st[C_RED_KNIVES + r]
            need = st[C_RED_GREENS + r]
            total += k
            for g in range(cap, need - 1, -1):
                v = st[best + g - need] + k
                if v > st[best + g]:
                    st[best + g] = v
    k = st[C_WHITE_RED_KNIVES]
    need = st[C_WHITE_RED_GREENS]
    for _ in range(red_whites):
        total += k
        for g in range(cap, need - 1, -1):
            v = st[best + g - need] + k
            if v > st[best + g]:
                st[best + g] = v
    return total - st[best + cap]


@njit(cache=True, inline='always')
def sort_won_cards(st, player):
    """Steps 1-4 for ``player``: store greens, yellows, knives left and the draw count."""
    won = st[S_WON + player]
    area = st[S_AREA]
    greens = popcount(won & SUIT_MASK[GREEN])
    yellows = popcount(won & SUIT_MASK[YELLOW])
    whites = popcount(won & SUIT_MASK[WHITE])
    red_whites = 0
    colour = st[S_WHITE_COLOUR + player]
    if colour == COLOUR_GREEN:
        greens += whites
    elif colour == COLOUR_YELLOW:
        yellows += whites
    else:
        red_whites = whites
    greens = greens_left(st, area, greens)
    st[S_GREENS + player] = greens
    st[S_YELLOWS + player] = yellows
    st[S_KNIVES + player] = nullify(st, won & SUIT_MASK[RED], red_whites, greens)
    st[S_DRAWS + player] = draw_count(st, yellows, area)


# --- the piles ------------------------------------------------------------------------------
@njit(cache=True, inline='always')
def discard(st, card):
    """Put ``card`` face up on the discard pile."""
    st[S_DISCARD + st[S_DISCARD_N]] = card
    st[S_DISCARD_N] += 1


@njit(cache=True, inline='always')
def take_from_discard(st, index):
    """Remove and return the card at ``index`` of the discard pile."""
    card = st[S_DISCARD + index]
    n = st[S_DISCARD_N]
    for i in range(index, n - 1):
        st[S_DISCARD + i] = st[S_DISCARD + i + 1]
    st[S_DISCARD_N] = n - 1
    return card


@njit(cache=True)
def reshuffle_item_deck(st):
    """Shuffle the discard pile and the rest of the deck together into a new deck; what any
    Flashlight saw of the old order is forgotten."""
    n = st[S_DECK_N]
    for i in range(st[S_DISCARD_N]):
        st[S_DECK + n] = st[S_DISCARD + i]
        n += 1
    st[S_DISCARD_N] = 0
    st[S_DECK_N] = n
    for i in range(n):
        st[S_DECK_SEEN + i] = 0
    shuffle_slice(st, S_DECK, S_DECK + n, ITEMS)


@njit(cache=True, inline='always')
def dispose_used_item(st, item):
    """A used item goes to the discard pile (rulebook) or out of the game (instructions)."""
    st[S_USED + item] += 1
    if st[C_USED_ITEMS] == USED_TO_DISCARD:
        discard(st, item)
    else:
        st[S_OUT] |= 1 << item


@njit(cache=True, inline='always')
def team_escapes(st):
    """Number of different escape items the two players hold."""
    return popcount((st[S_HELD] | st[S_HELD + 1]) & kind_items(st, KIND_ESCAPE))


# --- items --------------------------------------------------------------------------------
@njit(cache=True)
def peek_top(st, player):
    """Flashlight, first half: ``player`` sees the top min(3, deck) cards, copied into
    ``st[S_PEEK:]`` (top first) and marked as seen by it in ``S_DECK_SEEN``; their count."""
    k = min(3, st[S_DECK_N])
    st[S_PEEK_N] = k
    top = st[S_DECK_N] - 1
    for i in range(k):
        st[S_PEEK + i] = st[S_DECK + top - i]
        st[S_DECK_SEEN + top - i] |= 1 << player
    return k


@njit(cache=True)
def reorder_top(st, answer):
    """Flashlight, second half: put the peeked cards back in the order ``answer`` chose.

    ``answer = order + 6 * bottom``; ``FLASHLIGHT_ORDERS[k - 1, order]`` lists the peeked
    indices top first, and ``bottom`` puts the block under the deck instead of on top.
    """
    k = st[S_PEEK_N]
    if answer < 0 or answer >= 2 * 6 or answer % 6 >= N_FLASHLIGHT_ORDERS[k]:
        st[S_VIOLATIONS] |= V_POLICY
        answer = 0
    order = answer % 6
    n = st[S_DECK_N]
    top = n - 1
    marks = 0
    for i in range(k):
        marks |= st[S_DECK_SEEN + top - i] << (8 * i)
    if answer // 6:
        # the rest of the deck moves up by k; the block goes under it, still top first
        for i in range(n - k - 1, -1, -1):
            st[S_DECK + i + k] = st[S_DECK + i]
            st[S_DECK_SEEN + i + k] = st[S_DECK_SEEN + i]
        top = k - 1
    for i in range(k):
        j = FLASHLIGHT_ORDERS[k - 1, order, i]
        st[S_DECK + top - i] = st[S_PEEK + j]
        st[S_DECK_SEEN + top - i] = (marks >> (8 * j)) & 255


@njit(cache=True)
def use_item(st, player, answer, flashlight_answer):
    """Use ``player``'s held item ``answer`` (of the heal, remove-trap or look-at-top kind:
    First Aid, Lucky Charm or Flashlight as printed); False if it can't.

    A heal item heals its holder (its card's ``heal``: +1 / +2 printed, never above the
    maximum), or the partner when the answer carries ``interface.ON_PARTNER`` and
    ``C_AID_TARGET`` allows it; a remove-trap item removes a set-off trap; a look-at-top item
    reorders the seen top cards by ``flashlight_answer`` (see :func:`reorder_top`).
    """
    item = answer % interface.ON_PARTNER
    target = player if answer < interface.ON_PARTNER else 1 - player
    ok = (0 <= answer < 2 * interface.ON_PARTNER and item < MAX_ITEM_IDS
          and (st[S_HELD + player] >> item) & 1 == 1)
    aid = ok and st[C_ITEM_HEAL + item] > 0
    if target == player:
        ok = ok and (aid or of_kind(st, item, KIND_LOOK_AT_TOP)
                     or (of_kind(st, item, KIND_REMOVE_TRAP) and st[S_TRAPS] > 0))
    else:
        ok = ok and aid and st[C_AID_TARGET] == AID_EITHER
    if ok:
        if aid:
            st[S_HEALTH + target] = min(st[C_MAX_HEALTH], st[S_HEALTH + target] +
                                        st[C_ITEM_HEAL + item])
        elif of_kind(st, item, KIND_REMOVE_TRAP):
            st[S_TRAPS] -= 1
            st[S_CHARMS_ROUND] += 1
        else:
            reorder_top(st, flashlight_answer)
        st[S_HELD + player] &= ~(1 << item)
        dispose_used_item(st, item)
    return ok


@njit
def use_items(policy, decision, player, st, params, arg):
    """Let ``player`` use items in the window ``decision`` (PHASE_START, BEFORE_DRAW,
    PLAY_START or AFTER_TRICK, whose ``arg`` is the trick just played; 0 for the others)
    until it says -1.

    The policy is asked only while the player holds an item usable now (``C_USABLE``); for a
    look-at-top item (the Flashlight) it is then shown the top cards and asked for their order
    (decision PEEK_ORDER). What it saw
    stays marked in ``S_DECK_SEEN``; ``S_PEEK`` is cleared after the use.
    """
    for _ in range(_MAX_ACTIONS):
        if not st[S_HELD + player] & st[C_USABLE]:
            break
        item = ask(policy, decision, player, arg, st, params)
        if item < 0:
            break
        answer = 0
        look = 0 <= item < MAX_ITEM_IDS and of_kind(st, item, KIND_LOOK_AT_TOP)
        if look and (st[S_HELD + player] >> item) & 1:
            k = peek_top(st, player)
            if k > 0:
                answer = ask(policy, interface.PEEK_ORDER, player, k, st, params)
        ok = use_item(st, player, item, answer)
        if look:
            st[S_PEEK_N] = 0
            for i in range(3):
                st[S_PEEK + i] = -1
        if not ok:
            st[S_VIOLATIONS] |= V_POLICY
            break


@njit(cache=True, inline='always')
def item_first_player(st):
    """The player who draws first and acts first in every item window (``C_DRAW_ORDER``):
    the round leader, or the winner of the round's last trick."""
    if st[C_DRAW_ORDER] == DRAW_LAST_TRICK_WINNER:
        return st[S_TRICK_LEADER]
    return st[S_ROUND_LEADER]


@njit
def play_window(policy, decision, arg, st, params):
    """A window of ``item_timing = any_time`` (docs/rules.md, "Item windows"): (c)
    ``PLAY_START`` after the deal, (d) ``AFTER_TRICK`` after trick ``arg``; each player, the
    round leader first, may use First Aid, Lucky Charms and the Flashlight. No window follows
    the end of the game."""
    if st[C_ITEM_TIMING] != ITEM_TIMING_ANY_TIME or st[S_OUTCOME]:
        return
    first = st[S_ROUND_LEADER]
    for i in range(2):
        p = first ^ i
        if st[S_HELD + p] & st[C_USABLE]:
            use_items(policy, decision, p, st, params, arg)


@njit
def gift_window(policy, st, params, window):
    """Gift window ``window`` of an area whose card allows gifts (docs/rules.md, "Fire pit
    gifts": 0 and 1 before the first and the second turn, 2 after both): each player, the first
    to draw first, may give held items to the partner (``C_GIFTS``: one-way gifts, or none);
    counted in ``S_GIFTS``."""
    if st[C_GIFTS] == GIFTS_NONE:
        return
    first = item_first_player(st)
    for i in range(2):
        p = first ^ i
        for _ in range(_MAX_ACTIONS):
            if not st[S_HELD + p]:
                break
            item = ask(policy, interface.TRADE, p, window, st, params)
            if item < 0:
                break
            if item >= MAX_ITEM_IDS or not (st[S_HELD + p] >> item) & 1:
                st[S_VIOLATIONS] |= V_POLICY
                break
            st[S_HELD + p] &= ~(1 << item)
            st[S_HELD + 1 - p] |= 1 << item
            st[S_GIFTS] += 1


# --- step 6: drawing ------------------------------------------------------------------------
@njit(cache=True, inline='always')
def draw_one(st):
    """Draw the top card of the (non-empty) item deck: the draws it adds, or -1 on the Killer.

    The Killer and the other cards go to the drawn cards ``st[S_DRAWN:]``; an item of the
    cursed kind (the Cursed Object) leaves the game instead and adds its ``C_ITEM_EXTRA_DRAWS``
    mandatory draws.
    """
    st[S_DECK_N] -= 1
    card = st[S_DECK + st[S_DECK_N]]
    st[S_DECK_SEEN + st[S_DECK_N]] = 0
    if of_kind(st, card, KIND_CURSED):
        st[S_CURSED_DRAWN] = 1
        st[S_OUT] |= 1 << card
        st[S_USED + card] += 1
        return st[C_ITEM_EXTRA_DRAWS + card]
    st[S_DRAWN + st[S_DRAWN_N]] = card
    st[S_DRAWN_N] += 1
    return -1 if card == KILLER else 0


@njit(inline='always')
def open_draw(policy, player, st, params):
    """The start of ``player``'s draw: nothing drawn yet; the cards it draws (its draw count),
    or -1 when a player who won no yellow declines its one card (``no_yellow_draw = "may"``,
    decision ``optional_draw``: then no card at all, nor an area's extra one)."""
    st[S_DRAWN_N] = 0
    st[S_CURSED_DRAWN] = 0
    n = st[S_DRAWS + player]
    if st[C_NO_YELLOW_DRAW] == NO_YELLOW_DRAW_MAY and st[S_YELLOWS + player] == 0 and n > 0 \
            and st[S_DECK_N] > 0:
        if ask(policy, interface.OPTIONAL_DRAW, player, 0, st, params) != 1:
            return -1
    return n


@njit(inline='always')
def takes_extra_draw(policy, player, st, params):
    """Whether ``player``, its draw count drawn without the Killer, draws one card more: the
    area card gives an extra draw (the Cabins), the deck is not empty, and it says yes
    (``extra_draw``); counted in ``S_EXTRA_DRAWS``."""
    if st[C_AREA_EXTRA_DRAW + st[S_AREA]] and st[S_DECK_N] > 0:
        if ask(policy, interface.EXTRA_DRAW, player, 0, st, params) == 1:
            st[S_EXTRA_DRAWS] += 1
            return True
    return False


@njit(inline='always')
def draw_rest(policy, player, st, params, turns, pending, extra_done):
    """The rest of ``player``'s draw (docs/rules.md, "Drawing"): ``pending`` cards still to
    draw, then, unless ``extra_done``, the optional extra card of an area whose card gives one
    (:func:`takes_extra_draw`); the draw ends on the Killer or an empty deck. A recorder is
    shown each card drawn (:func:`interface.observe`, with the cards still to draw and whether
    the extra card is past; ``turns``: the item phase's turns done before this one). True if
    the Killer came up (:func:`killer_drawn`)."""
    while True:
        while pending > 0 and st[S_DECK_N] > 0:
            extra = draw_one(st)
            if extra < 0:
                observe(policy, st, params, SNAP_DRAW, turns, 0, True)
                return True
            pending += extra - 1
            observe(policy, st, params, SNAP_DRAW, turns, pending, extra_done)
        if extra_done or not takes_extra_draw(policy, player, st, params):
            return killer_drawn(st)
        extra_done = True
        pending = np.int64(1)


@njit(cache=True, inline='always')
def killer_drawn(st):
    """Whether the current draw ended on the Killer (it is the last card drawn)."""
    n = st[S_DRAWN_N]
    return n > 0 and st[S_DRAWN + n - 1] == KILLER


# --- step 7: the Killer ---------------------------------------------------------------------
@njit(cache=True, inline='always')
def killer_damage(st, player):
    """Health the Killer takes: 1 + knives left, or everything in an area whose card says so
    (the Hideaway)."""
    if st[C_AREA_KILLER_ALL + st[S_AREA]]:
        return st[S_HEALTH + player]
    return 1 + st[S_KNIVES + player]


@njit(cache=True, inline='always')
def resolve_killer(st, player):
    """The Killer was drawn: damage, nothing kept, the cards back per edition (docs/rules.md,
    "The Killer")."""
    lost = min(st[S_HEALTH + player], killer_damage(st, player))
    st[S_HEALTH + player] -= lost
    st[S_DAMAGE + player] += lost
    st[S_KILLER_DRAWS] += 1
    st[S_KILLER_DRAWN] = 1
    for i in range(st[S_DRAWN_N]):
        discard(st, st[S_DRAWN + i])
    st[S_DRAWN_N] = 0
    if st[C_KILLER_RESHUFFLE] == KILLER_RESHUFFLE_AT_ONCE:
        if st[S_JUNK_ASIDE] > 0:
            discard(st, JUNK + st[C_JUNK] - st[S_JUNK_ASIDE])
            st[S_JUNK_ASIDE] -= 1
        reshuffle_item_deck(st)
    if st[S_HEALTH + player] == 0:
        st[S_OUTCOME] = LOSS_HEALTH
        st[S_LOST_ROUND] = st[S_ROUND]


# --- step 8: keeping ------------------------------------------------------------------------
@njit(cache=True, inline='always')
def first_keepable(st):
    """Index of the first drawn card that may be kept, or -1."""
    for i in range(st[S_DRAWN_N]):
        if keepable(st, st[S_DRAWN + i]):
            return i
    return -1


@njit(cache=True, inline='always')
def picks_win(st, player):
    """Whether the team holds the escape items needed once ``player`` keeps the drawn cards
    picked so far (``S_PICK``)."""
    held = st[S_HELD + player] | st[S_HELD + 1 - player]
    for k in range(2):
        if st[S_PICK + k] >= 0:
            held |= 1 << st[S_DRAWN + st[S_PICK + k]]
    return popcount(held & kind_items(st, KIND_ESCAPE)) >= st[C_ESCAPES_NEEDED]


@njit(inline='always')
def keep_items(policy, player, st, params):
    """Keep 1 drawn card (2 with a keep-one-more item, the Backpack; or one from the discard
    pile with a take-from-discard item, the Walkie-talkie).

    Keeping is optional or mandatory (:func:`interface.may_keep_none`): where mandatory, the first
    pick must be a keepable drawn card when there is one (an illegal answer becomes the first
    keepable card); a Backpack's second pick and the Walkie-talkie stay optional. The win is checked
    after every keep (docs/rules.md, "Winning and losing"): a pick that wins ends the keep, with
    no second pick and no Walkie-talkie asked (:func:`picks_win`)."""
    n = st[S_DRAWN_N]
    held_before = st[S_HELD + player]
    n_keepable = 0
    for i in range(n):
        if keepable(st, st[S_DRAWN + i]):
            n_keepable += 1
    st[S_PICK] = -1
    st[S_PICK + 1] = -1
    st[S_PICKS] = 1
    optional = may_keep_none(st)
    bags = held_before & kind_items(st, KIND_KEEP_ONE_MORE)
    if bags and n_keepable >= 2:
        if ask(policy, interface.USE_BACKPACK, player, n_keepable, st, params) == 1:
            bag = lowest_bit(bags)
            st[S_HELD + player] &= ~(1 << bag)
            dispose_used_item(st, bag)
            st[S_PICKS] = 2
    won = False
    for k in range(min(st[S_PICKS], n_keepable)):
        i = ask(policy, interface.KEEP, player, k, st, params)
        if i < 0 and (k > 0 or optional):
            break
        if i < 0 or i >= n or not keepable(st, st[S_DRAWN + i]) or st[S_PICK] == i:
            st[S_VIOLATIONS] |= V_POLICY
            if k > 0 or optional:
                break
            i = first_keepable(st)
        st[S_PICK + k] = i
        won = picks_win(st, player)
        if won:
            break
    from_discard = -1
    radios = held_before & kind_items(st, KIND_TAKE_FROM_DISCARD)
    if not won and radios and st[S_DISCARD_N] > 0 and \
            (n > 0 or st[C_WALKIE_WITHOUT_DRAW]):
        d = ask(policy, interface.TAKE_DISCARD, player, 0, st, params)
        if d >= 0:
            if d >= st[S_DISCARD_N] or not keepable(st, st[S_DISCARD + d]):
                st[S_VIOLATIONS] |= V_POLICY
            else:
                radio = lowest_bit(radios)
                st[S_HELD + player] &= ~(1 << radio)
                from_discard = take_from_discard(st, d)
                dispose_used_item(st, radio)
    if from_discard >= 0:
        st[S_HELD + player] |= 1 << from_discard
        st[S_KEPT + player] += 1
        st[S_KEPT_ITEM + from_discard] += 1
        if st[S_PICK] >= 0:
            st[S_PICK] = st[S_PICK + 1]
            st[S_PICK + 1] = -1
    for i in range(n):
        card = st[S_DRAWN + i]
        if i == st[S_PICK] or i == st[S_PICK + 1]:
            st[S_HELD + player] |= 1 << card
            st[S_KEPT + player] += 1
            st[S_KEPT_ITEM + card] += 1
        else:
            discard(st, card)
    st[S_DRAWN_N] = 0
    if team_escapes(st) >= st[C_ESCAPES_NEEDED]:
        st[S_OUTCOME] = WIN


# --- the phase ------------------------------------------------------------------------------
@njit(inline='always')
def before_draw_window(policy, player, st, params):
    """Window (b), before ``player``'s draw (docs/rules.md, "Item windows"): the drawing
    player uses items, or under ``before_draw_items = "both_players"`` each player in turn,
    the first to draw first (``S_TURN`` names the drawing player meanwhile)."""
    if st[C_BEFORE_DRAW_ITEMS] != BEFORE_DRAW_BOTH_PLAYERS:
        if st[S_HELD + player] & st[C_USABLE]:
            use_items(policy, interface.BEFORE_DRAW, player, st, params, np.int64(0))
        return
    first = item_first_player(st)
    for i in range(2):
        p = first ^ i
        if st[S_HELD + p] & st[C_USABLE]:
            use_items(policy, interface.BEFORE_DRAW, p, st, params, np.int64(0))


@njit(inline='always')
def begin_turn(policy, player, st, params):
    """A player's turn up to its draw (docs/rules.md, "The item phase", steps 1-5): won cards
    sorted, items used before drawing (:func:`before_draw_window`), the draw opened
    (:func:`open_draw`). Returns the cards to draw, or -1 when the player declines its draw."""
    st[S_TURN] = player
    sort_won_cards(st, player)
    before_draw_window(policy, player, st, params)
    return open_draw(policy, player, st, params)


@njit(inline='always')
def end_turn(policy, player, st, params):
    """A player's turn after its draw (steps 7-8): the Killer, or keeping."""
    if killer_drawn(st):
        resolve_killer(st, player)
    else:
        keep_items(policy, player, st, params)
    st[S_TURN] = -1


@njit
def item_turn(policy, player, st, params, turns):
    """One player's part of the item phase (docs/rules.md, "The item phase"), after
    ``turns`` turns of it: :func:`begin_turn`, :func:`draw_rest`, :func:`end_turn`."""
    n = begin_turn(policy, player, st, params)
    draw_rest(policy, player, st, params, turns, max(n, 0), n < 0)
    end_turn(policy, player, st, params)


@njit
def item_phase_start(policy, st, params):
    """The start of the item phase: whites coloured by health (docs/rules.md,
    "Colours of the whites"), then window (a),
    where each player, the first to draw first, may use items."""
    area = st[S_AREA]
    for p in range(2):
        st[S_WHITE_COLOUR + p] = white_colour(st, st[S_HEALTH + p], area)
    first = item_first_player(st)
    for i in range(2):
        p = first ^ i
        if st[S_HELD + p] & st[C_USABLE]:
            use_items(policy, interface.PHASE_START, p, st, params, np.int64(0))


@njit
def item_phase_part(policy, st, params, start, stop):
    """Turns ``start .. stop - 1`` of the item phase, each after its gift window where the area
    card allows gifts (the Fire pit), and the last gift window after turn 2; ``(0, 2)`` is the
    whole phase, and so are ``(0, 1)`` then ``(1, 2)`` while the game goes on in between.
    Stops on a finished game. A recorder is shown the phase before each turn and after the
    last (:func:`interface.observe`)."""
    first = item_first_player(st)
    gifts = st[C_AREA_GIFTS + st[S_AREA]] != 0
    for i in range(start, stop):
        observe(policy, st, params, SNAP_ITEMS, i, 0, False)
        if i == 0:
            item_phase_start(policy, st, params)
        if gifts:
            gift_window(policy, st, params, i)
        item_turn(policy, first ^ i, st, params, i)
        if st[S_OUTCOME]:
            return
    if stop == 2:
        if gifts:
            gift_window(policy, st, params, np.int64(2))
        if st[S_OUTCOME] == RUNNING:
            observe(policy, st, params, SNAP_ITEMS, 2, 0, False)


@njit
def item_phase(policy, st, params):
    """The item phase (docs/rules.md, "The item phase"): colours, window (a), then each player's
    turn in draw order, with the Fire pit's gift windows. Stops on a finished game."""
    item_phase_part(policy, st, params, np.int64(0), np.int64(2))
