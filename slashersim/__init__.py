"""slashersim: Monte Carlo difficulty analysis for The Slasher."""
__version__ = "0.1.0"

# --- the public API, imported on first use ----------------------------------------------------
# ``import slashersim`` stays fast and compiles nothing: a name below is imported from its
# module the first time it is read (``slashersim.simulate`` imports :mod:`slashersim.api`).
_PUBLIC = {
    "simulate": "slashersim.api",
    "compare": "slashersim.api",
    "sweep": "slashersim.api",
    "luck": "slashersim.api",
    "luck_fact": "slashersim.api",
    "luck_sources": "slashersim.api",
    "luck_state": "slashersim.api",
    "luck_timeline": "slashersim.api",
    "record": "slashersim.api",
    "policy_speeds": "slashersim.api",
    "report": "slashersim.api",
    "table_info": "slashersim.api",
    "winnable": "slashersim.api",
    "why": "slashersim.api",
    "WhyResult": "slashersim.api",
    "Winnability": "slashersim.api",
    "Simulation": "slashersim.api",
    "Comparison": "slashersim.api",
    "VariantComparison": "slashersim.api",
    "LuckResult": "slashersim.api",
    "GameConfig": "slashersim.core.config",
    "ConfigError": "slashersim.core.config",
    "Game": "slashersim.api.player",
    "Observation": "slashersim.api.player",
    "IllegalAnswer": "slashersim.api.player",
}

__all__ = [*_PUBLIC, "__version__"]


def __getattr__(name):
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted({*globals(), *_PUBLIC})

