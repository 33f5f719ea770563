"""Where the expert's numbers lie: the indices of its parameters and the slots of its scratch.

A card decision allocates one float array and one int array (``np.empty``) and its helpers read
and write fixed slots of them, named here: plain offsets keep the helpers allocation-free
(:data:`slashersim.engine.interface.borrowing`) and numba folds them into constants. Only what is
read before it is written gets zeroed (:func:`zero`).
"""
from numba import njit

from ...core.layout import DECK_CAPACITY
from ...core.rules import MAX_HEALTH
from ..params import EXPERT, index_of

# --- the parameters: the heuristic's (:mod:`..common` names those), then the expert's own --------
LEAD_SAMPLES = index_of(EXPERT, "lead_samples")
DD_FROM = index_of(EXPERT, "dd_from")
DD_HANDS = index_of(EXPERT, "dd_hands")
LEAD_WEIGHT = index_of(EXPERT, "lead_weight")
FOLLOW_WEIGHT = index_of(EXPERT, "follow_weight")
PRUNE_MARGIN = index_of(EXPERT, "prune_margin")
ESCAPE_VALUE = index_of(EXPERT, "escape_value")
WIN_VALUE = index_of(EXPERT, "win_value")


class _Layout:
    """Hands out consecutive offsets from ``start``; ``field(n)`` reserves ``n`` slots."""

    def __init__(self, start=0):
        self.size = start

    def field(self, n=1):
        off = self.size
        self.size += n
        return off


#: draw counts 0..ITEM_N - 1 in the item tables (more are counted as the most)
ITEM_N = 8
#: the partner's possible hands an exact check takes at most (``dd_hands``' upper bound)
MOST_HANDS = int(EXPERT[DD_HANDS].high)
#: net knives from which the Killer's hit (1 + knives) is above any health
KNIVES_MAX = 15
assert KNIVES_MAX >= MAX_HEALTH
#: a distribution of future yellows or net knives: its length, and the offsets of 0 yellows
#: and of 0 net knives in it (zero padding on both sides keeps the convolutions branch-free)
NDIST = 72
YOFF = 8
DOFF = 32

# --- pc (float): the constants of :func:`.items.cost_constants`, per player then shared ----------
_pc = _Layout()
PC_HEALTH = _pc.field()         #: health
PC_COLOUR = _pc.field()         #: the colour its whites take
PC_GREENS_REMOVED = _pc.field()       #: greens the area card removes (the Lakeside)
PC_KILLER_ALL = _pc.field()       #: 1 in the Hideaway (the Killer's hit is the whole health)
PC_DRAW_REDUCTION = _pc.field()           #: draws the area card takes away (the Tent site)
PC_WHITE_KNIVES = _pc.field()   #: a white-red's knives
PC_STRIDE = _pc.size            #: player p's constants start at ``PC_STRIDE * p``
_pc.size = 2 * PC_STRIDE
PC_RED = _pc.field(5)           #: the knives of red 1..5
PC_REDS = _pc.field(32)         #: ``PC_REDS + m``: the knives of the reds in the 5-bit mask m
PC_SIZE = _pc.size

# --- tab (float): an item table (:func:`.items.item_prepare`, :func:`.items.item_cell`) -----------
_t = _Layout()
T_HF = _t.field(ITEM_N)             #: the first drawer's chance of the Killer, by its draws
T_HS = _t.field(ITEM_N * ITEM_N)    #: the second's, by cell ``nf * ITEM_N + ns`` of both draws
T_G = _t.field(ITEM_N * ITEM_N)     #: the value gained (escape items, the game won), by cell
T_NONE = _t.field(DECK_CAPACITY + 1)  #: the chance that j unseen slots hold no missing escape
T_SIZE = _t.size

# --- it (int): the item table's ints -------------------------------------------------------------
_it = _Layout()
IT_N = _it.field()          #: item-deck size
IT_Z = _it.field()          #: how many slots the Killer may lie in
IT_NEED = _it.field()       #: escape items the team still needs
IT_AT_ONCE = _it.field()    #: 1 if the Killer reshuffles the deck at once
IT_FREE = _it.field()       #: the slots the player has not seen (a bit per draw from the top)
IT_FIXED = _it.field()      #: the slots seen to hold a missing escape item
IT_ZONE = _it.field()       #: the slots the Killer may lie in
IT_KSEEN = _it.field()      #: the Killer's seen slot, or -1
IT_DONE = _it.field()       #: the cells filled so far, a bit per cell
IT_SIZE = _it.size

# --- pt (int): the leads' pile tables (:func:`.items.pile_tables`), per player ------------------
_pt = _Layout()
PT_YELLOW = _pt.field()         #: the mask of the cards that count as yellows
PT_GREEN = _pt.field()          #: ... as greens
PT_WHITE = _pt.field()          #: ... the whites that carry knives
PT_LAKESIDE = _pt.field()       #: greens Lakeside removes
PT_WHITE_KNIVES = _pt.field()   #: a white-red's knives
PT_N = _pt.field(21)            #: ``PT_N + y``: the draws' index at y yellows
PT_RED = _pt.field(32)          #: ``PT_RED + m``: the knives of the reds in the mask m
PT_STRIDE = _pt.size            #: player p's tables start at ``PT_STRIDE * p``
#: dt (float): the cost of the Killer's damage at net knives 0..KNIVES_MAX, per player
DT_STRIDE = KNIVES_MAX + 1

# --- fl (float): a card decision's scratch; leads and answers share its start --------------------
_f = _Layout()
F_OUT = _f.field(20)        #: each legal card's closed-form cost
F_EFF = _f.field(20)        #: leads: each class's summed rollout cost
F_PC = _f.field(PC_SIZE)    #: the constants of :func:`.items.cost_constants`
F_SHARED = _f.size          #: an answer without futures needs no more
# ... leads (:func:`.leads.lead_card`)
_lead = _Layout(F_SHARED)
F_LEAD_TAB = _lead.field(T_SIZE)        #: the item table
F_COST = _lead.field(8)                 #: a rollout's cost of each class rolled out, by slot
F_BEST = _lead.field(20)                #: each class's least closed-form cost
F_DT = _lead.field(2 * DT_STRIDE)       #: the damage tables
F_LEAD_SIZE = _lead.size
# ... answers (:func:`.futures.follow_card`)
_ans = _Layout(F_SHARED)
F_CHANCE = _ans.field(40)               #: ``F_CHANCE + 2 card + p``: card's chance to go to p
F_DIST = _ans.field(4 * NDIST)          #: the future yellows of players 0, 1, their net knives
F_LESS = _ans.field(4 * NDIST)          #: ... less an answer: per player p its yellows at
#:                                         ``F_LESS + 2 p NDIST``, its knives NDIST further
F_PN = _ans.field(2 * ITEM_N)           #: per player the chance of each draw count
F_EDMG = _ans.field(2)                  #: per player the expected cost of the Killer's damage
F_TAB = _ans.field(T_SIZE)              #: the item table
F_SIZE = _ans.size

# --- ints (int): a lead's scratch -----------------------------------------------------------------
_i = _Layout()
I_POS = _i.field(20)            #: a card's priority bit in the rollouts
I_INV = _i.field(20)            #: the card of a priority bit
I_SUITP = _i.field(4)           #: each suit's mask in priority bits
I_PSUIT = _i.field(20)          #: the mask of the suit of a priority bit's card
I_CLASSES = _i.field(8)         #: the classes rolled out (their representatives), by slot
I_PARTNER = _i.field(MOST_HANDS)  #: the partner's possible hands of the exact checks
I_IT = _i.field(IT_SIZE)        #: the item table's ints
I_CARD = _i.field(20)           #: each class's lead: its first member of least closed-form cost
I_PT = _i.field(2 * PT_STRIDE)  #: the pile tables
I_WON = _i.field(8)             #: the cards player 0 won in a sample's rollout, by slot
I_SIZE = _i.size

# --- ji (int): an answer's scratch (:func:`.futures.expected_joint`), two slots per field --------
_j = _Layout()
J_YO = _j.field(2)      #: per player: the offset of its future yellows' distribution
J_YLO = _j.field(2)     #: ... its lowest count
J_YHI = _j.field(2)     #: ... its highest
J_DO = _j.field(2)      #: per player: the offset of its future net knives' distribution
J_DLO = _j.field(2)     #: ... its lowest count
J_DHI = _j.field(2)     #: ... its highest
J_ADD_Y = _j.field(2)   #: per player: the yellows the trick adds
J_ADD_D = _j.field(2)   #: ... the net knives it adds
J_IT = _j.field(IT_SIZE)  #: the item table's ints
J_SIZE = _j.size


@njit(cache=True, inline='always')
def zero(a, lo, hi):
    """``a[lo:hi] = 0`` (scratch comes from ``np.empty``: only what is read before it is
    written needs zeroing)."""
    for i in range(lo, hi):
        a[i] = 0.0
