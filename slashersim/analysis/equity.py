"""Luck and cost with the future unknown: the equity view of a game (as GNU Backgammon
measures a game's luck and skill).

The player's chance of winning is estimated along the game by its own play-outs: from a
position, everything the player cannot know is redrawn consistently with what it saw, and the
player plays on to the end, many times. The estimates are taken at *points*:

- at each **chance point** (a round's start; the round's area card turned, before the deal;
  the item phase before each turn; after each card drawn), from what both players know then;
- at each **decision** with more than one legal answer, from the deciding seat's view (its own
  hand and what was played; the partner's unplayed cards are redrawn among those it may hold),
  once per legal answer, each answer on the same redraws.

Between two points, the change of the estimate is **luck**, of the kind of chance the stretch
held: ``area`` (the area card, its arrow), ``deal`` (the hands and the trump card, as the cards
come to light in the play), ``draw`` (an item card drawn), ``killer`` (the Killer drawn),
``reshuffle`` (the item deck reshuffled at clean-up) or ``none`` (nothing random happened:
only the estimates' own noise). At a decision, the **cost** is the estimate of the best answer
less that of the answer given. The best answer is chosen on one set of play-outs and both are
then estimated on another (so a lucky estimate does not pick the best and value it too); the
answer given was the best when the first set says so, and then costs 0.

Per game, the estimate at the start (the setting's win rate: nothing known yet) plus all luck
less all costs is the outcome, 1 for a win and 0 for a loss, exactly: every point's estimate
is counted once on its way in and once on its way out (:func:`check_sums`).

What the redraw cannot exclude, said plainly: the partner's unplayed cards are redrawn
uniformly among the cards the seat cannot rule out (the suits it showed void taken out), not by
what its earlier plays suggest; a card a Flashlight showed is redrawn too; so an estimate knows
at most what the seat knew, and sometimes less.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core import layout as L
from ..core import rules
from ..core.inputs import check_count, check_seed
from ..engine import decisions as D
from ..engine import luck_kernels as LK
from ..engine import positions as K
from ..engine.view import legal_answers
from ..policies import get_policy, param_vector
from ..policies.common import partner_candidates
from .playouts import snapshot_position
from .records import GameRecord

#: luck's kinds, in the order the tables list them
KINDS = ("area", "deal", "draw", "killer", "reshuffle", "none")
KIND_WORDS = {
    "area": "the area card turned (and its arrow)",
    "deal": "the deal: the hands and the trump card, as they come to light in the play",
    "draw": "an item card drawn",
    "killer": "the Killer drawn",
    "reshuffle": "the item deck reshuffled at clean-up",
    "none": "no random event: the estimates' own noise",
}
#: play-outs per estimate, and per answer to pick the best answer (the defaults)
ESTIMATE = 64
CHOOSE = 24


def choose_for(estimate):
    """Play-outs per answer that pick the best answer, for ``estimate`` per estimate (3/8 of
    them: picking needs fewer than valuing)."""
    return max(1, estimate * 3 // 8)

#: the rollout streams of the two sets: play-out ``i`` of game ``g``'s points draws from the
#: streams of game ``(2 * g + SET_A) * PER_SET + i`` (or ``SET_B``) of the seed: each game and
#: each set its own, so that the games' estimation errors are independent
SET_A, SET_B = 0, 1
PER_SET = 1 << 20
_MAX_ANSWERS = 64


@dataclass
class Point:
    """A place along the game where the chance of winning is estimated."""

    moment: int          #: index of the moment (position or decision) in the game's record
    base: int            #: the position the play-outs start from (an index of ``positions``)
    known: np.ndarray    #: what of that position is known (``positions.P_*``)
    kind: str            #: ``start``, ``area``, ``phase`` (a position) or ``decision``
    round: int
    script: tuple = ()   #: the decisions since the base: ``(decision * 2 + player, answer)``
    view: tuple = (-1, 0, 0, 0)
    decision: int = -1   #: the decision code, its seat, its legal answers, the answer given
    seat: int = -1
    answers: tuple = ()
    given: int = -1


@dataclass
class GameMoments:
    """A game as it was played, moment by moment (:func:`game_moments`)."""

    config: object
    policy: str
    seed: int
    game: int
    params: np.ndarray
    heads: np.ndarray     #: a row per moment (``runner.tape.MOMENT_HEAD`` columns)
    states: np.ndarray    #: the state of each moment
    final: np.ndarray     #: the finished game

    @property
    def won(self):
        return int(self.final[L.S_OUTCOME] == rules.WIN)


def game_moments(config, policy, seed, game, params=None):
    """Game ``game`` of a run with ``seed`` under ``config`` and ``policy``, recorded moment by
    moment: every position the engine shows a recorder and every decision, in order."""
    from ..runner.recorded import record_moments  # compiles on first call
    params = param_vector(policy) if params is None else np.asarray(params, dtype=np.float64)
    heads, states, final = record_moments(get_policy(policy).decide, config.to_array(), params,
                                          int(seed), int(game))
    return GameMoments(config, policy, int(seed), int(game), params, heads, states, final)


def _legal(head, st):
    out = np.zeros(_MAX_ANSWERS, dtype=np.int64)
    n = legal_answers(head[1], head[2], head[3], st, out)
    return tuple(int(x) for x in out[:n])


def _area_known(known, st):
    """A dealt position's ``known`` with the deal unknown: the area card turned, nothing else."""
    k = known.copy()
    k[K.P_HANDS] = 0
    k[K.P_TRUMP_CARD] = 0
    k[K.P_TRUMP] = -1
    if st[L.S_ROUND] == 1 and st[L.C_FIRST_TRUMP] > 0:
        k[K.P_TRUMP] = int(st[L.C_FIRST_TRUMP]) - 1
    return k


def game_points(g):
    """The points of game ``g`` (:class:`GameMoments`) where the chance is estimated, in order,
    and the positions they start from: ``(points, positions)``, ``positions`` a
    ``GameRecord`` of the game's positions (its last the finished game)."""
    is_pos = g.heads[:, 0] == 0
    index = np.flatnonzero(is_pos)
    info = g.heads[index, 1:1 + K.INFO_SIZE]
    rec = GameRecord(g.config, g.policy, g.seed, g.game,
                     np.concatenate([g.states[index], g.final[None, :]]),
                     np.concatenate([info, [[K.SNAP_END, g.final[L.S_ROUND], 0, 0, 0]]]),
                     g.params)
    points, base, script, known = [], -1, [], None
    for m, head in enumerate(g.heads):
        st = g.states[m]
        rnd = int(st[L.S_ROUND])
        if head[0] == 0:
            base += 1
            script = []
            kind = int(head[1])
            known = snapshot_position(rec, base).known
            if kind == K.SNAP_DEALT:
                points.append(Point(m, base, _area_known(known, st), "area", rnd))
            else:
                points.append(Point(m, base, known, "start" if base == 0 else "phase", rnd))
            continue
        decision, player, arg, answer = (int(x) for x in head[1:5])
        answers = _legal(head, st)
        if len(answers) > 1:
            view = (-1, 0, 0, 0)
            if int(rec.info[base, 0]) == K.SNAP_DEALT:
                partner = 1 - player
                cand, hidden = partner_candidates(st, player)
                played = int(rec.snaps[base][L.S_HAND + partner] & ~st[L.S_HAND + partner])
                view = (partner, int(cand), int(hidden), played)
            points.append(Point(m, base, known, "decision", rnd,
                                tuple(script), view, decision, player, answers, answer))
        script.append((decision * 2 + player, answer))
    return points, rec


def point_rollouts(player, rec, points, answer_lists, games, seed, first=0):
    """Outcome codes ``(len(points), max answers, games)`` of the points' play-outs by
    ``player`` (a :class:`Player`), each point's answers ``answer_lists[j]`` (empty: the
    position as it is). Play-out ``i`` draws from the streams of game ``first + i`` of
    ``seed``."""
    from ..runner.kernels import decision_rollouts, scripted_function
    m = len(points)
    width = max([1] + [len(a) for a in answer_lists])
    bases = np.ascontiguousarray(rec.snaps[[p.base for p in points]])
    poses = np.ascontiguousarray(np.stack([p.known for p in points]).astype(np.int64))
    views = np.array([p.view for p in points], dtype=np.int64).reshape(m, LK.W_SIZE)
    at = np.zeros(m + 1, dtype=np.int64)
    at[1:] = np.cumsum([len(p.script) for p in points])
    scripts = np.array([row for p in points for row in p.script] or [(0, 0)],
                       dtype=np.int64).reshape(-1, 2)
    decided = np.array([p.decision * 2 + p.seat if p.decision >= 0 else -1 for p in points],
                       dtype=np.int64)
    answers = np.zeros((m, width), dtype=np.int64)
    n_answers = np.zeros(m, dtype=np.int64)
    for j, a in enumerate(answer_lists):
        answers[j, :len(a)] = a
        n_answers[j] = len(a)
    out = np.zeros((m, width, games), dtype=np.int8)
    decision_rollouts(scripted_function(player.decide), bases, poses, views, scripts, at,
                      decided, answers, n_answers, player.params, int(seed), int(first), out)
    return out


class Player:
    """A registered policy (or pair) and its parameters, as the play-outs take them."""

    def __init__(self, policy, params=None):
        from ..runner.kernels import as_function
        self.decide = get_policy(policy).decide
        as_function(self.decide)
        vec = param_vector(policy) if params is None else params
        self.params = np.array(vec, dtype=np.float64)
        self.params.flags.writeable = False


def game_equity(g, choose=CHOOSE, estimate=ESTIMATE, seed=0):
    """The equity view of game ``g`` (:class:`GameMoments`): a DataFrame of its events in
    order, one row per luck (the change between two points) and per decision estimated:
    ``event`` (``luck`` or ``decision``), ``kind`` (luck's :data:`KINDS`; a decision's
    name), ``round``, ``seat``, ``answer``, ``best``, ``before``, ``after``, ``luck``, ``cost``;
    its attributes ``start``, ``outcome`` and ``astray`` (play-outs whose replay left the game:
    0 unless the engine and the record disagree). ``choose`` play-outs per answer pick the best
    answer, ``estimate`` per point estimate the chances (on the streams of ``seed`` that
    :data:`SET_A` and :data:`SET_B` name)."""
    choose = check_count("choose", choose, PER_SET)
    estimate = check_count("estimate", estimate, PER_SET)
    seed = check_seed(seed)
    player = Player(g.policy, g.params)
    points, rec = game_points(g)
    decisions = [p for p in points if p.kind == "decision"]
    astray = 0
    best = {}
    if decisions:
        out = point_rollouts(player, rec, decisions, [p.answers for p in decisions], choose,
                             seed, (2 * g.game + SET_A) * PER_SET)
        astray += int((out == LK.ASTRAY).sum())
        for j, p in enumerate(decisions):
            wins = (out[j, :len(p.answers)] == rules.WIN).sum(axis=1)
            top = np.flatnonzero(wins == wins.max())
            g_at = p.answers.index(p.given) if p.given in p.answers else -1
            best[p.moment] = p.given if g_at in top else p.answers[int(top[0])]
    lists = [() if p.kind != "decision" else
             ((p.given,) if best[p.moment] == p.given else (p.given, best[p.moment]))
             for p in points]
    out = point_rollouts(player, rec, points, lists, estimate, seed,
                         (2 * g.game + SET_B) * PER_SET)
    astray += int((out == LK.ASTRAY).sum())
    value = (out == rules.WIN).mean(axis=2)
    rows = []
    start = float(value[0, 0])
    prev = start
    prev_point = points[0]
    for j, p in enumerate(points[1:], start=1):
        kind = _luck_kind(rec, prev_point, p)
        if p.kind != "decision":
            v = float(value[j, 0])
            rows.append(_luck(kind, p, prev, v))
            prev = v
        else:
            given_v = float(value[j, 0])
            best_v = given_v if len(lists[j]) == 1 else float(value[j, 1])
            rows.append(_luck(kind, p, prev, best_v))
            rows.append({"event": "decision", "kind": D.DECISION_NAMES[p.decision],
                         "round": p.round, "seat": p.seat, "answer": p.given,
                         "best": best[p.moment], "before": best_v, "after": given_v,
                         "luck": 0.0, "cost": best_v - given_v})
            prev = given_v
        prev_point = p
    outcome = float(g.won)
    rows.append(_luck(_end_kind(rec, prev_point), None, prev, outcome,
                      int(g.final[L.S_ROUND])))
    table = pd.DataFrame(rows, columns=["event", "kind", "round", "seat", "answer", "best",
                                        "before", "after", "luck", "cost"])
    table.attrs.update(start=start, outcome=outcome, astray=astray, game=g.game)
    return table


def _luck(kind, p, before, after, rnd=None):
    return {"event": "luck", "kind": kind, "round": p.round if p is not None else rnd,
            "seat": -1, "answer": None, "best": None, "before": before, "after": after,
            "luck": after - before, "cost": 0.0}


def _in_play(rec, point):
    """Whether a point lies in a round's play phase (its base is the dealt position)."""
    return point.kind == "area" or (point.kind == "decision"
                                    and int(rec.info[point.base, 0]) == K.SNAP_DEALT)


def _luck_kind(rec, a, b):
    """The chance the stretch from point ``a`` to point ``b`` held (:data:`KINDS`)."""
    if b.kind == "area":
        return "area"
    if _in_play(rec, a) and (_in_play(rec, b) or b.kind == "phase"):
        return "deal"
    if b.kind == "phase" and int(rec.info[b.base, 0]) == K.SNAP_DRAW:
        st = rec.snaps[b.base]
        return "killer" if st[L.S_KILLER_DRAWN] and not rec.snaps[b.base - 1][L.S_KILLER_DRAWN] \
            or _drew_killer(st) else "draw"
    if b.kind == "phase" and int(rec.info[b.base, 0]) == K.SNAP_START and \
            _reshuffled(rec.snaps[b.base - 1], rec.snaps[b.base]):
        return "reshuffle"
    return "none"


def _drew_killer(st):
    n = int(st[L.S_DRAWN_N])
    return n > 0 and int(st[L.S_DRAWN + n - 1]) == rules.KILLER


def _reshuffled(before, after):
    return int(after[L.S_DECK_N]) > int(before[L.S_DECK_N])


def _end_kind(rec, last):
    """The chance between the last point and the end of the game."""
    return "deal" if _in_play(rec, last) else "none"


def check_sums(table, tol=1e-9):
    """Whether the game's events add up: each event starts where the one before it ended (the
    first at the start's estimate, the last ending on the outcome), each moves by its luck or
    by minus its cost, and so the start plus all luck less all costs is the outcome."""
    start, outcome = table.attrs["start"], table.attrs["outcome"]
    before, after = table["before"].to_numpy(), table["after"].to_numpy()
    steps = np.where(table["event"] == "luck", table["luck"], -table["cost"])
    linked = before[0] == start and after[-1] == outcome and np.array_equal(before[1:],
                                                                            after[:-1])
    total = start + table["luck"].sum() - table["cost"].sum()
    return bool(linked and np.allclose(after - before, steps, rtol=0, atol=tol)
                and abs(total - outcome) <= tol)


def game_totals(table):
    """One game's sums: ``start``, luck by kind (``luck_<kind>``), ``cost`` (all decisions),
    ``won`` (the outcome: 1 or 0), ``estimated`` (decisions estimated), ``costly`` (those whose
    best answer was not the one given) and ``astray``."""
    luck = table[table["event"] == "luck"].groupby("kind")["luck"].sum()
    dec = table[table["event"] == "decision"]
    row = {"game": table.attrs["game"], "start": table.attrs["start"]}
    row.update({f"luck_{k}": float(luck.get(k, 0.0)) for k in KINDS})
    row.update(cost=float(dec["cost"].sum()), won=table.attrs["outcome"],
               estimated=len(dec), costly=int((dec["answer"] != dec["best"]).sum()),
               astray=table.attrs["astray"])
    return row


def variance_shares(totals, boot=400, seed=0):
    """The share of the outcome's variance each source explains, from per-game sums
    (:func:`game_totals` rows): source ``X`` (the start's estimate, luck of a kind, or the
    decisions as minus their cost) gets ``cov(X, outcome) / var(outcome)``; the shares add up
    to 1 because the outcome is the sum of the sources. (The start is the same chance for
    every game; its estimates differ by their noise only, so its share is noise.) A
    DataFrame ``source, share, low, high`` (a bootstrap 95 % interval over the games)."""
    t = pd.DataFrame(totals)
    sources = {"start": t["start"].to_numpy()}
    sources.update({f"luck: {k}": t[f"luck_{k}"].to_numpy() for k in KINDS})
    sources["decisions"] = -t["cost"].to_numpy()
    o = t["won"].to_numpy(dtype=float)
    names = list(sources)
    x = np.stack([sources[n] for n in names])
    rng = np.random.default_rng(seed)

    def shares(idx):
        oo = o[idx]
        var = oo.var()
        if var == 0:
            return np.full(len(names), np.nan)
        return np.array([np.mean((xx[idx] - xx[idx].mean()) * (oo - oo.mean())) for xx in x]) \
            / var
    point = shares(np.arange(len(o)))
    if np.isnan(point).all():
        low = high = point
    else:
        draws = np.array([shares(rng.integers(0, len(o), len(o))) for _ in range(boot)])
        low, high = np.nanpercentile(draws, [2.5, 97.5], axis=0)
    return pd.DataFrame({"source": names, "share": point, "low": low, "high": high})
