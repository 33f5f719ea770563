"""Run N games of a configuration under a policy: chunking, threads, streaming counts.

Games are played in chunks of at most ``chunk_size`` by :func:`engine.game.simulate_chunk`
(parallel over the chunk) and reduced into counts at once, so memory does not grow with the
number of games. Chunks start at one game and grow with the measured speed so that no kernel
call takes much more than :data:`CALL_SECONDS`: a slow policy reports progress game by game
and Ctrl-C is honoured within a second, while fast runs soon reach full-size chunks. Game
``g`` depends only on ``(seed, g)``: results are bit-identical for any number of threads and
any chunk size. The engine's kernels are imported (compiled or loaded) on the first run.
"""
from contextlib import contextmanager
from dataclasses import dataclass, field
import signal
import threading
import time

import numba
import numpy as np
import pandas as pd

from . import rules
from .stats import wilson_interval
from .config import GameConfig
from .engine import layout as L
from .inputs import check_seed
from .policies import check_param_vector, get_policy, param_vector

DEFAULT_CHUNK = 1 << 16
#: a kernel call aims at this many seconds (Ctrl-C waits for the call to end)
CALL_SECONDS = 0.2


@contextmanager
def held_interrupt():
    """Hold a Ctrl-C that arrives during a kernel call until the call has returned, then raise
    ``KeyboardInterrupt``: numba turns an interrupt raised while it dispatches a call with
    function arguments into a ``TypeError``. Outside the main thread, or when SIGINT is not
    Python's default handler, nothing changes."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    caught = []
    signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if caught:
        raise KeyboardInterrupt


@dataclass
class SimulationResult:
    """Counts of a run (``counts`` laid out by ``layout.K_*``) and, on request, its records."""

    config: GameConfig
    policy: str
    seed: int
    counts: np.ndarray
    elapsed_s: float = 0.0
    records: pd.DataFrame | None = None
    params: dict = field(default_factory=dict)

    @property
    def games(self):
        return int(self.counts[L.K_GAMES])

    def outcome(self, name):
        return int(self.counts[L.K_OUTCOMES + rules.OUTCOME_NAMES.index(name)])

    @property
    def wins(self):
        return self.outcome("win")

    @property
    def win_rate(self):
        return self.wins / self.games

    @property
    def win_ci(self):
        return wilson_interval(self.wins, self.games)

    def trap_rate_by_area(self):
        """Area name -> traps set off there per round played there (None if never played)."""
        out = {}
        for a, name in enumerate(rules.AREA_NAMES):
            played = int(self.counts[L.K_ROUNDS_AREA + a])
            out[name] = int(self.counts[L.K_TRAPS_AREA + a]) / played if played else None
        return out

    def rounds_by_area(self):
        """Area name -> rounds played there, all games."""
        return {name: int(self.counts[L.K_ROUNDS_AREA + a])
                for a, name in enumerate(rules.AREA_NAMES)}

    def traps_by_area(self):
        """Area name -> traps set off there, all games (the counts behind
        :meth:`trap_rate_by_area`)."""
        return {name: int(self.counts[L.K_TRAPS_AREA + a])
                for a, name in enumerate(rules.AREA_NAMES)}

    def outcome_counts(self):
        """Games per outcome: ``win``, ``loss_health``, ``loss_traps``, ``timeout``."""
        return {name: self.outcome(name) for name in rules.OUTCOME_NAMES[1:]}

    def win_rate_by_killer_start(self):
        """"k" -> [games, win rate] for each starting position k of the Killer (1 = top)."""
        out = {}
        for k in range(1, L.MAX_KILLER_START + 1):
            n = int(self.counts[L.K_KILLER_GAMES + k])
            if n:
                out[str(k)] = [n, int(self.counts[L.K_KILLER_WINS + k]) / n]
        return out

    def item_stats(self):
        """Item totals over all games: ``used`` and ``kept`` (item name -> count; a Cursed
        Object counts as used when drawn), ``killer_draws``, ``cabins_extra_draws`` and
        ``gifts`` (items given in the Fire pit)."""
        c = self.counts
        return {
            "used": {n: int(c[L.K_USED + i]) for i, n in enumerate(rules.ITEM_STAT_NAMES)},
            "kept": {n: int(c[L.K_KEPT_ITEM + i]) for i, n in enumerate(rules.ITEM_STAT_NAMES)},
            "killer_draws": int(c[L.K_KILLER_DRAWS]),
            "cabins_extra_draws": int(c[L.K_CABINS_EXTRA]),
            "gifts": int(c[L.K_GIFTS]),
        }

    def rounds_histogram(self):
        """Games that ended in round r, for r = 0..max_rounds."""
        return self.counts[L.K_ROUNDS_HIST:].copy()

    def summary(self):
        """The run as one JSON-ready dict (the ``simulate --json`` object).

        Rates come with the counts they are made of, so runs can be pooled by adding:
        ``outcomes`` (games per outcome), ``rounds`` and ``damage`` (totals), ``traps_by_area``
        beside ``rounds_by_area``, and ``rounds_hist`` (games that ended in round 0, 1, ...,
        trailing zeros cut)."""
        g = self.games
        low, high = self.win_ci
        return {
            "games": g,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_ci": [low, high],
            "loss_health": self.outcome("loss_health") / g,
            "loss_traps": self.outcome("loss_traps") / g,
            "timeout": self.outcome("timeout") / g,
            "mean_rounds": int(self.counts[L.K_ROUNDS]) / g,
            "mean_damage": int(self.counts[L.K_DAMAGE]) / g,
            "mean_items_kept": int(self.counts[L.K_KEPT]) / g,
            "mean_killer_draws": int(self.counts[L.K_KILLER_DRAWS]) / g,
            "trap_rate_by_area": self.trap_rate_by_area(),
            "rounds_by_area": self.rounds_by_area(),
            "traps_by_area": self.traps_by_area(),
            "outcomes": self.outcome_counts(),
            "rounds": int(self.counts[L.K_ROUNDS]),
            "damage": int(self.counts[L.K_DAMAGE]),
            "rounds_hist": np.trim_zeros(self.rounds_histogram(), "b").tolist(),
            "win_rate_by_killer_start": self.win_rate_by_killer_start(),
            "item_stats": self.item_stats(),
            "invariant_violations": int(self.counts[L.K_VIOLATIONS]),
            "config": self.config.describe(),
            "policy": self.policy,
            "policy_params": dict(self.params),
            "seed": self.seed,
            "elapsed_s": self.elapsed_s,
        }


def records_frame(records):
    """Per-game records ``ndarray(int32, (n, RECORD_SIZE))`` as a tidy DataFrame."""
    cols = {}
    for name, off, n in L.RECORD_FIELDS:
        if n == 1:
            cols[name] = records[:, off]
        elif name in ("traps_area", "rounds_area"):
            stem = name.split("_")[0]
            for a, area in enumerate(rules.AREA_NAMES):
                cols[f"{stem}_{area}"] = records[:, off + a]
        elif name in ("used", "kept_item"):
            stem = name.split("_")[0]
            for i, item in enumerate(rules.ITEM_STAT_NAMES):
                cols[f"{stem}_{item}"] = records[:, off + i]
        else:
            for p in range(n):
                cols[f"{name}_{p}"] = records[:, off + p]
    df = pd.DataFrame(cols)
    df["outcome"] = pd.Categorical.from_codes(df["outcome"], categories=rules.OUTCOME_NAMES)
    return df


def policy_params(name, overrides=None):
    """The parameter vector of policy ``name`` with ``overrides`` applied; a key is a
    parameter name or an index, and each value is checked against the parameter's type and
    range (:func:`slashersim.policies.param_vector`)."""
    return param_vector(name, overrides)


def next_chunk(n, elapsed, cap):
    """Games in the next kernel call after one of ``n`` games took ``elapsed`` seconds: about
    :data:`CALL_SECONDS` worth, at most 16 times ``n`` and at most ``cap``."""
    if elapsed <= 0:
        return min(cap, 16 * n)
    return int(max(1, min(cap, 16 * n, n * CALL_SECONDS / elapsed)))


def simulate(config=None, policy="baseline", games=10_000, seed=0, threads=None,
             chunk_size=DEFAULT_CHUNK, keep_records=False, first_game=0, progress=None,
             params=None, hold=None):
    """Play ``games`` games and return a :class:`SimulationResult`.

    Parameters
    ----------
    config : GameConfig, optional
        The rules (default: the rulebook defaults).
    policy : str or Python policy
        A registered policy name, or a Python policy (:mod:`slashersim.player`: an object
        with ``act(observation)`` or a function of the observation), played on one thread.
    games, seed : int
        How many games, and the run seed; game ``g`` uses the streams of ``(seed, g)``.
    threads : int, optional
        Numba threads (default: all).
    keep_records : bool
        Also return one row per game in ``result.records``.
    first_game : int
        Index of the first game, so that runs can be split and merged exactly.
    progress : callable, optional
        Called as ``progress(done, total)`` after each kernel call.
    hold : (iterable of int, int), optional
        ``(streams, repeats)``: the streams ``streams`` (``engine.rng.DEAL`` ...) of game
        ``g`` are seeded from group ``g // repeats``, so each ``repeats`` consecutive games
        share them (:func:`engine.luck.simulate_chunk_held`); the other streams stay per game.
    """
    config = config or GameConfig()
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be at least 1, got {games!r}")
    seed = check_seed(seed)
    if check_seed(first_game, "first_game") + int(games) > 1 << 63:
        raise ValueError(f"games {first_game}..{first_game + games - 1} go past 2**63")
    if not isinstance(policy, str):
        if params is not None or hold is not None:
            raise ValueError("a Python policy takes no params or hold")
        from .player import simulate_python
        return simulate_python(policy, config, int(games), seed, int(first_game), keep_records,
                               progress)
    params = policy_params(policy) if params is None else check_param_vector(policy, params)
    entry = get_policy(policy)
    if hold is not None:
        streams, repeats = hold
        if not set(streams) <= {0, 1, 2, 3} or isinstance(repeats, bool) or \
                not isinstance(repeats, (int, np.integer)) or repeats < 1:
            raise ValueError(f"hold must be (streams among 0..3, repeats >= 1), got {hold!r}")
    from .engine.game import aggregate, simulate_chunk
    if hold is not None:
        from .engine.luck import simulate_chunk_held
    # the drivers compile (or load from the cache) on first call: before the clock starts, so
    # that elapsed_s, and every games/s derived from it, is play alone
    (simulate_chunk if hold is None else simulate_chunk_held).compile()
    aggregate.compile()
    cfg = config.to_array()
    max_rounds = int(cfg[L.C_MAX_ROUNDS])
    counts = np.zeros(L.counts_size(max_rounds), dtype=np.int64)
    previous_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(int(threads))
    t0 = time.perf_counter()
    frames = []
    try:
        chunk = min(games, chunk_size)
        buf = np.empty((chunk, L.RECORD_SIZE), dtype=np.int32)
        done = 0
        step = 1
        while done < games:
            n = min(step, games - done)
            rec = buf[:n]
            t_call = time.perf_counter()
            with held_interrupt():
                if hold is None:
                    simulate_chunk(entry.decide, entry.fast, cfg, params, int(seed),
                                   int(first_game + done), rec)
                else:
                    simulate_chunk_held(entry.decide, entry.fast, cfg, params, int(seed),
                                        int(first_game + done), rec,
                                        sum(1 << int(k) for k in set(hold[0])), int(hold[1]))
            step = next_chunk(n, time.perf_counter() - t_call, chunk)
            aggregate(rec, counts)
            if keep_records:
                frames.append(rec.copy())
            done += n
            if progress is not None:
                progress(done, games)
    finally:
        numba.set_num_threads(previous_threads)
    elapsed = time.perf_counter() - t0
    records = None
    if keep_records:
        records = records_frame(np.concatenate(frames))
        records.insert(0, "game", np.arange(first_game, first_game + games))
    names = entry.param_names or tuple(str(i) for i in range(len(params)))
    return SimulationResult(config, policy, int(seed), counts, elapsed, records,
                            dict(zip(names, (float(v) for v in params))))
