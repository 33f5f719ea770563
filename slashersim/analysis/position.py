"""Win probability of a position: a described game state (``luck state``), a recorded game
(``simulate --record``) and its luck timeline (``luck timeline``).

A position is a game state and what is known of it (:mod:`slashersim.engine.luck_kernels`); its win
probability is estimated by playing it out many times, each time redrawing whatever is unknown
consistently with what is known and the set-up rules, under a policy. A timeline takes the
positions of a recorded game before and after each random event, as the two players would see
them after the game (their own hands and everything public, never the order of the item deck
or the undealt cards), so that the events that swung the game stand out.
"""
import json
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .. import rules
from ..cards import load as load_cards
from ..config import GameConfig
from ..engine import layout as L
from ..engine import positions as K
from ..errors import ConfigError
from ..inputs import check_count, check_seed
from ..policies import get_policy, param_specs, param_vector, policy_names
from ..policies.params import REMOVED
from ..runner import drive, prepare
from ..stats import wilson_interval

STATE_KEYS = ("config", "round", "area", "areas_seen", "arrows", "leader", "health", "traps",
              "items", "killer_draws", "item_deck", "hands", "trump")
DECK_KEYS = ("discard", "gone", "top", "killer_position")
ITEMS = {name: i for i, name in enumerate(rules.ITEM_NAMES[:rules.JUNK])}
USABLE = ("first_aid_small", "first_aid_large", "flashlight", "backpack", "lucky_charm",
          "walkie_talkie")


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


def _area(text, pool, what):
    if text not in rules.AREA_NAMES:
        _err(f"unknown area {text!r} in {what}; expected one of: {', '.join(rules.AREA_NAMES)}")
    if text not in pool:
        _err(f"area {text!r} in {what} is not in this game's area deck "
             f"({', '.join(pool)})")
    return rules.AREA_NAMES.index(text)


def _read_json(path, what):
    """The JSON content of ``path``; a one-line error naming ``what`` when it is missing or bad."""
    try:
        return json.loads(Path(path).read_text())
    except FileNotFoundError:
        _err(f"{what} {str(path)!r} not found")
    except json.JSONDecodeError as e:
        _err(f"{what} {str(path)!r} is not valid JSON: {e}")


def load_position(path):
    """The :class:`Position` described by the JSON file ``path`` (schema:
    docs/reference/formats.md, "Position files")."""
    return parse_position(_read_json(path, "state file"))


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
        _err(f"traps must be 0..{v['traps'] - 1}, got {traps}: {v['traps']} traps set off "
             f"lose the game")
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
    in_game = {i for i in range(rules.CURSED_OBJECT + 1) if cfg[L.C_ITEM_IN + i]}
    junk_added = min(killer_draws, int(cfg[L.C_JUNK]))
    place = {}
    junk_seen = 0
    if v["used_items"] == "out":
        can_go = {ITEMS[n] for n in ("cursed_object", *USABLE)}
        gone_rule = "only the Cursed Object and used items leave the game"
    else:
        can_go = {rules.CURSED_OBJECT}
        gone_rule = "only the Cursed Object leaves the game (used items go to the discard pile)"

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
        if name not in ITEMS:
            _err(f"unknown item {name!r} in {where}; expected one of: "
                 f"{', '.join(rules.ITEM_NAMES[:rules.JUNK])}, junk")
        item = ITEMS[name]
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
            st[L.S_HELD + p] |= 1 << put(name, f"player {p}'s items", _holdable)
    for key, what in (("discard", "the discard pile holds"), ("gone", "out of the game are")):
        listed = deck_facts.get(key) or []
        if rnd == 1 and isinstance(listed, list) and listed:
            _err(f"{what} {', '.join(map(str, listed))} in round 1, but no item card leaves "
                 f"the item deck before round 1's item phase")
    escapes = bin(int(st[L.S_HELD] | st[L.S_HELD + 1]) & rules.ESCAPE_MASK).count("1")
    if escapes >= v["escapes_needed"]:
        _err(f"the team already holds {escapes} escape items: the game is won")
    discard = [put(n, "the discard pile", lambda i: i != rules.KILLER)
               for n in _list("item_deck.discard", deck_facts.get("discard", []))]
    st[L.S_DISCARD_N] = len(discard)
    st[L.S_DISCARD:L.S_DISCARD + len(discard)] = discard
    for n in _list("item_deck.gone", deck_facts.get("gone", [])):
        st[L.S_OUT] |= 1 << put(n, "out of the game", lambda i: i in can_go)
    for i in set(range(rules.CURSED_OBJECT + 1)) - in_game:
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


def _holdable(item):
    """Items a player can hold: everything but the Cursed Object, the Killer and Junk."""
    return item < rules.CURSED_OBJECT


def _areas(data, v, cfg, st, known, rnd, dealt):
    """The area deck, the known places in it, the arrows and the leader."""
    pool = [a for a in rules.AREA_NAMES if cfg[L.C_AREA_IN + rules.AREA_NAMES.index(a)]]
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
            rounds[i] = _area(a, pool, f"areas_seen (round {i})")
    if dealt:
        rounds[rnd] = _area(data["area"], pool, "area")
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
            _err(f"round {r}'s area {rules.AREA_NAMES[a]} contradicts round {fixed[place][0]}'s "
                 f"{rules.AREA_NAMES[fixed[place][1]]}: the instructions deck cycles through "
                 f"the same {cycle} areas")
        for q, (r2, a2) in fixed.items():
            if a2 == a and q != place:
                _err(f"area {rules.AREA_NAMES[a]} comes up twice in one pass through the area "
                     f"deck (rounds {r2} and {r})")
        fixed[place] = (r, a)
    level_of = {a: int(cfg[L.C_AREA_LEVEL + a]) for a in range(rules.N_AREAS)}
    ids = [rules.AREA_NAMES.index(a) for a in pool]
    first_pass = levels and played <= cycle
    n1 = sum(1 for a in ids if level_of[a] == 1)
    deck = [None] * n
    for q, (r, a) in fixed.items():
        if first_pass and (level_of[a] == 1) != (q < n1):
            _err(f"round {r}'s area {rules.AREA_NAMES[a]} is a Lv.{level_of[a]} card, but the "
                 f"first pass through the area deck turns up the {n1} Lv.1 cards first")
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
        a = _area(name, pool, "arrows")
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
                _err(f"leader {leader} contradicts the arrow of {rules.AREA_NAMES[a]} "
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


# --- play-outs --------------------------------------------------------------------------------
#: play-outs up to this many run on one thread: waking the worker threads of a parallel launch
#: costs more than they save (about 6 ms against 1 ms for 200 play-outs on a busy 2-core machine)
SMALL_RUN = 2048


def _outcomes(position, policy, games, seed, threads, first=0, params=None, step=None):
    """Outcome codes ``ndarray(int8, (games,))`` of ``games`` play-outs of ``position``.

    The play-outs run through the run driver (play-out ``i`` draws from the streams of game
    ``first + i`` whatever the split), calling ``step(n)`` after each kernel call with the
    play-outs just played."""
    games = check_count("games", games)
    seed = check_seed(seed)
    player = prepare(policy, params)
    if player.python:
        raise ValueError("play-outs need a registered policy")
    player.compile()
    out = np.empty(int(games), dtype=np.int8)
    if threads is None and games <= SMALL_RUN:
        threads = 1
    base = np.ascontiguousarray(position.state)
    known = np.ascontiguousarray(position.known)

    def play(start, n):
        player.kernels.rollouts(base, player.params, known, int(seed), int(first + start),
                                out[start:start + n])

    drive(int(games), play, threads=threads, step=step)
    return out


def outcome_summary(outcomes):
    """Counts of play-out outcome codes as the ``luck state`` JSON fields."""
    g = len(outcomes)
    counts = np.bincount(outcomes, minlength=len(rules.OUTCOME_NAMES))
    wins = int(counts[rules.WIN])
    return {"games": g, "wins": wins, "win_rate": wins / g,
            "win_ci": list(wilson_interval(wins, g)),
            "loss_health": int(counts[rules.LOSS_HEALTH]) / g,
            "loss_traps": int(counts[rules.LOSS_TRAPS]) / g,
            "timeout": int(counts[rules.TIMEOUT]) / g}


def win_probability(position, policy="baseline", games=20_000, seed=0, threads=None,
                    params=None, step=None):
    """Play ``position`` out ``games`` times under ``policy`` (``params``: its parameter
    vector, default its defaults): the ``luck state`` object, ``{"games", "wins", "win_rate",
    "win_ci", "loss_health", "loss_traps", "timeout", "config", "policy", "seed"}``. Play-out
    ``i`` uses the streams of game ``i`` of ``seed``; ``step(n)`` is called as play-outs end."""
    r = outcome_summary(_outcomes(position, policy, games, seed, threads, params=params,
                                  step=step))
    return {**r, "config": position.config.describe(), "policy": policy, "seed": int(seed)}


# --- recorded games ---------------------------------------------------------------------------
class GameRecord(NamedTuple):
    """Game ``game`` of ``seed`` under ``policy`` replayed: its positions ``snaps :
    ndarray(int64, (n, STATE_SIZE))`` and ``info : ndarray(int64, (n,
    engine.luck_kernels.INFO_SIZE))`` (kind, round, turns done, cards still to draw, Cabins
    choice past), the last being the finished game."""

    config: GameConfig
    policy: str
    seed: int
    game: int
    snaps: np.ndarray
    info: np.ndarray
    params: np.ndarray = None   #: the policy's parameter vector (None: its defaults)


def record_game(config, policy, seed, game, params=None):
    """Replay game ``game`` of a ``simulate`` run (``config``, ``policy``, ``seed`` and the
    policy's parameter vector ``params``, default its defaults)."""
    if isinstance(game, bool) or not isinstance(game, (int, np.integer)) or game < 0:
        raise ValueError(f"the recorded game must be 0 or more, got {game!r}")
    check_seed(int(game), "the recorded game")
    seed = check_seed(seed)
    params = param_vector(policy) if params is None else np.asarray(params, dtype=np.float64)
    from ..runner.kernels import as_function  # compiles on first call
    from ..runner.kernels import record_game as kernel
    decide = as_function(get_policy(policy).decide)
    cfg = config.to_array()
    size = 256
    while True:
        snaps = np.zeros((size, L.STATE_SIZE), dtype=np.int64)
        info = np.zeros((size, K.INFO_SIZE), dtype=np.int64)
        n = kernel(decide, cfg, params, int(seed), int(game), snaps, info)
        if n <= size:
            break
        size = n                     # the replay is deterministic: again, with room for all
    return GameRecord(config, policy, int(seed), int(game), snaps[:n].copy(), info[:n].copy(),
                      params)


def _cards(mask):
    return [rules.card_name(c) for c in range(rules.N_NUMBER_CARDS) if (int(mask) >> c) & 1]


def _item_names(mask):
    return [rules.ITEM_NAMES[i] for i in range(rules.N_ITEM_IDS) if (int(mask) >> i) & 1]


def _deck_top_first(st):
    n = int(st[L.S_DECK_N])
    return [int(c) for c in st[L.S_DECK:L.S_DECK + n][::-1]]


def _name(card):
    return "junk" if card >= rules.JUNK else rules.ITEM_NAMES[card]


#: a position of a recorded game: ``i`` (the index of its state), or ``(i, "hands")`` for a
#: dealt state before its trump card is turned up
def _hands_only(i):
    return (i, "hands")


def record_events(rec):
    """The random events of a recorded game, one dict per event, in order: ``deal`` (area,
    leader, hands), ``trump`` (the trump card), ``play`` (the tricks, trap) and ``draw`` (one per
    card a player draws from the item deck: player, card, its number in the player's draw,
    whether it is the Killer, whether it is the last; on the last, the items kept and the
    health after the turn). Each has ``before`` and ``after``, its positions (see
    :func:`snapshot_position`); an event's ``before`` is the previous event's ``after``, so
    the choices between two random events (keeping, trades, clean-up) count in the next."""
    events = []
    prev = 0
    info = rec.info
    n = len(info)
    for i in range(n - 1):
        kind, rnd, turns = (int(x) for x in info[i, :3])
        b = rec.snaps[i + 1]
        if kind == K.SNAP_START:
            events.append({"event": "deal", "round": rnd + 1, "before": prev,
                           "after": _hands_only(i + 1),
                           "area": rules.AREA_NAMES[int(b[L.S_AREA])],
                           "leader": int(b[L.S_ROUND_LEADER]),
                           "hands": [_cards(b[L.S_HAND + p]) for p in range(2)]})
            events.append({"event": "trump", "round": rnd + 1, "before": _hands_only(i + 1),
                           "after": i + 1, "trump_card": rules.card_name(int(b[L.S_TRUMP_CARD]))})
            prev = i + 1
        elif kind == K.SNAP_DEALT:
            a = rec.snaps[i]
            played = int(b[L.S_TRICK])
            log = [int(c) for c in b[L.S_PLAY_LOG:L.S_PLAY_LOG + 2 * played]]
            events.append({"event": "play", "round": rnd, "before": prev, "after": i + 1,
                           "tricks": [[rules.card_name(log[2 * t]),
                                       rules.card_name(log[2 * t + 1])] for t in range(played)],
                           "tricks_won": [int(b[L.S_TRICKS]), int(b[L.S_TRICKS + 1])],
                           "trap": bool(b[L.S_TRAPS] > a[L.S_TRAPS]),
                           "traps": int(b[L.S_TRAPS])})
            prev = i + 1
        elif int(info[i + 1, 0]) == K.SNAP_DRAW:
            # the card the player drew: the top of the deck before it
            a = rec.snaps[i]
            card = int(a[L.S_DECK + int(a[L.S_DECK_N]) - 1])
            t = int(info[i + 1, 2])
            p = int(b[L.S_TURN])
            number = 1 if kind != K.SNAP_DRAW or int(info[i, 2]) != t else \
                events[-1]["draw"] + 1
            final = i + 2 >= n or int(info[i + 2, 0]) != K.SNAP_DRAW or \
                int(info[i + 2, 2]) != t or int(info[i + 2, 1]) != rnd
            ev = {"event": "draw", "round": int(b[L.S_ROUND]), "before": prev, "after": i + 1,
                  "player": p, "card": _name(card), "draw": number, "last": final,
                  "killer": card == rules.KILLER, "kept": None, "health": None}
            if final:
                # the turn's end: the next position after the turn (or the finished game)
                j = i + 2 if i + 2 < n else n - 1
                end = rec.snaps[j]
                start = rec.snaps[_turn_start(info, i + 1)]
                ev["kept"] = _item_names(end[L.S_HELD + p] & ~start[L.S_HELD + p])
                ev["health"] = [int(end[L.S_HEALTH + q]) for q in range(2)]
            events.append(ev)
            prev = i + 1
    return events


def _turn_start(info, i):
    """Index of the SNAP_ITEMS position before the turn of the draw position ``i``."""
    while int(info[i, 0]) == K.SNAP_DRAW:
        i -= 1
    return i


#: the ``format`` of a game record file (2: separate trump events, one draw event per card)
RECORD_FORMAT = "slashersim game record 2"


def record_json(rec):
    """The game record as a JSON-ready dict (the ``simulate --record-out`` file)."""
    last = rec.snaps[-1]
    params = param_vector(rec.policy) if rec.params is None else rec.params
    return {"format": RECORD_FORMAT, "config": rec.config.describe(),
            "policy": rec.policy,
            "policy_params": {p.name: float(x) for p, x in zip(param_specs(rec.policy), params)},
            "seed": rec.seed, "game": rec.game,
            "outcome": rules.OUTCOME_NAMES[int(last[L.S_OUTCOME])],
            "rounds": int(last[L.S_ROUND]),
            "killer_start": int(last[L.S_KILLER_START]),
            "events": [{k: v for k, v in e.items() if k not in ("before", "after")}
                       for e in record_events(rec)]}


class RecordFile(NamedTuple):
    """What a game record file names: the game to replay, and the file's content."""

    config: GameConfig
    policy: str
    seed: int
    game: int
    params: np.ndarray
    data: dict


def read_record(path):
    """Read and check a game record file (``simulate --record-out``) without replaying it:
    every key it needs, the configuration, the policy and its parameters, the seed and the
    game. A :class:`ConfigError` names what is wrong."""
    data = _read_json(path, "record file")
    if isinstance(data, dict) and data.get("format") == "slashersim game record 1":
        _err(f"{str(path)!r} is a game record of an older slashersim (one draw event per "
             f"turn); write it again with simulate --record-out")
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        _err(f"{str(path)!r} is not a slashersim game record (simulate --record-out)")
    for key in ("config", "policy", "seed", "game", "events"):
        if key not in data:
            _err(f"game record {str(path)!r} has no {key!r}; write it again with simulate "
                 f"--record-out")
    if not isinstance(data["config"], dict):
        _err(f"game record {str(path)!r}: config must be an object, got {data['config']!r}")
    try:
        config = GameConfig.from_dict({k: tuple(x) if isinstance(x, list) else x
                                       for k, x in data["config"].items()})
    except (TypeError, ValueError) as e:
        _err(f"game record {str(path)!r}: {e}")
    policy = data["policy"]
    if policy not in policy_names():
        _err(f"game record {str(path)!r}: unknown policy {policy!r}; expected one of: "
             f"{', '.join(policy_names())}")
    given = data.get("policy_params", {})
    if not isinstance(given, dict):
        _err(f"game record {str(path)!r}: policy_params must be an object, got {given!r}")
    given = dict(given)
    for name, value in REMOVED.get(policy, {}).items():
        if name in given and given.pop(name) != value:
            _err(f"game record {str(path)!r}: {policy} parameter {name} was removed from "
                 f"slashersim (it played no better); this game, played with {name} = "
                 f"{data['policy_params'][name]!r}, cannot be replayed")
    try:
        params = param_vector(policy, given)
    except ValueError as e:
        _err(f"game record {str(path)!r}: {e}")
    seed = check_seed(data["seed"], "seed")
    game = check_seed(data["game"], "game")
    if not isinstance(data["events"], list):
        _err(f"game record {str(path)!r}: events must be a list")
    return RecordFile(config, policy, seed, game, params, data)


def load_record(path):
    """Replay the game a record file names, and check the replay against the file."""
    r = path if isinstance(path, RecordFile) else read_record(path)
    data = r.data
    rec = record_game(r.config, r.policy, r.seed, r.game, r.params)
    replay = record_json(rec)
    if replay["events"] != data.get("events") or replay["outcome"] != data.get("outcome"):
        mine, theirs = replay["events"], data.get("events") or []
        i = next((i for i, (x, y) in enumerate(zip(mine, theirs)) if x != y),
                 min(len(mine), len(theirs)))
        _err(f"the game record does not match a replay of game {r.game} of seed {r.seed} "
             f"(first difference at event {i + 1})")
    return rec


def snapshot_position(rec, i):
    """Position ``i`` of a recorded game as the players know it after the game: hands once
    dealt, every area and arrow turned up, the Killer's whereabouts only from the set-up
    rules and what came up; never the order of the item deck or of unseen area cards.

    ``i`` may be ``(j, "hands")`` (see :func:`record_events`): the dealt position ``j`` before
    the trump card is turned up, the trump card redrawn among the cards in neither hand (of the
    configuration's first trump suit in round 1 when it sets one). A position in the middle of
    a player's draw is played out from there: the rest of the draw, the keeping, the rest of
    the game."""
    trump_known = not isinstance(i, tuple)
    if not trump_known:
        i = i[0]
    st = rec.snaps[i].copy()
    kind, _, turns, pending, extra_done = (int(x) for x in rec.info[i])
    known = np.zeros(K.P_SIZE, dtype=np.int64)
    known[K.P_TRUMP] = -1
    known[K.P_PHASE] = {K.SNAP_START: K.PHASE_START, K.SNAP_DEALT: K.PHASE_DEALT,
                        K.SNAP_ITEMS: K.PHASE_ITEMS, K.SNAP_DRAW: K.PHASE_DRAW}[kind]
    known[K.P_TURNS] = turns
    known[K.P_PENDING] = pending
    known[K.P_EXTRA_DONE] = extra_done
    if kind == K.SNAP_DEALT:
        known[K.P_HANDS] = 3
        known[K.P_TRUMP_CARD] = int(trump_known)
        if not trump_known and st[L.S_ROUND] == 1 and st[L.C_FIRST_TRUMP] > 0:
            known[K.P_TRUMP] = int(st[L.C_FIRST_TRUMP]) - 1
    deck = _deck_top_first(st)
    if st[L.C_ITEM_DECK] == rules.ITEM_DECK_KILLER_TOP_HALF and st[L.S_KILLER_DRAWS] == 0 \
            and rules.KILLER in deck:
        n = int(sum(st[L.C_ITEM_IN:L.C_ITEM_IN + 12]))
        known[K.P_KILLER_SPAN] = int(st[L.C_TOP_GROUP]) + 1 - (n + 1 - len(deck))
    pos, n_used = int(st[L.S_AREA_POS]), int(st[L.S_AREA_N])
    first_pass = st[L.S_ROUND] == pos
    known[K.P_AREA_FIXED] = (1 << (pos if first_pass else n_used)) - 1 \
        if st[L.C_AREA_DECK] != rules.AREA_DECK_LEVELS else (1 << pos) - 1
    if st[L.C_AREA_DECK] == rules.AREA_DECK_LEVELS and first_pass:
        known[K.P_ARROWS] = sum(1 << int(a) for a in st[L.S_AREA_DECK:L.S_AREA_DECK + pos])
    else:
        known[K.P_ARROWS] = (1 << rules.N_AREAS) - 1
    known[K.P_LEADER] = 1
    if i == 0:
        known[K.P_AREA_FIXED] = 0
        known[K.P_ARROWS] = 0
    return Position(rec.config, st, known)


def _label(ev, titles):
    """An event in words; an area by its card's title (``titles``: area -> title)."""
    r = ev["round"]
    if ev["event"] == "deal":
        return f"R{r} deal: {titles.get(ev['area'], ev['area'])}, leader P{ev['leader']}"
    if ev["event"] == "trump":
        return f"R{r} trump: {ev['trump_card']}"
    if ev["event"] == "play":
        return f"R{r} play: tricks {ev['tricks_won'][0]}-{ev['tricks_won'][1]}" + \
            (", trap" if ev["trap"] else "")
    text = f"R{r} P{ev['player']} draw {ev['draw']}: {ev['card']}" + \
        (" (KILLER)" if ev["killer"] else "")
    if ev["last"] and not ev["killer"]:
        text += f"; then keeps {', '.join(ev['kept']) or 'nothing'}"
    return text


def timeline_playouts(rec, games):
    """The play-outs :func:`timeline` plays: ``games`` per position it estimates."""
    events = record_events(rec)
    places = {0} | {e["before"] for e in events} | {e["after"] for e in events}
    return games * len(places - {len(rec.snaps) - 1})


def timeline(rec, games=4000, seed=0, threads=None, step=None):
    """Win probability before and after each random event of a recorded game.

    Every position is played out ``games`` times under the record's policy, all on the same
    play-out streams (common random numbers, so the swings are less noisy than the
    probabilities). The first position is a fresh game of the configuration (the set-up
    shuffles are hidden), so its probability is the configuration's win rate; the finished
    game counts 1 for a win, else 0. Returns ``{"start": {"win_rate", "win_ci"}, "events":
    [{..., "label", "before", "before_ci", "after", "after_ci", "swing"}], "outcome",
    "config", "policy", "seed", "game", "rollout_seed", "games"}``. ``step(n)`` is called as
    play-outs end (:func:`timeline_playouts` of them in all).
    """
    events = record_events(rec)
    titles = dict(zip(rules.AREA_NAMES, load_cards(rec.config.cards).titles))
    last = len(rec.snaps) - 1
    prob = {}
    places = {0} | {e["before"] for e in events} | {e["after"] for e in events}
    for i in sorted(places, key=lambda x: (x, 0) if isinstance(x, int) else (x[0], -1)):
        if i == last:
            won = float(rec.snaps[last][L.S_OUTCOME] == rules.WIN)
            prob[i] = (won, [won, won])
        else:
            r = win_probability(snapshot_position(rec, i), rec.policy, games, seed, threads,
                                rec.params, step)
            prob[i] = (r["win_rate"], r["win_ci"])
    out = []
    for ev in events:
        (b, bci), (a, aci) = prob[ev["before"]], prob[ev["after"]]
        out.append({**{k: x for k, x in ev.items() if k not in ("before", "after")},
                    "label": _label(ev, titles), "before": b, "before_ci": bci, "after": a,
                    "after_ci": aci, "swing": a - b})
    return {"start": {"win_rate": prob[0][0], "win_ci": prob[0][1]}, "events": out,
            "outcome": rules.OUTCOME_NAMES[int(rec.snaps[last][L.S_OUTCOME])],
            "config": rec.config.describe(), "policy": rec.policy, "seed": rec.seed,
            "game": rec.game, "rollout_seed": int(seed), "games": int(games)}
