"""The public Python API: :func:`simulate`, :func:`compare`, :func:`sweep` and :func:`luck`,
and the other questions of the command line (:func:`luck_fact`, :func:`luck_state`,
:func:`tune`, :func:`report`, ...).

Each function takes the rules as a :class:`~slashersim.core.config.GameConfig` and/or as knob
keywords (``health=5, hideaway=True, edition="instructions", difficulty="hard"``), checks every
input before anything compiles or plays (a bad one raises :class:`ConfigError`, a
``ValueError``, in one line naming the value and what is allowed), never prints unless asked
for a progress bar, and returns a result that turns into a pandas DataFrame with
``to_frame()`` and into the command line's JSON object with ``summary()``::

    import slashersim
    r = slashersim.simulate(health=5, policy="expert", games=20_000, seed=1)
    r.win_rate, r.win_ci                   # proportion and 95 % Wilson interval
    r.to_frame()                           # one tidy row (the sweep table's columns)
    c = slashersim.compare(policies=("novice", "casual"), games=20_000)
    c.pairs                                # paired differences of win rates

Policies are named as on the command line (``baseline``, ``heuristic``, ``expert``, ...) or by
skill level (``novice``, ``casual``, ``expert``). A policy that is not a ``str`` is handed to
the engine unchanged. The command line (:mod:`slashersim.cli`) is a thin layer over these
functions.

The inputs' checks (:mod:`.checks`) load nothing that compiles, so a caller can refuse bad input
at once; ``import slashersim.api`` is as light, and a function's module (:mod:`.calls`, which
loads the engine) is imported the first time one of its names is read.
"""
from importlib import import_module

from . import checks

__all__ = ["simulate", "compare", "sweep", "luck", "luck_fact", "luck_sources", "luck_state",
           "luck_timeline", "record", "tune", "bench", "policy_speeds", "report", "table_info",
           "winnable", "Winnability", "Simulation", "Comparison", "VariantComparison",
           "LuckResult", "ConfigError", "GameConfig", "checks", "side_by_side", "position",
           "load_table", "why", "WhyResult"]

_SUBMODULES = ("calls", "checks", "player", "results")
#: names read from a module that loads nothing that compiles (a sweep table's reader)
_LIGHT = {"load_table": "slashersim.runner.tables", "WhyResult": "slashersim.analysis.why"}


def __getattr__(name):
    if name in _SUBMODULES:
        return import_module(f"{__name__}.{name}")
    if name in _LIGHT:
        return getattr(import_module(_LIGHT[name]), name)
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.calls"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted({*globals(), *__all__})
