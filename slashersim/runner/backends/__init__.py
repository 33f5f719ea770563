"""Sweep backends: where the pending (cell, policy, chunk) units of a sweep are played.

A backend has one method, ``run(units, on_done)``: play every :class:`Unit` and call
``on_done(unit, counts)`` once per unit, in any order, with that unit's integer counts. The
sweep saves the checkpoint and advances the progress display in ``on_done``, so checkpoints,
resume and the final table do not depend on the backend.

``local`` plays the units in this process (numba threads); ``dask`` plays them as tasks on
``dask.distributed`` (a local cluster it starts, or an existing scheduler).
"""
from typing import NamedTuple

from ...core.config import GameConfig
from .local import LocalBackend


class Unit(NamedTuple):
    """One chunk to play: games ``first .. first + games - 1`` of ``seed`` for one cell × policy.

    ``cell`` and ``chunk`` name the checkpoint file; ``config`` is the cell's
    :class:`GameConfig` (a small frozen dataclass, cheap to send to a worker).
    """

    cell: int
    policy: str
    chunk: int
    first: int
    games: int
    seed: int
    config: GameConfig


BACKENDS = ("local", "dask")


def make_backend(name="local", threads=None, scheduler=None, workers=None):
    """The backend called ``name``: ``local`` (``threads`` numba threads) or ``dask``
    (``scheduler`` address of an existing cluster, else a local cluster of ``workers``)."""
    if name == "local":
        return LocalBackend(threads=threads)
    if name == "dask":
        from .dask import DaskBackend  # dask is optional (the extra [dask])
        return DaskBackend(scheduler=scheduler, workers=workers)
    raise ValueError(f"unknown backend {name!r}; expected one of: {', '.join(BACKENDS)}")
