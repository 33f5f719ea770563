"""Recorded games: a game of a ``simulate`` run replayed with the state before and after each
random event (:func:`record_game`), its events in words (:func:`record_events`), the record
file ``simulate --record`` writes (:func:`record_json`) and reading one back
(:func:`read_record`, :func:`load_record`).
"""
from typing import NamedTuple

import numpy as np

from ..core import layout as L
from ..core import rules
from ..core.cards import CardError, check_content
from ..core.config import GameConfig
from ..core.errors import ConfigError
from ..core.files import read_json
from ..core.inputs import check_seed
from ..engine import positions as K
from ..policies import (
    get_policy,
    is_pair,
    param_specs,
    param_vector,
    policy_names,
    resolve,
    seats_of,
)
from ..policies.params import REMOVED


def _refuse(message):
    raise ConfigError(message)


def _seat_prefixes(policy):
    """``(prefix, player)`` of each set of parameters of ``policy``: ``("", policy)``, or for a
    pair ``("seat0.", a), ("seat1.", b)``."""
    if is_pair(policy):
        return [(f"seat{seat}.", side) for seat, side in enumerate(seats_of(policy))]
    return [("", policy)]


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
    from ..runner.recorded import record_positions  # compiles on first call
    snaps, info = record_positions(get_policy(policy).decide, config.to_array(), params,
                                   int(seed), int(game))
    return GameRecord(config, policy, int(seed), int(game), snaps, info,
                      params)


def _cards(mask):
    return [rules.card_name(c) for c in range(rules.N_NUMBER_CARDS) if (int(mask) >> c) & 1]


def _item_names(mask, cards):
    return [_name(i, cards) for i in range(rules.MAX_ITEM_IDS) if (int(mask) >> i) & 1]


def deck_top_first(st):
    n = int(st[L.S_DECK_N])
    return [int(c) for c in st[L.S_DECK:L.S_DECK + n][::-1]]


def _name(card, cards):
    """An item id's name in the events: the card's place's, ``killer``, or ``junk``."""
    return "junk" if rules.JUNK <= card < rules.FIRST_ADDED_ITEM else cards.item_name(card)


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
    cards = rec.config.card_set
    areas = cards.slots
    info = rec.info
    n = len(info)
    for i in range(n - 1):
        kind, rnd, turns = (int(x) for x in info[i, :3])
        b = rec.snaps[i + 1]
        if kind == K.SNAP_START:
            events.append({"event": "deal", "round": rnd + 1, "before": prev,
                           "after": _hands_only(i + 1),
                           "area": areas[int(b[L.S_AREA])],
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
                  "player": p, "card": _name(card, cards), "draw": number, "last": final,
                  "killer": card == rules.KILLER, "kept": None, "health": None}
            if final:
                # the turn's end: the next position after the turn (or the finished game)
                j = i + 2 if i + 2 < n else n - 1
                end = rec.snaps[j]
                start = rec.snaps[_turn_start(info, i + 1)]
                ev["kept"] = _item_names(end[L.S_HELD + p] & ~start[L.S_HELD + p], cards)
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
            "rules_id": rec.config.rules_id.digest, "policy": rec.policy,
            "policy_params": {p.name: float(x) for p, x in zip(param_specs(rec.policy), params)},
            "seed": rec.seed, "game": rec.game,
            "outcome": rules.OUTCOME_NAMES[int(last[L.S_OUTCOME])],
            "rounds": int(last[L.S_ROUND]),
            "killer_start": int(last[L.S_KILLER_START]),
            "events": [{k: v for k, v in e.items() if k not in ("before", "after")}
                       for e in record_events(rec)]}


def check_cards(config, where, hash_needed=True):
    """Refuse a file's configuration (a ``describe()`` dict) whose card file holds other cards
    by now than those it names by hash, or (``hash_needed``: a file slashersim wrote) that
    names a card file without a hash (a file of an older slashersim): what it describes could
    not be played again under its own cards."""
    file = config.get("cards") if isinstance(config, dict) else None
    if file is None or file == "printed" or "cards_sha256" not in config and not hash_needed:
        return
    if "cards_sha256" not in config:
        _refuse(f"{where} names the card file {file!r} but not its content's hash (an older "
                f"slashersim), so it cannot be played again under the same cards for sure; "
                f"write it again")
    try:
        check_content(file, config["cards_sha256"])
    except CardError as e:
        _refuse(f"{where}: {e}")


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
    data = read_json(path, "record file")
    if isinstance(data, dict) and data.get("format") == "slashersim game record 1":
        _refuse(f"{str(path)!r} is a game record of an older slashersim (one draw event per "
             f"turn); write it again with simulate --record-out")
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        _refuse(f"{str(path)!r} is not a slashersim game record (simulate --record-out)")
    for key in ("config", "policy", "seed", "game", "events"):
        if key not in data:
            _refuse(f"game record {str(path)!r} has no {key!r}; write it again with simulate "
                 f"--record-out")
    if not isinstance(data["config"], dict):
        _refuse(f"game record {str(path)!r}: config must be an object, got {data['config']!r}")
    check_cards(data["config"], f"game record {str(path)!r}")
    try:
        config = GameConfig.from_dict({k: tuple(x) if isinstance(x, list) else x
                                       for k, x in data["config"].items()})
    except (TypeError, ValueError) as e:
        _refuse(f"game record {str(path)!r}: {e}")
    policy = data["policy"]
    if is_pair(policy):
        policy = resolve(policy)
    elif policy not in policy_names():
        _refuse(f"game record {str(path)!r}: unknown policy {policy!r}; expected one of: "
             f"{', '.join(policy_names())}, or a pair of them (SEAT0+SEAT1)")
    given = data.get("policy_params", {})
    if not isinstance(given, dict):
        _refuse(f"game record {str(path)!r}: policy_params must be an object, got {given!r}")
    given = dict(given)
    removed = {f"{prefix}{name}": value for prefix, side in _seat_prefixes(policy)
               for name, value in REMOVED.get(side, {}).items()}
    for name, value in removed.items():
        if name in given and given.pop(name) != value:
            _refuse(f"game record {str(path)!r}: {policy} parameter {name} was removed from "
                 f"slashersim (it played no better); this game, played with {name} = "
                 f"{data['policy_params'][name]!r}, cannot be replayed")
    try:
        params = param_vector(policy, given)
    except ValueError as e:
        _refuse(f"game record {str(path)!r}: {e}")
    seed = check_seed(data["seed"], "seed")
    game = check_seed(data["game"], "game")
    if not isinstance(data["events"], list):
        _refuse(f"game record {str(path)!r}: events must be a list")
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
        _refuse(f"the game record does not match a replay of game {r.game} of seed {r.seed} "
             f"(first difference at event {i + 1})")
    return rec


