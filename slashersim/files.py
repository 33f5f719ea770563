"""The user's TOML files (sweep specs, card files), read with one-line refusals.

One reader for every TOML file a user hands over, so each is refused alike, naming the file
and the reason: missing, a folder, unreadable, or not TOML (with the line the parser stopped
at).
"""
from pathlib import Path
import tomllib

from .errors import ConfigError


def read_toml(path, kind, error=ConfigError):
    """``(text, data)`` of the TOML file at ``path``; ``kind`` names it in a refusal
    (``"spec file"``), raised as ``error``."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise error(f"{kind} {str(path)!r} does not exist") from None
    except IsADirectoryError:
        raise error(f"{kind} {str(path)!r} is a folder, not a file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise error(f"{kind} {str(path)!r} cannot be read ({e})") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{kind} {path}: not a TOML file ({e})") from None
