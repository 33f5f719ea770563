"""``GameConfig``: one configuration of the rules, validated, and its kernel array.

Every difficulty knob and every [choice] the rules leave open is a field (docs/rules.md,
"The difficulty knobs" and "Every choice and its parameter"). Fields that default to ``None``
take their edition's value (docs/rules.md, "The two editions side by side"), so
``GameConfig(edition="instructions")`` is the instructions game without naming each
difference; :meth:`GameConfig.resolved` shows every value in force.
"""
from collections.abc import Mapping
from dataclasses import dataclass, fields
import os

import numpy as np

from . import cards as C
from . import layout as L
from . import rules
from .errors import ConfigError, suggest
from .identity import RulesId
from .presets import preset_knobs

__all__ = ["ConfigError", "GameConfig"]


_LEADERS = {"arrow": rules.LEADER_ARROW, "last_trick": rules.LEADER_LAST_TRICK}
_ITEM_DECKS = {"killer_top_half": rules.ITEM_DECK_KILLER_TOP_HALF,
               "shuffled": rules.ITEM_DECK_SHUFFLED}
_RESHUFFLES = {"cleanup": rules.KILLER_RESHUFFLE_AT_CLEANUP,
               "at_once": rules.KILLER_RESHUFFLE_AT_ONCE}
_USED = {"discard": rules.USED_TO_DISCARD, "out": rules.USED_OUT_OF_GAME}
_AREA_DECKS = {"levels": rules.AREA_DECK_LEVELS, "cycle": rules.AREA_DECK_CYCLE}
_COLOURS = {"red": rules.COLOUR_RED, "yellow": rules.COLOUR_YELLOW, "green": rules.COLOUR_GREEN}
_TIMINGS = {"item_phase": rules.ITEM_TIMING_ITEM_PHASE, "any_time": rules.ITEM_TIMING_ANY_TIME}
_DRAW_ORDERS = {"round_leader": rules.DRAW_ROUND_LEADER,
                "last_trick_winner": rules.DRAW_LAST_TRICK_WINNER}
_GIFTS = {"one_way": rules.GIFTS_ONE_WAY, "none": rules.GIFTS_NONE}
_AID_TARGETS = {"holder": rules.AID_HOLDER, "either": rules.AID_EITHER}
_CURSED_KEEPS = {"as_keeping": rules.CURSED_KEEP_AS_KEEPING,
                 "optional": rules.CURSED_KEEP_OPTIONAL}
_NO_YELLOW_DRAWS = {"must": rules.NO_YELLOW_DRAW_MUST, "may": rules.NO_YELLOW_DRAW_MAY}
_BEFORE_DRAWS = {"drawing_player": rules.BEFORE_DRAW_DRAWING_PLAYER,
                 "both_players": rules.BEFORE_DRAW_BOTH_PLAYERS}

def _choice(name, value, allowed):
    if value not in allowed:
        raise ConfigError(f"unknown {name} {value!r}; expected one of: {', '.join(allowed)}")
    return value


def _int_range(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or not low <= value <= high:
        raise ConfigError(f"{name} must be {low}..{high}, got {value!r}")
    return int(value)


def _bool(name, value):
    if not isinstance(value, (bool, np.bool_)):
        raise ConfigError(f"{name} must be true or false, got {value!r}")
    return bool(value)


@dataclass(frozen=True)
class GameConfig:
    """The rules of one simulated game (docs/rules.md); ``None`` means "the edition's value".

    Knobs (docs/rules.md, "The difficulty knobs"): ``edition``, ``health`` (starting health
    1..7), ``hideaway``, ``cursed_object``, ``escapes_needed`` (1..5), ``traps`` (traps that
    lose, 1..4), ``red_knives`` / ``red_greens`` (the red table, ranks 1..5), ``lv1_areas`` (the
    rulebook's top group; the others form Lv.2). The rest are the [choice] points of docs/rules.md
    ("Every choice and its parameter").
    """

    edition: str = "rulebook"
    health: int = 7
    hideaway: bool | None = None
    cursed_object: bool = True
    escapes_needed: int = 4
    traps: int = 3
    max_rounds: int = 200
    red_knives: tuple = (1, 1, 2, 2, 3)
    red_greens: tuple = (1, 1, 2, 2, 3)
    lv1_areas: tuple = ("tent_site", "lodge", "woodland")
    removed_areas: tuple = ()
    area_deck: str | None = None
    areas_used: int = 4
    leader: str | None = None
    first_leader: int = 0
    item_deck: str | None = None
    top_group: str = "half_up"
    killer_reshuffle: str | None = None
    used_items: str | None = None
    junk: int | None = None
    white_colours: tuple | None = None
    cursed_extra_draws: int = 3
    lakeside_removal: int = 2
    tent_site_reduction: int = 1
    white_red_knives: int = 1
    white_red_greens: int = 1
    walkie_talkie_without_draw: bool = True
    item_timing: str | None = None
    keep_optional: bool | None = None
    cursed_keep: str = "as_keeping"
    no_yellow_draw: str = "must"
    draw_order: str = "round_leader"
    fire_pit_gifts: str = "one_way"
    first_aid_target: str = "holder"
    before_draw_items: str = "drawing_player"
    arrows: str | int | tuple = "random"
    killer_position: int | None = None
    first_area: str | None = None
    first_trump: str | None = None
    first_yellows: tuple | None = None
    check_invariants: bool = False
    cards: str | None = None
    cards_sha256: str | None = None

    def __post_init__(self):
        for name in ("red_knives", "red_greens", "lv1_areas", "removed_areas", "white_colours",
                     "first_yellows", "arrows"):
            value = getattr(self, name)
            if isinstance(value, (list, np.ndarray)):
                object.__setattr__(self, name, tuple(value))
            elif isinstance(value, str) and name != "arrows":
                object.__setattr__(self, name, (value,))
        self._pin_cards()
        self.resolved()

    def _pin_cards(self):
        """Read the card file once and name it by its content: ``cards_sha256`` is the hash
        of what was read (or, when given, what must be read: other content is refused), and
        every later use of this configuration reads those cards, whatever the file holds by
        then."""
        cards, sha = self.cards, self.cards_sha256
        if isinstance(cards, C.CardSet):
            cards, sha, card_set = cards.file, cards.sha256, cards
        else:
            cards = self.check_cards(cards)
            if cards is None and sha is not None:
                raise ConfigError(f"cards_sha256 {sha!r} names the content of a card file, "
                                  f"but no card file (cards) is given")
            if sha is not None and not (isinstance(sha, str) and len(sha) == 64):
                raise ConfigError(f"cards_sha256 must be the 64 hex digits of a card file's "
                                  f"SHA-256, got {sha!r}")
            try:
                card_set = C.load(cards, sha)
            except C.CardError as e:
                raise ConfigError(str(e)) from None
            sha = card_set.sha256
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "cards_sha256", sha)
        object.__setattr__(self, "_card_set", card_set)

    def __setstate__(self, state):
        self.__dict__.update(state)
        C.remember(self._card_set)

    @property
    def card_set(self):
        """The :class:`~slashersim.core.cards.CardSet` in force, as read when this
        configuration was made."""
        return self._card_set

    @property
    def rules_id(self):
        """The rules of this configuration by content (:class:`~.identity.RulesId`)."""
        found = self.__dict__.get("_rules_id")
        if found is None:
            found = RulesId.of(self.describe())
            object.__setattr__(self, "_rules_id", found)
        return found

    @classmethod
    def knob_names(cls):
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_dict(cls, values):
        """A config from a mapping of knob names (:meth:`updated` applied to the defaults)."""
        return cls().updated(values)

    @classmethod
    def of(cls, config=None, knobs=None):
        """``config`` (default: the rulebook defaults; a mapping is read as knobs) with the
        mapping ``knobs`` applied on top (:meth:`updated`: a ``difficulty`` sets its preset's
        knobs first, the other entries override them; every refused knob is named)."""
        if isinstance(config, Mapping):
            config = cls.from_dict(config)
        elif config is not None and not isinstance(config, cls):
            raise TypeError(f"config must be a GameConfig, a mapping of knobs or None, got "
                            f"{type(config).__name__}")
        config = config or cls()
        return config.updated(knobs) if knobs else config

    def updated(self, values):
        """A copy with the knobs of the mapping ``values`` applied. A ``difficulty`` entry names
        a preset (:mod:`slashersim.core.presets`) of the edition: its knob values come first and
        the mapping's other entries override them. An unknown name is refused by name; when
        values are refused, the one line names each value refused on its own."""
        try:
            return self._updated(values)
        except ConfigError as first:
            values = dict(values)
            edition = {"edition": values["edition"]} if "edition" in values else {}
            found = []
            for key, value in values.items():
                if key != "edition":
                    try:
                        self._updated({**edition, key: value})
                    except ConfigError as e:
                        found.append(str(e))
            raise ConfigError("; ".join(found) if len(found) > 1 else str(first)) from None

    def _updated(self, values):
        values = dict(values)
        difficulty = values.pop("difficulty", None)
        allowed = ("difficulty",) + self.knob_names()
        for key in values:
            if key not in allowed:
                raise ConfigError(f"unknown knob {key!r}{suggest(key, allowed)}; expected one "
                                  f"of: {', '.join(allowed)}")
        if difficulty is not None:
            values = {**preset_knobs(difficulty, values.get("edition", self.edition)), **values}
        return self.replace(**values)

    def resolved(self):
        """Every field with edition defaults filled in, validated; a plain dict."""
        edition = _choice("edition", self.edition, rules.EDITION_NAMES)
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        for key, value in rules.EDITION_DEFAULTS[edition].items():
            if out[key] is None:
                out[key] = value
        cards = self.card_set
        slots = cards.slots
        escapes = sum(card["kind"] == "escape" for card in cards.items.values())
        _int_range("health", out["health"], 1, rules.MAX_HEALTH)
        _bool("hideaway", out["hideaway"])
        _bool("cursed_object", out["cursed_object"])
        _int_range("escapes_needed", out["escapes_needed"], 1, max(rules.N_ESCAPES, escapes))
        _int_range("traps", out["traps"], 1, 4)
        _int_range("max_rounds", out["max_rounds"], 1, 100_000)
        for name in ("red_knives", "red_greens"):
            if len(out[name]) != 5:
                raise ConfigError(f"{name} must list 5 values (ranks 1..5), got {out[name]!r}")
            for v in out[name]:
                _int_range(name, v, 0 if name == "red_knives" else 1, 10)
        for name in ("lv1_areas", "removed_areas"):
            for area in out[name]:
                _choice("area", area, slots)
        if "hideaway" in out["removed_areas"]:
            raise ConfigError("removed_areas may not name 'hideaway'; use hideaway = false")
        _choice("area_deck", out["area_deck"], tuple(_AREA_DECKS))
        _choice("leader", out["leader"], tuple(_LEADERS))
        _choice("item_deck", out["item_deck"], tuple(_ITEM_DECKS))
        _choice("top_group", out["top_group"], rules.TOP_GROUP_CHOICES)
        _choice("killer_reshuffle", out["killer_reshuffle"], tuple(_RESHUFFLES))
        _choice("used_items", out["used_items"], tuple(_USED))
        _int_range("junk", out["junk"], 0, rules.N_JUNK)
        if len(out["white_colours"]) != rules.MAX_HEALTH:
            raise ConfigError(f"white_colours must list 7 colours (health 1..7), "
                              f"got {out['white_colours']!r}")
        for c in out["white_colours"]:
            _choice("white colour", c, tuple(_COLOURS))
        _int_range("areas_used", out["areas_used"], 1, len(slots))
        _int_range("first_leader", out["first_leader"], 0, 1)
        _int_range("cursed_extra_draws", out["cursed_extra_draws"], 0, 12)
        _int_range("lakeside_removal", out["lakeside_removal"], 0, 20)
        _int_range("tent_site_reduction", out["tent_site_reduction"], 0, 20)
        _int_range("white_red_knives", out["white_red_knives"], 0, 10)
        _int_range("white_red_greens", out["white_red_greens"], 1, 10)
        _bool("walkie_talkie_without_draw", out["walkie_talkie_without_draw"])
        _choice("item_timing", out["item_timing"], tuple(_TIMINGS))
        _bool("keep_optional", out["keep_optional"])
        _choice("cursed_keep", out["cursed_keep"], tuple(_CURSED_KEEPS))
        _choice("no_yellow_draw", out["no_yellow_draw"], tuple(_NO_YELLOW_DRAWS))
        _choice("draw_order", out["draw_order"], tuple(_DRAW_ORDERS))
        _choice("fire_pit_gifts", out["fire_pit_gifts"], tuple(_GIFTS))
        _choice("first_aid_target", out["first_aid_target"], tuple(_AID_TARGETS))
        _choice("before_draw_items", out["before_draw_items"], tuple(_BEFORE_DRAWS))
        out["arrows"] = self.check_arrows(out["arrows"], slots)
        _bool("check_invariants", out["check_invariants"])
        if not self.pool(out):
            raise ConfigError("no area left in the area deck")
        if out["killer_position"] is not None:
            _int_range("killer_position", out["killer_position"], 1, self.killer_slots(out))
        if out["first_area"] is not None:
            _choice("first area", out["first_area"], self.first_area_choices(out))
        if out["first_trump"] is not None:
            _choice("first trump", out["first_trump"], rules.SUIT_NAMES)
        if out["first_yellows"] is not None:
            self.check_first_yellows(out["first_yellows"])
            if out["first_trump"] is not None:
                raise ConfigError("first_yellows and first_trump cannot both be set")
        if out["escapes_needed"] > escapes:
            raise ConfigError(f"escapes_needed {out['escapes_needed']} is more than the {escapes} "
                              f"escape items of the cards in play; at most {escapes}")
        return out

    @staticmethod
    def check_cards(value):
        """``cards``: ``None`` (or ``"printed"``) for the printed cards, or the path of a card
        file that changes them (:mod:`slashersim.core.cards`), as text."""
        if value is None or value == C.PRINTED:
            return None
        if not isinstance(value, (str, os.PathLike)):
            raise ConfigError(f"cards must be the path of a card file or 'printed', got "
                              f"{value!r}")
        return os.fspath(value)

    @staticmethod
    def cards_of(values):
        """The cards of resolved ``values`` (their file and its content's hash)."""
        return C.load(values.get("cards"), values.get("cards_sha256"))

    @staticmethod
    def check_first_yellows(value):
        """``first_yellows``: round 1's yellows per player, ``(y0, y1)``, each 0..5 or None
        (any); the five yellows must fit, with at most 4 in the trump deck."""
        if not isinstance(value, tuple) or len(value) != 2:
            raise ConfigError(f"first_yellows must list 2 counts (player 0, player 1), "
                              f"got {value!r}")
        counts = [None if v is None else _int_range("first yellows", v, 0, 5) for v in value]
        given = [v for v in counts if v is not None]
        if sum(given) > 5:
            raise ConfigError(f"first_yellows {value!r} deals more than the 5 yellow cards")
        if len(given) == 2 and sum(given) < 1:
            raise ConfigError("first_yellows (0, 0) leaves 5 yellows for the 4-card trump deck")

    @staticmethod
    def check_arrows(value, slots=rules.AREA_NAMES):
        """``arrows``: ``"random"`` (drawn per game: docs/rules.md, "The area deck"), a player 0
        or 1 for every area card, or a list of players, one per area of the cards in play
        (``slots``: the printed seven in ``rules.AREA_NAMES`` order, then any added)."""
        n = len(slots)
        if isinstance(value, str):
            if value != "random":
                raise ConfigError(f"arrows must be 'random', 0, 1 or a list of {n} players "
                                  f"(0 or 1), got {value!r}")
            return value
        if isinstance(value, tuple):
            if len(value) != n:
                raise ConfigError(f"arrows must list {n} players (0 or 1), one per area "
                                  f"({', '.join(slots)}), got {value!r}")
            return tuple(_int_range("arrow", v, 0, 1) for v in value)
        return _int_range("arrows", value, 0, 1)

    @staticmethod
    def killer_slots(values):
        """Positions (1 = top) the Killer can start at in the first item deck."""
        n = len(GameConfig.cards_of(values).items) - (0 if values["cursed_object"] else 1)
        if values["item_deck"] == "killer_top_half":
            return rules.top_group_size(n, values["top_group"]) + 1
        return n + 1

    @staticmethod
    def pool(values):
        """The areas of the area deck (resolved ``values``): every area of the cards in play
        but the removed ones, and the Hideaway only with ``hideaway``."""
        removed = values["removed_areas"] + (() if values["hideaway"] else ("hideaway",))
        return tuple(a for a in GameConfig.cards_of(values).slots if a not in removed)

    @staticmethod
    def lv1(values):
        """The areas of the rulebook's Lv.1 group (resolved ``values``): ``lv1_areas``, and any
        card added beside the printed ones whose card says ``level = 1``."""
        cards = GameConfig.cards_of(values)
        added = [a for a in cards.slots[rules.N_AREAS:] if cards.areas[a]["level"] == 1]
        return (*values["lv1_areas"], *added)

    @classmethod
    def first_area_choices(cls, values):
        """Areas that can be the first area card: the Lv.1 group of the pool under the
        rulebook's levelled deck, any area of the pool otherwise."""
        pool = cls.pool(values)
        if values["area_deck"] == "levels":
            top = [a for a in pool if a in cls.lv1(values)]
            return tuple(top or pool)
        return pool

    @property
    def killer_positions(self):
        return self.killer_slots(self.resolved())

    def replace(self, **changes):
        """A copy with ``changes`` applied (validated)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        for key in changes:
            if key not in values:
                raise ConfigError(f"unknown knob {key!r}; expected one of: "
                                  f"{', '.join(values)}")
        if "cards" in changes:
            values["cards_sha256"] = None
        else:
            values["cards"] = self.card_set if self.cards is not None else None
        values.update(changes)
        return GameConfig(**values)

    def to_array(self):
        """The rule settings as the ``cfg`` array the kernels read (``layout.C_*``)."""
        v = self.resolved()
        cfg = np.zeros(L.CFG_SIZE, dtype=np.int64)
        cfg[L.C_EDITION] = rules.EDITION_NAMES.index(v["edition"])
        cfg[L.C_START_HEALTH] = v["health"]
        cfg[L.C_MAX_HEALTH] = rules.MAX_HEALTH
        cfg[L.C_ESCAPES_NEEDED] = v["escapes_needed"]
        cfg[L.C_TRAPS] = v["traps"]
        cfg[L.C_MAX_ROUNDS] = v["max_rounds"]
        cfg[L.C_AREA_DECK] = _AREA_DECKS[v["area_deck"]]
        cfg[L.C_AREAS_USED] = v["areas_used"]
        cfg[L.C_LEADER] = _LEADERS[v["leader"]]
        cfg[L.C_FIRST_LEADER] = v["first_leader"]
        cfg[L.C_ITEM_DECK] = _ITEM_DECKS[v["item_deck"]]
        cfg[L.C_KILLER_RESHUFFLE] = _RESHUFFLES[v["killer_reshuffle"]]
        cfg[L.C_USED_ITEMS] = _USED[v["used_items"]]
        cfg[L.C_JUNK] = v["junk"]
        cfg[L.C_WHITE_RED_KNIVES] = v["white_red_knives"]
        cfg[L.C_WHITE_RED_GREENS] = v["white_red_greens"]
        cfg[L.C_WALKIE_WITHOUT_DRAW] = v["walkie_talkie_without_draw"]
        cfg[L.C_KILLER_POSITION] = v["killer_position"] or 0
        cards = self.card_set
        slots = cards.slots
        cfg[L.C_FIRST_AREA] = 0 if v["first_area"] is None else slots.index(v["first_area"]) + 1
        cfg[L.C_FIRST_TRUMP] = 0 if v["first_trump"] is None else \
            rules.SUIT_NAMES.index(v["first_trump"]) + 1
        for p, y in enumerate(v["first_yellows"] or (None, None)):
            cfg[L.C_FIRST_YELLOWS + p] = 0 if y is None else y + 1
        cfg[L.C_CHECK] = v["check_invariants"]
        cfg[L.C_ITEM_TIMING] = _TIMINGS[v["item_timing"]]
        cfg[L.C_KEEP_OPTIONAL] = v["keep_optional"]
        cfg[L.C_CURSED_KEEP] = _CURSED_KEEPS[v["cursed_keep"]]
        cfg[L.C_NO_YELLOW_DRAW] = _NO_YELLOW_DRAWS[v["no_yellow_draw"]]
        cfg[L.C_DRAW_ORDER] = _DRAW_ORDERS[v["draw_order"]]
        cfg[L.C_GIFTS] = _GIFTS[v["fire_pit_gifts"]]
        cfg[L.C_AID_TARGET] = _AID_TARGETS[v["first_aid_target"]]
        cfg[L.C_BEFORE_DRAW_ITEMS] = _BEFORE_DRAWS[v["before_draw_items"]]
        arrows = v["arrows"]
        cfg[L.C_N_AREAS] = len(slots)
        pool, lv1 = self.pool(v), self.lv1(v)
        for a, name in enumerate(slots):
            cfg[L.C_ARROWS + a] = -1 if arrows == "random" else \
                (arrows[a] if isinstance(arrows, tuple) else arrows)
            cfg[L.C_AREA_IN + a] = name in pool
            cfg[L.C_AREA_LEVEL + a] = 1 if name in lv1 else 2
        cfg[L.C_RED_KNIVES:L.C_RED_KNIVES + 5] = v["red_knives"]
        cfg[L.C_RED_GREENS:L.C_RED_GREENS + 5] = v["red_greens"]
        cfg[L.C_WHITE_COLOUR] = rules.COLOUR_RED
        for h, c in enumerate(v["white_colours"], start=1):
            cfg[L.C_WHITE_COLOUR + h] = _COLOURS[c]
        item_ids = cards.item_ids
        for item in item_ids:
            cfg[L.C_ITEM_IN + item] = 1
        cfg[L.C_ITEM_IN + rules.CURSED_OBJECT] = v["cursed_object"]
        cfg[L.C_N_ADDED_ITEMS] = len(item_ids) - len(rules.STANDARD_ITEMS)
        cfg[L.C_TOP_GROUP] = rules.top_group_size(
            int(cfg[L.C_ITEM_IN:L.C_ITEM_IN + rules.MAX_ITEM_IDS].sum()), v["top_group"])
        hooks = cards.tables({k: v[k] for k in C.PARAMETERS})
        for name, offset in L.HOOK_OFFSETS.items():
            flat = hooks[name].ravel()
            cfg[offset:offset + flat.size] = flat
        return cfg

    def describe(self):
        """The difficulty knobs and every rule value in force, JSON-ready (``cards`` only when
        a card file changes the printed cards)."""
        v = self.resolved()
        if v["cards"] is None:
            del v["cards"], v["cards_sha256"]
        return {k: (list(x) if isinstance(x, tuple) else x) for k, x in v.items()}
