"""Progress on stderr with tqdm, and the adapters between the library's progress callbacks.

The library reports progress through callbacks and never prints: :func:`runner.simulate`
calls ``progress(done, total)`` after each kernel call, the analyses call ``step(n)`` with the
games just played. The command line turns them into one tqdm bar (:func:`bar`), shown only
on a terminal and never with ``--quiet``.
"""
import sys
import time

from tqdm import tqdm


def bar(total, enabled=True, unit="game", desc=None, terminal_only=True, lines_every=None):
    """A tqdm progress bar on stderr over ``total`` units, with rate and time left; a silent
    stand-in when ``enabled`` is false or (with ``terminal_only``, as the command line has
    it) stderr is not a terminal. Short runs never show it (it appears after half a second).
    With ``lines_every`` (seconds), a long command off a terminal (a log file, a batch job)
    prints a line of progress and time left that often instead."""
    show = bool(enabled) and (sys.stderr.isatty() or not terminal_only)
    if enabled and not show and lines_every:
        return ProgressLines(total, unit, lines_every)
    return tqdm(total=total, unit=unit, unit_scale=True, disable=not show, file=sys.stderr,
                dynamic_ncols=True, mininterval=0.25, delay=0.5, leave=False, desc=desc,
                smoothing=0.1)


def duration(seconds):
    """``42 s``, ``7 min``, ``2.5 h``: a time for a reader, to two figures at most."""
    if seconds < 90:
        return f"{max(seconds, 1):.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class ProgressLines:
    """Progress as plain lines on stderr, one every ``every`` seconds at most: done, total
    and the time left at the rate so far. Has the parts of tqdm's interface the commands use."""

    def __init__(self, total, unit="game", every=60.0):
        self.total, self.unit, self.every = total, unit, every
        self.n = 0
        self.start = self.last = time.monotonic()

    def update(self, n=1):
        self.n += n
        now = time.monotonic()
        if now - self.last >= self.every and 0 < self.n < self.total:
            self.last = now
            left = (now - self.start) * (self.total - self.n) / self.n
            print(f"slashersim: {self.n / self.total:.0%} ({self.n:,} of {self.total:,} "
                  f"{self.unit}s), about {duration(left)} left", file=sys.stderr, flush=True)

    def set_postfix_str(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def increments(step):
    """A ``progress(done, total)`` callback for :func:`runner.simulate` that calls
    ``step(n)`` with the games played since its last call; ``None`` for ``None``."""
    if step is None:
        return None
    last = [0]

    def progress(done, total):
        if done > last[0]:
            step(done - last[0])
            last[0] = done
    return progress
