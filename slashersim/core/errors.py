"""The error every refused input raises: one line naming the value and what is allowed, with
the allowed name nearest a misspelt one (:func:`suggest`)."""
import difflib


class ConfigError(ValueError):
    """A value is not allowed; the message names the value and the choices."""


def suggest(value, allowed):
    """`` (did you mean 'x'?)`` for the allowed name closest to ``value``, or ``""``."""
    close = difflib.get_close_matches(str(value), list(allowed), 1)
    return f" (did you mean {close[0]!r}?)" if close else ""
