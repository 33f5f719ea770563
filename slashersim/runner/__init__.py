"""The one run driver: every game the product plays is played through :func:`drive`.

:func:`drive` cuts a run into kernel calls that start at one game and grow with the measured
speed, so that no call takes much more than :data:`CALL_SECONDS`: a slow player reports
progress game by game and Ctrl-C is honoured within a second, while fast runs soon reach
full-size chunks. It owns the chunk sizing, the number of threads, the progress callback and
the interrupt handling; what a call plays is the caller's ``play(start, n)``.

A :class:`Player` is a policy made ready to play (a registered name with its parameter vector,
or a Python policy), with the compiled kernels of :mod:`.kernels`. :func:`simulate` plays N
games of one configuration and reduces them into counts at once, so memory does not grow with
the number of games. Game ``g`` depends only on ``(seed, g)``: results are bit-identical for
any number of threads and any chunk size. The kernels are imported (compiled or loaded) when a
player is prepared, never at import.
"""
from contextlib import contextmanager
import signal
import threading
import time

import numba
import numpy as np

from ..core import compiling
from ..core import layout as L
from ..core.config import GameConfig
from ..core.inputs import check_count, check_seed
from ..policies import check_param_vector, get_policy, pair_name, param_vector
from ..policies.python import (
    BRIDGE_STATE_SIZE,
    REPORT_AT,
    IllegalAnswer,
    answerer,
    answering,
    asker,
    bridge,
    illegal_message,
    policy_label,
    seats,
)
from ..policies.reach import refuse_own_generators
from .result import SimulationResult, area_names, count_fields, item_cards, records_frame

__all__ = ["CALL_SECONDS", "DEFAULT_CHUNK", "Player", "SimulationResult", "count_fields",
           "drive", "held_interrupt", "next_chunk", "play_side_by_side", "prepare",
           "records_frame", "simulate"]

#: most games held in memory at once by a run
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


def next_chunk(n, elapsed, cap):
    """Games in the next kernel call after one of ``n`` games took ``elapsed`` seconds: about
    :data:`CALL_SECONDS` worth, at most 16 times ``n`` and at most ``cap``."""
    if elapsed <= 0:
        return min(cap, 16 * n)
    return int(max(1, min(cap, 16 * n, n * CALL_SECONDS / elapsed)))


@contextmanager
def numba_threads(threads):
    """Run with ``threads`` numba threads (``None``: as set), restoring the number after."""
    previous = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(int(threads))
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def drive(total, play, *, cap=DEFAULT_CHUNK, threads=None, step=None):
    """Play ``total`` items (games or play-outs) in kernel calls of growing size.

    ``play(start, n)`` plays items ``start .. start + n - 1`` (one or more kernel calls) and
    returns how many units of work they were for ``step`` (``None``: ``n``); calls are sized
    by :func:`next_chunk`, at most ``cap`` items, with ``threads`` numba threads; ``step(units)``
    is called after each. A Ctrl-C during a call is raised after it (:func:`held_interrupt`).
    """
    with numba_threads(threads):
        done, n = 0, 1
        while done < total:
            n = min(n, total - done)
            t0 = time.perf_counter()
            with held_interrupt():
                units = play(done, n)
            elapsed = time.perf_counter() - t0
            done += n
            if step is not None:
                step(n if units is None else units)
            n = next_chunk(n, elapsed, cap)


class Player:
    """A policy made ready to play: a registered policy ``name`` with its parameter vector
    ``params``, or a Python policy (an object with ``act(observation)`` or a function of the
    observation). :meth:`play` plays a chunk of games into record rows."""

    def __init__(self, policy, params=None):
        policy = pair_name(policy)
        self.python = not isinstance(policy, str)
        self.policy = policy
        if self.python:
            if params is not None:
                raise ValueError("a Python policy takes no params")
            self.act = answerer(policy)
            refuse_own_generators(policy)
            self.label = policy_label(policy)
            self.params = np.zeros(0)
            self.param_names = ()
        else:
            entry = get_policy(policy)
            self.label = policy
            self.params = param_vector(policy) if params is None else \
                check_param_vector(policy, params)
            self.param_names = entry.param_names or tuple(str(i) for i in range(len(self.params)))
            self.decide = entry.decide
        self.kernels = None

    @property
    def param_dict(self):
        """The parameter vector by name."""
        return dict(zip(self.param_names, (float(v) for v in self.params)))

    def compile(self, kernel="chunk"):
        """Compile (or load from the cache) the kernel this player plays with, saying so first
        when it is not cached (:mod:`slashersim.core.compiling`); returns the player.
        ``kernel`` is ``"chunk"`` (games) or ``"rollouts"`` (play-outs of a position, which
        need no game kernel)."""
        if self.kernels is None:
            compiling.announce()
            if self.python:
                from .kernels import play_games  # the kernels load when games are played
                self.kernels = (bridge(), play_games.compile())
                return self
            from .kernels import kernels_for  # the kernels load when games are played
            self.kernels = kernels_for(self.policy, self.decide)
        if not self.python:
            getattr(self.kernels, f"{kernel}_kernel").compile()
        return self

    def play(self, cfg, seed, game0, records, held=0, repeats=1):
        """Play games ``game0 .. game0 + len(records) - 1`` of ``seed`` under the rules ``cfg``
        into ``records`` (streams ``held`` shared by groups of ``repeats`` games, see
        :func:`engine.game.play_block`). A Python policy plays on this thread; an exception it
        raised, or its first illegal answer, is raised after the call."""
        self.compile()
        if not self.python:
            self.kernels.chunk(cfg, self.params, seed, game0, records, held, repeats)
            return
        if held:
            raise ValueError("a Python policy plays no held streams")
        bridge, play_games = self.kernels
        st = np.zeros(BRIDGE_STATE_SIZE, dtype=np.int64)
        report = st[REPORT_AT:]
        acts = list(seats(self.policy))
        errors = []
        with answering(asker(acts, st, errors)):
            for i in range(len(records)):
                if i:
                    acts[:] = seats(self.policy)
                play_games(bridge, cfg, self.params, seed, game0 + i, records[i:i + 1], st)
                if errors or report[0] > 0:
                    break
        if errors:
            raise errors[0]
        if report[0] > 0:
            raise IllegalAnswer(illegal_message(report, self.label))


def prepare(policy, params=None):
    """A :class:`Player` of ``policy`` (a registered name or a Python policy) and ``params``."""
    return policy if isinstance(policy, Player) else Player(policy, params)


def play_side_by_side(runs, games, seed, *, first_game=0, threads=None, cap=DEFAULT_CHUNK,
                      step=None, on_chunk=None, held=0, repeats=1):
    """Play several runs on the same games (common random numbers), chunk by chunk through
    :func:`drive`, each chunk reduced into the run's counts at once.

    ``runs`` is a sequence of ``(config, player)`` (a :class:`GameConfig` and a
    :class:`Player`); run ``i`` plays games ``first_game .. first_game + games[i] - 1`` of
    ``seed`` (``games``: one count for all, or one per run). ``step(n)`` is called with the
    games just played (all runs together); ``on_chunk(start, records)`` after each chunk with
    each run's record rows of games ``first_game + start ..`` (``None`` for a run whose games
    are done). Returns ``(counts, elapsed)``: per run its counts (``core.layout.K_*``) and
    the seconds its kernels took. Every kernel is compiled (or loaded) before the first game.
    """
    from ..engine.game import aggregate  # loads with the kernels, when games are played
    games = [int(games)] * len(runs) if np.ndim(games) == 0 else [int(g) for g in games]
    cfgs = [config.to_array() for config, _ in runs]
    players = [player.compile() for _, player in runs]
    aggregate.compile()
    counts = [np.zeros(L.counts_size(int(cfg[L.C_MAX_ROUNDS])), dtype=np.int64) for cfg in cfgs]
    elapsed = [0.0] * len(runs)
    total = max(games)
    cap = min(total, cap)
    bufs = [np.empty((min(n, cap), L.RECORD_SIZE), dtype=np.int32) for n in games]

    def play(start, n):
        chunk = []
        for i, player in enumerate(players):
            m = min(n, games[i] - start)
            if m <= 0:
                chunk.append(None)
                continue
            rec = bufs[i][:m]
            t0 = time.perf_counter()
            player.play(cfgs[i], int(seed), int(first_game + start), rec, held, repeats)
            elapsed[i] += time.perf_counter() - t0
            aggregate(rec, counts[i])
            chunk.append(rec)
        if on_chunk is not None:
            on_chunk(start, chunk, counts)
        return sum(len(r) for r in chunk if r is not None)

    drive(total, play, cap=cap, threads=threads, step=step)
    return counts, elapsed


def simulate(config=None, policy="baseline", games=10_000, seed=0, threads=None,
             chunk_size=DEFAULT_CHUNK, keep_records=False, first_game=0, progress=None,
             params=None, hold=None):
    """Play ``games`` games and return a :class:`SimulationResult`.

    Parameters
    ----------
    config : GameConfig, optional
        The rules (default: the rulebook defaults).
    policy : str, Python policy or Player
        A registered policy name or a mixed pair (``"baseline+expert"`` or ``("baseline",
        "expert")``), or a Python policy (:mod:`slashersim.policies.python`: an
        object with ``act(observation)`` or a function of the observation), played on one
        thread.
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
        share them; the other streams stay per game.
    """
    config = config or GameConfig()
    games = check_count("games", games)
    seed = check_seed(seed)
    if check_seed(first_game, "first_game") + int(games) > 1 << 63:
        raise ValueError(f"games {first_game}..{first_game + games - 1} go past 2**63")
    held, repeats = 0, 1
    if hold is not None:
        streams, repeats = hold
        if not set(streams) <= {0, 1, 2, 3} or isinstance(repeats, bool) or \
                not isinstance(repeats, (int, np.integer)) or repeats < 1:
            raise ValueError(f"hold must be (streams among 0..3, repeats >= 1), got {hold!r}")
        held = sum(1 << int(k) for k in set(streams))
    policy = pair_name(policy)
    if not isinstance(policy, (str, Player)) and (params is not None or held):
        raise ValueError("a Python policy takes no params or hold")
    player = prepare(policy, params)
    frames = []
    done = 0

    def keep(start, chunk, counts):
        frames.append(chunk[0].copy())

    def step(n):
        nonlocal done
        done += n
        progress(done, games)

    (counts,), (elapsed,) = play_side_by_side(
        [(config, player)], int(games), int(seed), first_game=int(first_game), threads=threads,
        cap=chunk_size, step=None if progress is None else step,
        on_chunk=keep if keep_records else None, held=held, repeats=int(repeats))
    records = records_frame(np.concatenate(frames), first_game, area_names(config),
                            item_cards(config)) if keep_records else None
    return SimulationResult(config, player.label, int(seed), counts, elapsed, records,
                            player.param_dict)


def games_per_second(config=None, policy="baseline", params=None, threads=None, seconds=0.5):
    """How fast ``policy`` plays ``config`` on this machine now, in games per second: a short
    run first (it compiles or loads the kernel), then runs four times longer each until one
    takes ``seconds``. What a long command's estimate of its time is made from."""
    player = prepare(policy, params)
    simulate(config, player, games=16, seed=1, threads=threads)
    n = 64
    while True:
        start = time.perf_counter()
        simulate(config, player, games=n, seed=1, threads=threads)
        took = time.perf_counter() - start
        if took >= seconds or n >= 1 << 24:
            return n / max(took, 1e-9)
        n *= 4
