"""One line on stderr before numba compiles kernels that are not in the on-disk cache yet.

The first run after an install or an edit of the package compiles the kernels it needs (most
of a minute or more); later runs load them from the cache in about a second. A part counts as
cached when numba's index file of its kernel (``FILE.FUNCTION-LINE.pyXY.nbi``) is in the cache
folder, so the message never shows on a warm cache. The estimates were measured from a clean
cache on a 2-core machine with ``experiments/bench_compile.py``.
"""
from contextlib import contextmanager
import os
from pathlib import Path
import sys
import threading
import time

#: part -> (kernel file stem, kernel function, label, seconds to compile from a clean cache)
PARTS = {
    "engine": ("kernels", "chunk", "the engine", 45),
    "engine_baseline": ("kernels", "chunk_baseline", "the engine with the baseline", 50),
    "engine_heuristic": ("kernels", "chunk_heuristic", "the engine with the heuristic", 80),
    "rollouts": ("kernels", "rollouts", "the play-outs of positions", 45),
    "rollouts_baseline": ("kernels", "rollouts_baseline", "the play-outs of positions", 50),
    "rollouts_heuristic": ("kernels", "rollouts_heuristic", "the play-outs of positions", 80),
    "record": ("kernels", "record_game", "the game recorder", 45),
    "python": ("kernels", "play_games", "the engine for Python players", 45),
    "exerciser": ("exerciser", "decide", "the exerciser player", 5),
    "expert": ("expert", "decide", "the expert player", 40),
    "search": ("search", "decide", "the search player", 70),
    "omniscient": ("omniscient", "decide", "the omniscient player", 70),
}
#: policies compiled into kernels of their own (:data:`slashersim.runner.kernels.FAST`)
FAST = ("baseline", "heuristic")
#: kernel kinds of a command -> the kernel that plays them
_KINDS = {"engine": "engine", "held": "engine", "rollouts": "rollouts", "record": "record"}

_state = {"enabled": False, "said": False, "parts": ("engine",), "watch": None, "api": True,
          "command": False}


def enable(on=True, policies=(), kernels=("engine",), command=True):
    """Let :func:`announce` print (the command line does, unless ``--quiet``), for a command
    that will play ``policies`` with ``kernels`` (keys of :data:`PARTS`); ``on=False`` also
    ends the report of a compile in progress. ``command``: a command decides (a Python API
    call inside it then adds no report of its own); the command line's last call says
    ``command=False``."""
    stop()
    _state.update(enabled=bool(on), said=False, parts=tuple(parts_for(policies, kernels)),
                  command=bool(command))


def api_notes(on=True):
    """Whether the Python API says on stderr what it compiles on a first run (it does unless
    this turns it off)."""
    _state["api"] = bool(on)


@contextmanager
def session(policies=(), kernels=("engine",)):
    """A Python API call that will play ``policies`` with ``kernels``: its compiling is
    reported as the command line's is (unless :func:`api_notes` turned it off, or a command
    already reports its own)."""
    if _state["command"] or not _state["api"]:
        yield
        return
    enable(True, policies, kernels, command=False)
    try:
        yield
    finally:
        enable(False, command=False)


def cache_dir():
    """Where numba keeps this package's kernels (``slashersim/__init__.py`` sets it unless
    ``NUMBA_CACHE_DIR`` does)."""
    from numba.core import config  # numba loads only when a kernel is about to
    return config.CACHE_DIR or None


def is_cached(part):
    """Whether the kernel of ``part`` has an index file in the numba cache."""
    stem, function, _, _ = PARTS[part]
    folder = cache_dir()
    if folder:
        roots = [Path(folder)]
    else:
        roots = [p / "__pycache__" for p in Path(__file__).resolve().parent.rglob("*")
                 if p.is_dir() and p.name != "__pycache__"]
    roots = [root for root in roots if root.is_dir()]
    if any(next(root.rglob(f"{stem}.{function}-*.nbi"), None) is not None for root in roots):
        return True
    # a package's kernel (the expert's) is cached as __init__ in the package's folder
    return any(_package_folder(index.parent) == stem
               for root in roots for index in root.rglob(f"__init__.{function}-*.nbi"))


def _package_folder(folder):
    """The package a cache folder holds kernels of: ``expert`` for ``.../expert/__pycache__``
    and for numba's ``expert_<hash>`` under ``NUMBA_CACHE_DIR``."""
    if folder.name == "__pycache__":
        return folder.parent.name
    return folder.name.rsplit("_", 1)[0]


def parts_for(policies=(), kernels=("engine",)):
    """The parts a command needs: each kernel kind of ``kernels`` (``engine``, ``held``,
    ``rollouts``, ``record``) for each of ``policies`` (a policy with a fast path has kernels
    of its own), and the policies compiled apart; a Python player (anything not a ``str``)
    plays on a kernel of its own."""
    parts = []
    for kind in kernels:
        kernel = _KINDS[kind]
        for p in policies or ("",):
            if not isinstance(p, str):
                if kernel == "engine" and "python" not in parts:
                    parts.append("python")
                continue
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
    to compile and about how long it takes, then report the compiling as it goes
    (:class:`Watch`); called just before the first kernel loads."""
    if not _state["enabled"] or _state["said"] or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return None
    _state["said"] = True
    text = message(_state["parts"])
    if text:
        stream = stream or sys.stderr
        print(text, file=stream, flush=True)
        cold = [p for p in _state["parts"] if not is_cached(p)]
        _state["watch"] = Watch(cold, stream).start()
    return text


def stop():
    """End the report of a compile in progress, if any."""
    watch, _state["watch"] = _state["watch"], None
    if watch is not None:
        watch.stop()
        watch.close()


class Watch:
    """The report of a command's compiling while it lasts, from numba's compiler events
    (``numba:compile``, sent when a function is really compiled, not loaded from the cache):
    which part is compiling, part k of n, and the time so far, every ``every`` seconds (on a
    terminal, one line refreshed each second), and the time it took once the last part is
    compiled. ``table`` maps each part to its kernel as :data:`PARTS` does."""

    def __init__(self, parts, stream, every=None, table=None):
        self.table = PARTS if table is None else table
        self.parts = list(parts)
        self.stream = stream
        tty = getattr(stream, "isatty", lambda: False)()
        self.every = every if every is not None else (1.0 if tty else 10.0)
        self.refresh = tty and every is None
        self.start_time = time.monotonic()
        self.started, self.done = [], set()
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._listener = None

    def _part_of(self, event):
        fn = getattr((event.data or {}).get("dispatcher"), "py_func", None)
        if fn is None:
            return None
        where = (fn.__module__.rsplit(".", 1)[-1], fn.__name__)
        return next((p for p in self.parts if self.table[p][:2] == where), None)

    def start(self):
        from numba.core import event  # numba is loaded once a kernel is about to compile
        watch = self

        class Listener(event.Listener):
            def on_start(self, ev):
                if watch._stopped.is_set():
                    return
                part = watch._part_of(ev)
                if part is not None and part not in watch.started:
                    with watch._lock:
                        watch.started.append(part)

            def on_end(self, ev):
                if watch._stopped.is_set():
                    return
                part = watch._part_of(ev)
                if part is not None:
                    with watch._lock:
                        watch.done.add(part)
                    if watch.done >= set(watch.parts):
                        watch.stop(finished=True)

        self._listener = Listener()
        event.register("numba:compile", self._listener)
        threading.Thread(target=self._tick, daemon=True, name="slashersim-compile").start()
        return self

    def close(self):
        """Stop listening to numba (not from within a listener: numba is sending to them)."""
        if self._listener is not None:
            from numba.core import event
            event.unregister("numba:compile", self._listener)
            self._listener = None

    def line(self):
        """What is compiling now and the time so far."""
        with self._lock:
            current = next((p for p in reversed(self.started) if p not in self.done), None)
            k = len(self.started)
        elapsed = time.monotonic() - self.start_time
        if current is None:
            return f"slashersim: compiling, {elapsed:.0f} s so far"
        return (f"slashersim: compiling {self.table[current][2]} (part {k} of "
                f"{len(self.parts)}), {elapsed:.0f} s so far")

    def _tick(self):
        while not self._stopped.wait(self.every):
            self._say(self.line())

    def _say(self, text, end=False):
        if self.refresh:
            self.stream.write("\r" + text + ("\x1b[K\n" if end else "\x1b[K"))
            self.stream.flush()
        else:
            print(text, file=self.stream, flush=True)

    def stop(self, finished=False):
        """Stop reporting; with ``finished``, say how long the compiling took."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        if finished:
            self._say(f"slashersim: compiled in {time.monotonic() - self.start_time:.0f} s",
                      end=True)
        elif self.refresh:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
