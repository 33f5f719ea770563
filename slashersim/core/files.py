"""The user's files (sweep specs and card files in TOML; positions and game records in JSON),
read with one-line refusals.

One reader for every file a user hands over, so each is refused alike, naming the file and the
reason: missing, a folder, unreadable, or not TOML or JSON (with where the parser stopped).
"""
import json
from pathlib import Path
import tomllib

from .errors import ConfigError


def _text(path, kind, error):
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise error(f"{kind} {str(path)!r} does not exist") from None
    except IsADirectoryError:
        raise error(f"{kind} {str(path)!r} is a folder, not a file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise error(f"{kind} {str(path)!r} cannot be read ({e})") from None


def read_json(path, kind, error=ConfigError):
    """The content of the JSON file at ``path``; ``kind`` names it in a refusal (``"state
    file"``), raised as ``error``."""
    path = Path(path)
    text = _text(path, kind, error)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise error(f"{kind} {str(path)!r} is not valid JSON: {e}") from None


def read_toml(path, kind, error=ConfigError):
    """``(text, data)`` of the TOML file at ``path``; ``kind`` names it in a refusal
    (``"spec file"``), raised as ``error``."""
    path = Path(path)
    return parse_toml(_text(path, kind, error), path, kind, error)


def parse_toml(text, path, kind, error=ConfigError):
    """``(text, data)`` of the TOML ``text`` read from ``path`` (named in a refusal)."""
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{kind} {path}: not a TOML file ({e})") from None
