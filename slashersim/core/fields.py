"""The field registry: each statistic of a game and each hook of a card, declared once.

A **statistic** is a field of the per-game record (:data:`RECORDS`: its name, its slots, the
state it is read from, one line of documentation) and the counts a run reduces the records to
(:data:`COUNTS`: the record field, the reduction, the column of a sweep table, where the answer
shows it). A **card hook** is one table of the rule settings through which the engine reads the
cards (:data:`HOOKS`: the card key it is built from, its values, how its table is built).

Everything else is made from these lines: the offsets of :mod:`.layout` (``S_<NAME>`` for a
statistic's own state slot, ``R_<NAME>``, ``K_<NAME>``, and the hooks' ``C_AREA_<NAME>`` or
``C_<NAME>``), the copy of the hooks into the rule settings (``GameConfig.to_array``), the
engine's record and counts (``engine.game.write_record``, ``aggregate``), the named counts, the
answer and the records of a run (:mod:`slashersim.runner.result`), the columns of a sweep table
(:mod:`slashersim.runner.tables`), the keys of a card file (:mod:`.cards`) and the reference
tables of the documentation. A new statistic is a line here and the rule that counts it into
its state slot; a new kind of area effect is a line here, its table builder when it is not a
plain number, flag or choice of the card, and the engine's rule that reads it.

Pure Python, read by the kernels' layout: an edit here starts a fresh numba cache.
"""
from typing import NamedTuple

from .rules import (
    ITEM_KINDS,
    LOSS_HEALTH,
    LOSS_TRAPS,
    MAX_AREAS,
    MAX_HEALTH,
    MAX_ITEM_IDS,
    N_ITEM_KINDS,
    N_NUMBER_CARDS,
    N_SUITS,
    OUTCOME_NAMES,
    TRICKS_PER_ROUND,
    WIN,
)

# --- what a field's slots are indexed by ------------------------------------------------------
GAME, SEAT, AREA, ITEM, OUTCOME, KILLER_PLACE, LOSS_ROUND, OPEN, KIND = (
    "game", "seat", "area", "item", "outcome", "killer_place", "loss_round", "open", "kind")
#: Killer places told apart in the counts by the Killer's place; later ones count in the last
MAX_KILLER_START = 20
#: rounds told apart in the counts by the round of a loss; later rounds count in the last
MAX_LOSS_ROUND = 12
#: the slots of a field indexed by each (``OPEN``: one per round up to ``max_rounds``, at the
#: open end of the counts)
SLOTS = {GAME: 1, SEAT: 2, AREA: MAX_AREAS, ITEM: MAX_ITEM_IDS, OUTCOME: len(OUTCOME_NAMES),
         KILLER_PLACE: MAX_KILLER_START + 1, LOSS_ROUND: MAX_LOSS_ROUND + 1, OPEN: 0,
         KIND: N_ITEM_KINDS}
#: a sweep table's columns of the games per outcome (the running outcome is never counted)
OUTCOME_COLUMNS = tuple("wins" if name == "win" else name for name in OUTCOME_NAMES[1:])

# --- statistics: the per-game record ----------------------------------------------------------
#: the state a record field is read from: a slot of its own (``S_<NAME>``), which the rules count
#: into during the game
OWN = ""
#: ... or worked out by ``engine.game.write_record`` from the state at the game's end
DERIVED = "derived"


class Record(NamedTuple):
    """A field of the per-game record: ``name`` (``R_<NAME>``), what its slots are indexed by
    (``per``: ``GAME``, ``SEAT``, ``AREA`` or ``ITEM``), the ``state`` field it is copied from
    at the game's end (``OWN``: a slot of its own, ``S_<NAME>``; ``DERIVED``), one line of
    ``doc``, and for a field per area or item card the ``stem`` of its columns
    (``<stem>_<area>``; default its name)."""

    name: str
    per: str
    state: str
    doc: str
    stem: str = ""

    @property
    def slots(self):
        return SLOTS[self.per]

    @property
    def column(self):
        return self.stem or self.name


#: the per-game record, in column order
RECORDS = (
    Record("outcome", GAME, "outcome",
           "how the game ended: `win`, `loss_health`, `loss_traps` or `timeout`"),
    Record("rounds", GAME, "round", "the rounds played"),
    Record("killer_start", GAME, OWN,
           "where the Killer lay in the first item deck, 1 = its top card"),
    Record("damage", SEAT, OWN, "health the Killer took from each player"),
    Record("kept", SEAT, OWN, "item cards each player kept"),
    Record("escapes", GAME, DERIVED, "the different escape items the team held at the end"),
    Record("traps", GAME, "traps", "traps set off at the end (those a Lucky Charm removed not "
                                   "counted)"),
    Record("health", SEAT, "health", "each player's health at the end"),
    Record("killer_draws", GAME, OWN, "times the Killer was drawn"),
    Record("violations", GAME, OWN, "the invariants of the rules the game broke, as bit flags "
                                    "(0 in a sound game)"),
    Record("traps_area", AREA, OWN, "traps set off in each area", "traps"),
    Record("rounds_area", AREA, OWN, "rounds played in each area", "rounds"),
    Record("first_area", GAME, OWN, "the area of round 1, by area id"),
    Record("first_trump", GAME, OWN, "the trump suit of round 1 (0 white, 1 green, 2 yellow, "
                                     "3 red)"),
    Record("first_yellows", SEAT, OWN, "the yellows each player was dealt in round 1"),
    Record("used", ITEM, OWN, "times each item card was used (a Cursed Object counts as used "
                              "when drawn)"),
    Record("kept_item", ITEM, OWN, "times each item card was kept", "kept"),
    Record("extra_draws", GAME, OWN,
           "extra cards drawn where an area card allows one more draw"),
    Record("gifts", GAME, OWN, "items given to the partner where an area card allows gifts"),
    Record("last_area", GAME, "area", "the area of the round the game ended in, by area id"),
    Record("lost_round", GAME, OWN, "the round the game was lost in, the Killer taking a last "
                                    "health or the last trap set off (0: not lost)"),
)

# --- statistics: the counts of a run ----------------------------------------------------------
#: how a count reduces its record field over the games: count the games; add each slot into its
#: own; add the slots into one; count the games where it is not 0; count the games by its value
#: (a histogram: a value past the last slot counts in the last)
GAMES, SUM, TOTAL, ANY, HIST = range(5)


class Count(NamedTuple):
    """A count of a run: ``name`` (``K_<NAME>``), the record field it reduces (``of``) and
    ``how``, one line of ``doc``; for a histogram what its slots are (``by``: ``OUTCOME``,
    ``AREA``, ``KILLER_PLACE``, ``LOSS_ROUND``, or ``OPEN``, one per round); ``when``: the
    outcomes of the games it counts (empty: every game). ``column`` names it in a sweep table
    and the named counts (a stem for one per area or item card; empty: not a column), and
    ``answer`` is where a run's answer (``summary()``) shows it, a dotted key (empty: not
    shown)."""

    name: str
    of: str
    how: int
    doc: str
    column: str = ""
    answer: str = ""
    by: str = ""
    when: tuple = ()

    @property
    def per(self):
        """What the count's slots are indexed by."""
        if self.how == HIST:
            return self.by
        if self.how == SUM:
            return RECORD[self.of].per
        return GAME

    @property
    def slots(self):
        return SLOTS[self.per]

    @property
    def when_mask(self):
        """The outcomes counted, a bitmask over the outcome codes."""
        return sum(1 << o for o in self.when) if self.when else (1 << len(OUTCOME_NAMES)) - 1


#: the counts of a run, the columns of a sweep table first, in column order; a histogram ``OPEN``
#: lies at the open end of the counts, which the run's ``max_rounds`` sizes
COUNTS = (
    Count("games", "", GAMES, "games played", "games", "games"),
    Count("outcomes", "outcome", HIST, "games per outcome: won, lost by health, lost by traps, "
                                       "no end within `max_rounds`", "outcomes", "outcomes",
          by=OUTCOME),
    Count("violations", "violations", ANY, "games that broke an invariant of the rules (0 in a "
                                           "sound run)", "invariant_violations",
          "invariant_violations"),
    Count("rounds", "rounds", SUM, "rounds played, all games", "rounds", "rounds"),
    Count("damage", "damage", TOTAL, "health lost to the Killer, both players", "damage",
          "damage"),
    Count("traps_area", "traps_area", SUM, "traps set off in each area", "traps",
          "traps_by_area"),
    Count("rounds_area", "rounds_area", SUM, "rounds played in each area", "rounds",
          "rounds_by_area"),
    Count("rounds_hist", "rounds", HIST, "games that ended in round 0, 1, 2, ... (a list of "
                                         "integers)", "rounds_hist", "rounds_hist", by=OPEN),
    Count("lost_round_hist", "lost_round", HIST, "games lost in round 0, 1, 2, ..., by health or "
                                                 "by traps (a list of integers)",
          "lost_round_hist", "losses.lost_round_hist", by=OPEN, when=(LOSS_HEALTH, LOSS_TRAPS)),
    Count("used", "used", SUM, "times each item card was used (a Cursed Object counts as used "
                               "when drawn)", "used", "item_stats.used"),
    Count("kept_item", "kept_item", SUM, "times each item card was kept", "kept",
          "item_stats.kept"),
    Count("killer_draws", "killer_draws", SUM, "Killers drawn", "killer_draws",
          "item_stats.killer_draws"),
    Count("extra_draws", "extra_draws", SUM, "extra cards drawn where an area card allows one "
                                             "more draw", "extra_draws",
          "item_stats.extra_draws"),
    Count("gifts", "gifts", SUM, "items given to the partner where an area card allows gifts",
          "gifts", "item_stats.gifts"),
    Count("kept", "kept", TOTAL, "item cards kept, both players"),
    Count("killer_games", "killer_start", HIST, "games by the Killer's place in the first item "
                                                "deck", by=KILLER_PLACE),
    Count("killer_wins", "killer_start", HIST, "games won by the Killer's place in the first "
                                               "item deck", by=KILLER_PLACE, when=(WIN,)),
    Count("loss_health_area", "last_area", HIST, "games lost by health, by the area of the "
                                                 "round the Killer took the last health in",
          answer="losses.health_by_area", by=AREA, when=(LOSS_HEALTH,)),
    Count("loss_health_round", "rounds", HIST, "games lost by health, by the round the Killer "
                                               "took the last health in (the last: that round "
                                               "or later)",
          answer="losses.health_by_round", by=LOSS_ROUND, when=(LOSS_HEALTH,)),
    Count("loss_traps_area", "last_area", HIST, "games lost by traps, by the area of the round "
                                                "the last trap was set off in",
          answer="losses.traps_by_area", by=AREA, when=(LOSS_TRAPS,)),
)

# --- card hooks -------------------------------------------------------------------------------
ONE = "one"
#: how a hook's table is built from its card key: a whole number (in ``values``, or the name of
#: a rule parameter); true or false; the index of the key's value in ``values``; from the
#: card's rule expression (``cards``' builder of that table); from the other tables (likewise)
NUMBER, FLAG, CHOICE, EXPRESSION, FROM_TABLES = ("number", "flag", "choice", "expression",
                                                 "from_tables")


class Hook(NamedTuple):
    """A card hook: one table of the rule settings the engine reads the cards through.
    ``name`` names the table (``CardSet.tables()``) and its layout field, ``C_AREA_<NAME>``
    with a row per area card (``per = AREA``), else ``C_<NAME>`` (``ITEM``: a row per item id,
    ``KIND``: per item kind, ``ONE``: one row); ``shape``, a row's numbers. ``key`` is the card
    key it is built from (empty: built from the other tables), ``neutral`` the key's value on a
    card that leaves it out, ``build`` how the table is made of it, ``values`` a number's range
    (low, high) or a choice's values; ``only``: the item kind whose cards may give the key; one
    line of ``doc``, and the values as the card language's reference shows them (``shown``;
    default from ``values``)."""

    name: str
    per: str
    build: str
    doc: str
    key: str = ""
    neutral: object = 0
    values: tuple = ()
    shape: tuple = ()
    only: str = ""
    shown: str = ""

    @property
    def field(self):
        """Its layout field's name."""
        return ("C_AREA_" if self.per == AREA else "C_") + self.name.upper()

    @property
    def row(self):
        n = 1
        for k in self.shape:
            n *= k
        return n

    @property
    def slots(self):
        return self.row * (1 if self.per == ONE else SLOTS[self.per])


#: the card hooks: the area cards' (one row per area), then the item cards'; a card key's hook
#: in the order of the card's keys
HOOKS = (
    Hook("safe", AREA, EXPRESSION, "when one trick breaks the card's rule", "breaks_on_trick",
         "false", shape=(N_SUITS, N_NUMBER_CARDS), shown="an expression over a trick (below)"),
    Hook("tricks_break", AREA, EXPRESSION, "when the tricks won so far break it, asked after "
                                           "every trick", "breaks_on_tricks_won", "false",
         shape=(TRICKS_PER_ROUND + 1,), shown="an expression over the tricks won (below)"),
    Hook("white_shift", AREA, NUMBER, "the whites' colour, steps up (+1: Woodland) or down (-1: "
                                      "Lodge)", "white_shift", 0, (-1, 1), shown="-1, 0, 1"),
    Hook("greens_removed", AREA, NUMBER, "greens taken away before nullifying (Lakeside)",
         "greens_removed", 0, (0, 20)),
    Hook("draw_reduction", AREA, NUMBER, "draws taken off the draw count (Tent site)",
         "draw_reduction", 0, (0, 20)),
    Hook("extra_draw", AREA, FLAG, "one more card may be drawn after the draws (Cabins)",
         "extra_draw", False),
    Hook("killer_all", AREA, CHOICE, "what the Killer does there: `\"damage\"`, or "
                                     "`\"all_health\"` (Hideaway)", "killer", "damage",
         ("damage", "all_health")),
    Hook("gifts", AREA, FLAG, "items may be given in the item phase (Fire pit)", "gifts", False),
    Hook("flex", AREA, FROM_TABLES, "how many of the 38 (lead, follow) pairs with each card keep "
                                    "the trick rule, by trump and card",
         shape=(N_SUITS, N_NUMBER_CARDS)),
    Hook("has_trick_rule", AREA, FROM_TABLES, "1: a single trick can break the rule"),
    Hook("has_tricks_won_rule", AREA, FROM_TABLES, "1: the tricks won can break the rule"),
    Hook("parity", AREA, FROM_TABLES, "0: each player must end the round with an even trick "
                                      "count, 1: odd, -1: no such rule"),
    Hook("sweep", AREA, FROM_TABLES, "1: one player must win every trick"),
    Hook("item_kind", ITEM, CHOICE, "what the item does (its kind)", "kind", "junk", ITEM_KINDS,
         shown="one of the [kinds](#item-kinds)"),
    Hook("item_heal", ITEM, NUMBER, "a heal item only: health healed", "heal", 0,
         (1, MAX_HEALTH), only="heal", shown=f"1..{MAX_HEALTH} (printed: 1 and 2)"),
    Hook("item_extra_draws", ITEM, NUMBER, "a cursed item only: draws it adds", "extra_draws", 0,
         (0, 12), only="cursed", shown="0..12, or the rule parameter `cursed_extra_draws`"),
    Hook("kind_items", KIND, FROM_TABLES, "the item ids of each kind, a bitmask per kind"),
    Hook("keepable", ONE, FROM_TABLES, "the item ids a player may keep: those of a kind that is "
                                       "kept (``rules.ITEM_KIND_TABLE``)"),
    Hook("usable", ONE, FROM_TABLES, "the item ids used in a use window: those of a kind that "
                                     "is"),
)

RECORD = {r.name: r for r in RECORDS}
COUNT = {c.name: c for c in COUNTS}
HOOK = {h.name: h for h in HOOKS}


def hook_of_key(kind, key):
    """The hook an area card's (``kind = "area"``) or an item card's key is read into, or
    ``None`` for a key no table reads (its name, its words, its place)."""
    per = AREA if kind == "area" else ITEM
    return next((h for h in HOOKS if h.key == key and h.per == per), None)


def shown_values(hook):
    """A hook key's values as the card language's reference shows them."""
    if hook.shown:
        return hook.shown
    if hook.build == NUMBER:
        return f"{hook.values[0]}..{hook.values[1]}, or a rule parameter"
    if hook.build == FLAG:
        return "true, false"
    return ", ".join(f"`\"{v}\"`" for v in hook.values)


def _check():
    """Refuse a registry that cannot be laid out: names twice, a count of no record field, a
    column of a count whose slots have no names."""
    for kind, names in (("record", [r.name for r in RECORDS]), ("count", [c.name for c in COUNTS]),
                        ("hook", [h.name for h in HOOKS])):
        twice = {n for n in names if names.count(n) > 1}
        if twice:
            raise ValueError(f"the field registry declares the {kind} {sorted(twice)} twice")
    for c in COUNTS:
        if c.how != GAMES and c.of not in RECORD:
            raise ValueError(f"count {c.name!r} reduces {c.of!r}, which is no record field")
        if c.how == HIST and c.by not in SLOTS:
            raise ValueError(f"histogram {c.name!r} must be by one of {', '.join(SLOTS)}")
        if c.column and c.per not in (GAME, AREA, ITEM, OUTCOME, OPEN):
            raise ValueError(f"count {c.name!r} is per {c.per}: its slots have no column names")


_check()
