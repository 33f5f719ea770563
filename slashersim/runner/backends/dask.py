"""The ``dask.distributed`` backend: the sweep's units as tasks on a cluster.

Each task plays one or more consecutive chunks of one cell × policy on one worker thread
(``threads=1``) and sends back only their counts; the client checkpoints each chunk as its task
completes (:func:`distributed.as_completed`), exactly as the local backend does. Game ``g``
depends only on ``(seed, g)``, and the counts are integers summed per cell, so the table is
identical to the local backend's whatever the order of completion.
"""
import itertools
import os

import numpy as np

from ...core.errors import ConfigError
from .. import simulate

#: Fewest games per task, so that each task is about 1 s of work or more (the baseline policy
#: plays about 262,144 games per second per core) and scheduling overhead stays small.
DEFAULT_MIN_TASK_GAMES = 262_144

MISSING = "the dask backend needs dask.distributed: pip install 'slashersim[dask]'"


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ConfigError(MISSING) from None
    return distributed


def split_tasks(units, min_task_games=DEFAULT_MIN_TASK_GAMES):
    """Group ``units`` into tasks: runs of consecutive units of the same cell and policy with at
    least ``min_task_games`` games together. A cell × policy with fewer games left than that is
    one task; a short remainder is merged into the task before it. Every unit is in exactly one
    task, in the given order."""
    tasks = []
    for _, run in itertools.groupby(units, key=lambda u: (u.cell, u.policy)):
        groups, current, games = [], [], 0
        for u in run:
            current.append(u)
            games += u.games
            if games >= min_task_games:
                groups.append(current)
                current, games = [], 0
        if current:
            if groups:
                groups[-1] = groups[-1] + current
            else:
                groups.append(current)
        tasks.extend(groups)
    return tasks


def play_task(config, policy, seed, spans):
    """Worker side: play each ``(first, games)`` span of ``seed`` with one thread; return their
    counts as one ``int64`` array of shape ``(len(spans), counts_size)``."""
    return np.stack([simulate(config, policy, games=n, seed=seed, threads=1,
                              first_game=first).counts for first, n in spans])


class DaskBackend:
    """Play the units on ``dask.distributed``.

    Parameters
    ----------
    client : distributed.Client, optional
        An existing client to use (not closed).
    scheduler : str, optional
        Address of an existing scheduler, e.g. ``tcp://HOST:8786``; a client to it is opened
        for the run and closed after it (the cluster is left running).
    workers : int, optional
        Without ``client`` or ``scheduler``: the worker processes of the local cluster started
        for the run (one thread each; default ``os.cpu_count()``), closed after it.
    min_task_games : int
        Fewest games per task (see :func:`split_tasks`).
    """

    def __init__(self, client=None, scheduler=None, workers=None,
                 min_task_games=DEFAULT_MIN_TASK_GAMES):
        _distributed()
        if client is not None and scheduler is not None:
            raise ValueError("give a client or a scheduler address, not both")
        if workers is not None and (client is not None or scheduler is not None):
            raise ConfigError("--workers sizes the local cluster; it cannot be used with "
                              "--scheduler")
        if workers is not None and (isinstance(workers, bool) or workers < 1):
            raise ConfigError(f"workers must be at least 1, got {workers!r}")
        if isinstance(min_task_games, bool) or min_task_games < 1:
            raise ValueError(f"min_task_games must be at least 1, got {min_task_games!r}")
        self.client = client
        self.scheduler = scheduler
        self.workers = workers
        self.min_task_games = min_task_games

    def _connect(self):
        """``(client, things to close afterwards, innermost first)``."""
        distributed = _distributed()
        if self.client is not None:
            return self.client, []
        if self.scheduler is not None:
            try:
                client = distributed.Client(self.scheduler, timeout="30s")
            except (OSError, TimeoutError) as e:
                raise ConfigError(f"cannot reach the dask scheduler at {self.scheduler}: "
                                  f"{e}") from None
            return client, [client]
        cluster = distributed.LocalCluster(n_workers=self.workers or os.cpu_count(),
                                           threads_per_worker=1, processes=True,
                                           dashboard_address=":0")
        client = distributed.Client(cluster)
        return client, [client, cluster]

    def run(self, units, on_done, step=None):
        """Play ``units``; ``step(n)`` (optional) is called with each finished task's games."""
        units = list(units)
        if not units:
            return
        distributed = _distributed()
        client, owned = self._connect()
        futures = {}
        try:
            for task in split_tasks(units, self.min_task_games):
                u = task[0]
                spans = tuple((v.first, v.games) for v in task)
                f = client.submit(play_task, u.config, u.policy, u.seed, spans, pure=False)
                futures[f.key] = (f, task)
            for f in distributed.as_completed([f for f, _ in futures.values()]):
                counts = f.result()
                _, task = futures.pop(f.key)
                for v, c in zip(task, counts):
                    on_done(v, c)
                if step is not None:
                    step(sum(v.games for v in task))
        finally:
            if futures:
                client.cancel([f for f, _ in futures.values()])
            for thing in owned:
                thing.close()
