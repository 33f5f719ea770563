"""Kernels compiled on first call instead of at import.

``@njit(signature, ...)`` compiles (or loads from the cache) when its module is imported, so
importing :mod:`slashersim.engine.luck_kernels` used to compile all of its kernels, though a command
needs one. :func:`lazy_njit` takes the same arguments and compiles the one signature when the
kernel is first called, from the on-disk cache when it is there, with the same cache entry.
"""
from numba import njit

from .. import compiling


class LazyKernel:
    """A Python-called kernel of one explicit signature, compiled on its first call; other
    attributes are the numba dispatcher's."""

    def __init__(self, dispatcher, signature):
        self.dispatcher = dispatcher
        self.signature = signature
        self.__doc__ = dispatcher.__doc__
        self.__name__ = getattr(dispatcher, "__name__", "kernel")

    def compile(self):
        """Compile (or load) the signature now; further types are refused, as with an eager
        ``@njit(signature)``."""
        d = self.dispatcher
        if hasattr(d, "overloads") and self.signature.args not in d.overloads:
            compiling.announce()
            d.compile(self.signature)
            d.disable_compile()
        return d

    def __call__(self, *args):
        return self.compile()(*args)

    def __getattr__(self, name):
        return getattr(self.dispatcher, name)


def lazy_njit(signature, **options):
    """``@njit(signature, **options)`` whose compilation waits for the first call."""
    def wrap(fn):
        return LazyKernel(njit(**options)(fn), signature)
    return wrap
