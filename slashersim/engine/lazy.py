"""Kernels compiled on first call instead of at import.

``@njit(signature, ...)`` compiles (or loads from the cache) when its module is imported, so
importing :mod:`slashersim.engine.luck_kernels` used to compile all of its kernels, though a command
needs one. :func:`lazy_njit` takes the same arguments and compiles the one signature when the
kernel is first called, from the on-disk cache when it is there, with the same cache entry.
"""
import hashlib
import os

from numba import njit
from numba.core.caching import FunctionCache, IndexDataCacheFile
import numpy as np

from ..core import compiling


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


class _CellsKeyedCache(FunctionCache):
    """numba's on-disk cache for a closure, keyed by what its cells hold rather than by their
    pickled bytes (which carry a compiled function's per-process id, so a closure over one
    would compile afresh in every process).

    Each closure (each set of cell values) has an index and data files of its own, named after
    that key: numba numbers the data files of one index in order, unlocked, so closures of one
    line (every mixed pair is ``runner.kernels.pair_function``'s) saved by two processes at
    once (the command's helpers, the test workers, two commands) could take one number, and
    one closure's key then load the other's code (``tests/test_closure_cache.py``)."""

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cells_digest = _cells_digest(py_func)
        self._cache_file = IndexDataCacheFile(
            cache_path=self._cache_path,
            filename_base=f"{self._impl.filename_base}.{self._cells_digest[:20]}",
            source_stamp=self._impl.locator.get_source_stamp())

    def _index_key(self, sig, codegen):
        return sig, codegen.magic_tuple(), self._cells_digest


def _cells_digest(py_func):
    """A closure's code and what its cells hold (:func:`_describe`), hashed."""
    code = py_func.__code__
    cells = tuple(_describe(c.cell_contents) for c in py_func.__closure__ or ())
    return hashlib.sha256(repr((code.co_code, code.co_consts, cells)).encode()).hexdigest()


def _describe(value):
    """A cell's value as its cache key sees it: a number by its ``repr``; a compiled function
    by its code, its own cells and its file's stamp (as numba checks a kernel's own file);
    anything else by a token of this process, so that it is compiled afresh."""
    if value is None or isinstance(value, (bool, int, float, str, np.number)):
        return repr(value)
    fn = getattr(value, "py_func", None)
    if fn is None:
        return f"object {os.getpid()} {id(value)} {os.urandom(8).hex()}"
    code = fn.__code__
    try:
        stat = os.stat(code.co_filename)
        stamp = (stat.st_mtime, stat.st_size)
    except OSError:
        stamp = None
    cells = tuple(_describe(c.cell_contents) for c in fn.__closure__ or ())
    return (fn.__module__, fn.__qualname__, code.co_code, repr(code.co_consts), code.co_names,
            cells, stamp)


def closure_njit(signature):
    """``@njit(signature, cache=True)`` for a closure over compiled functions and numbers (a
    recorder around a policy): compiled once per cell values, then loaded from the on-disk
    cache in later processes."""
    def wrap(fn):
        dispatcher = njit(fn)
        if not hasattr(dispatcher, "overloads"):
            return dispatcher               # NUMBA_DISABLE_JIT=1: the plain function
        try:
            dispatcher._cache = _CellsKeyedCache(fn)
        except RuntimeError:                # no folder to cache in: compiled each time
            pass
        dispatcher.compile(signature)
        dispatcher.disable_compile()
        return dispatcher
    return wrap
