"""Policies, registered by name.

A policy is a jitted function of ``engine.api.POLICY_SIGNATURE``; adding a policy means one
module and one entry here.
"""
from typing import Callable, NamedTuple

import numpy as np

from ..engine.api import POLICY_SIGNATURE
from . import baseline, exerciser, expert, heuristic, omniscient, search
from .dispatch import FAST_BASELINE, FAST_EXPERT, FAST_HEURISTIC


class Policy(NamedTuple):
    """A registry entry."""

    name: str
    decide: Callable            #: the jitted policy function
    default_params: np.ndarray  #: its tunable numbers
    omniscient: bool            #: True if it reads hidden information (an upper bound)
    fast: int = 0               #: its fast-path id in :mod:`.dispatch`, or 0
    param_names: tuple = ()     #: names of the entries of ``default_params``


POLICIES = {
    "baseline": Policy("baseline", baseline.baseline,
                       np.zeros(0, dtype=np.float64), False, FAST_BASELINE),
    "exerciser": Policy("exerciser", exerciser.exerciser, exerciser.DEFAULT_PARAMS, False),
    "heuristic": Policy("heuristic", heuristic.heuristic, heuristic.DEFAULT_PARAMS, False,
                        FAST_HEURISTIC, heuristic.PARAM_NAMES),
    "expert": Policy("expert", expert.expert, expert.DEFAULT_PARAMS, False, FAST_EXPERT,
                     expert.PARAM_NAMES),
    "search": Policy("search", search.search, search.DEFAULT_PARAMS, False, 0,
                     search.PARAM_NAMES),
    "omniscient": Policy("omniscient", omniscient.omniscient, omniscient.DEFAULT_PARAMS, True, 0,
                         omniscient.PARAM_NAMES),
}


def policy_names():
    return tuple(POLICIES)


def get_policy(name):
    """The registry entry of policy ``name``, its function compiled for the engine's policy
    signature; a clear error for an unknown name.

    The search policies call back into the engine, which imports this package, so they are
    compiled here on first use rather than when their modules load.
    """
    try:
        entry = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; expected one of: "
                         f"{', '.join(POLICIES)}") from None
    overloads = getattr(entry.decide, "overloads", None)  # None under NUMBA_DISABLE_JIT
    if overloads is not None and POLICY_SIGNATURE.args not in overloads:
        from ..engine import game  # noqa: F401 (the search policies call into it)
        entry.decide.compile(POLICY_SIGNATURE)
    return entry
