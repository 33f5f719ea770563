"""Win probability by play-outs: a position played out many times, each time redrawing
whatever is unknown consistently with what is known and the set-up rules, under a policy
(:func:`win_probability`, ``luck state``); and a recorded game's timeline (``luck
timeline``): the positions before and after each random event, as the two players would see
them after the game (their own hands and everything public, never the order of the item deck
or the undealt cards), so that the events that swung the game stand out.
"""

import numpy as np

from ..core import layout as L
from ..core import rules
from ..core.inputs import check_count, check_seed
from ..core.stats import wilson_interval
from ..engine import positions as K
from ..runner import drive, prepare
from .position import Position
from .records import deck_top_first, record_events

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
    player.compile("rollouts")
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
    return {**r, "config": position.config.describe(),
            "rules_id": position.config.rules_id.digest, "policy": policy, "seed": int(seed)}




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
    deck = deck_top_first(st)
    if st[L.C_ITEM_DECK] == rules.ITEM_DECK_KILLER_TOP_HALF and st[L.S_KILLER_DRAWS] == 0 \
            and rules.KILLER in deck:
        n = int(sum(st[L.C_ITEM_IN:L.C_ITEM_IN + rules.MAX_ITEM_IDS]))
        known[K.P_KILLER_SPAN] = int(st[L.C_TOP_GROUP]) + 1 - (n + 1 - len(deck))
    pos, n_used = int(st[L.S_AREA_POS]), int(st[L.S_AREA_N])
    first_pass = st[L.S_ROUND] == pos
    known[K.P_AREA_FIXED] = (1 << (pos if first_pass else n_used)) - 1 \
        if st[L.C_AREA_DECK] != rules.AREA_DECK_LEVELS else (1 << pos) - 1
    if st[L.C_AREA_DECK] == rules.AREA_DECK_LEVELS and first_pass:
        known[K.P_ARROWS] = sum(1 << int(a) for a in st[L.S_AREA_DECK:L.S_AREA_DECK + pos])
    else:
        known[K.P_ARROWS] = (1 << int(st[L.C_N_AREAS])) - 1
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
    cards = rec.config.card_set
    titles = dict(zip(cards.slots, cards.titles))
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
            "config": rec.config.describe(),
            "rules_id": rec.config.rules_id.digest, "policy": rec.policy, "seed": rec.seed,
            "game": rec.game, "rollout_seed": int(seed), "games": int(games)}
