"""Where numba keeps this package's compiled kernels: a folder named after a hash of the
sources compiled code can reach (:func:`slashersim.core.provenance.kernel_digest`), so that an
edit of any of them starts a fresh, consistent cache (numba invalidates a cached kernel only
when the kernel's own file changes, not when a function it calls in another file does), and an
edit anywhere else keeps it.

:func:`configure` sets it once, when :mod:`slashersim.engine` is first imported (before any
kernel is defined); ``import slashersim`` alone changes nothing and loads no numba.
``NUMBA_CACHE_DIR``, when set, is left to numba; ``SLASHERSIM_CACHE_DIR`` names the folder
that holds the ``numba-<hash>`` folders (default: the package's ``__pycache__``, else
``~/.cache/slashersim``).
"""
import os
from pathlib import Path

from .provenance import PACKAGE_DIR, package_kernel_digest


def folder():
    """The cache folder for these sources (created), or ``None`` if none can be created."""
    name = f"numba-{package_kernel_digest()[:16]}"
    base = os.environ.get("SLASHERSIM_CACHE_DIR")
    candidates = [Path(base)] if base else [PACKAGE_DIR / "__pycache__",
                                           Path.home() / ".cache" / "slashersim"]
    for candidate in candidates:
        try:
            (candidate / name).mkdir(parents=True, exist_ok=True)
            return str(candidate / name)
        except OSError:
            continue
    return None


def configure():
    """Point numba's cache at :func:`folder` unless ``NUMBA_CACHE_DIR`` is set or it already
    points somewhere."""
    import numba
    if "NUMBA_CACHE_DIR" in os.environ or numba.config.CACHE_DIR:
        return
    path = folder()
    if path:
        numba.config.CACHE_DIR = path
