"""Runs that refine live: a setting (or two side by side on the same games) played in a
background thread, chunk by chunk (:func:`slashersim.api.side_by_side`), and a position's win
probability (:func:`slashersim.api.luck_state`).

Game ``g`` of a seed depends on ``(seed, g)`` only, so the counts after the last chunk are
exactly those of ``slashersim simulate --games N`` with the same seed: the final numbers on the
page are the command line's.

numba's parallel kernels must not be launched from two Python threads at once (the default
``workqueue`` threading layer is not thread-safe), so every call into the engine holds
:data:`KERNEL_LOCK` and lets go of it between two kernel calls (each lasts about 0.2 s), so
runs of several browsers interleave call by call.
"""
from __future__ import annotations

import threading
import time
import traceback

import numpy as np

from .. import api
from ..api import Simulation
from ..core import compiling
from ..core.errors import ConfigError
from ..core.stats import mean_interval, unpaired_difference_interval
from ..policies import SKILLS, compile_parts, param_specs, param_vector, resolve
from .settings import Settings

#: held around every call into the numba kernels (one launch at a time in this process)
KERNEL_LOCK = threading.Lock()


class Cancelled(Exception):
    """A run was cancelled between two kernel calls."""


def between_calls(stop: threading.Event | None = None) -> None:
    """Called between two kernel calls of a run that holds :data:`KERNEL_LOCK`: stop if
    ``stop`` is set, else let another run's kernel call in (release, yield, take it again), so
    that runs of several browsers interleave call by call."""
    if stop is not None and stop.is_set():
        raise Cancelled
    KERNEL_LOCK.release()
    try:
        time.sleep(0.001)
    finally:
        KERNEL_LOCK.acquire()


def compile_note(policies: list[str], kernels: tuple[str, ...] = ("engine",)) -> str | None:
    """What is about to compile, and about how long it takes, when a kernel these policies
    need is not in numba's cache yet; ``None`` on a warm cache."""
    text = compiling.message(compile_parts(policies, kernels))
    return None if text is None else text.removeprefix("slashersim: ")


def paired(only_a: int, only_b: int, wins_a: int, wins_b: int, n: int) -> dict:
    """The paired difference ``b - a`` of win rates over ``n`` common games, from the games
    only a won and only b won: ``difference``, its paired 95 % interval ``difference_ci``
    (``None`` for one game) and the interval independent samples would give
    (``unpaired_ci``), as ``slashersim compare`` reports a pair."""
    difference, ci = mean_interval(only_b - only_a, only_a + only_b, n)
    return {"games": n, "win_rate_a": wins_a / n, "win_rate_b": wins_b / n,
            "difference": difference, "difference_ci": ci,
            "unpaired_ci": unpaired_difference_interval(wins_a, n, wins_b, n),
            "only_a_won": only_a, "only_b_won": only_b}


def _param_dict(policy: str) -> dict:
    """The parameters of ``policy`` by name (its defaults), as a run records them."""
    name = resolve(policy)
    return {p.name: float(v) for p, v in zip(param_specs(name), param_vector(name))}


class LiveRun:
    """Setting ``a`` (and ``b``, side by side on the same games) played on games ``0 ..
    a.games - 1`` of ``a.seed`` in a daemon thread; :meth:`snapshot` gives the numbers so far.
    ``b`` plays ``a``'s games and seed."""

    def __init__(self, a: Settings, b: Settings | None = None):
        self.a = a
        self.b = b
        self.total = a.games
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._counts: list[np.ndarray] = []
        self._tally = np.zeros(4, dtype=np.int64)   # wins a, wins b, only a won, only b won
        self._done = 0
        self.chunks = 0
        self._error: str | None = None
        self._finished = False
        self._started = 0.0
        self._seconds = 0.0
        self._settings = [a] + ([b] if b else [])
        self._params: list[dict] = [{} for _ in self._settings]
        self.note = compile_note([s.policy for s in self._settings])
        self._thread = threading.Thread(target=self._run, name="slashersim-live", daemon=True)

    def start(self) -> LiveRun:
        self._started = time.perf_counter()
        self._thread.start()
        return self

    def cancel(self) -> None:
        """Stop after the chunk being played."""
        self._stop.set()

    def join(self, timeout: float | None = None) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _chunk(self, start: int, won: list, counts: list) -> None:
        """After each chunk: the counts so far and, for two settings, the paired tally."""
        with self._lock:
            if len(won) == 2:
                wa, wb = won
                self._tally += (wa.sum(), wb.sum(), (wa & ~wb).sum(), (wb & ~wa).sum())
            self._counts = [c.copy() for c in counts]
            self._done = start + len(won[0])
            self.chunks += 1
            self.note = None

    def _run(self) -> None:
        try:
            runs = [(s.config(), s.policy) for s in self._settings]
            self._params = [_param_dict(s.policy) for s in self._settings]
            with KERNEL_LOCK:
                api.side_by_side(runs, self.total, self.a.seed,
                                 step=lambda n: between_calls(self._stop),
                                 on_chunk=self._chunk)
        except Cancelled:
            pass
        except (ConfigError, ValueError) as e:
            with self._lock:
                self._error = str(e)
        except Exception as e:  # shown in the page; the server keeps running
            traceback.print_exc()
            with self._lock:
                self._error = f"{type(e).__name__}: {e}"
        finally:
            with self._lock:
                self._finished = True
                self._seconds = time.perf_counter() - self._started

    def snapshot(self) -> dict:
        """``done``, ``total``, ``finished``, ``cancelled``, ``error`` (a message or ``None``),
        ``note`` (what is compiling, or ``None``), ``seconds`` (so far), ``a`` and ``b`` (the
        :class:`~slashersim.api.Simulation` of the games so far, or ``None``) and ``pair``
        (the paired difference ``b - a``, or ``None``)."""
        with self._lock:
            counts, done, tally = list(self._counts), self._done, self._tally.copy()
            finished, error, note = self._finished, self._error, self.note
            seconds = self._seconds if finished else time.perf_counter() - self._started
        results = [Simulation(s.config(), s.policy, s.seed, c, seconds, None, dict(params))
                   for s, c, params in zip(self._settings, counts, self._params)] if done else []
        a = results[0] if results else None
        b = results[1] if len(results) > 1 else None
        pair = paired(int(tally[2]), int(tally[3]), int(tally[0]), int(tally[1]), done) \
            if b is not None and done else None
        return {"done": done, "total": self.total, "finished": finished,
                "cancelled": self._stop.is_set() and done < self.total, "error": error,
                "note": note, "seconds": seconds, "a": a, "b": b, "pair": pair}


class _Answer:
    """One answer of the page computed in a daemon thread: :meth:`_answer` returns it (held
    in ``result``); a refusal or an error is kept in ``error``; ``finished`` once it ended."""

    name = "slashersim-answer"

    def __init__(self, note: str | None):
        self.done = 0
        self.result: dict | None = None
        self.error: str | None = None
        self.finished = False
        self.note = note
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)

    def start(self):
        self._thread.start()
        return self

    def join(self, timeout: float | None = None) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _answer(self) -> dict:
        raise NotImplementedError

    def _run(self) -> None:
        try:
            with KERNEL_LOCK:
                self.result = self._answer()
        except (ConfigError, ValueError) as e:
            self.error = str(e)
        except Exception as e:
            traceback.print_exc()
            self.error = f"{type(e).__name__}: {e}"
        finally:
            self.note = None
            self.finished = True


class LuckRun(_Answer):
    """The win probability of a position (``slashersim luck state``) played out in a daemon
    thread: ``games`` play-outs of seed ``seed`` under the policy of ``skill``."""

    name = "slashersim-luck"

    def __init__(self, position, skill: str, games: int, seed: int):
        self.position = position
        self.policy = SKILLS[skill]
        self.games = games
        self.seed = seed
        super().__init__(compile_note([self.policy], ("engine", "rollouts")))

    def _step(self, done: int, total: int) -> None:
        self.done = done
        if self.done < self.games:
            between_calls()

    def _answer(self) -> dict:
        return api.luck_state(self.position, policy=self.policy, games=self.games,
                              seed=self.seed, progress=self._step)


class WhyRun(_Answer):
    """Why the games of setting ``a`` were lost (``slashersim why``): its first ``games``
    games (of ``a.seed``) played, and each lost one walked back by the exact solver, in a
    daemon thread."""

    name = "slashersim-why"

    def __init__(self, a: Settings, games: int, equity: bool = False):
        self.settings = a
        self.games = games
        self.equity = equity
        self.lost: int | None = None
        super().__init__(compile_note([a.policy, "belief", "expert", "omniscient"],
                                      ("engine", "record")))

    def _step(self, done: int, total: int) -> None:
        self.done, self.lost = done, total
        self.note = None

    def _answer(self) -> dict:
        return api.why(self.settings.config(), policy=self.settings.policy, games=self.games,
                       seed=self.settings.seed, equity=self.equity,
                       progress=self._step).summary()
