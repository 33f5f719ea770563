"""The checks of user input, one place for the command line, the Python API and the page.

Seeds, counts, threads, ports, game specs, output paths, and the lock that keeps two runs from
writing one output. Every check needs nothing compiled and raises
:class:`~slashersim.core.errors.ConfigError` (a ``ValueError``) with one line that names the bad
value and what is allowed, so bad input is refused before anything slow starts and before any
file is touched. The formats with rules of their own are checked where they are defined: a
policy and its parameters (:mod:`slashersim.policies.choice`), a configuration
(:class:`slashersim.core.config.GameConfig`), a sweep spec
(:mod:`slashersim.analysis.sweeps`), a described position
(:mod:`slashersim.analysis.position`).
"""
import errno
import os
from pathlib import Path
import tempfile

import numpy as np

from .errors import ConfigError, suggest

#: seeds and game indices are int64 in the kernels
SEED_LIMIT = 1 << 63


def check_seconds(name, seconds):
    """A time in seconds named ``name`` (the solver's time per game): a number >= 0, as a
    ``float``."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds >= 0:
        raise ConfigError(f"{name} must be a number >= 0, got {seconds!r}")
    return float(seconds)


def check_seed(value, name="seed"):
    """``value`` as an int after checking 0 <= value < 2**63 (the kernels' int64)."""
    if hasattr(value, "__index__") and not isinstance(value, bool):
        value = value.__index__()
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SEED_LIMIT:
        raise ConfigError(f"{name} must be an integer 0 <= {name} < 2**63, got {value!r}")
    return value


def check_count(name, value, high=SEED_LIMIT - 1):
    """``value`` as an int after checking it is an integer ``1..high`` (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ConfigError(f"{name} must be at least 1, got {value!r}")
    if value > high:
        raise ConfigError(f"{name} must be at most {high:,}, got {value!r}")
    return int(value)


def max_threads():
    """The threads numba may use: ``NUMBA_NUM_THREADS`` if set, else the cores this process
    may run on (numba's own rule, read without importing numba)."""
    env = os.environ.get("NUMBA_NUM_THREADS")
    if env:
        return int(env)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return os.cpu_count() or 1


def check_threads(threads):
    """``threads`` within ``1..max_threads()``; ``None`` (all) passes."""
    if threads is None:
        return None
    high = max_threads()
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) \
            or not 1 <= threads <= high:
        raise ConfigError(f"threads must be 1..{high}, got {threads!r}")
    return int(threads)


def parse_port(text):
    """A TCP port 1..65535 from ``text`` (an int or its decimal text)."""
    try:
        value = int(str(text).strip(), 10)
    except ValueError:
        raise ConfigError(f"port must be an integer 1..65535, got {str(text)!r}") from None
    if not 1 <= value <= 65535:
        raise ConfigError(f"port must be 1..65535, got {value}")
    return value


#: the knobs ``--rule`` may not set: each has an option of its own
RULE_OPTIONS_ONLY = {"edition": "--edition", "cards": "--cards"}


def parse_rules(items, known, options_only=RULE_OPTIONS_ONLY):
    """``{name: value}`` of ``--rule NAME=VALUE`` items: a value is read as a TOML value
    (``true``, ``3``, ``"any_time"``, ``[1, 1, 2, 2, 3]``) or else as the bare text
    (``any_time``). ``known`` are the rule names allowed, ``options_only`` those set by an
    option of their own (name -> option); the values are checked where the rules are
    (:class:`~slashersim.core.config.GameConfig`)."""
    import tomllib
    out = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name or not text.strip():
            raise ConfigError(f"--rule must be NAME=VALUE, e.g. item_timing=any_time, "
                              f"got {item!r}")
        if name in options_only:
            raise ConfigError(f"--rule {name}: set it with {options_only[name]}")
        if name not in known:
            raise ConfigError(f"unknown rule {name!r}{suggest(name, known)}; expected one of: "
                              f"{', '.join(known)}")
        if name in out:
            raise ConfigError(f"--rule {name} is given twice ({out[name]!r} and {text!r})")
        try:
            value = tomllib.loads(f"v = {text.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            value = text.strip()
        out[name] = tuple(value) if isinstance(value, list) else value
    return out


def _split_items(text):
    """``text`` split at its commas outside brackets and quotes."""
    items, depth, quote, start = [], 0, None, 0
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    return [item.strip() for item in items + [text[start:]] if item.strip()]


def parse_variant(text, known):
    """``(name, {rule: value})`` of a ``--variant`` text, ``"NAME: RULE=VALUE, ..."`` (the
    name may be left out: the rules' text names it); each rule as for ``--rule``, and also
    ``cards=FILE`` (or ``cards=printed``), ``edition=...`` and ``difficulty=...``."""
    head, sep, rest = text.partition(":")
    if sep and "=" not in head:
        name, body = head.strip(), rest
    else:
        name, body = text.strip(), text
    items = _split_items(body)
    if not name or not items:
        raise ConfigError(f"--variant must be \"NAME: RULE=VALUE, ...\", e.g. \"no cursed "
                          f"object: cursed_object=false\", got {text!r}")
    if not sep and len(items[0].partition("=")[0].strip().split()) > 1:
        raise ConfigError(f"--variant {text!r} has no colon after its name: write "
                          f"\"NAME: RULE=VALUE, ...\", e.g. \"no cursed object: "
                          f"cursed_object=false\"")
    return name, parse_rules(items, (*known, *RULE_OPTIONS_ONLY, "difficulty"), options_only={})


def check_progress(progress):
    """``progress``: ``True``/``False``/``None`` or a callable ``progress(done, total)``."""
    if not (progress is None or isinstance(progress, bool) or callable(progress)):
        raise TypeError(f"progress must be True, False or a callable progress(done, total), "
                        f"got {progress!r}")
    return progress


def check_positive(name, value):
    """``value`` after checking it is a number above 0."""
    if not value > 0:
        raise ConfigError(f"{name} must be positive, got {value}")
    return value


def parse_games(text):
    """``"N"`` or ``"N,NAME=N,..."`` / ``"NAME=N,..."``: one game count for every policy, or a
    count per policy name; a bare ``N`` in a list is the count of the policies not named.
    Returns an int or ``{name or None: count}``."""
    counts = {}
    for part in (p.strip() for p in str(text).split(",")):
        name, sep, value = part.rpartition("=")
        key = name.strip() if sep else None
        if sep and not key:
            raise ValueError(f"games entry {part!r} needs a policy name before '='")
        try:
            n = int(value)
        except ValueError:
            raise ValueError(f"games must be N or NAME=N entries, got {part!r}") from None
        if key in counts:
            raise ValueError(f"games given twice for {key or 'the other policies'}")
        if n < 1 or n >= SEED_LIMIT:
            raise ValueError(f"games must be at least 1 and below 2**63, got {n!r}")
        counts[key] = n
    return counts[None] if list(counts) == [None] else counts


def same_path(a, b):
    """Whether the paths ``a`` and ``b`` name one file: the same path once resolved, or the
    same file under two names (a link)."""
    a, b = Path(a), Path(b)
    return a.resolve() == b.resolve() or _same_file(a, b)


def _same_file(a, b):
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_output(path, option="--out", inputs=(), folder=False):
    """Refuse an output ``path`` that cannot be written or would harm an input.

    ``path`` must not be one of ``inputs`` (files the command reads), must be a file (a folder
    if ``folder``), and its folder must exist and take a new file. Nothing is left behind.
    Returns the path as a :class:`~pathlib.Path`.
    """
    text = str(path)
    if not text.strip():
        raise ConfigError(f"{option} must name a {'folder' if folder else 'file'}, got {text!r}")
    path = Path(text)
    for other in inputs:
        if same_path(path, other):
            raise ConfigError(f"{option} {text!r} is the input file {str(other)!r}; "
                              f"choose another output")
    if folder:
        if path.exists() and not path.is_dir():
            raise ConfigError(f"{option} {text!r} is a file; expected a folder")
    elif path.is_dir():
        raise ConfigError(f"{option} {text!r} is a folder; expected a file path")
    parent = path.parent
    probe_dir = path if folder and path.is_dir() else parent
    if not parent.is_dir():
        above = next((q for q in [parent, *parent.parents] if q.exists()), None)
        if above is not None and not above.is_dir():
            raise ConfigError(f"{option} {text!r}: {str(above)!r} is a file, not a folder")
        raise ConfigError(f"{option} {text!r}: folder {str(parent)!r} does not exist")
    if path.exists() and not folder and not os.access(path, os.W_OK):
        raise ConfigError(f"{option} {text!r} is read-only")
    try:
        with tempfile.NamedTemporaryFile(dir=probe_dir, prefix=".slashersim-probe-"):
            pass
    except OSError as e:
        raise ConfigError(f"{option} {text!r}: cannot write in folder {str(probe_dir)!r} "
                          f"({_write_refusal(e)})") from None
    return path


#: why a folder that exists takes no new file, by ``errno``
_WRITE_REFUSALS = {errno.EACCES: "no permission to write there",
                   errno.EPERM: "no permission to write there",
                   errno.EROFS: "it is on a read-only file system",
                   errno.ENOSPC: "no space left on its device",
                   errno.EDQUOT: "the disk quota is used up",
                   errno.ENOENT: "it does not take new files (a system folder)"}


def _write_refusal(e):
    """The reason a new file could not be made in a folder that exists, in words."""
    return _WRITE_REFUSALS.get(e.errno, e.strerror or str(e))


def write_atomic(path, write, mode="w"):
    """Write ``path`` through ``write(file)`` into a temporary file beside it, then rename it
    into place, so an interrupted write never leaves a partial file; the file gets the
    permissions the umask gives a new file (not the temporary file's 0600)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        with os.fdopen(fd, mode) as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def lock_path(out):
    """The lock file of output ``out``: ``OUT.lock`` beside it."""
    out = Path(out)
    return out.with_name(out.name + ".lock")


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class OutputLock:
    """An exclusive lock on an output, held as ``OUT.lock`` (created atomically, holding the
    owner's pid) while a run writes it. A lock whose owner is no longer alive is stale and
    taken over; a live one is refused with one line."""

    def __init__(self, out):
        self.out = Path(out)
        self.path = lock_path(out)
        self.held = False

    def check(self):
        """Refuse now, as :meth:`acquire` would, if a live run holds the lock (a command
        checks this before anything slow; :meth:`acquire` still takes it atomically)."""
        try:
            pid = int(self.path.read_text().strip() or "0")
        except (OSError, ValueError):
            return self
        if pid > 0 and _alive(pid):
            raise ConfigError(f"output {str(self.out)!r} is being written by another run "
                              f"(pid {pid}, lock {str(self.path)!r}); wait for it or choose "
                              f"another --out")
        return self

    def acquire(self):
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                try:
                    pid = int(self.path.read_text().strip() or "0")
                except (OSError, ValueError):
                    pid = 0
                if pid > 0 and _alive(pid):
                    raise ConfigError(f"output {str(self.out)!r} is being written by another "
                                      f"run (pid {pid}, lock {str(self.path)!r}); wait for it "
                                      f"or choose another --out") from None
                try:
                    self.path.unlink()          # stale: its owner is gone
                except FileNotFoundError:
                    pass
                continue
            except OSError as e:
                if e.errno in (errno.EACCES, errno.EROFS, errno.EPERM):
                    raise ConfigError(f"cannot lock output {str(self.out)!r}: "
                                      f"{e.strerror}") from None
                raise
            with os.fdopen(fd, "w") as f:
                f.write(str(os.getpid()))
            self.held = True
            return self
        raise ConfigError(f"cannot lock output {str(self.out)!r} ({str(self.path)!r} keeps "
                          f"coming back)")

    def release(self):
        if self.held:
            self.held = False
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()


def check_report_paths(table, out, option="--out"):
    """A sweep table to report on (an existing ``.parquet`` or ``.csv`` file) and the report's
    folder ``out`` (``option`` names it in a refusal), checked before anything is read."""
    path = Path(table)
    if not path.is_file():
        raise ConfigError(f"table {str(table)!r} not found" if not path.exists()
                          else f"table {str(table)!r} is not a file")
    if path.suffix not in (".parquet", ".csv"):
        raise ConfigError(f"table {str(table)!r} must be a .parquet or .csv sweep table")
    return check_output(out, option, inputs=[table], folder=True)


def check_backend(backend=None, threads=None, scheduler=None, workers=None):
    """The name of the sweep backend (``local`` or ``dask``) that ``backend``, ``threads``,
    ``scheduler`` and ``workers`` ask for, their combination checked (nothing is started)."""
    dask_only = [opt for opt, value in (("--scheduler", scheduler), ("--workers", workers))
                 if value is not None]
    if backend == "local" and dask_only:
        raise ConfigError(f"{dask_only[0]} needs --backend dask, not --backend local")
    if scheduler is not None and workers is not None:
        raise ConfigError("--workers sizes a local dask cluster; it cannot be used with "
                          "--scheduler")
    if backend is None:
        backend = "dask" if dask_only else "local"
    if backend == "dask" and threads is not None:
        raise ConfigError("--threads is for --backend local; dask workers play with one "
                          "thread each (size a local cluster with --workers)")
    cores = os.cpu_count() or 1
    if workers is not None and workers > cores:
        raise ConfigError(f"workers must be 1..{cores} (the cores of this machine; each worker "
                          f"is a process holding its own compiled kernels), got {workers}")
    return backend


def check_workers(workers):
    """``workers``: processes of this machine, ``1..`` its cores."""
    cores = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) \
            or not 1 <= workers <= cores:
        raise ConfigError(f"workers must be 1..{cores} (the cores of this machine), got "
                          f"{workers!r}")
    return int(workers)
