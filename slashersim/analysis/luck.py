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

    configs = [config.replace(killer_position=k) for k in range(1, n_pos + 1)]
    wins = np.zeros(n_pos, dtype=np.int64)
    # n_pos * d_g is an integer, so its sums are kept exactly and chunking cannot change them
    e_sum = np.zeros(n_pos, dtype=np.int64)
    e_sq = np.zeros(n_pos, dtype=np.int64)
    done = 0
    while done < games:
        n = min(chunk_size, games - done)
        won = np.empty((n_pos, n), dtype=np.int64)
        for i, cfg in enumerate(configs):
            records = simulate(cfg, policy, games=n, seed=seed, threads=threads, chunk_size=n,
                               keep_records=True, first_game=done).records
            won[i] = records["outcome"].cat.codes.to_numpy() == _WIN
        e = n_pos * won - won.sum(axis=0)
        wins += won.sum(axis=1)
        e_sum += e.sum(axis=1)
        e_sq += (e * e).sum(axis=1)
        done += n

    scale = n_pos * games
    out = {}
    for k in report:
        i = k - 1
        w, s1, s2 = int(wins[i]), int(e_sum[i]), int(e_sq[i])
        effect = s1 / scale
        effect_ci = None
        if games > 1:
            var = (games * s2 - s1 * s1) / (games * (games - 1)) / (n_pos * n_pos)
            half = Z95 * math.sqrt(max(var, 0.0) / games)
            effect_ci = [effect - half, effect + half]
        out[str(k)] = {"games": games, "win_rate": w / games,
                       "win_ci": list(wilson_interval(w, games)),
                       "effect": effect, "effect_ci": effect_ci}
    return {"positions": out, "average": int(wins.sum()) / scale,
            "config": config.describe(), "policy": policy, "seed": int(seed)}
