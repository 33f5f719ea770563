"""One line on stderr before numba compiles kernels that are not in the on-disk cache yet.

The first run after an install or an edit of the package compiles the kernels it needs (most
of a minute or more); later runs load them from the cache in about a second. A part counts as
cached when numba's index file of its kernel (``FILE.FUNCTION-LINE.pyXY.nbi``) is in the cache
folder, so the message never shows on a warm cache. The estimates were measured from a clean
cache on a 2-core machine with ``experiments/bench_compile.py``.
"""
import os
from pathlib import Path
import sys

#: part -> (kernel file stem, kernel function, label, seconds to compile from a clean cache)
PARTS = {
    "engine": ("kernels", "chunk", "the engine", 45),
    "engine_baseline": ("kernels", "chunk_baseline", "the engine with the baseline", 50),
    "engine_heuristic": ("kernels", "chunk_heuristic", "the engine with the heuristic", 80),
    "rollouts": ("kernels", "rollouts", "the play-outs of positions", 45),
    "rollouts_baseline": ("kernels", "rollouts_baseline", "the play-outs of positions", 50),
    "rollouts_heuristic": ("kernels", "rollouts_heuristic", "the play-outs of positions", 80),
    "record": ("kernels", "record_game", "the game recorder", 45),
    "exerciser": ("exerciser", "decide", "the exerciser player", 5),
    "expert": ("expert", "decide", "the expert player", 40),
    "search": ("search", "decide", "the search player", 70),
    "omniscient": ("omniscient", "decide", "the omniscient player", 70),
}
#: policies compiled into kernels of their own (:data:`slashersim.runner.kernels.FAST`)
FAST = ("baseline", "heuristic")
#: kernel kinds of a command -> the kernel that plays them
_KINDS = {"engine": "engine", "held": "engine", "rollouts": "rollouts", "record": "record"}

_state = {"enabled": False, "said": False, "parts": ("engine",)}


def enable(on=True, policies=(), kernels=("engine",)):
    """Let :func:`announce` print (the command line does, unless ``--quiet``), for a command
    that will play ``policies`` with ``kernels`` (keys of :data:`PARTS`)."""
    _state.update(enabled=bool(on), said=False, parts=tuple(parts_for(policies, kernels)))


def cache_dir():
    """Where numba keeps this package's kernels (``slashersim/__init__.py`` sets it unless
    ``NUMBA_CACHE_DIR`` does)."""
    from numba.core import config  # numba loads only when a kernel is about to
    return config.CACHE_DIR or None


def is_cached(part):
    """Whether the kernel of ``part`` has an index file in the numba cache."""
    stem, function, _, _ = PARTS[part]
    pattern = f"{stem}.{function}-*.nbi"
    folder = cache_dir()
    if folder:
        roots = [Path(folder)]
    else:
        roots = [p / "__pycache__" for p in Path(__file__).resolve().parent.rglob("*")
                 if p.is_dir() and p.name != "__pycache__"]
    return any(next(root.rglob(pattern), None) is not None for root in roots if root.is_dir())


def parts_for(policies=(), kernels=("engine",)):
    """The parts a command needs: each kernel kind of ``kernels`` (``engine``, ``held``,
    ``rollouts``, ``record``) for each of ``policies`` (a policy with a fast path has kernels
    of its own), and the policies compiled apart."""
    parts = []
    for kind in kernels:
        kernel = _KINDS[kind]
        for p in policies or ("",):
            part = f"{kernel}_{p}" if kernel != "record" and p in FAST else kernel
            if part not in parts:
                parts.append(part)
            if p in PARTS and p not in parts and (kernel == "record" or p not in FAST):
                parts.append(p)
    return parts


def message(parts):
    """The line announcing that ``parts`` compile, or ``None`` if all are cached."""
    cold = [p for p in parts if not is_cached(p)]
    if not cold:
        return None
    labels = list(dict.fromkeys(PARTS[p][2] for p in cold))
    what = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]
    seconds = sum(PARTS[p][3] for p in cold)
    return (f"slashersim: compiling {what}, first run only, about {seconds} s "
            f"(later runs load it from the cache)")


def announce(stream=None):
    """Print once per command, if enabled and some part it needs is not cached, what is about
    to compile and about how long it takes; called just before the first kernel loads."""
    if not _state["enabled"] or _state["said"] or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return None
    _state["said"] = True
    text = message(_state["parts"])
    if text:
        print(text, file=stream or sys.stderr, flush=True)
    return text
