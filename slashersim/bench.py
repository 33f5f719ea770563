"""Engine benchmark: games per second on one and on all threads, after compilation, and memory."""
import resource
import time
import tracemalloc

import numba

from .config import GameConfig
from .runner import simulate


def _peak_traced(fn):
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def run_bench(games=2_000_000, policy="baseline", config=None, seed=12345, repeats=5):
    """Measure the engine; returns a dict of figures (best of ``repeats`` runs per setting).

    Rates are games per second of :func:`runner.simulate` after compilation, on one thread
    and on all threads.

    Memory flatness: the peak traced allocation of a run of ``games`` and of ``games // 10``
    games; equal figures mean memory does not grow with the number of games.
    """
    config = config or GameConfig()
    t0 = time.perf_counter()
    simulate(config, policy, games=1000, seed=seed)
    warmup_s = time.perf_counter() - t0
    all_threads = numba.config.NUMBA_NUM_THREADS
    rates = {}
    for threads in sorted({1, all_threads}):
        best = 0.0
        for _ in range(repeats):
            r = simulate(config, policy, games=games, seed=seed, threads=threads)
            best = max(best, r.games / r.elapsed_s)
        rates[threads] = best
    small = _peak_traced(lambda: simulate(config, policy, games=max(1, games // 10), seed=seed))
    large = _peak_traced(lambda: simulate(config, policy, games=games, seed=seed))
    return {
        "policy": policy,
        "games": games,
        "repeats": repeats,
        "warmup_s": warmup_s,
        "games_per_s_1_thread": rates[1],
        "threads": all_threads,
        "games_per_s_all_threads": rates[all_threads],
        "games_per_s_per_core_all_threads": rates[all_threads] / all_threads,
        "peak_traced_bytes_small_run": small,
        "peak_traced_bytes_large_run": large,
        "max_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }


def format_bench(b):
    lines = [
        f"policy {b['policy']}, {b['games']:,} games per run, best of {b['repeats']} "
        f"(kernels compiled or loaded from cache at import; warm-up call {b['warmup_s']:.2f} s)",
        f"  1 thread : {b['games_per_s_1_thread']:>12,.0f} games/s",
        f"  {b['threads']} threads: {b['games_per_s_all_threads']:>12,.0f} games/s "
        f"({b['games_per_s_per_core_all_threads']:,.0f} per core)",
        f"  peak traced memory: {b['peak_traced_bytes_small_run'] / 2**20:.1f} MiB for "
        f"{b['games'] // 10:,} games, {b['peak_traced_bytes_large_run'] / 2**20:.1f} MiB for "
        f"{b['games']:,} games",
        f"  peak resident memory of the process: {b['max_rss_bytes'] / 2**20:.0f} MiB",
    ]
    return "\n".join(lines)
