"""One line on stderr before numba compiles kernels that are not in the on-disk cache yet.

The first run after an install or an edit of the package compiles the kernels it needs (from
a few seconds to over a minute a part); later runs load them from the cache in about a
second. A part counts as cached when numba's index file of its kernel
(``FILE.FUNCTION-LINE.pyXY.nbi``) is in the cache folder, so the message never shows on a warm
cache. The estimates are measured from a clean cache on an idle 2-core machine (the wall time
of each part's process, written by ``dev/benchmarks/compile_profile.py --estimates`` into
``slashersim/data/compile_seconds.json``).

When a command of the command line needs two or more parts that are not cached and the machine
has the cores, the parts compile side by side in helper processes (:func:`compile_apart`),
each writing its kernels to the cache, from which the command then loads them: the wait is the
longest part's, not the sum. The Python API and the page compile in their own process (no
processes are started inside a notebook or a server). ``SLASHERSIM_COMPILE_PROCESSES=1``
compiles everything in the command's own process, one part after another.
"""
from contextlib import contextmanager
import functools
import json
import os
from pathlib import Path
import subprocess
import sys
import threading
import time
from typing import NamedTuple

#: the measured compile times of the package's own parts (``dev/benchmarks/compile_profile.py
#: --estimates``): what the notice estimates
MEASURED = Path(__file__).resolve().parents[1] / "data" / "compile_seconds.json"


@functools.cache
def measured_seconds():
    """Part name -> the wall seconds measured for it from a clean cache (:data:`MEASURED`)."""
    try:
        return json.loads(MEASURED.read_text())["seconds"]
    except (OSError, ValueError, KeyError):
        return {}


class Part(NamedTuple):
    """A piece compiled (or loaded) as one: its ``name``, the kernel that holds it (file
    ``stem`` and ``function``), how the notice names it (``label``) and about how long it
    takes from a clean cache on an idle 2-core machine (``declared``: a figure for a part no
    one measured, such as a user's own player). The engine's kernels are :data:`KERNELS`; the
    players' parts come from their registry entries
    (:func:`slashersim.policies.compile_parts`)."""

    name: str
    stem: str
    function: str
    label: str
    declared: int

    @property
    def seconds(self):
        """The measured compile time of this part (:func:`measured_seconds`), else the
        declared one."""
        return measured_seconds().get(self.name, self.declared)


#: the engine's kernels that take the player as a function, by kind
KERNELS = {
    "engine": Part("engine", "kernels", "chunk", "the engine", 20),
    "rollouts": Part("rollouts", "kernels", "decision_rollouts", "the play-outs of positions",
                     25),
    "record": Part("record", "kernels", "play_on", "the game recorder", 15),
    "python": Part("python", "kernels", "play_games", "the engine for Python players", 15),
}
#: kernel kinds of a command -> the kernel that plays them
KINDS = {"engine": "engine", "held": "engine", "rollouts": "rollouts", "record": "record"}



class Notice:
    """What the compile notice knows in this process: whether it may print (``enabled``) and
    has (``said``), the parts the command needs, the report of a compile in progress
    (``watch``), whether the Python API reports its own compiling (``api``) and whether a
    command decides (``command``). :func:`reset` starts it afresh."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.enabled, self.said, self.parts, self.watch = False, False, (), None
        self.api, self.command = True, False


_notice = Notice()


def reset():
    """Forget what the notice was told (a test's or an earlier command's), ending any report."""
    stop()
    _notice.reset()


def enable(on=True, parts=(), command=True):
    """Let :func:`announce` print (the command line does, unless ``--quiet``), for a command
    that needs ``parts`` (:class:`Part`); ``on=False`` also ends the report of a compile in
    progress. ``command``: a command decides (a Python API call inside it then adds no report
    of its own); the command line's last call says ``command=False``."""
    stop()
    _notice.enabled, _notice.said = bool(on), False
    _notice.parts, _notice.command = tuple(parts), bool(command)


def api_notes(on=True):
    """Whether the Python API says on stderr what it compiles on a first run (it does unless
    this turns it off)."""
    _notice.api = bool(on)


@contextmanager
def session(parts=()):
    """A Python API call that needs ``parts``: its compiling is reported as the command line's
    is (unless :func:`api_notes` turned it off, or a command already reports its own)."""
    if _notice.command or not _notice.api:
        yield
        return
    enable(True, parts, command=False)
    try:
        yield
    finally:
        enable(False, command=False)


def cache_dir():
    """Where numba keeps this package's kernels (:mod:`slashersim.engine` sets it when it is
    first imported, :func:`slashersim.core.numba_cache.configure`, unless ``NUMBA_CACHE_DIR``
    does)."""
    from numba.core import config  # numba loads only when a kernel is about to
    return config.CACHE_DIR or None


def is_cached(part):
    """Whether the kernel of ``part`` (a :class:`Part`) has an index file in the numba cache."""
    stem, function = part.stem, part.function
    roots = cache_roots()
    if any(next(root.rglob(f"{stem}.{function}-*.nbi"), None) is not None for root in roots):
        return True
    # a package's kernel (the expert's) is cached as __init__ in the package's folder
    return any(_package_folder(index.parent) == stem
               for root in roots for index in root.rglob(f"__init__.{function}-*.nbi"))


def cache_roots():
    """The folders under which numba keeps this package's cache files."""
    folder = cache_dir()
    if folder:
        roots = [Path(folder)]
    else:
        package = Path(__file__).resolve().parents[1]
        roots = [p / "__pycache__" for p in package.rglob("*")
                 if p.is_dir() and p.name != "__pycache__"]
    return [root for root in roots if root.is_dir()]


def _package_folder(folder):
    """The package a cache folder holds kernels of: ``expert`` for ``.../expert/__pycache__``
    and for numba's ``expert_<hash>`` under ``NUMBA_CACHE_DIR``."""
    if folder.name == "__pycache__":
        return folder.parent.name
    return folder.name.rsplit("_", 1)[0]


def processes():
    """How many processes a command's compiling may use: ``SLASHERSIM_COMPILE_PROCESSES``
    if set (1 = the command's own only), else the cores this process may run on."""
    value = os.environ.get("SLASHERSIM_COMPILE_PROCESSES", "").strip()
    if value.isdigit() and int(value) > 0:
        return int(value)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else os.cpu_count() or 1


def schedule(parts, workers):
    """``parts`` dealt to ``workers`` processes, longest first, each to the least loaded:
    ``[[part, ...], ...]`` (the order each worker compiles them in)."""
    lanes = [[] for _ in range(max(1, min(workers, len(parts))))]
    for part in sorted(parts, key=lambda p: -p.seconds):
        min(lanes, key=lambda lane: sum(p.seconds for p in lane)).append(part)
    return lanes


def busy(workers):
    """Whether other work already keeps the cores busy (the last minute's load average at
    least half of ``workers``): the estimate, measured on an idle machine, then does not hold."""
    try:
        return os.getloadavg()[0] >= 0.5 * workers
    except OSError:
        return False


def message(parts, workers=1, loaded=None):
    """The line announcing that ``parts`` compile (side by side in up to ``workers``
    processes), or ``None`` if all are cached. The time is the estimate measured on an idle
    machine; when the machine is ``loaded`` (default: :func:`busy`), it is given as such, not
    promised."""
    cold = [p for p in parts if not is_cached(p)]
    if not cold:
        return None
    labels = list(dict.fromkeys(p.label for p in cold))
    what = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]
    lanes = schedule(cold, workers)
    seconds = max(sum(p.seconds for p in lane) for lane in lanes)
    side = f" in {len(lanes)} processes" if len(lanes) > 1 else ""
    if busy(workers) if loaded is None else loaded:
        return (f"slashersim: compiling {what}{side}, first run only; other work is keeping "
                f"the cores busy, so it takes longer than the {seconds} s it takes on an idle "
                f"machine (later runs load it from the cache)")
    return (f"slashersim: compiling {what}{side}, first run only, about {seconds} s on an "
            f"idle machine (later runs load it from the cache)")


def announce(stream=None):
    """Print once per command, if enabled and some part it needs is not cached, what is about
    to compile and about how long it takes, then report the compiling as it goes
    (:class:`Watch`); called just before the first kernel loads."""
    if not _notice.enabled or _notice.said or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return None
    _notice.said = True
    workers = processes()
    text = message(_notice.parts, workers)
    if text:
        stream = stream or sys.stderr
        print(text, file=stream, flush=True)
        cold = [p for p in _notice.parts if not is_cached(p)]
        _notice.watch = Watch(cold, stream).start()
        if len(cold) > 1 and workers > 1 and _notice.command:
            compile_apart(cold, workers, _notice.watch)
    return text


#: what a helper process runs to compile one part into the cache
HELPER = "from slashersim.runner.kernels import compile_part; compile_part({part!r})"


def compile_apart(parts, workers, watch=None, command=None):
    """Compile ``parts`` in up to ``workers`` helper processes at once (:func:`schedule`), each
    writing its kernels to the on-disk cache; return the parts whose helper failed (the
    command then compiles those itself). ``watch`` (a :class:`Watch`) hears each part begin
    and end; ``command(part)`` is a helper's argument list (default: this Python running
    :data:`HELPER`). Interrupted, the helpers are stopped."""
    if command is None:
        def command(part):
            return [sys.executable, "-c", HELPER.format(part=part.name)]
    lanes = [list(lane) for lane in schedule(parts, workers)]
    running, failed = {}, []
    try:
        while any(lanes) or running:
            for i, lane in enumerate(lanes):
                if i not in running and lane:
                    part = lane.pop(0)
                    running[i] = (part, subprocess.Popen(
                        command(part), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL))
                    if watch is not None:
                        watch.begin(part)
            for i, (part, proc) in list(running.items()):
                if proc.poll() is not None:
                    del running[i]
                    if proc.returncode != 0:
                        failed.append(part)
                    elif watch is not None:
                        watch.end(part)
            time.sleep(0.05)
    finally:
        for _, proc in running.values():
            proc.kill()
            proc.wait()
    return failed


def stop():
    """End the report of a compile in progress, if any."""
    watch, _notice.watch = _notice.watch, None
    if watch is not None:
        watch.stop()
        watch.close()


def _failed(event):
    """Whether a compile's end ``event`` carries an exception (an interrupt, an error). Read
    from the event's exception details: numba's ``Event.is_failed`` says the opposite."""
    return getattr(event, "_exc_details", None) is not None


class Watch:
    """The report of a command's compiling while it lasts, from numba's compiler events
    (``numba:compile``, sent when a function is really compiled, not loaded from the cache):
    which part is compiling, part k of n, and the time so far, every ``every`` seconds (on a
    terminal, one line refreshed each second), and the time it took once the last part is
    compiled (``parts``: :class:`Part` objects)."""

    def __init__(self, parts, stream, every=None):
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
        return next((p for p in self.parts if (p.stem, p.function) == where), None)

    def start(self):
        from numba.core import event  # numba is loaded once a kernel is about to compile
        watch = self

        class Listener(event.Listener):
            def on_start(self, ev):
                part = watch._part_of(ev)
                if part is not None:
                    watch.begin(part)

            def on_end(self, ev):
                part = watch._part_of(ev)
                if part is not None:
                    watch.end(part, failed=_failed(ev))

        self._listener = Listener()
        event.register("numba:compile", self._listener)
        threading.Thread(target=self._tick, daemon=True, name="slashersim-compile").start()
        return self

    def begin(self, part):
        """``part`` starts compiling (here, or in a helper process)."""
        if self._stopped.is_set():
            return
        with self._lock:
            if part not in self.started:
                self.started.append(part)

    def end(self, part, failed=False):
        """``part`` is compiled; after the last part, say how long the compiling took. A part
        whose compiling ``failed`` (interrupted, or an error) ends the report without a time:
        nothing was compiled to the end, and the next run's notice names it again."""
        if self._stopped.is_set():
            return
        if failed:
            self.stop()
            return
        with self._lock:
            self.done.add(part)
        if self.done >= set(self.parts):
            self.stop(finished=True)

    def close(self):
        """Stop listening to numba (not from within a listener: numba is sending to them)."""
        if self._listener is not None:
            from numba.core import event
            event.unregister("numba:compile", self._listener)
            self._listener = None

    def line(self):
        """What is compiling now and the time so far."""
        with self._lock:
            current = [p for p in self.started if p not in self.done]
            k = len(self.started)
        elapsed = time.monotonic() - self.start_time
        if not current:
            return f"slashersim: compiling, {elapsed:.0f} s so far"
        labels = list(dict.fromkeys(p.label for p in current))
        what = " and ".join(labels)
        which = (f"part {k} of {len(self.parts)}" if len(current) == 1
                 else f"parts {k - len(current) + 1}-{k} of {len(self.parts)}")
        return f"slashersim: compiling {what} ({which}), {elapsed:.0f} s so far"

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
