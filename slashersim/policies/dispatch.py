"""Built-in fast paths: policies the engine calls directly, so that numba inlines them.

Any policy works through its first-class function (``engine.api.POLICY_TYPE``), but an indirect
call cannot be inlined. A policy registered here with a fast-path id is called directly when the
run sets ``st[S_FAST_POLICY]`` to that id (the runner does so from the registry); that made the
baseline 20-30 % faster in same-process A/B runs. The branch goes the same way for every
decision of a run, so it costs nothing measurable. Each fast path is compiled into every kernel,
so only the cheap policies have one: the expert spends its time in its own decisions, and a fast
path measured no faster for it (8,353 against 8,314 games/s on one thread).
"""
from numba import njit

from ..engine.layout import S_FAST_POLICY
from . import baseline as _baseline
from . import heuristic as _heuristic

#: fast-path ids (0: call the policy's function pointer)
from . import FAST_BASELINE, FAST_HEURISTIC, FAST_NONE  # noqa: F401 (the ids live in the registry)


@njit(cache=True, inline='always')
def decide(policy, decision, player, arg, st, params):
    """Ask the run's policy for ``decision``: directly if it has a fast path, else by pointer."""
    fast = st[S_FAST_POLICY]
    if fast == FAST_BASELINE:
        return _baseline.decide(decision, player, arg, st, params)
    if fast == FAST_HEURISTIC:
        return _heuristic.decide(decision, player, arg, st, params)
    return policy(decision, player, arg, st, params)
