"""A position written down: a game state and what is known of it, read from JSON (the format
of ``luck state``'s files, docs/reference/formats.md) and checked against the rules
(:func:`parse_position`, :func:`load_position`). Its win probability is played out by
:mod:`.playouts`; a recorded game is :mod:`.records`.
"""
from typing import NamedTuple

import numpy as np

from ..core import layout as L
from ..core import rules
from ..core.config import GameConfig
from ..core.errors import ConfigError
from ..core.files import read_json
from ..engine import positions as K
from .records import check_cards

STATE_KEYS = ("config", "round", "area", "areas_seen", "arrows", "leader", "health", "traps",
              "items", "killer_draws", "item_deck", "hands", "trump")
DECK_KEYS = ("discard", "gone", "top", "killer_position")
ITEMS = {name: i for i, name in enumerate(rules.ITEM_NAMES[:rules.JUNK])}
#: the kinds of item that are used up (and leave the game where used items do)
USED_KINDS = (rules.KIND_HEAL, rules.KIND_LOOK_AT_TOP, rules.KIND_KEEP_ONE_MORE,
              rules.KIND_REMOVE_TRAP, rules.KIND_TAKE_FROM_DISCARD)


class Position(NamedTuple):
    """A game state ``state : ndarray(int64, (STATE_SIZE,))`` and what is known of it,
    ``known : ndarray(int64, (P_SIZE,))`` (``engine.luck_kernels.P_*``), under ``config``."""

    config: GameConfig
    state: np.ndarray
    known: np.ndarray


def _err(message):
    raise ConfigError(message)


def _int(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        _err(f"{name} must be {low}..{high}, got {value!r}")
    return value


def _list(name, value, length=None):
    if not isinstance(value, list) or (length is not None and len(value) != length):
        _err(f"{name} must be a list{'' if length is None else f' of {length}'}, "
             f"got {value!r}")
    return value


def card_from_name(text):
    """The number card id of ``'red 3'``; a clear error otherwise."""
    parts = text.split() if isinstance(text, str) else []
    if len(parts) != 2 or parts[0] not in rules.SUIT_NAMES or parts[1] not in "12345" \
            or len(parts[1]) != 1:
        _err(f"unknown card {text!r}; number cards are written like 'red 3' "
             f"(suits {', '.join(rules.SUIT_NAMES)}, ranks 1..5)")
    return rules.card_id(rules.SUIT_NAMES.index(parts[0]), int(parts[1]))


def _area(text, pool, what, names):
    if text not in names:
        _err(f"unknown area {text!r} in {what}; expected one of: {', '.join(names)}")
    if text not in pool:
        _err(f"area {text!r} in {what} is not in this game's area deck "
             f"({', '.join(pool)})")
    return names.index(text)


def load_position(path):
    """The :class:`Position` described by the JSON file ``path`` (schema:
    docs/reference/formats.md, "Position files")."""
    return parse_position(read_json(path, "state file"))


def parse_position(data):
    """The :class:`Position` described by ``data`` (a dict as in docs/reference/formats.md,
    "Position files").

    Every fact is checked against the others and the rules; a position that cannot happen is
    refused with a :class:`ConfigError` naming the contradiction.
    """
    if not isinstance(data, dict):
        _err("a state must be a JSON object")
    for key in data:
        if key not in STATE_KEYS:
            _err(f"unknown state key {key!r}; expected one of: {', '.join(STATE_KEYS)}")
    check_cards(data.get("config", {}), "state", hash_needed=False)
    config = GameConfig.from_dict(data.get("config", {}))
    v = config.resolved()
    cfg = config.to_array()
    st = L.new_state(cfg)
    known = np.zeros(K.P_SIZE, dtype=np.int64)
    known[K.P_TRUMP] = -1
    rnd = _int("round", data.get("round", 1), 1, v["max_rounds"])
    dealt = data.get("area") is not None
    if not dealt and (data.get("hands") is not None or data.get("trump") is not None):
        _err("hands and trump need the round's area: the deal follows the area card")
    known[K.P_PHASE] = K.PHASE_DEALT if dealt else K.PHASE_START

    health = _list("health", data.get("health", [v["health"]] * 2), 2)
    for p in range(2):
        st[L.S_HEALTH + p] = _int(f"health of player {p}", health[p], 1, rules.MAX_HEALTH)
        if rnd == 1 and health[p] != v["health"]:
            _err(f"health of player {p} is {health[p]} in round 1, but health changes only in "
                 f"an item phase: round 1 starts at the configuration's health {v['health']}")
    traps = data.get("traps", 0)
    if isinstance(traps, int) and not isinstance(traps, bool) and traps >= v["traps"]:
        _err(f"traps must be 0..{v['traps'] - 1}, got {traps}: "
             + ("1 trap set off loses" if v["traps"] == 1 else f"{v['traps']} traps set off lose")
             + " the game")
    st[L.S_TRAPS] = _int("traps", traps, 0, v["traps"] - 1)
    played_before = rnd - 1
    if traps > played_before:
        _err(f"traps {traps} in round {rnd}: a trap goes off only in a round's play phase, at "
             f"most one per round, and {played_before} round{'' if played_before == 1 else 's'}"
             f" came before this position")
    # a drawn Killer waits in the discard pile until clean-up, or is shuffled back at once
    per_round = 1 if v["killer_reshuffle"] == "cleanup" else 2
    killer_draws = _int("killer_draws", data.get("killer_draws", 0), 0,
                        per_round * played_before)
    st[L.S_KILLER_DRAWS] = killer_draws

    _items(data, v, cfg, st, known, killer_draws, rnd)
    _areas(data, v, cfg, st, known, rnd, dealt)
    if dealt:
        _deal(data, st, known)
    st[L.S_ROUND] = rnd if dealt else rnd - 1
    st[L.S_TURN] = -1
    st[L.S_LED] = -1
    return Position(config, st, known)


def _items(data, v, cfg, st, known, killer_draws, rnd=2):
    """Held items, the discard pile, cards out of the game and the item deck."""
    deck_facts = data.get("item_deck", {})
    if not isinstance(deck_facts, dict):
        _err("item_deck must be an object")
    for key in deck_facts:
        if key not in DECK_KEYS:
            _err(f"unknown item_deck key {key!r}; expected one of: {', '.join(DECK_KEYS)}")
    cards = GameConfig.cards_of(v)
    every = set(cards.item_ids)
    in_game = {i for i in every if cfg[L.C_ITEM_IN + i]}
    junk_added = min(killer_draws, int(cfg[L.C_JUNK]))
    place = {}
    junk_seen = 0
    names = {**ITEMS, **dict(zip(cards.item_names, cards.item_ids))}
    kinds = cfg[L.C_KIND_ITEMS:L.C_KIND_ITEMS + rules.N_ITEM_KINDS]
    cursed = int(kinds[rules.KIND_CURSED])
    if v["used_items"] == "out":
        used = sum(int(kinds[k]) for k in USED_KINDS)
        can_go = {i for i in every if ((cursed | used) >> i) & 1}
        gone_rule = "only the Cursed Object and used items leave the game"
    else:
        can_go = {i for i in every if (cursed >> i) & 1}
        gone_rule = "only the Cursed Object leaves the game (used items go to the discard pile)"

    def holdable(item):
        """Items a player can hold: those of a kind that is kept (not the Cursed Object, the
        Killer or Junk)."""
        return item in every and (int(cfg[L.C_KEEPABLE]) >> item) & 1 == 1

    def put(name, where, allow):
        nonlocal junk_seen
        if name == "junk":
            if not cfg[L.C_JUNK]:
                _err(f"there is no Junk in this game ({where})")
            junk_seen += 1
            if junk_seen > junk_added:
                _err(f"{junk_seen} Junk cards listed, but only {junk_added} have been shuffled "
                     f"into the item deck (one per Killer drawn, killer_draws "
                     f"{killer_draws})")
            return rules.JUNK + junk_seen - 1
        if name not in names:
            _err(f"unknown item {name!r} in {where}; expected one of: "
                 f"{', '.join(names)}, junk")
        item = names[name]
        if item != rules.KILLER and item not in in_game:
            _err(f"{name} is not in this game (cursed_object = false)")
        if not allow(item):
            if where.startswith("out"):
                _err(f"{name} cannot be out of the game: {gone_rule}")
            _err(f"{name} cannot be in {where}")
        if item in place:
            if place[item] == where:
                _err(f"{name} is listed twice in {where}, but the game has one {name} card")
            _err(f"{name} is in two places: {place[item]} and {where}")
        place[item] = where
        return item

    items = _list("items", data.get("items", [[], []]), 2)
    for p in range(2):
        for name in _list(f"items of player {p}", items[p]):
            if rnd == 1:
                _err(f"player {p} holds {name} in round 1, but items are kept only in an item "
                     f"phase, and round 1's comes after its play phase")
            st[L.S_HELD + p] |= 1 << put(name, f"player {p}'s items", holdable)
    for key, what in (("discard", "the discard pile holds"), ("gone", "out of the game are")):
        listed = deck_facts.get(key) or []
        if rnd == 1 and isinstance(listed, list) and listed:
            _err(f"{what} {', '.join(map(str, listed))} in round 1, but no item card leaves "
                 f"the item deck before round 1's item phase")
    escapes = bin(int(st[L.S_HELD] | st[L.S_HELD + 1]) & int(kinds[rules.KIND_ESCAPE])).count("1")
    if escapes >= v["escapes_needed"]:
        _err(f"the team already holds {escapes} escape items: the game is won")
    discard = [put(n, "the discard pile", lambda i: i != rules.KILLER)
               for n in _list("item_deck.discard", deck_facts.get("discard", []))]
    st[L.S_DISCARD_N] = len(discard)
    st[L.S_DISCARD:L.S_DISCARD + len(discard)] = discard
    for n in _list("item_deck.gone", deck_facts.get("gone", [])):
        st[L.S_OUT] |= 1 << put(n, "out of the game", lambda i: i in can_go)
    for i in every - in_game:
        st[L.S_OUT] |= 1 << i
    top = [put(n, "the known top of the item deck", lambda i: True)
           for n in _list("item_deck.top", deck_facts.get("top", []))]
    st[L.S_JUNK_ASIDE] = int(cfg[L.C_JUNK]) - junk_added
    rest = [i for i in sorted(in_game | {rules.KILLER}) if i not in place]
    rest += [rules.JUNK + j for j in range(junk_seen, junk_added)]
    n_deck = len(top) + len(rest)

    kpos = deck_facts.get("killer_position")
    in_top = top.index(rules.KILLER) + 1 if rules.KILLER in top else None
    if kpos is not None:
        _int("item_deck.killer_position", kpos, 1, n_deck)
        if in_top is not None and kpos != in_top:
            _err(f"killer_position {kpos} contradicts the known top cards (the Killer is "
                 f"card {in_top})")
        if in_top is None and kpos <= len(top):
            _err(f"killer_position {kpos} is one of the known top cards, which are not the "
                 f"Killer")
    span = 0
    if v["item_deck"] == "killer_top_half" and killer_draws == 0:
        n = len(in_game)
        slots = rules.top_group_size(n, v["top_group"]) + 1
        span = slots - (n + 1 - n_deck)
        where = in_top or kpos
        if span < 1 or (where is None and span <= len(top)):
            _err(f"the Killer has not come up (killer_draws 0), but {n + 1 - n_deck} cards "
                 f"have left the first item deck, whose top {slots} hold it")
        if where is not None and where > span:
            _err(f"the Killer cannot be card {where} of the item deck: it has not come up, so "
                 f"it is within the top {span}")
    order = list(top)
    others = [c for c in rest if c != rules.KILLER]
    if kpos is not None and in_top is None:
        order += others[:kpos - 1 - len(top)] + [rules.KILLER] + others[kpos - 1 - len(top):]
    else:
        order += (others + [rules.KILLER]) if in_top is None else others
    st[L.S_DECK_N] = n_deck
    st[L.S_DECK:L.S_DECK + n_deck] = order[::-1]
    known[K.P_TOP] = len(top)
    known[K.P_KILLER] = int(kpos is not None or in_top is not None)
    known[K.P_KILLER_SPAN] = span if not known[K.P_KILLER] else 0


def _areas(data, v, cfg, st, known, rnd, dealt):
    """The area deck, the known places in it, the arrows and the leader."""
    names = GameConfig.cards_of(v).slots
    pool = [a for a in names if cfg[L.C_AREA_IN + names.index(a)]]
    levels = v["area_deck"] == "levels"
    n = len(pool)
    cycle = n if levels else min(n, v["areas_used"])
    played = rnd if dealt else rnd - 1
    pos = played if played <= cycle else (played - 1) % cycle + 1
    seen = data.get("areas_seen")
    rounds = {}
    if seen is not None:
        _list("areas_seen", seen)
        if len(seen) != rnd - 1:
            _err(f"areas_seen must list the areas of rounds 1..{rnd - 1}, got {len(seen)}")
        for i, a in enumerate(seen, start=1):
            rounds[i] = _area(a, pool, f"areas_seen (round {i})", names)
    if dealt:
        rounds[rnd] = _area(data["area"], pool, "area", names)
        st[L.S_AREA] = rounds[rnd]
    fixed = {}
    start = played - pos + 1         # the first round of the current pass through the deck
    for r, a in sorted(rounds.items()):
        if levels:
            if r < start:
                continue
            place = r - start
        else:
            place = (r - 1) % cycle
        if place in fixed and fixed[place][1] != a:
            _err(f"round {r}'s area {names[a]} contradicts round {fixed[place][0]}'s "
                 f"{names[fixed[place][1]]}: the instructions deck cycles through "
                 f"the same {cycle} areas")
        for q, (r2, a2) in fixed.items():
            if a2 == a and q != place:
                _err(f"area {names[a]} comes up twice in one pass through the area "
                     f"deck (rounds {r2} and {r})")
        fixed[place] = (r, a)
    level_of = {a: int(cfg[L.C_AREA_LEVEL + a]) for a in range(len(names))}
    ids = [names.index(a) for a in pool]
    first_pass = levels and played <= cycle
    n1 = sum(1 for a in ids if level_of[a] == 1)
    deck = [None] * n
    for q, (r, a) in fixed.items():
        if first_pass and (level_of[a] == 1) != (q < n1):
            _err(f"round {r}'s area {names[a]} is a Lv.{level_of[a]} card, but the "
                 f"first pass through the area deck turns up the {n1} Lv.1 cards first "
                 f"(the rulebook shuffles the Lv.1 group on top of the Lv.2 group)")
        deck[q] = a
    left = [a for a in ids if a not in deck]
    for q in range(n):
        if deck[q] is None:
            want = (1 if q < n1 else 2) if first_pass else None
            a = next(a for a in left if want is None or level_of[a] == want)
            left.remove(a)
            deck[q] = a
    st[L.S_AREA_DECK:L.S_AREA_DECK + n] = deck
    st[L.S_AREA_N] = cycle
    st[L.S_AREA_POS] = pos
    known[K.P_AREA_FIXED] = sum(1 << q for q in fixed)

    arrows = data.get("arrows", {})
    if not isinstance(arrows, dict):
        _err("arrows must be an object: area name -> player 0 or 1")
    mask = 0
    for name, p in arrows.items():
        a = _area(name, pool, "arrows", names)
        st[L.S_ARROW + a] = _int(f"the arrow of {name}", p, 0, 1)
        mask |= 1 << a
    leader = data.get("leader")
    if leader is not None:
        _int("leader", leader, 0, 1)
    if v["leader"] == "arrow":
        if leader is not None:
            if not dealt:
                _err("under the arrow rule the round leader is the area card's arrow; give "
                     "arrows (and the area) instead of leader")
            a = rounds[rnd]
            if (mask >> a) & 1 and st[L.S_ARROW + a] != leader:
                _err(f"leader {leader} contradicts the arrow of {names[a]} "
                     f"(player {st[L.S_ARROW + a]})")
            st[L.S_ARROW + a] = leader
            mask |= 1 << a
    else:
        if leader is None and rnd == 1:
            leader = v["first_leader"]
        if leader is not None:
            st[L.S_ROUND_LEADER if dealt else L.S_TRICK_LEADER] = leader
            known[K.P_LEADER] = 1
    known[K.P_ARROWS] = mask


def _deal(data, st, known):
    """Phase 1: the known hands and trump."""
    hands = data.get("hands") or [None, None]
    _list("hands", hands, 2)
    where = {}
    for p in range(2):
        if hands[p] is None:
            continue
        cards = _list(f"hand of player {p}", hands[p])
        if len(cards) != rules.HAND_SIZE:
            _err(f"hand of player {p} must hold {rules.HAND_SIZE} cards, got {len(cards)}")
        for name in cards:
            c = card_from_name(name)
            if c in where:
                _err(f"{name} is in two places: {where[c]} and player {p}'s hand")
            where[c] = f"player {p}'s hand"
            st[L.S_HAND + p] |= 1 << c
        known[K.P_HANDS] |= 1 << p
    trump = data.get("trump")
    if trump is None:
        return
    if trump in rules.SUIT_NAMES:
        s = rules.SUIT_NAMES.index(trump)
        if all(rules.card_id(s, r) in where for r in range(1, 6)):
            _err(f"trump {trump} is impossible: the known hands hold all five {trump} cards")
        known[K.P_TRUMP] = s
        return
    c = card_from_name(trump)
    if c in where:
        _err(f"{trump} is in two places: {where[c]} and the trump card")
    st[L.S_TRUMP_CARD] = c
    known[K.P_TRUMP_CARD] = 1


