"""What the test suite checks of numba's compiling: functions compiled more than once for one
signature (:func:`repeated_compilations` over a :func:`compile_log`), and functions saved in
the cache with more than one signature (:func:`cached_twice`). Developer diagnostics, apart
from the compile notice users see (:mod:`slashersim.core.compiling`)."""
from contextlib import contextmanager

from .compiling import cache_roots


def _plain(args):
    """A signature's text with literals, omitted defaults and unsigned ints as ``int64``."""
    import re
    text = ", ".join(str(t) for t in args)
    text = re.sub(r"Literal\[int\]\(-?\d+\)|omitted\(default=[^)]*\)", "int64", text)
    text = re.sub(r"Literal\[bool\]\((True|False)\)", "bool", text)
    return text.replace("uint64", "int64")


def repeated_compilations(compiled):
    """The functions of ``compiled`` (``(function name, argument types)`` per compilation)
    compiled more than once for what is one signature: ``{name: [signature, ...]}``.

    Numba specialises a jitted callee on the types of its arguments, and a constant passed
    as an argument is typed as a literal (``Literal[int](0)``), so the same function is
    compiled again for each constant, for an omitted default and for an unsigned loop index;
    passing ``np.int64(...)`` compiles it once. Numba's own library is left out: its code types
    its helpers as it needs (a tuple's hash calls the integer hash's last step with a
    ``uint64``, an integer's with an ``int64``)."""
    seen = {}
    for name, args in compiled:
        if name.startswith("numba."):
            continue
        seen.setdefault((name, _plain(args)), set()).add(", ".join(str(t) for t in args))
    repeated = {}
    for (name, _), sigs in seen.items():
        if len(sigs) > 1:
            repeated.setdefault(name, []).extend(sorted(sigs))
    return repeated


@contextmanager
def compile_log():
    """The list of ``(function name, argument types)`` numba compiles inside the block
    (numba's ``numba:compile`` events), for :func:`repeated_compilations`."""
    from numba.core import event

    log = []

    class Log(event.Listener):
        def on_start(self, ev):
            data = ev.data or {}
            fn = getattr(data.get("dispatcher"), "py_func", None)
            name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', '?')}"
            log.append((name, tuple(data.get("args") or ())))

        def on_end(self, ev):
            pass

    listener = Log()
    event.register("numba:compile", listener)
    try:
        yield log
    finally:
        event.unregister("numba:compile", listener)


def cached_twice():
    """The functions in the numba cache with more than one signature, as ``{index file:
    [signature, ...]}``.

    Numba's cache is not safe when two processes save two signatures of one function at
    once (both take the same data file), and the command's helpers and the test workers
    compile side by side. So a function generic in the player (first parameter ``policy``)
    is not cached by itself but inside each kernel, and every other function has one
    signature (saved under two keys, an explicit signature and the same types inferred hold
    the same code); each compiled closure has files of its own (``engine.lazy``). Read from
    numba's index files (a pickled version, then the pickled
    ``(stamp, overloads)``)."""
    import pickle
    found = {}
    for root in cache_roots():
        for index in sorted(root.rglob("*.nbi")):
            with open(index, "rb") as f:
                pickle.load(f)
                _, overloads = pickle.loads(f.read())
            # an explicit signature and the same types inferred are two keys of one code
            signatures = {", ".join(map(str, getattr(key[0], "args", key[0])))
                          for key in overloads}
            if len(signatures) > 1:
                found[index.name] = sorted(signatures)
    return found
