"""Luck: how much of a result the cards decide, measured with common random numbers.

Every configuration of a seed sees the same deals, area decks and policy randomness game by
game (the engine draws the Killer's position even when it is forced), so a knob such as the
Killer's starting position can be set for every game and its effect read from paired per-game
differences, whose spread is far smaller than that of independent runs.
"""
import math

import numpy as np

from ..core import layout as L
from ..core import rules
from ..core.config import GameConfig
from ..core.errors import ConfigError
from ..core.inputs import check_count
from ..core.progress import increments
from ..core.stats import Z95, wilson_interval
from ..runner import DEFAULT_CHUNK, play_side_by_side, prepare, simulate
from .winnable import solve_games

_WIN = rules.OUTCOME_NAMES.index("win")


def paired_effects(configs, policy="baseline", games=100_000, seed=0, threads=None,
                   report=None, chunk_size=DEFAULT_CHUNK, weights=None, step=None, tally=None,
                   params=None):
    """Win rate of each labelled configuration and its effect, on common random numbers.

    ``configs`` maps labels to configurations that differ in one set-up fact; all play the same
    ``games`` games of ``seed``. A label's effect is its win rate minus the average over all
    labels, with a 95 % interval from the paired per-game differences
    ``d_g = win_k(g) - mean_j win_j(g)``. ``report`` (default: every label) selects the labels
    returned. Returns ``({label: {"games", "win_rate", "win_ci", "effect", "effect_ci"}},
    average)``; sums are kept as integers, so chunking cannot change the result.

    ``weights`` (integers >= 0 summing above 0, one per label; default all 1) are the labels'
    chances in an unconditioned game, for set-up facts that are not equally likely: the
    average and the effects are then weighted, ``d_g = win_k(g) - sum_j w_j win_j(g) / sum_j
    w_j``, so the average is the unconditioned win rate (a label of weight 0 is compared with
    it and takes no part in it).

    ``step(n)`` is called with the games just played; ``tally``, a dict, gets
    ``"invariant_violations"``: the games, over all labels, that broke an invariant;
    ``params`` are the policy's parameters (default: its defaults).
    """
    games = check_count("games", games)
    chunk_size = check_count("chunk_size", chunk_size)
    labels = list(configs)
    n_pos = len(labels)
    weight = np.ones(n_pos, dtype=np.int64) if weights is None else \
        np.array([int(weights[k]) for k in labels], dtype=np.int64)
    total = int(weight.sum())
    wins = np.zeros(n_pos, dtype=np.int64)
    # sum(w) * d_g is an integer, so its sums are kept exactly and chunking cannot change them
    e_sum = np.zeros(n_pos, dtype=np.int64)
    e_sq = np.zeros(n_pos, dtype=np.int64)
    violations = 0

    def on_chunk(start, chunk, counts):
        nonlocal violations
        won = np.stack([rec[:, L.R_OUTCOME] == rules.WIN for rec in chunk]).astype(np.int64)
        violations += sum(int((rec[:, L.R_VIOLATIONS] != 0).sum()) for rec in chunk)
        e = total * won - weight @ won
        wins[:] += won.sum(axis=1)
        e_sum[:] += e.sum(axis=1)
        e_sq[:] += (e * e).sum(axis=1)

    player = prepare(policy, params)
    play_side_by_side([(configs[label], player) for label in labels], games, seed,
                      threads=threads, cap=chunk_size, step=step, on_chunk=on_chunk)
    if tally is not None:
        tally["invariant_violations"] = tally.get("invariant_violations", 0) + violations
    scale = total * games
    out = {}
    for i, label in enumerate(labels):
        if report is not None and label not in report:
            continue
        w, s1, s2 = int(wins[i]), int(e_sum[i]), int(e_sq[i])
        effect = s1 / scale
        effect_ci = None
        if games > 1:
            var = (games * s2 - s1 * s1) / (games * (games - 1)) / (total * total)
            half = Z95 * math.sqrt(max(var, 0.0) / games)
            effect_ci = [effect - half, effect + half]
        out[str(label)] = {"games": games, "win_rate": w / games,
                           "win_ci": list(wilson_interval(w, games)),
                           "effect": effect, "effect_ci": effect_ci}
    return out, int(weight @ wins) / scale


def killer_positions(config, positions=None):
    """The Killer's starting positions to report (sorted, each checked within
    ``1..config.killer_positions``; default all), without playing anything."""
    n_pos = config.replace(killer_position=None).killer_positions
    wanted = range(1, n_pos + 1) if positions is None else positions
    report = []
    for k in wanted:
        k = int(k) if isinstance(k, np.integer) else k
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n_pos:
            raise ConfigError(f"killer position must be 1..{n_pos}, got {k!r}")
        report.append(k)
    return sorted(set(report))


def killer_runs(config, positions=None):
    """How many runs of ``games`` :func:`killer_position_effects` plays for ``positions``:
    every position when all are reported, else those reported and the game as dealt."""
    n_pos = config.replace(killer_position=None).killer_positions
    report = killer_positions(config, positions)
    return n_pos if len(report) == n_pos else len(report) + 1


def killer_configs(config, positions):
    """``{"k": config}``: ``config`` with the Killer at each of ``positions``."""
    return {str(k): config.replace(killer_position=k) for k in positions}


def killer_position_effects(config=None, policy="baseline", games=100_000, seed=0, threads=None,
                            positions=None, chunk_size=DEFAULT_CHUNK, step=None, params=None):
    """Win rate and effect of each starting position of the Killer in the first item deck.

    Every position ``k`` (1 = top) reported plays the same ``games`` games of ``seed`` with
    the deck generated so (``GameConfig(killer_position=k)``), not filtered. A position's
    effect is its win rate minus the average over the positions, each equally likely; its
    interval comes from the paired per-game differences ``d_g = win_k(g) - average(g)``:
    ``mean(d) +- z * sd(d) / sqrt(n)``. With every position reported, ``average(g)`` is the
    mean of the positions' wins of game ``g``; with some, it is the win of game ``g`` as dealt
    (the Killer where the deck put it), which has the same expectation, so only the positions
    asked about and that one run are played (:func:`killer_runs`).

    Parameters
    ----------
    config : GameConfig, optional
        The rules (default: the rulebook defaults); its ``killer_position`` is ignored.
    policy : str
        A registered policy name.
    games, seed : int
        Games per position, and the run seed shared by all positions.
    threads : int, optional
        Numba threads (default: all); results do not depend on it.
    positions : iterable of int, optional
        The positions to report (default: all).
    chunk_size : int
        Games held in memory at once per position; results do not depend on it.
    step : callable, optional
        Called with the games just played (``games`` times :func:`killer_runs` in all).
    params : array, optional
        The policy's parameter vector (default: its defaults).

    Returns
    -------
    dict
        ``{"positions": {"k": {"games", "win_rate", "win_ci", "effect", "effect_ci"}},
        "average", "invariant_violations", "config", "policy", "seed"}``, JSON-ready (the
        ``luck killer --json`` object). ``effect_ci`` is ``None`` when ``games`` is 1.

    Raises
    ------
    ConfigError
        For a position outside ``1..config.killer_positions``.
    """
    config = (config or GameConfig()).replace(killer_position=None)
    games = check_count("games", games)
    chunk_size = check_count("chunk_size", chunk_size)
    n_pos = config.killer_positions
    report = killer_positions(config, positions)
    tally = {}
    configs = killer_configs(config, report)
    weights = None
    if len(report) != n_pos:
        configs["as dealt"] = config
        weights = {**{str(k): 0 for k in report}, "as dealt": 1}
    out, average = paired_effects(configs, policy, games, seed, threads,
                                  {str(k) for k in report}, chunk_size, weights=weights,
                                  step=step, tally=tally, params=params)
    return {"positions": dict(sorted(out.items(), key=lambda kv: int(kv[0]))),
            "average": average, "invariant_violations": tally["invariant_violations"],
            "config": config.describe(),
            "rules_id": config.rules_id.digest, "policy": policy, "seed": int(seed)}


def yellow_weights():
    """``{"y": w}``: the number of 8-card hands out of 20 cards holding ``y`` of the 5 yellows
    (the chance of ``y`` yellows in one player's first hand, times C(20, 8))."""
    return {str(y): math.comb(5, y) * math.comb(15, 8 - y) for y in range(6)}


def fact_values(fact, config=None, values=None, player=0):
    """``(knob, allowed, wanted, weights)`` of a set-up fact of :func:`first_fact_effects`,
    every value checked, without playing anything."""
    knob = {"area": "first_area", "trump": "first_trump", "yellows": "first_yellows"}.get(fact)
    if knob is None:
        raise ConfigError(f"unknown set-up fact {fact!r}; expected one of: area, trump, "
                          f"yellows")
    config = (config or GameConfig()).replace(**{knob: None})
    weights = None
    if fact == "area":
        allowed = GameConfig.first_area_choices(config.resolved())
    elif fact == "trump":
        allowed = rules.SUIT_NAMES
    else:
        if player not in (0, 1):
            raise ConfigError(f"player must be 0 or 1, got {player!r}")
        weights = yellow_weights()
        allowed = tuple(weights)
    wanted = allowed if values is None else tuple(str(v) for v in values)
    for v in wanted:
        if v not in allowed:
            raise ConfigError(f"first {fact} must be one of: {', '.join(allowed)}, got {v!r}")
    return knob, allowed, wanted, weights


def fact_configs(fact, config, values, player=0):
    """``{value: config}``: ``config`` with the set-up fact ``fact`` generated at each of
    ``values`` (for ``"yellows"``, in ``player``'s first hand, the partner's left free)."""
    knob = fact_values(fact, config, values, player)[0]
    config = (config or GameConfig()).replace(**{knob: None})

    def setting(v):
        if fact != "yellows":
            return v
        return tuple(int(v) if p == player else None for p in range(2))

    return {v: config.replace(**{knob: setting(v)}) for v in values}


def add_winnable(result, key, configs, games, seconds, step=None):
    """Add to each row of ``result[key]`` (a luck question's answer) the exact solver's
    answer for the first ``games`` games of the row's configuration in ``configs`` (the same
    games the row played): ``"winnable"``, its :meth:`Winnability.summary`. ``step(n)`` after
    each game solved."""
    for label, row in result[key].items():
        row["winnable"] = solve_games(configs[label], result["seed"], 0, games, seconds,
                                      progress=None if step is None else
                                      (lambda done: step(1))).summary()
    result["winnable_games"] = games
    return result


def first_fact_effects(fact, config=None, policy="baseline", games=100_000, seed=0,
                       threads=None, values=None, chunk_size=DEFAULT_CHUNK, player=0,
                       step=None, params=None):
    """Win rate and effect of a set-up fact of round 1, each value generated so, not
    filtered, on common random numbers (see :func:`paired_effects`):

    - ``"area"``: the first area card (``GameConfig(first_area=...)``);
    - ``"trump"``: round 1's trump suit (``first_trump``);
    - ``"yellows"``: the number of yellows, ``"0"`` .. ``"5"``, in ``player``'s first hand
      (``first_yellows``; the partner's count stays free). The values are not equally likely,
      so the average and the effects are weighted by their chances (:func:`yellow_weights`)
      and the average is the unconditioned win rate.

    Returns ``{"values": {value: {...}}, "average", "invariant_violations", "config",
    "policy", "seed"}`` (and ``"player"`` for ``"yellows"``). ``step(n)`` is called with the
    games just played; ``params`` are the policy's parameters (default: its defaults).
    """
    knob, allowed, wanted, weights = fact_values(fact, config, values, player)
    config = (config or GameConfig()).replace(**{knob: None})
    configs = fact_configs(fact, config, allowed, player)
    tally = {}
    out, average = paired_effects(configs, policy, games, seed, threads, set(wanted),
                                  chunk_size, weights, step=step, tally=tally, params=params)
    result = {"values": {v: out[v] for v in allowed if v in out}, "average": average,
              "invariant_violations": tally["invariant_violations"],
              "config": config.describe(),
              "rules_id": config.rules_id.digest, "policy": policy, "seed": int(seed)}
    if fact == "yellows":
        result["player"] = player
    return result


#: names of the random streams, indexed by ``engine.rng`` stream number
STREAM_NAMES = ("deal", "items", "areas", "policy")


def intraclass_share(wins):
    """ANOVA estimate of the share of ``Var(Y)`` explained by the group:
    ``(MSB - MSW) / (MSB + (r - 1) MSW)`` for ``wins : ndarray((groups, r))`` of 0/1.

    With a random stream held fixed within each group and the others drawn per game, this is
    ``Var(E[Y | stream]) / Var(Y)``, the stream's first-order (Sobol) share of the variance.
    """
    s = np.asarray(wins).sum(axis=-1, dtype=np.int64).astype(np.float64)
    g, r = wins.shape[-2], wins.shape[-1]
    total = s.sum(axis=-1, keepdims=True)
    ssb = (s * s).sum(axis=-1) / r - total[..., 0] ** 2 / (g * r)
    ssw = (s - s * s / r).sum(axis=-1)
    msb = ssb / (g - 1)
    msw = ssw / (g * (r - 1))
    denom = msb + (r - 1) * msw
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, (msb - msw) / denom, 0.0)


def _share_interval(wins, boot, seed):
    """The share and its 95 % percentile-bootstrap interval over groups (resampled whole)."""
    share = float(intraclass_share(wins))
    rng = np.random.default_rng(seed)
    g = wins.shape[0]
    draws = []
    for start in range(0, boot, 50):
        idx = rng.integers(0, g, size=(min(50, boot - start), g))
        draws.append(intraclass_share(wins[idx]))
    draws = np.concatenate(draws)
    return share, [float(np.quantile(draws, 0.025)), float(np.quantile(draws, 0.975))]


def check_sources(games, repeats):
    """``(groups, repeats)`` of :func:`variance_sources`, checked without playing anything."""
    repeats = check_count("repeats", repeats)
    if repeats < 2:
        raise ConfigError(f"repeats must be at least 2, got {repeats}")
    groups = check_count("games", games) // repeats
    if groups < 2:
        raise ConfigError(f"games must be at least 2 x repeats ({2 * repeats}), got {games}")
    return groups, repeats


def variance_sources(config=None, policy="baseline", games=160_000, repeats=8, seed=0,
                     threads=None, boot=400, streams=STREAM_NAMES, step=None, params=None):
    """How much of the outcome's variance each random stream explains (Sobol indices).

    A stream's **first-order share** ``Var(E[win | stream]) / Var(win)`` is what it decides on
    its own: ``games`` games are played in groups of ``repeats`` that share the stream
    (``runner.simulate(hold=([stream], repeats))``) while the other streams are drawn per
    game, and the share is the intraclass correlation of wins within groups
    (:func:`intraclass_share`). Its **total share** ``E[Var(win | the other streams)] /
    Var(win)`` is all it takes part in deciding: one minus the intraclass correlation of
    groups that share every other stream. Each comes with a 95 % bootstrap interval over
    groups. For independent streams the first-order shares sum to at most 1 and the total
    shares to at least 1; ``1 - sum of first-order shares`` is what the streams decide only
    together.

    Returns ``{"shares": {stream: {"first", "first_ci", "total", "total_ci", "games",
    "groups"}}, "sum_first", "sum_total", "interactions", "win_rate", "repeats",
    "invariant_violations", "config", "policy", "seed"}``. ``step(n)`` is called with the
    games just played (``2 * groups * repeats`` per stream); ``params`` are the policy's
    parameters (default: its defaults).
    """
    config = config or GameConfig()
    groups, repeats = check_sources(games, repeats)
    for name in streams:
        if name not in STREAM_NAMES:
            raise ConfigError(f"unknown stream {name!r}; expected one of: "
                              f"{', '.join(STREAM_NAMES)}")

    violations = 0

    def held_wins(held):
        nonlocal violations
        rec = simulate(config, policy, games=groups * repeats, seed=seed, threads=threads,
                       keep_records=True, hold=(held, repeats), params=params,
                       progress=increments(step)).records
        violations += int((rec["violations"] != 0).sum())
        return (rec["outcome"].cat.codes.to_numpy() == _WIN).reshape(groups, repeats)

    shares = {}
    wins = 0
    for name in streams:
        k = STREAM_NAMES.index(name)
        alone = held_wins([k])
        first, first_ci = _share_interval(alone, boot, seed + 2 * k + 1)
        rest, rest_ci = _share_interval(held_wins([j for j in range(len(STREAM_NAMES))
                                                   if j != k]), boot, seed + 2 * k + 2)
        wins += int(alone.sum())
        shares[name] = {"first": first, "first_ci": first_ci, "total": 1 - rest,
                        "total_ci": [1 - rest_ci[1], 1 - rest_ci[0]],
                        "games": groups * repeats, "groups": groups}
    sum_first = sum(v["first"] for v in shares.values())
    return {"shares": shares, "sum_first": sum_first,
            "sum_total": sum(v["total"] for v in shares.values()),
            "interactions": 1 - sum_first, "win_rate": wins / (groups * repeats * len(shares)),
            "repeats": repeats, "invariant_violations": violations,
            "config": config.describe(),
            "rules_id": config.rules_id.digest, "policy": policy, "seed": int(seed)}
