"""Progress on stderr with tqdm, and the adapters between the library's progress callbacks.

The library reports progress through callbacks and never prints: :func:`runner.simulate`
calls ``progress(done, total)`` after each kernel call, the analyses call ``step(n)`` with the
games just played. The command line turns them into one tqdm bar (:func:`bar`), shown only
on a terminal and never with ``--quiet``.
"""
import sys

from tqdm import tqdm


def bar(total, enabled=True, unit="game", desc=None, terminal_only=True):
    """A tqdm progress bar on stderr over ``total`` units, with rate and time left; a silent
    stand-in when ``enabled`` is false or (with ``terminal_only``, as the command line has
    it) stderr is not a terminal. Short runs never show it (it appears after half a second)."""
    show = bool(enabled) and (sys.stderr.isatty() or not terminal_only)
    return tqdm(total=total, unit=unit, unit_scale=True, disable=not show, file=sys.stderr,
                dynamic_ncols=True, mininterval=0.25, delay=0.5, leave=False, desc=desc,
                smoothing=0.1)


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
