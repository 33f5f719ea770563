"""Policies, registered by name. Each is a jitted function of ``engine.api.POLICY_SIGNATURE``.

A policy entry is ``(function, default_params, omniscient)``; adding a policy means one module
and one line here.
"""
import numpy as np

from .baseline import baseline

#: name -> (policy function, default parameter vector, sees hidden information)
POLICIES = {
    "baseline": (baseline, np.zeros(0, dtype=np.float64), False),
}


def policy_names():
    return tuple(POLICIES)


def get_policy(name):
    """The registry entry of policy ``name``; a clear error for an unknown name."""
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; expected one of: "
                         f"{', '.join(POLICIES)}") from None
