"""Luck: how much of a result the cards decide, measured with common random numbers.

Every configuration of a seed sees the same deals, area decks and policy randomness game by
game (the engine draws the Killer's position even when it is forced), so a knob such as the
Killer's starting position can be set for every game and its effect read from paired per-game
differences, whose spread is far smaller than that of independent runs.
"""
import math

import numpy as np

from .. import rules
from ..config import ConfigError, GameConfig
from ..runner import DEFAULT_CHUNK, simulate
from .stats import Z95, wilson_interval

_WIN = rules.OUTCOME_NAMES.index("win")


def _check_count(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be at least 1, got {value!r}")
    return int(value)


def paired_effects(configs, policy="baseline", games=100_000, seed=0, threads=None,
                   report=None, chunk_size=DEFAULT_CHUNK):
    """Win rate of each labelled configuration and its effect, on common random numbers.

    ``configs`` maps labels to configurations that differ in one set-up fact; all play the same
    ``games`` games of ``seed``. A label's effect is its win rate minus the average over all
    labels, with a 95 % interval from the paired per-game differences
    ``d_g = win_k(g) - mean_j win_j(g)``. ``report`` (default: every label) selects the labels
    returned. Returns ``({label: {"games", "win_rate", "win_ci", "effect", "effect_ci"}},
    average)``; sums are kept as integers, so chunking cannot change the result.
    """
    games = _check_count("games", games)
    chunk_size = _check_count("chunk_size", chunk_size)
    labels = list(configs)
    n_pos = len(labels)
    wins = np.zeros(n_pos, dtype=np.int64)
    # n_pos * d_g is an integer, so its sums are kept exactly and chunking cannot change them
    e_sum = np.zeros(n_pos, dtype=np.int64)
    e_sq = np.zeros(n_pos, dtype=np.int64)
    done = 0
    while done < games:
        n = min(chunk_size, games - done)
        won = np.empty((n_pos, n), dtype=np.int64)
        for i, label in enumerate(labels):
            records = simulate(configs[label], policy, games=n, seed=seed, threads=threads,
                               chunk_size=n, keep_records=True, first_game=done).records
            won[i] = records["outcome"].cat.codes.to_numpy() == _WIN
        e = n_pos * won - won.sum(axis=0)
        wins += won.sum(axis=1)
        e_sum += e.sum(axis=1)
        e_sq += (e * e).sum(axis=1)
        done += n
    scale = n_pos * games
    out = {}
    for i, label in enumerate(labels):
        if report is not None and label not in report:
            continue
        w, s1, s2 = int(wins[i]), int(e_sum[i]), int(e_sq[i])
        effect = s1 / scale
        effect_ci = None
        if games > 1:
            var = (games * s2 - s1 * s1) / (games * (games - 1)) / (n_pos * n_pos)
            half = Z95 * math.sqrt(max(var, 0.0) / games)
            effect_ci = [effect - half, effect + half]
        out[str(label)] = {"games": games, "win_rate": w / games,
                           "win_ci": list(wilson_interval(w, games)),
                           "effect": effect, "effect_ci": effect_ci}
    return out, int(wins.sum()) / scale


def killer_position_effects(config=None, policy="baseline", games=100_000, seed=0, threads=None,
                            positions=None, chunk_size=DEFAULT_CHUNK):
    """Win rate and effect of each starting position of the Killer in the first item deck.

    Every position ``k`` (1 = top) plays the same ``games`` games of ``seed`` with the deck
    generated so (``GameConfig(killer_position=k)``), not filtered. A position's effect is its
    win rate minus the average of the per-position win rates; its interval comes from the
    paired per-game differences ``d_g = win_k(g) - mean_j win_j(g)``:
    ``mean(d) +- z * sd(d) / sqrt(n)``.

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
        The positions to report (default: all). The average and the effects always need every
        position, so all of them are played whatever is reported.
    chunk_size : int
        Games held in memory at once per position; results do not depend on it.

    Returns
    -------
    dict
        ``{"positions": {"k": {"games", "win_rate", "win_ci", "effect", "effect_ci"}},
        "average", "config", "policy", "seed"}``, JSON-ready (the ``luck killer --json``
        object). ``effect_ci`` is ``None`` when ``games`` is 1.

    Raises
    ------
    ConfigError
        For a position outside ``1..config.killer_positions``.
    """
    config = (config or GameConfig()).replace(killer_position=None)
    games = _check_count("games", games)
    chunk_size = _check_count("chunk_size", chunk_size)
    n_pos = config.killer_positions
    wanted = range(1, n_pos + 1) if positions is None else positions
    report = []
    for k in wanted:
        k = int(k) if isinstance(k, np.integer) else k
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n_pos:
            raise ConfigError(f"killer position must be 1..{n_pos}, got {k!r}")
        report.append(k)
    report = sorted(set(report))

    configs = {str(k): config.replace(killer_position=k) for k in range(1, n_pos + 1)}
    out, average = paired_effects(configs, policy, games, seed, threads,
                                  {str(k) for k in report}, chunk_size)
    return {"positions": dict(sorted(out.items(), key=lambda kv: int(kv[0]))),
            "average": average, "config": config.describe(), "policy": policy,
            "seed": int(seed)}


def first_fact_effects(fact, config=None, policy="baseline", games=100_000, seed=0,
                       threads=None, values=None, chunk_size=DEFAULT_CHUNK):
    """Win rate and effect of the first area card (``fact="area"``) or of round 1's trump
    suit (``fact="trump"``), each value generated so (``GameConfig(first_area=...)`` /
    ``first_trump=...``), not filtered, on common random numbers (see :func:`paired_effects`).

    Returns ``{"values": {value: {...}}, "average", "config", "policy", "seed"}``.
    """
    knob = {"area": "first_area", "trump": "first_trump"}.get(fact)
    if knob is None:
        raise ConfigError(f"unknown set-up fact {fact!r}; expected one of: area, trump")
    config = (config or GameConfig()).replace(**{knob: None})
    allowed = GameConfig.first_area_choices(config.resolved()) if fact == "area" \
        else rules.SUIT_NAMES
    wanted = allowed if values is None else tuple(values)
    for v in wanted:
        if v not in allowed:
            raise ConfigError(f"first {fact} must be one of: {', '.join(allowed)}, got {v!r}")
    configs = {v: config.replace(**{knob: v}) for v in allowed}
    out, average = paired_effects(configs, policy, games, seed, threads, set(wanted),
                                  chunk_size)
    return {"values": out, "average": average, "config": config.describe(),
            "policy": policy, "seed": int(seed)}
