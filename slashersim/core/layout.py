"""Field offsets of the flat int64 arrays the kernels share.

The rule settings of a configuration are one ``int64`` array ``cfg`` of length ``CFG_SIZE``
(built by :meth:`slashersim.core.config.GameConfig.to_array`). A game's whole state is one ``int64``
array ``st`` of length ``STATE_SIZE`` that starts with a copy of ``cfg`` (so ``st[C_TRAPS]`` is
a rule setting) and the game's random streams, then the game itself; a finished game is one
row of ``RECORD_FIELDS`` int32 columns; a run's counts are one int64 array laid out by ``K_*``.
Plain offsets keep the kernels allocation-free and let numba pass everything as arrays.

The statistics and the card hooks are laid out from the field registry (:mod:`.fields`), which
declares each once: a statistic's own state slot ``S_<NAME>``, its record field ``R_<NAME>``
and its counts ``K_<NAME>``, and each hook's table ``C_AREA_<NAME>`` (a row per area card) or
``C_<NAME>``, are made here from its line there.
"""
import numpy as np

from . import fields as F
from .fields import MAX_KILLER_START, MAX_LOSS_ROUND  # noqa: F401 (the counts' histograms)
from .rules import MAX_ADDED_ITEMS, MAX_AREAS, MAX_ITEM_IDS, STANDARD_ITEMS


class _Layout:
    """Hands out consecutive offsets; ``field(n)`` reserves ``n`` slots."""

    def __init__(self):
        self.size = 0
        self.names = []

    def field(self, name, n=1):
        off = self.size
        self.size += n
        self.names.append((name, off, n))
        return off

    def offset(self, name):
        """The offset of the field ``name``."""
        return next(off for field, off, _ in self.names if field == name)

    def fields(self, prefix, declared):
        """Lay out the ``declared`` fields of the registry (each with a ``name`` and ``slots``)
        in order, and name each ``<prefix><NAME>`` in this module; ``{name: offset}``."""
        offsets = {f.name: self.field(f.name, f.slots) for f in declared}
        globals().update({prefix + name.upper(): off for name, off in offsets.items()})
        return offsets


# --- cfg: rule settings -------------------------------------------------------------------
_c = _Layout()
C_EDITION = _c.field("edition")                      #: 0 rulebook, 1 instructions
C_START_HEALTH = _c.field("start_health")
C_MAX_HEALTH = _c.field("max_health")
C_ESCAPES_NEEDED = _c.field("escapes_needed")
C_TRAPS = _c.field("traps")                          #: traps that lose the game
C_MAX_ROUNDS = _c.field("max_rounds")
C_AREA_DECK = _c.field("area_deck")                  #: rules.AREA_DECK_*
C_AREAS_USED = _c.field("areas_used")                #: cycle length of the instructions deck
C_LEADER = _c.field("leader")                        #: rules.LEADER_*
C_FIRST_LEADER = _c.field("first_leader")            #: round-1 leader under LEADER_LAST_TRICK
C_ITEM_DECK = _c.field("item_deck")                  #: rules.ITEM_DECK_*
#: items in the rulebook's top group (:func:`rules.top_group_size`); the Killer joins them
C_TOP_GROUP = _c.field("top_group")
C_KILLER_RESHUFFLE = _c.field("killer_reshuffle")    #: rules.KILLER_RESHUFFLE_*
C_USED_ITEMS = _c.field("used_items")                #: rules.USED_*
C_JUNK = _c.field("junk")                            #: Junk cards set aside
C_WHITE_RED_KNIVES = _c.field("white_red_knives")
C_WHITE_RED_GREENS = _c.field("white_red_greens")
C_WALKIE_WITHOUT_DRAW = _c.field("walkie_without_draw")
C_KILLER_POSITION = _c.field("killer_position")      #: 0 random, k forces position k (1 = top)
C_FIRST_AREA = _c.field("first_area")                #: 0 random, a + 1 forces area a first
C_FIRST_TRUMP = _c.field("first_trump")              #: 0 random, s + 1 forces round 1's trump
#: 0 random, y + 1 forces player p's round-1 yellows
C_FIRST_YELLOWS = _c.field("first_yellows", 2)
C_CHECK = _c.field("check")                          #: 1: check invariants every round
C_ITEM_TIMING = _c.field("item_timing")              #: rules.ITEM_TIMING_*
C_KEEP_OPTIONAL = _c.field("keep_optional")          #: 1: keeping a drawn card is optional
#: 1: the keep of a draw that held the Cursed Object is optional (``cursed_keep``)
C_CURSED_KEEP = _c.field("cursed_keep")
#: rules.NO_YELLOW_DRAW_*: whether a player who won no yellow must draw its one card
C_NO_YELLOW_DRAW = _c.field("no_yellow_draw")
C_DRAW_ORDER = _c.field("draw_order")                #: rules.DRAW_*
C_GIFTS = _c.field("gifts")                          #: rules.GIFTS_*
C_AID_TARGET = _c.field("aid_target")                #: rules.AID_*
#: rules.BEFORE_DRAW_*: who may use items in window (b), before a player's own draw
C_BEFORE_DRAW_ITEMS = _c.field("before_draw_items")
#: fixed arrow player per area, or -1 random
C_ARROWS = _c.field("arrows", MAX_AREAS)
#: area cards in the card set (area ids 0 ..; the printed seven first)
C_N_AREAS = _c.field("n_areas")
C_AREA_IN = _c.field("area_in", MAX_AREAS)           #: 1 if the area is in the pool
C_AREA_LEVEL = _c.field("area_level", MAX_AREAS)     #: rulebook group, 1 (top) or 2
C_RED_KNIVES = _c.field("red_knives", 5)
C_RED_GREENS = _c.field("red_greens", 5)
C_WHITE_COLOUR = _c.field("white_colour", 8)         #: colour of a white at health h
#: item cards a card file adds beside the twelve (ids ``rules.FIRST_ADDED_ITEM ..``)
C_N_ADDED_ITEMS = _c.field("n_added_items")
C_ITEM_IN = _c.field("item_in", MAX_ITEM_IDS)        #: 1 if the item card is in the game
#: the card hooks (``fields.HOOKS``), one table each, filled from the cards by
#: ``GameConfig.to_array``: ``C_AREA_<NAME>`` a row per area card, ``C_<NAME>`` per item id,
#: per item kind or one
HOOK_OFFSETS = {h.name: _c.field(h.name, h.slots) for h in F.HOOKS}
globals().update({h.field: HOOK_OFFSETS[h.name] for h in F.HOOKS})
#: 1: a recorded game, whose positions the engine shows the recorder (``interface.observe``)
C_OBSERVE = _c.field("observe")
CFG_SIZE = _c.size

# --- st: one game's state -----------------------------------------------------------------
DECK_CAPACITY = 24
_s = _Layout()
_s.size = CFG_SIZE                                   #: st[:CFG_SIZE] is a copy of cfg
#: deal stream: number-card shuffles and the trump
DEAL = 0
#: item-deck stream: set-up and reshuffles
ITEMS = 1
#: area stream: area order, arrows, reshuffles
AREAS = 2
#: the deciding player's own stream: while a player decides, its stream is in this slot (the
#: engine moves it in from ``S_PLAYER_RNG`` and back after the answer; 0 between decisions)
POLICY = 3
#: random streams of a game: deal, items, areas, and one per player (seeded as streams
#: ``POLICY + p``)
N_STREAMS = 5
S_RNG = _s.field("rng", 4)                           #: deal, items, areas, the decider's
#: each player's own stream between its decisions; the partner's is hidden from a player
S_PLAYER_RNG = _s.field("player_rng", 2)
S_DYNAMIC = _s.size                                  #: st[S_DYNAMIC:] is reset for each game
#: slots of a player's declared memory: the only state a policy may write besides its stream,
#: kept from one decision to the next within a game, seen by its player alone
MEMORY_SIZE = 16
S_MEMORY = _s.field("memory", 2 * MEMORY_SIZE)       #: player p's at S_MEMORY + p * MEMORY_SIZE
S_ROUND = _s.field("round")                          #: 1-based number of the current round
S_AREA = _s.field("area")
S_TRUMP = _s.field("trump")                          #: trump suit of the round
S_TRUMP_CARD = _s.field("trump_card")                #: the revealed trump-deck card
S_ROUND_LEADER = _s.field("round_leader")
S_TRICK = _s.field("trick")                          #: tricks completed this round
S_TRICK_LEADER = _s.field("trick_leader")            #: leader of the current trick
S_LED = _s.field("led")                              #: card led in the current trick, or -1
S_TRAPS = _s.field("traps")
S_TRAP_ROUND = _s.field("trap_round")                #: 1 once a trap went off this round
S_TRAPS_AT_START = _s.field("traps_at_start")
S_CHARMS_ROUND = _s.field("charms_round")
S_OUTCOME = _s.field("outcome")                      #: rules.RUNNING / WIN / LOSS_* / TIMEOUT
S_HEALTH = _s.field("health", 2)
S_HAND = _s.field("hand", 2)                         #: bitmask of number cards in hand
S_WON = _s.field("won", 2)                           #: bitmask of cards won this round
S_TRICKS = _s.field("tricks", 2)                     #: tricks won this round
S_PLAYED = _s.field("played")                        #: bitmask of cards played this round
S_PLAY_LOG = _s.field("play_log", 16)                #: cards in play order this round
S_TRUMP_DECK = _s.field("trump_deck")                #: bitmask of the 4 undealt cards
S_HELD = _s.field("held", 2)                         #: bitmask of item ids held
S_OUT = _s.field("out")                              #: bitmask of item ids out of the game
S_JUNK_ASIDE = _s.field("junk_aside")
S_DECK_N = _s.field("deck_n")
S_DECK = _s.field("deck", DECK_CAPACITY)             #: item deck, index 0 = bottom
S_DISCARD_N = _s.field("discard_n")
S_DISCARD = _s.field("discard", DECK_CAPACITY)       #: discard pile, earliest first
S_DRAWN_N = _s.field("drawn_n")
S_DRAWN = _s.field("drawn", DECK_CAPACITY)           #: this turn's drawn cards, in order
S_PICK = _s.field("pick", 2)                         #: drawn indices picked to keep, or -1
S_PICKS = _s.field("picks")                          #: picks allowed this turn (1 or 2)
S_KILLER_DRAWN = _s.field("killer_drawn")            #: 1 if the Killer came up this round
S_AREA_N = _s.field("area_n")
S_AREA_POS = _s.field("area_pos")
S_AREA_DECK = _s.field("area_deck", MAX_AREAS)
S_ARROW = _s.field("arrow", MAX_AREAS)               #: player each area card points to
S_WHITE_COLOUR = _s.field("white_colour", 2)         #: colour of whites this item phase
S_GREENS = _s.field("greens", 2)                     #: greens left after Lakeside
S_YELLOWS = _s.field("yellows", 2)
S_KNIVES = _s.field("knives", 2)                     #: knives left after nullifying
S_DRAWS = _s.field("draws", 2)                       #: draw count n
S_TURN = _s.field("turn")                            #: item-phase player, or -1
S_PEEK_N = _s.field("peek_n")
S_PEEK = _s.field("peek", 3)                         #: Flashlight: top cards, top first
#: per deck slot (like S_DECK): bit p = player p saw the card there with a Flashlight; bit
#: SLOT_TOP_GROUP = the slot belongs to the rulebook's top group (where the Killer started)
S_DECK_SEEN = _s.field("deck_seen", DECK_CAPACITY)
S_PERM = _s.field("perm", 20)                        #: deal scratch
KNAPSACK_CAPACITY = 16
S_KNAPSACK = _s.field("knapsack", KNAPSACK_CAPACITY + 1)  #: nullify scratch
#: the statistics' own slots (``fields.RECORDS`` whose state is ``OWN``), ``S_<NAME>``: the
#: rules count into them during a game
_s.fields("S_", [r for r in F.RECORDS if r.state == F.OWN])
S_CURSED_DRAWN = _s.field("cursed_drawn")            #: 1 once this draw held the Cursed Object
STATE_SIZE = _s.size
#: the fields of the state after the rule settings: ``(name, offset, slots)``, in order
STATE_FIELDS = tuple(_s.names)
#: bit of ``S_DECK_SEEN``: the slot is in the top group of the rulebook's first item deck
SLOT_TOP_GROUP = 4

#: invariant-violation flags (st[S_VIOLATIONS])
V_CARDS, V_ITEMS, V_HEALTH, V_TRAPS, V_POLICY = 1, 2, 4, 8, 16

# --- the view block: what a Python player is shown, kept after the state -------------------
#: most legal answers of any decision (a keep or a Walkie-talkie pick from a full pile, or -1;
#: a use window with every item card usable, each on either player)
MAX_LEGAL = max(DECK_CAPACITY + 1, 1 + 2 * (len(STANDARD_ITEMS) + MAX_ADDED_ITEMS))
#: offsets in the block after the state (:mod:`.view`): the view (a copy of the state, at 0),
#: then the decision and its legal answers
V_DECISION = STATE_SIZE
V_PLAYER = V_DECISION + 1
V_ARG = V_DECISION + 2
V_N_LEGAL = V_DECISION + 3
V_LEGAL = V_DECISION + 4
VIEW_SIZE = V_LEGAL + MAX_LEGAL

# --- per-game records ---------------------------------------------------------------------
_r = _Layout()
#: the offset of each record field, by name
RECORD_OFFSETS = _r.fields("R_", F.RECORDS)
RECORD_SIZE = _r.size
RECORD_FIELDS = tuple(_r.names)



def _runs(rows):
    """``rows`` of ``[source, target, slots, *rest]`` with each run of rows that follow on in
    both the source and the target (and share the rest) made one row: fewer, longer copies."""
    out = []
    for source, target, slots, *rest in rows:
        last = out[-1] if out else None
        if last and last[0] + last[2] == source and last[1] + last[2] == target \
                and last[3:] == rest:
            last[2] += slots
        else:
            out.append([source, target, slots, *rest])
    return np.array(out, dtype=np.int64).reshape(len(out), -1)


#: what ``engine.game.write_record`` copies from the state: ``(state offset, record offset,
#: slots)`` of each record field but the derived ones, fields that follow on in both as one
RECORD_COPY = _runs([[_s.offset(r.name if r.state == F.OWN else r.state),
                      RECORD_OFFSETS[r.name], r.slots]
                     for r in F.RECORDS if r.state != F.DERIVED])

# --- counts of a run ----------------------------------------------------------------------
_k = _Layout()
#: the offset of each count but the histograms by round, by name
COUNT_OFFSETS = _k.fields("K_", [c for c in F.COUNTS if c.by != F.OPEN])
K_FIXED_SIZE = _k.size
#: the counts before the histograms by round: ``(name, offset, slots)``, in order
COUNT_FIELDS = tuple(_k.names)
#: the histograms by round at the open end of the counts, each ``max_rounds + 1`` long
OPEN_COUNTS = tuple(c.name for c in F.COUNTS if c.by == F.OPEN)


def _count_ops(how):
    """What ``engine.game.aggregate`` does for each count reduced by ``how``: ``(record offset,
    count offset, slots, histogram slots, outcomes counted)``; the count offset of a histogram
    by round is its number among :data:`OPEN_COUNTS` (``histogram slots`` 0: ``max_rounds +
    1``), the outcomes a bitmask over their codes; sums that follow on in both as one."""
    rows = [[RECORD_OFFSETS.get(c.of, 0),
             OPEN_COUNTS.index(c.name) if c.by == F.OPEN else COUNT_OFFSETS[c.name],
             F.RECORD[c.of].slots if c.of else 1, c.slots if how == F.HIST else 0, c.when_mask]
            for c in F.COUNTS if c.how == how]
    return _runs(rows) if how == F.SUM else np.array(rows, dtype=np.int64).reshape(-1, 5)


COUNT_GAMES, COUNT_SUMS, COUNT_TOTALS, COUNT_ANYS, COUNT_HISTS = (
    _count_ops(how) for how in (F.GAMES, F.SUM, F.TOTAL, F.ANY, F.HIST))


def counts_size(max_rounds):
    """Length of a counts array for runs of at most ``max_rounds`` rounds."""
    return K_FIXED_SIZE + len(OPEN_COUNTS) * (max_rounds + 1)


def open_count(counts, name):
    """The histogram by round ``name`` (one of :data:`OPEN_COUNTS`) of ``counts``: games by
    round 0, 1, ..., ``max_rounds``."""
    n = (len(counts) - K_FIXED_SIZE) // len(OPEN_COUNTS)
    start = K_FIXED_SIZE + OPEN_COUNTS.index(name) * n
    return counts[start:start + n]


def new_state(cfg):
    """A zeroed game state ``ndarray(int64, (STATE_SIZE,))`` holding the rules ``cfg``."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[:CFG_SIZE] = cfg
    return st


def state_field(offset):
    """The state slot ``offset`` in words: ``"hand[1]"``, ``"rng[3]"`` (a slot of ``cfg`` is
    ``"cfg[k]"``)."""
    for name, off, n in _s.names:
        if off <= offset < off + n:
            return name if n == 1 else f"{name}[{offset - off}]"
    return f"cfg[{offset}]" if 0 <= offset < CFG_SIZE else f"slot {offset}"
