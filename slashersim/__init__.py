"""slashersim: Monte Carlo difficulty analysis for The Slasher."""
import hashlib
import os
from pathlib import Path


def source_digest():
    """SHA-1 of this package's Python sources (paths and contents): names the code that played
    a table's games even outside a git checkout, and keys the numba cache."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha1()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _numba_cache_dir():
    """Point numba's on-disk cache at a folder named after a hash of this package's sources.

    Numba invalidates a cached kernel only when the kernel's own file changes, not when a
    function it calls in another file does; keying the whole cache by the package's source
    makes every edit start a fresh, consistent cache.
    """
    root = Path(__file__).resolve().parent
    name = f"numba-{source_digest()[:16]}"
    base = os.environ.get("SLASHERSIM_CACHE_DIR")
    candidates = [Path(base)] if base else [root / "__pycache__",
                                           Path.home() / ".cache" / "slashersim"]
    for folder in candidates:
        try:
            (folder / name).mkdir(parents=True, exist_ok=True)
            return str(folder / name)
        except OSError:
            continue
    return None


if "NUMBA_CACHE_DIR" not in os.environ:
    _dir = _numba_cache_dir()
    if _dir:
        import numba
        numba.config.CACHE_DIR = _dir

__version__ = "0.1.0"

# --- the public API, imported on first use ----------------------------------------------------
# ``import slashersim`` stays fast and compiles nothing: a name below is imported from its
# module the first time it is read (``slashersim.simulate`` imports :mod:`slashersim.api`).
_PUBLIC = {
    "simulate": "slashersim.api",
    "compare": "slashersim.api",
    "sweep": "slashersim.api",
    "luck": "slashersim.api",
    "Simulation": "slashersim.api",
    "Comparison": "slashersim.api",
    "VariantComparison": "slashersim.api",
    "LuckResult": "slashersim.api",
    "GameConfig": "slashersim.config",
    "ConfigError": "slashersim.config",
    "Game": "slashersim.player",
    "Observation": "slashersim.player",
    "IllegalAnswer": "slashersim.player",
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

