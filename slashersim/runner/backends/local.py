"""The in-process backend: plays the units one after another with numba threads."""
from ...core.progress import increments
from .. import simulate


class LocalBackend:
    """Play each unit in this process, in the given order, with ``threads`` numba threads
    (default: all; results do not depend on it)."""

    def __init__(self, threads=None):
        self.threads = threads

    def run(self, units, on_done, step=None):
        """Play ``units``; ``step(n)`` (optional) is called with the games just played."""
        for u in units:
            r = simulate(u.config, u.policy, games=u.games, seed=u.seed, threads=self.threads,
                         first_game=u.first, progress=increments(step))
            on_done(u, r.counts)
