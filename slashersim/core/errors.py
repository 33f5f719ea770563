"""The error every refused input raises: one line naming the value and what is allowed."""


class ConfigError(ValueError):
    """A value is not allowed; the message names the value and the choices."""
