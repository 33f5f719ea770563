"""Difficulty tuning: find knob settings whose win rate lies within a tolerance of a target.

Coarse to fine on common random numbers: every candidate plays the same games of one seed;
after each stage only the candidates whose 95 % interval can still meet the target band go on,
and they continue with the next games of the seed (``first_game``), so no game is wasted and
candidates stay paired.
"""
from dataclasses import dataclass
import itertools
import math

import pandas as pd

from ..core import layout as L
from ..core import rules
from ..core.config import GameConfig
from ..core.errors import ConfigError
from ..core.progress import increments
from ..core.stats import wilson_interval
from ..policies import DEFAULT_SKILL
from ..runner import simulate

#: the knobs the tuner may turn, with the values it tries (docs/rules.md, "The difficulty knobs")
KNOB_VALUES = {
    "health": tuple(range(1, 8)),
    "hideaway": (False, True),
    "cursed_object": (True, False),
    "escapes_needed": tuple(range(1, 6)),
    "traps": tuple(range(1, 5)),
}
DEFAULT_KNOBS = rules.DIFFICULTY_KNOBS
#: games per candidate after each stage
DEFAULT_STAGES = (20_000, 200_000, 1_000_000)
_WIN = rules.OUTCOME_NAMES.index("win")


@dataclass
class Candidate:
    """One knob setting and the counts it has played so far."""

    knobs: dict
    config: GameConfig
    games: int = 0
    wins: int = 0

    @property
    def win_rate(self):
        return self.wins / self.games

    @property
    def ci(self):
        return wilson_interval(self.wins, self.games)


def _changes(knobs, base):
    """How many knobs differ from the base configuration's values."""
    resolved = base.resolved()
    return sum(resolved[k] != v for k, v in knobs.items())


class Tuner:
    """Candidates of one knob space and their counts so far, shared by several searches.

    Counts only grow, always with the next games of the seed, so searches for several targets
    (the difficulty presets) reuse each other's games and stay on common random numbers.
    """

    def __init__(self, policy=DEFAULT_SKILL, knobs=DEFAULT_KNOBS, base=None, seed=0, threads=None,
                 step=None):
        check_knobs(knobs)
        self.policy, self.seed, self.threads = policy, seed, threads
        self.step = step
        self.violations = 0
        self.base = base or GameConfig()
        self.knobs = tuple(knobs)
        self.candidates = []
        for combo in itertools.product(*(KNOB_VALUES[k] for k in self.knobs)):
            setting = dict(zip(self.knobs, combo))
            self.candidates.append(Candidate(setting, self.base.replace(**setting)))

    def play(self, candidate, games):
        """Extend ``candidate`` to ``games`` games (no-op if it has played that many)."""
        if games > candidate.games:
            r = simulate(candidate.config, self.policy, games=games - candidate.games,
                         seed=self.seed, threads=self.threads, first_game=candidate.games,
                         progress=increments(self.step))
            candidate.games = games
            candidate.wins += int(r.counts[L.K_OUTCOMES + _WIN])
            self.violations += int(r.counts[L.K_VIOLATIONS])

    def search(self, target, tolerance=0.02, stages=DEFAULT_STAGES, keep=12, progress=None):
        """Rank the candidates for ``target``; see :func:`tune`."""
        check_search(target, tolerance, stages, keep)
        low, high = target - tolerance, target + tolerance
        pool = list(self.candidates)
        for s, games in enumerate(stages):
            for i, c in enumerate(pool):
                self.play(c, games)
                if progress is not None:
                    progress(s + 1, len(stages), i + 1, len(pool))
            pool.sort(key=lambda c: abs(c.win_rate - target))
            if s < len(stages) - 1:
                pool.sort(key=lambda c: (c.ci[1] < low or c.ci[0] > high,
                                         abs(c.win_rate - target)))
                pool = pool[:keep]
        rows = []
        for c in pool:
            lo, hi = c.ci
            rows.append({**c.knobs, "games": c.games, "wins": c.wins, "win_rate": c.win_rate,
                         "win_ci_low": lo, "win_ci_high": hi,
                         "distance": abs(c.win_rate - target),
                         "meets_target": bool(lo >= low and hi <= high),
                         "changes": _changes(c.knobs, self.base)})
        df = pd.DataFrame(rows)
        order = df["changes"].where(df["meets_target"], 0)
        df = (df.assign(_missed=~df["meets_target"], _order=order)
              .sort_values(["_missed", "_order", "distance"], ignore_index=True)
              .drop(columns=["_missed", "_order"]))
        df.attrs["invariant_violations"] = self.violations
        return df


def check_knobs(knobs):
    """Refuse knobs the tuner cannot turn."""
    if not knobs:
        raise ConfigError(f"knobs must name at least one of: {', '.join(KNOB_VALUES)}")
    for k in knobs:
        if k not in KNOB_VALUES:
            raise ConfigError(f"unknown knob {k!r} to tune; expected one of: "
                              f"{', '.join(KNOB_VALUES)}")
    if len(set(knobs)) != len(knobs):
        raise ConfigError(f"knobs lists a knob twice: {','.join(knobs)}")


def check_search(target, tolerance, stages, keep=12):
    """Refuse a target, tolerance, stages or keep that :meth:`Tuner.search` cannot use, every
    bad one named in the one message (``stages=None``: stages already refused)."""
    found = []
    if not (isinstance(target, (int, float)) and math.isfinite(target) and 0 < target < 1):
        found.append(f"target must be between 0 and 1, got {target!r}")
    if not (isinstance(tolerance, (int, float)) and math.isfinite(tolerance)
            and 0 < tolerance < 0.5):
        found.append(f"tolerance must be between 0 and 0.5, got {tolerance!r}")
    if stages is not None and (not stages or stages[0] < 1 or any(
            b <= a for a, b in zip(stages, stages[1:])) or stages[-1] >= 1 << 63):
        found.append(f"stages must be increasing game counts, got {list(stages)!r}")
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 1:
        found.append(f"keep must be at least 1, got {keep!r}")
    if found:
        raise ConfigError("; ".join(found))


def planned_games(knobs, stages, keep):
    """At most how many games :func:`tune` plays (for a progress bar)."""
    n = 1
    for k in knobs:
        n *= len(KNOB_VALUES[k])
    total = n * stages[0]
    for a, b in zip(stages, stages[1:]):
        total += min(keep, n) * (b - a)
    return total


def tune(target, policy=DEFAULT_SKILL, knobs=DEFAULT_KNOBS, base=None, tolerance=0.02,
         stages=DEFAULT_STAGES, seed=0, threads=None, keep=12, progress=None, step=None):
    """Rank knob settings by how close their win rate is to ``target``.

    Parameters
    ----------
    target : float
        The wanted win rate, in (0, 1).
    policy : str
        The policy that plays.
    knobs : sequence of str
        Knobs to search, from ``KNOB_VALUES``; the others stay as in ``base``.
    base : GameConfig, optional
        Everything else (edition, ...); default the rulebook defaults.
    tolerance : float
        A setting meets the target when its whole 95 % interval lies within
        ``target +- tolerance``.
    stages : sequence of int
        Games per candidate after each stage (increasing); every candidate plays the first
        stage, then the ``keep`` best go on: those whose interval still reaches the band
        first, nearest first.
    progress : callable, optional
        Called as ``progress(stage, n_stages, done, total)`` after each candidate is played.
    step : callable, optional
        Called with the games just played (:func:`planned_games` at most in all).

    Returns
    -------
    pandas.DataFrame
        The candidates of the last stage, best first: the knobs, ``games``, ``wins``,
        ``win_rate``, ``win_ci_low``, ``win_ci_high``, ``distance`` (from the target),
        ``meets_target`` and ``changes`` (knobs that differ from ``base``). Settings that
        meet the target come first, fewest changes first, then nearest; the others follow,
        nearest first. ``df.attrs["invariant_violations"]`` counts the games played that broke
        an invariant.
    """
    return Tuner(policy, knobs, base, seed, threads, step).search(target, tolerance, stages,
                                                                  keep, progress)
