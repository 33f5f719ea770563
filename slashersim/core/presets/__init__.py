"""Difficulty presets: named settings of the knobs, per edition.

``difficulty.toml`` beside this file holds them; ``experiments/derive_presets.py`` derives them
with the tuner (:mod:`slashersim.analysis.tune`), writes them with :func:`write_presets`
(tomli-w) and the evidence to ``results/presets.md``. Its top-level ``derived_for`` names the
player (policy) whose win rates the presets were tuned to: a preset's difficulty holds for that
player.
"""
from functools import cache
from pathlib import Path
import tomllib
from typing import NamedTuple

import tomli_w

from .. import rules
from ..errors import ConfigError

PRESETS_FILE = Path(__file__).with_name("difficulty.toml")
DIFFICULTIES = ("easy", "normal", "hard", "nightmare")


@cache
def load_presets():
    """``{edition: {difficulty: {knob: value}}}`` from ``difficulty.toml`` (empty if absent)."""
    if not PRESETS_FILE.exists():
        return {}
    data = tomllib.loads(PRESETS_FILE.read_text())
    return {edition: {name: dict(p["knobs"]) for name, p in table.items()}
            for edition, table in data.items() if edition in rules.EDITION_NAMES}


def derived_for(path=PRESETS_FILE):
    """The player (policy name) the presets of ``path`` were derived for; ``None`` if unsaid."""
    if not Path(path).exists():
        return None
    return tomllib.loads(Path(path).read_text()).get("derived_for")


def write_presets(presets, player, path=PRESETS_FILE, header=None):
    """Write ``presets`` (``{edition: {difficulty: {"target", "win_rate", "win_ci", "games",
    "meets_target", "knobs": {...}}}}``) to ``path`` as TOML with tomli-w, with the top-level
    key ``derived_for = player``; ``header`` lines become comments at the top."""
    data = {"derived_for": player, **presets}
    text = "".join(f"# {line}\n" for line in (header or ())) + "\n" + tomli_w.dumps(data)
    Path(path).write_text(text)
    load_presets.cache_clear()


def preset_knobs(name, edition="rulebook"):
    """The knob values of difficulty ``name`` for ``edition``; a one-line error if unknown."""
    if edition not in rules.EDITION_NAMES:
        raise ConfigError(f"unknown edition {edition!r}; expected one of: "
                          f"{', '.join(rules.EDITION_NAMES)}")
    available = load_presets().get(edition, {})
    if name not in available:
        choices = ", ".join(n for n in DIFFICULTIES if n in available) or "(none derived yet)"
        raise ConfigError(f"unknown difficulty {name!r}; expected one of: {choices}")
    return dict(available[name])


class Override(NamedTuple):
    """A knob given explicitly over a ``difficulty`` preset's own value."""

    difficulty: str
    knob: str
    preset: object
    value: object


def overrides(values):
    """The knobs of a mapping with a ``difficulty`` entry that override its preset: an
    :class:`Override` for each knob given explicitly with another value than the preset's. An
    explicit knob always wins over the preset (see
    :meth:`slashersim.core.config.GameConfig.from_dict`); callers say so."""
    name = values.get("difficulty")
    if name is None:
        return []
    preset = preset_knobs(name, values.get("edition", "rulebook"))
    return [Override(name, k, preset[k], values[k]) for k in preset
            if k in values and values[k] is not None and values[k] != preset[k]]
